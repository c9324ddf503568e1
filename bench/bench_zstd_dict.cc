// SPDX-License-Identifier: BSD-2-Clause
//
// zstd with dictionaries on small records, xcodec against libzstd: the case
// dictionaries exist for.  A record of a few hundred bytes holds too little
// history for LZ matches and too few symbols for entropy tables that pay for
// their own description; a dictionary trained on similar records brings
// both.
//
// The records: the JSON files under $XC_BENCH_DICT_RECORDS (default: the
// shared data folder's corpus/json-records), each *.json file one record,
// each line one record in *.jsonl and *.ndjson files and in files above
// 64 KiB (a file of lines); other files (README, archives) are left out.
// Without any, a seeded generator writes 2,000 records shaped like API
// responses.  XC_BENCH_DICT_MAX_RECORDS caps the count (bench/report's
// quick run).  Records with an even index train the dictionaries, the
// others are compressed: a dictionary is judged on records it has not seen.
//
// Families:
//   zstd_dict_train/<trainer>   one training, xc_zstd_train_dictionary() or
//       ZDICT_trainFromBuffer(), both asked for kDictCap bytes; the time is
//       the process CPU time of a training.  Counters: dict_bytes, then
//       xc_total and zstd_total, the compressed bytes of all test records
//       at level 3 with that dictionary (by xcodec, by libzstd), raw_total.
//   zstd_dict_vs/<dict>/level<L>  (<dict>: xcodec-dict or libzstd-dict;
//       L in 1, 3, 9, 19) both engines with the same dictionary, each from
//       its own prepared dictionaries (xc_zstd_cdict + xc_zstd_ddict,
//       ZSTD_CDict + ZSTD_DDict), so the two rows of a level cover "own
//       dictionary" and "the other's dictionary" for both.  One record per
//       frame, the cdict and ddict referenced again for every record (what a
//       server does per message).  Compression and decompression are timed
//       in alternating batches of every test record, in thread CPU time, so
//       that the noise of a busy machine hits both engines alike; both
//       decoders decode libzstd's frames (the same work), after xcodec's
//       frames are checked in both decoders.  Counters: xc_c_MBps,
//       zstd_c_MBps, c_speed (libzstd's time over xcodec's: above 1 is
//       faster), xc_d_MBps, zstd_d_MBps, d_speed, xc_total, zstd_total, size
//       (xc_total / zstd_total), xc_nodict, zstd_nodict (the totals without
//       a dictionary, for scale), xc_c_ns, xc_d_ns (per record), raw_total,
//       records.
//
//   xcodec_bench --benchmark_filter=zstd_dict --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "xcodec.h"

#if defined(XC_HAVE_LIBZSTD)
#  include <zdict.h>
#  include <zstd.h>
#endif

#include "bench_corpus.h"

namespace {

using namespace xc_bench;

const int kLevels[] = {1, 3, 9, 19};
// About a fiftieth of the training records' bytes: zstd's advice is a
// dictionary near 100 times smaller than its samples, and its CLI default
// (110 KiB) is meant for sample sets of tens of megabytes.
const size_t kDictCap = size_t(16) << 10;
const size_t kFileOfLines = size_t(64) << 10;

// ---- the records ---------------------------------------------------------------

struct Records {
    std::string origin;               // where they come from, for the error messages
    std::vector<std::string> test;    // compressed in the timed loops
    std::string train_bytes;          // training records, back to back
    std::vector<size_t> train_sizes;  // and their sizes
    size_t test_bytes = 0, max_record = 0;
};

bool ends_with(const std::string &s, const char *tail)
{
    size_t n = std::strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

void split_lines(const std::string &text, std::vector<std::string> &out)
{
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
}

// Reads path: a folder is walked (two levels deep, names sorted so that
// every run sees the same order), a JSON file gives one record or, when it
// is a file of lines, one per line.
void collect(const std::string &path, int depth, std::vector<std::string> &out)
{
    if (is_dir(path)) {
        if (depth < 2)
            for (const std::string &f : list_dir(path)) collect(path + "/" + f, depth + 1, out);
        return;
    }
    const bool lines = ends_with(path, ".jsonl") || ends_with(path, ".ndjson");
    if (!lines && !ends_with(path, ".json")) return;
    std::string text;
    if (FILE *f = std::fopen(path.c_str(), "rb")) {
        char buf[1 << 16];
        size_t got;
        while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, got);
        std::fclose(f);
    }
    if (lines || text.size() > kFileOfLines)
        split_lines(text, out);
    else if (!text.empty())
        out.push_back(text);
}

// Records shaped like the responses of a REST API: the same keys in the same
// order, values that repeat across records (types, URLs with the login
// inside, booleans) beside values that do not (ids, names, dates, counts).
std::vector<std::string> generate_records(size_t count)
{
    static const char *const first[] = {"Ada", "Linus", "Grace", "Ken", "Barbara", "Dennis",
                                        "Margaret", "Edsger", "Frances", "Niklaus"};
    static const char *const last[] = {"Lovelace", "Torvalds", "Hopper", "Thompson", "Liskov",
                                       "Ritchie", "Hamilton", "Dijkstra", "Allen", "Wirth"};
    static const char *const places[] = {"Berlin", "Lagos", "Osaka", "Lima", "Toronto",
                                         "Melbourne", nullptr, "Prague"};
    uint64_t s = 0x5EEDD1C7ull;
    auto next = [&s] {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    std::vector<std::string> out;
    char login[32], rec[2048];
    for (size_t i = 0; i < count; i++) {
        uint64_t r = next();
        std::snprintf(login, sizeof login, "%s%s%u", first[r % 10], last[(r >> 8) % 10],
                      unsigned(r >> 40) % 1000);
        const char *place = places[(r >> 16) % 8];
        int n = std::snprintf(
            rec, sizeof rec,
            "{\"login\":\"%s\",\"id\":%u,\"url\":\"https://api.example.com/users/%s\","
            "\"html_url\":\"https://example.com/%s\",\"repos_url\":"
            "\"https://api.example.com/users/%s/repos\",\"type\":\"%s\",\"site_admin\":%s,"
            "\"name\":\"%s %s\",\"company\":%s,\"location\":%s%s%s,\"hireable\":%s,"
            "\"public_repos\":%u,\"followers\":%u,\"following\":%u,"
            "\"created_at\":\"20%02u-%02u-%02uT%02u:%02u:%02uZ\","
            "\"updated_at\":\"2016-%02u-%02uT%02u:%02u:%02uZ\"}",
            login, unsigned(next() % 20000000), login, login, login,
            r % 13 ? "User" : "Organization", r % 97 ? "false" : "true", first[(r >> 24) % 10],
            last[(r >> 28) % 10], r % 3 ? "null" : "\"Example Corp\"", place ? "\"" : "",
            place ? place : "null", place ? "\"" : "", (r >> 32) % 2 ? "true" : "null",
            unsigned(next() % 200), unsigned(next() % 5000), unsigned(next() % 300),
            unsigned(8 + next() % 8), unsigned(1 + next() % 12), unsigned(1 + next() % 28),
            unsigned(next() % 24), unsigned(next() % 60), unsigned(next() % 60),
            unsigned(1 + next() % 12), unsigned(1 + next() % 28), unsigned(next() % 24),
            unsigned(next() % 60), unsigned(next() % 60));
        out.emplace_back(rec, size_t(n > 0 ? std::min<int>(n, int(sizeof rec) - 1) : 0));
    }
    return out;
}

const Records &records()
{
    static std::once_flag once;
    static Records r;
    std::call_once(once, [] {
        const char *env = std::getenv("XC_BENCH_DICT_RECORDS");
        r.origin = env && *env ? env : data_dir() + "/corpus/json-records";
        std::vector<std::string> all;
        collect(r.origin, 0, all);
        if (all.empty()) {
            r.origin = "generated records";
            all = generate_records(2000);
        }
        const char *cap = std::getenv("XC_BENCH_DICT_MAX_RECORDS");
        long max = cap && *cap ? std::strtol(cap, nullptr, 10) : 0;
        if (max > 0 && all.size() > size_t(max)) all.resize(size_t(max));
        for (size_t i = 0; i < all.size(); i++) {
            r.max_record = std::max(r.max_record, all[i].size());
            if (i % 2 == 0) {
                r.train_bytes += all[i];
                r.train_sizes.push_back(all[i].size());
            } else {
                r.test_bytes += all[i].size();
                r.test.push_back(std::move(all[i]));
            }
        }
    });
    return r;
}

// ---- engines -------------------------------------------------------------------
// compress() and decompress() return the bytes written, 0 on any error.

struct XcEngine {
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    xc_zstd_cdict *cdict = nullptr;
    xc_zstd_ddict *ddict = nullptr;
    XcEngine(const std::string &dict, int level)
    {
        xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level);
        if (!dict.empty()) {
            cdict = xc_zstd_cdict_new(dict.data(), dict.size(), level);
            ddict = xc_zstd_ddict_new(dict.data(), dict.size());
        }
    }
    ~XcEngine()
    {
        xc_zstd_cctx_free(c);
        xc_zstd_dctx_free(d);
        xc_zstd_cdict_free(cdict);
        xc_zstd_ddict_free(ddict);
    }
    XcEngine(const XcEngine &) = delete;
    XcEngine &operator=(const XcEngine &) = delete;
    bool ready(bool with_dict) const { return c && d && (!with_dict || (cdict && ddict)); }
    size_t compress(char *dst, size_t cap, const std::string &src)
    {
        if (cdict && xc_is_error(xc_zstd_cctx_ref_cdict(c, cdict))) return 0;
        size_t r = xc_zstd_compress_cctx(c, dst, cap, src.data(), src.size());
        return xc_is_error(r) ? 0 : r;
    }
    size_t decompress(char *dst, size_t cap, const char *src, size_t n)
    {
        if (ddict && xc_is_error(xc_zstd_dctx_ref_ddict(d, ddict))) return 0;
        size_t r = xc_zstd_decompress_dctx(d, dst, cap, src, n);
        return xc_is_error(r) ? 0 : r;
    }
};

#if defined(XC_HAVE_LIBZSTD)
struct ZstdEngine {
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ZSTD_CDict *cdict = nullptr;
    ZSTD_DDict *ddict = nullptr;
    int level;
    ZstdEngine(const std::string &dict, int lv) : level(lv)
    {
        if (!dict.empty()) {
            cdict = ZSTD_createCDict(dict.data(), dict.size(), level);
            ddict = ZSTD_createDDict(dict.data(), dict.size());
        }
    }
    ~ZstdEngine()
    {
        ZSTD_freeCCtx(c);
        ZSTD_freeDCtx(d);
        ZSTD_freeCDict(cdict);
        ZSTD_freeDDict(ddict);
    }
    ZstdEngine(const ZstdEngine &) = delete;
    ZstdEngine &operator=(const ZstdEngine &) = delete;
    bool ready(bool with_dict) const { return c && d && (!with_dict || (cdict && ddict)); }
    size_t compress(char *dst, size_t cap, const std::string &src)
    {
        size_t r = cdict ? ZSTD_compress_usingCDict(c, dst, cap, src.data(), src.size(), cdict)
                         : ZSTD_compressCCtx(c, dst, cap, src.data(), src.size(), level);
        return ZSTD_isError(r) ? 0 : r;
    }
    size_t decompress(char *dst, size_t cap, const char *src, size_t n)
    {
        size_t r = ddict ? ZSTD_decompress_usingDDict(d, dst, cap, src, n, ddict)
                         : ZSTD_decompressDCtx(d, dst, cap, src, n);
        return ZSTD_isError(r) ? 0 : r;
    }
};
#endif

// Every test record's frame, back to back.
struct Frames {
    std::string bytes;
    std::vector<size_t> start;  // frame i is bytes[start[i], start[i + 1])
    size_t size(size_t i) const { return start[i + 1] - start[i]; }
    const char *at(size_t i) const { return bytes.data() + start[i]; }
};

// Compresses every test record; false when a record fails.
template <class Engine> bool compress_all(Engine &e, const Records &r, Frames &out)
{
    std::string dst(xc_zstd_compress_bound(r.max_record) + 64, '\0');
    out.bytes.clear();
    out.start.assign(1, 0);
    for (const std::string &rec : r.test) {
        size_t n = e.compress(&dst[0], dst.size(), rec);
        if (n == 0) return false;
        out.bytes.append(dst.data(), n);
        out.start.push_back(out.bytes.size());
    }
    return true;
}

// Every frame decodes to its record.
template <class Engine> bool decodes_all(Engine &e, const Records &r, const Frames &f)
{
    std::string dst(r.max_record + 1, '\0');
    for (size_t i = 0; i < r.test.size(); i++) {
        size_t n = e.decompress(&dst[0], dst.size(), f.at(i), f.size(i));
        if (n != r.test[i].size() || std::memcmp(dst.data(), r.test[i].data(), n) != 0)
            return false;
    }
    return true;
}

// Total compressed bytes of the test records, 0 on any error.
template <class Engine> size_t total_with(const std::string &dict, int level)
{
    Engine e(dict, level);
    Frames f;
    if (!e.ready(!dict.empty()) || !compress_all(e, records(), f)) return 0;
    return f.bytes.size();
}

// ---- training ------------------------------------------------------------------

enum Trainer { kXcodec, kLibzstd };

// Trains one dictionary; on failure returns "" and says why in *why.
std::string train(Trainer who, std::string *why)
{
    const Records &r = records();
    std::string dict(kDictCap, '\0');
    if (who == kXcodec) {
        size_t n = xc_zstd_train_dictionary(&dict[0], dict.size(), r.train_bytes.data(),
                                            r.train_sizes.data(), unsigned(r.train_sizes.size()));
        if (xc_is_error(n)) {
            *why = std::string("xc_zstd_train_dictionary: ") + xc_error_name(n);
            return "";
        }
        dict.resize(n);
        return dict;
    }
#if defined(XC_HAVE_LIBZSTD)
    size_t n = ZDICT_trainFromBuffer(&dict[0], dict.size(), r.train_bytes.data(),
                                     r.train_sizes.data(), unsigned(r.train_sizes.size()));
    if (ZDICT_isError(n)) {
        *why = std::string("ZDICT_trainFromBuffer: ") + ZDICT_getErrorName(n);
        return "";
    }
    dict.resize(n);
    return dict;
#else
    *why = "libzstd was not found at build time";
    return "";
#endif
}

// The dictionary each trainer makes, trained once for every benchmark.
const std::string &dictionary(Trainer who, std::string *why)
{
    static std::mutex lock;
    static bool done[2];
    static std::string dicts[2], errors[2];
    std::lock_guard<std::mutex> guard(lock);
    if (!done[who]) {
        dicts[who] = train(who, &errors[who]);
        done[who] = true;
    }
    *why = errors[who];
    return dicts[who];
}

void bm_train(benchmark::State &state, Trainer who)
{
    const Records &r = records();
    if (r.test.empty() || r.train_sizes.empty()) {
        state.SkipWithError(("no records in " + r.origin).c_str());
        return;
    }
    std::string dict, why;
    for (auto _ : state) {
        dict = train(who, &why);
        if (dict.empty()) break;
    }
    if (dict.empty()) {
        state.SkipWithError(why.c_str());
        return;
    }
    state.SetLabel(r.origin);
    state.counters["dict_bytes"] = double(dict.size());
    state.counters["samples"] = double(r.train_sizes.size());
    state.counters["sample_bytes"] = double(r.train_bytes.size());
    state.counters["raw_total"] = double(r.test_bytes);
    state.counters["xc_total"] = double(total_with<XcEngine>(dict, 3));
#if defined(XC_HAVE_LIBZSTD)
    state.counters["zstd_total"] = double(total_with<ZstdEngine>(dict, 3));
#endif
}

// ---- compression and decompression with a dictionary ---------------------------------

void bm_vs(benchmark::State &state, Trainer dict_from, int level)
{
    const Records &r = records();
    if (r.test.empty() || r.train_sizes.empty()) {
        state.SkipWithError(("no records in " + r.origin).c_str());
        return;
    }
    std::string why;
    const std::string &dict = dictionary(dict_from, &why);
    if (dict.empty()) {
        state.SkipWithError(why.c_str());
        return;
    }
    XcEngine xc(dict, level);
    if (!xc.ready(true)) {
        state.SkipWithError("xcodec cannot prepare the dictionary");
        return;
    }
    Frames fx;
    if (!compress_all(xc, r, fx) || !decodes_all(xc, r, fx)) {
        state.SkipWithError("xcodec's frames do not decode in xcodec");
        return;
    }
    std::string out(r.max_record + 1, '\0'), work(xc_zstd_compress_bound(r.max_record) + 64, '\0');
    size_t sink = 0;
#if defined(XC_HAVE_LIBZSTD)
    ZstdEngine zs(dict, level);
    Frames fz;
    if (!zs.ready(true) || !compress_all(zs, r, fz)) {
        state.SkipWithError("libzstd cannot compress with the dictionary");
        return;
    }
    if (!decodes_all(zs, r, fx)) {
        state.SkipWithError("xcodec's frames do not decode in libzstd");
        return;
    }
    if (!decodes_all(xc, r, fz)) {
        state.SkipWithError("libzstd's frames do not decode in xcodec");
        return;
    }
    const Frames &same = fz;  // what both decoders decode
    double tcx = 0, tcz = 0, tdx = 0, tdz = 0;
    for (auto _ : state) {
        const double t0 = thread_seconds();
        for (const std::string &rec : r.test) sink += xc.compress(&work[0], work.size(), rec);
        const double t1 = thread_seconds();
        for (const std::string &rec : r.test) sink += zs.compress(&work[0], work.size(), rec);
        const double t2 = thread_seconds();
        for (size_t i = 0; i < r.test.size(); i++)
            sink += xc.decompress(&out[0], out.size(), same.at(i), same.size(i));
        const double t3 = thread_seconds();
        for (size_t i = 0; i < r.test.size(); i++)
            sink += zs.decompress(&out[0], out.size(), same.at(i), same.size(i));
        const double t4 = thread_seconds();
        tcx += t1 - t0;
        tcz += t2 - t1;
        tdx += t3 - t2;
        tdz += t4 - t3;
    }
    state.counters["zstd_c_MBps"] = double(state.iterations()) * double(r.test_bytes) / tcz / 1e6;
    state.counters["zstd_d_MBps"] = double(state.iterations()) * double(r.test_bytes) / tdz / 1e6;
    state.counters["c_speed"] = tcz / tcx;
    state.counters["d_speed"] = tdz / tdx;
    state.counters["zstd_total"] = double(fz.bytes.size());
    state.counters["size"] = double(fx.bytes.size()) / double(fz.bytes.size());
    state.counters["zstd_nodict"] = double(total_with<ZstdEngine>("", level));
#else
    double tcx = 0, tdx = 0;
    for (auto _ : state) {
        const double t0 = thread_seconds();
        for (const std::string &rec : r.test) sink += xc.compress(&work[0], work.size(), rec);
        const double t1 = thread_seconds();
        for (size_t i = 0; i < r.test.size(); i++)
            sink += xc.decompress(&out[0], out.size(), fx.at(i), fx.size(i));
        tcx += t1 - t0;
        tdx += thread_seconds() - t1;
    }
#endif
    benchmark::DoNotOptimize(sink);
    const double n = double(state.iterations());
    state.counters["xc_c_MBps"] = n * double(r.test_bytes) / tcx / 1e6;
    state.counters["xc_d_MBps"] = n * double(r.test_bytes) / tdx / 1e6;
    state.counters["xc_c_ns"] = tcx / n / double(r.test.size()) * 1e9;
    state.counters["xc_d_ns"] = tdx / n / double(r.test.size()) * 1e9;
    state.counters["xc_total"] = double(fx.bytes.size());
    state.counters["xc_nodict"] = double(total_with<XcEngine>("", level));
    state.counters["raw_total"] = double(r.test_bytes);
    state.counters["records"] = double(r.test.size());
}

const int registered = [] {
    benchmark::RegisterBenchmark("zstd_dict_train/xcodec", bm_train, kXcodec)
        ->Iterations(1)
        ->MeasureProcessCPUTime()
        ->Unit(benchmark::kMillisecond);
#if defined(XC_HAVE_LIBZSTD)
    benchmark::RegisterBenchmark("zstd_dict_train/libzstd", bm_train, kLibzstd)
        ->Iterations(1)
        ->MeasureProcessCPUTime()
        ->Unit(benchmark::kMillisecond);
#endif
    for (int level : kLevels) {
        const std::string lv = "/level" + std::to_string(level);
        benchmark::RegisterBenchmark(("zstd_dict_vs/xcodec-dict" + lv).c_str(), bm_vs, kXcodec,
                                     level)
            ->Unit(benchmark::kMillisecond);
#if defined(XC_HAVE_LIBZSTD)
        benchmark::RegisterBenchmark(("zstd_dict_vs/libzstd-dict" + lv).c_str(), bm_vs, kLibzstd,
                                     level)
            ->Unit(benchmark::kMillisecond);
#endif
    }
    return 0;
}();

}  // namespace
