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
#include <sys/stat.h>

#include "bench.h"
#include "bench_peer.h"
#include "corpus.h"
#include "corpus_gen.h"
#include "xcodec.h"

static const int g_default_levels[] = {-1, 1, 3, 9, 19};
/* What the benchmark report (bench/report) runs: the levels of both
 * encoder issues, each strategy of libzstd's table at least once. */
/* What --classes runs by default: the levels issue 15's table is read at. */
static const int g_class_levels[] = {-7, -1, 1, 3, 5, 9, 12, 19};
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
    const struct xc_zpeer *zp;
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
    return c->zp->isError(c->zp->compressCCtx(c->zc, c->dst, c->dst_cap, c->src, c->n, c->level));
}

static int op_dec_zstd(void *p)
{
    struct zctx *c = p;
    return c->zp->decompressDCtx(c->zd, c->out, c->n + 1, c->frame, c->frame_size) != c->n;
}
#endif

/* The timed operations, in xc_bench_codec()'s order. */
static const xc_bench_op zstd_ops[4] = XC_BENCH_CODEC_OPS(op_comp_xc, op_comp_zstd, op_dec_xc, op_dec_zstd);

struct zrow {
    size_t xc_size, zs_size;
    struct xc_codec_times t; /* seconds per call; 0 when not run */
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
    r = c->zp->decompressDCtx(c->zd, c->out, c->n + 1, xframe, row->xc_size);
    if (r != c->n || memcmp(c->out, c->src, c->n) != 0) return "libzstd cannot decode xcodec's frame";
    r = c->zp->compressCCtx(c->zc, c->dst, c->dst_cap, c->src, c->n, c->level);
    if (c->zp->isError(r)) return "libzstd failed to compress";
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
               row->xc_size, (double)s->size / (double)row->xc_size, mb / row->t.xc_comp,
               mb / row->t.xc_dec);
        if (row->zs_size)
            printf("\"libzstd\": {\"compressed\": %zu, \"ratio\": %.4f, \"compress_mbps\": %.2f, "
                   "\"decompress_mbps\": %.2f}, \"compress_speedup\": %.3f, "
                   "\"decompress_speedup\": %.3f, \"error\": null}",
                   row->zs_size, (double)s->size / (double)row->zs_size, mb / row->t.zs_comp,
                   mb / row->t.zs_dec, row->t.zs_comp / row->t.xc_comp, row->t.zs_dec / row->t.xc_dec);
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
               mb / row->t.xc_comp, mb / row->t.zs_comp, row->t.zs_comp / row->t.xc_comp,
               flag ? "*" : " ", mb / row->t.xc_dec, mb / row->t.zs_dec, row->t.zs_dec / row->t.xc_dec);
    } else
        printf("%-10s %5d %7.3f %7s %9.1f %9s %8s  %9.1f %9s %8s\n", s->name, level,
               (double)s->size / (double)row->xc_size, "n/a", mb / row->t.xc_comp, "n/a", "",
               mb / row->t.xc_dec, "n/a", "");
    fflush(stdout);
}

static int bench_zstd(const struct xc_bench_cfg *cfg, const struct xc_zpeer *zp,
                      const struct xc_sample *samples, size_t count, const int *levels,
                      size_t nlevels)
{
    int ok = 1, first = 1;
    struct zctx c;
    memset(&c, 0, sizeof c);
    c.xc = xc_zstd_cctx_new();
    c.xd = xc_zstd_dctx_new();
    int have = c.xc && c.xd;
#ifdef XC_HAVE_LIBZSTD
    c.zp = zp;
    c.zc = zp->createCCtx();
    c.zd = zp->createDCtx();
    have = have && c.zc && c.zd;
#else
    (void)zp;
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
        if (zp->compressBound(s->size) > c.dst_cap) c.dst_cap = zp->compressBound(s->size);
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
                    row.error = xc_bench_codec(cfg, zstd_ops, &c, &row.t);
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
    zp->freeCCtx(c.zc);
    zp->freeDCtx(c.zd);
#endif
    return ok;
}

/* The encoder context's size at each level, for an input of unknown size
 * (the largest window the level allows), as both libraries estimate it. */
static void bench_memory(const struct xc_bench_cfg *cfg, const struct xc_zpeer *zp,
                         const int *levels, size_t nlevels)
{
#ifndef XC_HAVE_LIBZSTD
    (void)zp;
#endif
    if (cfg->json)
        printf("  \"memory\": [\n");
    else
        printf("\nzstd: encoder context memory per level, KiB (input of unknown size)\n"
               "%5s %10s %10s %8s\n", "level", "xcodec", "libzstd", "ratio");
    for (size_t l = 0; l < nlevels; l++) {
        size_t xm = xc_zstd_estimate_cctx_size(levels[l]);
        size_t zm = 0;
#ifdef XC_HAVE_LIBZSTD
        zm = zp->estimateCCtxSize(levels[l]);
        if (zp->isError(zm)) zm = 0;
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

static void header(const struct xc_bench_cfg *cfg, const struct xc_zpeer *zp, int corpus)
{
    static const char *const kernels[] = {"crc32c", "inet", "zstd_decode", "zstd_encode"};
    if (!cfg->json) {
        if (corpus == 1)
            printf("input: the built-in corpus (4 generated files of 1 MiB: text, json, source, "
                   "binary)\n");
        printf("xcodec %s: %s\n", xc_version_string(), xc_cpucap_describe());
        printf("kernels:");
        for (size_t i = 0; i < 4; i++) printf(" %s=%s", kernels[i], xc_impl_name(kernels[i]));
        printf("\npeer: libzstd %s", zp->version ? zp->version : "not found at build time");
        if (zp->path) printf(" (XC_BENCH_LIBZSTD=%s)", zp->path);
        printf("\n");
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
    if (zp->version) xc_json_string(stdout, zp->version);
    else printf("null");
    printf(",\n  \"libzstd_path\": ");
    if (zp->path) xc_json_string(stdout, zp->path);
    else printf("null");
    printf(",\n  \"input\": \"%s\",\n",
           corpus == 2 ? "classes" : corpus ? "built-in corpus" : "files");
    printf("  \"rounds\": %d,\n", cfg->rounds);
}

/* A size such as 4096, 64K, 64KiB, 1M or 1MiB; 0 when it is not one. */
static size_t parse_size(const char *arg)
{
    char *end;
    unsigned long long v = strtoull(arg, &end, 10);
    if (end == arg) return 0;
    if (*end == 'K' || *end == 'k') v <<= 10, end++;
    else if (*end == 'M' || *end == 'm') v <<= 20, end++;
    if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0) end += strlen(end);
    return *end ? 0 : (size_t)v;
}

/* The classes of --classes=LIST into sel (one flag per class); 0, or -1
 * after printing why. */
static int parse_classes(const char *list, unsigned char *sel)
{
    char name[64];
    while (*list) {
        size_t n = strcspn(list, ",");
        int k = -1;
        if (n < sizeof name) {
            memcpy(name, list, n);
            name[n] = '\0';
            k = xc_corpus_class_find(name);
        }
        if (k < 0) {
            fprintf(stderr, "xcodec bench: unknown class in --classes '%s'; the classes:", list);
            for (size_t i = 0; i < xc_corpus_class_count(); i++)
                fprintf(stderr, " %s", xc_corpus_class_name(i));
            fprintf(stderr, "\n");
            return -1;
        }
        sel[k] = 1;
        list += n + (list[n] == ',');
    }
    return 0;
}

/* The record sizes of --records=LIST ("none" for none); their count, or
 * -1 after printing why. */
static long parse_records(const char *list, size_t *out, size_t cap)
{
    size_t n = 0;
    if (strcmp(list, "none") == 0) return 0;
    while (*list) {
        char item[32];
        size_t len = strcspn(list, ",");
        size_t v = 0;
        if (len < sizeof item) {
            memcpy(item, list, len);
            item[len] = '\0';
            v = parse_size(item);
        }
        if (v < XC_CORPUS_MIN_BYTES || v > ((size_t)64 << 10) || n == cap) {
            fprintf(stderr, "xcodec bench: bad --records '%s' (sizes of 64 B to 64 KiB, such as "
                    "256,4K,64K, or none)\n", list);
            return -1;
        }
        out[n++] = v;
        list += len + (list[len] == ',');
    }
    return (long)n;
}

/* The shared data folder: $XC_BENCH_DATA ("none" hides it), else the one
 * beside the project; NULL when it has no corpus/. */
static const char *shared_data(void)
{
    const char *d = getenv("XC_BENCH_DATA");
#ifdef XC_BENCH_DATA_DEFAULT
    if (!d || !*d) d = XC_BENCH_DATA_DEFAULT;
#endif
    if (!d || !*d || strcmp(d, "none") == 0) return NULL;
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/corpus", d);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? d : NULL;
}

static void usage(void)
{
    printf("usage: xcodec bench [--json] [--quick] [--rounds=N] [--levels full|default|L,L,...] "
           "[FILE...]\n"
           "       xcodec bench --classes[=C,C,...] [--size=N] [--records=R,R,...|none] "
           "[--no-dict]\n"
           "                    [--no-whole] [--json] [--quick] [--rounds=N] [--levels ...]\n"
           "xcodec beside libzstd (by default levels %d, %d, %d, %d, %d; levels above 19\n"
           "only on inputs up to 1 MiB) and the checksums beside ISA-L and DPDK (or the plain\n"
           "loop without DPDK), on FILEs or a built-in corpus of 4 x 1 MiB.\n"
           "--classes: the generated corpus by class instead (all classes, or those named:",
           g_default_levels[0], g_default_levels[1], g_default_levels[2], g_default_levels[3],
           g_default_levels[4]);
    for (size_t i = 0; i < xc_corpus_class_count(); i++) printf(" %s", xc_corpus_class_name(i));
    printf("),\n  by default at levels -7, -1, 1, 3, 5, 9, 12, 19: each class as one input of "
           "--size\n  bytes (64 B to 64 MiB; default 1 MiB, the mixed class 4 MiB), then as "
           "about 1 MiB of\n  records of each --records size (default 256,4K), one frame each "
           "with a reused\n  context, and again with a dictionary trained on other records "
           "(the same bytes\n  for both libraries); files of ../shared/data/corpus too when "
           "present\n  ($XC_BENCH_DATA, or none).  Medians of --rounds (default 5).\n"
           "XC_BENCH_LIBZSTD=/path/to/libzstd.so.1 measures that libzstd instead of the linked "
           "one.\n");
}

int xc_cli_bench(int argc, char **argv)
{
    struct xc_bench_cfg cfg = {5, 0.05, 1.5, 0, NULL, 0, 0, 0};
    struct xc_sample samples[64];
    int levels[XC_MAX_LEVELS];
    size_t count = 0, nlevels = sizeof g_default_levels / sizeof g_default_levels[0];
    int rc = XC_EXIT_OK, classes = 0, levels_given = 0;
    unsigned char selected[64] = {0};
    size_t records[16] = {256, 4096};
    struct xc_classes_opts copts = {NULL, 1, 0, records, 2, 1, NULL, 0, NULL};
    struct xc_zpeer zp;
    memset(&zp, 0, sizeof zp);
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
            levels_given = 1;
            if (nlevels == 0) {
                rc = XC_EXIT_USAGE;
                goto done;
            }
        } else if (strcmp(argv[i], "--quick") == 0) {
            cfg.rounds = 2;
            cfg.round_s = 0.02;
            cfg.max_pair_s = 0.5;
        } else if (strncmp(argv[i], "--rounds=", 9) == 0) {
            cfg.rounds = atoi(argv[i] + 9);
            if (cfg.rounds < 1 || cfg.rounds > 64) {
                fprintf(stderr, "xcodec bench: --rounds takes 1 to 64\n");
                rc = XC_EXIT_USAGE;
                goto done;
            }
            /* More rounds are asked for so that each counts. */
            cfg.max_pair_s = 1.5 * cfg.rounds / 5;
        } else if (strcmp(argv[i], "--classes") == 0) {
            classes = 1;
        } else if (strncmp(argv[i], "--classes=", 10) == 0) {
            classes = 1;
            if (parse_classes(argv[i] + 10, selected) != 0) {
                rc = XC_EXIT_USAGE;
                goto done;
            }
            copts.selected = selected;
        } else if (strncmp(argv[i], "--size=", 7) == 0) {
            copts.size = parse_size(argv[i] + 7);
            if (copts.size < XC_CORPUS_MIN_BYTES || copts.size > XC_CORPUS_MAX_BYTES) {
                fprintf(stderr, "xcodec bench: bad --size '%s' (64 B to 64 MiB, such as 4096, "
                        "64K, 1M)\n", argv[i] + 7);
                rc = XC_EXIT_USAGE;
                goto done;
            }
        } else if (strncmp(argv[i], "--records=", 10) == 0) {
            long n = parse_records(argv[i] + 10, records, sizeof records / sizeof records[0]);
            if (n < 0) {
                rc = XC_EXIT_USAGE;
                goto done;
            }
            copts.nrecords = (size_t)n;
        } else if (strcmp(argv[i], "--no-dict") == 0) {
            copts.dict = 0;
        } else if (strcmp(argv[i], "--no-whole") == 0) {
            copts.whole = 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            cfg.json = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage();
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
    if (classes && count) {
        fprintf(stderr, "xcodec bench: --classes takes no files\n");
        rc = XC_EXIT_USAGE;
        goto done;
    }
#ifdef XC_HAVE_LIBZSTD
    if (xc_zpeer_open(&zp) != 0) {
        rc = XC_EXIT_ERROR;
        goto done;
    }
#endif
    int ok = 1;
    if (classes) {
        if (!levels_given) {
            nlevels = sizeof g_class_levels / sizeof g_class_levels[0];
            memcpy(levels, g_class_levels, sizeof g_class_levels);
        }
        cfg.median = 1;
        cfg.cpu_time = 1;
        copts.levels = levels;
        copts.nlevels = nlevels;
        copts.data_dir = shared_data();
        header(&cfg, &zp, 2);
        bench_memory(&cfg, &zp, levels, nlevels);
        ok = xc_bench_classes(&cfg, &zp, &copts) == 0;
    } else {
        int corpus = count == 0;
        if (corpus) {
            count = xc_default_corpus(samples, 1 << 20);
            if (count == 0) {
                fprintf(stderr, "xcodec bench: out of memory\n");
                rc = XC_EXIT_ERROR;
                goto done;
            }
        }
        header(&cfg, &zp, corpus);
        bench_memory(&cfg, &zp, levels, nlevels);
        ok = bench_zstd(&cfg, &zp, samples, count, levels, nlevels);
        if (xc_bench_sums(&cfg) != 0) ok = 0;
    }
    if (cfg.json) printf("  \"ok\": %s\n}\n", ok ? "true" : "false");
    if (!ok) rc = XC_EXIT_ERROR;
done:
    for (size_t i = 0; i < count; i++) free(samples[i].data);
#ifdef XC_HAVE_LIBZSTD
    if (zp.version) xc_zpeer_close(&zp);
#endif
    return rc;
}
