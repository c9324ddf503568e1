/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Magicless frames (XC_ZSTD_C_FORMAT / XC_ZSTD_D_FORMAT =
 * XC_ZSTD_FORMAT_MAGICLESS, libzstd's ZSTD_f_zstd1_magicless): a magicless
 * frame is exactly our normal frame without its first 4 bytes; it round
 * trips one-shot and streamed in pieces; the header functions that take a
 * format read it; hand-made hostile headers fail with their named errors;
 * and, where libzstd is linked, each library decodes the other's.
 */
#include "zstd_test_util.h"

#ifdef XC_HAVE_LIBZSTD
#  define ZSTD_STATIC_LINKING_ONLY
#  include <zstd.h>
#endif

static size_t compress_with(int magicless, int level, int checksum, uint8_t *dst, size_t cap,
                            const uint8_t *src, size_t n)
{
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, checksum), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_FORMAT,
                                      magicless ? XC_ZSTD_FORMAT_MAGICLESS : XC_ZSTD_FORMAT_ZSTD1),
                     0);
    size_t const r = xc_zstd_compress_cctx(c, dst, cap, src, n);
    assert_false(xc_is_error(r));
    xc_zstd_cctx_free(c);
    return r;
}

static xc_zstd_dctx *magicless_dctx(void)
{
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_FORMAT, XC_ZSTD_FORMAT_MAGICLESS), 0);
    return d;
}

static void test_roundtrip(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 255, 256, 5000, 70000, 300000};
    static const int levels[] = {-3, 1, 3, 9, 19};
    xc_zstd_dctx *d = magicless_dctx(), *plain = xc_zstd_dctx_new();
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t const n = zt_scaled(sizes[si]);
        uint8_t *src = zt_make(ZT_TEXT, n, 40 + si);
        size_t const cap = xc_zstd_compress_bound(n);
        uint8_t *normal = zt_malloc(cap), *bare = zt_malloc(2 * cap), *back = zt_malloc(2 * n + 1);
        for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
            if (n > 100000 && levels[li] > 9) continue;
            int const checksum = (int)(li & 1);
            size_t const zn = compress_with(0, levels[li], checksum, normal, cap, src, n);
            size_t const zb = compress_with(1, levels[li], checksum, bare, cap, src, n);
            /* The same frame without the magic number. */
            assert_int_equal(zb + 4, zn);
            assert_memory_equal(bare, normal + 4, zb);
            assert_int_equal(xc_zstd_decompress_dctx(d, back, n, bare, zb), n);
            assert_memory_equal(back, src, n);
            /* Streamed in pieces, one byte at a time for small frames. */
            zt_chunking const ch = {n < 1000 ? 1 : 4096, 3000};
            assert_int_equal(xc_zstd_dctx_reset(d), 0);
            zt_stream_result const s = zt_stream_decode(d, back, n, bare, zb, ch);
            assert_false(xc_is_error(s.result));
            assert_true(s.complete);
            assert_int_equal(s.result, n);
            assert_memory_equal(back, src, n);
            /* Two frames one after the other. */
            memcpy(bare + zb, bare, zb);
            assert_int_equal(xc_zstd_decompress_dctx(d, back, 2 * n, bare, 2 * zb), 2 * n);
            assert_memory_equal(back + n, src, n);
            /* Each decoder refuses the other format: no magic number for the
             * plain one, and for the magicless one the magic's first byte
             * (0x28) is a descriptor with its reserved bit set. */
            assert_int_equal(xc_error_code(xc_zstd_decompress_dctx(plain, back, n, bare, zb)),
                             XC_ERROR_UNKNOWN_MAGIC);
            assert_int_equal(xc_error_code(xc_zstd_decompress_dctx(d, back, n, normal, zn)),
                             XC_ERROR_FRAME_HEADER);
        }
        free(src);
        free(normal);
        free(bare);
        free(back);
    }
    xc_zstd_dctx_free(d);
    xc_zstd_dctx_free(plain);
}

static void test_frame_info(void **state)
{
    (void)state;
    enum { N = 3000 };
    uint8_t *src = zt_make(ZT_TEXT, N, 7), normal[N + 100], bare[N + 100];
    size_t const zn = compress_with(0, 3, 1, normal, sizeof normal, src, N);
    size_t const zb = compress_with(1, 3, 1, bare, sizeof bare, src, N);
    xc_zstd_frame_info a, b;
    assert_int_equal(xc_zstd_get_frame_info(&a, normal, zn), 0);
    assert_int_equal(xc_zstd_get_frame_info_format(&b, bare, zb, XC_ZSTD_FORMAT_MAGICLESS), 0);
    assert_int_equal(b.header_size + 4, a.header_size);
    assert_true(b.content_size == N && a.content_size == N);
    assert_true(b.window_size == a.window_size && b.block_max == a.block_max);
    assert_true(b.checksum == 1 && b.skippable == 0 && b.dict_id == 0);
    /* Too short: the descriptor first, then the whole header. */
    assert_int_equal(xc_zstd_get_frame_info_format(&b, bare, 0, XC_ZSTD_FORMAT_MAGICLESS), 1);
    for (size_t cut = 1; cut < b.header_size; cut++)
        assert_int_equal(xc_zstd_get_frame_info_format(&b, bare, cut, XC_ZSTD_FORMAT_MAGICLESS),
                         a.header_size - 4);
    assert_int_equal(xc_zstd_frame_header_size_format(bare, 1, XC_ZSTD_FORMAT_MAGICLESS),
                     a.header_size - 4);
    assert_int_equal(xc_zstd_frame_header_size_format(normal, 5, XC_ZSTD_FORMAT_ZSTD1),
                     a.header_size);
    assert_int_equal(xc_error_code(xc_zstd_frame_header_size_format(bare, 0,
                                                                    XC_ZSTD_FORMAT_MAGICLESS)),
                     XC_ERROR_TRUNCATED);
    /* The format-less functions read the normal format only. */
    assert_int_equal(xc_error_code(xc_zstd_frame_header_size(bare, zb)), XC_ERROR_UNKNOWN_MAGIC);
    /* An unknown format. */
    assert_int_equal(xc_error_code(xc_zstd_get_frame_info_format(&b, bare, zb, (xc_zstd_format)2)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_frame_header_size_format(bare, zb, (xc_zstd_format)-1)),
                     XC_ERROR_BAD_PARAMETER);
    /* The magic of a skippable frame is a descriptor like any other here:
     * 0x50 = 2-byte content size, no single segment; the window byte 0x2A. */
    static const uint8_t skip[12] = {0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4};
    assert_int_equal(xc_zstd_get_frame_info_format(&b, skip, 12, XC_ZSTD_FORMAT_MAGICLESS), 0);
    assert_int_equal(b.skippable, 0);
    assert_int_equal(b.header_size, 4);
    assert_int_equal(b.content_size, 256 + 0x184D);
    free(src);
}

/* Hand-made magicless headers that must fail, one-shot and streamed a
 * byte at a time, with the error named. */
static void test_hostile(void **state)
{
    (void)state;
    static const struct {
        uint8_t bytes[12];
        size_t n;
        enum xc_error want;
    } cases[] = {
        /* The reserved bit (3) of the descriptor. */
        {{0x28, 0x00, 0x01, 0x00, 0x00}, 5, XC_ERROR_FRAME_HEADER},
        /* A window exponent of 10 + 31. */
        {{0x00, 0xF8, 0x01, 0x00, 0x00}, 5, XC_ERROR_WINDOW_TOO_LARGE},
        /* Single segment, 1-byte content size of 5, one raw block of 5
         * bytes of which only 2 are there. */
        {{0x20, 0x05, 0x29, 0x00, 0x00, 'a', 'b'}, 7, XC_ERROR_TRUNCATED},
        /* The header alone (no block). */
        {{0x20, 0x05}, 2, XC_ERROR_TRUNCATED},
        /* The descriptor alone, announcing 8 bytes of content size. */
        {{0xE0}, 1, XC_ERROR_TRUNCATED},
        /* A reserved block type. */
        {{0x20, 0x05, 0x07, 0x00, 0x00, 1, 2, 3, 4, 5}, 10, XC_ERROR_CORRUPT},
        /* A skippable frame's magic and size: not skippable here.  The
         * descriptor 0x50, window byte 0x2A and a 2-byte content size make
         * a 4-byte header, and 04 00 00 is then a compressed block of 0
         * bytes. */
        {{0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4}, 12, XC_ERROR_CORRUPT},
    };
    xc_zstd_dctx *d = magicless_dctx();
    uint8_t out[1 << 16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t const r = xc_zstd_decompress_dctx(d, out, sizeof out, cases[i].bytes, cases[i].n);
        assert_int_equal(xc_error_code(r), cases[i].want);
        assert_int_equal(xc_zstd_dctx_reset(d), 0);
        zt_chunking const one = {1, 1};
        zt_stream_result const s = zt_stream_decode(d, out, sizeof out, cases[i].bytes,
                                                    cases[i].n, one);
        assert_false(s.stalled || s.complete);
        /* Streaming waits for the missing bytes rather than failing. */
        if (cases[i].want != XC_ERROR_TRUNCATED)
            assert_int_equal(xc_error_code(s.result), cases[i].want);
        assert_int_equal(xc_zstd_dctx_reset(d), 0);
    }
    /* An empty input is no frame at all. */
    assert_int_equal(xc_zstd_decompress_dctx(d, out, sizeof out, out, 0), 0);
    /* Parameters: unknown formats, and no change in the middle of a frame. */
    assert_int_equal(xc_error_code(xc_zstd_dctx_set(d, XC_ZSTD_D_FORMAT, 2)),
                     XC_ERROR_BAD_PARAMETER);
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_int_equal(xc_error_code(xc_zstd_cctx_set(c, XC_ZSTD_C_FORMAT, -1)),
                     XC_ERROR_BAD_PARAMETER);
    xc_zstd_cctx_free(c);
    static const uint8_t part[3] = {0x20, 0x05, 0x29};
    xc_in_buffer in = {part, sizeof part, 0};
    xc_out_buffer ob = {out, sizeof out, 0};
    assert_false(xc_is_error(xc_zstd_decompress_stream(d, &ob, &in)));
    assert_int_equal(xc_error_code(xc_zstd_dctx_set(d, XC_ZSTD_D_FORMAT, 0)),
                     XC_ERROR_STAGE_WRONG);
    xc_zstd_dctx_free(d);
}

/* Workers walk frames by their magic numbers: a magicless input of
 * several frames decodes in the calling thread, and the same. */
static void test_workers(void **state)
{
    (void)state;
    {
        /* Our workers, not libzstd's: a build without threads refuses the
         * parameter. */
        xc_zstd_dctx *probe = xc_zstd_dctx_new();
        assert_non_null(probe);
        size_t const r = xc_zstd_dctx_set(probe, XC_ZSTD_D_NB_WORKERS, 2);
        xc_zstd_dctx_free(probe);
        if (xc_is_error(r)) skip();
    }
    enum { N = 1 << 20, K = 3 };
    uint8_t *src = zt_make(ZT_TEXT, N, 9);
    size_t const cap = xc_zstd_compress_bound(N);
    uint8_t *f = zt_malloc(K * cap), *back = zt_malloc((size_t)K * N);
    size_t at = 0;
    for (int k = 0; k < K; k++) at += compress_with(1, 1, 0, f + at, cap, src, N);
    xc_zstd_dctx *d = magicless_dctx();
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_NB_WORKERS, 2), 0);
    assert_int_equal(xc_zstd_decompress_dctx(d, back, (size_t)K * N, f, at), (size_t)K * N);
    for (int k = 0; k < K; k++) assert_memory_equal(back + (size_t)k * N, src, N);
    xc_zstd_dctx_free(d);
    free(src);
    free(f);
    free(back);
}

/* libzstd's magicless frames decode here, and ours there. */
static void test_libzstd(void **state)
{
    (void)state;
#ifndef XC_HAVE_LIBZSTD
    skip();
#else
    enum { N = 200000 };
    uint8_t *src = zt_make(ZT_TEXT, N, 13);
    size_t const cap = ZSTD_compressBound(N);
    uint8_t *f = zt_malloc(cap), *back = zt_malloc(N);
    static const int levels[] = {1, 3, 12};
    xc_zstd_dctx *d = magicless_dctx();
    ZSTD_CCtx *zc = ZSTD_createCCtx();
    ZSTD_DCtx *zd = ZSTD_createDCtx();
    assert_false(ZSTD_isError(ZSTD_DCtx_setParameter(zd, ZSTD_d_format, ZSTD_f_zstd1_magicless)));
    for (size_t li = 0; li < 3; li++) {
        ZSTD_CCtx_setParameter(zc, ZSTD_c_compressionLevel, levels[li]);
        ZSTD_CCtx_setParameter(zc, ZSTD_c_checksumFlag, (int)(li & 1));
        assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(zc, ZSTD_c_format,
                                                         ZSTD_f_zstd1_magicless)));
        size_t const z = ZSTD_compress2(zc, f, cap, src, N);
        assert_false(ZSTD_isError(z));
        assert_int_equal(xc_zstd_decompress_dctx(d, back, N, f, z), N);
        assert_memory_equal(back, src, N);
        size_t const x = compress_with(1, levels[li], (int)(li & 1), f, cap, src, N);
        assert_int_equal(ZSTD_decompressDCtx(zd, back, N, f, x), N);
        assert_memory_equal(back, src, N);
    }
    ZSTD_freeCCtx(zc);
    ZSTD_freeDCtx(zd);
    xc_zstd_dctx_free(d);
    free(src);
    free(f);
    free(back);
#endif
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_frame_info),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_workers),
        cmocka_unit_test(test_libzstd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
