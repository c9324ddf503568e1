/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xc_zstd_finalize_dictionary(): given content becomes a zstd-format
 * dictionary that this library and libzstd load, whose tables make small
 * records smaller than the raw content does, with the ID asked for, and
 * with the content inside the destination (at its end) as libzstd's
 * callers place it.
 */
#include "zstd_test_util.h"

enum { COUNT = 300 };

static void test_finalize(void **state)
{
    (void)state;
    size_t sizes[COUNT], total;
    uint8_t *samples = zt_json_records(COUNT, 9, sizes, &total);
    /* Content: a run of the samples themselves. */
    size_t const n = 8000;
    assert_true(total > n);
    const uint8_t *content = samples + total - n;
    size_t const cap = 12000;
    uint8_t *dict = zt_malloc(cap);
    size_t const d = xc_zstd_finalize_dictionary(dict, cap, content, n, samples, sizes, COUNT, 0);
    assert_false(xc_is_error(d));
    assert_true(d > n && d <= cap);
    assert_memory_equal(dict + d - n, content, n);
    xc_zstd_ddict *first = xc_zstd_ddict_new(dict, d);
    assert_non_null(first);
    unsigned const id = xc_zstd_ddict_id(first);
    assert_true(id >= 32768 && id < (1u << 31));
    xc_zstd_ddict_free(first);

    /* Frames with it, and with the raw content alone: the tables pay. */
    xc_zstd_cdict *formatted = xc_zstd_cdict_new(dict, d, 3);
    xc_zstd_cdict *raw = xc_zstd_cdict_new(content, n, 3);
    xc_zstd_dctx *dx = xc_zstd_dctx_new();
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_true(formatted && raw && dx && c);
    assert_int_equal(xc_zstd_dctx_load_dictionary(dx, dict, d), 0);
    size_t with = 0, without = 0, off = 0;
#ifdef XC_HAVE_LIBZSTD
    ZSTD_DCtx *zd = ZSTD_createDCtx();
#endif
    uint8_t frame[4096], back[4096];
    for (size_t i = 0; i < 100; i++) {
        const uint8_t *rec = samples + off;
        off += sizes[i];
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, formatted), 0);
        size_t const f = xc_zstd_compress_cctx(c, frame, sizeof frame, rec, sizes[i]);
        assert_false(xc_is_error(f));
        with += f;
        assert_int_equal(xc_zstd_decompress_dctx(dx, back, sizeof back, frame, f), sizes[i]);
        assert_memory_equal(back, rec, sizes[i]);
#ifdef XC_HAVE_LIBZSTD
        size_t const z = ZSTD_decompress_usingDict(zd, back, sizeof back, frame, f, dict, d);
        assert_int_equal(z, sizes[i]);
#endif
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, raw), 0);
        without += xc_zstd_compress_cctx(c, frame, sizeof frame, rec, sizes[i]);
    }
    assert_true(with < without);
#ifdef XC_HAVE_LIBZSTD
    ZSTD_freeDCtx(zd);
#endif

    /* An ID of the caller's, and the content already at dict's end. */
    uint8_t *inplace = zt_malloc(cap);
    memcpy(inplace + cap - n, content, n);
    size_t const d2 = xc_zstd_finalize_dictionary(inplace, cap, inplace + cap - n, n, samples,
                                                  sizes, COUNT, 4242);
    assert_false(xc_is_error(d2));
    assert_memory_equal(inplace + d2 - n, content, n);
    xc_zstd_ddict *dd = xc_zstd_ddict_new(inplace, d2);
    assert_non_null(dd);
    assert_int_equal(xc_zstd_ddict_id(dd), 4242);
#ifdef XC_HAVE_LIBZSTD
    assert_int_equal(ZDICT_getDictID(inplace, d2), 4242);
    assert_false(ZSTD_isError(ZDICT_getDictHeaderSize(inplace, d2)));
    ZSTD_CDict *zc = ZSTD_createCDict(inplace, d2, 3);
    assert_non_null(zc);
    ZSTD_freeCDict(zc);
#endif
    /* A destination smaller than the content keeps the content's end. */
    size_t const d3 = xc_zstd_finalize_dictionary(dict, 3000, content, n, samples, sizes, COUNT, 0);
    assert_int_equal(d3, 3000);
    assert_memory_equal(dict + 3000 - 1000, content + n - 1000, 1000);
    /* Errors. */
    assert_int_equal(xc_error_code(xc_zstd_finalize_dictionary(dict, cap, content, n, samples,
                                                               sizes, 0, 0)),
                     XC_ERROR_TOO_FEW_SAMPLES);
    assert_int_equal(xc_error_code(xc_zstd_finalize_dictionary(dict, cap, content, 4, samples,
                                                               sizes, COUNT, 0)),
                     XC_ERROR_SAMPLES_TOO_SMALL);
    assert_int_equal(xc_error_code(xc_zstd_finalize_dictionary(dict, 100, content, n, samples,
                                                               sizes, COUNT, 0)),
                     XC_ERROR_DST_TOO_SMALL);
    assert_int_equal(xc_error_code(xc_zstd_finalize_dictionary(NULL, cap, content, n, samples,
                                                               sizes, COUNT, 0)),
                     XC_ERROR_BAD_PARAMETER);
    xc_zstd_ddict_free(dd);
    xc_zstd_cdict_free(formatted);
    xc_zstd_cdict_free(raw);
    xc_zstd_dctx_free(dx);
    xc_zstd_cctx_free(c);
    free(inplace);
    free(dict);
    free(samples);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finalize),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
