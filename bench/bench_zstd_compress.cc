// SPDX-License-Identifier: BSD-2-Clause
//
// zstd compression, xcodec against libzstd at the same level, on the corpus
// of the decompression benchmark.  Each engine reuses one context; the rate
// is of input bytes, and the counter csize is the compressed size.
//
// Families (L in -5, -1, 1, 2, 3, 4, and issue 7's 5, 6, 7, 9, 12, 13, 15,
// 16, 18, 19 and 22; 22 only on files of at most 1 MiB, where libzstd's
// 2 MB/s keeps a run short):
//   BM_compress/<engine>/level<L>/<file>          one-shot
//   BM_compress_stream/<engine>/level<L>/<file>   streamed: 128 KiB pieces of
//       input with "continue", then "end"; output drained whenever its
//       128 KiB buffer fills (what a file or socket writer does)
//   BM_compress_vs_libzstd/<mode>/level<L>/<file> both engines timed in
//       alternating batches in one benchmark, in thread CPU time, so that
//       the noise of a busy machine hits both alike: counters speed
//       (xcodec over libzstd, above 1 is faster), size (xcodec's bytes over
//       libzstd's, below 1 is smaller), xc_MBps, zstd_MBps, xc_csize,
//       zstd_csize.
//   BM_cctx_memory/level<L>   no timing: the counters xc_bytes and
//       zstd_bytes are the encoder context sizes both libraries estimate for
//       an input of unknown size (xc_zstd_estimate_cctx_size(),
//       ZSTD_estimateCCtxSize()), and ratio is xc_bytes / zstd_bytes.
//
// The corpus: $XC_BENCH_DATA (default: the shared data folder) under
// corpus/, the same selection as bench_zstd_decode.cc (canterbury, calgary,
// snappy-testdata, silesia unpacked with `bzip2 -dc`, json-records
// concatenated), each file cut to XC_BENCH_ZSTD_MAX_MB (default 8), and
// always the generated classes of programs/corpus_gen.h (class-text ...
// class-mixed, XC_BENCH_CLASS_MB MiB each, default 1).  Every frame is checked to decode
// (with libzstd) before timing.
//
//   xcodec_bench --benchmark_filter=BM_compress_vs --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true
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
#include <vector>

#include "xcodec.h"

#if defined(XC_HAVE_LIBZSTD)
// For ZSTD_estimateCCtxSize(), exported by the shared library too.
#  define ZSTD_STATIC_LINKING_ONLY
#  include <zstd.h>
#endif

#include "bench_corpus.h"

namespace {

using namespace xc_bench;

const int kLevels[] = {-5, -1, 1, 2, 3, 4, 5, 6, 7, 9, 12, 13, 15, 16, 18, 19, 22};
const size_t kUltraMaxBytes = size_t(1) << 20;
const size_t kPiece = size_t(128) << 10;

// ---- the corpus -------------------------------------------------------------


void read_all(FILE *f, std::string &out, size_t limit)
{
    char buf[1 << 16];
    size_t got;
    while (out.size() < limit && (got = std::fread(buf, 1, sizeof buf, f)) > 0)
        out.append(buf, got);
    if (out.size() > limit) out.resize(limit);
}

std::string load(const Source &s)
{
    std::string out;
    if (s.generated >= 0) return generated(s);
    if (is_dir(s.path)) {
        for (const std::string &f : list_dir(s.path))
            if (FILE *fp = std::fopen((s.path + "/" + f).c_str(), "rb")) {
                read_all(fp, out, max_bytes());
                std::fclose(fp);
            }
    } else if (s.bzip2) {
        if (FILE *p = popen(("bzip2 -dc '" + s.path + "' 2>/dev/null").c_str(), "r")) {
            read_all(p, out, max_bytes());
            pclose(p);
        }
    } else if (FILE *fp = std::fopen(s.path.c_str(), "rb")) {
        read_all(fp, out, max_bytes());
        std::fclose(fp);
    }
    return out;
}

std::mutex cache_lock;
std::map<std::string, std::unique_ptr<std::string>> cache;

const std::string &content(const Source &s)
{
    std::lock_guard<std::mutex> guard(cache_lock);
    std::unique_ptr<std::string> &slot = cache[s.name];
    if (!slot) slot.reset(new std::string(load(s)));
    return *slot;
}

// ---- engines ------------------------------------------------------------------
// run() compresses src into dst (sized by the bound, or a 128 KiB window
// that is drained for streaming) and returns the frame size, or 0 on error.

struct XcEngine {
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    explicit XcEngine(int level) { xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level); }
    ~XcEngine() { xc_zstd_cctx_free(c); }
    size_t bound(size_t n) { return xc_zstd_compress_bound(n); }
    size_t oneshot(std::string &dst, const std::string &src)
    {
        size_t r = xc_zstd_compress_cctx(c, &dst[0], dst.size(), src.data(), src.size());
        return xc_is_error(r) ? 0 : r;
    }
    // Streams src; when keep is set the frame is appended to it.
    size_t stream(std::string &window, const std::string &src, std::string *keep)
    {
        size_t total = 0;
        xc_in_buffer in = {src.data(), 0, 0};
        for (;;) {
            in.size = std::min(src.size(), in.pos + kPiece);
            xc_zstd_end_op op = in.size == src.size() ? XC_ZSTD_E_END : XC_ZSTD_E_CONTINUE;
            size_t left;
            do {
                xc_out_buffer out = {&window[0], window.size(), 0};
                left = xc_zstd_compress_stream(c, &out, &in, op);
                if (xc_is_error(left)) return 0;
                total += out.pos;
                if (keep) keep->append(window.data(), out.pos);
            } while (op == XC_ZSTD_E_END ? left != 0 : in.pos < in.size);
            if (op == XC_ZSTD_E_END) return total;
        }
    }
};

#if defined(XC_HAVE_LIBZSTD)
struct ZstdEngine {
    ZSTD_CCtx *c = ZSTD_createCCtx();
    explicit ZstdEngine(int level) { ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level); }
    ~ZstdEngine() { ZSTD_freeCCtx(c); }
    size_t bound(size_t n) { return ZSTD_compressBound(n); }
    size_t oneshot(std::string &dst, const std::string &src)
    {
        size_t r = ZSTD_compress2(c, &dst[0], dst.size(), src.data(), src.size());
        return ZSTD_isError(r) ? 0 : r;
    }
    size_t stream(std::string &window, const std::string &src, std::string *keep)
    {
        size_t total = 0;
        ZSTD_inBuffer in = {src.data(), 0, 0};
        for (;;) {
            in.size = std::min(src.size(), in.pos + kPiece);
            ZSTD_EndDirective op = in.size == src.size() ? ZSTD_e_end : ZSTD_e_continue;
            size_t left;
            do {
                ZSTD_outBuffer out = {&window[0], window.size(), 0};
                left = ZSTD_compressStream2(c, &out, &in, op);
                if (ZSTD_isError(left)) return 0;
                total += out.pos;
                if (keep) keep->append(static_cast<const char *>(out.dst), out.pos);
            } while (op == ZSTD_e_end ? left != 0 : in.pos < in.size);
            if (op == ZSTD_e_end) return total;
        }
    }
};

// The frame must decode to the input.
bool decodes(const std::string &frame, const std::string &src)
{
    std::string back(src.size() + 1, '\0');
    size_t r = ZSTD_decompress(&back[0], back.size(), frame.data(), frame.size());
    return !ZSTD_isError(r) && r == src.size() && std::memcmp(back.data(), src.data(), r) == 0;
}
#else
bool decodes(const std::string &frame, const std::string &src)
{
    std::string back(src.size() + 1, '\0');
    size_t r = xc_zstd_decompress(&back[0], back.size(), frame.data(), frame.size());
    return !xc_is_error(r) && r == src.size() && std::memcmp(back.data(), src.data(), r) == 0;
}
#endif

// One engine's output for checking, and its size.
template <class Engine>
size_t check(Engine &e, const std::string &src, bool streaming, std::string &work)
{
    std::string frame;
    size_t n;
    if (streaming) {
        n = e.stream(work, src, &frame);
    } else {
        n = e.oneshot(work, src);
        frame.assign(work.data(), n);
    }
    return n && decodes(frame, src) ? n : 0;
}

template <class Engine>
void bm_engine(benchmark::State &state, Source s, int level, bool streaming)
{
    const std::string &src = content(s);
    if (src.empty()) {
        state.SkipWithError(("cannot read " + s.path).c_str());
        return;
    }
    Engine e(level);
    std::string work(streaming ? kPiece : e.bound(src.size()), '\0');
    size_t csize = check(e, src, streaming, work);
    if (!csize) {
        state.SkipWithError("the frame does not decode");
        return;
    }
    for (auto _ : state) {
        size_t r = streaming ? e.stream(work, src, nullptr) : e.oneshot(work, src);
        benchmark::DoNotOptimize(r);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(src.size()));
    state.counters["csize"] = double(csize);
    state.counters["raw_bytes"] = double(src.size());
}

#if defined(XC_HAVE_LIBZSTD)

// Alternating batches of about 4 MiB of input per engine, each timed in
// thread CPU time; the ratios are of the summed times.
void bm_vs(benchmark::State &state, Source s, int level, bool streaming)
{
    const std::string &src = content(s);
    if (src.empty()) {
        state.SkipWithError(("cannot read " + s.path).c_str());
        return;
    }
    XcEngine xc(level);
    ZstdEngine zs(level);
    std::string wx(streaming ? kPiece : xc.bound(src.size()), '\0');
    std::string wz(streaming ? kPiece : zs.bound(src.size()), '\0');
    size_t cx = check(xc, src, streaming, wx), cz = check(zs, src, streaming, wz);
    if (!cx || !cz) {
        state.SkipWithError(cx ? "libzstd's frame does not decode" : "xcodec's frame does not decode");
        return;
    }
    const size_t iters = std::max<size_t>(1, (size_t(4) << 20) / (src.size() + 1));
    double tx = 0, tz = 0;
    size_t sink = 0;
    for (auto _ : state) {
        double const t0 = thread_seconds();
        for (size_t i = 0; i < iters; i++)
            sink += streaming ? xc.stream(wx, src, nullptr) : xc.oneshot(wx, src);
        double const t1 = thread_seconds();
        for (size_t i = 0; i < iters; i++)
            sink += streaming ? zs.stream(wz, src, nullptr) : zs.oneshot(wz, src);
        double const t2 = thread_seconds();
        tx += t1 - t0;
        tz += t2 - t1;
    }
    benchmark::DoNotOptimize(sink);
    double bytes = double(state.iterations()) * double(iters) * double(src.size());
    state.counters["speed"] = tz / tx;
    state.counters["size"] = double(cx) / double(cz);
    state.counters["xc_MBps"] = bytes / tx / 1e6;
    state.counters["zstd_MBps"] = bytes / tz / 1e6;
    state.counters["xc_csize"] = double(cx);
    state.counters["zstd_csize"] = double(cz);
}
#endif

void bm_memory(benchmark::State &state, int level)
{
    for (auto _ : state) benchmark::DoNotOptimize(level);
    size_t xm = xc_zstd_estimate_cctx_size(level);
    if (xc_is_error(xm)) {
        state.SkipWithError(xc_error_name(xm));
        return;
    }
    state.counters["xc_bytes"] = double(xm);
#if defined(XC_HAVE_LIBZSTD)
    size_t zm = ZSTD_estimateCCtxSize(level);
    if (!ZSTD_isError(zm)) {
        state.counters["zstd_bytes"] = double(zm);
        state.counters["ratio"] = double(xm) / double(zm);
    }
#endif
}

// The ultra levels run only on inputs known to be small: a plain file of
// at most kUltraMaxBytes (the Silesia files and the generated set are
// larger).
bool runs_at(const Source &s, int level)
{
    struct stat st;
    return level <= 19 || (!s.bzip2 && !s.path.empty() && stat(s.path.c_str(), &st) == 0 &&
                           S_ISREG(st.st_mode) && size_t(st.st_size) <= kUltraMaxBytes);
}

const int registered = [] {
    const std::vector<Source> sources = corpus();
    for (int level : kLevels)
        benchmark::RegisterBenchmark(("BM_cctx_memory/level" + std::to_string(level)).c_str(),
                                     bm_memory, level)
            ->Iterations(1);
    for (int streaming = 0; streaming <= 1; streaming++) {
        const std::string family = streaming ? "BM_compress_stream/" : "BM_compress/";
        for (int level : kLevels) {
            const std::string lv = "/level" + std::to_string(level) + "/";
            for (const Source &s : sources) {
                if (!runs_at(s, level)) continue;
                benchmark::RegisterBenchmark((family + "xcodec" + lv + s.name).c_str(),
                                             bm_engine<XcEngine>, s, level, streaming != 0)
                    ->Unit(benchmark::kMicrosecond);
#if defined(XC_HAVE_LIBZSTD)
                benchmark::RegisterBenchmark((family + "libzstd" + lv + s.name).c_str(),
                                             bm_engine<ZstdEngine>, s, level, streaming != 0)
                    ->Unit(benchmark::kMicrosecond);
#endif
            }
        }
    }
#if defined(XC_HAVE_LIBZSTD)
    for (int streaming = 0; streaming <= 1; streaming++)
        for (int level : kLevels)
            for (const Source &s : sources)
                if (runs_at(s, level))
                    benchmark::RegisterBenchmark(
                        (std::string("BM_compress_vs_libzstd/") +
                         (streaming ? "stream" : "oneshot") + "/level" + std::to_string(level) +
                         "/" + s.name)
                            .c_str(),
                        bm_vs, s, level, streaming != 0)
                        ->Unit(benchmark::kMillisecond);
#endif
    return 0;
}();

}  // namespace
