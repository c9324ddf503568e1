/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The block level (xc_zstd_block_*): a series of compressed block bodies
 * without frames.  Inputs that mix text, random bytes and runs are cut
 * into blocks of varied sizes; blocks the encoder declines (it returns 0)
 * are stored raw and inserted; the decoder rebuilds the input with history
 * across blocks, in one buffer and in two segments, with and without a
 * dictionary.  Hostile bodies (mutated, truncated, random, out of order)
 * fail with named errors, never read outside their buffers; and, where
 * libzstd is linked, its ZSTD_compressBlock output decodes here and ours
 * there.
 */
#include "zstd_test_util.h"

#define ZT_MIN(a, b) ((a) < (b) ? (a) : (b))

#ifdef XC_HAVE_LIBZSTD
#  define ZSTD_STATIC_LINKING_ONLY
#  include <zstd.h>
#endif

/* A series compressed: where each block starts, its size, and its body
 * (NULL for a block stored raw). */
typedef struct {
    size_t nb;
    size_t at[256], size[256], body_size[256];
    uint8_t *body[256];
} series;

static void series_free(series *s)
{
    for (size_t i = 0; i < s->nb; i++) free(s->body[i]);
    s->nb = 0;
}

/* Text, random bytes and a run: every kind of block. */
static uint8_t *make_input(size_t n, uint64_t seed)
{
    uint8_t *p = zt_make(ZT_TEXT, n, seed);
    zt_gen_random(p + n / 3, n / 6, seed + 1);
    memset(p + n / 2, 'z', n / 10);
    return p;
}

static void compress_series(xc_zstd_cctx *c, series *s, const uint8_t *src, size_t n,
                            uint64_t seed)
{
    assert_int_equal(xc_zstd_block_compress_begin(c), 0);
    size_t const bmax = xc_zstd_block_max(c);
    assert_true(bmax > 0 && bmax <= XC_ZSTD_BLOCK_SIZE_MAX);
    uint64_t st = seed;
    size_t at = 0;
    s->nb = 0;
    while (at < n && s->nb < 256) {
        size_t len = 1 + zt_below(&st, (uint32_t)bmax);
        if (zt_below(&st, 4) == 0) len = bmax;
        if (len > n - at) len = n - at;
        size_t const cap = xc_zstd_compress_bound(len);
        uint8_t *body = zt_malloc(cap);
        /* The caller's block is copied: scribbling on it afterwards must
         * not change the series. */
        uint8_t *tmp = zt_malloc(len);
        memcpy(tmp, src + at, len);
        size_t const r = xc_zstd_block_compress(c, body, cap, tmp, len);
        memset(tmp, 0x5A, len);
        free(tmp);
        assert_false(xc_is_error(r));
        assert_true(r < len);
        s->at[s->nb] = at;
        s->size[s->nb] = len;
        s->body_size[s->nb] = r;
        if (r == 0) {
            free(body);
            body = NULL;
        }
        s->body[s->nb++] = body;
        at += len;
    }
    assert_int_equal(at, n);
}

/* Decodes the series into out (blocks from `split` on into out2, a second
 * segment, when out2 is not NULL). */
static void decode_series(xc_zstd_dctx *d, const series *s, const uint8_t *src, uint8_t *out,
                          uint8_t *out2, size_t split)
{
    assert_int_equal(xc_zstd_block_decompress_begin(d), 0);
    for (size_t i = 0; i < s->nb; i++) {
        uint8_t *o = out2 && i >= split ? out2 + (s->at[i] - s->at[split]) : out + s->at[i];
        if (!s->body[i]) {
            memcpy(o, src + s->at[i], s->size[i]);
            assert_int_equal(xc_zstd_block_insert(d, o, s->size[i]), s->size[i]);
            continue;
        }
        size_t const r = xc_zstd_block_decompress(d, o, s->size[i], s->body[i], s->body_size[i]);
        assert_int_equal(r, s->size[i]);
        assert_memory_equal(o, src + s->at[i], s->size[i]);
    }
}

static void test_roundtrip(void **state)
{
    (void)state;
    size_t const n = zt_scaled(1500000);
    uint8_t *src = make_input(n, 5), *out = zt_malloc(n), *out2 = zt_malloc(n);
    static const int levels[] = {-5, 1, 3, 7, 19};
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
        series s;
        /* (The series before holds the context: parameters wait for a reset.) */
        assert_int_equal(xc_zstd_cctx_reset(c), 0);
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, levels[li]), 0);
        size_t const len = levels[li] >= 19 ? n / 4 : n;
        if (len != n) {
            free(src);
            src = make_input(len, 6);
        }
        compress_series(c, &s, src, len, 100 + li);
        size_t raw = 0, packed = 0;
        for (size_t i = 0; i < s.nb; i++) {
            raw += s.body[i] == NULL;
            packed += s.body[i] ? s.body_size[i] : s.size[i];
        }
        /* The random sixth goes raw where it fills whole blocks (the
         * large input, not the quick one), the rest compresses. */
        assert_true(raw < s.nb);
        if (len == n && n / 6 >= 2 * XC_ZSTD_BLOCK_SIZE_MAX) assert_true(raw > 0);
        assert_true(packed < len * 3 / 4);
        decode_series(d, &s, src, out, NULL, 0);
        assert_memory_equal(out, src, len);
        /* The same blocks in two segments: history reaches back across. */
        decode_series(d, &s, src, out, out2, s.nb / 2);
        series_free(&s);
    }
    /* Parameters and one-shot frames wait for the series to end. */
    assert_int_equal(xc_zstd_block_compress_begin(c), 0);
    assert_int_equal(xc_error_code(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, 5)), XC_ERROR_STAGE_WRONG);
    assert_int_equal(xc_error_code(xc_zstd_compress_cctx(c, out, n, src, 100)),
                     XC_ERROR_STAGE_WRONG);
    xc_in_buffer in = {src, 100, 0};
    xc_out_buffer ob = {out, n, 0};
    assert_int_equal(xc_error_code(xc_zstd_compress_stream(c, &ob, &in, XC_ZSTD_E_END)),
                     XC_ERROR_STAGE_WRONG);
    assert_int_equal(xc_zstd_cctx_reset(c), 0);
    assert_int_equal(xc_error_code(xc_zstd_block_compress(c, out, n, src, 100)),
                     XC_ERROR_STAGE_WRONG);
    size_t const z = xc_zstd_compress_cctx(c, out, n, src, 100000);
    assert_int_equal(xc_zstd_decompress_dctx(d, out2, n, out, z), 100000);
    /* One-shot decoding ended the decoder's series. */
    assert_int_equal(xc_error_code(xc_zstd_block_decompress(d, out2, n, out, 10)),
                     XC_ERROR_STAGE_WRONG);
    xc_zstd_cctx_free(c);
    xc_zstd_dctx_free(d);
    free(src);
    free(out);
    free(out2);
}

static void test_dictionary(void **state)
{
    (void)state;
    enum { D = 32 << 10, N = 200 << 10 };
    uint8_t *dict = zt_make(ZT_TEXT, D, 21), *src = zt_malloc(N), *out = zt_malloc(N);
    for (size_t i = 0; i < N; i += D / 2) memcpy(src + i, dict + 777, ZT_MIN(D / 2, N - i));
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, D), 0);
    series s;
    compress_series(c, &s, src, N, 3);
    /* The first block reaches into the dictionary: tiny. */
    assert_true(s.body[0] && s.body_size[0] * 20 < s.size[0]);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, D), 0);
    decode_series(d, &s, src, out, NULL, 0);
    /* The series keeps the dictionary it began with while the context
     * loads another and drops it again (ASan would see a freed one read). */
    assert_int_equal(xc_zstd_dctx_reset(d), 0);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, D), 0);
    assert_int_equal(xc_zstd_block_decompress_begin(d), 0);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, src, 1000), 0);
    assert_int_equal(xc_zstd_dctx_reset(d), 0);
    for (size_t i = 0; i < s.nb; i++) {
        if (!s.body[i]) {
            memcpy(out + s.at[i], src + s.at[i], s.size[i]);
            assert_int_equal(xc_zstd_block_insert(d, out + s.at[i], s.size[i]), s.size[i]);
        } else {
            assert_int_equal(xc_zstd_block_decompress(d, out + s.at[i], s.size[i], s.body[i],
                                                      s.body_size[i]),
                             s.size[i]);
        }
    }
    assert_memory_equal(out, src, N);
    /* A second series on the same loaded dictionary, then a frame with it. */
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, D), 0);
    assert_int_equal(xc_zstd_block_decompress_begin(d), 0);
    assert_int_equal(xc_zstd_block_decompress_begin(d), 0);
    assert_int_equal(xc_zstd_block_decompress(d, out, s.size[0], s.body[0], s.body_size[0]),
                     s.size[0]);
    assert_int_equal(xc_zstd_cctx_reset(c), 0);
    uint8_t *f = zt_malloc(N), *back = zt_malloc(5000);
    size_t const z = xc_zstd_compress_cctx(c, f, N, src, 5000);
    assert_false(xc_is_error(z));
    assert_int_equal(xc_zstd_decompress_dctx(d, back, 5000, f, z), 5000);
    assert_memory_equal(back, src, 5000);
    free(f);
    free(back);
    /* Without it, the first block cannot decode. */
    assert_int_equal(xc_zstd_dctx_reset(d), 0);
    assert_int_equal(xc_zstd_block_decompress_begin(d), 0);
    assert_int_equal(xc_error_code(xc_zstd_block_decompress(d, out, s.size[0], s.body[0],
                                                            s.body_size[0])),
                     XC_ERROR_CORRUPT);
    series_free(&s);
    xc_zstd_cctx_free(c);
    xc_zstd_dctx_free(d);
    free(dict);
    free(src);
    free(out);
}

static void test_limits(void **state)
{
    (void)state;
    enum { N = 200 << 10 };
    uint8_t *src = make_input(N, 8), *dst = zt_malloc(N);
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_int_equal(xc_zstd_block_max(c), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_WINDOW_LOG, 12), 0);
    assert_int_equal(xc_zstd_block_compress_begin(c), 0);
    assert_int_equal(xc_zstd_block_max(c), 4096);
    assert_int_equal(xc_error_code(xc_zstd_block_compress(c, dst, N, src, 4097)),
                     XC_ERROR_SRC_SIZE_WRONG);
    /* Small and empty blocks are never compressed. */
    assert_int_equal(xc_zstd_block_compress(c, dst, N, src, 0), 0);
    assert_int_equal(xc_zstd_block_compress(c, dst, N, src, 6), 0);
    /* A body needs less room than the block; no room for it is an error. */
    size_t const body = xc_zstd_block_compress(c, dst, 4096, src, 4096);
    assert_true(body > 0 && body < 4096);
    assert_int_equal(xc_error_code(xc_zstd_block_compress(c, dst, 10, src, 4096)),
                     XC_ERROR_DST_TOO_SMALL);
    /* A run compresses to a few bytes (never an RLE block). */
    memset(src, 'a', 4096);
    size_t const r = xc_zstd_block_compress(c, dst, N, src, 4096);
    assert_true(r > 0 && r < 20);
    assert_int_equal(xc_error_code(xc_zstd_block_compress(NULL, dst, N, src, 1)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_block_compress(c, NULL, 5, src, 1)),
                     XC_ERROR_BAD_PARAMETER);
    xc_zstd_cctx_free(c);
    free(src);
    free(dst);
}

/* Hostile bodies: mutations and cuts of valid ones, random bytes, blocks
 * out of order or without their history.  Each decodes into a buffer of
 * exactly its size (ASan's redzone right after) or fails with a named
 * error. */
static void test_hostile(void **state)
{
    (void)state;
    size_t const n = 600 << 10;
    uint8_t *src = make_input(n, 31);
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    series s;
    compress_series(c, &s, src, n, 77);
    uint64_t st = 99;
    unsigned const rounds = xc_test_quick() ? 300 : 3000;
    uint8_t *out = zt_malloc(XC_ZSTD_BLOCK_SIZE_MAX);
    for (unsigned k = 0; k < rounds; k++) {
        size_t const i = zt_below(&st, (uint32_t)s.nb);
        if (!s.body[i]) continue;
        size_t len = s.body_size[i];
        uint8_t *b = zt_malloc(len);
        memcpy(b, s.body[i], len);
        switch (k % 4) {
        case 0: b[zt_below(&st, (uint32_t)len)] ^= (uint8_t)(1 + zt_below(&st, 255)); break;
        case 1: len = zt_below(&st, (uint32_t)len); break;
        case 2: zt_gen_random(b, len, k); break;
        default: break; /* as it is, but with no history before it */
        }
        assert_int_equal(xc_zstd_block_decompress_begin(d), 0);
        size_t const cap = s.size[i];
        uint8_t *o = zt_malloc(cap);
        size_t const r = xc_zstd_block_decompress(d, o, cap, b, len);
        if (xc_is_error(r)) {
            enum xc_error const e = xc_error_code(r);
            assert_true(e == XC_ERROR_CORRUPT || e == XC_ERROR_DST_TOO_SMALL);
        } else {
            assert_true(r <= cap);
        }
        free(o);
        free(b);
    }
    /* Sizes and stages. */
    assert_int_equal(xc_zstd_block_decompress_begin(d), 0);
    assert_int_equal(xc_error_code(xc_zstd_block_decompress(d, out, 10, src,
                                                            XC_ZSTD_BLOCK_SIZE_MAX + 1)),
                     XC_ERROR_SRC_SIZE_WRONG);
    assert_int_equal(xc_error_code(xc_zstd_block_decompress(d, out, 10, src, 0)),
                     XC_ERROR_CORRUPT);
    xc_zstd_dctx *fresh = xc_zstd_dctx_new();
    assert_int_equal(xc_error_code(xc_zstd_block_decompress(fresh, out, 10, src, 10)),
                     XC_ERROR_STAGE_WRONG);
    assert_int_equal(xc_error_code(xc_zstd_block_insert(fresh, out, 10)), XC_ERROR_STAGE_WRONG);
    xc_zstd_dctx_free(fresh);
    series_free(&s);
    xc_zstd_cctx_free(c);
    xc_zstd_dctx_free(d);
    free(src);
    free(out);
}

/* libzstd's blocks decode here, ours there, with history across blocks
 * and raw blocks inserted. */
static void test_libzstd(void **state)
{
    (void)state;
#ifndef XC_HAVE_LIBZSTD
    skip();
#else
    size_t const n = 800 << 10;
    uint8_t *src = make_input(n, 44), *out = zt_malloc(n), *body = zt_malloc(1 << 18);
    ZSTD_CCtx *zc = ZSTD_createCCtx();
    ZSTD_DCtx *zd = ZSTD_createDCtx();
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_false(ZSTD_isError(ZSTD_compressBegin(zc, 3)));
    assert_int_equal(xc_zstd_block_decompress_begin(d), 0);
    size_t raw = 0;
    for (size_t at = 0; at < n;) {
        size_t const len = ZT_MIN((size_t)100000, n - at);
        size_t const z = ZSTD_compressBlock(zc, body, 1 << 18, src + at, len);
        assert_false(ZSTD_isError(z));
        if (z == 0) {
            memcpy(out + at, src + at, len);
            assert_int_equal(xc_zstd_block_insert(d, out + at, len), len);
            raw++;
        } else {
            assert_int_equal(xc_zstd_block_decompress(d, out + at, len, body, z), len);
        }
        at += len;
    }
    assert_true(raw > 0);
    assert_memory_equal(out, src, n);
    /* Ours through libzstd. */
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    series s;
    compress_series(c, &s, src, n, 45);
    assert_false(ZSTD_isError(ZSTD_decompressBegin(zd)));
    for (size_t i = 0; i < s.nb; i++) {
        uint8_t *o = out + s.at[i];
        if (!s.body[i]) {
            memcpy(o, src + s.at[i], s.size[i]);
            ZSTD_insertBlock(zd, o, s.size[i]);
            continue;
        }
        assert_int_equal(ZSTD_decompressBlock(zd, o, s.size[i], s.body[i], s.body_size[i]),
                         s.size[i]);
    }
    assert_memory_equal(out, src, n);
    series_free(&s);
    xc_zstd_cctx_free(c);
    xc_zstd_dctx_free(d);
    ZSTD_freeCCtx(zc);
    ZSTD_freeDCtx(zd);
    free(src);
    free(out);
    free(body);
#endif
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_dictionary),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_libzstd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
