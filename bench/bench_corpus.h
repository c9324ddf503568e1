// SPDX-License-Identifier: BSD-2-Clause
// The corpus shared by the zstd benchmarks: which files of the shared data
// folder they run on, how those are found, the generated classes
// (programs/corpus_gen.h) that join them, and the thread CPU clock both
// use to time engines in alternating batches.
#ifndef XC_BENCH_CORPUS_H
#define XC_BENCH_CORPUS_H

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <map>
#include <set>
#include <string>
#include <sys/stat.h>
#include <time.h>
#include <vector>

#include "corpus_gen.h"

namespace xc_bench {

struct Source {
    std::string name;  // benchmark name part
    std::string path;  // file to read, empty for generated data
    bool bzip2 = false;
    int generated = -1;  // corpus_gen.h class when path is empty
};

inline std::string data_dir()
{
    const char *d = std::getenv("XC_BENCH_DATA");
    return d && *d ? d : XC_BENCH_DATA_DEFAULT;
}

inline bool is_dir(const std::string &p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

inline bool is_file(const std::string &p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

inline std::vector<std::string> list_dir(const std::string &dir)
{
    std::vector<std::string> names;
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') names.emplace_back(e->d_name);
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

inline size_t max_bytes()
{
    const char *m = std::getenv("XC_BENCH_ZSTD_MAX_MB");
    long mb = m && *m ? std::strtol(m, nullptr, 10) : 8;
    return size_t(mb > 0 ? mb : 8) << 20;
}

// A selection that spans the kinds of data without repeating files that
// appear in several sets (alice29.txt, pic = ptt5, ...).
inline const std::map<std::string, std::set<std::string>> kSelection = {
    {"canterbury", {"alice29.txt", "cp.html", "fields.c", "kennedy.xls", "lcet10.txt", "ptt5",
                    "sum", "xargs.1"}},
    {"calgary", {"book1", "geo", "news", "obj2", "progc", "trans"}},
    {"snappy-testdata", {"fireworks.jpeg", "geo.protodata", "html_x_4", "kppkn.gtb",
                         "paper-100k.pdf", "urls.10K"}},
    {"silesia", {"dickens.bz2", "mr.bz2", "nci.bz2", "ooffice.bz2", "osdb.bz2", "reymont.bz2",
                 "x-ray.bz2", "xml.bz2"}},
};

inline std::vector<Source> corpus()
{
    std::vector<Source> out;
    std::set<std::string> seen;
    const std::string root = data_dir() + "/corpus";
    const bool all = std::getenv("XC_BENCH_ZSTD_ALL") && *std::getenv("XC_BENCH_ZSTD_ALL") == '1';
    for (const char *set : {"canterbury", "calgary", "snappy-testdata", "silesia"}) {
        const std::string dir = root + "/" + set;
        for (const std::string &f : list_dir(dir)) {
            if (!all && !kSelection.at(set).count(f)) continue;
            if (!is_file(dir + "/" + f)) continue;
            Source s;
            s.path = dir + "/" + f;
            s.bzip2 = f.size() > 4 && f.compare(f.size() - 4, 4, ".bz2") == 0;
            s.name = s.bzip2 ? f.substr(0, f.size() - 4) : f;
            if (!seen.insert(s.name).second) continue;
            out.push_back(s);
        }
    }
    if (is_dir(root + "/json-records/github")) {
        Source s;
        s.name = "json-records";
        s.path = root + "/json-records/github";
        out.push_back(s);
    }
    // The generated classes, always: they need no data folder, and they
    // hold what the files lack (incompressible data, runs, far repeats).
    for (size_t k = 0; k < xc_corpus_class_count(); k++) {
        if (!xc_corpus_class_available(k)) continue;
        Source s;
        s.name = std::string("class-") + xc_corpus_class_name(k);
        s.generated = int(k);
        out.push_back(s);
    }
    return out;
}

// A generated class's input: XC_BENCH_CLASS_MB MiB (default 1; the mixed
// class at least 4, for its repeats more than 1 MiB back), seed 1, as
// `xcodec bench --classes` makes it.
inline std::string generated(const Source &s)
{
    const char *m = std::getenv("XC_BENCH_CLASS_MB");
    long mb = m && *m ? std::strtol(m, nullptr, 10) : 1;
    size_t n = size_t(mb > 0 && mb <= 64 ? mb : 1) << 20;
    if (std::string(xc_corpus_class_name(size_t(s.generated))) == "mixed" && n < (size_t(4) << 20))
        n = size_t(4) << 20;
    std::string out(n, '\0');
    if (xc_corpus_generate(size_t(s.generated), 1, reinterpret_cast<uint8_t *>(&out[0]), n) != 0)
        out.clear();
    return out;
}

// CPU time of this thread: on a machine shared with other jobs, the time
// other processes take the core is not charged to either engine.
inline double thread_seconds()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

}  // namespace xc_bench

#endif
