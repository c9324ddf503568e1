#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The libzstd-compatible library beside the system's libzstd, the same
# programs in the same run:
#   bench/compat/compat_bench.sh [BUILD_DIR]     (default build/release)
# 1. bsdtar extracting a large .tar.zst (made by the zstd command) into a
#    RAM folder, best of 5 runs each, alternating;
# 2. python3-zstandard one-shot compress and decompress of 1-16 KiB records.
# Prints xcodec/libzstd speed ratios.  On a shared machine these are
# same-run ratios, not absolute numbers.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build/release}" && pwd)
compat=$build/compat
[ -e "$compat/libzstd.so.1" ] || { echo "no $compat/libzstd.so.1: build with XCODEC_ZSTD_COMPAT" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/dev/shm}/xc-compat-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
data=${XC_TEST_DATA:-$top/../shared/data}/corpus

# ---- bsdtar ------------------------------------------------------------------
mkdir "$work/tree"
# The corpus without its .bz2 files (which would only be stored), or the
# sources, several times over: about 100 MB of files big and small.
if [ -d "$data" ]; then
  (cd "$data" && find . -type f ! -name '*.bz2' | while read -r f; do
     mkdir -p "$work/tree/$(dirname "$f")"; cp "$f" "$work/tree/$f"; done)
else
  cp -r "$top/src" "$work/tree/"
fi
i=0; while [ $i -lt 4 ]; do cp -r "$work/tree" "$work/copy$i"; i=$((i + 1)); done
tar -C "$work" -cf - tree copy0 copy1 copy2 copy3 | zstd -q -3 -o "$work/big.tar.zst"
rm -rf "$work/tree" "$work"/copy*
size=$(zstd -dc "$work/big.tar.zst" | wc -c)
csize=$(wc -c < "$work/big.tar.zst")
echo "bsdtar extracting a .tar.zst (zstd -3: $csize bytes, $size uncompressed), best of 5"

extract() { # lib-dir-or-empty files|stdout -> seconds
  rm -rf "$work/x" && mkdir "$work/x"
  if [ "$2" = files ]; then set -- "$1" -xf "$work/big.tar.zst" -C "$work/x"
  else set -- "$1" -xOf "$work/big.tar.zst"; fi
  lib=$1; shift
  t0=$(date +%s.%N)
  if [ -n "$lib" ]; then LD_LIBRARY_PATH=$lib bsdtar "$@" > /dev/null
  else bsdtar "$@" > /dev/null; fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
for how in files stdout; do
  best_sys=999; best_ours=999
  for run in 1 2 3 4 5; do
    s=$(extract "" $how); o=$(extract "$compat" $how)
    best_sys=$(min "$s" "$best_sys")
    best_ours=$(min "$o" "$best_ours")
  done
  awk -v s="$best_sys" -v o="$best_ours" -v h="$how" \
    'BEGIN { printf "  %-6s (%s) libzstd %.3f s, xcodec %.3f s, speed ratio %.2fx\n", h,
             h == "files" ? "-xf into a RAM folder" : "-xOf to /dev/null", s, o, s / o }'
done

# ---- python3-zstandard -------------------------------------------------------------
if /usr/bin/python3 -c 'import zstandard' 2>/dev/null; then
  corpus=$data/calgary/book1
  echo "python3-zstandard one-shot, level 3 (records/s; ratio xcodec/libzstd)"
  /usr/bin/python3 "$top/bench/compat/python_oneshot.py" 3 0.4 "$corpus" > "$work/sys.txt"
  LD_LIBRARY_PATH=$compat /usr/bin/python3 "$top/bench/compat/python_oneshot.py" 3 0.4 "$corpus" > "$work/ours.txt"
  paste "$work/sys.txt" "$work/ours.txt" | awk '
    BEGIN { printf "  %6s %11s %11s %6s %11s %11s %6s %9s\n", "size", "c-libzstd", "c-xcodec",
            "ratio", "d-libzstd", "d-xcodec", "ratio", "bytes" }
    { printf "  %6d %11d %11d %5.2fx %11d %11d %5.2fx %8.1f%%\n", $1, $2, $6, $6 / $2, $3, $7,
             $7 / $3, 100 * $8 / $4 }'
  echo "  (bytes: the xcodec frames' total size as a share of the libzstd frames')"
fi
