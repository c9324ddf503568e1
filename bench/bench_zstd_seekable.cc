// SPDX-License-Identifier: BSD-2-Clause
//
// The seekable format (issue 18): random reads and whole-content decoding
// of a seekable file written by xcodec at level 3, frame sizes 64 KiB,
// 256 KiB and 1 MiB.
//
//   BM_seekable_read4k/xcodec/f<K>   one random 4 KiB read per iteration
//       from a reader over the file in memory (the one-frame cache rarely
//       helps: offsets are uniform); items_per_second is reads per second,
//       counter overhead_pct the file's size over one frame of the whole
//       input, minus 1, in percent.
//   BM_seekable_whole/xcodec/f<K>/w<N>   xc_zstd_seekable_decompress_all
//       on N workers (1, 2), real time, MBps of content; against
//   BM_seekable_whole/libzstd/f<K>   ZSTD_decompress of the same file (the
//       frames one after another, the table skipped): the latency of one
//       4 KiB read against that of a whole decode is the ratio of the two.
//
// The input: XC_BENCH_SEEKABLE_MB (default 64; the table uses 256)
// of generated text and binary records.  On a machine shared with other
// jobs wall-clock numbers are indicative only: compare within one run.
//
//   xcodec_bench --benchmark_filter=BM_seekable
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "xcodec.h"

#if defined(XC_HAVE_LIBZSTD)
#  include <zstd.h>
#endif

namespace {

const unsigned kFrames[] = {64u << 10, 256u << 10, 1u << 20};

size_t input_bytes()
{
    const char *m = std::getenv("XC_BENCH_SEEKABLE_MB");
    long mb = m && *m ? std::strtol(m, nullptr, 10) : 64;
    return size_t(mb > 0 ? mb : 64) << 20;
}

const std::string &input()
{
    static std::string s;
    if (!s.empty()) return s;
    size_t const n = input_bytes();
    static const char *const words[] = {"seek", "table", "frame", "range", "offset",
                                        "zstd", "block", "window"};
    uint64_t x = 0x5EEDull;
    auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    char buf[64];
    while (s.size() < n) {
        if (next() % 4 == 0) {
            uint64_t v = next();
            for (int i = 0; i < 16; i++) s.push_back(char(((v >> (i * 4)) & 15) * (i & 1)));
        } else {
            int len = std::snprintf(buf, sizeof buf, "%s %u ", words[next() % 8],
                                    unsigned(next() % 1000));
            s.append(buf, size_t(len));
        }
    }
    s.resize(n);
    return s;
}

const std::vector<uint8_t> &file(unsigned frame)
{
    static std::map<unsigned, std::vector<uint8_t>> files;
    auto it = files.find(frame);
    if (it != files.end()) return it->second;
    const std::string &in = input();
    std::vector<uint8_t> &f = files[frame];
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, 3);
    xc_zstd_seekable_writer *w = xc_zstd_seekable_writer_new(c, frame, 1);
    f.resize(xc_zstd_compress_bound(in.size()) + (in.size() / frame + 1) * 12 + 64);
    xc_in_buffer ib = {in.data(), in.size(), 0};
    xc_out_buffer ob = {f.data(), f.size(), 0};
    size_t r = xc_zstd_seekable_write(w, &ob, &ib);
    if (!xc_is_error(r)) r = xc_zstd_seekable_finish(w, &ob);
    if (xc_is_error(r) || r) std::abort();
    f.resize(ob.pos);
    xc_zstd_seekable_writer_free(w);
    xc_zstd_cctx_free(c);
    return f;
}

size_t one_frame_size()
{
    static size_t n;
    if (n) return n;
    const std::string &in = input();
    std::vector<uint8_t> z(xc_zstd_compress_bound(in.size()));
    n = xc_zstd_compress(z.data(), z.size(), in.data(), in.size(), 3);
    if (xc_is_error(n)) std::abort();
    return n;
}

void BM_read4k(benchmark::State &st, unsigned frame)
{
    const std::vector<uint8_t> &f = file(frame);
    xc_zstd_seekable *r = xc_zstd_seekable_new();
    if (xc_is_error(xc_zstd_seekable_open_buffer(r, f.data(), f.size()))) std::abort();
    unsigned long long const total = xc_zstd_seekable_content_size(r);
    const std::string &in = input();
    std::vector<uint8_t> dst(4096);
    uint64_t x = 0x1234567ull;
    for (auto _ : st) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned long long const off = x % (total - 4096);
        size_t got = xc_zstd_seekable_read(r, dst.data(), 4096, off);
        if (got != 4096) std::abort();
        benchmark::DoNotOptimize(dst.data());
    }
    if (std::memcmp(dst.data(), in.data() + (x % (total - 4096)), 4096) != 0) std::abort();
    st.SetItemsProcessed(int64_t(st.iterations()));
    st.counters["overhead_pct"] = (double(f.size()) / double(one_frame_size()) - 1) * 100;
    xc_zstd_seekable_free(r);
}

void BM_whole(benchmark::State &st, unsigned frame, unsigned workers)
{
    const std::vector<uint8_t> &f = file(frame);
    const std::string &in = input();
    xc_zstd_seekable *r = xc_zstd_seekable_new();
    if (xc_is_error(xc_zstd_seekable_open_buffer(r, f.data(), f.size()))) std::abort();
    std::vector<uint8_t> dst(in.size());
    for (auto _ : st) {
        size_t got = xc_zstd_seekable_decompress_all(r, dst.data(), dst.size(), workers);
        if (got != in.size()) std::abort();
        benchmark::DoNotOptimize(dst.data());
    }
    if (std::memcmp(dst.data(), in.data(), in.size()) != 0) std::abort();
    st.counters["MBps"] = benchmark::Counter(double(in.size()) * double(st.iterations()) / 1e6,
                                             benchmark::Counter::kIsRate);
    xc_zstd_seekable_free(r);
}

#if defined(XC_HAVE_LIBZSTD)
void BM_whole_libzstd(benchmark::State &st, unsigned frame)
{
    const std::vector<uint8_t> &f = file(frame);
    const std::string &in = input();
    std::vector<uint8_t> dst(in.size());
    for (auto _ : st) {
        size_t got = ZSTD_decompress(dst.data(), dst.size(), f.data(), f.size());
        if (got != in.size()) std::abort();
        benchmark::DoNotOptimize(dst.data());
    }
    st.counters["MBps"] = benchmark::Counter(double(in.size()) * double(st.iterations()) / 1e6,
                                             benchmark::Counter::kIsRate);
}
#endif

int register_all()
{
    for (unsigned frame : kFrames) {
        std::string const f = "f" + std::to_string(frame >> 10) + "K";
        benchmark::RegisterBenchmark(("BM_seekable_read4k/xcodec/" + f).c_str(), BM_read4k, frame);
        for (unsigned w : {1u, 2u})
            benchmark::RegisterBenchmark(
                ("BM_seekable_whole/xcodec/" + f + "/w" + std::to_string(w)).c_str(), BM_whole,
                frame, w)
                ->UseRealTime()
                ->Unit(benchmark::kMillisecond);
#if defined(XC_HAVE_LIBZSTD)
        benchmark::RegisterBenchmark(("BM_seekable_whole/libzstd/" + f).c_str(),
                                     BM_whole_libzstd, frame)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
#endif
    }
    return 0;
}

int registered = register_all();

}  // namespace
