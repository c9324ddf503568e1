#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The whole test suite, as CI runs it: installs what is missing, then builds
# and tests
#   1. release (gcc, -Werror), every test under every XC_CPUCAP tier this CPU
#      has, plus the install/consumer test and the Python package's
#      (python_package: pip install into a fresh venv, offline, then its
#      tests); then the portable tier again with the shared test data
#      hidden (preset release-nodata); then the
#      checksum and dispatch tests of a build without IFUNC (preset
#      release-table), where the entry points jump through the table;
#   2. asan-ubsan (clang, -Werror), every tier;
#   2b. tsan: ThreadSanitizer (clang) on the test of contexts sharing one
#      prepared dictionary from several threads (only that test case) and
#      on the compression workers' tests (test_zstd_workers, smaller sizes) and the
#      seekable reader's parallel decode (test_zstd_seekable);
#   3. arm64 cross build, tests under qemu-aarch64 -cpu max (every tier) and
#      -cpu cortex-a53 (no SHA3), the latter with the shared data hidden;
#   4. s390x (big-endian) cross build, tests under qemu-s390x;
#   5. the libFuzzer targets, each run briefly on its seed corpus.
# Set XC_TEST_STAGES to a subset (e.g. "release asan") to run fewer stages.
#
# The shared test data (../shared/data beside the project: zstd's golden
# frames, corpora) is optional; a clone without it must pass too.  Tests
# find it through xc_test_data_dir(), which XC_TEST_DATA overrides, and
# XC_TEST_DATA=none hides it even where it exists.  The presets
# release-nodata (full sizes) and arm64-a53 (qemu, quick sizes) set
# XC_TEST_DATA=none, so every CI run checks both ways.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh test

stages=${XC_TEST_STAGES:-"release asan tsan arm64 s390x fuzz"}
jobs=${XC_JOBS:-2}
logdir=build/test-logs
mkdir -p "$logdir"
passed=0
failed=0
skipped=0

# Runs one ctest preset, echoes its summary and adds its counts to the totals.
run_ctest() {
  log="$logdir/$1.log"
  shift_env=$2
  set +e
  env $shift_env ctest --preset "$1" >"$log" 2>&1
  rc=$?
  set -e
  grep -E "tests passed|\*\*\*Failed|Not Run|Timeout" "$log" || true
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)
  nfail=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed.*/\1/p' "$log" | tail -n 1)
  nskip=$(grep -c '\*\*\*Skipped' "$log" || true)
  total=${total:-0}
  nfail=${nfail:-0}
  passed=$((passed + total - nfail - nskip))
  skipped=$((skipped + nskip))
  failed=$((failed + nfail))
  if [ "$rc" -ne 0 ]; then
    cat "$log"
    echo "xcodec: $passed passed, $failed failed, $skipped skipped"
    exit 1
  fi
}

build() {
  echo "== configure and build: $1"
  cmake --preset "$1" >"$logdir/$1.configure.log" 2>&1 || { cat "$logdir/$1.configure.log"; exit 1; }
  cmake --build --preset "$1" -j "$jobs" >"$logdir/$1.build.log" 2>&1 || { tail -n 60 "$logdir/$1.build.log"; exit 1; }
}

for stage in $stages; do
  start=$(date +%s)
  case "$stage" in
    release)
      build release
      run_ctest release ""
      run_ctest release-nodata ""
      build release-table
      run_ctest release-table "" ;;
    asan)
      build asan-ubsan
      run_ctest asan-ubsan "" ;;
    tsan)
      build tsan
      run_ctest tsan "" ;;
    arm64)
      build arm64
      run_ctest arm64 "XC_QEMU_CPU=max"
      run_ctest arm64-a53 "XC_QEMU_CPU=cortex-a53" ;;
    s390x)
      build s390x
      run_ctest s390x "" ;;
    fuzz)
      if [ -f tests/fuzz/run.sh ]; then
        build fuzz
        sh tests/fuzz/run.sh build/fuzz "${XC_FUZZ_SECONDS:-20}" >"$logdir/fuzz.log" 2>&1 ||
          { tail -n 60 "$logdir/fuzz.log"; failed=$((failed + 1)); echo "xcodec: $passed passed, $failed failed, $skipped skipped"; exit 1; }
        tail -n 3 "$logdir/fuzz.log"
      fi ;;
    *) echo "unknown stage $stage" >&2; exit 2 ;;
  esac
  echo "== $stage done in $(( $(date +%s) - start )) s"
done
echo "xcodec: $passed passed, $failed failed, $skipped skipped"
