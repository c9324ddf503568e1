# SPDX-License-Identifier: BSD-2-Clause
#
# Sourced by run.sh: every zstd option the xcodec command implements, run
# the same way with the zstd command and with xcodec, each in a fresh copy
# of the same files.  A case passes when both exit with the same status,
# leave the same files behind, every .zst either made decodes with both
# programs to the same bytes, every other file is byte for byte the same,
# and, when the case names a probe, the probe prints the same of both.
# Uses run.sh's helpers (ok, bad, check, status, need_zstd) and $XC, $T.

# parity DESCRIPTION COMMAND: COMMAND is sh with $Z the program and $ZP
# its absolute path.  PAR_D: options both decoders need (-D, --long=...);
# PAR_PROBE: a command run in each directory after the case, outputs
# compared; PAR_NOCMP: a file allowed to differ (a trained dictionary);
# PAR_OUT=text: standard output compared too.
parity() {
    desc=$1 cmd=$2
    for side in z x; do
        rm -rf "$T/p.$side"
        cp -R "$T/fx" "$T/p.$side"
        if [ $side = z ]; then zp=$(command -v zstd); else zp=$XC; fi
        (cd "$T/p.$side" && Z=$zp ZP=$zp sh -c "$cmd" >"$T/out.$side" 2>"$T/err.$side" </dev/null)
        echo $? >"$T/rc.$side"
        (cd "$T/p.$side" && find . | LC_ALL=C sort) >"$T/ls.$side"
        if [ -n "${PAR_PROBE:-}" ]; then
            (cd "$T/p.$side" && sh -c "$PAR_PROBE") >"$T/probe.$side" 2>&1
        fi
    done
    rz=$(cat "$T/rc.z") rx=$(cat "$T/rc.x")
    if [ "$rz" = "$rx" ]; then ok; else bad "$desc: exit $rx, zstd's $rz; stderr: $(head -c 300 "$T/err.x")"; fi
    if cmp -s "$T/ls.z" "$T/ls.x"; then ok; else
        bad "$desc: the files left differ: $(diff "$T/ls.z" "$T/ls.x" | grep '^[<>]' | head -6 | tr '\n' ' ')"
    fi
    if [ -n "${PAR_PROBE:-}" ]; then
        if cmp -s "$T/probe.z" "$T/probe.x"; then ok; else
            bad "$desc: probe differs: zstd '$(head -c 200 "$T/probe.z")' xcodec '$(head -c 200 "$T/probe.x")'"
        fi
    fi
    if [ "${PAR_OUT:-}" = text ]; then
        if cmp -s "$T/out.z" "$T/out.x"; then ok; else
            bad "$desc: stdout differs: $(diff "$T/out.z" "$T/out.x" | head -6 | tr '\n' ' ')"
        fi
    fi
    same=1
    for f in $(cd "$T/p.z" && find . -type f); do
        [ -f "$T/p.x/$f" ] || continue
        # Fixture files left as they were are no news.
        cmp -s "$T/p.z/$f" "$T/fx/$f" && cmp -s "$T/p.x/$f" "$T/fx/$f" && continue
        cmp -s "$T/p.z/$f" "$T/p.x/$f" && continue
        case $f in
        ./${PAR_NOCMP:-/}) ;;
        *.zst)
            zstd -qdc ${PAR_D:-} "$T/p.z/$f" >"$T/dz" 2>/dev/null
            zstd -qdc ${PAR_D:-} "$T/p.x/$f" >"$T/dzx" 2>/dev/null || same=0
            "$XC" -qdc ${PAR_D:-} "$T/p.z/$f" >"$T/dxz" 2>/dev/null || same=0
            cmp -s "$T/dz" "$T/dzx" && cmp -s "$T/dz" "$T/dxz" || { same=0; echo "  $f does not decode alike" >&2; }
            ;;
        *) cmp -s "$T/p.z/$f" "$T/p.x/$f" || { same=0; echo "  $f differs" >&2; } ;;
        esac
    done
    if [ $same -eq 1 ]; then ok; else bad "$desc: outputs differ"; fi
    PAR_D= PAR_PROBE= PAR_NOCMP= PAR_OUT=
}

if need_zstd; then
    mkdir -p fx/d/e
    seq 1 30000 >fx/a
    sed 's/7/seven/' fx/a >fx/a2
    printf 'hello, xcodec\n' >fx/b
    seq 5 500 >fx/d/x
    seq 9 900 >fx/d/e/y
    ln -s a fx/la
    printf 'a\nb\n' >fx/fl
    { head -c 200000 /dev/zero; printf 'tail'; head -c 100000 /dev/zero; } >fx/zz
    zstd -q fx/a -o fx/a.zst
    zstd -q fx/zz -o fx/zz.zst
    zstd -q --patch-from=fx/a fx/a2 -o fx/a2p.zst 2>/dev/null
    zstd -q --long=28 fx/a -o fx/along.zst
    zstd -q -f --train tsamples/* --maxdict=4096 -o pdict 2>/dev/null
    PDICT=$T/pdict
    FRAME='zstd -lv $f | grep -E "^(DictID|Check|Decompressed Size)"'

    # Levels
    parity "-q" '$Z -q a'
    parity "-19" '$Z -q -19 b'
    parity "--fast=5" '$Z -q --fast=5 a'
    parity "--fast=300, beyond the table" '$Z -q --fast=300 a'
    parity "--fast" '$Z -q --fast a'
    parity "--ultra -21" '$Z -q --ultra -21 b'
    parity "-30 is 19 without --ultra" '$Z -q -30 b'
    parity "ZSTD_CLEVEL" 'ZSTD_CLEVEL=1 $Z -q a'
    parity "--format=zstd" '$Z -q --format=zstd a'
    # Files and directories
    parity "-r" '$Z -q -r d'
    parity "a directory without -r" '$Z -q d'
    parity "-r -d" '$Z -q -r d && rm d/x d/e/y && $Z -q -d -r d'
    parity "a symbolic link alone" '$Z -q la'
    parity "a symbolic link among files" '$Z -q la b'
    parity "-f follows a link" '$Z -q -f la'
    parity "--filelist=" '$Z -q --filelist=fl'
    parity "--filelist FILE" '$Z -q --filelist fl'
    parity "--filelist of a missing file" '$Z -q --filelist=nosuch'
    parity "--output-dir-flat" 'mkdir out && $Z -q -r d --output-dir-flat=out'
    parity "--output-dir-flat DIR" 'mkdir out && $Z -q d/x b --output-dir-flat out'
    parity "--output-dir-mirror" '$Z -q -r d --output-dir-mirror=mir'
    parity "--exclude-compressed" '$Z -q --exclude-compressed a.zst b'
    parity "without --exclude-compressed" '$Z -q a.zst b'
    parity "--rm" '$Z -q --rm a'
    parity "-d --rm" '$Z -q -d --rm -f a.zst'
    parity "-k" '$Z -q -k b'
    parity "an existing output" '$Z -q a.zst -d'
    parity "-f over an existing output" '$Z -q -f -d a.zst'
    parity "-c" '$Z -q -c a >c.zst'
    parity "-o" '$Z -q a -o o.zst'
    parity "-q, several inputs to -o" '$Z -q a b -o ab.zst'
    parity "several inputs to -o, no one to ask" '$Z a b -o ab.zst'
    parity "-f, several inputs to -o" '$Z -f a b -o ab.zst'
    parity "a missing input" '$Z -q nosuch b'
    parity "stdin to stdout" '$Z -q <a >p.zst'
    parity "-d, stdin to stdout" '$Z -q -d <a.zst >p.out'
    parity "- is stdin" 'cat b | $Z -q - -o s.zst'
    # Frame options
    PAR_PROBE="f=n.zst; $FRAME"
    parity "--no-content-size" '$Z -q --no-content-size a -o n.zst'
    PAR_PROBE="f=n.zst; $FRAME"
    parity "--content-size from a pipe" '$Z -q --content-size <a >n.zst'
    PAR_PROBE="f=n.zst; $FRAME"
    parity "--no-check" '$Z -q --no-check a -o n.zst'
    PAR_PROBE="f=n.zst; $FRAME"
    parity "--check" '$Z -q --no-check --check a -o n.zst'
    PAR_PROBE="f=n.zst; $FRAME"
    parity "-C" '$Z -q --no-check -C a -o n.zst'
    PAR_PROBE="f=n.zst; $FRAME" PAR_D="-D $PDICT"
    parity "-D" "\$Z -q -D '$PDICT' b -o n.zst"
    PAR_PROBE="f=n.zst; $FRAME" PAR_D="-D $PDICT"
    parity "--no-dictID" "\$Z -q --no-dictID -D '$PDICT' b -o n.zst"
    PAR_PROBE="f=n.zst; $FRAME"
    parity "--stream-size" '$Z -q --stream-size=$(wc -c <a) <a >n.zst'
    parity "--stream-size that is wrong" '$Z -q --stream-size=5 <a >n.zst'
    parity "--size-hint" '$Z -q --size-hint=1000 <a >n.zst'
    parity "-B#" '$Z -q -B1M a'
    parity "--long" '$Z -q --long a'
    PAR_D=--long=28
    parity "--long=28" '$Z -q --long=28 a'
    parity "-d of a --long=28 frame" '$Z -q -d along.zst -o along'
    parity "-d --long=28" '$Z -q -d --long=28 along.zst -o along'
    parity "-d --memory=" '$Z -q -d --memory=300MB along.zst -o along'
    parity "-M too small" '$Z -q -d -M1K a.zst -o a.out'
    parity "-M# enough" '$Z -q -d -M16M a.zst -o a.out'
    PAR_D=--patch-from=$T/fx/a
    parity "--patch-from" '$Z -q --patch-from=a a2 -o p.zst'
    parity "-d --patch-from" '$Z -q -d --patch-from=a a2p.zst -o a2.out'
    parity "-d --patch-from FILE" '$Z -q -d --patch-from a a2p.zst -o a2.out'
    parity "-d of a patch without its base" '$Z -q -d a2p.zst -o a2.out'
    # A reference larger than the level's window: the window grows to hold
    # it (long-distance matching on), so the patch is small, as zstd's.
    seq 1 400000 >"$T/fx/bigref"
    sed 's/^\(.*\)77$/\1xx/' "$T/fx/bigref" >"$T/fx/bignew"
    for lv in 1 3; do
        "$XC" -q -f -$lv --patch-from="$T/fx/bigref" "$T/fx/bignew" -o "$T/fx/bp.zst"
        zstd -q -f -$lv --patch-from="$T/fx/bigref" "$T/fx/bignew" -o "$T/fx/bz.zst" 2>/dev/null
        check "--patch-from -$lv of a 2.7 MB reference: no larger than 2x zstd's" \
            sh -c "[ \$(stat -c %s '$T/fx/bp.zst') -le \$((2 * \$(stat -c %s '$T/fx/bz.zst') + 256)) ]"
        check "--patch-from -$lv patch decodes with zstd" \
            sh -c "zstd -q -d -c --patch-from='$T/fx/bigref' '$T/fx/bp.zst' | cmp -s - '$T/fx/bignew'"
    done
    parity "-T1" '$Z -q -T1 a'
    parity "-T0" '$Z -q -T0 a'
    parity "--threads=1" '$Z -q --threads=1 a'
    parity "--single-thread" '$Z -q --single-thread a'
    parity "--auto-threads=logical" '$Z -q -T0 --auto-threads=logical a'
    parity "--auto-threads physical" '$Z -q -T0 --auto-threads physical a'
    # Decompression
    PAR_PROBE='du -k zz | cut -f1 | awk "{ print (\$1 < 100) }"'
    parity "sparse by default" 'rm zz && $Z -q -d zz.zst'
    PAR_PROBE='du -k zz | cut -f1 | awk "{ print (\$1 < 100) }"'
    parity "--no-sparse" 'rm zz && $Z -q -d --no-sparse zz.zst'
    PAR_PROBE='du -k zz | cut -f1 | awk "{ print (\$1 < 100) }"'
    parity "--sparse" 'rm zz && $Z -q -d --sparse zz.zst'
    parity "--pass-through" '$Z -dc --pass-through b a.zst >pt.out'
    parity "--no-pass-through" '$Z -dcf --no-pass-through b >pt.out'
    parity "-dcf copies non-zstd input" '$Z -dcf b a.zst >pt.out'
    # -t and -l, whose words scripts read
    PAR_OUT=text
    parity "-l" '$Z -l a.zst zz.zst a2p.zst'
    PAR_OUT=text
    parity "-lv" '$Z -lv a.zst along.zst'
    PAR_OUT=text
    parity "-l of a file that is not zstd" '$Z -l b'
    parity "-t" '$Z -q -t a.zst'
    parity "-t of a file that is not zstd" '$Z -q -t b'
    PAR_PROBE='cat lines'
    parity "-t, zstd's line" '$Z -t a.zst 2>&1 | tr "\r" "\n" | grep bytes >lines'
    PAR_PROBE='cat lines'
    parity "-d, zstd's summary of several files" \
        'cp a.zst c.zst && $Z -f -d a.zst c.zst 2>&1 | tr "\r" "\n" | grep total >lines'
    PAR_PROBE='cat lines'
    parity "zstd's summary of several compressed files" \
        '$Z a b 2>&1 | tr "\r" "\n" | grep "files compressed" >lines'
    PAR_PROBE='cat lines'
    parity "zstd's line for one file" '$Z b 2>&1 | tr "\r" "\n" | grep "=>" >lines'
    # Corners
    parity "--rm -c" '$Z -q --rm -c a >c.zst'
    parity "-c --rm" '$Z -q -c --rm a >c.zst'
    parity "--rm -o" '$Z -q --rm a -o o.zst'
    parity "-d of an unknown suffix" '$Z -q -d b'
    parity "-dc of data that is not zstd" '$Z -q -dc b >o.out'
    parity "an empty file" ': >e && $Z -q e && $Z -q -d -c e.zst >e.out'
    parity "-d of an empty file" ': >e.zst && $Z -q -d e.zst'
    parity "-t of several" 'cp a.zst c.zst && $Z -q -t a.zst c.zst'
    parity "-t of a truncated file" 'head -c 100 a.zst >t.zst && $Z -q -t t.zst'
    parity "-- ends the options" 'cp b ./-x && $Z -q -- -x'
    parity "a level in a cluster" '$Z -qk5 b'
    parity "-o in a cluster" '$Z -qo o.zst b'
    parity "-D in a cluster" "\$Z -qD '$PDICT' b -o n.zst"
    parity "an unknown option" '$Z -q --no-such-option b'
    parity "an unknown short option" '$Z -q -y b'
    parity "-v" '$Z -v b 2>/dev/null'
    PAR_OUT=text
    parity "-qq is silent" '$Z -qq nosuch 2>&1 | wc -c'
    parity "-n, gzip's no-name" '$Z -qn b'
    parity "--memory NUMBER" '$Z -q -d --memory 300MB along.zst -o along'
    parity "--memlimit=" '$Z -q -d --memlimit=300MB along.zst -o along'
    parity "--threads NUMBER" '$Z -q --threads 1 b'
    parity "--fast beyond the fastest" '$Z -q --fast=500000 b'
    parity "-D with --patch-from" "\$Z -q -D '$PDICT' --patch-from=a b"
    parity "--patch-from on several files" '$Z -q --patch-from=a a2 b'
    parity "-r of an empty directory" 'mkdir empty && $Z -q -r empty'
    parity "an empty --output-dir-flat" '$Z -q --output-dir-flat= b'
    parity "-d -T2" '$Z -q -d -T2 -f a.zst'
    # Other names
    PAR_OUT=text
    parity "zstdcat" 'ln -s "$ZP" zstdcat && ./zstdcat a.zst b'
    parity "unzstd" 'ln -s "$ZP" unzstd && ./unzstd -q -f a.zst'
    parity "zstdmt" 'ln -s "$ZP" zstdmt && ./zstdmt -q b'
    # Dictionaries
    PAR_NOCMP=dct PAR_PROBE='od -An -tu4 -j4 -N4 dct'
    parity "--train --maxdict --dictID" "\$Z -q --train $T/tsamples/* --maxdict=4KB --dictID=4242 -o dct"

    # The benchmark: zstd's line for each level, on standard output.
    status 0 "-b1 -e3 -i0" sh -c "'$XC' -b1 -e3 -i0 fx/a >bench.out"
    check "-b prints a line per level" test "$(tr '\r' '\n' <bench.out | grep -c '^ *[123]#$')" -eq 3
    check "-b's line has zstd's columns" \
        sh -c "grep -Eq '^ \|-a {16} : +[0-9]+ -> +[0-9]+ \(x[ .0-9]{5}\), +[.0-9]+ MB/s, +[.0-9]+ MB/s' bench.out"
    zstd -b1 -e3 -i0 fx/a 2>/dev/null | tr '\r' '\n' | grep -c '#$' >bench.zn
    check "zstd prints as many level lines" test "$(cat bench.zn)" -eq 3
    status 0 "-b -q" sh -c "'$XC' -q -b3 -i0 -B64K fx/a >bench.out"
    check "-b -q prints zstd's terse line" grep -Eq '^-3 +[0-9]+ \([.0-9]+\) +[.0-9]+ MB/s +[.0-9]+ MB/s  a$' bench.out

    # zstd accepts these; xcodec refuses them, naming the option and why.
    for opt in --adapt --rsyncable --format=gzip --format=xz --train-cover --zstd=wlog=20 \
        --no-row-match-finder --target-compressed-block-size=1000 --priority=rt --trace=log \
        --fake-stdin-is-console -s5 -p -P50 --show-default-cparams; do
        status 1 "refuses $opt" "$XC" -q "$opt" fx/b -o refused.zst
        check "the refusal of $opt names it and says why" \
            sh -c "grep -q -- '$opt' '$T/err' && grep -q 'not supported: ' '$T/err'"
        check "no output after refusing $opt" test ! -e refused.zst
    done
    # -T above 1: compressed with workers when the library has them, or
    # refused by name.
    "$XC" -q -T2 fx/b -o par-t2.zst 2>par-t2.err
    got=$?
    if [ $got -eq 0 ]; then check "-T2 output decodes" sh -c 'zstd -qdc par-t2.zst | cmp -s - fx/b'
    else check "-T2 is refused by name" sh -c "[ $got -eq 1 ] && grep -q -- -T2 par-t2.err"; fi
fi
