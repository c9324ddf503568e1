/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xcodec bench [--json] [--quick] [FILE...]`: the main job.  xcodec beside
 * its peers in one run, on the files given or on the built-in corpus: zstd
 * level by level against libzstd (ratio, compression and decompression
 * speed, and the speed ratios), then the checksums (bench_sums.c).
 *
 * Each engine compresses with its own defaults at the level (content size
 * in the header, no checksum).  Both decoders decode the same frames,
 * libzstd's, so that the decoders are compared on equal work; xcodec's own
 * frames are checked once in both decoders before anything is timed.
 *
 * Timing: each measurement repeats the operation for a while per round,
 * takes the best of several rounds, and alternates the two engines round by
 * round, so that a noisy neighbour slows both alike: read the ratios more
 * than the absolute figures.  The default run stays within about a minute
 * on two cores; --quick takes a few seconds more than a quarter of it.
 *
 * Levels: the default set (-1, 1, 3, 9, 19) keeps that minute; `--levels
 * full` or a list such as `--levels 5,6,19` selects others.  The ultra
 * levels (20 to 22) run only on inputs of at most XC_ULTRA_MAX_BYTES: both
 * libraries compress 1 to 2 MB/s there, so an input of several megabytes
 * would take a minute per level, and issue 7 asks for them on the smaller
 * files only.  The memory each encoder context needs at each level
 * (xc_zstd_estimate_cctx_size() beside ZSTD_estimateCCtxSize(), both for an
 * input of unknown size) comes first.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "corpus.h"
#include "xcodec.h"

#ifdef XC_HAVE_LIBZSTD
/* ZSTD_estimateCCtxSize() is in the "static linking only" part of zstd.h,
 * though the shared library exports it. */
#  define ZSTD_STATIC_LINKING_ONLY
#  include <zstd.h>
#endif

static const int g_default_levels[] = {-1, 1, 3, 9, 19};
/* What the benchmark report (bench/report) runs: the levels of both
 * encoder issues, each strategy of libzstd's table at least once. */
static const int g_full_levels[] = {-5, -1, 1, 3, 5, 6, 7, 9, 12, 13, 15, 16, 18, 19, 22};
#define XC_MAX_LEVELS 64
#define XC_ULTRA_MAX_BYTES ((size_t)1 << 20)

/* A speed only compares like for like when the output is about as small:
 * rows where xcodec's frame is more than this much larger are flagged. */
#define XC_RATIO_GAP 1.03
static int g_flagged;

struct zctx {
    const uint8_t *src;
    size_t n;
    uint8_t *dst;    /* room for a compressed frame */
    size_t dst_cap;
    uint8_t *frame;  /* the frame both decoders decode */
    size_t frame_size;
    uint8_t *out;    /* room for n + 1 decoded bytes */
    int level;
    xc_zstd_cctx *xc;
    xc_zstd_dctx *xd;
#ifdef XC_HAVE_LIBZSTD
    ZSTD_CCtx *zc;
    ZSTD_DCtx *zd;
#endif
};

static int op_comp_xc(void *p)
{
    struct zctx *c = p;
    return xc_is_error(xc_zstd_compress_cctx(c->xc, c->dst, c->dst_cap, c->src, c->n));
}

static int op_dec_xc(void *p)
{
    struct zctx *c = p;
    return xc_zstd_decompress_dctx(c->xd, c->out, c->n + 1, c->frame, c->frame_size) != c->n;
}

#ifdef XC_HAVE_LIBZSTD
static int op_comp_zstd(void *p)
{
    struct zctx *c = p;
    return ZSTD_isError(ZSTD_compressCCtx(c->zc, c->dst, c->dst_cap, c->src, c->n, c->level));
}

static int op_dec_zstd(void *p)
{
    struct zctx *c = p;
    return ZSTD_decompressDCtx(c->zd, c->out, c->n + 1, c->frame, c->frame_size) != c->n;
}
#endif

struct zrow {
    size_t xc_size, zs_size;
    double xc_comp, zs_comp, xc_dec, zs_dec; /* seconds per call; 0 when not run */
    const char *error;
};

/* Compresses once with each engine and checks every frame in every decoder
 * available; fills sizes, leaves c->frame at the frame to time. */
static const char *check_level(struct zctx *c, uint8_t *xframe, struct zrow *row)
{
    size_t r = xc_zstd_compress_cctx(c->xc, xframe, c->dst_cap, c->src, c->n);
    if (xc_is_error(r)) return xc_error_name(r);
    row->xc_size = r;
    r = xc_zstd_decompress_dctx(c->xd, c->out, c->n + 1, xframe, row->xc_size);
    if (r != c->n || memcmp(c->out, c->src, c->n) != 0)
        return "xcodec cannot decode its own frame";
    c->frame = xframe;
    c->frame_size = row->xc_size;
#ifdef XC_HAVE_LIBZSTD
    r = ZSTD_decompressDCtx(c->zd, c->out, c->n + 1, xframe, row->xc_size);
    if (r != c->n || memcmp(c->out, c->src, c->n) != 0) return "libzstd cannot decode xcodec's frame";
    r = ZSTD_compressCCtx(c->zc, c->dst, c->dst_cap, c->src, c->n, c->level);
    if (ZSTD_isError(r)) return "libzstd failed to compress";
    row->zs_size = r;
    r = xc_zstd_decompress_dctx(c->xd, c->out, c->n + 1, c->dst, row->zs_size);
    if (r != c->n || memcmp(c->out, c->src, c->n) != 0)
        return xc_is_error(r) ? xc_error_name(r) : "xcodec decodes libzstd's frame wrongly";
    c->frame = c->dst;
    c->frame_size = row->zs_size;
#endif
    return NULL;
}

static void print_row(const struct xc_bench_cfg *cfg, const struct xc_sample *s, int level,
                      const struct zrow *row, int first)
{
    double mb = (double)s->size * 1e-6;
    if (cfg->json) {
        printf("%s    {\"input\": ", first ? "" : ",\n");
        xc_json_string(stdout, s->name);
        printf(", \"bytes\": %zu, \"level\": %d, ", s->size, level);
        if (row->error) {
            printf("\"error\": ");
            xc_json_string(stdout, row->error);
            printf("}");
            return;
        }
        printf("\"xcodec\": {\"compressed\": %zu, \"ratio\": %.4f, \"compress_mbps\": %.2f, "
               "\"decompress_mbps\": %.2f}, ",
               row->xc_size, (double)s->size / (double)row->xc_size, mb / row->xc_comp,
               mb / row->xc_dec);
        if (row->zs_size)
            printf("\"libzstd\": {\"compressed\": %zu, \"ratio\": %.4f, \"compress_mbps\": %.2f, "
                   "\"decompress_mbps\": %.2f}, \"compress_speedup\": %.3f, "
                   "\"decompress_speedup\": %.3f, \"error\": null}",
                   row->zs_size, (double)s->size / (double)row->zs_size, mb / row->zs_comp,
                   mb / row->zs_dec, row->zs_comp / row->xc_comp, row->zs_dec / row->xc_dec);
        else
            printf("\"libzstd\": null, \"error\": null}");
        return;
    }
    if (row->error) {
        printf("%-10s %5d  FAILED: %s\n", s->name, level, row->error);
        return;
    }
    if (row->zs_size) {
        int flag = (double)row->xc_size > (double)row->zs_size * XC_RATIO_GAP;
        g_flagged |= flag;
        printf("%-10s %5d %7.3f %7.3f %9.1f %9.1f %7.2fx%s %9.1f %9.1f %7.2fx\n", s->name, level,
               (double)s->size / (double)row->xc_size, (double)s->size / (double)row->zs_size,
               mb / row->xc_comp, mb / row->zs_comp, row->zs_comp / row->xc_comp,
               flag ? "*" : " ", mb / row->xc_dec, mb / row->zs_dec, row->zs_dec / row->xc_dec);
    } else
        printf("%-10s %5d %7.3f %7s %9.1f %9s %8s  %9.1f %9s %8s\n", s->name, level,
               (double)s->size / (double)row->xc_size, "n/a", mb / row->xc_comp, "n/a", "",
               mb / row->xc_dec, "n/a", "");
    fflush(stdout);
}

static int bench_zstd(const struct xc_bench_cfg *cfg, const struct xc_sample *samples,
                      size_t count, const int *levels, size_t nlevels)
{
    int ok = 1, first = 1;
    struct zctx c;
    memset(&c, 0, sizeof c);
    c.xc = xc_zstd_cctx_new();
    c.xd = xc_zstd_dctx_new();
    int have = c.xc && c.xd;
#ifdef XC_HAVE_LIBZSTD
    c.zc = ZSTD_createCCtx();
    c.zd = ZSTD_createDCtx();
    have = have && c.zc && c.zd;
#endif
    if (cfg->json) {
        printf("  \"zstd\": [\n");
    } else {
        printf("\nzstd: ratio, then MB/s of uncompressed data; speedup = xcodec speed / libzstd "
               "speed\n(decompression: both decode libzstd's frames)\n");
        printf("%-10s %5s %15s %29s %30s\n", "", "", "ratio", "compress MB/s", "decompress MB/s");
        printf("%-10s %5s %7s %7s %9s %9s %8s  %9s %9s %8s\n", "input", "level", "xcodec",
               "libzstd", "xcodec", "libzstd", "speedup", "xcodec", "libzstd", "speedup");
    }
    for (size_t f = 0; f < count && have; f++) {
        const struct xc_sample *s = &samples[f];
        size_t bound = xc_zstd_compress_bound(s->size);
        c.src = s->data;
        c.n = s->size;
        c.dst_cap = xc_is_error(bound) ? 0 : bound;
#ifdef XC_HAVE_LIBZSTD
        if (ZSTD_compressBound(s->size) > c.dst_cap) c.dst_cap = ZSTD_compressBound(s->size);
#endif
        c.dst = malloc(c.dst_cap ? c.dst_cap : 1);
        uint8_t *xframe = malloc(c.dst_cap ? c.dst_cap : 1);
        c.out = malloc(s->size + 1);
        if (!c.dst || !xframe || !c.out || !c.dst_cap) {
            have = 0;
        } else {
            for (size_t l = 0; l < nlevels; l++) {
                struct zrow row;
                memset(&row, 0, sizeof row);
                c.level = levels[l];
                if (c.level > 19 && s->size > XC_ULTRA_MAX_BYTES) continue;
                size_t r = xc_zstd_cctx_set(c.xc, XC_ZSTD_C_LEVEL, c.level);
                row.error = xc_is_error(r) ? xc_error_name(r) : check_level(&c, xframe, &row);
                if (!row.error) {
#ifdef XC_HAVE_LIBZSTD
                    xc_bench_pair(cfg, op_comp_xc, &c, op_comp_zstd, &c, &row.xc_comp, &row.zs_comp);
                    xc_bench_pair(cfg, op_dec_xc, &c, op_dec_zstd, &c, &row.xc_dec, &row.zs_dec);
#else
                    xc_bench_pair(cfg, op_comp_xc, &c, NULL, NULL, &row.xc_comp, &row.zs_comp);
                    xc_bench_pair(cfg, op_dec_xc, &c, NULL, NULL, &row.xc_dec, &row.zs_dec);
#endif
                    if (row.xc_comp < 0 || row.xc_dec < 0 || row.zs_comp < 0 || row.zs_dec < 0)
                        row.error = "an engine failed while being timed";
                }
                if (row.error) ok = 0;
                print_row(cfg, s, c.level, &row, first);
                first = 0;
            }
        }
        free(c.dst);
        free(xframe);
        free(c.out);
    }
    if (!have) {
        ok = 0;
        if (!cfg->json) printf("zstd: out of memory\n");
    }
    if (cfg->json) printf("\n  ],\n");
    else if (g_flagged)
        printf("* xcodec's output is more than %.0f%% larger than libzstd's at that level, so the "
               "two\n  compression speeds are not for the same work\n",
               (XC_RATIO_GAP - 1) * 100);
    xc_zstd_cctx_free(c.xc);
    xc_zstd_dctx_free(c.xd);
#ifdef XC_HAVE_LIBZSTD
    ZSTD_freeCCtx(c.zc);
    ZSTD_freeDCtx(c.zd);
#endif
    return ok;
}

/* The encoder context's size at each level, for an input of unknown size
 * (the largest window the level allows), as both libraries estimate it. */
static void bench_memory(const struct xc_bench_cfg *cfg, const int *levels, size_t nlevels)
{
    if (cfg->json)
        printf("  \"memory\": [\n");
    else
        printf("\nzstd: encoder context memory per level, KiB (input of unknown size)\n"
               "%5s %10s %10s %8s\n", "level", "xcodec", "libzstd", "ratio");
    for (size_t l = 0; l < nlevels; l++) {
        size_t xm = xc_zstd_estimate_cctx_size(levels[l]);
        size_t zm = 0;
#ifdef XC_HAVE_LIBZSTD
        zm = ZSTD_estimateCCtxSize(levels[l]);
        if (ZSTD_isError(zm)) zm = 0;
#endif
        if (xc_is_error(xm)) xm = 0;
        if (cfg->json) {
            printf("    {\"level\": %d, \"xcodec_bytes\": ", levels[l]);
            if (xm) printf("%zu", xm);
            else printf("null");
            printf(", \"libzstd_bytes\": ");
            if (zm) printf("%zu", zm);
            else printf("null");
            printf("}%s\n", l + 1 < nlevels ? "," : "");
        } else {
            printf("%5d %10.0f %10.0f", levels[l], (double)xm / 1024, (double)zm / 1024);
            if (xm && zm) printf(" %7.2fx", (double)xm / (double)zm);
            printf("\n");
        }
    }
    if (cfg->json) printf("  ],\n");
}

/* "full", "default", or a comma-separated list of levels, each within the
 * range xcodec accepts; returns the count, or 0 after printing why not. */
static size_t parse_levels(const char *arg, int *out)
{
    const int *set = NULL;
    size_t n = 0;
    if (strcmp(arg, "full") == 0) {
        set = g_full_levels;
        n = sizeof g_full_levels / sizeof g_full_levels[0];
    } else if (strcmp(arg, "default") == 0) {
        set = g_default_levels;
        n = sizeof g_default_levels / sizeof g_default_levels[0];
    }
    if (set) {
        memcpy(out, set, n * sizeof *out);
        return n;
    }
    const char *p = arg;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || (*end != ',' && *end != '\0') || (*end == ',' && end[1] == '\0') ||
            v < xc_zstd_min_level() || v > xc_zstd_max_level() || n == XC_MAX_LEVELS) {
            fprintf(stderr, "xcodec bench: bad --levels '%s' (full, default, or levels %d..%d "
                    "separated by commas)\n", arg, xc_zstd_min_level(), xc_zstd_max_level());
            return 0;
        }
        out[n++] = (int)v;
        p = *end ? end + 1 : end;
    }
    if (n == 0) fprintf(stderr, "xcodec bench: --levels needs at least one level\n");
    return n;
}

/* A whole file in memory, for timing; NULL after printing why. */
static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "xcodec bench: cannot open %s\n", path);
        return NULL;
    }
    size_t cap = 1 << 20, len = 0, got;
    uint8_t *d = malloc(cap);
    while (d && (got = fread(d + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *nd = realloc(d, cap *= 2);
            if (!nd) free(d);
            d = nd;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (!d || err) {
        fprintf(stderr, "xcodec bench: %s reading %s\n", d ? "read error" : "out of memory", path);
        free(d);
        return NULL;
    }
    *size = len;
    return d;
}

static void header(const struct xc_bench_cfg *cfg, int corpus)
{
    static const char *const kernels[] = {"crc32c", "inet", "zstd_decode", "zstd_encode"};
#ifdef XC_HAVE_LIBZSTD
    const char *zver = ZSTD_versionString();
#else
    const char *zver = NULL;
#endif
    if (!cfg->json) {
        if (corpus)
            printf("input: the built-in corpus (4 generated files of 1 MiB: text, json, source, "
                   "binary)\n");
        printf("xcodec %s: %s\n", xc_version_string(), xc_cpucap_describe());
        printf("kernels:");
        for (size_t i = 0; i < 4; i++) printf(" %s=%s", kernels[i], xc_impl_name(kernels[i]));
        printf("\npeer: libzstd %s\n", zver ? zver : "not found at build time");
        return;
    }
    printf("{\n  \"xcodec\": \"%s\",\n  \"cpucap\": ", xc_version_string());
    xc_json_string(stdout, xc_cpucap_describe());
    printf(",\n  \"tier\": ");
    xc_json_string(stdout, xc_cpucap_tier());
    printf(",\n  \"kernels\": {");
    for (size_t i = 0; i < 4; i++) {
        printf("%s\"%s\": ", i ? ", " : "", kernels[i]);
        xc_json_string(stdout, xc_impl_name(kernels[i]));
    }
    printf("},\n  \"libzstd\": ");
    if (zver) xc_json_string(stdout, zver);
    else printf("null");
    printf(",\n  \"input\": \"%s\",\n", corpus ? "built-in corpus" : "files");
    printf("  \"rounds\": %d,\n", cfg->rounds);
}

int xc_cli_bench(int argc, char **argv)
{
    struct xc_bench_cfg cfg = {5, 0.05, 1.5, 0, NULL, 0};
    struct xc_sample samples[64];
    int levels[XC_MAX_LEVELS];
    size_t count = 0, nlevels = sizeof g_default_levels / sizeof g_default_levels[0];
    int rc = XC_EXIT_OK;
    memcpy(levels, g_default_levels, sizeof g_default_levels);
    for (int i = 0; i < argc; i++) {
        const char *lv = NULL;
        if (strncmp(argv[i], "--levels=", 9) == 0) {
            lv = argv[i] + 9;
        } else if (strcmp(argv[i], "--levels") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "xcodec bench: --levels needs a value\n");
                rc = XC_EXIT_USAGE;
                goto done;
            }
            lv = argv[++i];
        }
        if (lv) {
            nlevels = parse_levels(lv, levels);
            if (nlevels == 0) {
                rc = XC_EXIT_USAGE;
                goto done;
            }
        } else if (strcmp(argv[i], "--quick") == 0) {
            cfg.rounds = 2;
            cfg.round_s = 0.02;
            cfg.max_pair_s = 0.5;
        } else if (strcmp(argv[i], "--json") == 0) {
            cfg.json = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: xcodec bench [--json] [--quick] [--levels full|default|L,L,...] "
                   "[FILE...]\n"
                   "xcodec beside libzstd (by default levels %d, %d, %d, %d, %d; levels above 19\n"
                   "only on inputs up to 1 MiB) and the checksums beside ISA-L and DPDK (or the plain\n"
                   "loop without DPDK), on FILEs or a built-in corpus of 4 x 1 MiB.\n",
                   g_default_levels[0], g_default_levels[1], g_default_levels[2],
                   g_default_levels[3], g_default_levels[4]);
            return XC_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "xcodec bench: unknown option '%s'\n", argv[i]);
            rc = XC_EXIT_USAGE;
            goto done;
        } else if (count == sizeof samples / sizeof samples[0]) {
            fprintf(stderr, "xcodec bench: at most %zu files\n", count);
            rc = XC_EXIT_USAGE;
            goto done;
        } else {
            size_t size;
            uint8_t *d = load(argv[i], &size);
            if (!d) {
                rc = XC_EXIT_ERROR;
                goto done;
            }
            const char *base = strrchr(argv[i], '/');
            samples[count].name = base ? base + 1 : argv[i];
            samples[count].data = d;
            samples[count].size = size;
            count++;
        }
    }
    int corpus = count == 0;
    if (corpus) {
        count = xc_default_corpus(samples, 1 << 20);
        if (count == 0) {
            fprintf(stderr, "xcodec bench: out of memory\n");
            return XC_EXIT_ERROR;
        }
    }
    header(&cfg, corpus);
    bench_memory(&cfg, levels, nlevels);
    int ok = bench_zstd(&cfg, samples, count, levels, nlevels);
    if (xc_bench_sums(&cfg) != 0) ok = 0;
    if (cfg.json) printf("  \"ok\": %s\n}\n", ok ? "true" : "false");
    if (!ok) rc = XC_EXIT_ERROR;
done:
    for (size_t i = 0; i < count; i++) free(samples[i].data);
    return rc;
}
