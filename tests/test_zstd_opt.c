/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The optimal parsers (btopt, btultra, btultra2) beyond the per-level
 * round trips of test_zstd_compress.c: streams whose window buffer slides
 * (the binary tree is rotated along with the indices), contexts reused
 * for several frames (indices continue, statistics restart), history
 * inserted ahead of a frame with xc_zstd_fill_bt_opt() (as a dictionary
 * is), and inputs that stress the parse (long repetitions, 3-byte
 * matches, matches reaching the block's end).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"
#include "zstd_enc_test_util.h"
#include "zstd/compress/compress_internal.h"

/* A context at `level`, with a window and a strategy unless 0. */
static xc_zstd_cctx *new_cctx(int level, int wlog, int strategy)
{
    xc_zstd_cctx *c = zt_new_cctx(level);
    if (wlog) zt_set(c, XC_ZSTD_C_WINDOW_LOG, wlog);
    if (strategy) zt_set(c, XC_ZSTD_C_STRATEGY, strategy);
    return c;
}

/* A window of 128 KiB over a stream several times larger: the buffer
 * slides, and every slide moves the tree with the indices. */
static void test_sliding_stream(void **state)
{
    (void)state;
    size_t const n = xc_test_quick() ? 400000 : 1200000;
    uint8_t *src = zt_make(ZT_MIXED, n, 515);
    static const int levels[] = {16, 18, 19};
    for (size_t i = 0; i < XC_ARRAY_SIZE(levels); i++) {
        xc_zstd_cctx *c = new_cctx(levels[i], 17, 0);
        size_t fsize;
        uint8_t *frame = zt_compress_pieces(c, src, n, 50000, &fsize);
        zt_check_decodes(frame, fsize, src, n, "sliding stream");
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(src);
}

/* One context, several frames of each strategy: every frame equals the
 * one a fresh context makes (no state leaks between frames). */
static void test_reuse(void **state)
{
    (void)state;
    size_t const n = xc_test_quick() ? 30000 : 150000;
    static const int strategies[] = {XC_ZSTRAT_BTOPT, XC_ZSTRAT_BTULTRA, XC_ZSTRAT_BTULTRA2};
    static const enum zt_kind kinds[] = {ZT_TEXT, ZT_BINARY, ZT_RUNS, ZT_SOURCE};
    for (size_t s = 0; s < XC_ARRAY_SIZE(strategies); s++) {
        xc_zstd_cctx *reused = new_cctx(16, 0, strategies[s]);
        for (size_t k = 0; k < XC_ARRAY_SIZE(kinds); k++) {
            uint8_t *src = zt_make(kinds[k], n, 31 + k);
            xc_zstd_cctx *fresh = new_cctx(16, 0, strategies[s]);
            size_t f1, f2;
            uint8_t *a = zt_compress_oneshot(reused, src, n, &f1);
            uint8_t *b = zt_compress_oneshot(fresh, src, n, &f2);
            zt_check_decodes(a, f1, src, n, "reused context");
            assert_int_equal(f1, f2);
            assert_memory_equal(a, b, f1);
            free(a);
            free(b);
            free(src);
            xc_zstd_cctx_free(fresh);
        }
        xc_zstd_cctx_free(reused);
    }
}

/* Inputs that stress the parse: one byte repeated, a short period, a
 * random alphabet of four letters (many 3-byte matches), and a long repeat
 * of random data, with each optimal strategy and min_match 3 and 6. */
static void test_patterns(void **state)
{
    (void)state;
    size_t const n = xc_test_quick() ? 50000 : 200000;
    uint8_t *src = zt_malloc(n);
    uint64_t seed = 77;
    for (int pat = 0; pat < 4; pat++) {
        for (size_t i = 0; i < n; i++) {
            switch (pat) {
            case 0: src[i] = 'a'; break;
            case 1: src[i] = (uint8_t)"abcabd"[i % 6]; break;
            case 2: src[i] = (uint8_t)"ACGT"[zt_below(&seed, 4)]; break;
            default: src[i] = i < n / 2 ? (uint8_t)zt_next(&seed) : src[i - n / 2 + 7]; break;
            }
        }
        static const int levels[] = {16, 19, 18, 22};
        for (size_t li = 0; li < (xc_test_quick() ? 2u : XC_ARRAY_SIZE(levels)); li++) {
            int const level = levels[li];
            for (int mm = 3; mm <= 6; mm += 3) {
                xc_zstd_cctx *c = new_cctx(level, 0, 0);
                assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_MIN_MATCH, mm), 0);
                size_t fsize;
                uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
                char what[64];
                snprintf(what, sizeof what, "pattern %d level %d min_match %d", pat, level, mm);
                zt_check_decodes(frame, fsize, src, n, what);
                /* Half of pattern 3 is random; the rest repeats. */
                if (pat < 2) assert_true(fsize < n / 64);
                if (pat == 3) assert_true(fsize < n / 2 + n / 64);
                free(frame);
                xc_zstd_cctx_free(c);
            }
        }
    }
    free(src);
}

/* History inserted with xc_zstd_fill_bt_opt() before the frame's first
 * byte is matched: the frame decodes with that history as a prefix and is
 * much smaller than without it. */
static void test_fill(void **state)
{
    (void)state;
#ifdef XC_HAVE_LIBZSTD
    size_t const d = 60000, n = xc_test_quick() ? 40000 : 200000;
    uint8_t *buf = zt_malloc(d + n);
    zt_gen(ZT_SOURCE, buf, d, 8);
    /* The content repeats pieces of the history with edits. */
    uint64_t seed = 5;
    for (size_t i = 0; i < n;) {
        size_t len = XC_MIN((size_t)(50 + zt_below(&seed, 2000)), n - i);
        size_t from = zt_below(&seed, (uint32_t)(d - 2100));
        memcpy(buf + d + i, buf + from, len);
        buf[d + i] ^= 1;
        i += len;
    }
    static const int strategies[] = {XC_ZSTRAT_BTOPT, XC_ZSTRAT_BTULTRA, XC_ZSTRAT_BTULTRA2};
    for (size_t s = 0; s < XC_ARRAY_SIZE(strategies); s++) {
        xc_zstd_cctx *c = new_cctx(19, 0, strategies[s]);
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CONTENT_SIZE, 0), 0);
        xc_zstd_cparams p = xc_zstd_cframe_params(c, d + n);
        assert_int_equal(xc_zstd_cframe_begin(c, &p, buf, d + n), 0);
        xc_zstd_fill_bt_opt(&c->ms, buf + d);
        size_t cap = xc_zstd_compress_bound(n) + 64;
        uint8_t *frame = zt_malloc(cap);
        size_t pos = xc_zstd_write_frame_header(c, frame, cap, XC_ZSTD_SIZE_UNKNOWN);
        assert_false(xc_is_error(pos));
        for (size_t off = 0; off < n;) {
            size_t const b = XC_MIN(c->block_max, n - off);
            size_t const r =
                xc_zstd_compress_block(c, frame + pos, cap - pos, buf + d + off, b, off + b == n);
            assert_false(xc_is_error(r));
            pos += r;
            off += b;
        }
        zt_check_decodes_ex(frame, pos, buf + d, n, 0, buf, d,
                            "history from xc_zstd_fill_bt_opt");
        size_t alone;
        uint8_t *plain = zt_compress_oneshot(c, buf + d, n, &alone);
        assert_true(pos * 2 < alone);
        free(plain);
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(buf);
#else
    (void)state;
    skip();
#endif
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sliding_stream),
        cmocka_unit_test(test_reuse),
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_fill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
