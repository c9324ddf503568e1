#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Tests of the xcodec command: run.sh PATH/TO/xcodec
#
# Round trips with the zstd command both ways, pipes, -t on damaged input,
# missing files, outputs that exist, --rm/-k, -l, -D, checksums of known
# data, and an interrupt during compression, with every exit status checked.
# Tests that need the zstd command, or env --default-signal (GNU coreutils
# 8.31+), are skipped when those are missing.  Prints a closing line
# "cli: N passed, N failed" and exits non-zero when a test failed.
set -u

XC=${1:?usage: run.sh PATH/TO/xcodec}
case $XC in /*) ;; *) XC=$(pwd)/$XC ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)

T=$(mktemp -d "${TMPDIR:-/tmp}/xcodec-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

pass=0
fail=0
skip=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
    desc=$1
    shift
    if "$@"; then ok; else bad "$desc"; fi
}

# status WANT DESCRIPTION COMMAND...: passes when the command exits with WANT
# ("nonzero" accepts any failure).  Its stdout goes to $T/out, its stderr
# to $T/err.
status() {
    want=$1 desc=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$want" = nonzero ]; then
        if [ "$got" -ne 0 ]; then ok; else bad "$desc: exit 0, wanted a failure"; fi
    elif [ "$got" -eq "$want" ]; then
        ok
    else
        bad "$desc: exit $got, wanted $want; stderr: $(head -c 300 "$T/err")"
    fi
}

err_mentions() { grep -q -- "$1" "$T/err"; }

have_zstd=0
command -v zstd >/dev/null 2>&1 && have_zstd=1
need_zstd() {
    if [ $have_zstd -eq 0 ]; then
        skip=$((skip + 1))
        return 1
    fi
    return 0
}

# ---- inputs ---------------------------------------------------------------------------
# Compressible text of about 5 MB (several windows at the default level),
# a small file, an empty file, and incompressible bytes.
awk 'BEGIN { for (i = 0; i < 150000; i++) printf "%d the quick brown fox %d jumps over %d\n", i, i * 7, i % 97 }' >big
printf 'hello, xcodec\n' >small
: >empty
head -c 300000 "$XC" >binary
printf 123456789 >check9

# ---- basic commands --------------------------------------------------------------------
status 0 "--version" "$XC" --version
status 0 "--help" "$XC" --help
status 1 "unknown option (zstd's status)" "$XC" --no-such-option
status 0 "cpucap" sh -c "'$XC' cpucap >cpucap.out"
check "cpucap names the tier and each kernel" \
    sh -c 'grep -q "^tier" cpucap.out && grep -q "^crc32c" cpucap.out && grep -q "^inet" cpucap.out &&
           grep -q "^zstd_decode" cpucap.out && grep -q "^zstd_encode" cpucap.out'

# ---- checksums ----------------------------------------------------------------------
status 0 "crc32c" sh -c "'$XC' crc32c check9 >sum.out"
check "crc32c of 123456789 is e3069283" grep -qx "e3069283  check9" sum.out
status 0 "crc32c from stdin" sh -c "'$XC' crc32c - <check9 >sum.out"
check "crc32c of stdin" grep -qx "e3069283  -" sum.out
status 0 "inet" sh -c "'$XC' inet check9 empty >sum.out"
# RFC 1071: the words 3132 3334 3536 3738 3900 sum to 109d4, which folds
# to 09d5 and complements to f62a; an empty input sums to 0, giving ffff.
check "inet of 123456789 is f62a" grep -qx "f62a  check9" sum.out
check "inet of an empty file is ffff" grep -qx "ffff  empty" sum.out
# A pipe that delivers an odd-length piece first: the odd split must not
# change the checksum.
"$XC" inet big | sed 's/  big$//' >sum.file
(printf 0; sleep 0.2; cat big) >odd.in
{ printf 0; sleep 0.2; cat big; } | "$XC" inet | sed 's/  -$//' >sum.pipe
"$XC" inet odd.in | sed 's/  odd.in$//' >sum.odd
check "inet over a pipe with an odd first piece equals the file's" cmp -s sum.pipe sum.odd
check "crc32c of several files" sh -c "'$XC' crc32c big small | wc -l | grep -q 2"
status nonzero "crc32c of a missing file" "$XC" crc32c no-such-file
check "the message names the missing file" err_mentions no-such-file

# ---- round trips with zstd --------------------------------------------------------------
if need_zstd; then
    # Level 19 on the whole of big takes seconds: its first 300 KB do.
    head -c 300000 big >mid
    for lv in -1 -3 -9 -19 --fast=3; do
        f=big
        [ "$lv" = -19 ] && f=mid
        rm -f $f.zst
        status 0 "compress $lv" "$XC" -q $lv $f
        check "zstd -t accepts level $lv" zstd -q -t $f.zst
        check "zstd -d restores level $lv" sh -c "zstd -q -d -c $f.zst | cmp -s - $f"
    done
    rm -f big.zst
    status 0 "compress --ultra -22" "$XC" -q --ultra -22 small -o small.u.zst
    check "zstd -d of --ultra -22" sh -c 'zstd -q -d -c small.u.zst | cmp -s - small'
    for f in small empty binary; do
        status 0 "compress $f" "$XC" -q "$f"
        check "zstd restores $f" sh -c "zstd -q -d -c '$f.zst' | cmp -s - '$f'"
    done
    check "the source stays by default" test -f small
    for f in big small empty binary; do
        zstd -q -f "$f" -o "z.$f.zst"
        status 0 "decompress zstd's $f" "$XC" -q -d "z.$f.zst" -o "z.$f"
        check "xcodec restores zstd's $f" cmp -s "z.$f" "$f"
    done
    zstd -q -f -19 --no-check mid -o z19.zst
    status 0 "decompress zstd -19 --no-check" sh -c "'$XC' -d -c z19.zst >z19.out"
    check "xcodec restores zstd -19" cmp -s z19.out mid
    # Several frames, one after another, with a skippable frame between.
    printf '\120\052\115\030\004\000\000\000abcd' >skip.bin
    cat z.small.zst skip.bin z.big.zst >multi.zst
    cat small big >multi.want
    status 0 "decompress concatenated frames" sh -c "'$XC' -dc multi.zst >multi.out"
    check "concatenated frames decode in order" cmp -s multi.out multi.want
fi

# ---- threads ------------------------------------------------------------------------------
# -T# compresses on workers: the frame is the same for every count, and
# differs from the single-threaded one once the input is several jobs
# (big is about 5 MB, jobs at level 3 without a known size are 8 MiB: so
# at level 1 with 2 MiB jobs).
status 0 "-T2" sh -c "'$XC' -1 -T2 -c big >t2.zst"
status 0 "--threads=3" sh -c "'$XC' -1 --threads=3 -c big >t3.zst"
status 0 "-T0 (every core)" sh -c "'$XC' -1 -T0 -c big >t0.zst"
status 0 "--single-thread" sh -c "'$XC' -1 -T2 --single-thread -c big >t1.zst"
status 0 "one thread" sh -c "'$XC' -1 -c big >tser.zst"
check "-T2 and --threads=3 write the same frame" cmp -s t2.zst t3.zst
check "-T0 writes the same frame" cmp -s t2.zst t0.zst
check "--single-thread is the single-threaded frame" cmp -s t1.zst tser.zst
check "workers cut the input into jobs" sh -c "! cmp -s t2.zst tser.zst"
status 0 "-T2 output decodes" sh -c "'$XC' -dc t2.zst >t2.out"
check "-T2 round trip" cmp -s t2.out big
status 1 "-T without a number" "$XC" -T -c big
# --job-frames (xcodec only): a frame per job, the same file for any -T
# above 1, read by both decoders; without workers, the one-thread frame.
status 0 "--job-frames -T2" sh -c "'$XC' -1 -T2 --job-frames -c big >jf2.zst"
status 0 "--job-frames -T3" sh -c "'$XC' -1 -T3 --job-frames -c big >jf3.zst"
status 0 "--job-frames -T1" sh -c "'$XC' -1 -T1 --job-frames -c big >jf1.zst"
check "--job-frames: the same file for -T2 and -T3" cmp -s jf2.zst jf3.zst
check "--job-frames: not the one-frame output" sh -c "! cmp -s jf2.zst t2.zst"
check "--job-frames -T1 is the one-thread frame" cmp -s jf1.zst tser.zst
status 0 "--job-frames -l" "$XC" -l jf2.zst
check "--job-frames writes several frames" sh -c "awk 'NR == 2 { exit !(\$1 > 1) }' out"
status 0 "--job-frames output decodes" sh -c "'$XC' -dc jf2.zst >jf2.out"
check "--job-frames round trip" cmp -s jf2.out big
if command -v zstd >/dev/null 2>&1; then
    status 0 "zstd reads --job-frames output" sh -c "zstd -qdc jf2.zst >jf2z.out"
    check "zstd restores --job-frames output" cmp -s jf2z.out big
fi

# --auto-threads: -T0 counts physical cores (the default) or logical ones,
# and says which with -v, in zstd's words.  The topology is read from a
# made-up sysfs: CPUs 0-3 are two cores of two threads (the older file
# name), CPU 4 a core of its own (the newer one), CPU 5 is offline (no
# topology); a tree with no topology at all counts the logical cores.
logical=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
for c in 0 1 2 3 4 5; do mkdir -p "sys/cpu$c/topology" "bare/cpu$c"; done
for c in 0 2; do echo "0,2" >"sys/cpu$c/topology/thread_siblings_list"; done
for c in 1 3; do echo "1,3" >"sys/cpu$c/topology/thread_siblings_list"; done
echo 4 >sys/cpu4/topology/core_cpus_list
rmdir sys/cpu5/topology
mkdir -p sys/cpufreq
status 0 "-T0 counts physical cores" env XCODEC_TEST_SYSFS_CPU="$T/sys" "$XC" -v -1 -T0 -c small
check "-T0: 3 physical cores in the made-up topology" grep -q "^Note: 3 physical core(s) detected" err
status 0 "--auto-threads=physical" env XCODEC_TEST_SYSFS_CPU="$T/sys" "$XC" -v -1 -T0 --auto-threads=physical -c small
check "--auto-threads=physical: 3 cores" grep -q "^Note: 3 physical core(s) detected" err
status 0 "--auto-threads=logical" env XCODEC_TEST_SYSFS_CPU="$T/sys" "$XC" -v -1 -T0 --auto-threads=logical -c small
check "--auto-threads=logical: the online CPUs" grep -q "^Note: $logical logical core(s) detected" err
status 0 "--auto-threads logical" env XCODEC_TEST_SYSFS_CPU="$T/sys" "$XC" -v -1 -T0 --auto-threads logical -c small
check "--auto-threads logical (two words)" grep -q "^Note: $logical logical core(s) detected" err
status 0 "-T0 without a topology" env XCODEC_TEST_SYSFS_CPU="$T/bare" "$XC" -v -1 -T0 -c small
check "-T0 without a topology: the logical count" grep -q "^Note: $logical physical core(s) detected" err
status 0 "-T0 without sysfs" env XCODEC_TEST_SYSFS_CPU="$T/none" "$XC" -v -1 -T0 -c small
check "-T0 without sysfs: the logical count" grep -q "^Note: $logical physical core(s) detected" err
status 0 "-T0 quietly" env XCODEC_TEST_SYSFS_CPU="$T/sys" "$XC" -1 -T0 -c small
check "-T0 without -v says nothing" sh -c "! grep -q Note err"
status 0 "-T0 on this machine" "$XC" -1 -T0 -c big
check "-T0 on this machine: the workers' frame (or one core's)" sh -c "cmp -s out t2.zst || cmp -s out tser.zst"

# ---- seekable ------------------------------------------------------------------------------
# --seekable writes frames of a fixed content size and a seek table: any
# zstd decoder reads it whole, -d --range= reads a piece, -l -v shows the
# table; the file is the same for any -T.
status 0 "--seekable=64K" "$XC" -q --seekable=64K big -o sk.zst
status 0 "--seekable -T2" "$XC" -q --seekable=64K -T2 big -o sk2.zst
check "--seekable with workers writes the same file" cmp -s sk.zst sk2.zst
# Frames larger than a job (2 MiB at level 1): compressed whole, in parallel,
# each the one-thread frame.
status 0 "--seekable=3M -T1" "$XC" -q -1 --seekable=3M big -o skbig1.zst
status 0 "--seekable=3M -T2" "$XC" -q -1 --seekable=3M -T2 big -o skbig2.zst
check "--seekable -T2 with frames above a job: the one-thread file" cmp -s skbig1.zst skbig2.zst
status 0 "seekable decodes as plain frames" sh -c "'$XC' -dc sk.zst >sk.out"
check "seekable round trip" cmp -s sk.out big
if need_zstd; then
    status 0 "zstd reads a seekable file" sh -c "zstd -qdc sk.zst >skz.out"
    check "zstd's output is the input" cmp -s skz.out big
fi
status 0 "--range" sh -c "'$XC' -d --range=100000:70000 sk.zst >range.out"
head -c 170000 big | tail -c 70000 >range.want
check "--range gives those bytes" cmp -s range.out range.want
status 0 "--range past the content's end is cut short" \
    sh -c "'$XC' -d --range=$(($(wc -c <big) - 10)):1000 sk.zst | wc -c | grep -qx 10"
status 1 "--range offset past the end" "$XC" -d --range=999999999:1 sk.zst
check "the message says past the end" err_mentions "past the end"
status 1 "--range on a plain frame" "$XC" -d --range=0:10 t1.zst
check "the message names the missing seek table" err_mentions "seek table missing"
status 1 "--range without OFFSET:LENGTH" "$XC" -d --range=12 sk.zst
status 1 "--seekable=0" "$XC" --seekable=0 -c big
status 0 "-l -v shows the seek table" sh -c "'$XC' -lv sk.zst >sklist.out"
check "the seek table lists every frame" grep -q "^Seek table: $((($(wc -c <big) + 65535) / 65536)) frames" sklist.out
status 0 "--seekable of an empty file" "$XC" -q --seekable empty -o skempty.zst
status 0 "empty seekable range" sh -c "'$XC' -d --range=0:10 skempty.zst | wc -c | grep -qx 0"

# ---- pipes --------------------------------------------------------------------------------
status 0 "stdin to stdout" sh -c "'$XC' <big >pipe.zst"
status 0 "and back" sh -c "'$XC' -d <pipe.zst >pipe.out"
check "stdin/stdout round trip" cmp -s pipe.out big
status 0 "- is stdin" sh -c "cat big | '$XC' -c - | '$XC' -dc - >pipe2.out"
check "a pipe through both directions" cmp -s pipe2.out big
if need_zstd; then
    check "xcodec | zstd -d" sh -c "cat big | '$XC' | zstd -q -d | cmp -s - big"
    check "zstd | xcodec -d" sh -c "cat big | zstd -q | '$XC' -d | cmp -s - big"
fi
status 0 "-c writes stdout for a file" sh -c "'$XC' -c small >c.zst"
status nonzero "non-zstd stdin" sh -c "'$XC' -d <small >/dev/null"
check "the message says the format, in zstd's words" err_mentions "unsupported format"
status 0 "-dcf copies non-zstd data through" sh -c "'$XC' -dcf small >through.out"
check "the copy is exact" cmp -s through.out small

# A terminal, when util-linux script(1) can make one: no compressed data to
# it without -f; the refusal is an error.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
    # As zstd: the implicit standard output of a pipe is refused on a
    # terminal; -c and -f ask for it.
    status nonzero "compressed data to a terminal" script -qec "'$XC' <small" /dev/null
    check "the refusal says why" grep -q "stdout is a console" "$T/out"
    status 0 "-f writes compressed data to a terminal" script -qec "'$XC' -f <small" /dev/null
    status 0 "-c writes compressed data to a terminal" script -qec "'$XC' -c small" /dev/null
    # The question before overwriting, as zstd asks it, answered through
    # the terminal script makes.
    "$XC" -q -f small -o ask.zst
    printf 'keep me\n' >ask.zst
    printf 'n\n' | script -qec "'$XC' small -o ask.zst" /dev/null >ask.out 2>&1
    check "a terminal is asked before overwriting" grep -q "ask.zst already exists; overwrite (y/n) ?" ask.out
    check "answering n keeps the file" sh -c 'test "$(cat ask.zst)" = "keep me"'
    printf 'y\n' | script -qec "'$XC' small -o ask.zst" /dev/null >ask.out 2>&1
    check "answering y overwrites it" sh -c "'$XC' -dc ask.zst | cmp -s - small"
    if need_zstd; then
        # zstd's side is the reference, and script(1) can lose the race
        # between the piped answer and zstd's own prompt on a loaded
        # machine: up to three tries.
        for try in 1 2 3; do
            printf 'keep me\n' >ask.zst
            printf 'n\n' | script -qec "zstd small -o ask.zst" /dev/null >ask.zout 2>&1
            grep -q "ask.zst already exists; overwrite (y/n) ?" ask.zout && break
        done
        check "zstd asks the same question" grep -q "ask.zst already exists; overwrite (y/n) ?" ask.zout
    fi
    printf 'n\n' | script -qec "'$XC' small binary -o cat.zst" /dev/null >ask.out 2>&1
    check "several inputs to one -o: the warning" grep -q "concatenated into a single output file: cat.zst" ask.out
    check "several inputs to one -o: answering n aborts" test ! -e cat.zst
    printf 'y\n' | script -qec "'$XC' small binary -o cat.zst" /dev/null >ask.out 2>&1
    cat small binary >cat.want
    check "several inputs to one -o: answering y goes on" sh -c "'$XC' -dc cat.zst | cmp -s - cat.want"
    # The progress line: on a terminal, for work over a second (here a
    # pipe that pauses), with the sizes, ratio and speed, erased at the end.
    script -qec "sh -c '(cat big; sleep 1.2; cat big) | \"$XC\" -o prog.zst'" /dev/null \
        </dev/null >prog.tty 2>&1
    check "a progress line on a terminal after a second" grep -q "stdin\*: .* => .*(x[0-9.]*)  [0-9.]* MB/s" prog.tty
    check "the progress line is erased" sh -c "grep -q \"\$(printf '\\r\\033\\[K')\" prog.tty"
    script -qec "sh -c '(cat big; sleep 1.2; cat big) | \"$XC\" --no-progress -o prog2.zst'" /dev/null \
        </dev/null >prog.tty 2>&1
    check "--no-progress: none on a terminal" sh -c '! grep -q "MB/s" prog.tty'
else
    skip=$((skip + 1))
fi
# The progress line is for terminals only: nothing of it in a file.
"$XC" -f -v big -o prog.zst 2>prog.err
check "no progress line when stderr is not a terminal" sh -c '! tr "\r" "#" <prog.err | grep -q "#"'
"$XC" -f --progress big -o prog.zst 2>prog.err
check "--progress forces it when stderr is not a terminal" grep -q "big: .*%  .* MB/s" prog.err

# ---- -t ------------------------------------------------------------------------------------
"$XC" -q -f big -o good.zst
status 0 "-t on a good file" "$XC" -q -t good.zst
cp good.zst corrupt.zst
size=$(wc -c <corrupt.zst)
printf 'XXXXXXXX' | dd of=corrupt.zst bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
status nonzero "-t on a corrupt file" "$XC" -t corrupt.zst
check "the message names the corrupt file" err_mentions corrupt.zst
head -c $((size - 10)) good.zst >trunc.zst
status nonzero "-t on a truncated file" "$XC" -t trunc.zst
check "the message says truncated" err_mentions "truncated"
status nonzero "-t on an empty file" "$XC" -t empty
status nonzero "-d of a corrupt file" "$XC" -d corrupt.zst -o corrupt.out
check "no output after a failed decompression" test ! -e corrupt.out
check "no temporary file after a failed decompression" sh -c '! ls -A | grep -q "^\.corrupt"'

# ---- missing files, existing outputs ----------------------------------------------------
status nonzero "missing file" "$XC" no-such-file
check "the message names the missing file" err_mentions no-such-file
check "no output for a missing file" test ! -e no-such-file.zst
status nonzero "-d missing file" "$XC" -d no-such-file.zst
check "the message names it" err_mentions no-such-file.zst
status nonzero "a missing file among good ones" "$XC" -q -f small no-such-file binary
check "the good files are still done" sh -c 'test -s small.zst && test -s binary.zst'
printf 'keep me\n' >small.zst
status nonzero "existing output without -f" "$XC" small
check "the refusal names the output" err_mentions small.zst
check "the existing output is untouched" sh -c 'test "$(cat small.zst)" = "keep me"'
status 0 "existing output with -f" "$XC" -q -f small
check "-f replaced it with a good frame" sh -c "'$XC' -dc small.zst | cmp -s - small"
printf 'keep me\n' >small.out
status nonzero "-o onto an existing file" "$XC" -d small.zst -o small.out
check "-o target untouched" sh -c 'test "$(cat small.out)" = "keep me"'
status nonzero "unknown suffix" "$XC" -d small
check "the message names the file" err_mentions small
status nonzero "-o with a missing input" "$XC" small no-such-file -o both.zst
check "-o leaves no partial output" test ! -e both.zst
status 1 "-q -o with two inputs aborts, as zstd" "$XC" -q small binary -o both.zst
status 0 "-f -o with two inputs" "$XC" -q -f small binary -o both.zst
cat small binary >multi2.want
check "-o concatenates the inputs" sh -c "'$XC' -dc both.zst | cmp -s - multi2.want"
status 0 "-o /dev/null writes in place" "$XC" -q -f small -o /dev/null
check "/dev/null is still a device" test -c /dev/null

# ---- --rm and -k ----------------------------------------------------------------------------
cp big rm1
status 0 "--rm" "$XC" -q --rm rm1
check "--rm removed the source" test ! -e rm1
check "--rm left the output" test -s rm1.zst
status 0 "-d --rm" "$XC" -q -d --rm rm1.zst
check "-d --rm removed the .zst" test ! -e rm1.zst
check "-d --rm restored the file" cmp -s rm1 big
status 0 "-k" "$XC" -q -k rm1
check "-k kept the source" test -f rm1
cp good.zst rm2.zst
status nonzero "--rm with a failure" "$XC" -d --rm corrupt.zst rm2.zst -o rmfail.out
check "a failed run removes no source" sh -c 'test -f corrupt.zst && test -f rm2.zst'
chmod 640 small
rm -f small.zst
"$XC" -q small
check "the output takes the source's mode" sh -c 'test "$(stat -c %a small.zst)" = 640'

# ---- -l --------------------------------------------------------------------------------------
status 0 "-l" sh -c "'$XC' -l good.zst >list.out"
check "-l prints the header" grep -q "^Frames" list.out
check "-l counts one frame with a checksum" sh -c 'grep good.zst list.out | grep -q "^ *1 *0 .*XXH64"'
"$XC" -q --no-check small -o nocheck.zst
status 0 "-l --no-check" sh -c "'$XC' -l nocheck.zst >list.out"
check "-l says no checksum" sh -c 'grep nocheck.zst list.out | grep -q None'
status 0 "-l several files" sh -c "'$XC' -l good.zst nocheck.zst >list.out"
check "-l prints a total line" grep -q "files" list.out
status nonzero "-l of a non-zstd file" "$XC" -l small
status nonzero "-l of a truncated file" "$XC" -l trunc.zst
status 0 "-lv" sh -c "'$XC' -lv good.zst >list.out"
check "-lv prints zstd's details" grep -q "^# Zstandard Frames: 1" list.out

# ---- dictionaries (-D) ----------------------------------------------------------------------
if need_zstd; then
    mkdir samples
    i=0
    while [ $i -lt 400 ]; do
        echo "{\"id\": $i, \"name\": \"user$i\", \"role\": \"admin$((i % 7))\", \"city\": \"Lisbon $((i % 13))\"}" >samples/s$i
        i=$((i + 1))
    done
    if zstd -q --train samples/* --maxdict=2048 -o dict 2>/dev/null; then
        zstd -q -D dict samples/s7 -o s7.zst
        status 0 "-d -D" "$XC" -q -d -D dict s7.zst -o s7.out
        check "-D decodes a dictionary frame" cmp -s s7.out samples/s7
        status nonzero "a dictionary frame without -D" "$XC" -d s7.zst -o s7.none
        check "the message says a dictionary is missing" err_mentions dictionary
        check "no output without the dictionary" test ! -e s7.none
    else
        skip=$((skip + 1))
    fi
    status nonzero "-D with a missing dictionary" "$XC" -d -D no-such-dict good.zst -o x.out
    check "the message names the dictionary" err_mentions no-such-dict
fi

# ---- --train, and -D when compressing ----------------------------------------------------------
mkdir tsamples
i=0
while [ $i -lt 300 ]; do
    echo "{\"login\": \"user$i\", \"id\": $((i * 7919)), \"url\": \"https://api.example.com/users/user$i\", \"type\": \"User\", \"site_admin\": false, \"city\": \"Lisbon $((i % 13))\", \"repos\": $((i % 50))}" >tsamples/r$i
    i=$((i + 1))
done
status 0 "--train" "$XC" -q --train tsamples/* --maxdict=4KiB -o xdict
check "--train writes a zstd-format dictionary" \
    sh -c 'test "$(od -An -tx1 -N4 xdict | tr -d " \n")" = 37a430ec'
check "--maxdict bounds its size" test "$(wc -c <xdict)" -le 4096
status 1 "--train over an existing file" "$XC" -q --train tsamples/* -o xdict
check "the message names the existing output" err_mentions xdict
status 0 "--train -f overwrites" "$XC" -q -f --train tsamples/* --maxdict=4KiB -o xdict
status 1 "--train with too few samples" "$XC" --train tsamples/r1 tsamples/r2 -o few
check "the message says how many samples are needed" err_mentions "at least 5"
check "no dictionary after a failed --train" test ! -e few
status 1 "--train with a missing sample" "$XC" --train tsamples/r1 no-such-sample tsamples/r2 \
    tsamples/r3 tsamples/r4 tsamples/r5 -o miss
check "the message names the missing sample" err_mentions no-such-sample
check "no dictionary after a missing sample" test ! -e miss
status 1 "--maxdict below the minimum" "$XC" --train tsamples/* --maxdict=100 -o tiny
status 1 "--maxdict with a bad value" "$XC" --train tsamples/* --maxdict=lots -o tiny

status 0 "-D compresses" "$XC" -q -D xdict tsamples/r7 -o r7.zst
status 0 "-d -D decompresses our dictionary frame" "$XC" -q -d -D xdict r7.zst -o r7.out
check "-D round trip" cmp -s r7.out tsamples/r7
"$XC" -q tsamples/r7 -o r7.plain.zst
check "the dictionary frame is smaller" test "$(wc -c <r7.zst)" -lt "$(wc -c <r7.plain.zst)"
printf '\067\244\060\354not a dictionary' >baddict
status 1 "-D with a corrupt dictionary" "$XC" -q -D baddict tsamples/r7 -o r7.bad.zst
check "the message names the corrupt dictionary" err_mentions baddict
check "no output with a corrupt dictionary" test ! -e r7.bad.zst
if need_zstd; then
    status 0 "zstd -d -D with our dictionary" zstd -q -d -D xdict r7.zst -o r7.zout
    check "zstd decodes our dictionary frame" cmp -s r7.zout tsamples/r7
    zstd -q -D xdict tsamples/r9 -o r9.zst
    status 0 "-d -D on zstd's frame with our dictionary" "$XC" -q -d -D xdict r9.zst -o r9.out
    check "we decode zstd's frame made with our dictionary" cmp -s r9.out tsamples/r9
    if zstd -q --train tsamples/* --maxdict=4096 -o zdict 2>/dev/null; then
        status 0 "-D with zstd's dictionary" "$XC" -q -D zdict tsamples/r11 -o r11.zst
        status 0 "zstd -d -D with its dictionary" zstd -q -d -D zdict r11.zst -o r11.out
        check "zstd decodes our frame made with its dictionary" cmp -s r11.out tsamples/r11
    else
        skip=$((skip + 1))
    fi
fi

# ---- every zstd option beside the zstd command ------------------------------------------------
. "$HERE/zstd_parity.sh"

# ---- interrupts ------------------------------------------------------------------------------
# A compression fed through a slow pipe is interrupted while it waits for
# input; neither the output nor its temporary file may remain.  Background
# commands of a script start with SIGINT ignored (and xcodec keeps an
# ignored SIGINT ignored, as nohup expects), so env --default-signal
# restores it.
interrupt_test() {
    sig=$1 want=$2 wrapper=$3
    rm -rf intdir
    mkdir intdir
    mkfifo intdir.fifo
    (head -c 3000000 big; exec sleep 30) >intdir.fifo &
    feeder=$!
    $wrapper "$XC" -q -o intdir/out.zst <intdir.fifo &
    pid=$!
    n=0
    while [ $n -lt 50 ] && ! ls -A intdir | grep -q .; do
        sleep 0.1
        n=$((n + 1))
    done
    check "a temporary file exists while compressing ($sig)" sh -c 'ls -A intdir | grep -q "^\.out\.zst\."'
    check "the final name does not exist yet ($sig)" test ! -e intdir/out.zst
    sleep 0.3
    kill -s "$sig" $pid
    wait $pid
    got=$?
    kill $feeder 2>/dev/null
    wait $feeder 2>/dev/null
    rm -f intdir.fifo
    if [ $got -eq "$want" ]; then ok; else bad "SIG$sig: exit $got, wanted $want"; fi
    check "no output after SIG$sig" test ! -e intdir/out.zst
    check "no temporary file after SIG$sig" sh -c '[ -z "$(ls -A intdir)" ]'
}
# xcodec bench --classes: a tiny run of two classes in all three modes
# (whole, records, dictionary), checked in both decoders; bad options.
status 0 "bench --classes runs" env XC_BENCH_DATA=none "$XC" bench --classes=runs,json \
    --size=64K --records=1K --levels=1 --rounds=1 --json
check "bench --classes: every mode of both classes" sh -c \
    '[ "$(grep -c "\"class\": \"\(runs\|json\)\"" out)" -eq 6 ] && grep -q "\"ok\": true" out'
status 2 "bench --classes: unknown class" "$XC" bench --classes=nope
status 2 "bench --classes: bad size" "$XC" bench --classes --size=12Q
status 2 "bench --classes: bad record size" "$XC" bench --classes --records=32
echo data >bench.in
status 2 "bench --classes: no files" "$XC" bench --classes bench.in
status 1 "bench: XC_BENCH_LIBZSTD that does not load" env XC_BENCH_LIBZSTD=/nonexistent/libzstd.so.1 \
    "$XC" bench --classes=text --size=4K --records=none --levels=1 --rounds=1

if env --default-signal=INT true 2>/dev/null; then
    interrupt_test INT 130 "env --default-signal=INT"
else
    skip=$((skip + 1))
fi
interrupt_test TERM 143 ""

[ $skip -eq 0 ] || echo "cli: $skip group(s) skipped (zstd or env --default-signal missing)"
echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
