// SPDX-License-Identifier: BSD-2-Clause
//
// zstd compression on workers: wall-clock time of one-shot compression of
// a large input (64 MiB) with N workers, xcodec (XC_ZSTD_C_NB_WORKERS)
// against libzstd (ZSTD_c_nbWorkers), at levels 1, 3, 9 and 19.
//
//   BM_workers/<engine>/level<L>/w<N>   one frame per iteration, real time;
//       counters MBps (input bytes per wall-clock second), csize (bytes),
//       cpu_per_byte_ns (the process's CPU time, all threads, per input
//       byte: against w0, what the workers cost beyond the serial path).
//   N = 0 is the single-threaded path of each library; 1 and 2 workers.
//   BM_workers_decode/xcodec/frames8M/w<N>   the input as frames of 8 MiB
//       (level 3) decoded one-shot with N decoding workers
//       (XC_ZSTD_D_NB_WORKERS); libzstd has no parallel decoder.
//
// The input: the silesia files of the shared data folder (unpacked with
// `bzip2 -dc`) one after another, cut to XC_BENCH_WORKERS_MB (default 64);
// without them, a seeded mixture of text and binary records.  The last
// frame is checked to decode (with libzstd) after timing.  On a machine shared
// with other jobs wall-clock numbers are indicative only: compare the two
// engines within one run.
//
//   xcodec_bench --benchmark_filter=BM_workers
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <time.h>
#include <vector>

#include "xcodec.h"

#if defined(XC_HAVE_LIBZSTD)
#  include <zstd.h>
#endif

#include "bench_corpus.h"

namespace {

const int kLevels[] = {1, 3, 9, 19};
const int kWorkers[] = {0, 1, 2};

size_t input_bytes()
{
    const char *m = std::getenv("XC_BENCH_WORKERS_MB");
    long mb = m && *m ? std::strtol(m, nullptr, 10) : 64;
    return size_t(mb > 0 ? mb : 64) << 20;
}

void generate(std::string &out, size_t n)
{
    static const char *const words[] = {"the",    "of",    "and",   "frame", "block",
                                        "offset", "match", "table", "window", "literal"};
    uint64_t s = 0x5EEDull;
    auto next = [&s] {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    };
    char buf[64];
    while (out.size() < n) {
        if (next() % 4 == 0) {
            uint64_t v = next();
            for (int i = 0; i < 16; i++) out.push_back(char(((v >> (i * 4)) & 15) * (i & 1)));
        } else {
            int len = std::snprintf(buf, sizeof buf, "%s %u ", words[next() % 10],
                                    unsigned(next() % 1000));
            out.append(buf, size_t(len));
        }
    }
    out.resize(n);
}

const std::string &input()
{
    static std::string data;
    if (!data.empty()) return data;
    size_t const n = input_bytes();
    const std::string dir = xc_bench::data_dir() + "/corpus/silesia";
    for (const char *f : {"dickens", "mr", "nci", "ooffice", "osdb", "reymont", "x-ray", "xml"}) {
        if (data.size() >= n) break;
        std::string cmd = "bzip2 -dc '" + dir + "/" + f + ".bz2' 2>/dev/null";
        FILE *p = popen(cmd.c_str(), "r");
        if (!p) continue;
        char buf[1 << 16];
        size_t got;
        while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) data.append(buf, got);
        pclose(p);
    }
    if (data.size() < n) {
        data.clear();
        generate(data, n);
    }
    data.resize(n);
    return data;
}

double process_seconds()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Engine {
    virtual ~Engine() = default;
    virtual size_t compress(void *dst, size_t cap, const void *src, size_t n) = 0;
};

struct XcEngine : Engine {
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    XcEngine(int level, int workers)
    {
        xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level);
        xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, 1);
        xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, workers);
    }
    ~XcEngine() override { xc_zstd_cctx_free(c); }
    size_t compress(void *dst, size_t cap, const void *src, size_t n) override
    {
        size_t r = xc_zstd_compress_cctx(c, dst, cap, src, n);
        return xc_is_error(r) ? 0 : r;
    }
};

#if defined(XC_HAVE_LIBZSTD)
struct ZstdEngine : Engine {
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZstdEngine(int level, int workers)
    {
        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
        ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
        ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, workers);
    }
    ~ZstdEngine() override { ZSTD_freeCCtx(c); }
    size_t compress(void *dst, size_t cap, const void *src, size_t n) override
    {
        size_t r = ZSTD_compress2(c, dst, cap, src, n);
        return ZSTD_isError(r) ? 0 : r;
    }
};
#endif

void run(benchmark::State &state, bool xc, int level, int workers)
{
    const std::string &src = input();
    std::unique_ptr<Engine> e;
    if (xc) e.reset(new XcEngine(level, workers));
#if defined(XC_HAVE_LIBZSTD)
    else e.reset(new ZstdEngine(level, workers));
#endif
    std::vector<char> dst(xc_zstd_compress_bound(src.size()));
    size_t size = 0;
    double cpu = 0;
    for (auto _ : state) {
        double const t0 = process_seconds();
        size = e->compress(dst.data(), dst.size(), src.data(), src.size());
        cpu += process_seconds() - t0;
        benchmark::DoNotOptimize(size);
    }
    if (!size) {
        state.SkipWithError("compression failed");
        return;
    }
#if defined(XC_HAVE_LIBZSTD)
    {
        std::vector<char> back(src.size());
        size_t r = ZSTD_decompress(back.data(), back.size(), dst.data(), size);
        if (ZSTD_isError(r) || r != src.size() || std::memcmp(back.data(), src.data(), r) != 0) {
            state.SkipWithError("frame does not decode");
            return;
        }
    }
#endif
    double const bytes = double(src.size()) * double(state.iterations());
    state.SetBytesProcessed(int64_t(bytes));
    state.counters["MBps"] = benchmark::Counter(bytes / 1e6, benchmark::Counter::kIsRate);
    state.counters["csize"] = double(size);
    state.counters["cpu_per_byte_ns"] = cpu * 1e9 / bytes;
}

// Decompression of the input compressed as frames of 8 MiB (level 3, each
// with its content size) with 0, 1 and 2 decoding workers.
void run_decode(benchmark::State &state, int workers)
{
    const std::string &src = input();
    size_t const piece = size_t(8) << 20;
    std::vector<char> frames(xc_zstd_compress_bound(src.size()) + 64 * (src.size() / piece + 1));
    size_t fsize = 0;
    for (size_t off = 0; off < src.size(); off += piece) {
        size_t const n = std::min(piece, src.size() - off);
        size_t const r = xc_zstd_compress(frames.data() + fsize, frames.size() - fsize,
                                          src.data() + off, n, 3);
        if (xc_is_error(r)) {
            state.SkipWithError("compression failed");
            return;
        }
        fsize += r;
    }
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    xc_zstd_dctx_set(d, XC_ZSTD_D_NB_WORKERS, workers);
    std::vector<char> back(src.size());
    size_t got = 0;
    for (auto _ : state) {
        got = xc_zstd_decompress_dctx(d, back.data(), back.size(), frames.data(), fsize);
        benchmark::DoNotOptimize(got);
    }
    xc_zstd_dctx_free(d);
    if (got != src.size() || std::memcmp(back.data(), src.data(), got) != 0) {
        state.SkipWithError("frames do not decode");
        return;
    }
    double const bytes = double(src.size()) * double(state.iterations());
    state.counters["MBps"] = benchmark::Counter(bytes / 1e6, benchmark::Counter::kIsRate);
}

const bool registered = [] {
    for (int w : kWorkers) {
        std::string name = "BM_workers_decode/xcodec/frames8M/w" + std::to_string(w);
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State &s) {
            run_decode(s, w);
        })->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(5);
    }
    for (int level : kLevels)
        for (int w : kWorkers)
            for (int xc = 1; xc >= 0; xc--) {
#if !defined(XC_HAVE_LIBZSTD)
                if (!xc) continue;
#endif
                std::string name = std::string("BM_workers/") + (xc ? "xcodec" : "libzstd") +
                                   "/level" + std::to_string(level) + "/w" + std::to_string(w);
                benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State &s) {
                    run(s, xc != 0, level, w);
                })->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(level >= 9 ? 1 : 2);
            }
    return true;
}();

}  // namespace
