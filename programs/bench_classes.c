/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xcodec bench --classes`: xcodec beside libzstd on the generated corpus
 * by class (corpus_gen.h), level by level, in three modes:
 *
 *   whole    one input of --size bytes (default 1 MiB; the mixed class 4
 *            MiB, since its point is repeats more than 1 MiB back)
 *   records  many small inputs of one class (--records sizes, 64 B to 64
 *            KiB; about 1 MiB of them), each a one-shot frame of its own
 *            with one reused context, as a database or a message queue
 *            compresses records
 *   dict     the same records with a prepared dictionary: trained with
 *            xc_zstd_train_dictionary() on other records of the class
 *            (other seeds), and the same dictionary bytes given to both
 *            libraries (xc_zstd_cdict_new()/ddict beside ZSTD_createCDict()
 *            /DDict at the level), so that only the codecs differ
 *
 * and, when the shared data folder is there, its files (a selection of
 * Canterbury, Calgary and Snappy's test data, each cut to --size) as whole
 * inputs.  As in the main job, both decoders decode libzstd's frames, and
 * every frame of either encoder is checked in both decoders first.  Each
 * figure is the median of the rounds, the engines taking turns within
 * each round, timed in the thread's CPU time (the machine may be shared);
 * the summary names the worst cell of each column.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "bench_peer.h"
#include "corpus_gen.h"
#include "xcodec.h"

#define RECORD_BUDGET ((size_t)1 << 20)
#define MAX_RECORDS 16384
#define DICT_BYTES ((size_t)16 << 10)
#define TRAIN_SEED 1000000u
#define MIXED_MIN_BYTES ((size_t)4 << 20)

/* One measured set: count inputs, one after another in src. */
struct job {
    const uint8_t *src;
    const size_t *len;
    size_t count, total, max_len;
    uint8_t *dst;    /* room for the largest input's frame, reused */
    size_t dst_cap;
    uint8_t *frames; /* libzstd's frames, which both decoders decode */
    size_t *frame_len;
    uint8_t *out;    /* room for max_len + 1 decoded bytes */
    int level, dict;
    xc_zstd_cctx *xc;
    xc_zstd_dctx *xd;
#ifdef XC_HAVE_LIBZSTD
    const struct xc_zpeer *zp;
    ZSTD_CCtx *zc;
    ZSTD_DCtx *zd;
    ZSTD_CDict *zcd;
    ZSTD_DDict *zdd;
#endif
};

static int op_comp_xc(void *p)
{
    struct job *j = p;
    const uint8_t *s = j->src;
    for (size_t i = 0; i < j->count; s += j->len[i++])
        if (xc_is_error(xc_zstd_compress_cctx(j->xc, j->dst, j->dst_cap, s, j->len[i]))) return 1;
    return 0;
}

static int op_dec_xc(void *p)
{
    struct job *j = p;
    const uint8_t *f = j->frames;
    for (size_t i = 0; i < j->count; f += j->frame_len[i++])
        if (xc_zstd_decompress_dctx(j->xd, j->out, j->max_len + 1, f, j->frame_len[i]) != j->len[i])
            return 1;
    return 0;
}

#ifdef XC_HAVE_LIBZSTD
static int op_comp_zs(void *p)
{
    struct job *j = p;
    const uint8_t *s = j->src;
    for (size_t i = 0; i < j->count; s += j->len[i++]) {
        size_t r = j->zcd ? j->zp->compress_usingCDict(j->zc, j->dst, j->dst_cap, s, j->len[i], j->zcd)
                          : j->zp->compressCCtx(j->zc, j->dst, j->dst_cap, s, j->len[i], j->level);
        if (j->zp->isError(r)) return 1;
    }
    return 0;
}

static int op_dec_zs(void *p)
{
    struct job *j = p;
    const uint8_t *f = j->frames;
    for (size_t i = 0; i < j->count; f += j->frame_len[i++]) {
        size_t r = j->zdd ? j->zp->decompress_usingDDict(j->zd, j->out, j->max_len + 1, f,
                                                         j->frame_len[i], j->zdd)
                          : j->zp->decompressDCtx(j->zd, j->out, j->max_len + 1, f, j->frame_len[i]);
        if (r != j->len[i]) return 1;
    }
    return 0;
}
#endif

/* The timed operations, in xc_bench_codec()'s order. */
static const xc_bench_op class_ops[4] = XC_BENCH_CODEC_OPS(op_comp_xc, op_comp_zs, op_dec_xc, op_dec_zs);

struct cell {
    size_t xc_size, zs_size;
    struct xc_codec_times t; /* seconds per pass over the set */
    const char *error;
};

/* Compresses every input with both engines, checks each frame in both
 * decoders, keeps libzstd's frames in j->frames and the totals in c. */
static const char *check(struct job *j, struct cell *c)
{
    const uint8_t *s = j->src;
    size_t fpos = 0;
    for (size_t i = 0; i < j->count; s += j->len[i++]) {
        size_t r = xc_zstd_compress_cctx(j->xc, j->dst, j->dst_cap, s, j->len[i]);
        if (xc_is_error(r)) return xc_error_name(r);
        c->xc_size += r;
        size_t d = xc_zstd_decompress_dctx(j->xd, j->out, j->max_len + 1, j->dst, r);
        if (d != j->len[i] || memcmp(j->out, s, d) != 0) return "xcodec cannot decode its own frame";
#ifdef XC_HAVE_LIBZSTD
        d = j->zdd ? j->zp->decompress_usingDDict(j->zd, j->out, j->max_len + 1, j->dst, r, j->zdd)
                   : j->zp->decompressDCtx(j->zd, j->out, j->max_len + 1, j->dst, r);
        if (d != j->len[i] || memcmp(j->out, s, d) != 0) return "libzstd cannot decode xcodec's frame";
        size_t cap = j->zp->compressBound(j->len[i]);
        r = j->zcd ? j->zp->compress_usingCDict(j->zc, j->frames + fpos, cap, s, j->len[i], j->zcd)
                   : j->zp->compressCCtx(j->zc, j->frames + fpos, cap, s, j->len[i], j->level);
        if (j->zp->isError(r)) return "libzstd failed to compress";
        c->zs_size += r;
        d = xc_zstd_decompress_dctx(j->xd, j->out, j->max_len + 1, j->frames + fpos, r);
        if (d != j->len[i] || memcmp(j->out, s, d) != 0)
            return xc_is_error(d) ? xc_error_name(d) : "xcodec decodes libzstd's frame wrongly";
#else
        memcpy(j->frames + fpos, j->dst, r);
#endif
        j->frame_len[i] = r;
        fpos += r;
    }
    return NULL;
}

/* ---- output ------------------------------------------------------------------- */

struct worst {
    double size, comp, dec; /* the worst ratio of each column so far */
    char size_at[96], comp_at[96], dec_at[96];
    double log_comp, log_dec;
    size_t cells;
};

static void cell_name(char *buf, size_t cap, const char *cls, const char *input, int level)
{
    snprintf(buf, cap, "%s %s level %d", cls, input, level);
}

static void describe_input(char *buf, size_t cap, const char *mode, size_t count, size_t rec)
{
    if (strcmp(mode, "whole") == 0) {
        if (rec >= ((size_t)1 << 20) && rec % ((size_t)1 << 20) == 0)
            snprintf(buf, cap, "%zu MiB", rec >> 20);
        else if (rec >= 1024 && rec % 1024 == 0)
            snprintf(buf, cap, "%zu KiB", rec >> 10);
        else
            snprintf(buf, cap, "%zu B", rec);
    } else if (rec >= 1024 && rec % 1024 == 0)
        snprintf(buf, cap, "%zux%zuK%s", count, rec >> 10, strcmp(mode, "dict") == 0 ? "+dict" : "");
    else
        snprintf(buf, cap, "%zux%zu%s", count, rec, strcmp(mode, "dict") == 0 ? "+dict" : "");
}

static void print_cell(const struct xc_bench_cfg *cfg, const char *cls, const char *mode,
                       const struct job *j, size_t rec, const struct cell *c, int *first,
                       struct worst *w)
{
    char input[48];
    describe_input(input, sizeof input, mode, j->count, rec);
    double mb = (double)j->total * 1e-6;
    int peer = c->zs_size != 0;
    double size_r = peer ? (double)c->xc_size / (double)c->zs_size : 0;
    double comp_r = peer ? c->t.zs_comp / c->t.xc_comp : 0, dec_r = peer ? c->t.zs_dec / c->t.xc_dec : 0;
    if (!c->error && peer) {
        char name[96];
        cell_name(name, sizeof name, cls, input, j->level);
        if (w->cells == 0 || size_r > w->size) {
            w->size = size_r;
            snprintf(w->size_at, sizeof w->size_at, "%s", name);
        }
        if (w->cells == 0 || comp_r < w->comp) {
            w->comp = comp_r;
            snprintf(w->comp_at, sizeof w->comp_at, "%s", name);
        }
        if (w->cells == 0 || dec_r < w->dec) {
            w->dec = dec_r;
            snprintf(w->dec_at, sizeof w->dec_at, "%s", name);
        }
        w->log_comp += log(comp_r);
        w->log_dec += log(dec_r);
        w->cells++;
    }
    if (cfg->json) {
        printf("%s    {\"class\": ", *first ? "" : ",\n");
        xc_json_string(stdout, cls);
        printf(", \"mode\": \"%s\", \"input\": \"%s\", \"records\": %zu, \"record_bytes\": %zu, "
               "\"bytes\": %zu, \"level\": %d, ", mode, input, j->count, rec, j->total, j->level);
        *first = 0;
        if (c->error) {
            printf("\"error\": ");
            xc_json_string(stdout, c->error);
            printf("}");
            return;
        }
        printf("\"xcodec\": {\"compressed\": %zu, \"compress_mbps\": %.2f, \"decompress_mbps\": "
               "%.2f}, ", c->xc_size, mb / c->t.xc_comp, mb / c->t.xc_dec);
        if (peer)
            printf("\"libzstd\": {\"compressed\": %zu, \"compress_mbps\": %.2f, \"decompress_mbps\": "
                   "%.2f}, \"size_ratio\": %.4f, \"compress_speedup\": %.3f, \"decompress_speedup\": "
                   "%.3f, \"error\": null}", c->zs_size, mb / c->t.zs_comp, mb / c->t.zs_dec, size_r,
                   comp_r, dec_r);
        else
            printf("\"libzstd\": null, \"error\": null}");
        return;
    }
    if (c->error) {
        printf("%-16s %-14s %5d  FAILED: %s\n", cls, input, j->level, c->error);
        return;
    }
    if (peer)
        printf("%-16s %-14s %5d %6.3f %6.2fx %6.2fx  %8.1f %8.1f  %8.1f %8.1f\n", cls, input,
               j->level, size_r, comp_r, dec_r, mb / c->t.xc_comp, mb / c->t.zs_comp, mb / c->t.xc_dec,
               mb / c->t.zs_dec);
    else
        printf("%-16s %-14s %5d %6s %7s %7s  %8.1f %8s  %8.1f %8s\n", cls, input, j->level, "n/a",
               "", "", mb / c->t.xc_comp, "n/a", mb / c->t.xc_dec, "n/a");
    fflush(stdout);
}

/* ---- running a set -------------------------------------------------------------- */

struct engines {
    xc_zstd_cctx *xc;
    xc_zstd_dctx *xd;
    const struct xc_zpeer *zp;
#ifdef XC_HAVE_LIBZSTD
    ZSTD_CCtx *zc;
    ZSTD_DCtx *zd;
#endif
};

/* Room for any engine's frame of n bytes. */
static size_t frame_cap(const struct engines *e, size_t n)
{
    size_t cap = xc_zstd_compress_bound(n);
#ifdef XC_HAVE_LIBZSTD
    if (e->zp->compressBound(n) > cap) cap = e->zp->compressBound(n);
#else
    (void)e;
#endif
    return cap;
}

/* Every level on one set of inputs; dict (size bytes, or NULL) is given to
 * both engines, prepared once per level.  Returns 0, or -1 on failure. */
static int run_set(const struct xc_bench_cfg *cfg, const struct xc_classes_opts *o,
                   struct engines *e, const char *cls, const char *mode, const uint8_t *src,
                   const size_t *len, size_t count, size_t rec, const uint8_t *dict,
                   size_t dict_size, int *first, struct worst *w)
{
    struct job j;
    memset(&j, 0, sizeof j);
    j.src = src;
    j.len = len;
    j.count = count;
    for (size_t i = 0; i < count; i++) {
        j.total += len[i];
        if (len[i] > j.max_len) j.max_len = len[i];
    }
    j.dst_cap = xc_zstd_compress_bound(j.max_len);
#ifdef XC_HAVE_LIBZSTD
    if (e->zp->compressBound(j.max_len) > j.dst_cap) j.dst_cap = e->zp->compressBound(j.max_len);
#endif
    size_t frames_cap = 0;
    for (size_t i = 0; i < count; i++) frames_cap += frame_cap(e, len[i]);
    j.dst = malloc(j.dst_cap);
    j.frames = malloc(frames_cap);
    j.frame_len = malloc(count * sizeof *j.frame_len);
    j.out = malloc(j.max_len + 1);
    j.xc = e->xc;
    j.xd = e->xd;
#ifdef XC_HAVE_LIBZSTD
    j.zp = e->zp;
    j.zc = e->zc;
    j.zd = e->zd;
#endif
    int ok = j.dst && j.frames && j.frame_len && j.out;
    for (size_t l = 0; l < o->nlevels && ok; l++) {
        struct cell c;
        memset(&c, 0, sizeof c);
        j.level = o->levels[l];
        xc_zstd_cdict *xcd = NULL;
        xc_zstd_ddict *xdd = NULL;
        if (dict) {
            xcd = xc_zstd_cdict_new(dict, dict_size, j.level);
            xdd = xc_zstd_ddict_new(dict, dict_size);
#ifdef XC_HAVE_LIBZSTD
            j.zcd = e->zp->createCDict(dict, dict_size, j.level);
            j.zdd = e->zp->createDDict(dict, dict_size);
            if (!j.zcd || !j.zdd) c.error = "libzstd cannot prepare the dictionary";
#endif
            if (!xcd || !xdd) c.error = "xcodec cannot prepare the dictionary";
        }
        size_t r = xc_zstd_cctx_set(j.xc, XC_ZSTD_C_LEVEL, j.level);
        if (xc_is_error(r)) c.error = xc_error_name(r);
        if (!c.error) {
            xc_zstd_cctx_ref_cdict(j.xc, xcd);
            xc_zstd_dctx_ref_ddict(j.xd, xdd);
            c.error = check(&j, &c);
        }
        if (!c.error) c.error = xc_bench_codec(cfg, class_ops, &j, &c.t);
        xc_zstd_cctx_ref_cdict(j.xc, NULL);
        xc_zstd_dctx_ref_ddict(j.xd, NULL);
        xc_zstd_cdict_free(xcd);
        xc_zstd_ddict_free(xdd);
#ifdef XC_HAVE_LIBZSTD
        if (j.zcd) e->zp->freeCDict(j.zcd);
        if (j.zdd) e->zp->freeDDict(j.zdd);
        j.zcd = NULL;
        j.zdd = NULL;
#endif
        if (c.error) ok = 0;
        print_cell(cfg, cls, mode, &j, rec, &c, first, w);
    }
    free(j.dst);
    free(j.frames);
    free(j.frame_len);
    free(j.out);
    return ok ? 0 : -1;
}

/* count records of rec bytes of class k from seeds base, base + 1, ...,
 * one after another in a new buffer; NULL when memory runs out. */
static uint8_t *make_records(size_t k, uint64_t base, size_t rec, size_t count, size_t *len)
{
    uint8_t *d = malloc(rec * count);
    for (size_t i = 0; d && i < count; i++) {
        len[i] = rec;
        if (xc_corpus_generate(k, base + i, d + i * rec, rec) != 0) {
            free(d);
            return NULL;
        }
    }
    return d;
}

static int run_class(const struct xc_bench_cfg *cfg, const struct xc_classes_opts *o,
                     struct engines *e, size_t k, int *first, struct worst *w)
{
    const char *cls = xc_corpus_class_name(k);
    int rc = 0;
    size_t size = o->size ? o->size : strcmp(cls, "mixed") == 0 ? MIXED_MIN_BYTES : (size_t)1 << 20;
    if (o->whole) {
        uint8_t *d = malloc(size);
        if (!d || xc_corpus_generate(k, 1, d, size) != 0) {
            fprintf(stderr, "xcodec bench: cannot generate class %s\n", cls);
            free(d);
            return -1;
        }
        rc |= run_set(cfg, o, e, cls, "whole", d, &size, 1, size, NULL, 0, first, w);
        free(d);
    }
    for (size_t r = 0; r < o->nrecords; r++) {
        size_t rec = o->records[r];
        size_t count = RECORD_BUDGET / rec;
        if (count < 8) count = 8;
        if (count > MAX_RECORDS) count = MAX_RECORDS;
        size_t *len = malloc(count * sizeof *len);
        uint8_t *d = len ? make_records(k, 1000, rec, count, len) : NULL;
        if (!d) {
            free(len);
            return -1;
        }
        rc |= run_set(cfg, o, e, cls, "records", d, len, count, rec, NULL, 0, first, w);
        if (o->dict) {
            /* Training records: other seeds, about 64 times the
             * dictionary's size in all. */
            size_t tcount = 64 * DICT_BYTES / rec;
            if (tcount < 16) tcount = 16;
            if (tcount > MAX_RECORDS) tcount = MAX_RECORDS;
            size_t *tlen = malloc(tcount * sizeof *tlen);
            uint8_t *t = tlen ? make_records(k, TRAIN_SEED, rec, tcount, tlen) : NULL;
            uint8_t *dict = malloc(DICT_BYTES);
            size_t dsize = t && dict ? xc_zstd_train_dictionary(dict, DICT_BYTES, t, tlen,
                                                                  (unsigned)tcount)
                                     : 0;
            if (t && dict && !xc_is_error(dsize)) {
                rc |= run_set(cfg, o, e, cls, "dict", d, len, count, rec, dict, dsize, first, w);
            } else if (!cfg->json) {
                printf("%-16s %zux%zu+dict: no dictionary (%s)\n", cls, count, rec,
                       t && dict ? xc_error_name(dsize) : "out of memory");
            }
            free(dict);
            free(t);
            free(tlen);
        }
        free(d);
        free(len);
    }
    return rc;
}

/* The shared corpus files the benchmark takes, when they are there: the
 * selection bench/bench_corpus.h makes, less the bzip2-packed Silesia
 * files. */
static const char *const g_shared_files[] = {
    "canterbury/alice29.txt", "canterbury/cp.html",    "canterbury/fields.c",
    "canterbury/kennedy.xls", "canterbury/lcet10.txt", "canterbury/ptt5",
    "canterbury/sum",         "canterbury/xargs.1",    "calgary/book1",
    "calgary/geo",            "calgary/news",          "calgary/obj2",
    "calgary/progc",          "calgary/trans",         "snappy-testdata/fireworks.jpeg",
    "snappy-testdata/geo.protodata", "snappy-testdata/html_x_4", "snappy-testdata/kppkn.gtb",
    "snappy-testdata/paper-100k.pdf", "snappy-testdata/urls.10K",
};

static int run_shared(const struct xc_bench_cfg *cfg, const struct xc_classes_opts *o,
                      struct engines *e, int *first, struct worst *w)
{
    int rc = 0;
    size_t limit = o->size ? o->size : (size_t)4 << 20;
    for (size_t i = 0; i < sizeof g_shared_files / sizeof g_shared_files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/corpus/%s", o->data_dir, g_shared_files[i]);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        uint8_t *d = malloc(limit);
        size_t n = d ? fread(d, 1, limit, f) : 0;
        fclose(f);
        if (n > 0) {
            char name[80];
            const char *base = strrchr(g_shared_files[i], '/');
            snprintf(name, sizeof name, "file:%s", base + 1);
            rc |= run_set(cfg, o, e, name, "whole", d, &n, 1, n, NULL, 0, first, w);
        }
        free(d);
    }
    return rc;
}

int xc_bench_classes(const struct xc_bench_cfg *cfg, const struct xc_zpeer *zp,
                     const struct xc_classes_opts *o)
{
    struct engines e;
    memset(&e, 0, sizeof e);
    e.zp = zp;
    e.xc = xc_zstd_cctx_new();
    e.xd = xc_zstd_dctx_new();
    int have = e.xc && e.xd;
#ifdef XC_HAVE_LIBZSTD
    e.zc = zp->createCCtx();
    e.zd = zp->createDCtx();
    have = have && e.zc && e.zd;
#endif
    int rc = have ? 0 : -1, first = 1;
    struct worst w;
    memset(&w, 0, sizeof w);
    if (cfg->json) {
        printf("  \"classes_rounds\": \"median of %d\",\n  \"classes\": [\n", cfg->rounds);
    } else {
        printf("\nzstd by class: xcodec / libzstd; size (below 1: smaller), speed (above 1: "
               "faster),\nmedians of %d rounds in thread CPU time; MB/s of uncompressed data; "
               "decompression of\nlibzstd's frames\n", cfg->rounds);
        printf("%-16s %-14s %5s %6s %7s %7s  %17s  %17s\n", "class", "input", "level", "size",
               "comp", "dec", "compress MB/s", "decompress MB/s");
        printf("%-16s %-14s %5s %6s %7s %7s  %8s %8s  %8s %8s\n", "", "", "", "", "", "",
               "xcodec", "libzstd", "xcodec", "libzstd");
    }
    for (size_t k = 0; k < xc_corpus_class_count() && have; k++) {
        if (o->selected && !o->selected[k]) continue;
        if (!xc_corpus_class_available(k)) {
            if (!cfg->json)
                printf("%-16s not built in (no zlib at build time)\n", xc_corpus_class_name(k));
            continue;
        }
        if (run_class(cfg, o, &e, k, &first, &w) != 0) rc = -1;
    }
    if (have && o->data_dir && o->whole && run_shared(cfg, o, &e, &first, &w) != 0) rc = -1;
    if (cfg->json) {
        printf("\n  ],\n");
        if (w.cells)
            printf("  \"classes_worst\": {\"size\": {\"ratio\": %.4f, \"at\": \"%s\"}, "
                   "\"compress\": {\"ratio\": %.3f, \"at\": \"%s\"}, \"decompress\": {\"ratio\": "
                   "%.3f, \"at\": \"%s\"}, \"compress_geomean\": %.3f, \"decompress_geomean\": "
                   "%.3f},\n", w.size, w.size_at, w.comp, w.comp_at, w.dec, w.dec_at,
                   exp(w.log_comp / (double)w.cells), exp(w.log_dec / (double)w.cells));
    } else if (w.cells) {
        printf("\nworst cells (of %zu): size %.3f (%s); compression %.2fx (%s); decompression "
               "%.2fx (%s)\ngeomean: compression %.2fx, decompression %.2fx\n", w.cells, w.size,
               w.size_at, w.comp, w.comp_at, w.dec, w.dec_at, exp(w.log_comp / (double)w.cells),
               exp(w.log_dec / (double)w.cells));
    }
    xc_zstd_cctx_free(e.xc);
    xc_zstd_dctx_free(e.xd);
#ifdef XC_HAVE_LIBZSTD
    if (e.zc) zp->freeCCtx(e.zc);
    if (e.zd) zp->freeDCtx(e.zd);
#endif
    return rc;
}
