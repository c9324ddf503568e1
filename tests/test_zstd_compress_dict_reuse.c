/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd compression with dictionaries, one context across many frames: with
 * the dictionary's state carried from frame to frame (the tables put back
 * after each frame, compress_dict.c), or interrupted by frames without
 * it or with another one, streamed and flushed frames, and failed frames,
 * it must write exactly what a fresh context writes.  The other dictionary
 * tests are in test_zstd_compress_dict.c.
 */
#include "xc_internal.h"
#include "zstd/dict/cdict.h"
#include "zstd_enc_test_util.h"
#include "zstd_test_frames.h"

/* A context that carries a dictionary's state from frame to frame writes
 * what a fresh one writes, also after frames without it, with another
 * one, streamed frames, and a failed frame. */
static void test_reuse(void **state)
{
    (void)state;
    enum { COUNT = 24, CAP = 1024 };
    static const int lv[] = {1, 3, 6};
    size_t sizes[COUNT], total, dsize, esize;
    uint8_t *src = zt_json_records(COUNT, 5, sizes, &total);
    uint8_t *dict = zt_raw_dict(&dsize);
    const uint8_t *edict = zt_embedded_json_dict(&esize);
    uint8_t *got = zt_malloc(CAP), *want = zt_malloc(CAP);
    for (size_t li = 0; li < sizeof lv / sizeof lv[0]; li++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, lv[li]);
        xc_zstd_cdict *other = xc_zstd_cdict_new(edict, esize, lv[li]);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_true(cd && other && c);
        size_t off = 0;
        for (size_t i = 0; i < COUNT; i++) {
            const uint8_t *rec = src + off;
            size_t const n = sizes[i];
            off += n;
            /* Something in between, now and then. */
            switch (i % 6) {
            case 1:
                assert_int_equal(xc_zstd_cctx_ref_cdict(c, NULL), 0);
                assert_false(xc_is_error(xc_zstd_compress_cctx(c, got, CAP, rec, n)));
                break;
            case 2:
                assert_int_equal(xc_zstd_cctx_ref_cdict(c, other), 0);
                assert_false(xc_is_error(xc_zstd_compress_cctx(c, got, CAP, rec, n)));
                break;
            case 3:
                assert_int_equal(xc_error_code(xc_zstd_compress_cctx(c, got, 10, rec, n)),
                                 XC_ERROR_DST_TOO_SMALL);
                break;
            default: break;
            }
            assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
            size_t g;
            if (i % 4 == 3) {
                /* Streamed in two pieces. */
                xc_out_buffer out = {got, CAP, 0};
                xc_in_buffer in = {rec, n / 2, 0};
                assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE), 0);
                in.size = n;
                assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END), 0);
                g = out.pos;
                /* Unknown size: compare with a fresh stream. */
                xc_zstd_cctx *f = xc_zstd_cctx_new();
                assert_int_equal(xc_zstd_cctx_ref_cdict(f, cd), 0);
                xc_out_buffer fo = {want, CAP, 0};
                xc_in_buffer fi = {rec, n / 2, 0};
                assert_int_equal(xc_zstd_compress_stream(f, &fo, &fi, XC_ZSTD_E_CONTINUE), 0);
                fi.size = n;
                assert_int_equal(xc_zstd_compress_stream(f, &fo, &fi, XC_ZSTD_E_END), 0);
                assert_int_equal(g, fo.pos);
                xc_zstd_cctx_free(f);
            } else {
                g = xc_zstd_compress_cctx(c, got, CAP, rec, n);
                xc_zstd_cctx *f = xc_zstd_cctx_new();
                assert_int_equal(xc_zstd_cctx_ref_cdict(f, cd), 0);
                size_t const w = xc_zstd_compress_cctx(f, want, CAP, rec, n);
                assert_int_equal(g, w);
                xc_zstd_cctx_free(f);
            }
            assert_false(xc_is_error(g));
            assert_memory_equal(got, want, g);
            zt_check_dict_frame(dict, dsize, got, g, rec, n, 0);
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
        xc_zstd_cdict_free(other);
    }
    free(src);
    free(dict);
    free(got);
    free(want);
}

/* A fresh context set up as the reused one in test_reuse_search: mode 0
 * refers to the cdict, 1 loads the dictionary with a 16 KiB window, 2
 * refers to the cdict with a 32 KiB window (smaller than the content). */
static xc_zstd_cctx *search_ctx(int level, int mode, const xc_zstd_cdict *cd,
                                const uint8_t *dict, size_t dsize)
{
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level), 0);
    if (mode)
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_WINDOW_LOG, mode == 1 ? 14 : 15), 0);
    if (mode == 1)
        assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, dsize), 0);
    else
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
    return c;
}

/* Compresses in[0..n) as a stream flushed halfway; returns the size. */
static size_t flushed_frame(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *in,
                            size_t n)
{
    xc_out_buffer out = {dst, cap, 0};
    xc_in_buffer part = {in, n / 2, 0};
    assert_int_equal(xc_zstd_compress_stream(c, &out, &part, XC_ZSTD_E_FLUSH), 0);
    part.size = n;
    assert_int_equal(xc_zstd_compress_stream(c, &out, &part, XC_ZSTD_E_END), 0);
    return out.pos;
}

/* The searching strategies put back only the table rows a small frame
 * touched: many inputs in a row through one context must give what a fresh
 * context gives, with a prepared dictionary and with a loaded one under a
 * 16 KiB window; among them inputs with a long run (one row takes more
 * positions than it has cells, and the finder skips most of the run),
 * inputs too large to restore, frames that fail after a block was
 * compressed, and frames without the dictionary.  Levels 4..15 with a
 * dictionary of about 11 KiB and one of about 90 KiB cover greedy, lazy,
 * lazy2 with rows of 16, 32 and 64 cells, btlazy2 and btopt. */
static void test_reuse_search(void **state)
{
    (void)state;
    enum { COUNT = 36, CAP = 16384, BIG_DICT = 300 };
    size_t sizes[COUNT], total, dsize, dsizes[BIG_DICT];
    uint8_t *src = zt_json_records(COUNT, 11, sizes, &total);
    uint8_t *in = zt_malloc(CAP), *got = zt_malloc(CAP), *want = zt_malloc(CAP);
    size_t const count = xc_test_quick() ? 10 : COUNT;
    for (int k = 0; k < 24; k++) {
        int const big = k / 12, level = 4 + k % 12;
        uint8_t *dict = big ? zt_json_records(BIG_DICT, 13, dsizes, &dsize) : zt_raw_dict(&dsize);
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, level);
        assert_non_null(cd);
        for (int mode = 0; mode < 3; mode++) {
            xc_zstd_cctx *c = search_ctx(level, mode, cd, dict, dsize);
            size_t off = 0;
            for (size_t i = 0; i < count; i++) {
                size_t n = sizes[i];
                memcpy(in, src + off, n);
                off += n;
                if (i % 5 == 2) {
                    memset(in + n, ' ', 700);
                    memcpy(in + n + 700, src, sizes[0]);
                    n += 700 + sizes[0];
                } else if (i % 7 == 4) {
                    n = XC_MIN(total, (size_t)CAP / 2);
                    memcpy(in, src, n);
                }
                if (i % 6 == 5) {
                    /* A frame that fails after compressing a block. */
                    xc_out_buffer out = {got, CAP, 0};
                    xc_in_buffer part = {in, n / 2, 0};
                    assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n + 1), 0);
                    assert_false(
                        xc_is_error(xc_zstd_compress_stream(c, &out, &part, XC_ZSTD_E_FLUSH)));
                    part.size = n;
                    assert_int_equal(
                        xc_error_code(xc_zstd_compress_stream(c, &out, &part, XC_ZSTD_E_END)),
                        XC_ERROR_SRC_SIZE_WRONG);
                    assert_int_equal(xc_zstd_cctx_reset(c), 0);
                } else if (i % 8 == 7) {
                    assert_int_equal(xc_zstd_cctx_ref_cdict(c, NULL), 0);
                    assert_false(xc_is_error(xc_zstd_compress_cctx(c, got, CAP, in, n)));
                    if (mode == 1)
                        assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, dsize), 0);
                    else
                        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
                }
                xc_zstd_cctx *f = search_ctx(level, mode, cd, dict, dsize);
                size_t g, w;
                if (i % 5 == 3) {
                    /* Two blocks. */
                    g = flushed_frame(c, got, CAP, in, n);
                    w = flushed_frame(f, want, CAP, in, n);
                } else {
                    g = xc_zstd_compress_cctx(c, got, CAP, in, n);
                    w = xc_zstd_compress_cctx(f, want, CAP, in, n);
                }
                xc_zstd_cctx_free(f);
                if (g != w)
                    print_error("dict %zu level %d window %d input %zu: %zu bytes, fresh %zu\n",
                                dsize, level, mode, i, g, w);
                assert_false(xc_is_error(g));
                assert_int_equal(g, w);
                assert_memory_equal(got, want, g);
                if (i % 4 == 0) zt_check_dict_frame(dict, dsize, got, g, in, n, 0);
                /* Tables marked as the dictionary's by the frame just
                 * written must be exactly that. */
                if (c->held_tables_key == c->cdict->key && c->held_tables_frame == c->frame_no)
                    assert_memory_equal(c->tables, c->cdict->tables,
                                        c->cdict->table_words * sizeof(uint32_t));
            }
            xc_zstd_cctx_free(c);
        }
        xc_zstd_cdict_free(cd);
        free(dict);
    }
    free(src);
    free(in);
    free(got);
    free(want);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse),
        cmocka_unit_test(test_reuse_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
