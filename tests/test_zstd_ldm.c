/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Long-distance matching and the context's memory.
 *
 * - A repeat 100 MB apart (1 MB of random bytes, 100 MB of other random
 *   bytes, the first megabyte again) costs about one copy less with long
 *   distance matching, and nothing less without it; the frames decode with
 *   libzstd and ours, one-shot and streamed.  (Natively only: under qemu
 *   the same shape at 6 MB.)
 * - Smaller inputs with repeats beyond the ordinary finders' reach, at
 *   several levels and with every LDM setting varied: round trips one-shot
 *   and streamed (small windows, so the stream buffer slides and the LDM
 *   table is rebased), the same frame from a fresh or a used context, with
 *   and without the BMI2 copies of the finders, with a dictionary, and the
 *   settings' checks.
 * - xc_zstd_estimate_cctx_size() equals what a context holds after a frame
 *   of unknown size at every level, and after real one-shot frames; the
 *   table beside libzstd's ZSTD_estimateCCtxSize() is printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"
#include "portable/kernels.h"
#include "zstd/compress/compress_internal.h"
#include "zstd_enc_test_util.h"

#define ERR(name) ((size_t)0 - (size_t)XC_ERROR_##name)

/* ---- helpers -------------------------------------------------------------- */

/* The decoders' window limit raised as far as it goes, so that the limit
 * plays no part in what these frames test. */
static void check_decodes(const uint8_t *frame, size_t fsize, const uint8_t *want, size_t n,
                          const char *what)
{
    zt_check_decodes_ex(frame, fsize, want, n, 31, NULL, 0, what);
}

/* a (far random bytes), gap bytes of other content, a again, and a tail. */
static uint8_t *far_repeat(size_t a, size_t gap, enum zt_kind gap_kind, size_t *n, uint64_t seed)
{
    size_t const tail = 1000;
    *n = 2 * a + gap + tail;
    uint8_t *p = zt_malloc(*n);
    zt_gen(ZT_RANDOM, p, a, seed);
    zt_gen(gap_kind, p + a, gap, seed + 1);
    memcpy(p + a + gap, p, a);
    zt_gen(ZT_TEXT, p + 2 * a + gap, tail, seed + 2);
    return p;
}

/* ---- the far repeat -------------------------------------------------------- */

static void test_far_repeat(void **state)
{
    (void)state;
    /* 1 MB, 100 MB apart (window 2^27); under qemu 256 KB, 6 MB apart. */
    int const quick = xc_test_quick();
    size_t const a = quick ? (256u << 10) : (1u << 20);
    size_t const gap = quick ? (6u << 20) : (100u << 20);
    size_t n;
    uint8_t *src = far_repeat(a, gap, ZT_RANDOM, &n, 99);

    xc_zstd_cctx *c = zt_new_cctx(1);
    size_t plain_size;
    uint8_t *plain = zt_compress_oneshot(c, src, n, &plain_size);
    free(plain);

    zt_set(c, XC_ZSTD_C_LONG_DISTANCE, 1);
    size_t ldm_size;
    uint8_t *ldm = zt_compress_oneshot(c, src, n, &ldm_size);
    printf("# far repeat: %zu bytes; without LDM %zu, with %zu\n", n, plain_size, ldm_size);
    /* Random bytes do not compress: without LDM the frame is about the
     * input, with it one copy of a less (give or take a few KB). */
    assert_true(plain_size > n - a / 16);
    assert_true(ldm_size < n - a + a / 16);
    check_decodes(ldm, ldm_size, src, n, "far repeat one-shot");
    free(ldm);

    /* Streamed without a pledged size: the window is 2^27 as set. */
    size_t st_size;
    uint8_t *st = zt_compress_stream(c, src, n, 3u << 20, 0, 0, &st_size);
    printf("# far repeat streamed: %zu\n", st_size);
    assert_true(st_size < n - a + a / 16);
    check_decodes(st, st_size, src, n, "far repeat streamed");
    free(st);
    xc_zstd_cctx_free(c);
    free(src);
}

/* ---- smaller round trips ------------------------------------------------------ */

typedef struct {
    int level, wlog, hash_log, min_match, bucket_log, rate_log;
} ldm_case;

static const ldm_case cases[] = {
    {1, 0, 0, 0, 0, 0},     {3, 0, 0, 0, 0, 0},      {-3, 22, 0, 0, 0, 0},
    {5, 23, 0, 0, 0, 0},    {9, 0, 0, 0, 0, 0},      {13, 22, 0, 0, 0, 0},
    {16, 22, 0, 0, 0, 0},   {19, 22, 0, 0, 0, 0},    {3, 22, 12, 4, 1, 0},
    {3, 22, 16, 16, 8, 4},  {4, 22, 20, 200, 2, 9},  {1, 22, 6, 4096, 1, 25},
    {2, 17, 14, 32, 4, 2},  {6, 12, 10, 8, 3, 3},    {12, 21, 18, 64, 5, 1},
};

static xc_zstd_cctx *ldm_cctx(const ldm_case *k)
{
    xc_zstd_cctx *c = zt_new_cctx(k->level);
    zt_set(c, XC_ZSTD_C_LONG_DISTANCE, 1);
    zt_set(c, XC_ZSTD_C_WINDOW_LOG, k->wlog);
    zt_set(c, XC_ZSTD_C_LDM_HASH_LOG, k->hash_log);
    zt_set(c, XC_ZSTD_C_LDM_MIN_MATCH, k->min_match);
    zt_set(c, XC_ZSTD_C_LDM_BUCKET_LOG, k->bucket_log);
    zt_set(c, XC_ZSTD_C_LDM_HASH_RATE_LOG, k->rate_log);
    zt_set(c, XC_ZSTD_C_CHECKSUM, 1);
    return c;
}

static void test_round_trips(void **state)
{
    (void)state;
    int const quick = xc_test_quick();
    size_t n_fast, n_slow;
    /* Repeats 1 or 2 MB apart in mixed content, beyond every level's own
     * search but inside windows of 2^21 and up; smaller for the slow
     * levels. */
    uint8_t *fast = far_repeat(quick ? 60000 : 300000, quick ? (1u << 20) : (2u << 20),
                               ZT_MIXED, &n_fast, 7);
    uint8_t *slow = far_repeat(quick ? 20000 : 60000, 1u << 20, ZT_MIXED, &n_slow, 8);
    for (size_t i = 0; i < XC_ARRAY_SIZE(cases); i++) {
        if (quick && i % 3) continue;
        const ldm_case *k = &cases[i];
        const uint8_t *src = k->level >= 13 ? slow : fast;
        size_t const n = k->level >= 13 ? n_slow : n_fast;
        char what[96];
        snprintf(what, sizeof what, "case %zu (level %d, window %d)", i, k->level, k->wlog);
        xc_zstd_cctx *c = ldm_cctx(k);
        size_t fsize, f2;
        uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
        check_decodes(frame, fsize, src, n, what);
        /* The same frame again from the used context. */
        uint8_t *again = zt_compress_oneshot(c, src, n, &f2);
        assert_int_equal(f2, fsize);
        assert_memory_equal(again, frame, fsize);
        free(again);
        /* Streamed in odd pieces; with small windows the buffer slides. */
        uint8_t *st = zt_compress_stream(c, src, n, 50001, 0, 0, &f2);
        check_decodes(st, f2, src, n, what);
        free(st);
        /* With the portable finders: the same frame. */
        c->kern = &xc_zstd_encode_portable;
        again = zt_compress_oneshot(c, src, n, &f2);
        assert_int_equal(f2, fsize);
        assert_memory_equal(again, frame, fsize);
        free(again);
        printf("# %s: %zu -> %zu\n", what, n, fsize);
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(fast);
    free(slow);
}

/* Random bytes repeated 2 MB later, text between them: level 1 (window
 * 2^19) cannot see the copy, level 1 with LDM and a 2^22 window takes it. */
static void test_gain(void **state)
{
    (void)state;
    size_t n;
    uint8_t *src = far_repeat(200000, 2u << 20, ZT_TEXT, &n, 11);
    size_t sizes[2];
    for (int on = 0; on < 2; on++) {
        xc_zstd_cctx *c = zt_new_cctx(1);
        zt_set(c, XC_ZSTD_C_WINDOW_LOG, on ? 22 : 0);
        zt_set(c, XC_ZSTD_C_LONG_DISTANCE, on ? 1 : 2);
        uint8_t *f = zt_compress_oneshot(c, src, n, &sizes[on]);
        check_decodes(f, sizes[on], src, n, on ? "gain, ldm" : "gain, no ldm");
        free(f);
        xc_zstd_cctx_free(c);
    }
    printf("# gain: %zu bytes; without LDM %zu, with %zu\n", n, sizes[0], sizes[1]);
    assert_true(sizes[1] + 190000 < sizes[0]);
    free(src);
}

/* Content where every position repeats (runs, short periods) must not
 * make the matcher slow or wrong. */
static void test_runs_and_small(void **state)
{
    (void)state;
    static const size_t lens[] = {0, 1, 7, 100, 5000, 300000};
    ldm_case const k = {3, 20, 10, 4, 1, 0};
    xc_zstd_cctx *c = ldm_cctx(&k);
    for (size_t i = 0; i < XC_ARRAY_SIZE(lens); i++) {
        for (int kind = 0; kind < ZT_KINDS; kind++) {
            size_t const n = lens[i];
            uint8_t *src = zt_make((enum zt_kind)kind, n, 500 + i);
            if (n > 1000 && kind == 0) memset(src, 'x', n);
            size_t fsize;
            uint8_t *f = zt_compress_oneshot(c, src, n, &fsize);
            check_decodes(f, fsize, src, n, "runs/small");
            free(f);
            f = zt_compress_stream(c, src, n, 777, 0, 0, &fsize);
            check_decodes(f, fsize, src, n, "runs/small streamed");
            free(f);
            free(src);
        }
    }
    xc_zstd_cctx_free(c);
}

/* With a dictionary (raw content placed before the frame): the frames
 * decode with it, and a used context gives the same frames as a new one. */
static void test_dictionary(void **state)
{
    (void)state;
    size_t n;
    uint8_t *src = far_repeat(50000, 300000, ZT_SOURCE, &n, 21);
    uint8_t *dict = zt_make(ZT_TEXT, 20000, 22);
    size_t sizes[3];
    uint8_t *frames[3];
    xc_zstd_cctx *used = NULL;
    for (int i = 0; i < 3; i++) {
        xc_zstd_cctx *c = i == 2 ? used : xc_zstd_cctx_new();
        assert_non_null(c);
        zt_set(c, XC_ZSTD_C_LEVEL, 3);
        zt_set(c, XC_ZSTD_C_LONG_DISTANCE, 1);
        zt_set(c, XC_ZSTD_C_LDM_MIN_MATCH, 16);
        assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, 20000), 0);
        frames[i] = zt_compress_oneshot(c, src, n, &sizes[i]);
        if (i == 0) {
            xc_zstd_cctx_free(c);
        } else if (i == 1) {
            /* Another frame in between, without the dictionary. */
            used = c;
            assert_int_equal(xc_zstd_cctx_load_dictionary(c, NULL, 0), 0);
            size_t f;
            free(zt_compress_oneshot(c, src, n / 2, &f));
        } else {
            xc_zstd_cctx_free(c);
        }
    }
    assert_int_equal(sizes[0], sizes[1]);
    assert_int_equal(sizes[0], sizes[2]);
    assert_memory_equal(frames[0], frames[1], sizes[0]);
    assert_memory_equal(frames[0], frames[2], sizes[0]);
    uint8_t *out = zt_malloc(n);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, 20000), 0);
    assert_int_equal(xc_zstd_decompress_dctx(d, out, n, frames[0], sizes[0]), n);
    assert_memory_equal(out, src, n);
    xc_zstd_dctx_free(d);
#ifdef XC_HAVE_LIBZSTD
    ZSTD_DCtx *z = ZSTD_createDCtx();
    assert_non_null(z);
    assert_false(ZSTD_isError(ZSTD_DCtx_loadDictionary(z, dict, 20000)));
    assert_int_equal(ZSTD_decompressDCtx(z, out, n, frames[0], sizes[0]), n);
    assert_memory_equal(out, src, n);
    ZSTD_freeDCtx(z);
#endif
    free(out);
    for (int i = 0; i < 3; i++) free(frames[i]);
    free(dict);
    free(src);
}

static void test_settings(void **state)
{
    (void)state;
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LONG_DISTANCE, 3), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LONG_DISTANCE, -1), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LDM_HASH_LOG, 5), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LDM_HASH_LOG, 31), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LDM_MIN_MATCH, 3), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LDM_MIN_MATCH, 4097), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LDM_BUCKET_LOG, 9), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LDM_HASH_RATE_LOG, 26), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LDM_HASH_RATE_LOG, -1), ERR(BAD_PARAMETER));
    for (int v = 0; v <= 2; v++) zt_set(c, XC_ZSTD_C_LONG_DISTANCE, v);
    zt_set(c, XC_ZSTD_C_LDM_HASH_LOG, 30);
    zt_set(c, XC_ZSTD_C_LDM_MIN_MATCH, 4096);
    zt_set(c, XC_ZSTD_C_LDM_BUCKET_LOG, 8);
    zt_set(c, XC_ZSTD_C_LDM_HASH_RATE_LOG, 25);

    /* On: the window goes to 2^27 unless set, then shrinks to the input. */
    zt_set(c, XC_ZSTD_C_LDM_HASH_LOG, 0);
    zt_set(c, XC_ZSTD_C_LONG_DISTANCE, 1);
    assert_int_equal(xc_zstd_cframe_params(c, XC_ZSTD_SIZE_UNKNOWN).window_log, 27);
    assert_int_equal(xc_zstd_cframe_params(c, 5000).window_log, 13);
    zt_set(c, XC_ZSTD_C_WINDOW_LOG, 24);
    assert_int_equal(xc_zstd_cframe_params(c, XC_ZSTD_SIZE_UNKNOWN).window_log, 24);
    xc_zstd_cctx_free(c);
}

/* ---- memory ------------------------------------------------------------------- */

static void test_estimate(void **state)
{
    (void)state;
    assert_int_equal(xc_zstd_estimate_cctx_size(xc_zstd_min_level() - 1), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_estimate_cctx_size(xc_zstd_max_level() + 1), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_estimate_cctx_size(0), xc_zstd_estimate_cctx_size(3));
    static uint8_t buf[64];
    printf("# level   xcodec KiB  libzstd KiB\n");
    for (int level = xc_zstd_min_level(); level <= xc_zstd_max_level(); level++) {
        size_t const est = xc_zstd_estimate_cctx_size(level);
        assert_false(xc_is_error(est));
        /* A frame of unknown size, begun as streaming and one-shot frames
         * begin (without the stream buffers). */
        xc_zstd_cctx *c = zt_new_cctx(level);
        xc_zstd_cparams const p = xc_zstd_cframe_params(c, XC_ZSTD_SIZE_UNKNOWN);
        assert_int_equal(xc_zstd_cframe_begin(c, &p, buf, sizeof buf), 0);
        size_t const held = xc_zstd_cctx_mem_held(c);
        if (held != est) {
            print_error("level %d: estimate %zu, held %zu\n", level, est, held);
            fail();
        }
        xc_zstd_cctx_free(c);
#ifdef XC_HAVE_LIBZSTD
        printf("# %5d %12zu %12zu\n", level, est >> 10, ZSTD_estimateCCtxSize(level) >> 10);
#else
        printf("# %5d %12zu\n", level, est >> 10);
#endif
    }

    /* Real one-shot frames of an input larger than the fast levels'
     * windows: their parameters are the unknown-size ones. */
    size_t const n = xc_test_quick() ? (1u << 20) : (3u << 20);
    uint8_t *src = zt_make(ZT_MIXED, n, 3);
    for (int level = xc_zstd_min_level(); level <= 2; level++) {
        xc_zstd_cctx *c = zt_new_cctx(level);
        xc_zstd_cparams const pu = xc_zstd_cframe_params(c, XC_ZSTD_SIZE_UNKNOWN);
        xc_zstd_cparams const pn = xc_zstd_cframe_params(c, n);
        size_t fsize;
        uint8_t *f = zt_compress_oneshot(c, src, n, &fsize);
        free(f);
        if (memcmp(&pu, &pn, sizeof pu) == 0)
            assert_int_equal(xc_zstd_cctx_mem_held(c), xc_zstd_estimate_cctx_size(level));
        else
            assert_true(xc_zstd_cctx_mem_held(c) <= xc_zstd_estimate_cctx_size(level));
        xc_zstd_cctx_free(c);
    }
    free(src);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_estimate),
        cmocka_unit_test(test_gain),
        cmocka_unit_test(test_runs_and_small),
        cmocka_unit_test(test_dictionary),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_far_repeat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
