/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Independent frames with workers (XC_ZSTD_C_JOB_FRAMES = 1, compress_mt.c):
 * - one-shot: a frame per job of XC_ZSTD_C_JOB_SIZE bytes, each the frame
 *   nb_workers = 0 writes for that piece alone (header with its content
 *   size, its own checksum), the same bytes for 1, 2 and 4 workers;
 * - the frames decode through our decoder, serially and on workers
 *   (XC_ZSTD_D_NB_WORKERS), and through libzstd;
 * - streamed in random pieces with flushes: each flush ends a frame, the
 *   same bytes for every count of workers; with the size pledged and no
 *   flush, the one-shot output;
 * - a dictionary is the history of every frame; a prefix of the first;
 * - a reset in the middle of a streamed output leaves the context as new;
 * - the output is the same on every XC_CPUCAP tier (a digest pinned here).
 * Under ThreadSanitizer (XC_TEST_THREADS_ONLY) the slow cases are left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XC_HAVE_LIBZSTD
#  include <zstd.h>
#endif

#include "xc_test.h"
#include "zstd_test_util.h"

#define ERR(e) ((size_t) - (XC_ERROR_##e))
#define JOB ((size_t)512 << 10)
/* See test_digest_across_tiers. */
#define XC_JOB_FRAMES_DIGEST 0x19dea319ac4ec60dull

static int tsan_mode(void) { return getenv("XC_TEST_THREADS_ONLY") != NULL; }

static xc_zstd_cctx *new_cctx(int level, int workers, int checksum)
{
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, workers), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_SIZE, (int)JOB), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, checksum), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_FRAMES, 1), 0);
    return c;
}

static uint8_t *oneshot(xc_zstd_cctx *c, const void *src, size_t n, size_t *size)
{
    size_t const cap = xc_zstd_compress_bound(n) + 64 * (n / JOB + 1);
    uint8_t *dst = zt_malloc(cap);
    size_t const r = xc_zstd_compress_cctx(c, dst, cap, src, n);
    if (xc_is_error(r)) {
        print_error("compress: %s\n", xc_error_name(r));
        fail();
    }
    *size = r;
    return dst;
}

/* Streams src in random pieces with random output room, flushing after the
 * bytes listed in flush_at (sorted). */
static uint8_t *streamed(xc_zstd_cctx *c, const uint8_t *src, size_t n, const size_t *flush_at,
                         unsigned n_flush, uint64_t seed, size_t *size)
{
    size_t const cap = xc_zstd_compress_bound(n) + 64 * (n / JOB + n_flush + 2);
    uint8_t *dst = zt_malloc(cap);
    uint64_t s = seed;
    xc_out_buffer out = {dst, 0, 0};
    xc_in_buffer in = {src, 0, 0};
    unsigned f = 0;
    for (;;) {
        size_t const limit = f < n_flush ? flush_at[f] : n;
        size_t const piece = 1 + zt_below(&s, 300000);
        in.size = in.pos + piece < limit ? in.pos + piece : limit;
        int const at_limit = in.size == limit;
        xc_zstd_end_op const op = !at_limit ? XC_ZSTD_E_CONTINUE
                                  : f < n_flush ? XC_ZSTD_E_FLUSH
                                                : XC_ZSTD_E_END;
        size_t r;
        do {
            size_t const room = out.pos + 1 + zt_below(&s, 200000);
            out.size = room < cap ? room : cap;
            r = xc_zstd_compress_stream(c, &out, &in, op);
            if (xc_is_error(r)) {
                print_error("stream: %s\n", xc_error_name(r));
                fail();
            }
        } while (in.pos < in.size || (op != XC_ZSTD_E_CONTINUE && r != 0));
        if (op == XC_ZSTD_E_FLUSH) f++;
        if (op == XC_ZSTD_E_END) break;
    }
    *size = out.pos;
    return dst;
}

static void check_decodes(const uint8_t *frames, size_t size, const uint8_t *want, size_t n,
                          const char *what)
{
    uint8_t *back = zt_malloc(n + 1);
    size_t r = xc_zstd_decompress(back, n + 1, frames, size);
    if (xc_is_error(r) || r != n || memcmp(back, want, n) != 0) {
        print_error("%s: our decoder: %s\n", what, xc_is_error(r) ? xc_error_name(r) : "differs");
        fail();
    }
    /* On two workers: frames with content sizes decode in parallel. */
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_NB_WORKERS, 2), 0);
    memset(back, 0, n);
    r = xc_zstd_decompress_dctx(d, back, n + 1, frames, size);
    if (xc_is_error(r) || r != n || memcmp(back, want, n) != 0) {
        print_error("%s: 2 decoding workers: %s\n", what,
                    xc_is_error(r) ? xc_error_name(r) : "differs");
        fail();
    }
    xc_zstd_dctx_free(d);
#ifdef XC_HAVE_LIBZSTD
    memset(back, 0, n);
    r = ZSTD_decompress(back, n + 1, frames, size);
    if (ZSTD_isError(r) || r != n || memcmp(back, want, n) != 0) {
        print_error("%s: libzstd: %s\n", what, ZSTD_isError(r) ? ZSTD_getErrorName(r) : "differs");
        fail();
    }
#endif
    free(back);
}

/* Walks the frames: their count, and each content size against `sizes`
 * (n_sizes of them). */
static void check_frame_sizes(const uint8_t *p, size_t size, const size_t *sizes, unsigned n_sizes,
                              int checksum)
{
    unsigned k = 0;
    while (size) {
        size_t const fsize = xc_zstd_find_frame_compressed_size(p, size);
        assert_false(xc_is_error(fsize));
        assert_true(k < n_sizes);
        assert_int_equal(xc_zstd_frame_content_size(p, fsize), sizes[k]);
        /* Frame_Header_Descriptor bit 2: the content checksum flag. */
        assert_int_equal((p[4] >> 2) & 1, checksum);
        p += fsize;
        size -= fsize;
        k++;
    }
    assert_int_equal(k, n_sizes);
}

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

/* ---- one-shot -------------------------------------------------------------------------- */

static void test_parameter(void **state)
{
    (void)state;
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_FRAMES, 2), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_FRAMES, -1), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_FRAMES, 1), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_FRAMES, 0), 0);
    /* Without workers it changes nothing: one frame. */
    size_t const n = 1300000;
    uint8_t *src = zt_make(ZT_TEXT, n, 3);
    size_t s0, s1;
    uint8_t *f0 = oneshot(c, src, n, &s0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_FRAMES, 1), 0);
    uint8_t *f1 = oneshot(c, src, n, &s1);
    assert_int_equal(s0, s1);
    assert_memory_equal(f0, f1, s0);
    size_t const whole[] = {n};
    check_frame_sizes(f1, s1, whole, 1, 0);
    free(f0);
    free(f1);
    free(src);
    xc_zstd_cctx_free(c);
}

typedef struct {
    enum zt_kind kind;
    size_t size;
    int level;
} frames_case;

static const frames_case cases[] = {
    {ZT_TEXT, 1800000, 1},  {ZT_MIXED, 2100000, 3}, {ZT_JSON, 1100000, 6},
    {ZT_RUNS, 1600000, 3},  {ZT_RANDOM, 1100000, 3}, {ZT_SOURCE, 1200000, 13},
    /* btultra2, whose overlap (a window) would make one job of a frame. */
    {ZT_TEXT, 800000, 19},
};

static void test_oneshot_frames(void **state)
{
    (void)state;
    static const unsigned workers[] = {1, 2, 4};
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const frames_case *const tc = &cases[ci];
        if ((tsan_mode() || xc_test_quick()) && tc->level > 3) continue;
        size_t const n = tc->size;
        uint8_t *src = zt_make(tc->kind, n, 100 + ci);
        int const checksum = (int)(ci & 1);
        /* Each frame is what nb_workers = 0 writes for its piece alone. */
        xc_zstd_cctx *serial = new_cctx(tc->level, 0, checksum);
        size_t want_size = 0;
        size_t const cap = xc_zstd_compress_bound(n) + 64 * (n / JOB + 1);
        uint8_t *want = zt_malloc(cap);
        size_t sizes[16];
        unsigned n_frames = 0;
        for (size_t off = 0; off < n; off += JOB) {
            size_t const len = n - off < JOB ? n - off : JOB;
            size_t const r =
                xc_zstd_compress_cctx(serial, want + want_size, cap - want_size, src + off, len);
            assert_false(xc_is_error(r));
            want_size += r;
            sizes[n_frames++] = len;
        }
        xc_zstd_cctx_free(serial);
        for (size_t wi = 0; wi < sizeof workers / sizeof workers[0]; wi++) {
            xc_zstd_cctx *c = new_cctx(tc->level, (int)workers[wi], checksum);
            size_t size;
            uint8_t *frames = oneshot(c, src, n, &size);
            if (size != want_size || memcmp(frames, want, size) != 0) {
                print_error("%s level %d, %u workers: not the serial frames of each job\n",
                            zt_kind_names[tc->kind], tc->level, workers[wi]);
                fail();
            }
            if (wi == 0) {
                check_frame_sizes(frames, size, sizes, n_frames, checksum);
                check_decodes(frames, size, src, n, zt_kind_names[tc->kind]);
            }
            free(frames);
            xc_zstd_cctx_free(c);
        }
        free(want);
        free(src);
    }
}

/* A corrupted byte in the second frame's checksum is caught. */
static void test_checksum_per_frame(void **state)
{
    (void)state;
    size_t const n = 1200000;
    uint8_t *src = zt_make(ZT_MIXED, n, 9);
    xc_zstd_cctx *c = new_cctx(3, 2, 1);
    size_t size;
    uint8_t *frames = oneshot(c, src, n, &size);
    size_t const first = xc_zstd_find_frame_compressed_size(frames, size);
    size_t const second = xc_zstd_find_frame_compressed_size(frames + first, size - first);
    assert_false(xc_is_error(second));
    frames[first + second - 1] ^= 0x40;
    uint8_t *back = zt_malloc(n);
    assert_int_equal(xc_zstd_decompress(back, n, frames, size), ERR(CHECKSUM));
    free(back);
    free(frames);
    free(src);
    xc_zstd_cctx_free(c);
}

/* ---- streaming --------------------------------------------------------------------------- */

static void test_streamed_frames(void **state)
{
    (void)state;
    size_t const n = 2300000;
    uint8_t *src = zt_make(ZT_MIXED, n, 77);
    static const size_t flush_at[] = {100000, 700000, 700001, 1900000};
    /* Frames: cut at each flush and every job after the last cut. */
    static const size_t sizes[] = {100000, 524288, 75712, 1, 524288, 524288, 151423, 400000};
    uint8_t *first = NULL;
    size_t first_size = 0;
    static const unsigned workers[] = {1, 2, 4};
    for (size_t wi = 0; wi < 3; wi++) {
        xc_zstd_cctx *c = new_cctx(3, (int)workers[wi], 1);
        size_t size;
        uint8_t *frames = streamed(c, src, n, flush_at, 4, 11 + wi, &size);
        if (!first) {
            check_frame_sizes(frames, size, sizes, sizeof sizes / sizeof sizes[0], 1);
            check_decodes(frames, size, src, n, "streamed");
            first = frames;
            first_size = size;
        } else {
            assert_int_equal(size, first_size);
            assert_memory_equal(frames, first, size);
            free(frames);
        }
        xc_zstd_cctx_free(c);
    }
    free(first);

    /* With the size pledged and no flush: the one-shot output. */
    xc_zstd_cctx *c = new_cctx(3, 2, 1);
    size_t s1, s2;
    uint8_t *one = oneshot(c, src, n, &s1);
    assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n), 0);
    uint8_t *two = streamed(c, src, n, NULL, 0, 5, &s2);
    assert_int_equal(s1, s2);
    assert_memory_equal(one, two, s1);
    free(two);
    /* Without a pledge too: each frame is planned when its size is known. */
    two = streamed(c, src, n, NULL, 0, 6, &s2);
    assert_int_equal(s1, s2);
    assert_memory_equal(one, two, s1);
    free(one);
    free(two);
    xc_zstd_cctx_free(c);
    free(src);
}

/* A flush after the last byte leaves an empty last job: no frame for it. */
static void test_flush_then_end(void **state)
{
    (void)state;
    size_t const n = 900000;
    uint8_t *src = zt_make(ZT_TEXT, n, 12);
    static const size_t flush_at[] = {n};
    xc_zstd_cctx *c = new_cctx(1, 2, 0);
    size_t size;
    uint8_t *frames = streamed(c, src, n, flush_at, 1, 4, &size);
    static const size_t sizes[] = {524288, n - 524288};
    check_frame_sizes(frames, size, sizes, 2, 0);
    check_decodes(frames, size, src, n, "flush then end");
    free(frames);
    xc_zstd_cctx_free(c);
    free(src);
}

static void test_reset_mid_output(void **state)
{
    (void)state;
    size_t const n = 1700000;
    uint8_t *src = zt_make(ZT_JSON, n, 21);
    xc_zstd_cctx *c = new_cctx(3, 2, 1);
    size_t s1;
    uint8_t *want = oneshot(c, src, n, &s1);
    for (int round = 0; round < 2; round++) {
        /* A job and a half in, some of it written out, then a reset. */
        uint8_t *dst = zt_malloc(1 << 20);
        xc_out_buffer out = {dst, 1000, 0};
        xc_in_buffer in = {src, JOB + JOB / 2, 0};
        while (in.pos < in.size) {
            size_t const r = xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE);
            assert_false(xc_is_error(r));
            if (round == 1 && out.pos == out.size) break;
        }
        assert_int_equal(xc_zstd_cctx_reset(c), 0);
        free(dst);
        size_t s2;
        uint8_t *again = streamed(c, src, n, NULL, 0, 8, &s2);
        assert_int_equal(s1, s2);
        assert_memory_equal(want, again, s1);
        free(again);
    }
    /* Freed with jobs in flight: nothing leaks (ASan), no thread is left. */
    uint8_t *dst = zt_malloc(1 << 20);
    xc_out_buffer out = {dst, 1 << 20, 0};
    xc_in_buffer in = {src, n, 0};
    assert_false(xc_is_error(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE)));
    xc_zstd_cctx_free(c);
    free(dst);
    free(want);
    free(src);
}

/* ---- dictionary and prefix -------------------------------------------------------------- */

static void test_dictionary_every_frame(void **state)
{
    (void)state;
    size_t const n = 1300000, dn = 60000;
    uint8_t *src = zt_make(ZT_JSON, n, 31);
    uint8_t *dict = zt_make(ZT_JSON, dn, 32);
    xc_zstd_cctx *c = new_cctx(3, 2, 1);
    assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, dn), 0);
    size_t size;
    uint8_t *frames = oneshot(c, src, n, &size);
    /* Three frames; the decoder needs the dictionary for each. */
    uint8_t *back = zt_malloc(n);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, dn), 0);
    assert_int_equal(xc_zstd_decompress_dctx(d, back, n, frames, size), n);
    assert_memory_equal(back, src, n);
    size_t const f1 = xc_zstd_find_frame_compressed_size(frames, size);
    assert_false(xc_is_error(f1));
    size_t const r = xc_zstd_decompress(back, n, frames + f1, size - f1);
    assert_true(xc_is_error(r) || r != n - JOB || memcmp(back, src + JOB, r) != 0);
    /* Streamed: the same frames. */
    size_t s2;
    uint8_t *two = streamed(c, src, n, NULL, 0, 2, &s2);
    assert_int_equal(size, s2);
    assert_memory_equal(frames, two, size);
    free(two);
#ifdef XC_HAVE_LIBZSTD
    ZSTD_DCtx *z = ZSTD_createDCtx();
    memset(back, 0, n);
    assert_int_equal(ZSTD_decompress_usingDict(z, back, n, frames, size, dict, dn), n);
    assert_memory_equal(back, src, n);
    ZSTD_freeDCtx(z);
#endif
    xc_zstd_dctx_free(d);
    free(back);
    free(frames);
    xc_zstd_cctx_free(c);
    free(dict);
    free(src);
}

static void test_prefix_first_frame_only(void **state)
{
    (void)state;
    size_t const n = 1200000, pn = 100000;
    uint8_t *all = zt_make(ZT_TEXT, pn + n, 41);
    const uint8_t *src = all + pn;
    xc_zstd_cctx *c = new_cctx(3, 2, 0);
    assert_int_equal(xc_zstd_cctx_ref_prefix(c, all, pn), 0);
    size_t size;
    uint8_t *frames = oneshot(c, src, n, &size);
    size_t const f1 = xc_zstd_find_frame_compressed_size(frames, size);
    assert_false(xc_is_error(f1));
    /* The first frame needs the prefix; the others decode alone. */
    uint8_t *back = zt_malloc(n);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    assert_int_equal(xc_zstd_dctx_ref_prefix(d, all, pn), 0);
    assert_int_equal(xc_zstd_decompress_dctx(d, back, JOB, frames, f1), JOB);
    assert_memory_equal(back, src, JOB);
    assert_int_equal(xc_zstd_decompress(back, n - JOB, frames + f1, size - f1), n - JOB);
    assert_memory_equal(back, src + JOB, n - JOB);
    xc_zstd_dctx_free(d);
    free(back);
    free(frames);
    xc_zstd_cctx_free(c);
    free(all);
}

/* ---- tiers ---------------------------------------------------------------------------------- */

/* Across tiers and ISAs: a digest of independent frames at levels 1, 3, 9
 * and 19, against the value this file holds. */
static void test_digest_across_tiers(void **state)
{
    (void)state;
    if (xc_test_quick() || tsan_mode()) skip();
    static const int levels[] = {1, 3, 9, 19};
    uint64_t h = 0xcbf29ce484222325ull;
    size_t const n = 1100000;
    uint8_t *src = zt_make(ZT_MIXED, n, 515151);
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        xc_zstd_cctx *c = new_cctx(levels[i], 2, 1);
        size_t size;
        uint8_t *frames = oneshot(c, src, n, &size);
        h = fnv(h, frames, size);
        free(frames);
        xc_zstd_cctx_free(c);
    }
    free(src);
    print_message("job frames digest %016llx (%s)\n", (unsigned long long)h,
                  xc_impl_name("zstd_encode"));
    assert_true(h == XC_JOB_FRAMES_DIGEST);
}

int main(void)
{
    xc_test_init();
    {
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        size_t const r = c ? xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, 1) : 0;
        xc_zstd_cctx_free(c);
        if (r == ERR(UNSUPPORTED)) {
            const struct CMUnitTest none[] = {cmocka_unit_test(test_parameter)};
            return cmocka_run_group_tests(none, NULL, NULL);
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parameter),
        cmocka_unit_test(test_oneshot_frames),
        cmocka_unit_test(test_checksum_per_frame),
        cmocka_unit_test(test_streamed_frames),
        cmocka_unit_test(test_flush_then_end),
        cmocka_unit_test(test_reset_mid_output),
        cmocka_unit_test(test_dictionary_every_frame),
        cmocka_unit_test(test_prefix_first_frame_only),
        cmocka_unit_test(test_digest_across_tiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
