/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The command line of the zstd-compatible mode.  It follows zstd's own
 * conventions so that scripts can swap one for the other: short options
 * cluster ("-dcf", "-19"), a level is digits after a dash, -o and -D take
 * the next argument (or the rest of their cluster), options and files may
 * interleave, "--" ends the options and "-" is standard input.
 */
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

const char *xc_cli_human(char *buf, size_t n, unsigned long long bytes)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) {
        snprintf(buf, n, "%llu B", bytes);
        return buf;
    }
    double v = (double)bytes / 1024.0;
    size_t u = 0;
    while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, n, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

void xc_cli_usage(FILE *f)
{
    fprintf(f,
            "usage: xcodec [OPTIONS] [FILE...]      compress or decompress, like zstd\n"
            "       xcodec crc32c [FILE...]         CRC32C of each file\n"
            "       xcodec inet [FILE...]           Internet checksum (RFC 1071) of each file\n"
            "       xcodec bench [--json] [--quick] [FILE...]\n"
            "                                       xcodec beside libzstd and ISA-L, on FILEs\n"
            "                                       or a built-in corpus\n"
            "       xcodec cpucap                   CPU features, tier and kernel variants\n"
            "       xcodec --version | --help\n"
            "\n"
            "With no FILE, or when FILE is -, read standard input and write standard output.\n"
            "FILE is compressed into FILE.zst; FILE.zst (or FILE.tzst) decompresses into FILE\n"
            "(or FILE.tar).  The source is kept unless --rm is given.  A file named like a\n"
            "command is reached as ./NAME.\n"
            "\n"
            "  -#            compression level 1..19 (default 3)\n"
            "  --ultra       allow levels 20..22\n"
            "  --fast[=#]    faster levels: --fast=1 .. --fast=%d\n"
            "  -d, --decompress\n"
            "  -z, --compress (the default)\n"
            "  -t, --test    decompress and check, write nothing\n"
            "  -l, --list    print the frames of each .zst file\n"
            "  -c, --stdout  write to standard output\n"
            "  -o FILE       write to FILE (all inputs, one after another)\n"
            "  -f, --force   overwrite existing files, write compressed data to a terminal,\n"
            "                read non-regular files, copy non-zstd input through with -dc\n"
            "  -k, --keep    keep the source (the default)\n"
            "  --rm          remove the source once its output is complete\n"
            "  -D DICT       compress or decompress with a dictionary (zstd's or xcodec's)\n"
            "  --train FILE...\n"
            "                train a dictionary on the files (one sample each, at least %d)\n"
            "                and write it to -o DICT (default: dictionary)\n"
            "  --maxdict=SIZE\n"
            "                largest dictionary --train writes (default 110KiB)\n"
            "  --check       write a content checksum (the default)\n"
            "  --no-check    write no content checksum\n"
            "  --memory=SIZE largest window to accept when decompressing (default 128MiB)\n"
            "  -v, --verbose more messages; -q, --quiet fewer (-qq: none)\n"
            "  -T#           accepted for compatibility; xcodec uses one thread\n"
            "\n"
            "An output file is written under a temporary name in its directory and takes\n"
            "its name only when complete: after an error or an interrupt, nothing partial\n"
            "is left.  Exit status: 0 on success, 1 when any file failed, 2 for a command\n"
            "line error, 128+N after signal N.\n",
            -xc_zstd_min_level(), XC_ZSTD_TRAIN_MIN_SAMPLES);
}

/* SIZE: digits with an optional K, M or G suffix (KB and KiB both mean
 * 1024, as in zstd), at most 1 TiB. */
static int parse_size(const char *s, unsigned long long *size)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno) return -1;
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k') shift = 10;
    else if (*end == 'M' || *end == 'm') shift = 20;
    else if (*end == 'G' || *end == 'g') shift = 30;
    if (shift) {
        end++;
        if (strcmp(end, "B") == 0 || strcmp(end, "iB") == 0) end += strlen(end);
    }
    if (*end != '\0' || v == 0 || v > (1ULL << 40)) return -1;
    *size = v << shift;
    return 0;
}

/* --memory=SIZE, turned into the window log that holds SIZE. */
static int parse_memory(const char *s, int *window_log)
{
    unsigned long long v;
    if (parse_size(s, &v)) return -1;
    int log = XC_ZSTD_WINDOW_LOG_MIN;
    while (log < XC_ZSTD_WINDOW_LOG_MAX && (1ULL << log) < v) log++;
    *window_log = log;
    return 0;
}

/* Digits at *p as an int, advancing p; -1 when there are none or too many. */
static int parse_digits(const char **p)
{
    const char *s = *p;
    int v = 0;
    if (*s < '0' || *s > '9') return -1;
    while (*s >= '0' && *s <= '9') {
        if (v > 100000) return -1;
        v = v * 10 + (*s++ - '0');
    }
    *p = s;
    return v;
}

static int bad_usage(const char *fmt, const char *what)
{
    fputs("xcodec: ", stderr);
    fprintf(stderr, fmt, what);
    fputs("\ntry 'xcodec --help'\n", stderr);
    return XC_EXIT_USAGE;
}

/* The long options; returns -1 when arg is not one of them. */
static int parse_long(const char *arg, struct xc_cli_opts *o, int *ultra, int *level)
{
    static const struct {
        const char *name;
        char letter;
    } aliases[] = {
        {"--decompress", 'd'}, {"--uncompress", 'd'}, {"--compress", 'z'}, {"--stdout", 'c'},
        {"--force", 'f'},      {"--keep", 'k'},       {"--test", 't'},     {"--list", 'l'},
        {"--verbose", 'v'},    {"--quiet", 'q'},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(arg, aliases[i].name) == 0) return aliases[i].letter;
    if (strcmp(arg, "--rm") == 0) {
        o->remove_source = 1;
        return 0;
    }
    if (strcmp(arg, "--ultra") == 0) {
        *ultra = 1;
        return 0;
    }
    if (strcmp(arg, "--check") == 0 || strcmp(arg, "--no-check") == 0) {
        o->checksum = arg[2] == 'c';
        return 0;
    }
    if (strcmp(arg, "--fast") == 0) {
        *level = -1;
        return 0;
    }
    if (strncmp(arg, "--fast=", 7) == 0) {
        const char *p = arg + 7;
        int n = parse_digits(&p);
        if (n <= 0 || *p) return '?';
        *level = -n;
        return 0;
    }
    if (strncmp(arg, "--memory=", 9) == 0) return parse_memory(arg + 9, &o->window_log_max) ? '?' : 0;
    if (strncmp(arg, "--threads=", 10) == 0) return 0;
    if (strcmp(arg, "--train") == 0) {
        o->mode = XC_MODE_TRAIN;
        return 0;
    }
    if (strncmp(arg, "--maxdict=", 10) == 0) {
        unsigned long long v;
        if (parse_size(arg + 10, &v) || v > ((size_t)-1 >> 1)) return '?';
        o->maxdict = (size_t)v;
        return 0;
    }
    return -1;
}

int xc_cli_parse(int argc, char **argv, struct xc_cli_opts *o)
{
    int ultra = 0, level = 0, options_done = 0;
    memset(o, 0, sizeof *o);
    o->mode = XC_MODE_COMPRESS;
    o->checksum = 1;
    o->maxdict = 112640;
    o->files = argv; /* Operands are gathered in place, at the front of argv. */

    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (options_done || arg[0] != '-' || arg[1] == '\0') {
            o->files[o->nfiles++] = argv[i];
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (strcmp(arg, "--help") == 0) {
            xc_cli_usage(stdout);
            return -1;
        }
        if (strcmp(arg, "--version") == 0) {
            printf("xcodec %s\n", xc_version_string());
            return -1;
        }
        const char *p = arg + 1;
        int letter = 0;
        if (arg[1] == '-') {
            letter = parse_long(arg, o, &ultra, &level);
            if (letter < 0) return bad_usage("unknown option '%s'", arg);
            if (letter == '?') return bad_usage("bad value in '%s'", arg);
            if (letter == 0) continue;
            p = NULL;
        }
        /* One pass over a cluster of short options (or one aliased long one). */
        for (;;) {
            if (p) {
                if (*p == '\0') break;
                if (*p >= '0' && *p <= '9') {
                    level = parse_digits(&p);
                    if (level < 0) return bad_usage("bad level in '%s'", arg);
                    continue;
                }
                letter = *p++;
            }
            switch (letter) {
            case 'd': o->mode = XC_MODE_DECOMPRESS; break;
            case 'z': o->mode = XC_MODE_COMPRESS; break;
            case 't': o->mode = XC_MODE_TEST; break;
            case 'l': o->mode = XC_MODE_LIST; break;
            case 'c': o->to_stdout = 1; o->out_path = NULL; break;
            case 'f': o->force = 1; break;
            case 'k': o->remove_source = 0; break;
            case 'v': xc_cli_verbosity++; break;
            case 'q': xc_cli_verbosity--; break;
            case 'h': xc_cli_usage(stdout); return -1;
            case 'V': printf("xcodec %s\n", xc_version_string()); return -1;
            case 'T':
                while (p && *p >= '0' && *p <= '9') p++;
                break;
            case 'o':
            case 'D': {
                const char *value = p && *p ? p : (i + 1 < argc ? argv[++i] : NULL);
                if (!value) return bad_usage("'%s' needs a file name", arg);
                if (letter == 'o') {
                    o->out_path = value;
                    o->to_stdout = 0;
                } else {
                    o->dict_path = value;
                }
                p = NULL;
                break;
            }
            default: {
                char opt[3] = {'-', (char)letter, 0};
                return bad_usage("unknown option '%s'", opt);
            }
            }
            if (!p) break;
        }
    }

    int max = ultra ? xc_zstd_max_level() : 19;
    if (level > max) {
        xc_cli_msg(2, "warning: level %d is above the maximum%s; using %d", level,
                   ultra ? "" : " without --ultra", max);
        level = max;
    }
    if (level < xc_zstd_min_level()) {
        xc_cli_msg(2, "warning: --fast=%d is beyond the fastest level; using --fast=%d", -level,
                   -xc_zstd_min_level());
        level = xc_zstd_min_level();
    }
    o->level = level == 0 ? xc_zstd_default_level() : level;
    if (o->maxdict < XC_ZSTD_TRAIN_MIN_DICT) {
        char size[32];
        snprintf(size, sizeof size, "%d", XC_ZSTD_TRAIN_MIN_DICT);
        return bad_usage("--maxdict: a dictionary needs at least %s bytes", size);
    }
    if (xc_cli_verbosity < 0) xc_cli_verbosity = 0;
    return 0;
}
