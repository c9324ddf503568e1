/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd encoder: round trips through libzstd's decoder (when it is
 * there) and ours at every level, one-shot and streaming in random pieces
 * with random flushes; checksums, content sizes, pledged sizes; the bound on
 * incompressible data; destinations one byte too small, at a guard page;
 * parameter checks; and determinism: the same input and parameters give the
 * same frame from any context, one-shot or streamed with the size pledged,
 * and the test prints the XXH64 of fixed frames so that runs on different
 * tiers and ISAs can be compared line by line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"
#include "zstd_enc_test_util.h"
#include "zstd/common/xxh64.h"
#include "zstd/compress/compress_internal.h"

#define ERR(name) ((size_t)0 - (size_t)XC_ERROR_##name)

#define XC_EXPECTED_FRAMES_DIGEST 0x4cf57a6b41e06193ull

static uint64_t frame_hash(const uint8_t *p, size_t n) { return xc_xxh64(p, n, 0); }

/* ---- round trips ------------------------------------------------------------ */

static const size_t sizes[] = {0, 1, 7, 100, 3000, 40000, 300000};

static void test_levels_oneshot(void **state)
{
    (void)state;
    int quick = xc_test_quick();
    for (int level = xc_zstd_min_level(); level <= xc_zstd_max_level(); level++) {
        xc_zstd_cctx *c = zt_new_cctx(level);
        for (int k = 0; k < ZT_KINDS; k++) {
            for (size_t si = 0; si < XC_ARRAY_SIZE(sizes); si++) {
                size_t n = sizes[si];
                if (quick && n > 40000) continue;
                /* The optimal parsers are the slow ones; their large
                 * inputs are covered by the mixed kind. */
                if (level >= 17 && n > 40000 && k != ZT_MIXED) continue;
                uint8_t *src = zt_make((enum zt_kind)k, n, 1000 + (uint64_t)k * 7 + si);
                size_t fsize;
                uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
                char what[96];
                snprintf(what, sizeof what, "level %d, %s, %zu bytes", level, zt_kind_names[k], n);
                zt_check_decodes(frame, fsize, src, n, what);
                /* The header records the size by default. */
                assert_int_equal(xc_zstd_frame_content_size(frame, fsize), n);
                free(frame);
                free(src);
            }
        }
        xc_zstd_cctx_free(c);
    }
}

static void test_levels_stream(void **state)
{
    (void)state;
    int quick = xc_test_quick();
    static const size_t pieces[] = {1, 13, 1000, 70000, 0};
    for (int level = xc_zstd_min_level(); level <= xc_zstd_max_level(); level++) {
        xc_zstd_cctx *c = zt_new_cctx(level);
        for (int k = 0; k < ZT_KINDS; k++) {
            size_t n = quick ? 20000 + xc_rand_below(20000) : 50000 + xc_rand_below(300000);
            if (level >= 17 && n > 120000) n = 120000;
            uint8_t *src = zt_make((enum zt_kind)k, n, 77 + (uint64_t)k);
            size_t max_in = pieces[xc_rand_below(5)], max_out = pieces[xc_rand_below(5)];
            if (max_in == 1 && n > 30000) max_in = 13;
            if (max_out == 1 && n > 30000) max_out = 13;
            size_t fsize;
            uint8_t *frame = zt_compress_stream(c, src, n, max_in, max_out, 1, &fsize);
            char what[128];
            snprintf(what, sizeof what, "stream level %d, %s, %zu bytes, in<=%zu out<=%zu", level,
                     zt_kind_names[k], n, max_in, max_out);
            zt_check_decodes(frame, fsize, src, n, what);
            free(frame);
            free(src);
        }
        xc_zstd_cctx_free(c);
    }
}

/* Streams much larger than the window, so the window buffer slides many
 * times, with explicit small windows and the levels' own. */
static void test_stream_sliding(void **state)
{
    (void)state;
    size_t n = xc_test_quick() ? 600000 : 3000000;
    uint8_t *src = zt_make(ZT_MIXED, n, 4242);
    static const int wlogs[] = {10, 11, 14, 17, 0};
    static const int levels[] = {-3, 1, 2, 3, 4};
    for (size_t i = 0; i < XC_ARRAY_SIZE(wlogs); i++) {
        xc_zstd_cctx *c = zt_new_cctx(levels[i]);
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_WINDOW_LOG, wlogs[i]), 0);
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, 1), 0);
        size_t fsize;
        uint8_t *frame = zt_compress_stream(c, src, n, 100000, 0, 1, &fsize);
        zt_check_decodes(frame, fsize, src, n, "sliding stream");
        free(frame);
        /* One-shot with the same small window: matches stay in it. */
        frame = zt_compress_oneshot(c, src, n, &fsize);
        zt_check_decodes(frame, fsize, src, n, "small window one-shot");
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(src);
}

/* The fast levels on whole files: the shared corpus's when it is there,
 * and always an input made here in place of each, of the file's size and
 * kind (one byte repeated for aaa.txt), so that the same sizes and kinds
 * round trip in a clone without the data. */
static void corpus_round_trips(const uint8_t *src, size_t n, const char *what)
{
    static const int levels[] = {-5, -1, 1, 2, 3, 4};
    for (size_t l = 0; l < XC_ARRAY_SIZE(levels); l++) {
        xc_zstd_cctx *c = zt_new_cctx(levels[l]);
        size_t fsize;
        uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
        zt_check_decodes(frame, fsize, src, n, what);
        free(frame);
        xc_zstd_cctx_free(c);
    }
}

static void test_corpus(void **state)
{
    (void)state;
    const char *dir = xc_test_data_dir();
    /* ZT_KINDS stands for one byte repeated. */
    static const struct {
        const char *file;
        enum zt_kind kind;
        size_t size;
    } inputs[] = {{"corpus/canterbury/alice29.txt", ZT_TEXT, 152089},
                  {"corpus/canterbury/kennedy.xls", ZT_BINARY, 1029744},
                  {"corpus/canterbury/sum", ZT_MIXED, 38240},
                  {"corpus/calgary/obj2", ZT_BINARY, 246814},
                  {"corpus/snappy-testdata/fireworks.jpeg", ZT_RANDOM, 123093},
                  {"corpus/artificial/aaa.txt", ZT_KINDS, 100000}};
    size_t const cap = xc_test_quick() ? 200000 : SIZE_MAX;
    for (size_t f = 0; f < XC_ARRAY_SIZE(inputs); f++) {
        size_t n = XC_MIN(inputs[f].size, cap);
        char what[600];
        uint8_t *src = zt_malloc(n);
        if (inputs[f].kind == ZT_KINDS)
            memset(src, 'a', n);
        else
            zt_gen(inputs[f].kind, src, n, 600 + f);
        snprintf(what, sizeof what, "made in place of %s", inputs[f].file);
        corpus_round_trips(src, n, what);
        free(src);
        if (!dir) continue;
        snprintf(what, sizeof what, "%s/%s", dir, inputs[f].file);
        src = xc_read_file(what, &n);
        if (!src) continue;
        corpus_round_trips(src, XC_MIN(n, cap), inputs[f].file);
        free(src);
    }
}

/* ---- frame options ------------------------------------------------------------ */

static void test_checksum_and_size_flags(void **state)
{
    (void)state;
    size_t n = 100000;
    uint8_t *src = zt_make(ZT_TEXT, n, 5);
    for (int checksum = 0; checksum <= 1; checksum++) {
        for (int csize = 0; csize <= 1; csize++) {
            xc_zstd_cctx *c = zt_new_cctx(3);
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, checksum), 0);
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CONTENT_SIZE, csize), 0);
            size_t fsize;
            uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
            zt_check_decodes(frame, fsize, src, n, "flags");
            assert_int_equal(xc_zstd_frame_content_size(frame, fsize),
                             csize ? n : XC_ZSTD_CONTENTSIZE_UNKNOWN);
            /* Content_Checksum_Flag is bit 2 of the descriptor. */
            assert_int_equal((frame[4] >> 2) & 1, checksum);
#ifdef XC_HAVE_LIBZSTD
            assert_int_equal(ZSTD_getFrameContentSize(frame, fsize),
                             csize ? n : ZSTD_CONTENTSIZE_UNKNOWN);
            if (checksum) {
                /* A damaged checksum must be caught by libzstd. */
                uint8_t *out = zt_malloc(n);
                frame[fsize - 1] ^= 0x40;
                assert_true(ZSTD_isError(ZSTD_decompress(out, n, frame, fsize)));
                frame[fsize - 1] ^= 0x40;
                assert_int_equal(ZSTD_decompress(out, n, frame, fsize), n);
                free(out);
            }
#endif
            /* Streaming without a pledge: the size stays unknown. */
            free(frame);
            frame = zt_compress_stream(c, src, n, 7000, 0, 0, &fsize);
            zt_check_decodes(frame, fsize, src, n, "flags, streamed");
            assert_int_equal(xc_zstd_frame_content_size(frame, fsize),
                             XC_ZSTD_CONTENTSIZE_UNKNOWN);
            free(frame);
            xc_zstd_cctx_free(c);
        }
    }
    free(src);
}

static void test_pledged_size(void **state)
{
    (void)state;
    size_t n = 50000;
    uint8_t *src = zt_make(ZT_SOURCE, n, 9);
    xc_zstd_cctx *c = zt_new_cctx(1);
    size_t fsize;

    /* Exact: the header records it. */
    assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n), 0);
    uint8_t *frame = zt_compress_stream(c, src, n, 3000, 0, 1, &fsize);
    zt_check_decodes(frame, fsize, src, n, "pledged");
    assert_int_equal(xc_zstd_frame_content_size(frame, fsize), n);
    free(frame);
    /* The pledge applied to one frame only. */
    frame = zt_compress_stream(c, src, n, 3000, 0, 0, &fsize);
    assert_int_equal(xc_zstd_frame_content_size(frame, fsize), XC_ZSTD_CONTENTSIZE_UNKNOWN);
    free(frame);

    uint8_t *dst = zt_malloc(2 * n);
    /* More than pledged. */
    assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n - 1), 0);
    xc_in_buffer in = {src, n, 0};
    xc_out_buffer out = {dst, 2 * n, 0};
    assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE),
                     ERR(SRC_SIZE_WRONG));
    /* The context refuses work until it is reset. */
    assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END), ERR(STAGE_WRONG));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, 2), ERR(STAGE_WRONG));
    assert_int_equal(xc_zstd_cctx_reset(c), 0);

    /* Less than pledged, found at the end. */
    assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n + 1), 0);
    in.pos = 0;
    out.pos = 0;
    size_t r = xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE);
    assert_false(xc_is_error(r));
    assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END), ERR(SRC_SIZE_WRONG));
    assert_int_equal(xc_zstd_cctx_reset(c), 0);

    /* A pledge of 0 and an empty frame. */
    assert_int_equal(xc_zstd_cctx_set_pledged_size(c, 0), 0);
    in.size = in.pos = 0;
    out.pos = 0;
    assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END), 0);
    zt_check_decodes(dst, out.pos, src, 0, "empty pledged");
    assert_int_equal(xc_zstd_frame_content_size(dst, out.pos), 0);

    /* After all that, the context works as new. */
    frame = zt_compress_oneshot(c, src, n, &fsize);
    zt_check_decodes(frame, fsize, src, n, "after errors");
    free(frame);
    free(dst);
    xc_zstd_cctx_free(c);
    free(src);
}

/* ---- bounds and destinations ------------------------------------------------------- */

static void test_bound_incompressible(void **state)
{
    (void)state;
    static const size_t ns[] = {0, 1, 5, 6, 7, 100, 131071, 131072, 131073, 400000, 1000000};
    static const int levels[] = {-7, -1, 1, 3, 4, 22};
    for (size_t i = 0; i < XC_ARRAY_SIZE(ns); i++) {
        size_t n = ns[i];
        uint8_t *src = zt_make(ZT_RANDOM, n, 31 + i);
        size_t bound = xc_zstd_compress_bound(n);
        for (size_t l = 0; l < XC_ARRAY_SIZE(levels); l++) {
            uint8_t *dst = xc_guard_alloc(bound);
            assert_non_null(dst);
            for (int ck = 0; ck <= 1; ck++) {
                xc_zstd_cctx *c = zt_new_cctx(levels[l]);
                assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, ck), 0);
                size_t r = xc_zstd_compress_cctx(c, dst, bound, src, n);
                assert_false(xc_is_error(r));
                assert_true(r <= bound);
                zt_check_decodes(dst, r, src, n, "incompressible");
                xc_zstd_cctx_free(c);
            }
            xc_guard_free(dst);
        }
        free(src);
    }
    assert_true(xc_is_error(xc_zstd_compress_bound(SIZE_MAX)));
    assert_true(xc_is_error(xc_zstd_compress_bound(SIZE_MAX / 2 + 1)));
}

/* A destination exactly the frame's size works and gives the same bytes;
 * one byte less fails with DST_TOO_SMALL without touching the guard page
 * right after it. */
static void test_dst_too_small(void **state)
{
    (void)state;
    static const size_t ns[] = {0, 10, 1000, 70000, 300000};
    for (size_t i = 0; i < XC_ARRAY_SIZE(ns); i++) {
        for (int k = 0; k < ZT_KINDS; k++) {
            size_t n = ns[i];
            uint8_t *src = zt_make((enum zt_kind)k, n, 500 + i);
            int level = (int)xc_rand_below(12) - 7;
            xc_zstd_cctx *c = zt_new_cctx(level);
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, (int)(i & 1)), 0);
            size_t fsize;
            uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
            uint8_t *exact = xc_guard_alloc(fsize);
            assert_int_equal(xc_zstd_compress_cctx(c, exact, fsize, src, n), fsize);
            assert_memory_equal(exact, frame, fsize);
            xc_guard_free(exact);
            uint8_t *small = xc_guard_alloc(fsize - 1);
            assert_int_equal(xc_zstd_compress_cctx(c, small, fsize - 1, src, n),
                             ERR(DST_TOO_SMALL));
            xc_guard_free(small);
            /* The public one-shot entry point too (no checksum there). */
            uint8_t *plain = zt_malloc(xc_zstd_compress_bound(n));
            size_t psize = xc_zstd_compress(plain, xc_zstd_compress_bound(n), src, n, level);
            assert_false(xc_is_error(psize));
            small = xc_guard_alloc(psize - 1);
            assert_int_equal(xc_zstd_compress(small, psize - 1, src, n, level),
                             ERR(DST_TOO_SMALL));
            xc_guard_free(small);
            free(plain);
            /* And the context still works. */
            size_t again;
            uint8_t *frame2 = zt_compress_oneshot(c, src, n, &again);
            assert_int_equal(again, fsize);
            assert_memory_equal(frame2, frame, fsize);
            free(frame2);
            free(frame);
            xc_zstd_cctx_free(c);
            free(src);
        }
    }
}

/* ---- parameters -------------------------------------------------------------------- */

static void test_bad_parameters(void **state)
{
    (void)state;
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_min_level(), -7);
    assert_int_equal(xc_zstd_max_level(), 22);
    assert_int_equal(xc_zstd_default_level(), 3);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, xc_zstd_min_level() - 1),
                     ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, 23), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_WINDOW_LOG, 9), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_WINDOW_LOG, 32), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_HASH_LOG, 5), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_HASH_LOG, 31), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHAIN_LOG, 31), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_SEARCH_LOG, 31), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_MIN_MATCH, 2), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_MIN_MATCH, 8), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_TARGET_LENGTH, -1), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_TARGET_LENGTH, 131073), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_STRATEGY, 10), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, 2), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CONTENT_SIZE, -1), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_DICT_ID, 3), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, (xc_zstd_cparam)999, 1), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_compress(NULL, 0, "", 0, 23), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_compress(NULL, 0, "", 0, -8), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(NULL, XC_ZSTD_C_LEVEL, 1), ERR(BAD_PARAMETER));

    /* In the middle of a streamed frame, parameters and one-shot calls
     * wait; a reset ends the frame. */
    uint8_t buf[64], dst[256];
    memset(buf, 'x', sizeof buf);
    xc_in_buffer in = {buf, sizeof buf, 0};
    xc_out_buffer out = {dst, sizeof dst, 0};
    assert_false(xc_is_error(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE)));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, 1), ERR(STAGE_WRONG));
    assert_int_equal(xc_zstd_cctx_set_pledged_size(c, 5), ERR(STAGE_WRONG));
    assert_int_equal(xc_zstd_compress_cctx(c, dst, sizeof dst, buf, sizeof buf), ERR(STAGE_WRONG));
    assert_int_equal(xc_zstd_compress_stream(c, &out, &in, (xc_zstd_end_op)7), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_reset(c), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, 1), 0);
    size_t r = xc_zstd_compress_cctx(c, dst, sizeof dst, buf, sizeof buf);
    assert_false(xc_is_error(r));
    zt_check_decodes(dst, r, buf, sizeof buf, "after reset");
    xc_zstd_cctx_free(c);
    xc_zstd_cctx_free(NULL);
}

/* Explicit parameters across their ranges still make valid frames. */
static void test_explicit_parameters(void **state)
{
    (void)state;
    size_t n = xc_test_quick() ? 60000 : 200000;
    uint8_t *src = zt_make(ZT_MIXED, n, 99);
    for (int iter = 0; iter < (xc_test_quick() ? 20 : 80); iter++) {
        xc_zstd_cctx *c = zt_new_cctx((int)xc_rand_below(30) - 7);
        if (xc_rand_below(2))
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_WINDOW_LOG, 10 + (int)xc_rand_below(12)), 0);
        if (xc_rand_below(2))
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_HASH_LOG, 6 + (int)xc_rand_below(16)), 0);
        if (xc_rand_below(2))
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHAIN_LOG, 6 + (int)xc_rand_below(16)), 0);
        if (xc_rand_below(2))
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_SEARCH_LOG, 1 + (int)xc_rand_below(8)), 0);
        if (xc_rand_below(2))
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_MIN_MATCH, 3 + (int)xc_rand_below(5)), 0);
        if (xc_rand_below(2))
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_TARGET_LENGTH, (int)xc_rand_below(300)), 0);
        if (xc_rand_below(2))
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_STRATEGY, 1 + (int)xc_rand_below(9)), 0);
        size_t m = xc_rand_below((uint32_t)n);
        size_t fsize;
        uint8_t *frame = zt_compress_oneshot(c, src, m, &fsize);
        zt_check_decodes(frame, fsize, src, m, "explicit parameters");
        free(frame);
        frame = zt_compress_stream(c, src, m, 20000, 0, 1, &fsize);
        zt_check_decodes(frame, fsize, src, m, "explicit parameters, streamed");
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(src);
}

/* ---- determinism -------------------------------------------------------------------- */

/* The same input and parameters give the same frame: from a fresh context,
 * from one that compressed other data before, and streamed with the size
 * pledged (in any pieces, without flushes).  The hashes printed here are
 * compared across tiers and ISAs by the CI. */
/* Lengths above 65535, which the sequence store keeps in 16 bits plus a
 * note of the one sequence per block that needs more (compress_seqstore.h):
 * a block whose first sequence has 80000 literals, and one whose match
 * covers 100000 bytes.  Each frame's last block is the one checked. */
static void test_long_lengths(void **state)
{
    (void)state;
    size_t const block = 131072;
    uint8_t *const src = zt_malloc(2 * block);
    static const int levels[] = {-5, 1, 3, 5, 9, 13, 16, 19};
    for (int kind = 0; kind < 2; kind++) {
        xc_rand_fill(src, 2 * block);
        uint8_t *const b = src + block;
        size_t n;
        if (kind == 0) {
            /* The second block: 80000 literals, then 20000 bytes of them again. */
            memcpy(b + 80000, b, 20000);
            n = block + 100000;
        } else {
            /* The second block: the first block again, 100000 bytes of it. */
            memcpy(b, src, 100000);
            n = block + 100000;
        }
        for (size_t l = 0; l < XC_ARRAY_SIZE(levels); l++) {
            xc_zstd_cctx *c = zt_new_cctx(levels[l]);
            size_t fsize;
            uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
            zt_check_decodes(frame, fsize, src, n, kind ? "long match" : "long literals");
            assert_true(fsize + (kind ? 90000 : 15000) < n);
            /* The literal run is the block's only sequence where the levels
             * below the optimal parsers leave random bytes alone. */
            if (kind == 1 || levels[l] < 13) {
                assert_non_null(c->ss.long_seq);
                assert_int_equal(c->ss.long_ml, kind);
            }
            free(frame);
            xc_zstd_cctx_free(c);
        }
    }
    free(src);
}

static void test_determinism(void **state)
{
    (void)state;
    /* Sizes in each of libzstd's parameter classes: above 256 KiB, up to
     * 256 KiB (level 4: greedy over rows), up to 16 KiB (hash chains). */
    static const size_t ns[] = {400000, 200000, 12000};
    /* Every strategy: fast, dfast, greedy, lazy, lazy2, btlazy2, btopt,
     * btultra, btultra2 (and level 22's long-distance matching on the
     * sizes where it applies). */
    static const int levels[] = {-7, -5, -1, 1, 2, 3, 4, 5, 6, 9, 13, 16, 18, 19, 22};
    /* The XXH64 of the 45 frames' XXH64s.  Every tier and ISA (x64 portable
     * to avx512, Arm64, big-endian s390x) runs this test, so a match finder
     * or entropy coder whose output depends on the CPU fails here.  A
     * deliberate change to what the encoder writes changes this value:
     * update it then, from the printed "# frames digest" line. */
    static const uint64_t expected_digest = XC_EXPECTED_FRAMES_DIGEST;
    uint64_t hashes[3 * XC_ARRAY_SIZE(levels)];
    size_t nhashes = 0;
    uint8_t *other = zt_make(ZT_TEXT, 150000, 7);
    for (size_t i = 0; i < XC_ARRAY_SIZE(ns); i++) {
        size_t n = ns[i];
        uint8_t *src = zt_make(ZT_MIXED, n, 2024 + i);
        for (size_t l = 0; l < XC_ARRAY_SIZE(levels); l++) {
            xc_zstd_cctx *fresh = zt_new_cctx(levels[l]);
            xc_zstd_cctx *used = zt_new_cctx(levels[l]);
            size_t a, b, s, junk;
            /* The reused context has run other levels and strategies, whose
             * tables it keeps. */
            for (int k = 0; k < 3; k++) {
                assert_int_equal(xc_zstd_cctx_set(used, XC_ZSTD_C_LEVEL, 1 + k * 2), 0);
                free(zt_compress_oneshot(used, other, 150000 >> (2 * k), &junk));
            }
            assert_int_equal(xc_zstd_cctx_set(used, XC_ZSTD_C_LEVEL, levels[l]), 0);
            free(zt_compress_oneshot(used, src, 1000, &junk));
            uint8_t *fa = zt_compress_oneshot(fresh, src, n, &a);
            uint8_t *fb = zt_compress_oneshot(used, src, n, &b);
            assert_int_equal(a, b);
            assert_memory_equal(fa, fb, a);
            assert_int_equal(xc_zstd_cctx_set_pledged_size(used, n), 0);
            uint8_t *fs = zt_compress_stream(used, src, n, 1 + xc_rand_below(50000), 0, 0, &s);
            assert_int_equal(a, s);
            assert_memory_equal(fa, fs, a);
            printf("# frame level %d: %zu -> %zu bytes, xxh64 %016llx\n", levels[l], n, a,
                   (unsigned long long)frame_hash(fa, a));
            if (nhashes < XC_ARRAY_SIZE(hashes)) hashes[nhashes++] = frame_hash(fa, a);
            free(fa);
            free(fb);
            free(fs);
            xc_zstd_cctx_free(fresh);
            xc_zstd_cctx_free(used);
        }
        free(src);
    }
    free(other);
    uint8_t bytes[sizeof hashes];
    for (size_t i = 0; i < nhashes; i++) xc_write_le64(bytes + 8 * i, hashes[i]);
    uint64_t digest = xc_xxh64(bytes, 8 * nhashes, 0);
    printf("# frames digest %016llx\n", (unsigned long long)digest);
    assert_int_equal(nhashes, XC_ARRAY_SIZE(hashes));
    assert_true(digest == expected_digest);
}

static void test_impl_name(void **state)
{
    (void)state;
    const char *name = xc_impl_name("zstd_encode");
    assert_non_null(name);
    printf("# zstd_encode: %s\n", name);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_impl_name),
        cmocka_unit_test(test_bad_parameters),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_long_lengths),
        cmocka_unit_test(test_levels_oneshot),
        cmocka_unit_test(test_levels_stream),
        cmocka_unit_test(test_stream_sliding),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_checksum_and_size_flags),
        cmocka_unit_test(test_pledged_size),
        cmocka_unit_test(test_bound_incompressible),
        cmocka_unit_test(test_dst_too_small),
        cmocka_unit_test(test_explicit_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
