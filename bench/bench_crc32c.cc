// SPDX-License-Identifier: BSD-2-Clause
//
// CRC32C against ISA-L's crc32_iscsi() and a one-stream crc32q loop, from
// 16 bytes to 1 MiB, data in cache, on a buffer aligned to 64 bytes and on
// one misaligned by 1.
//
// Families:
//   crc32c/<engine>/<size>/a<align>           throughput: independent calls,
//       each from 0 (separate records)
//   crc32c_chain/<engine>/<size>/a<align>     latency: each call extends the
//       previous result, as when a stream is fed in pieces (sizes <= 4096)
//   crc32c_vs_isal/<engine>/<size>/a<align>   the engine and ISA-L timed in
//       alternating batches inside one benchmark; counters xc_GBps,
//       isal_GBps and ratio (ISA-L's time over ours: above 1 is faster) come
//       from the same moments, so the noise of a shared machine mostly
//       cancels.  Read ratios from this family.
// Engines: "xcodec" is xc_crc32c() through the dispatch table; "xc-NAME" one
// variant called through its pointer; "isal" is crc32_iscsi(); "crc32q" a
// plain loop of crc32q on 8-byte words (the code most projects carry).
// Variants the CPU (or XC_CPUCAP) does not allow are left out.
//
// ISA-L's convention: crc32_iscsi(buf, len, init) runs the register from
// init and returns the register without the final inversion, so the CRC32C
// of a buffer is ~crc32_iscsi(buf, len, ~0) and extending a CRC c is
// ~crc32_iscsi(buf, len, ~c).  Every engine is checked against xc_crc32c()
// once before timing.
//
// Every benchmark iteration is a batch of calls (about 1 MiB of data, at
// least 16 calls) in a loop that calls the engine directly, so the harness
// adds next to nothing to a 16-byte call.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#if defined(__x86_64__)
#  include <immintrin.h>
#endif

extern "C" {
#include "cpucap.h"
#if defined(XC_HAVE_ISAL)
#  include <isa-l/crc.h>
#endif
}

namespace {

const size_t kSizes[] = {16, 64, 256, 1500, 4096, 65536, size_t(1) << 19, size_t(1) << 20};
const size_t kAligns[] = {0, 1};
const size_t kChainMax = 4096;

// Hides a value from the optimizer in a register.  (benchmark::DoNotOptimize
// on a pointer local let GCC 12 reuse its stack slot before the store.)
template <class T> inline void opaque(T &v) { asm volatile("" : "+r"(v)); }

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

using crc_fn = uint32_t (*)(uint32_t, const uint8_t *, size_t);

inline uint32_t xcodec(uint32_t crc, const uint8_t *p, size_t n) { return xc_crc32c(crc, p, n); }

#if defined(XC_HAVE_ISAL)
inline uint32_t isal(uint32_t crc, const uint8_t *p, size_t n)
{
    return ~crc32_iscsi(const_cast<uint8_t *>(p), int(n), ~crc);
}
#endif

#if defined(__x86_64__)
// One dependent chain of crc32q, the bytes after the last word one at a time.
__attribute__((target("sse4.2"), noinline)) uint32_t crc32q_loop(uint32_t crc, const uint8_t *p,
                                                                 size_t n)
{
    uint64_t c = ~crc;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        c = _mm_crc32_u64(c, w);
    }
    uint32_t c32 = uint32_t(c);
    for (; n; n--) c32 = _mm_crc32_u8(c32, *p++);
    return ~c32;
}
#endif

// A batch of independent calls (chain = false) or of calls that each extend
// the previous result.  F is a template argument so that the named engines
// are called directly; the variants go through their pointer, fn.
template <uint32_t (*F)(uint32_t, const uint8_t *, size_t)>
uint32_t batch_direct(crc_fn, bool chain, const uint8_t *buf, size_t len, size_t iters)
{
    uint32_t acc = 0;
    if (chain) {
        for (size_t i = 0; i < iters; i++) acc = F(acc, buf, len);
        return acc;
    }
    for (size_t i = 0; i < iters; i++) {
        const uint8_t *p = buf;
        opaque(p);
        acc += F(0, p, len);
    }
    return acc;
}

uint32_t batch_pointer(crc_fn fn, bool chain, const uint8_t *buf, size_t len, size_t iters)
{
    uint32_t acc = 0;
    if (chain) {
        for (size_t i = 0; i < iters; i++) acc = fn(acc, buf, len);
        return acc;
    }
    for (size_t i = 0; i < iters; i++) {
        const uint8_t *p = buf;
        opaque(p);
        acc += fn(0, p, len);
    }
    return acc;
}

struct Engine {
    std::string name;
    uint32_t (*batch)(crc_fn, bool, const uint8_t *, size_t, size_t);
    crc_fn fn;
};

size_t batch_calls(size_t len) { return std::max<size_t>(16, (size_t(1) << 20) / (len + 32)); }

bool check(benchmark::State &state, const Engine &e, const uint8_t *p, size_t len)
{
    uint32_t got = e.batch(e.fn, true, p, len, 2);
    uint32_t want = xc_crc32c(xc_crc32c(0, p, len), p, len);
    if (got == want) return true;
    state.SkipWithError("result differs from xc_crc32c");
    return false;
}

void bm_one(benchmark::State &state, Engine e, bool chain, size_t len, size_t align)
{
    const uint8_t *buf = bench_buffer() + align;
    if (!check(state, e, buf, len)) return;
    const size_t calls = batch_calls(len);
    uint32_t sink = 0;
    for (auto _ : state) sink += e.batch(e.fn, chain, buf, len, calls);
    benchmark::DoNotOptimize(sink);
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(calls) * int64_t(len));
}

#if defined(XC_HAVE_ISAL)
double thread_seconds()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Ours then ISA-L's, each batch timed on its own in thread CPU time (so time
// spent descheduled on a busy machine counts for neither); the ratio is of
// the summed times.
void bm_vs_isal(benchmark::State &state, Engine e, size_t len, size_t align)
{
    const Engine peer{"isal", batch_direct<isal>, nullptr};
    const uint8_t *buf = bench_buffer() + align;
    if (!check(state, e, buf, len) || !check(state, peer, buf, len)) return;
    const size_t calls = batch_calls(len);
    double t_xc = 0, t_isal = 0;
    uint32_t sink = 0;
    for (auto _ : state) {
        double t0 = thread_seconds();
        sink += e.batch(e.fn, false, buf, len, calls);
        double t1 = thread_seconds();
        sink += peer.batch(peer.fn, false, buf, len, calls);
        double t2 = thread_seconds();
        t_xc += t1 - t0;
        t_isal += t2 - t1;
    }
    benchmark::DoNotOptimize(sink);
    double bytes = double(state.iterations()) * double(calls) * double(len);
    state.counters["xc_GBps"] = bytes / t_xc / 1e9;
    state.counters["isal_GBps"] = bytes / t_isal / 1e9;
    state.counters["ratio"] = t_isal / t_xc;
}
#endif

std::string name_of(const char *family, const std::string &engine, size_t len, size_t align)
{
    return std::string(family) + "/" + engine + "/" + std::to_string(len) + "/a" +
           std::to_string(align);
}

const int registered = [] {
    std::vector<Engine> ours = {{"xcodec", batch_direct<xcodec>, nullptr}};
    const unsigned features = xc_cpu_features();
    for (size_t i = 0; i < xc_crc32c_variant_count; i++)
        if ((xc_crc32c_variants[i].needs & features) == xc_crc32c_variants[i].needs)
            ours.push_back({std::string("xc-") + xc_crc32c_variants[i].name, batch_pointer,
                            xc_crc32c_variants[i].fn});
    std::vector<Engine> all = ours;
#if defined(XC_HAVE_ISAL)
    all.push_back({"isal", batch_direct<isal>, nullptr});
#endif
#if defined(__x86_64__)
    if (features & XC_CPU_X64_SSE42) all.push_back({"crc32q", batch_direct<crc32q_loop>, nullptr});
#endif
    for (size_t len : kSizes)
        for (size_t align : kAligns)
            for (auto &e : all)
                benchmark::RegisterBenchmark(name_of("crc32c", e.name, len, align).c_str(),
                                             bm_one, e, false, len, align);
    for (size_t len : kSizes)
        for (size_t align : kAligns)
            for (auto &e : all)
                if (len <= kChainMax)
                    benchmark::RegisterBenchmark(
                        name_of("crc32c_chain", e.name, len, align).c_str(), bm_one, e, true, len,
                        align);
#if defined(XC_HAVE_ISAL)
    for (size_t len : kSizes)
        for (size_t align : kAligns)
            for (auto &e : ours)
                benchmark::RegisterBenchmark(name_of("crc32c_vs_isal", e.name, len, align).c_str(),
                                             bm_vs_isal, e, len, align);
#endif
    return 0;
}();

} // namespace
