/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The searching match finders (greedy, lazy, lazy2 over hash chains and
 * rows, btlazy2 over binary trees): both compiled copies of every variant
 * (plain, and SIMD row tags: SSE2 on x64, NEON on Arm64) give the same
 * frame byte for byte; streamed frames whose window buffer slides (which
 * rebases and rotates the chain and tree tables) decode; levels 5..15 round
 * trip on corpus files; and the fill functions make history placed before a
 * frame (a dictionary) findable: libzstd decodes the frame with that
 * history as its prefix, and the frame is smaller than without it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"
#include "zstd/compress/compress_internal.h"
#include "zstd_enc_test_util.h"
#include "zstd/compress/compress_kernels.h"
#include "zstd_variant_test_util.h"

/* Every finder instance, in every ISA variant this CPU runs: the same
 * frame. */
static void test_copies_agree(void **state)
{
    (void)state;
    if (!zt_encoder_variant(1)) {
        printf("# one ISA variant on this CPU: nothing to compare\n");
        return;
    }
    size_t const n = zt_scaled(400000);
    uint8_t *src = zt_make(ZT_MIXED, n, 77);
    /* Window 14: hash chains (greedy..lazy2) and trees; 18: rows, whose
     * width follows the search log (16, 32, 64 cells). */
    static const int wlogs[] = {14, 18};
    static const int slogs[] = {2, 5, 6};
    for (int strat = XC_ZSTRAT_GREEDY; strat <= XC_ZSTRAT_BTLAZY2; strat++)
        for (size_t w = 0; w < XC_ARRAY_SIZE(wlogs); w++)
            for (int mml = 4; mml <= 6; mml++) {
                int const slog = slogs[(size_t)(strat + mml) % XC_ARRAY_SIZE(slogs)];
                const struct xc_zstd_ckernels *k;
                uint8_t *ref = NULL;
                size_t ref_size = 0;
                for (size_t v = 0; (k = zt_encoder_variant(v)) != NULL; v++) {
                    size_t size;
                    xc_zstd_cctx *c = zt_new_cctx(9);
                    c->kern = k;
                    zt_set(c, XC_ZSTD_C_STRATEGY, strat);
                    zt_set(c, XC_ZSTD_C_WINDOW_LOG, wlogs[w]);
                    zt_set(c, XC_ZSTD_C_SEARCH_LOG, slog);
                    zt_set(c, XC_ZSTD_C_MIN_MATCH, mml);
                    uint8_t *frame = zt_compress_oneshot(c, src, n, &size);
                    xc_zstd_cctx_free(c);
                    if (v == 0) {
                        ref = frame;
                        ref_size = size;
                        continue;
                    }
                    if (size != ref_size || memcmp(frame, ref, size) != 0) {
                        print_error("strategy %d wlog %d mml %d slog %d: variant %zu differs\n",
                                    strat, wlogs[w], mml, slog, v);
                        fail();
                    }
                    free(frame);
                }
                zt_check_decodes(ref, ref_size, src, n, "copies");
                free(ref);
            }
    free(src);
}

/* Streams larger than the window buffer slide it: indices drop, chain and
 * tree tables rotate to match. */
static void test_sliding(void **state)
{
    (void)state;
    size_t const n = xc_test_quick() ? 2400000 : 3200000;
    uint8_t *src = zt_make(ZT_MIXED, n, 4243);
    /* A slide moves the data by 2 MiB here; chains and trees of more than
     * 2^21 positions then need rotating with the indices, or the
     * positions inside the window would be linked wrongly. */
    static const struct {
        int strat, wlog, slog, clog;
    } cases[] = {
        {XC_ZSTRAT_BTLAZY2, 15, 3, 23}, {XC_ZSTRAT_LAZY, 14, 2, 0},   {XC_ZSTRAT_GREEDY, 14, 3, 0},
        {XC_ZSTRAT_BTLAZY2, 12, 2, 0},  {XC_ZSTRAT_LAZY2, 17, 4, 0},
    };
    for (size_t i = 0; i < XC_ARRAY_SIZE(cases); i++) {
        if (xc_test_quick() && i % 2) continue;
        xc_zstd_cctx *c = zt_new_cctx(12);
        zt_set(c, XC_ZSTD_C_STRATEGY, cases[i].strat);
        zt_set(c, XC_ZSTD_C_WINDOW_LOG, cases[i].wlog);
        zt_set(c, XC_ZSTD_C_SEARCH_LOG, cases[i].slog);
        zt_set(c, XC_ZSTD_C_CHAIN_LOG, cases[i].clog);
        zt_set(c, XC_ZSTD_C_CHECKSUM, 1);
        size_t fsize;
        uint8_t *frame = zt_compress_pieces(c, src, n, 300000, &fsize);
        zt_check_decodes(frame, fsize, src, n, "sliding stream");
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(src);
}

/* Levels 5..15, one-shot and streamed, on one input. */
static void levels_round_trip(const uint8_t *src, size_t n)
{
    static const int levels[] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    for (size_t l = 0; l < XC_ARRAY_SIZE(levels); l++) {
        if (xc_test_quick() && l % 3) continue;
        xc_zstd_cctx *c = zt_new_cctx(levels[l]);
        size_t fsize;
        uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
        zt_check_decodes(frame, fsize, src, n, "level one-shot");
        free(frame);
        frame = zt_compress_pieces(c, src, n, 50000, &fsize);
        zt_check_decodes(frame, fsize, src, n, "level streamed");
        free(frame);
        xc_zstd_cctx_free(c);
    }
}

/* Levels 5..15 on a mixed input, on an input made here in place of each
 * of three files of the shared corpus (text, an object file, one byte
 * repeated), of its size, and on those files too when the data is
 * there. */
static void test_levels(void **state)
{
    (void)state;
    const char *dir = xc_test_data_dir();
    /* ZT_KINDS stands for one byte repeated. */
    static const struct {
        const char *file;
        enum zt_kind kind;
        size_t size;
    } inputs[] = {{NULL, ZT_MIXED, 300000},
                  {"corpus/canterbury/alice29.txt", ZT_TEXT, 152089},
                  {"corpus/calgary/obj2", ZT_BINARY, 246814},
                  {"corpus/artificial/aaa.txt", ZT_KINDS, 100000}};
    for (size_t f = 0; f < XC_ARRAY_SIZE(inputs); f++) {
        size_t n = inputs[f].file ? inputs[f].size : zt_scaled(inputs[f].size);
        if (xc_test_quick() && n > 60000) n = 60000;
        uint8_t *src = zt_malloc(n);
        if (inputs[f].kind == ZT_KINDS)
            memset(src, 'a', n);
        else
            zt_gen(inputs[f].kind, src, n, 5 + f);
        levels_round_trip(src, n);
        free(src);
        if (!inputs[f].file || !dir) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, inputs[f].file);
        src = xc_read_file(path, &n);
        if (!src) continue;
        if (xc_test_quick() && n > 60000) n = 60000;
        levels_round_trip(src, n);
        free(src);
    }
}

/* A context that ran other frames (whose entries it keeps in its tables)
 * writes the same frame as a fresh one. */
static void test_reuse(void **state)
{
    (void)state;
    size_t const n = zt_scaled(300000);
    uint8_t *src = zt_make(ZT_MIXED, n, 31);
    uint8_t *other = zt_make(ZT_TEXT, n, 32);
    static const int levels[] = {5, 7, 9, 13, 15};
    for (size_t l = 0; l < XC_ARRAY_SIZE(levels); l++) {
        xc_zstd_cctx *fresh = xc_zstd_cctx_new(), *used = xc_zstd_cctx_new();
        assert_non_null(fresh);
        assert_non_null(used);
        size_t a, b, junk;
        for (int k = 0; k < 3; k++) {
            zt_set(used, XC_ZSTD_C_LEVEL, k == 2 ? levels[l] : 15 - 4 * k);
            free(zt_compress_oneshot(used, other, n >> k, &junk));
        }
        zt_set(fresh, XC_ZSTD_C_LEVEL, levels[l]);
        uint8_t *fa = zt_compress_oneshot(fresh, src, n, &a);
        uint8_t *fb = zt_compress_oneshot(used, src, n, &b);
        assert_int_equal(a, b);
        assert_memory_equal(fa, fb, a);
        free(fa);
        free(fb);
        xc_zstd_cctx_free(fresh);
        xc_zstd_cctx_free(used);
    }
    free(src);
    free(other);
}

#ifdef XC_HAVE_LIBZSTD
/* Compresses buf[hist..n) as a frame whose history is buf[0..hist) (when
 * fill is set, inserted with the fill function first). */
static uint8_t *with_history(int strat, int wlog, const uint8_t *buf, size_t hist, size_t n,
                             int fill, size_t *fsize)
{
    xc_zstd_cctx *c = zt_new_cctx(9);
    zt_set(c, XC_ZSTD_C_STRATEGY, strat);
    zt_set(c, XC_ZSTD_C_WINDOW_LOG, wlog);
    zt_set(c, XC_ZSTD_C_CONTENT_SIZE, 0);
    xc_zstd_cparams const p = xc_zstd_cframe_params(c, XC_ZSTD_SIZE_UNKNOWN);
    assert_int_equal(xc_zstd_cframe_begin(c, &p, buf, n), 0);
    if (fill) xc_zstd_fill_search(&c->ms, buf + hist);
    size_t const cap = xc_zstd_compress_bound(n) + 64;
    uint8_t *dst = zt_malloc(cap);
    size_t pos = xc_zstd_write_frame_header(c, dst, cap, XC_ZSTD_SIZE_UNKNOWN);
    assert_false(xc_is_error(pos));
    for (size_t at = hist; at < n;) {
        size_t const len = XC_MIN(c->block_max, n - at);
        size_t const r = xc_zstd_compress_block(c, dst + pos, cap - pos, buf + at, len, at + len == n);
        assert_false(xc_is_error(r));
        pos += r;
        at += len;
    }
    xc_zstd_cctx_free(c);
    *fsize = pos;
    return dst;
}
#endif

/* History before the frame's first byte, inserted by the fill functions,
 * is found: libzstd decodes with it as the prefix, and it pays. */
static void test_fill(void **state)
{
    (void)state;
#ifdef XC_HAVE_LIBZSTD
    size_t const hist = zt_scaled(200000), body = zt_scaled(100000), n = hist + body;
    uint8_t *buf = zt_make(ZT_TEXT, n, 99);
    /* The body repeats pieces of the history, so the history pays. */
    for (size_t i = 0; i + 1000 <= body; i += 3000) memcpy(buf + hist + i, buf + (i * 7) % hist, 1000);
    static const struct {
        int strat, wlog;
    } cases[] = {
        {XC_ZSTRAT_GREEDY, 19}, {XC_ZSTRAT_LAZY, 19}, {XC_ZSTRAT_LAZY2, 19},
        {XC_ZSTRAT_BTLAZY2, 19}, {XC_ZSTRAT_GREEDY, 14}, {XC_ZSTRAT_LAZY2, 14},
    };
    uint8_t *out = zt_malloc(body + 1);
    for (size_t i = 0; i < XC_ARRAY_SIZE(cases); i++) {
        size_t with, without;
        uint8_t *f1 = with_history(cases[i].strat, cases[i].wlog, buf, hist, n, 1, &with);
        uint8_t *f0 = with_history(cases[i].strat, cases[i].wlog, buf, hist, n, 0, &without);
        ZSTD_DCtx *d = ZSTD_createDCtx();
        assert_non_null(d);
        for (int k = 0; k < 2; k++) {
            /* A window of 2^14 only reaches the history's last 16 KiB. */
            size_t const pre = cases[i].wlog < 18 ? (size_t)1 << cases[i].wlog : hist;
            assert_false(ZSTD_isError(ZSTD_DCtx_refPrefix(d, buf + hist - pre, pre)));
            size_t const r = ZSTD_decompressDCtx(d, out, body + 1, k ? f1 : f0, k ? with : without);
            if (ZSTD_isError(r) || r != body || memcmp(out, buf + hist, body) != 0) {
                print_error("case %zu fill %d: %s\n", i, k,
                            ZSTD_isError(r) ? ZSTD_getErrorName(r) : "wrong content");
                fail();
            }
        }
        printf("# strategy %d wlog %d: %zu bytes with the history filled, %zu without\n",
               cases[i].strat, cases[i].wlog, with, without);
        assert_true(with < without);
        ZSTD_freeDCtx(d);
        free(f0);
        free(f1);
    }
    free(out);
    free(buf);
#else
    printf("# no libzstd: history fill not checked\n");
#endif
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copies_agree),
        cmocka_unit_test(test_sliding),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_reuse),
        cmocka_unit_test(test_fill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
