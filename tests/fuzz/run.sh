#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs every libFuzzer target of a fuzz build for a while on a seed corpus
# made here and now (nothing binary is kept in the repository):
#
#   sh tests/fuzz/run.sh <build-dir> [seconds-per-target]
#
# Seeds are zstd frames the zstd command makes from text, source, runs and
# pseudo-random bytes at several levels and settings, with and without a
# dictionary, plus zstd's golden frames when the shared test data is there
# ($XC_TEST_DATA, default ../shared/data beside the project; "none" leaves
# them out, as for the tests).  The corpus
# grows in <build-dir>/fuzz-work/corpus/<target>, and crashes are written to
# <build-dir>/fuzz-work/artifacts/.  Exits non-zero when a target fails.
set -eu

if [ $# -lt 1 ]; then
  echo "usage: $0 <build-dir> [seconds-per-target]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
seconds=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${XC_TEST_DATA:-$root/../shared/data}
work=$build/fuzz-work
seeds=$work/seeds
raw=$work/raw

if ! command -v zstd >/dev/null 2>&1; then
  echo "fuzz: the zstd command is needed for the seeds" >&2
  exit 2
fi

rm -rf "$seeds" "$raw"
mkdir -p "$seeds/plain" "$seeds/stream" "$seeds/dict" "$seeds/roundtrip" "$raw/in" "$raw/train" \
  "$work/artifacts"

# ---- contents ---------------------------------------------------------------
# Deterministic pseudo-random bytes (an LCG in awk), text and source from
# this repository, runs, and a mix.
LC_ALL=C awk -v n=6000 'BEGIN { s = 12345; for (i = 0; i < n; i++) {
  s = (s * 1103515245 + 12345) % 2147483648
  printf "%c", int(s / 65536) % 256 } }' >"$raw/in/random"
cat "$root/README.md" "$root/include/xcodec.h" 2>/dev/null | head -c 60000 >"$raw/in/text"
cat "$root"/src/*.c | head -c 120000 >"$raw/in/source"
head -c 300000 /dev/zero >"$raw/in/zeros"
seq 1 20000 >"$raw/in/numbers"
{ head -c 2000 "$raw/in/random"; head -c 5000 "$raw/in/text"; head -c 3000 /dev/zero;
  head -c 5000 "$raw/in/text"; seq 1 500; } >"$raw/in/mixed"
printf 'a' >"$raw/in/one"
: >"$raw/in/empty"

# ---- frames -------------------------------------------------------------------
# Each frame goes to the plain target as it is and to the stream target
# behind four bytes that choose piece sizes (up to 2^14 in and 2^16 out;
# small frames also in pieces of up to 8 bytes in, and 1 byte out); each
# content goes to the round-trip target behind three parameter bytes.
add_frame() { # name file
  cp "$2" "$seeds/plain/$1"
  { printf '\016\020\001\002'; cat "$2"; } >"$seeds/stream/$1-large"
  if [ "$(wc -c <"$2")" -lt 2000 ]; then
    { printf '\003\005\001\002'; cat "$2"; } >"$seeds/stream/$1-small"
    { printf '\017\000\007\011'; cat "$2"; } >"$seeds/stream/$1-1byte-out"
  fi
}
k=0
for f in "$raw"/in/*; do
  b=$(basename "$f")
  for level in 1 3 9 19; do
    zstd -q -c "-$level" "$f" >"$raw/$b.$level.zst"
    add_frame "$b.$level" "$raw/$b.$level.zst"
  done
  zstd -q -c --fast=5 --no-check "$f" >"$raw/$b.fast.zst"
  add_frame "$b.fast" "$raw/$b.fast.zst"
  # From a pipe: no content size, a window descriptor.
  zstd -q -c -5 <"$f" >"$raw/$b.pipe.zst"
  add_frame "$b.pipe" "$raw/$b.pipe.zst"
  head -c 4096 "$f" | { printf '\003\002\007'; cat; } >"$seeds/roundtrip/$b"
  k=$((k + 1))
done
zstd -q -c --long=24 -3 "$raw/in/mixed" "$raw/in/source" >"$raw/long.zst" 2>/dev/null &&
  add_frame long "$raw/long.zst"
cat "$raw/text.3.zst" "$raw/zeros.1.zst" "$raw/numbers.pipe.zst" >"$raw/multi.zst"
add_frame multi "$raw/multi.zst"

# ---- dictionaries ---------------------------------------------------------------
# A dictionary target seed is: 2-byte little-endian dictionary size, the
# dictionary, then the frame.
le16() { # value
  printf "\\$(printf %03o $(($1 % 256)))\\$(printf %03o $(($1 / 256)))"
}
add_dict_seed() { # name dict frame
  size=$(wc -c <"$2")
  { le16 "$size"; cat "$2" "$3"; } >"$seeds/dict/$1"
}
(cd "$raw/train" && split -b 700 "$raw/in/source" src. && split -b 300 "$raw/in/numbers" num.)
if zstd -q -f --train "$raw"/train/* --maxdict=4096 -o "$raw/trained.dict" 2>/dev/null; then
  for level in 1 3 19; do
    for f in "$raw/train/src.aa" "$raw/train/src.ab" "$raw/train/num.ac"; do
      zstd -q -c "-$level" -D "$raw/trained.dict" "$f" >"$raw/d.zst"
      add_dict_seed "trained.$level.$(basename "$f")" "$raw/trained.dict" "$raw/d.zst"
    done
  done
fi
head -c 3000 "$raw/in/text" >"$raw/raw.dict"
zstd -q -c -3 -D "$raw/raw.dict" "$raw/in/text" >"$raw/d.zst"
add_dict_seed raw.3 "$raw/raw.dict" "$raw/d.zst"
add_dict_seed none "$raw/in/empty" "$raw/text.3.zst"
# Windows of 1 and 2 KiB beside a 16 KiB dictionary: the frames reach into
# the dictionary farther back than their window.
head -c 16000 "$raw/in/source" >"$raw/big.dict"
for wlog in 10 11; do
  for level in 3 19; do
    for f in "$raw/in/source" "$raw/in/mixed"; do
      head -c 60000 "$f" | zstd -q -c "-$level" --zstd=wlog=$wlog -D "$raw/big.dict" \
        >"$raw/d.zst" &&
        add_dict_seed "window.$wlog.$level.$(basename "$f")" "$raw/big.dict" "$raw/d.zst"
    done
  done
done

# ---- compression parameters ---------------------------------------------------------
# fuzz_compress_params reads 12 parameter bytes (see the target), then the
# content: here each content and one with a repeat far behind it, under a
# few settings (long-distance matching with small samples, one-shot and
# streamed, pledged or not, an optimal strategy, defaults).
mkdir -p "$seeds/params"
{ head -c 3000 "$raw/in/random"; head -c 9000 "$raw/in/text"; head -c 3000 "$raw/in/random"; } \
  >"$raw/in-far-repeat"
for f in "$raw"/in/* "$raw/in-far-repeat"; do
  b=$(basename "$f")
  head -c 20000 "$f" | { printf '\012\000\000\000\000\000\000\000\001\106\100\043'; cat; } \
    >"$seeds/params/$b-ldm"
  head -c 20000 "$f" | { printf '\032\000\000\000\000\000\000\000\061\000\000\000'; cat; } \
    >"$seeds/params/$b-19-pledged"
  head -c 20000 "$f" | { printf '\010\000\000\000\000\000\000\000\122\110\150\142'; cat; } \
    >"$seeds/params/$b-1-stream-ldm"
  head -c 20000 "$f" | { printf '\020\106\110\110\110\103\100\120\004\000\000\000'; cat; } \
    >"$seeds/params/$b-btopt"
done

# ---- seekable files ----------------------------------------------------------------
# Built here from the format (zstd contrib/seekable_format): frames of each
# content's pieces, then the seek table: 8-byte entries, and 12-byte ones
# with the checksum flag and checksums of 0, so that the checksum path runs
# (and fails).
mkdir -p "$seeds/seekable"
le32() { # value
  v=$1
  for i in 1 2 3 4; do printf "\\$(printf %03o $((v % 256)))"; v=$((v / 256)); done
}
add_seekable() { # name file piece-size
  rm -rf "$raw/sk" && mkdir -p "$raw/sk"
  (cd "$raw/sk" && head -c 40000 "$2" | split -b "$3" - part.)
  : >"$raw/sk.frames"
  : >"$raw/sk.e8"
  : >"$raw/sk.e12"
  count=0
  for p in "$raw"/sk/part.*; do
    [ -f "$p" ] || continue
    zstd -q -c -3 "$p" >"$raw/sk.one"
    cat "$raw/sk.one" >>"$raw/sk.frames"
    { le32 "$(wc -c <"$raw/sk.one")"; le32 "$(wc -c <"$p")"; } >"$raw/sk.e"
    cat "$raw/sk.e" >>"$raw/sk.e8"
    { cat "$raw/sk.e"; le32 0; } >>"$raw/sk.e12"
    count=$((count + 1))
  done
  for es in 8 12; do
    if [ $es = 8 ]; then desc=000; else desc=200; fi
    body=$(($(wc -c <"$raw/sk.e$es") + 9))
    { cat "$raw/sk.frames"; le32 $((0x184D2A5E)); le32 "$body"; cat "$raw/sk.e$es"
      le32 "$count"; printf "\\$desc"; le32 $((0x8F92EAB1)); } >"$seeds/seekable/$1.$es"
  done
}
for f in "$raw/in/text" "$raw/in/mixed" "$raw/in/one" "$raw/in/empty"; do
  add_seekable "$(basename "$f").1k" "$f" 1000
  add_seekable "$(basename "$f").16k" "$f" 16384
done

# ---- golden frames, read where they are ----------------------------------------
if [ "$data" != none ] && [ -d "$data/zstd-golden" ]; then
  for f in "$data"/zstd-golden/golden-decompression/* \
           "$data"/zstd-golden/golden-decompression-errors/*; do
    [ -f "$f" ] && add_frame "golden.$(basename "$f")" "$f"
  done
fi

# ---- run --------------------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
ran=0
# fuzz_compress and fuzz_block read the same layout as fuzz_roundtrip (option
# bytes, then the content), so they share those seeds.
for target in fuzz_decompress:plain fuzz_decompress_stream:stream fuzz_decompress_dict:dict \
              fuzz_roundtrip:roundtrip fuzz_compress:roundtrip fuzz_compress_params:params \
              fuzz_seekable:seekable fuzz_block:roundtrip; do
  name=${target%%:*}
  set_dir=${target#*:}
  exe=$(find "$build" -type f -name "$name" -perm -u+x 2>/dev/null | head -n 1)
  if [ -z "$exe" ]; then
    [ "$name" = fuzz_roundtrip ] && continue # only with libzstd
    echo "fuzz: $name not built in $build" >&2
    status=1
    continue
  fi
  mkdir -p "$work/corpus/$name"
  echo "== $name: $seconds s, $(ls "$seeds/$set_dir" | wc -l) seeds"
  if "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -max_len=300000 \
      -print_final_stats=1 -artifact_prefix="$work/artifacts/$name-" \
      "$work/corpus/$name" "$seeds/$set_dir" >"$work/$name.log" 2>&1; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$name.log" | tr '\n' ' '
    echo
  else
    echo "fuzz: $name FAILED; last lines of $work/$name.log:" >&2
    tail -n 40 "$work/$name.log" >&2
    status=1
  fi
  ran=$((ran + 1))
done
echo "fuzz: $ran targets run, status $status"
exit $status
