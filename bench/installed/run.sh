#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installs the build tree BUILD (default build/release) into BUILD/sums-prefix,
# builds bench/installed against that installation, and runs the programs
# linked with the shared and with the static library.  Options after BUILD
# go to both programs (--json, --quick, --rounds N).
#
#   sh bench/installed/run.sh [BUILD] [--json] [--quick] [--rounds N]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=build/release
case "${1:-}" in -*|"") ;; *) build=$1; shift ;; esac
build=$(cd "$build" && pwd)
prefix=$build/sums-prefix
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -S "$here" -B "$prefix/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/build" -j "${XC_JOBS:-2}" >/dev/null
libdir=$(ls -d "$prefix"/lib* | head -n 1)
LD_LIBRARY_PATH="$libdir" "$prefix/build/xcodec-sums-shared" "$@"
"$prefix/build/xcodec-sums-static" "$@"
