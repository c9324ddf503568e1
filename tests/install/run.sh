#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installs the build tree $1 into $2, then builds tests/install/consumer.c
# against it with CMake (shared and static) and with pkg-config, and runs
# each program.
set -eu
build=$1
prefix=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib* | head -n 1)

cmake -S "$here" -B "$prefix/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
LD_LIBRARY_PATH="$libdir" "$prefix/consumer-build/consumer_shared"
"$prefix/consumer-build/consumer_static"
# The shared program really uses the installed libxcodec.so.N.
LD_LIBRARY_PATH="$libdir" ldd "$prefix/consumer-build/consumer_shared" | grep -q "$libdir/libxcodec.so"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
${CC:-cc} -o "$prefix/consumer_pc" "$here/consumer.c" $(pkg-config --cflags --libs xcodec)
LD_LIBRARY_PATH="$libdir" "$prefix/consumer_pc"
${CC:-cc} -o "$prefix/consumer_pc_static" "$here/consumer.c" $(pkg-config --static --cflags xcodec) \
    "$libdir/libxcodec.a" $(pkg-config --static --libs-only-l xcodec | sed 's/-lxcodec//')
"$prefix/consumer_pc_static"
echo "install consumer: cmake shared, cmake static, pkg-config shared and static all ran"

# A fully static program (glibc's libc.a): with IFUNC its entry points are
# bound by IRELATIVE relocations in the start-up code, before thread-local
# storage exists, and must still obey XC_CPUCAP.
if ${CC:-cc} -static -o "$prefix/consumer_full_static" "$here/consumer.c" \
       $(pkg-config --static --cflags xcodec) "$libdir/libxcodec.a" \
       $(pkg-config --static --libs-only-l xcodec | sed 's/-lxcodec//') 2>"$prefix/static.log"; then
  "$prefix/consumer_full_static"
  XC_CPUCAP=portable "$prefix/consumer_full_static" | grep -q "crc32c by portable, inet by portable" ||
    { echo "fully static program ignores XC_CPUCAP"; exit 1; }
  echo "fully static program: ran, XC_CPUCAP=portable obeyed"
else
  echo "fully static link not possible here (no libc.a?):"; cat "$prefix/static.log"
fi

# The shared library exports the public xc_* functions and nothing else.
so=$(ls "$libdir"/libxcodec.so.* | head -n 1)
readelf -d "$so" | grep -q "SONAME.*libxcodec.so.0" || { echo "unexpected SONAME"; exit 1; }
others=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRW]$/ {print $3}' | sed 's/@.*//' | grep -v '^xc_' | grep -v '^XCODEC_' || true)
if [ -n "$others" ]; then
  echo "libxcodec.so exports symbols outside the API:"
  echo "$others"
  exit 1
fi
echo "exports: only xc_* ($(nm -D --defined-only "$so" | grep -c ' xc_') symbols), SONAME libxcodec.so.0"
