// SPDX-License-Identifier: BSD-2-Clause
//
// zstd decompression, xcodec against libzstd, on frames libzstd makes at
// levels 1, 3, 9 and 19 (checksum on, content size in the header, as the
// zstd command writes them).  Both engines decode the same frame with a
// context reused across iterations; the rate is of decompressed bytes.
//
// Two families:
//   zstd_decode/<engine>/level<L>/<file>         one engine's throughput
//   zstd_decode_vs_libzstd/level<L>/<file>       xcodec and libzstd timed
//       in alternating batches within one benchmark, on the thread's CPU
//       clock; the counters xc_MBps, zstd_MBps and ratio (xcodec over
//       libzstd, above 1 is faster) come from the same moments, so the
//       noise of a shared machine mostly cancels.  bench/ratios.py turns
//       either family into a table.
//
// The corpus: files of $XC_BENCH_DATA (default: the shared data folder)
// under corpus/: a selection from canterbury, calgary, snappy-testdata and
// silesia (bzip2 files, unpacked with `bzip2 -dc` when first used; each
// file is cut to XC_BENCH_ZSTD_MAX_MB, default 8, to bound level-19
// compression time), and the json-records concatenated.  XC_BENCH_ZSTD_ALL=1
// takes every file of those folders.  The generated classes of
// programs/corpus_gen.h (class-text ... class-mixed, XC_BENCH_CLASS_MB MiB
// each, default 1) are always added, with or without the folder.  Frames
// are made the first time a benchmark needs them, outside the timed loop.
//
// A typical run:
//   xcodec_bench --benchmark_filter=zstd_decode_vs --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true --benchmark_format=json >z.json
//   (one command line)
//   python3 bench/ratios.py z.json
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <sys/stat.h>
#include <time.h>
#include <utility>
#include <vector>

#include "xcodec.h"

#if defined(XC_HAVE_LIBZSTD)
#  include <zstd.h>
#endif

#include "bench_corpus.h"

namespace {

using namespace xc_bench;

const int kLevels[] = {1, 3, 9, 19};

// ---- the corpus ------------------------------------------------------------


// ---- loading and compressing, once per process ------------------------------------

bool read_all(FILE *f, std::string &out, size_t limit)
{
    char buf[1 << 16];
    size_t got;
    while (out.size() < limit && (got = std::fread(buf, 1, sizeof buf, f)) > 0)
        out.append(buf, got);
    if (out.size() > limit) out.resize(limit);
    return true;
}

// The content of a source, or an empty string with `error` set.
std::string load(const Source &s, std::string &error)
{
    std::string out;
    if (s.generated >= 0) return generated(s);
    if (is_dir(s.path)) {  // json-records: every record, one after another
        for (const std::string &f : list_dir(s.path)) {
            if (FILE *fp = std::fopen((s.path + "/" + f).c_str(), "rb")) {
                read_all(fp, out, max_bytes());
                std::fclose(fp);
            }
        }
    } else if (s.bzip2) {
        std::string cmd = "bzip2 -dc '" + s.path + "' 2>/dev/null";
        FILE *p = popen(cmd.c_str(), "r");
        if (!p) {
            error = "cannot run bzip2";
            return out;
        }
        read_all(p, out, max_bytes());
        // Reading stops at the cap; bzip2 then ends on a broken pipe.
        pclose(p);
    } else if (FILE *fp = std::fopen(s.path.c_str(), "rb")) {
        read_all(fp, out, max_bytes());
        std::fclose(fp);
    }
    if (out.empty()) error = "cannot read " + s.path;
    return out;
}

struct Sample {
    std::string raw;
    std::map<int, std::string> frames;  // by level
    std::string error;
};

std::mutex cache_lock;
std::map<std::string, std::unique_ptr<Sample>> cache;

// The content of source s and its frame at `level`, made on first use.
const Sample &sample(const Source &s, int level)
{
    std::lock_guard<std::mutex> guard(cache_lock);
    std::unique_ptr<Sample> &slot = cache[s.name];
    if (!slot) {
        slot.reset(new Sample);
        slot->raw = load(s, slot->error);
    }
    Sample &smp = *slot;
#if defined(XC_HAVE_LIBZSTD)
    if (smp.error.empty() && !smp.frames.count(level)) {
        ZSTD_CCtx *c = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
        ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
        std::string frame(ZSTD_compressBound(smp.raw.size()), '\0');
        size_t n = ZSTD_compress2(c, &frame[0], frame.size(), smp.raw.data(), smp.raw.size());
        ZSTD_freeCCtx(c);
        if (ZSTD_isError(n)) {
            smp.error = ZSTD_getErrorName(n);
        } else {
            frame.resize(n);
            smp.frames[level] = std::move(frame);
        }
    }
#else
    (void)level;
    smp.error = "libzstd is needed to make the frames";
#endif
    return smp;
}

// ---- the engines ---------------------------------------------------------------------

struct XcEngine {
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    ~XcEngine() { xc_zstd_dctx_free(d); }
    size_t run(std::string &dst, const std::string &frame)
    {
        size_t r = xc_zstd_decompress_dctx(d, &dst[0], dst.size(), frame.data(), frame.size());
        return xc_is_error(r) ? size_t(-1) : r;
    }
};

#if defined(XC_HAVE_LIBZSTD)
struct ZstdEngine {
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ~ZstdEngine() { ZSTD_freeDCtx(d); }
    size_t run(std::string &dst, const std::string &frame)
    {
        size_t r = ZSTD_decompressDCtx(d, &dst[0], dst.size(), frame.data(), frame.size());
        return ZSTD_isError(r) ? size_t(-1) : r;
    }
};
#endif

// Checks one decode before timing; false (with the benchmark skipped) when
// the engine cannot decode the frame or gets it wrong.
template <class Engine>
bool verify(benchmark::State &state, Engine &e, std::string &dst, const Sample &smp, int level,
            const char *who)
{
    size_t r = e.run(dst, smp.frames.at(level));
    if (r != smp.raw.size() || std::memcmp(dst.data(), smp.raw.data(), r) != 0) {
        state.SkipWithError((std::string(who) + " decodes the frame wrongly").c_str());
        return false;
    }
    return true;
}

template <class Engine>
void bm_engine(benchmark::State &state, Source src, int level, const char *who)
{
    const Sample &smp = sample(src, level);
    if (!smp.error.empty()) {
        state.SkipWithError(smp.error.c_str());
        return;
    }
    Engine e;
    std::string dst(smp.raw.size(), '\0');
    if (!verify(state, e, dst, smp, level, who)) return;
    const std::string &frame = smp.frames.at(level);
    for (auto _ : state) {
        size_t r = e.run(dst, frame);
        benchmark::DoNotOptimize(r);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(smp.raw.size()));
    state.counters["ratio_cr"] = double(smp.raw.size()) / double(frame.size());
    state.counters["raw_bytes"] = double(smp.raw.size());
}

#if defined(XC_HAVE_LIBZSTD)

// Batches of about 4 MiB of output, xcodec then libzstd, each timed on its
// own; the ratio is of the summed times.
void bm_vs(benchmark::State &state, Source src, int level)
{
    const Sample &smp = sample(src, level);
    if (!smp.error.empty()) {
        state.SkipWithError(smp.error.c_str());
        return;
    }
    XcEngine xc;
    ZstdEngine zs;
    std::string dst(smp.raw.size(), '\0');
    if (!verify(state, xc, dst, smp, level, "xcodec") ||
        !verify(state, zs, dst, smp, level, "libzstd"))
        return;
    const std::string &frame = smp.frames.at(level);
    const size_t iters = std::max<size_t>(1, (size_t(4) << 20) / (smp.raw.size() + 1));
    double t_xc = 0, t_zs = 0;
    size_t sink = 0;
    for (auto _ : state) {
        double t0 = thread_seconds();
        for (size_t i = 0; i < iters; i++) sink += xc.run(dst, frame);
        double t1 = thread_seconds();
        for (size_t i = 0; i < iters; i++) sink += zs.run(dst, frame);
        double t2 = thread_seconds();
        t_xc += t1 - t0;
        t_zs += t2 - t1;
    }
    benchmark::DoNotOptimize(sink);
    double bytes = double(state.iterations()) * double(iters) * double(smp.raw.size());
    state.counters["xc_MBps"] = bytes / t_xc / 1e6;
    state.counters["zstd_MBps"] = bytes / t_zs / 1e6;
    state.counters["ratio"] = t_zs / t_xc;
    state.counters["raw_bytes"] = double(smp.raw.size());
    state.counters["ratio_cr"] = double(smp.raw.size()) / double(frame.size());
}
#endif

// Registered before main() runs, like the BENCHMARK() macro does.
const int registered = [] {
    const std::vector<Source> sources = corpus();
    for (int level : kLevels) {
        const std::string lv = "/level" + std::to_string(level) + "/";
        for (const Source &s : sources) {
            benchmark::RegisterBenchmark(("zstd_decode/xcodec" + lv + s.name).c_str(),
                                         bm_engine<XcEngine>, s, level, "xcodec")
                ->Unit(benchmark::kMicrosecond);
#if defined(XC_HAVE_LIBZSTD)
            benchmark::RegisterBenchmark(("zstd_decode/libzstd" + lv + s.name).c_str(),
                                         bm_engine<ZstdEngine>, s, level, "libzstd")
                ->Unit(benchmark::kMicrosecond);
#endif
        }
    }
#if defined(XC_HAVE_LIBZSTD)
    for (int level : kLevels)
        for (const Source &s : sources)
            benchmark::RegisterBenchmark(
                ("zstd_decode_vs_libzstd/level" + std::to_string(level) + "/" + s.name).c_str(),
                bm_vs, s, level)
                ->Unit(benchmark::kMillisecond);
#endif
    return 0;
}();

}  // namespace
