/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the zstd decoder tests: deterministic input generators,
 * a streaming driver that feeds the decoder in chunks of chosen sizes, and
 * (with libzstd) a wrapper that compresses with a given set of parameters.
 *
 * Everything here is static inline so that each test program, which uses
 * only part of it, compiles without unused-function warnings.  The
 * generators have their own state instead of xc_rand() because the embedded
 * frames in zstd_test_frames.h were made from their output and must be
 * reproducible whatever XC_TEST_SEED says.
 */
#ifndef ZSTD_TEST_UTIL_H
#define ZSTD_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"

#ifdef XC_HAVE_LIBZSTD
#  define ZSTD_STATIC_LINKING_ONLY /* ZSTD_c_targetCBlockSize, ZSTD_dct_rawContent */
#  include <zdict.h>
#  include <zstd.h>
#endif

/* ---- deterministic generators ------------------------------------------ */

/* splitmix64: a full-period generator whose output depends only on the
 * seed, so generated content is the same on every host and byte order. */
static inline uint64_t zt_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint32_t zt_below(uint64_t *s, uint32_t n)
{
    return n ? (uint32_t)((zt_next(s) >> 32) % n) : 0;
}

/* A value in [0, n) that favours small values: the smaller of two draws,
 * which gives word frequencies roughly like those of natural text. */
static inline uint32_t zt_skewed(uint64_t *s, uint32_t n)
{
    uint32_t a = zt_below(s, n), b = zt_below(s, n);
    return a < b ? a : b;
}

static const char *const zt_words[] = {
    "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "as", "was", "with", "be",
    "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
    "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
    "there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "decoder",
    "window", "literal", "sequence", "offset", "Huffman", "entropy", "block", "frame",
    "checksum", "dictionary", "stream", "table", "repeat", "match"};

/* Text-like: words with skewed frequencies, punctuation and line breaks. */
static inline void zt_gen_text(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    size_t i = 0, col = 0;
    const size_t nwords = sizeof zt_words / sizeof zt_words[0];
    while (i < n) {
        const char *w = zt_words[zt_skewed(&s, (uint32_t)nwords)];
        size_t len = strlen(w);
        for (size_t k = 0; k < len && i < n; k++) p[i++] = (uint8_t)w[k];
        col += len + 1;
        if (i >= n) break;
        uint32_t r = zt_below(&s, 16);
        if (r == 0 && i < n) p[i++] = ',';
        else if (r == 1 && i < n) p[i++] = '.';
        if (i < n) {
            p[i++] = col > 70 ? '\n' : ' ';
            if (col > 70) col = 0;
        }
    }
}

/* Source-like: indented lines of C with identifiers and numbers. */
static inline void zt_gen_source(uint8_t *p, size_t n, uint64_t seed)
{
    static const char *const forms[] = {
        "%*sif (%s_%u == %u) {\n", "%*sreturn %s(%u);\n", "%*s}\n",
        "%*sfor (size_t i = 0; i < %s_len; i++) x[i] = %u;\n",
        "%*s%s += table[%u] >> %u;\n", "%*s/* %s: see section %u.%u */\n"};
    static const char *const ids[] = {"state", "bits", "offset", "length", "count", "ptr"};
    uint64_t s = seed;
    size_t i = 0;
    char line[160];
    while (i < n) {
        int indent = (int)zt_below(&s, 4) * 4;
        const char *id = ids[zt_below(&s, 6)];
        unsigned a = zt_below(&s, 64), b = zt_below(&s, 16);
        int len;
        switch (zt_below(&s, 6)) {
        case 0: len = snprintf(line, sizeof line, forms[0], indent, "", id, a, b); break;
        case 1: len = snprintf(line, sizeof line, forms[1], indent, "", id, a); break;
        case 2: len = snprintf(line, sizeof line, forms[2], indent, ""); break;
        case 3: len = snprintf(line, sizeof line, forms[3], indent, "", id, a); break;
        case 4: len = snprintf(line, sizeof line, forms[4], indent, "", id, a, b); break;
        default: len = snprintf(line, sizeof line, forms[5], indent, "", id, a, b); break;
        }
        for (int k = 0; k < len && i < n; k++) p[i++] = (uint8_t)line[k];
    }
}

/* JSON-like records with the same keys and varying values.  The values
 * are drawn one statement at a time: the order in which a compiler
 * evaluates function arguments is unspecified (gcc and clang differ), and
 * the embedded frames depend on this exact sequence. */
static inline size_t zt_gen_json_record(char *out, size_t cap, uint64_t *s)
{
    static const char *const cities[] = {"Lisbon", "Osaka", "Quito", "Tromso", "Accra"};
    unsigned v[11];
    unsigned id = zt_below(s, 100000000);
    v[0] = zt_below(s, 10);
    v[1] = zt_below(s, 5);
    v[2] = zt_below(s, 300);
    v[3] = zt_below(s, 5000);
    v[4] = zt_below(s, 200);
    v[5] = 8 + zt_below(s, 15);
    v[6] = 1 + zt_below(s, 12);
    v[7] = 1 + zt_below(s, 28);
    v[8] = zt_below(s, 24);
    v[9] = zt_below(s, 60);
    v[10] = zt_below(s, 60);
    int len = snprintf(out, cap,
                       "{\"login\":\"user%u\",\"id\":%u,\"type\":\"User\",\"site_admin\":%s,"
                       "\"name\":\"Name %u\",\"location\":\"%s\",\"public_repos\":%u,"
                       "\"followers\":%u,\"following\":%u,\"created_at\":\"20%02u-%02u-%02uT"
                       "%02u:%02u:%02uZ\",\"url\":\"https://api.example.com/users/user%u\"}\n",
                       id % 9973, id, v[0] ? "false" : "true", id % 577, cities[v[1]], v[2], v[3],
                       v[4], v[5], v[6], v[7], v[8], v[9], v[10], id % 9973);
    return len < 0 ? 0 : (size_t)len < cap ? (size_t)len : cap - 1;
}

static inline void zt_gen_json(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    size_t i = 0;
    char rec[512];
    while (i < n) {
        size_t len = zt_gen_json_record(rec, sizeof rec, &s);
        for (size_t k = 0; k < len && i < n; k++) p[i++] = (uint8_t)rec[k];
    }
}

/* `count` whole JSON records from `seed`, concatenated (malloc'ed), with
 * each one's size in sizes[] and their sum in *total: small inputs alike
 * enough for a dictionary to pay. */
static inline uint8_t *zt_json_records(size_t count, uint64_t seed, size_t *sizes, size_t *total)
{
    uint8_t *p = malloc(count * 512 + 1);
    assert_non_null(p);
    uint64_t s = seed;
    size_t len = 0;
    char rec[512];
    for (size_t i = 0; i < count; i++) {
        sizes[i] = zt_gen_json_record(rec, sizeof rec, &s);
        memcpy(p + len, rec, sizes[i]);
        len += sizes[i];
    }
    *total = len;
    return p;
}

/* Binary-like: little-endian records of slowly changing integers, with
 * stretches of noise, as in tables, images and object files. */
static inline void zt_gen_binary(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    uint32_t v = 1000;
    size_t i = 0;
    while (i < n) {
        if (zt_below(&s, 32) == 0) {
            size_t run = 1 + zt_below(&s, 64);
            for (size_t k = 0; k < run && i < n; k++) p[i++] = (uint8_t)zt_next(&s);
            continue;
        }
        v += zt_below(&s, 7) - 3;
        uint8_t rec[8] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), 0,
                          (uint8_t)zt_below(&s, 4), 0, 0x7f, 0};
        for (size_t k = 0; k < 8 && i < n; k++) p[i++] = rec[k];
    }
}

static inline void zt_gen_random(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)zt_next(&s);
}

/* Runs of a few byte values, from 1 byte to far longer than a block. */
static inline void zt_gen_runs(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    size_t i = 0;
    while (i < n) {
        size_t run = zt_below(&s, 4) == 0 ? 1 + zt_below(&s, 300000) : 1 + zt_below(&s, 40);
        uint8_t b = (uint8_t)"\0\0\0 aZ\xff"[zt_below(&s, 7)];
        for (size_t k = 0; k < run && i < n; k++) p[i++] = b;
    }
}

/* Mixed: segments of every kind above, and copies of earlier output at
 * short and long distances (including exact repeats of the previous
 * offsets), so that the encoder emits every kind of sequence. */
static inline void zt_gen_mixed(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    size_t i = 0;
    size_t last_dist = 1;
    while (i < n) {
        size_t seg = 1 + zt_below(&s, zt_below(&s, 8) == 0 ? 20000 : 2000);
        if (seg > n - i) seg = n - i;
        uint64_t sub = zt_next(&s);
        switch (zt_below(&s, 8)) {
        case 0: zt_gen_text(p + i, seg, sub); break;
        case 1: zt_gen_source(p + i, seg, sub); break;
        case 2: zt_gen_json(p + i, seg, sub); break;
        case 3: zt_gen_binary(p + i, seg, sub); break;
        case 4:
            if (seg > 300) seg = 300;
            zt_gen_random(p + i, seg, sub);
            break;
        case 5: zt_gen_runs(p + i, seg, sub); break;
        default:
            if (i == 0) {
                p[i] = (uint8_t)sub;
                seg = 1;
                break;
            }
            /* A copy: a third of the time at the previous distance. */
            size_t dist = zt_below(&s, 3) == 0 && last_dist <= i ? last_dist
                                                                  : 1 + zt_below(&s, (uint32_t)i);
            for (size_t k = 0; k < seg; k++) p[i + k] = p[i + k - dist];
            last_dist = dist;
            break;
        }
        i += seg;
    }
}

/* The kinds of input the differential tests sweep. */
enum zt_kind { ZT_TEXT, ZT_SOURCE, ZT_JSON, ZT_BINARY, ZT_RANDOM, ZT_RUNS, ZT_MIXED, ZT_KINDS };

static const char *const zt_kind_names[ZT_KINDS] = {"text",   "source", "json",  "binary",
                                                    "random", "runs",   "mixed"};

static inline void zt_gen(enum zt_kind k, uint8_t *p, size_t n, uint64_t seed)
{
    switch (k) {
    case ZT_TEXT: zt_gen_text(p, n, seed); break;
    case ZT_SOURCE: zt_gen_source(p, n, seed); break;
    case ZT_JSON: zt_gen_json(p, n, seed); break;
    case ZT_BINARY: zt_gen_binary(p, n, seed); break;
    case ZT_RANDOM: zt_gen_random(p, n, seed); break;
    case ZT_RUNS: zt_gen_runs(p, n, seed); break;
    default: zt_gen_mixed(p, n, seed); break;
    }
}

/* Under qemu (xc_test_quick()) sizes shrink ~10x; tiny ones stay. */
static inline size_t zt_scaled(size_t n) { return xc_test_quick() && n > 64 ? n / 8 : n; }

/* malloc that never returns NULL for size 0 and fails the test when memory
 * runs out, so callers need no error path. */
static inline void *zt_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    assert_non_null(p);
    return p;
}

static inline uint8_t *zt_make(enum zt_kind k, size_t n, uint64_t seed)
{
    uint8_t *p = zt_malloc(n);
    zt_gen(k, p, n, seed);
    return p;
}

/* ---- streaming driver ------------------------------------------------------ */

/* How the driver sizes its chunks: each call offers between 1 and max_in
 * new input bytes (0: all that is left) and between 1 and max_out bytes of
 * output room (0: all that is left). */
typedef struct {
    size_t max_in;
    size_t max_out;
} zt_chunking;

/* What the driver saw.  result is the decoder's error when it returned one,
 * else the number of bytes produced.  complete says the last call returned
 * 0 with all input consumed; frames counts the 0 returns.  stalled says the
 * decoder made no progress over several calls although it had input and
 * room, or moved a position outside its window: a decoder bug either way.
 * Neither complete nor stalled means the input ran out mid-frame or the
 * destination filled up. */
typedef struct {
    size_t result;
    int complete;
    int stalled;
    unsigned frames;
} zt_stream_result;

static inline size_t zt_chunk(size_t max, size_t left)
{
    if (left == 0) return 0;
    if (max == 0 || max >= left) return left;
    size_t c = 1 + xc_rand_below((uint32_t)max);
    return c < left ? c : left;
}

static inline zt_stream_result zt_stream_decode(xc_zstd_dctx *d, void *dst, size_t cap,
                                                const void *src, size_t n, zt_chunking ch)
{
    zt_stream_result res = {0, 0, 0, 0};
    xc_in_buffer in = {src, 0, 0};
    xc_out_buffer out = {dst, 0, 0};
    unsigned idle = 0;
    for (;;) {
        in.size = in.pos + zt_chunk(ch.max_in, n - in.pos);
        out.size = out.pos + zt_chunk(ch.max_out, cap - out.pos);
        size_t in_before = in.pos, out_before = out.pos, in_size = in.size, out_size = out.size;
        size_t r = xc_zstd_decompress_stream(d, &out, &in);
        if (xc_is_error(r)) {
            res.result = r;
            return res;
        }
        if (in.pos < in_before || in.pos > in_size || out.pos < out_before || out.pos > out_size ||
            in.size != in_size || out.size != out_size) {
            res.stalled = 1;
            break;
        }
        if (r == 0) {
            res.frames++;
            if (in.pos == n) {
                res.complete = 1;
                break;
            }
        }
        if (in.pos != in_before || out.pos != out_before) {
            idle = 0;
            continue;
        }
        /* Nothing moved.  A decoder may need a call or two to change state,
         * but not more: after that, with all input given it is waiting for
         * bytes that will never come, with no room it is full, and with
         * both it is stuck. */
        if (++idle < 4) continue;
        if (in.pos == n || out.pos == cap) break;
        res.stalled = 1;
        break;
    }
    res.result = out.pos;
    return res;
}

/* Flags for zt_check_all_ways(). */
#define ZT_NEEDS_DICT 1u /* skip xc_zstd_decompress(), which has no dictionary */

/* Decodes src in one go, with a fresh context, with a reused context and
 * streaming under the given chunking, and checks that each gives exactly
 * want[0..want_size).  `reuse` may be NULL (a fresh one is used instead);
 * a context that holds a dictionary keeps it. */
static inline void zt_check_all_ways(xc_zstd_dctx *reuse, const void *src, size_t n,
                                     const void *want, size_t want_size, zt_chunking ch,
                                     unsigned flags, const char *what)
{
    uint8_t *dst = zt_malloc(want_size + 64);
    size_t r;
    if (!(flags & ZT_NEEDS_DICT)) {
        r = xc_zstd_decompress(dst, want_size, src, n);
        if (xc_is_error(r) || r != want_size || memcmp(dst, want, want_size) != 0) {
            print_error("%s: one-shot gave %s (%zu bytes), want %zu bytes\n", what,
                        xc_is_error(r) ? xc_error_name(r) : "data", r, want_size);
            fail();
        }
    }
    xc_zstd_dctx *d = reuse ? reuse : xc_zstd_dctx_new();
    assert_non_null(d);
    memset(dst, 0xA5, want_size);
    r = xc_zstd_decompress_dctx(d, dst, want_size, src, n);
    if (xc_is_error(r) || r != want_size || memcmp(dst, want, want_size) != 0) {
        print_error("%s: context gave %s (%zu bytes), want %zu bytes\n", what,
                    xc_is_error(r) ? xc_error_name(r) : "data", r, want_size);
        fail();
    }
    memset(dst, 0xA5, want_size);
    zt_stream_result sr = zt_stream_decode(d, dst, want_size, src, n, ch);
    if (xc_is_error(sr.result) || !sr.complete || sr.stalled || sr.result != want_size ||
        memcmp(dst, want, want_size) != 0) {
        print_error("%s: streaming (in<=%zu, out<=%zu) gave %s (%zu bytes, complete %d, "
                    "stalled %d), want %zu bytes\n",
                    what, ch.max_in, ch.max_out,
                    xc_is_error(sr.result) ? xc_error_name(sr.result) : "data", sr.result,
                    sr.complete, sr.stalled, want_size);
        fail();
    }
    if (!reuse) xc_zstd_dctx_free(d);
    free(dst);
}

/* Random chunking: mostly small pieces, sometimes single bytes, sometimes
 * everything at once.  (Here and in the tests, random values are drawn in
 * statements of their own: the order in which arguments or initializers
 * are evaluated is unspecified, and a seed should replay the same run on
 * every compiler and architecture.) */
static inline zt_chunking zt_random_chunking(void)
{
    static const size_t sizes[] = {1, 2, 7, 100, 1000, 5000, 70000, 0};
    zt_chunking ch;
    ch.max_in = sizes[xc_rand_below(8)];
    ch.max_out = sizes[xc_rand_below(8)];
    return ch;
}

/* ---- libzstd as the reference encoder ------------------------------------------ */

#ifdef XC_HAVE_LIBZSTD

/* How a frame is made.  content_size: 1 writes it, 0 clears the flag,
 * 2 streams the input without announcing its size (which also makes
 * libzstd keep a window descriptor rather than a single segment). */
typedef struct {
    int level;
    int checksum;
    int content_size;
    int window_log; /* 0: the level's */
    int ldm;
    int workers;
    int job_size;
    int min_match;
    int target_cblock; /* ZSTD_c_targetCBlockSize, 0: off */
    int no_dict_id;
    const void *dict;
    size_t dict_size;
    int dict_raw; /* force raw-content interpretation */
} zt_cparams;

#define ZT_CHECK_ZSTD(expr)                                                        \
    do {                                                                           \
        size_t zt_r_ = (expr);                                                     \
        if (ZSTD_isError(zt_r_)) {                                                 \
            print_error("%s: %s\n", #expr, ZSTD_getErrorName(zt_r_));              \
            fail();                                                                \
        }                                                                          \
    } while (0)

/* Compresses src with libzstd; returns a malloc'ed frame and its size. */
static inline uint8_t *zt_compress(const void *src, size_t n, const zt_cparams *p, size_t *out)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    assert_non_null(c);
    ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, p->level));
    ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, p->checksum));
    ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, p->content_size != 0));
    if (p->window_log) ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, p->window_log));
    if (p->ldm) ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1));
    if (p->workers) ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, p->workers));
    if (p->job_size) ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_jobSize, p->job_size));
    if (p->min_match) ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_minMatch, p->min_match));
    if (p->target_cblock)
        ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_targetCBlockSize, p->target_cblock));
    if (p->no_dict_id) ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0));
    /* Without a size, the high levels would size their tables for an
     * unbounded input (hundreds of MB to clear per frame); the hint keeps
     * them to the input without writing the size into the header. */
    if (p->content_size == 2 && n > 0 && p->level >= 10 && !p->window_log) {
        int hint = (int)(n < 1u << 30 ? n : 1u << 30);
        ZT_CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_srcSizeHint, hint));
    }
    if (p->dict_size)
        ZT_CHECK_ZSTD(ZSTD_CCtx_loadDictionary_advanced(
            c, p->dict, p->dict_size, ZSTD_dlm_byCopy,
            p->dict_raw ? ZSTD_dct_rawContent : ZSTD_dct_auto));
    size_t cap = ZSTD_compressBound(n) + 64;
    uint8_t *dst = zt_malloc(cap);
    size_t size;
    if (p->content_size == 2) {
        /* Two calls: with ZSTD_e_end first, libzstd would learn the whole
         * size and write it in the header. */
        ZSTD_inBuffer in = {src, n, 0};
        ZSTD_outBuffer o = {dst, cap, 0};
        size_t r;
        do {
            r = ZSTD_compressStream2(c, &o, &in, ZSTD_e_continue);
            ZT_CHECK_ZSTD(r);
        } while (in.pos < in.size);
        do {
            r = ZSTD_compressStream2(c, &o, &in, ZSTD_e_end);
            ZT_CHECK_ZSTD(r);
        } while (r != 0);
        size = o.pos;
    } else {
        size = ZSTD_compress2(c, dst, cap, src, n);
        ZT_CHECK_ZSTD(size);
    }
    ZSTD_freeCCtx(c);
    *out = size;
    return dst;
}

/* 1 when this libzstd was built with multithreading. */
static inline int zt_have_workers(void)
{
    ZSTD_bounds b = ZSTD_cParam_getBounds(ZSTD_c_nbWorkers);
    return !ZSTD_isError(b.error) && b.upperBound >= 2;
}

#endif /* XC_HAVE_LIBZSTD */

#endif /* ZSTD_TEST_UTIL_H */
