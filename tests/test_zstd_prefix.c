/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prefixes (xc_zstd_cctx_ref_prefix, xc_zstd_dctx_ref_prefix), frame
 * header details (xc_zstd_get_frame_info, xc_zstd_frame_header_size) and
 * streaming progress (xc_zstd_cctx_progress).  Prefixed frames go both
 * ways through libzstd's ZSTD_CCtx_refPrefix / ZSTD_DCtx_refPrefix, and
 * must be smaller than the same input without the prefix (a test that
 * the prefix was used at all).
 */
#include "zstd_test_util.h"

enum { PREFIX = 48 << 10, INPUT = 40 << 10 };

/* An input that repeats most of the prefix: without the prefix it
 * compresses like text, with it to a few hundred bytes. */
static void make_pair(uint8_t **prefix, uint8_t **input)
{
    *prefix = zt_make(ZT_TEXT, PREFIX, 11);
    *input = zt_malloc(INPUT);
    memcpy(*input, *prefix + 1000, INPUT - 100);
    zt_gen_text(*input + INPUT - 100, 100, 12);
}

static size_t oneshot(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *src, size_t n)
{
    size_t const r = xc_zstd_compress_cctx(c, dst, cap, src, n);
    assert_false(xc_is_error(r));
    return r;
}

static void test_prefix_roundtrip(void **state)
{
    (void)state;
    uint8_t *prefix, *input;
    make_pair(&prefix, &input);
    size_t const cap = xc_zstd_compress_bound(INPUT);
    uint8_t *frame = zt_malloc(cap), *plain = zt_malloc(cap), *back = zt_malloc(INPUT);
    static const int levels[] = {-1, 1, 3, 5, 9, 16, 19};
    for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        xc_zstd_dctx *d = xc_zstd_dctx_new();
        assert_non_null(c);
        assert_non_null(d);
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, levels[li]), 0);
        size_t const without = oneshot(c, plain, cap, input, INPUT);
        assert_int_equal(xc_zstd_cctx_ref_prefix(c, prefix, PREFIX), 0);
        size_t const with = oneshot(c, frame, cap, input, INPUT);
        assert_true(with * 4 < without);
        /* The prefix served one frame: the next is as without it. */
        assert_int_equal(oneshot(c, plain, cap, input, INPUT), without);

        /* Our decoder: without the prefix the frame cannot decode. */
        assert_true(xc_is_error(xc_zstd_decompress_dctx(d, back, INPUT, frame, with)));
        assert_int_equal(xc_zstd_dctx_ref_prefix(d, prefix, PREFIX), 0);
        assert_int_equal(xc_zstd_decompress_dctx(d, back, INPUT, frame, with), INPUT);
        assert_memory_equal(back, input, INPUT);
        /* ... and once only. */
        assert_true(xc_is_error(xc_zstd_decompress_dctx(d, back, INPUT, frame, with)));
        /* Streaming, in small pieces. */
        assert_int_equal(xc_zstd_dctx_reset(d), 0);
        assert_int_equal(xc_zstd_dctx_ref_prefix(d, prefix, PREFIX), 0);
        zt_chunking const ch = {777, 1000};
        zt_stream_result sr = zt_stream_decode(d, back, INPUT, frame, with, ch);
        assert_true(sr.complete);
        assert_int_equal(sr.result, INPUT);
        assert_memory_equal(back, input, INPUT);
#ifdef XC_HAVE_LIBZSTD
        ZSTD_DCtx *zd = ZSTD_createDCtx();
        assert_int_equal(ZSTD_DCtx_refPrefix(zd, prefix, PREFIX), 0);
        size_t const z = ZSTD_decompressDCtx(zd, back, INPUT, frame, with);
        assert_false(ZSTD_isError(z));
        assert_int_equal(z, INPUT);
        assert_memory_equal(back, input, INPUT);
        /* libzstd's prefixed frame through ours. */
        ZSTD_CCtx *zc = ZSTD_createCCtx();
        assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(zc, ZSTD_c_compressionLevel, levels[li])));
        assert_int_equal(ZSTD_CCtx_refPrefix(zc, prefix, PREFIX), 0);
        size_t const zn = ZSTD_compress2(zc, frame, cap, input, INPUT);
        assert_false(ZSTD_isError(zn));
        assert_int_equal(xc_zstd_dctx_ref_prefix(d, prefix, PREFIX), 0);
        assert_int_equal(xc_zstd_decompress_dctx(d, back, INPUT, frame, zn), INPUT);
        assert_memory_equal(back, input, INPUT);
        ZSTD_freeCCtx(zc);
        ZSTD_freeDCtx(zd);
#endif
        xc_zstd_cctx_free(c);
        xc_zstd_dctx_free(d);
    }
    free(prefix);
    free(input);
    free(frame);
    free(plain);
    free(back);
}

/* Streamed with a prefix, over a dictionary that the prefix replaces. */
static void test_prefix_stream(void **state)
{
    (void)state;
    uint8_t *prefix, *input;
    make_pair(&prefix, &input);
    size_t const cap = xc_zstd_compress_bound(INPUT) + 1024;
    uint8_t *frame = zt_malloc(cap), *back = zt_malloc(INPUT);
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_int_equal(xc_zstd_cctx_load_dictionary(c, prefix + 5000, 4000), 0);
    assert_int_equal(xc_zstd_cctx_ref_prefix(c, prefix, PREFIX), 0);
    xc_out_buffer out = {frame, cap, 0};
    size_t fed = 0;
    size_t r = 1;
    while (fed < INPUT) {
        size_t const n = (INPUT - fed < 3000 ? INPUT - fed : 3000);
        xc_in_buffer in = {input + fed, n, 0};
        r = xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE);
        assert_false(xc_is_error(r));
        assert_int_equal(in.pos, n);
        fed += n;
    }
    xc_in_buffer none = {NULL, 0, 0};
    assert_int_equal(xc_zstd_compress_stream(c, &out, &none, XC_ZSTD_E_END), 0);
    assert_true(out.pos < 2000);
    assert_int_equal(xc_zstd_frame_dict_id(frame, out.pos), 0);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_int_equal(xc_zstd_dctx_ref_prefix(d, prefix, PREFIX), 0);
    assert_int_equal(xc_zstd_decompress_dctx(d, back, INPUT, frame, out.pos), INPUT);
    assert_memory_equal(back, input, INPUT);
    /* The dictionary is gone for good. */
    size_t const next = xc_zstd_compress_cctx(c, frame, cap, input, INPUT);
    assert_int_equal(xc_zstd_decompress(back, INPUT, frame, next), INPUT);
    /* Errors. */
    assert_int_equal(xc_error_code(xc_zstd_cctx_ref_prefix(NULL, prefix, 1)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_cctx_ref_prefix(c, NULL, 1)), XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_dctx_ref_prefix(d, NULL, 1)), XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_zstd_cctx_ref_prefix(c, NULL, 0), 0);
    xc_zstd_cctx_free(c);
    xc_zstd_dctx_free(d);
    free(prefix);
    free(input);
    free(frame);
    free(back);
}

static void test_frame_info(void **state)
{
    (void)state;
    uint8_t src[3000];
    zt_gen_text(src, sizeof src, 5);
    uint8_t frame[4096];
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, 1), 0);
    size_t const n = oneshot(c, frame, sizeof frame, src, sizeof src);
    xc_zstd_frame_info fi;
    assert_int_equal(xc_zstd_get_frame_info(&fi, frame, n), 0);
    assert_int_equal(fi.content_size, sizeof src);
    assert_int_equal(fi.checksum, 1);
    assert_int_equal(fi.skippable, 0);
    assert_int_equal(fi.dict_id, 0);
    assert_true(fi.window_size >= sizeof src);
    assert_int_equal(fi.header_size, xc_zstd_frame_header_size(frame, n));
    /* Too short: the bytes needed, growing as the header reveals itself. */
    assert_int_equal(xc_zstd_get_frame_info(&fi, frame, 2), 4);
    assert_int_equal(xc_zstd_get_frame_info(&fi, frame, 4), 5);
    size_t const hs = xc_zstd_frame_header_size(frame, n);
    assert_int_equal(xc_zstd_get_frame_info(&fi, frame, hs - 1), hs);
    assert_int_equal(xc_error_code(xc_zstd_frame_header_size(frame, 4)), XC_ERROR_TRUNCATED);
    /* Streamed, unknown size: a window descriptor and no content size. */
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, 0), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_WINDOW_LOG, 20), 0);
    xc_out_buffer out = {frame, sizeof frame, 0};
    xc_in_buffer in = {src, sizeof src, 0};
    assert_false(xc_is_error(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_FLUSH)));
    assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END), 0);
    assert_int_equal(xc_zstd_get_frame_info(&fi, frame, out.pos), 0);
    assert_int_equal(fi.content_size, XC_ZSTD_CONTENTSIZE_UNKNOWN);
    assert_int_equal(fi.window_size, 1u << 20);
    assert_int_equal(fi.block_max, 128u << 10);
    assert_int_equal(fi.checksum, 0);
    /* A skippable frame. */
    static const uint8_t skip[12] = {0x53, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4};
    assert_int_equal(xc_zstd_get_frame_info(&fi, skip, sizeof skip), 0);
    assert_int_equal(fi.skippable, 1);
    assert_int_equal(fi.skippable_magic_low, 3);
    assert_int_equal(fi.content_size, 4);
    assert_int_equal(fi.header_size, 8);
    assert_int_equal(xc_zstd_frame_header_size(skip, sizeof skip), 8);
    static const uint8_t bad[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(xc_error_code(xc_zstd_get_frame_info(&fi, bad, 8)), XC_ERROR_UNKNOWN_MAGIC);
#ifdef XC_HAVE_LIBZSTD
    /* The same as libzstd reads. */
    ZSTD_frameHeader zh;
    assert_int_equal(xc_zstd_get_frame_info(&fi, frame, out.pos), 0);
    assert_int_equal(ZSTD_getFrameHeader(&zh, frame, out.pos), 0);
    assert_int_equal(zh.windowSize, fi.window_size);
    assert_int_equal(zh.headerSize, xc_zstd_frame_header_size(frame, out.pos));
    assert_int_equal(ZSTD_frameHeaderSize(frame, out.pos), xc_zstd_frame_header_size(frame, out.pos));
#endif
    xc_zstd_cctx_free(c);
}

static void test_progress(void **state)
{
    (void)state;
    enum { N = 300 << 10 };
    uint8_t *src = zt_make(ZT_TEXT, N, 3);
    size_t const cap = xc_zstd_compress_bound(N);
    uint8_t *dst = zt_malloc(cap);
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    xc_zstd_progress p;
    assert_int_equal(xc_zstd_cctx_progress(c, &p), 0);
    assert_int_equal(p.ingested + p.consumed + p.produced + p.flushed, 0);
    xc_out_buffer out = {dst, cap, 0};
    xc_in_buffer in = {src, 1000, 0};
    assert_false(xc_is_error(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE)));
    assert_int_equal(xc_zstd_cctx_progress(c, &p), 0);
    assert_int_equal(p.ingested, 1000);
    assert_int_equal(p.consumed, 0); /* less than a block: buffered */
    assert_int_equal(p.flushed, out.pos);
    in.size = 200 << 10;
    assert_false(xc_is_error(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE)));
    assert_int_equal(xc_zstd_cctx_progress(c, &p), 0);
    assert_int_equal(p.ingested, 200 << 10);
    assert_int_equal(p.consumed, 128 << 10);
    assert_int_equal(p.flushed, out.pos);
    assert_true(p.produced >= p.flushed && p.produced > 0);
    in.size = N;
    assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END), 0);
    assert_int_equal(xc_zstd_cctx_progress(c, &p), 0);
    assert_int_equal(p.ingested, N);
    assert_int_equal(p.consumed, N);
    assert_int_equal(p.produced, out.pos);
    assert_int_equal(p.flushed, out.pos);
    assert_int_equal(xc_zstd_cctx_reset(c), 0);
    assert_int_equal(xc_zstd_cctx_progress(c, &p), 0);
    assert_int_equal(p.ingested, 0);
    assert_int_equal(xc_error_code(xc_zstd_cctx_progress(NULL, &p)), XC_ERROR_BAD_PARAMETER);
    xc_zstd_cctx_free(c);
    free(src);
    free(dst);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix_roundtrip),
        cmocka_unit_test(test_prefix_stream),
        cmocka_unit_test(test_frame_info),
        cmocka_unit_test(test_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
