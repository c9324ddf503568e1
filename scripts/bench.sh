#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The main job: installs what is missing, builds everything (release), then
# runs `xcodec bench` on the files given or on the built-in corpus: xcodec
# beside libzstd (zstd), ISA-L (CRC32C) and DPDK (Internet checksum) in one
# run.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh bench
mkdir -p build
cmake --preset release >build/configure-release.log 2>&1 || { cat build/configure-release.log; exit 1; }
cmake --build --preset release -j "${XC_JOBS:-2}" >/dev/null
exec build/release/programs/xcodec bench "$@"
