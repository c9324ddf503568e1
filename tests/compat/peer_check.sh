#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The reference stays the system's libzstd: no test or benchmark program
# of this build that links -lzstd for comparison may resolve it to the
# libzstd-compatible library of the compat folder.
#   peer_check.sh BUILD_DIR COMPAT_DIR
set -eu
build=$(cd "$1" && pwd)
compat=$(cd "$2" && pwd)
checked=0
for f in $(find "$build/tests" "$build/bench" "$build/programs" -maxdepth 2 -type f -perm -u+x 2>/dev/null); do
  readelf -d "$f" 2>/dev/null | grep -q 'NEEDED.*\[libzstd\.so\.1\]' || continue
  checked=$((checked + 1))
  if readelf -d "$f" | grep -E 'R(UN)?PATH' | grep -q "$compat"; then
    echo "FAIL: $f has the compat folder in its run path"; exit 1
  fi
  where=$(env -u LD_LIBRARY_PATH ldd "$f" | awk '/libzstd\.so\.1/ {print $3}')
  case "$where" in
    "$compat"/*|"") echo "FAIL: $f resolves libzstd.so.1 to '$where'"; exit 1 ;;
  esac
done
echo "$checked programs link the system's libzstd"
[ "$checked" -gt 0 ] || { echo "FAIL: no program links libzstd: the check saw nothing"; exit 1; }
