/* SPDX-License-Identifier: BSD-2-Clause */
//
// The Internet checksum against DPDK's rte_raw_cksum() and a plain 16-bit
// loop, at packet sizes from an IPv4 header to 1 MiB, on a buffer aligned
// to 64 bytes and on one misaligned by 1.
//
// Two families of benchmarks:
//   inet/<engine>/<size>/a<align>          throughput of one engine
//   inet_vs_dpdk/<engine>/<size>/a<align>  an engine and DPDK timed in short
//       alternating batches within one benchmark; the counters xc_GBps,
//       dpdk_GBps and ratio (engine over DPDK, above 1 is faster) come from
//       the fastest batch of each, which a busy machine leaves untouched.
// Engines: "xcodec" is xc_inet_sum() through the dispatch table followed by
// the fold written inline, the same work as rte_raw_cksum(), which sums
// and folds (it does not complement; the fold here does, one instruction
// more); "xcodec-checksum" is xc_inet_checksum(), the same with the fold in
// the library; "xc-NAME" is one kernel variant called directly and folded
// inline; "dpdk" and "plain16" are the peers.  Variants the CPU (or
// XC_CPUCAP) does not allow are left out.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "cpucap.h"
}

#if defined(XC_HAVE_DPDK)
// bench/peer_dpdk.cc, compiled -O3 -march=native with rte_raw_cksum()
// inlined into these loops.
void xc_bench_dpdk_run(benchmark::State &state, const uint8_t *buf, size_t len);
uint32_t xc_bench_dpdk_batch(const uint8_t *buf, size_t len, size_t iters);
#endif

namespace {

const size_t kSizes[] = {20, 40, 64, 256, 1500, 4096, 65536, size_t(1) << 20};
const size_t kAligns[] = {0, 1};

// One buffer for every benchmark: 64-byte aligned, random bytes.
const uint8_t *bench_buffer()
{
    static uint8_t *buf = [] {
        size_t n = (size_t(1) << 20) + 128;
        auto *b = static_cast<uint8_t *>(std::aligned_alloc(64, n));
        uint64_t x = 0x9E3779B97F4A7C15ull;
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            b[i] = uint8_t(x >> 32);
        }
        return b;
    }();
    return buf;
}

// The obvious code: one big-endian 16-bit word at a time, 64-bit total.
uint16_t plain16(const uint8_t *p, size_t len)
{
    uint64_t s = 0;
    size_t i = 0;
    for (; i + 1 < len; i += 2) s += uint32_t(p[i] << 8 | p[i + 1]);
    if (len & 1) s += uint32_t(p[len - 1]) << 8;
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    return uint16_t(~s);
}

// xc_inet_fold() as a caller would inline it: end-around fold, complement.
inline uint16_t fold_inline(uint32_t s)
{
    uint32_t t = s + ((s << 16) | (s >> 16));
    return uint16_t(~(t >> 16));
}

const int kDispatchedSum = -1, kDispatchedChecksum = -2, kPlain16 = -3;

// An engine: a checksum of len bytes at p.  variant >= 0 is an index into
// xc_inet_variants; kPlain16 is the plain loop, so that it too can be
// compared with DPDK in the same run.
inline uint16_t xc_engine(int variant, const uint8_t *p, size_t len)
{
    if (variant == kDispatchedSum) return fold_inline(xc_inet_sum(0, p, len));
    if (variant == kDispatchedChecksum) return xc_inet_checksum(p, len);
    if (variant == kPlain16) return plain16(p, len);
    return fold_inline(xc_inet_variants[variant].fn(0, p, len));
}

void bm_xcodec(benchmark::State &state, int variant, size_t len, size_t align)
{
    const uint8_t *buf = bench_buffer() + align;
    for (auto _ : state) {
        const uint8_t *p = buf;
        benchmark::DoNotOptimize(p);
        uint16_t c = xc_engine(variant, p, len);
        benchmark::DoNotOptimize(c);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(len));
}

void bm_plain16(benchmark::State &state, size_t len, size_t align)
{
    const uint8_t *buf = bench_buffer() + align;
    for (auto _ : state) {
        const uint8_t *p = buf;
        benchmark::DoNotOptimize(p);
        uint16_t c = plain16(p, len);
        benchmark::DoNotOptimize(c);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(len));
}

#if defined(XC_HAVE_DPDK)
// A batch of iters calls of one engine, the engine fixed at compile time so
// that the loop is as tight as the DPDK one in peer_dpdk.cc.
template <int Engine>
uint32_t batch_of(const uint8_t *buf, size_t len, size_t iters, xc_inet_sum_fn fn)
{
    uint32_t acc = 0;
    for (size_t i = 0; i < iters; i++) {
        const uint8_t *p = buf;
        benchmark::DoNotOptimize(p);
        uint16_t c;
        if (Engine == kDispatchedSum) c = fold_inline(xc_inet_sum(0, p, len));
        else if (Engine == kDispatchedChecksum) c = xc_inet_checksum(p, len);
        else if (Engine == kPlain16) c = plain16(p, len);
        else c = fold_inline(fn(0, p, len));
        benchmark::DoNotOptimize(c);
        acc += c;
    }
    return acc;
}

uint32_t xc_batch(int variant, const uint8_t *buf, size_t len, size_t iters)
{
    switch (variant) {
    case kDispatchedSum: return batch_of<kDispatchedSum>(buf, len, iters, nullptr);
    case kDispatchedChecksum: return batch_of<kDispatchedChecksum>(buf, len, iters, nullptr);
    case kPlain16: return batch_of<kPlain16>(buf, len, iters, nullptr);
    default: return batch_of<0>(buf, len, iters, xc_inet_variants[variant].fn);
    }
}

void bm_dpdk(benchmark::State &state, size_t len, size_t align)
{
    xc_bench_dpdk_run(state, bench_buffer() + align, len);
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(len));
}

// Short batches of about 256 KiB and at least 64 calls, so that the two
// clock reads around a batch stay near 1% of it, the engine then DPDK, each
// timed on its own.  The ratio is of the fastest batch of each: on a shared
// machine a batch is either untouched or preempted, and the fastest one is
// the untouched speed.
void bm_vs_dpdk(benchmark::State &state, int variant, size_t len, size_t align)
{
    using clock = std::chrono::steady_clock;
    const uint8_t *buf = bench_buffer() + align;
    const size_t iters = std::max<size_t>(64, (size_t(1) << 18) / (len + 32));
    double best_xc = 1e30, best_dpdk = 1e30;
    uint32_t sink = 0;
    for (auto _ : state) {
        auto t0 = clock::now();
        sink += xc_batch(variant, buf, len, iters);
        auto t1 = clock::now();
        sink += xc_bench_dpdk_batch(buf, len, iters);
        auto t2 = clock::now();
        best_xc = std::min(best_xc, std::chrono::duration<double>(t1 - t0).count());
        best_dpdk = std::min(best_dpdk, std::chrono::duration<double>(t2 - t1).count());
    }
    benchmark::DoNotOptimize(sink);
    double bytes = double(iters) * double(len);
    state.counters["xc_GBps"] = bytes / best_xc / 1e9;
    state.counters["dpdk_GBps"] = bytes / best_dpdk / 1e9;
    state.counters["ratio"] = best_dpdk / best_xc;
}
#endif

std::string name_of(const char *family, const std::string &engine, size_t len, size_t align)
{
    return std::string(family) + "/" + engine + "/" + std::to_string(len) + "/a" +
           std::to_string(align);
}

// Registered before main() runs, like the BENCHMARK() macro does.
const int registered = [] {
    std::vector<std::pair<std::string, int>> engines = {{"xcodec", kDispatchedSum},
                                                        {"xcodec-checksum", kDispatchedChecksum}};
    const unsigned features = xc_cpu_features();
    for (size_t i = 0; i < xc_inet_variant_count; i++)
        if ((xc_inet_variants[i].needs & features) == xc_inet_variants[i].needs)
            engines.emplace_back(std::string("xc-") + xc_inet_variants[i].name, int(i));
    for (size_t len : kSizes) {
        for (size_t align : kAligns) {
            for (auto &e : engines)
                benchmark::RegisterBenchmark(name_of("inet", e.first, len, align).c_str(),
                                             bm_xcodec, e.second, len, align);
#if defined(XC_HAVE_DPDK)
            benchmark::RegisterBenchmark(name_of("inet", "dpdk", len, align).c_str(), bm_dpdk,
                                         len, align);
#endif
            benchmark::RegisterBenchmark(name_of("inet", "plain16", len, align).c_str(),
                                         bm_plain16, len, align);
        }
    }
#if defined(XC_HAVE_DPDK)
    engines.emplace_back("plain16", kPlain16);
    for (size_t len : kSizes)
        for (size_t align : kAligns)
            for (auto &e : engines)
                benchmark::RegisterBenchmark(name_of("inet_vs_dpdk", e.first, len, align).c_str(),
                                             bm_vs_dpdk, e.second, len, align);
#endif
    return 0;
}();

} // namespace
