/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A quick check of the zstd decoder's layers, independent of the full
 * differential suite: hand-made frames that exercise each header form and
 * block type (these run everywhere, s390x included), and a handful of
 * frames from libzstd when it is available, decoded one-shot, with a
 * context and streaming one byte at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"
#include "zstd/common/xxh64.h"

#ifdef XC_HAVE_LIBZSTD
#  include <zstd.h>
#endif

#define ERR(name) ((size_t)0 - (size_t)XC_ERROR_##name)
#define XC_MIN(a, b) ((a) < (b) ? (a) : (b))

/* Decodes src one-shot and streaming with 1-byte input and output pieces;
 * both must give exactly want[0..want_size). */
static void check_frame(const uint8_t *src, size_t size, const void *want, size_t want_size)
{
    uint8_t *out = malloc(want_size + 1);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(out);
    assert_non_null(d);

    size_t r = xc_zstd_decompress(out, want_size, src, size);
    assert_false(xc_is_error(r));
    assert_int_equal(r, want_size);
    assert_memory_equal(out, want, want_size);

    r = xc_zstd_decompress_dctx(d, out, want_size + 1, src, size);
    assert_int_equal(r, want_size);
    assert_memory_equal(out, want, want_size);

    xc_in_buffer in = {src, 0, 0};
    xc_out_buffer ob = {out, 0, 0};
    size_t ret = 1;
    while (in.size < size || ret != 0) {
        if (in.pos == in.size && in.size < size) in.size++;
        if (ob.pos == ob.size && ob.size < want_size) ob.size++;
        size_t before = in.pos + ob.pos;
        ret = xc_zstd_decompress_stream(d, &ob, &in);
        assert_false(xc_is_error(ret));
        if (in.pos + ob.pos == before && in.size == size && ob.size == want_size) break;
    }
    assert_int_equal(ob.pos, want_size);
    assert_int_equal(in.pos, size);
    assert_memory_equal(out, want, want_size);

    xc_zstd_dctx_free(d);
    free(out);
}

/* magic, then a single-segment header with a 1-byte content size. */
static size_t put_header(uint8_t *p, uint8_t fhd, uint8_t fcs)
{
    p[0] = 0x28, p[1] = 0xB5, p[2] = 0x2F, p[3] = 0xFD;
    p[4] = fhd;
    p[5] = fcs;
    return 6;
}

static void test_raw_rle_empty(void **state)
{
    (void)state;
    /* The errata's "compressed block with 0 literals and 0 sequences". */
    static const uint8_t empty[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00,
                                    0x15, 0x00, 0x00, 0x00, 0x00};
    check_frame(empty, sizeof empty, "", 0);

    uint8_t f[64];
    size_t n = put_header(f, 0x20, 5);
    f[n++] = (5 << 3) | 1; /* last, raw, 5 bytes */
    f[n++] = 0;
    f[n++] = 0;
    memcpy(f + n, "hello", 5);
    n += 5;
    check_frame(f, n, "hello", 5);

    n = put_header(f, 0x20, 10);
    f[n++] = (10 << 3) | (1 << 1) | 1; /* last, RLE, 10 bytes */
    f[n++] = 0;
    f[n++] = 0;
    f[n++] = 'x';
    check_frame(f, n, "xxxxxxxxxx", 10);
    assert_int_equal(xc_zstd_frame_content_size(f, n), 10);
    assert_int_equal(xc_zstd_find_frame_compressed_size(f, n), n);
}

/* One compressed block: raw literals "abc", then one sequence with RLE
 * tables (literal length code 3, offset code 2, match length code 6),
 * whose only extra bits are the offset's two: 4 + 2 - 3 = offset 3, match
 * length 9.  The bit stream is those two bits under the end mark. */
static size_t make_seq_frame(uint8_t *f, int checksum)
{
    size_t n = put_header(f, checksum ? 0x24 : 0x20, 12);
    static const uint8_t block[] = {0x18, 'a', 'b', 'c', 0x01, 0x54, 0x03, 0x02, 0x06, 0x06};
    f[n++] = (sizeof block << 3) | (2 << 1) | 1;
    f[n++] = 0;
    f[n++] = 0;
    memcpy(f + n, block, sizeof block);
    n += sizeof block;
    if (checksum) {
        uint32_t h = (uint32_t)xc_xxh64("abcabcabcabc", 12, 0);
        f[n++] = (uint8_t)h, f[n++] = (uint8_t)(h >> 8), f[n++] = (uint8_t)(h >> 16),
        f[n++] = (uint8_t)(h >> 24);
    }
    return n;
}

static void test_sequences_and_checksum(void **state)
{
    (void)state;
    uint8_t f[64], two[160];
    size_t n = make_seq_frame(f, 0);
    check_frame(f, n, "abcabcabcabc", 12);
    n = make_seq_frame(f, 1);
    check_frame(f, n, "abcabcabcabc", 12);

    /* A skippable frame between two frames. */
    memcpy(two, f, n);
    static const uint8_t skip[] = {0x5A, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3};
    memcpy(two + n, skip, sizeof skip);
    memcpy(two + n + sizeof skip, f, n);
    check_frame(two, 2 * n + sizeof skip, "abcabcabcabcabcabcabcabc", 24);
    assert_int_equal(xc_zstd_find_frame_compressed_size(two + n, sizeof skip), sizeof skip);
    assert_int_equal(xc_zstd_frame_content_size(two + n, sizeof skip), 0);

    /* Errors. */
    uint8_t out[32];
    f[n - 1] ^= 1;
    assert_int_equal(xc_zstd_decompress(out, sizeof out, f, n), ERR(CHECKSUM));
    f[n - 1] ^= 1;
    assert_int_equal(xc_zstd_decompress(out, 11, f, n), ERR(DST_TOO_SMALL));
    assert_int_equal(xc_zstd_decompress(out, sizeof out, f, n - 1), ERR(TRUNCATED));
    f[4] |= 0x08;
    assert_int_equal(xc_zstd_decompress(out, sizeof out, f, n), ERR(FRAME_HEADER));
    f[4] &= (uint8_t)~0x08;
    f[0] ^= 1;
    assert_int_equal(xc_zstd_decompress(out, sizeof out, f, n), ERR(UNKNOWN_MAGIC));
    f[0] ^= 1;
    f[6 + 3 + 5] = 0x55; /* reserved bits of the modes byte */
    assert_int_equal(xc_zstd_decompress(out, sizeof out, f, n), ERR(CORRUPT));
    assert_int_equal(xc_zstd_decompress(out, sizeof out, f, 0), 0);
}

#ifdef XC_HAVE_LIBZSTD
static void fill(uint8_t *p, size_t n, unsigned kind)
{
    static const char *const words[] = {"the ", "zstd ", "frame ", "block ", "offset ",
                                        "literal ", "match ", "of ", "and ", "window "};
    size_t i = 0;
    while (i < n) {
        if (kind == 0) {
            const char *w = words[xc_rand_below(10)];
            while (*w && i < n) p[i++] = (uint8_t)*w++;
        } else if (kind == 1) {
            p[i++] = (uint8_t)xc_rand();
        } else {
            /* Runs and short periods: offsets below 16. */
            size_t len = 1 + xc_rand_below(300), per = 1 + xc_rand_below(15);
            for (size_t k = 0; k < len && i < n; k++, i++)
                p[i] = i >= per ? p[i - per] : (uint8_t)k;
        }
    }
}

static void test_libzstd_frames(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 100, 5000, 131072, 131073, 700000};
    static const int levels[] = {1, 3, 19, -5};
    size_t nsizes = xc_test_quick() ? 5 : sizeof sizes / sizeof sizes[0];
    for (size_t si = 0; si < nsizes; si++) {
        for (unsigned kind = 0; kind < 3; kind++) {
            size_t n = sizes[si];
            uint8_t *src = malloc(n + 1);
            fill(src, n, kind);
            size_t cap = ZSTD_compressBound(n);
            uint8_t *z = malloc(cap);
            for (size_t li = 0; li < 4; li++) {
                ZSTD_CCtx *c = ZSTD_createCCtx();
                ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, levels[li]);
                ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, (int)(li & 1));
                size_t zn = ZSTD_compress2(c, z, cap, src, n);
                assert_false(ZSTD_isError(zn));
                ZSTD_freeCCtx(c);
                if (n <= 5000 || li == 0) {
                    check_frame(z, zn, src, n);
                } else {
                    uint8_t *out = malloc(n);
                    assert_int_equal(xc_zstd_decompress(out, n, z, zn), n);
                    assert_memory_equal(out, src, n);
                    assert_int_equal(xc_zstd_decompress(out, n - 1, z, zn), ERR(DST_TOO_SMALL));
                    free(out);
                }
            }
            free(z);
            free(src);
        }
    }
}

/* Content several times the window, without a content size: streaming
 * wraps its window buffer, and matches reach across the wrap. */
static void test_libzstd_window_wrap(void **state)
{
    (void)state;
    size_t const n = (size_t)3 << 20;
    uint8_t *src = malloc(n), *out = malloc(n);
    assert_non_null(src);
    assert_non_null(out);
    fill(src, n / 2, 0);
    fill(src + n / 2, n - n / 2, 2);
    size_t cap = ZSTD_compressBound(n);
    uint8_t *z = malloc(cap);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 5);
    ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 17);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    size_t zn = ZSTD_compress2(c, z, cap, src, n);
    assert_false(ZSTD_isError(zn));
    ZSTD_freeCCtx(c);
    assert_int_equal(xc_zstd_frame_content_size(z, zn), XC_ZSTD_CONTENTSIZE_UNKNOWN);

    xc_zstd_dctx *d = xc_zstd_dctx_new();
    for (size_t step = 1000; step <= 1000000; step *= 1000) {
        xc_in_buffer in = {z, 0, 0};
        xc_out_buffer ob = {out, 0, 0};
        size_t r = 1;
        memset(out, 0, n);
        while (r != 0) {
            in.size = XC_MIN(zn, in.size + step);
            ob.size = XC_MIN(n, ob.size + 3 * step);
            r = xc_zstd_decompress_stream(d, &ob, &in);
            assert_false(xc_is_error(r));
        }
        assert_int_equal(ob.pos, n);
        assert_memory_equal(out, src, n);
    }
    xc_zstd_dctx_free(d);
    free(z);
    free(src);
    free(out);
}

/* Offsets of several megabytes, which switch the sequence executor to its
 * prefetching loop, decoded one-shot and streaming. */
static void test_libzstd_long_offsets(void **state)
{
    (void)state;
    size_t const half = xc_test_quick() ? (size_t)5 << 20 : (size_t)6 << 20, n = 2 * half;
    uint8_t *src = malloc(n), *out = malloc(n);
    assert_non_null(src);
    assert_non_null(out);
    fill(src, half, 1);
    /* The second half is made of pieces of the first taken from random
     * places, separated by a random byte: matches whose offsets are new
     * each time and several megabytes long. */
    for (size_t i = half; i < n;) {
        size_t len = XC_MIN(40 + xc_rand_below(60), n - i);
        memcpy(src + i, src + xc_rand_below((uint32_t)(half / 2)), len);
        i += len;
        if (i < n) src[i++] = (uint8_t)xc_rand();
    }
    size_t cap = ZSTD_compressBound(n);
    uint8_t *z = malloc(cap);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 24);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    size_t zn = ZSTD_compress2(c, z, cap, src, n);
    assert_false(ZSTD_isError(zn));
    ZSTD_freeCCtx(c);

    assert_int_equal(xc_zstd_decompress(out, n, z, zn), n);
    assert_memory_equal(out, src, n);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 24), 0);
    memset(out, 0, n);
    xc_in_buffer in = {z, 0, 0};
    xc_out_buffer ob = {out, 0, 0};
    size_t r = 1;
    while (r != 0) {
        in.size = XC_MIN(zn, in.size + 100000);
        ob.size = XC_MIN(n, ob.size + 300000);
        r = xc_zstd_decompress_stream(d, &ob, &in);
        assert_false(xc_is_error(r));
    }
    assert_int_equal(ob.pos, n);
    assert_memory_equal(out, src, n);
    xc_zstd_dctx_free(d);
    free(z);
    free(src);
    free(out);
}

static void test_libzstd_dictionary(void **state)
{
    (void)state;
    size_t dn = 20000, n = 30000;
    uint8_t *dict = malloc(dn), *src = malloc(n), *out = malloc(n);
    fill(dict, dn, 0);
    /* Content that repeats the dictionary, so matches reach into it. */
    memcpy(src, dict + 5000, 10000);
    fill(src + 10000, n - 10000, 0);
    size_t cap = ZSTD_compressBound(n);
    uint8_t *z = malloc(cap);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    size_t zn = ZSTD_compress_usingDict(c, z, cap, src, n, dict, dn, 3);
    assert_false(ZSTD_isError(zn));
    ZSTD_freeCCtx(c);

    assert_true(xc_is_error(xc_zstd_decompress(out, n, z, zn)));
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, dn), 0);
    assert_int_equal(xc_zstd_decompress_dctx(d, out, n, z, zn), n);
    assert_memory_equal(out, src, n);

    xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, dn);
    assert_non_null(dd);
    assert_int_equal(xc_zstd_ddict_id(dd), 0);
    assert_int_equal(xc_zstd_dctx_ref_ddict(d, dd), 0);
    memset(out, 0, n);
    xc_in_buffer in = {z, zn, 0};
    xc_out_buffer ob = {out, n, 0};
    assert_int_equal(xc_zstd_decompress_stream(d, &ob, &in), 0);
    assert_int_equal(ob.pos, n);
    assert_memory_equal(out, src, n);
    xc_zstd_dctx_free(d);
    xc_zstd_ddict_free(dd);
    free(z);
    free(dict);
    free(src);
    free(out);
}
#endif

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_rle_empty),
        cmocka_unit_test(test_sequences_and_checksum),
#ifdef XC_HAVE_LIBZSTD
        cmocka_unit_test(test_libzstd_frames),
        cmocka_unit_test(test_libzstd_window_wrap),
        cmocka_unit_test(test_libzstd_long_offsets),
        cmocka_unit_test(test_libzstd_dictionary),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
