#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Real programs that link libzstd, run on the libzstd-compatible library:
#   programs.sh COMPAT_DIR bsdtar|squashfs|rsync
# Each first proves, with LD_DEBUG=libs, that the program's process loaded
# libzstd.so.1 from COMPAT_DIR, then round-trips a tree of files and
# compares.  Exit 77 (a CTest skip) only when a program is missing.
set -eu
compat=$(cd "$1" && pwd)
what=$2
src_tree=$(cd "$(dirname "$0")/../.." && pwd)/src
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

need() {
  for p in "$@"; do
    command -v "$p" >/dev/null 2>&1 || { echo "skip: $p not installed"; exit 77; }
  done
}

# on PROGRAM ARGS...: runs it on our library.
on() { LD_LIBRARY_PATH=$compat "$@"; }

# proves that PROGRAM ARGS... loads our libzstd.so.1 and not the system's.
proves_ours() {
  log=$work/libs.log
  LD_DEBUG=libs LD_DEBUG_OUTPUT=$work/lddebug LD_LIBRARY_PATH=$compat "$@" >/dev/null 2>&1 || true
  cat "$work"/lddebug.* > "$log" 2>/dev/null || true
  rm -f "$work"/lddebug.*
  if ! grep -q "calling init: $compat/libzstd.so.1" "$log"; then
    echo "FAIL: $1 did not load $compat/libzstd.so.1"; grep -i zstd "$log" || true; exit 1
  fi
  if grep "calling init:.*libzstd.so" "$log" | grep -vq "$compat/"; then
    echo "FAIL: $1 also loaded another libzstd"; exit 1
  fi
  echo "$1: loads $compat/libzstd.so.1"
}

# A tree: our sources, a large repetitive file and an incompressible one.
mkdir -p "$work/tree"
cp -r "$src_tree" "$work/tree/src"
i=0; while [ $i -lt 40 ]; do cat "$src_tree"/zstd/compress/*.c; i=$((i + 1)); done > "$work/tree/big.txt"
head -c 300000 /dev/urandom > "$work/tree/random.bin"
: > "$work/tree/empty"

case "$what" in
bsdtar)
  need bsdtar zstd
  proves_ours bsdtar --version
  cd "$work"
  for level in 1 3 9 19; do
    on bsdtar --zstd --options zstd:compression-level=$level -cf t$level.tar.zst tree
    zstd -q -t t$level.tar.zst                    # the system's zstd reads ours
    on bsdtar -tf t$level.tar.zst > list$level
    grep -q "tree/big.txt" list$level
    rm -rf x && mkdir x && on bsdtar -xf t$level.tar.zst -C x
    diff -r tree x/tree
  done
  # The zstd command's archive, read by bsdtar on xcodec; and ours by the command.
  tar -cf - tree | zstd -q -19 --long=27 -o sys.tar.zst
  rm -rf x && mkdir x && on bsdtar -xf sys.tar.zst -C x && diff -r tree x/tree
  tar -cf - tree | zstd -q -3 -T2 -o mt.tar.zst
  rm -rf x && mkdir x && on bsdtar -xf mt.tar.zst -C x && diff -r tree x/tree
  rm -rf x && mkdir x && zstd -q -d -c t3.tar.zst | tar -xf - -C x && diff -r tree x/tree
  echo "bsdtar: ok"
  ;;
squashfs)
  need mksquashfs unsquashfs
  proves_ours unsquashfs -h
  cd "$work"
  for level in 1 3 15 22; do
    on mksquashfs tree sq$level.img -comp zstd -Xcompression-level $level -quiet -noappend -no-progress
    rm -rf x && on unsquashfs -q -d x sq$level.img >/dev/null
    diff -r tree x
    # The same image through the system's libzstd reads back too.
    rm -rf y && unsquashfs -q -d y sq$level.img >/dev/null && diff -r tree y
  done
  echo "squashfs: ok"
  ;;
rsync)
  need rsync
  proves_ours rsync --version
  cd "$work"
  # A remote shell that runs the other end locally, also on our library.
  cat > rsh <<EOS
#!/bin/sh
shift
exec env LD_LIBRARY_PATH=$compat "\$@"
EOS
  chmod +x rsh
  mkdir dest
  on rsync -a -z --compress-choice=zstd --compress-level=3 -e "$work/rsh" tree/ localhost:"$work/dest/"
  diff -r tree dest
  # An update: changed and new files go over compressed again.
  echo "changed" >> tree/big.txt; cp tree/random.bin tree/random2.bin
  on rsync -a -z --compress-choice=zstd -e "$work/rsh" --stats tree/ localhost:"$work/dest/" > stats
  diff -r tree dest
  grep -q "Number of regular files transferred: 2" stats
  echo "rsync: ok"
  ;;
*) echo "usage: $0 COMPAT_DIR bsdtar|squashfs|rsync" >&2; exit 2 ;;
esac
