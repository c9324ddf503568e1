#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installs the Debian 12 packages xcodec needs that are not installed yet.
#   scripts/deps.sh build   compiler, CMake, libraries, libzstd and the peers
#   scripts/deps.sh test    build + cmocka, clang sanitizers, Arm64/s390x cross
#                           toolchains with qemu-user and their :arm64/:s390x libs
#   scripts/deps.sh bench   build + google-benchmark, ISA-L, DPDK (optional peer)
#   scripts/deps.sh report  bench + gnuplot-nox, which draws bench/report's plots
# Runs as root, or through sudo; does nothing when all is there, so it can
# run again at any time.
set -eu
what=${1:-build}

base="cmake make gcc g++ pkg-config python3 bsdutils zstd bzip2 libzstd-dev libxxhash-dev libcpu-features-dev libcmocka-dev libbenchmark-dev libisal-dev zlib1g-dev"
# zlib1g-dev: deflate makes the "zlib" class of the generated benchmark corpus
# (programs/corpus_gen_binary.c), data compressed as gzip files and PNGs are.
# Not for the cross builds: Debian 12 has no installable zlib1g-dev:s390x
# beside the amd64 security update, and the class is optional.
# The Python package (bindings/python): python3-dev for the extension's
# headers, python3-venv for the fresh venv its test installs into,
# python3-setuptools and python3-wheel for pip to build it without a package
# index (--no-build-isolation), python3-zstandard as the peer of its tests
# and benchmark.
base="$base python3-dev python3-venv python3-setuptools python3-wheel python3-zstandard"
test_pkgs="clang libclang-rt-14-dev qemu-user
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  libc6:arm64 libcmocka-dev:arm64 libxxhash-dev:arm64 libzstd-dev:arm64
  gcc-s390x-linux-gnu libc6-dev-s390x-cross
  libc6:s390x libcmocka-dev:s390x libxxhash-dev:s390x
  libarchive-tools squashfs-tools rsync python3-zstandard"
# libarchive-tools (bsdtar), squashfs-tools, rsync and python3-zstandard are
# the programs the libzstd-compatible library's tests run on it
# (tests/compat/); each test skips when its program is missing.
# DPDK is only the Internet checksum benchmark's peer; the benchmark runs
# without it.
bench_pkgs="libdpdk-dev"
# gnuplot-nox draws the PNG plots of bench/report (its pngcairo terminal):
# a few megabytes, where matplotlib would bring numpy and Pillow along.
report_pkgs="gnuplot-nox"

case "$what" in
  build) want="$base" ;;
  test) want="$base $test_pkgs" ;;
  bench) want="$base $bench_pkgs" ;;
  report) want="$base $bench_pkgs $report_pkgs" ;;
  *) echo "usage: $0 build|test|bench|report" >&2; exit 2 ;;
esac

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi

missing=""
for p in $want; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

# Foreign architectures are needed for the cross builds' libraries.
case "$missing" in
  *:arm64*|*:s390x*)
    for arch in arm64 s390x; do
      dpkg --print-foreign-architectures | grep -qx "$arch" || $sudo dpkg --add-architecture "$arch"
    done ;;
esac

echo "xcodec: installing:$missing"
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
