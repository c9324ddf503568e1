/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The command line of the zstd-compatible mode.  It follows zstd's own
 * conventions so that scripts can swap one for the other: short options
 * cluster ("-dcf", "-19"), a level is digits anywhere in a cluster, -T#,
 * -B#, -M#, -b#, -e#, -i# take digits glued to them, -o and -D take the
 * next argument (or the rest of their cluster), a long option with a file
 * takes "=FILE" or the next argument, options and files interleave, "--"
 * ends the options and "-" is standard input.  Numbers take zstd's
 * suffixes: K, KB, KiB (1024), M, MB, MiB, G, GB, GiB.
 *
 * An option of zstd's that this command does not implement is refused
 * with its name and the reason, exit 1, rather than ignored.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int xc_cli_verbosity = 2;

void xc_cli_msg(int level, const char *fmt, ...)
{
    if (xc_cli_verbosity < level) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("xcodec: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* zstd's human sizes: the largest unit the size reaches (B, KiB, MiB...),
 * precision 0 at 100 and above or when exact, 1 from 10, else 2, and with
 * -vvv (verbosity 4) exact bytes.  The number takes num_w columns and the
 * unit, with its leading space, unit_w. */
const char *xc_cli_human_w(char *buf, size_t n, unsigned long long bytes, int num_w, int unit_w)
{
    static const char *const units[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"};
    size_t u = 0;
    if (xc_cli_verbosity < 4)
        while (u + 1 < sizeof units / sizeof units[0] && bytes >= 1ULL << (10 * (u + 1))) u++;
    double v = (double)bytes / (double)(1ULL << (10 * u));
    int prec = (v >= 100 || (unsigned long long)v == bytes) ? 0 : v >= 10 ? 1 : v > 1 ? 2 : 3;
    snprintf(buf, n, "%*.*f%*s", num_w, prec, v, unit_w, units[u]);
    return buf;
}

const char *xc_cli_human(char *buf, size_t n, unsigned long long bytes)
{
    return xc_cli_human_w(buf, n, bytes, 0, 0);
}

/* A number with an optional K, M or G suffix (then optionally B or iB). */
static int parse_number(const char **ps, unsigned long long *out)
{
    const char *s = *ps;
    if (*s < '0' || *s > '9') return -1;
    unsigned long long v = 0;
    while (*s >= '0' && *s <= '9') {
        if (v > (1ULL << 50)) return -1;
        v = v * 10 + (unsigned)(*s++ - '0');
    }
    unsigned shift = 0;
    if (*s == 'K' || *s == 'k') shift = 10;
    else if (*s == 'M' || *s == 'm') shift = 20;
    else if (*s == 'G' || *s == 'g') shift = 30;
    if (shift) {
        s++;
        if (*s == 'i') s++;
        if (*s == 'B') s++;
        if (v > (1ULL << 40)) return -1;
        v <<= shift;
    }
    *ps = s;
    *out = v;
    return 0;
}

/* The whole of s is a number. */
static int parse_whole(const char *s, unsigned long long *out)
{
    return parse_number(&s, out) == 0 && *s == '\0' ? 0 : -1;
}

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("xcodec: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\ntry 'xcodec --help'\n", stderr);
    va_end(ap);
    return XC_EXIT_ERROR; /* zstd's status for a bad command line */
}

/* zstd's options this command does not implement, and why. */
static const struct {
    const char *name; /* the option, up to '=' when it takes a value */
    const char *why;
} g_refused[] = {
    {"--adapt", "the library has no adaptive level"},
    {"--rsyncable", "the library has no rsync-friendly mode yet"},
    {"--train-cover", "only the default trainer exists (use --train)"},
    {"--train-fastcover", "only the default trainer exists (use --train)"},
    {"--train-legacy", "only the default trainer exists (use --train)"},
    {"--zstd", "advanced parameters are not exposed by this command"},
    {"--target-compressed-block-size", "the library has no target block size"},
    {"--compress-literals", "the library chooses literal compression itself"},
    {"--no-compress-literals", "the library chooses literal compression itself"},
    {"--row-match-finder", "the library's match finders are not selectable"},
    {"--no-row-match-finder", "the library's match finders are not selectable"},
    {"--show-default-cparams", "advanced parameters are not exposed by this command"},
    {"--trace", "this command has no trace log"},
    {"--priority", "process priority is left to the system (use chrt or nice)"},
    {"--mmap-dict", "dictionaries are read into memory"},
    {"--no-mmap-dict", "dictionaries are read into memory"},
    {"--fake-stdin-is-console", "a switch of zstd's own test suite"},
    {"--fake-stdout-is-console", "a switch of zstd's own test suite"},
    {"--fake-stderr-is-console", "a switch of zstd's own test suite"},
    {"--trace-file-stat", "a switch of zstd's own test suite"},
};

static int refused(const char *arg)
{
    for (size_t i = 0; i < sizeof g_refused / sizeof g_refused[0]; i++) {
        size_t n = strlen(g_refused[i].name);
        if (strncmp(arg, g_refused[i].name, n) == 0 && (arg[n] == '\0' || arg[n] == '='))
            return bad_usage("option '%s' is not supported: %s", arg, g_refused[i].why);
    }
    if (strncmp(arg, "--format=", 9) == 0)
        return bad_usage("option '%s' is not supported: only --format=zstd is written and read",
                         arg);
    return 0;
}

struct parse_state {
    int argc, i;
    char **argv;
    int ultra;
    int level, level_given;
    int fast_accel; /* --fast=N: N */
    int last_level_given;
};

/* The value of a long option that names a file: "--opt=VALUE" or
 * "--opt VALUE".  NULL when arg is not that option; *missing set when it is
 * but the value is missing. */
static const char *file_value(struct parse_state *ps, const char *arg, const char *name,
                              int *missing)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != '\0') return NULL;
    if (ps->i + 1 >= ps->argc) {
        *missing = 1;
        return NULL;
    }
    return ps->argv[++ps->i];
}

/* "--name=NUMBER" or "--name NUMBER": 1 and *v set, 0 when arg is not it,
 * -1 for a bad or missing number. */
static struct parse_state *g_ps;
static int number_value(const char *arg, const char *name, unsigned long long *v)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '=') return parse_whole(arg + n + 1, v) ? -1 : 1;
    if (arg[n] != '\0' || strcmp(name, "--fast") == 0 || strcmp(name, "--long") == 0) return 0;
    if (g_ps->i + 1 >= g_ps->argc) return -1;
    return parse_whole(g_ps->argv[++g_ps->i], v) ? -1 : 1;
}

static int add_filelist(struct xc_cli_opts *o, const char *path)
{
    const char **nl = realloc(o->filelists, (o->nfilelists + 1) * sizeof *nl);
    if (!nl) {
        xc_cli_msg(1, "out of memory");
        return XC_EXIT_ERROR;
    }
    o->filelists = nl;
    o->filelists[o->nfilelists++] = path;
    return 0;
}

/* A long option: 0 when handled, a letter for an alias of a short option,
 * -1 when unknown, or XC_EXIT_ERROR + 1000 after a message. */
#define LONG_FAILED 1000
static int parse_long(struct parse_state *ps, const char *arg, struct xc_cli_opts *o)
{
    g_ps = ps;
    static const struct {
        const char *name;
        char letter;
    } aliases[] = {
        {"--decompress", 'd'}, {"--uncompress", 'd'}, {"--compress", 'z'}, {"--stdout", 'c'},
        {"--force", 'f'},      {"--keep", 'k'},       {"--test", 't'},     {"--list", 'l'},
        {"--verbose", 'v'},    {"--quiet", 'q'},      {"--help", 'H'},     {"--version", 'V'},
    };
    static const struct {
        const char *name;
        size_t offset;
        int value;
    } flags[] = {
        {"--rm", offsetof(struct xc_cli_opts, remove_source), 1},
        {"--check", offsetof(struct xc_cli_opts, checksum), 1},
        {"--no-check", offsetof(struct xc_cli_opts, checksum), 0},
        {"--content-size", offsetof(struct xc_cli_opts, content_size), 1},
        {"--no-content-size", offsetof(struct xc_cli_opts, content_size), 0},
        {"--no-dictID", offsetof(struct xc_cli_opts, write_dict_id), 0},
        {"--sparse", offsetof(struct xc_cli_opts, sparse), 1},
        {"--no-sparse", offsetof(struct xc_cli_opts, sparse), 0},
        {"--exclude-compressed", offsetof(struct xc_cli_opts, exclude_compressed), 1},
        {"--progress", offsetof(struct xc_cli_opts, progress), 1},
        {"--no-progress", offsetof(struct xc_cli_opts, progress), 0},
        {"--pass-through", offsetof(struct xc_cli_opts, pass_through), 1},
        {"--no-pass-through", offsetof(struct xc_cli_opts, pass_through), 0},
        {"--single-thread", offsetof(struct xc_cli_opts, threads), 1},
        {"--job-frames", offsetof(struct xc_cli_opts, job_frames), 1},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(arg, aliases[i].name) == 0) return aliases[i].letter;
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(arg, flags[i].name) == 0) {
            *(int *)((char *)o + flags[i].offset) = flags[i].value;
            return 0;
        }
    if (strcmp(arg, "--ultra") == 0) {
        ps->ultra = 1;
        return 0;
    }
    if (strcmp(arg, "--train") == 0) {
        o->mode = XC_MODE_TRAIN;
        return 0;
    }
    /* Options that change nothing in what is written or read. */
    if (strcmp(arg, "--asyncio") == 0 || strcmp(arg, "--no-asyncio") == 0 ||
        strcmp(arg, "--format=zstd") == 0)
        return 0;
    /* What -T0 counts; as in zstd, any word but "logical" means physical. */
    if (strcmp(arg, "--auto-threads=physical") == 0 || strcmp(arg, "--auto-threads=logical") == 0) {
        o->auto_logical = arg[15] == 'l';
        return 0;
    }
    if (strcmp(arg, "--auto-threads") == 0 && ps->i + 1 < ps->argc) {
        o->auto_logical = strcmp(ps->argv[++ps->i], "logical") == 0;
        return 0;
    }
    if (refused(arg)) return LONG_FAILED + XC_EXIT_ERROR;

    unsigned long long v;
    int r;
    if (strcmp(arg, "--fast") == 0) {
        ps->level = -1;
        ps->level_given = 1;
        return 0;
    }
    if ((r = number_value(arg, "--fast", &v)) != 0) {
        if (r < 0 || v == 0) {
            bad_usage("--fast=# takes 1 to 131072: '%s'", arg);
            return LONG_FAILED + XC_EXIT_ERROR;
        }
        if (v > 131072) v = 131072; /* zstd's fastest */
        ps->level = -(int)v;
        ps->level_given = 1;
        return 0;
    }
    if (strcmp(arg, "--seekable") == 0) {
        o->seekable_frame = XC_ZSTD_SEEKABLE_FRAME_SIZE_DEFAULT;
        return 0;
    }
    if (strncmp(arg, "--seekable=", 11) == 0) {
        if (parse_whole(arg + 11, &v) || v == 0 || v > XC_ZSTD_SEEKABLE_FRAME_SIZE_MAX) {
            bad_usage("--seekable=# takes a frame size of 1 to 1 GiB: '%s'", arg);
            return LONG_FAILED + XC_EXIT_ERROR;
        }
        o->seekable_frame = (unsigned)v;
        return 0;
    }
    if (strncmp(arg, "--range=", 8) == 0) {
        const char *q = arg + 8;
        if (parse_number(&q, &o->range_off) || *q++ != ':' || parse_whole(q, &o->range_len)) {
            bad_usage("--range= takes OFFSET:LENGTH: '%s'", arg);
            return LONG_FAILED + XC_EXIT_ERROR;
        }
        o->range_given = 1;
        return 0;
    }
    if (strcmp(arg, "--long") == 0) {
        o->long_log = 27;
        return 0;
    }
    if ((r = number_value(arg, "--long", &v)) != 0) {
        if (r < 0 || v < XC_ZSTD_WINDOW_LOG_MIN || v > XC_ZSTD_WINDOW_LOG_MAX) {
            bad_usage("--long=# takes a window log of %d to %d: '%s'", XC_ZSTD_WINDOW_LOG_MIN,
                      XC_ZSTD_WINDOW_LOG_MAX, arg);
            return LONG_FAILED + XC_EXIT_ERROR;
        }
        o->long_log = (int)v;
        return 0;
    }
    static const struct {
        const char *name;
        size_t offset;
    } numbers[] = {
        {"--memory", offsetof(struct xc_cli_opts, memory_limit)},
        {"--memlimit", offsetof(struct xc_cli_opts, memory_limit)},
        {"--memlimit-decompress", offsetof(struct xc_cli_opts, memory_limit)},
        {"--size-hint", offsetof(struct xc_cli_opts, size_hint)},
        {"--stream-size", offsetof(struct xc_cli_opts, stream_size)},
        {"--block-size", offsetof(struct xc_cli_opts, block_size)},
    };
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        if ((r = number_value(arg, numbers[i].name, &v)) == 0) continue;
        if (r < 0) {
            bad_usage("bad number in '%s'", arg);
            return LONG_FAILED + XC_EXIT_ERROR;
        }
        *(unsigned long long *)((char *)o + numbers[i].offset) = v;
        return 0;
    }
    if ((r = number_value(arg, "--threads", &v)) != 0) {
        if (r < 0 || v > 256) {
            bad_usage("--threads=# takes 0 to 256: '%s'", arg);
            return LONG_FAILED + XC_EXIT_ERROR;
        }
        o->threads = (int)v;
        return 0;
    }
    if ((r = number_value(arg, "--maxdict", &v)) != 0) {
        if (r < 0 || v > ((size_t)-1 >> 1)) {
            bad_usage("bad size in '%s'", arg);
            return LONG_FAILED + XC_EXIT_ERROR;
        }
        o->maxdict = (size_t)v;
        return 0;
    }
    if ((r = number_value(arg, "--dictID", &v)) != 0) {
        if (r < 0 || v > 0xFFFFFFFFULL) {
            bad_usage("--dictID=# takes 0 to 4294967295: '%s'", arg);
            return LONG_FAILED + XC_EXIT_ERROR;
        }
        o->train_dict_id = (long long)v;
        return 0;
    }

    int missing = 0;
    const char *value;
    if ((value = file_value(ps, arg, "--filelist", &missing)))
        return add_filelist(o, value) ? LONG_FAILED + XC_EXIT_ERROR : 0;
    if ((value = file_value(ps, arg, "--output-dir-flat", &missing))) {
        o->out_dir_flat = value;
        return 0;
    }
    if ((value = file_value(ps, arg, "--output-dir-mirror", &missing))) {
        o->out_dir_mirror = value;
        return 0;
    }
    if ((value = file_value(ps, arg, "--patch-from", &missing))) {
        o->patch_from = value;
        return 0;
    }
    if (missing) {
        bad_usage("'%s' needs a value", arg);
        return LONG_FAILED + XC_EXIT_ERROR;
    }
    return -1;
}

/* zstd reads its default level and thread count from the environment. */
static void environment_defaults(struct parse_state *ps, struct xc_cli_opts *o)
{
    const char *e = getenv("ZSTD_CLEVEL");
    unsigned long long v;
    if (e && *e) {
        int neg = *e == '-';
        if (parse_whole(e + neg, &v) == 0 && v <= 22) {
            ps->level = neg ? -(int)v : (int)v;
            ps->level_given = 1;
        } else {
            xc_cli_msg(2, "Ignore environment variable setting ZSTD_CLEVEL=%s: not a valid "
                          "integer value",
                       e);
        }
    }
    e = getenv("ZSTD_NBTHREADS");
    if (e && *e) {
        if (parse_whole(e, &v) == 0 && v <= 256) o->threads = (int)v;
        else
            xc_cli_msg(2, "Ignore environment variable setting ZSTD_NBTHREADS=%s: not a valid "
                          "unsigned value",
                       e);
    }
}

static void print_version(void)
{
    printf("xcodec %s, zstd-compatible command\n", xc_version_string());
}

int xc_cli_parse(int argc, char **argv, enum xc_cli_persona persona, struct xc_cli_opts *o)
{
    struct parse_state ps = {.argc = argc, .argv = argv};
    int options_done = 0;
    memset(o, 0, sizeof *o);
    o->mode = XC_MODE_COMPRESS;
    o->checksum = -1;
    o->content_size = 1;
    o->write_dict_id = 1;
    o->maxdict = 112640;
    o->train_dict_id = -1;
    o->threads = 1;
    o->sparse = -1;
    o->progress = -1;
    o->pass_through = -1;
    o->bench_seconds = 3;
    o->files = argv; /* Operands are gathered in place, at the front of argv. */
    environment_defaults(&ps, o);
    switch (persona) {
    case XC_AS_XCODEC: break;
    case XC_AS_UNZSTD: o->mode = XC_MODE_DECOMPRESS; break;
    case XC_AS_ZSTDCAT:
        o->mode = XC_MODE_DECOMPRESS;
        o->to_stdout = 1;
        o->force = 1;
        o->follow_links = 1;
        o->pass_through = 1;
        xc_cli_verbosity = 1;
        break;
    case XC_AS_ZSTDMT: o->threads = 0; break;
    }

    for (ps.i = 0; ps.i < argc; ps.i++) {
        const char *arg = argv[ps.i];
        if (options_done || arg[0] != '-' || arg[1] == '\0') {
            o->files[o->nfiles++] = argv[ps.i];
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        const char *p = arg + 1;
        int letter = 0;
        if (arg[1] == '-') {
            letter = parse_long(&ps, arg, o);
            if (letter >= LONG_FAILED) return letter - LONG_FAILED;
            if (letter < 0) return bad_usage("unknown option '%s'", arg);
            if (letter == 0) continue;
            p = NULL;
        }
        /* One pass over a cluster of short options (or one aliased long one). */
        for (;;) {
            if (p) {
                if (*p == '\0') break;
                if (*p >= '0' && *p <= '9') {
                    unsigned long long v;
                    if (parse_number(&p, &v) || v > 1000000)
                        return bad_usage("bad level in '%s'", arg);
                    ps.level = (int)v;
                    ps.level_given = 1;
                    continue;
                }
                letter = *p++;
            }
            unsigned long long v = 0;
            switch (letter) {
            case 'd': if (o->mode != XC_MODE_BENCH) o->mode = XC_MODE_DECOMPRESS; break;
            case 'z': o->mode = XC_MODE_COMPRESS; break;
            case 't': o->mode = XC_MODE_TEST; break;
            case 'l': o->mode = XC_MODE_LIST; break;
            case 'c': o->to_stdout = 1; o->out_path = NULL; break;
            case 'f': o->force = 1; o->follow_links = 1; break;
            case 'k': o->remove_source = 0; break;
            case 'r': o->recursive = 1; break;
            case 'v': xc_cli_verbosity++; break;
            case 'q': xc_cli_verbosity--; break;
            case 'C': o->checksum = 1; break;
            case 'S': o->bench_separate = 1; break;
            case 'n': break; /* gzip's "no name": zstd stores none either */
            case 's': case 'p': case 'P': {
                static const char *const why[] = {
                    "-s#: only the default trainer exists (use --train)",
                    "-p: zstd's pause and benchmark parameter are not supported",
                    "-P#: the generated benchmark sample has a fixed compressibility"};
                return bad_usage("option '%s' is not supported: %s", arg,
                                 why[letter == 's' ? 0 : letter == 'p' ? 1 : 2]);
            }
            case 'h':
            case 'H': xc_cli_usage(stdout); return -1;
            case 'V': print_version(); return -1;
            case 'T': case 'B': case 'M': case 'b': case 'e': case 'i':
                /* zstd's -b and -e without digits mean level 3 and "the
                 * -b level"; the others need their digits. */
                if (!p || parse_number(&p, &v)) {
                    if (letter == 'b') v = ps.level_given ? (unsigned long long)ps.level : 3;
                    else if (letter == 'e') v = 1;
                    else return bad_usage("'-%c' needs a number, as in -%c1", letter, letter);
                }
                if (letter == 'T') {
                    if (v > 256) return bad_usage("-T# takes 0 to 256");
                    o->threads = (int)v;
                } else if (letter == 'B') {
                    o->block_size = v;
                } else if (letter == 'M') {
                    o->memory_limit = v;
                } else if (letter == 'b') {
                    o->mode = XC_MODE_BENCH;
                    if (v > 22) return bad_usage("-b# takes a level up to 22");
                    ps.level = (int)v;
                    ps.level_given = 1;
                } else if (letter == 'e') {
                    if (v > 22) return bad_usage("-e# takes a level up to 22");
                    o->bench_last_level = (int)v;
                    ps.last_level_given = 1;
                } else {
                    if (v > 10000) return bad_usage("-i# takes seconds up to 10000");
                    o->bench_seconds = (int)v;
                }
                break;
            case 'o':
            case 'D': {
                const char *value = p && *p ? p : (ps.i + 1 < argc ? argv[++ps.i] : NULL);
                if (!value) return bad_usage("'-%c' needs a file name", letter);
                if (letter == 'o') {
                    o->out_path = value;
                    o->to_stdout = 0;
                } else {
                    o->dict_path = value;
                }
                p = NULL;
                break;
            }
            default: return bad_usage("unknown option '-%c'", letter);
            }
            if (!p) break;
        }
    }

    int level = ps.level_given ? ps.level : xc_zstd_default_level();
    int max = ps.ultra ? xc_zstd_max_level() : 19;
    if (level > max) {
        xc_cli_msg(2, "Warning : compression level higher than max, reduced to %d", max);
        level = max;
    }
    if (level == 0) level = xc_zstd_default_level(); /* zstd: -0 is the default */
    o->level = level;
    if (o->mode == XC_MODE_BENCH) {
        if (!ps.last_level_given || o->bench_last_level < level) o->bench_last_level = level;
        if (o->bench_last_level > max) o->bench_last_level = max;
    }
    if (o->maxdict < XC_ZSTD_TRAIN_MIN_DICT)
        return bad_usage("--maxdict: a dictionary needs at least %d bytes", XC_ZSTD_TRAIN_MIN_DICT);
    if ((o->out_dir_flat && !*o->out_dir_flat) || (o->out_dir_mirror && !*o->out_dir_mirror))
        return bad_usage("error: output dir cannot be empty string (did you mean to pass '.' "
                         "instead?)");
    if (o->dict_path && o->patch_from)
        return bad_usage("error : can't use -D and --patch-from=# at the same time");
    if (o->mode == XC_MODE_DECOMPRESS && o->threads > 1)
        xc_cli_msg(2, "Warning : decompression does not support multi-threading");
    if (o->out_dir_flat && o->out_dir_mirror)
        return bad_usage("--output-dir-flat and --output-dir-mirror exclude each other");
    if (xc_cli_verbosity < 0) xc_cli_verbosity = 0;
    return 0;
}
