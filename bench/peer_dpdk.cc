/* SPDX-License-Identifier: BSD-2-Clause */
//
// The DPDK peer for the Internet checksum: rte_raw_cksum() from <rte_ip.h>
// in its best case.  It is a static inline function, so this file holds the
// benchmark loops themselves and bench/CMakeLists.txt compiles it alone
// with -O3 -march=native: the compiler inlines the checksum into the loop
// and vectorises it for this very CPU, while xcodec is built with portable
// flags and called through its dispatch table.  The length stays a run-time
// value, as in a packet path, but is invariant across the loop, so set-up
// that depends on it may be hoisted out.  Without DPDK the file compiles to
// nothing (and CMake leaves it out anyway).
#if defined(XC_HAVE_DPDK)

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>

#include <rte_ip.h>

// The declarations live in bench_inet.cc, the only caller.
void xc_bench_dpdk_run(benchmark::State &state, const uint8_t *buf, size_t len);
uint32_t xc_bench_dpdk_batch(const uint8_t *buf, size_t len, size_t iters);

void xc_bench_dpdk_run(benchmark::State &state, const uint8_t *buf, size_t len)
{
    for (auto _ : state) {
        const uint8_t *p = buf;
        benchmark::DoNotOptimize(p);
        uint16_t c = rte_raw_cksum(p, len);
        benchmark::DoNotOptimize(c);
    }
}

uint32_t xc_bench_dpdk_batch(const uint8_t *buf, size_t len, size_t iters)
{
    uint32_t acc = 0;
    for (size_t i = 0; i < iters; i++) {
        const uint8_t *p = buf;
        benchmark::DoNotOptimize(p);
        uint16_t c = rte_raw_cksum(p, len);
        benchmark::DoNotOptimize(c);
        acc += c;
    }
    return acc;
}

#endif // XC_HAVE_DPDK
