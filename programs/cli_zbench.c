/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xcodec -b#`: the benchmark mode of zstd's command, for the scripts that
 * read its lines.  The files (together, or one by one with -S; generated
 * text without files) are cut into blocks of -B# bytes (one block without
 * it), each block compressed and decompressed on its own at every level
 * from -b# to -e#, each for at least -i# seconds (one pass with -i0), the
 * fastest pass kept, and the round trip checked.  A level's result is the
 * line zstd prints, in the same columns, on standard output: speeds in
 * MB/s of the uncompressed size (10^6 bytes), "-q" zstd's terse line.
 * This is not `xcodec bench`, which compares libraries.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Text of words drawn from a small vocabulary: about as compressible as
 * zstd's generated sample (ratio 2 to 4 at the usual levels). */
static unsigned char *synthetic(size_t n)
{
    static const char *const words[] = {"the ", "quick ", "brown ", "fox ", "jumps ", "over ",
                                        "lazy ", "dog ", "and ", "of ", "a ", "zstd ",
                                        "frame ", "block ", "window ", "match ", "\n"};
    unsigned char *p = malloc(n);
    if (!p) return NULL;
    unsigned long long x = 0x9E3779B97F4A7C15ULL;
    size_t i = 0;
    while (i < n) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if ((x >> 60) == 0) { /* a few random bytes, so it is not all words */
            p[i++] = (unsigned char)(x >> 8);
            continue;
        }
        const char *w = words[(x >> 32) % (sizeof words / sizeof words[0])];
        for (; *w && i < n; w++) p[i++] = (unsigned char)*w;
    }
    return p;
}

struct blocks {
    const unsigned char *src;
    size_t size, block, count;
    unsigned char *comp, *back;
    size_t *comp_size, comp_cap; /* each block's frame at comp + i * comp_cap */
};

/* One pass of compression (dir 0) or decompression (1) over every block;
 * 0 or -1 after printing why. */
static int one_pass(struct blocks *b, xc_zstd_cctx *cctx, xc_zstd_dctx *dctx, int dir)
{
    for (size_t i = 0; i < b->count; i++) {
        size_t off = i * b->block, n = b->size - off < b->block ? b->size - off : b->block;
        unsigned char *frame = b->comp + i * b->comp_cap;
        size_t r = dir == 0 ? xc_zstd_compress_cctx(cctx, frame, b->comp_cap, b->src + off, n)
                            : xc_zstd_decompress_dctx(dctx, b->back + off, n, frame,
                                                      b->comp_size[i]);
        if (xc_is_error(r)) {
            xc_cli_msg(1, "benchmark: %s failed: %s", dir ? "decompression" : "compression",
                       xc_error_name(r));
            return -1;
        }
        if (dir == 0) b->comp_size[i] = r;
    }
    return 0;
}

/* The fastest of the passes made in `seconds` (at least one). */
static double timed(struct blocks *b, xc_zstd_cctx *cctx, xc_zstd_dctx *dctx, int dir,
                    int seconds)
{
    double best = 1e30, start = now_s();
    do {
        double t0 = now_s();
        if (one_pass(b, cctx, dctx, dir)) return -1;
        double t = now_s() - t0;
        if (t < best) best = t;
    } while (now_s() - start < seconds);
    return best > 1e-9 ? best : 1e-9;
}

static int bench_one(const struct xc_cli_opts *o, const unsigned char *src, size_t size,
                     const char *name)
{
    struct blocks b = {src, size, o->block_size ? (size_t)o->block_size : size, 0, NULL, NULL,
                       NULL, 0};
    if (b.block == 0) b.block = 1;
    b.count = size ? (size + b.block - 1) / b.block : 1;
    b.comp_cap = xc_zstd_compress_bound(b.block < size ? b.block : size);
    b.comp = malloc(b.count * b.comp_cap);
    b.back = malloc(size ? size : 1);
    b.comp_size = calloc(b.count, sizeof *b.comp_size);
    xc_zstd_cctx *cctx = xc_zstd_cctx_new();
    xc_zstd_dctx *dctx = xc_zstd_dctx_new();
    int rc = XC_EXIT_ERROR;
    if (!b.comp || !b.back || !b.comp_size || !cctx || !dctx) {
        xc_cli_msg(1, "benchmark: out of memory");
        goto done;
    }
    if (xc_cli_verbosity == 1)
        printf("bench %s : input %zu bytes, %d seconds, %u KB blocks\n", xc_version_string(),
               size, o->bench_seconds, (unsigned)(o->block_size >> 10));
    for (int level = o->level; level <= o->bench_last_level; level++) {
        int lv = level < xc_zstd_min_level() ? xc_zstd_min_level() : level;
        if (xc_is_error(xc_zstd_cctx_set(cctx, XC_ZSTD_C_LEVEL, lv)) ||
            xc_is_error(xc_zstd_cctx_set(cctx, XC_ZSTD_C_CHECKSUM, o->checksum)) ||
            (level < lv && xc_is_error(xc_zstd_cctx_set(cctx, XC_ZSTD_C_TARGET_LENGTH, -level))) ||
            xc_cli_apply_threads(cctx, o->threads, o->auto_logical)) {
            xc_cli_msg(1, "benchmark: level %d cannot be set", level);
            goto done;
        }
        double tc = timed(&b, cctx, dctx, 0, o->bench_seconds);
        double td = tc < 0 ? -1 : timed(&b, cctx, dctx, 1, o->bench_seconds);
        if (td < 0) goto done;
        if (size && memcmp(b.back, src, size) != 0) {
            xc_cli_msg(1, "benchmark: %s: the round trip at level %d differs", name, level);
            goto done;
        }
        unsigned long long csize = 0;
        for (size_t i = 0; i < b.count; i++) csize += b.comp_size[i];
        double ratio = csize ? (double)size / (double)csize : 0.0;
        double cs = (double)size / tc / 1e6, ds = (double)size / td / 1e6;
        if (xc_cli_verbosity == 1)
            printf("-%-3d%11llu (%5.3f) %6.2f MB/s %6.1f MB/s  %s\n", level, csize, ratio, cs, ds,
                   name);
        else if (xc_cli_verbosity >= 2)
            /* zstd's line: drawn after a spinner mark, then the level
             * written over the mark, which leaves " 3#name : ..." on a
             * terminal. */
            printf("%2s-%-17.17s :%10zu ->%10llu (x%5.*f), %6.*f MB/s, %6.1f MB/s\r%2d#\n", " |",
                   name, size, csize, ratio < 10 ? 3 : 2, ratio, cs < 10 ? 2 : 1, cs, ds, level);
        fflush(stdout);
    }
    rc = XC_EXIT_OK;
done:
    xc_zstd_cctx_free(cctx);
    xc_zstd_dctx_free(dctx);
    free(b.comp);
    free(b.back);
    free(b.comp_size);
    return rc;
}

int xc_cli_zbench(const struct xc_cli_opts *o)
{
    if (o->nfiles == 0) {
        size_t n = 10000000;
        unsigned char *p = synthetic(n);
        if (!p) {
            xc_cli_msg(1, "benchmark: out of memory");
            return XC_EXIT_ERROR;
        }
        int rc = bench_one(o, p, n, "Synthetic text");
        free(p);
        return rc;
    }
    if (o->bench_separate || o->nfiles == 1) {
        int rc = XC_EXIT_OK;
        for (size_t i = 0; i < o->nfiles; i++) {
            size_t n = 0;
            unsigned char *p = xc_cli_read_file(o->files[i], (size_t)-1 >> 1, &n);
            if (!p) return XC_EXIT_ERROR;
            const char *base = strrchr(o->files[i], '/');
            if (bench_one(o, p, n, base ? base + 1 : o->files[i])) rc = XC_EXIT_ERROR;
            free(p);
        }
        return rc;
    }
    /* All files as one sample, as zstd does without -S. */
    unsigned char *all = NULL;
    size_t total = 0;
    for (size_t i = 0; i < o->nfiles; i++) {
        size_t n = 0;
        unsigned char *p = xc_cli_read_file(o->files[i], (size_t)-1 >> 1, &n);
        unsigned char *na = p ? realloc(all, total + n + 1) : NULL;
        if (!na) {
            if (p) xc_cli_msg(1, "benchmark: out of memory");
            free(p);
            free(all);
            return XC_EXIT_ERROR;
        }
        all = na;
        memcpy(all + total, p, n);
        total += n;
        free(p);
    }
    char name[32];
    snprintf(name, sizeof name, "%zu files", o->nfiles);
    int rc = bench_one(o, all, total, name);
    free(all);
    return rc;
}
