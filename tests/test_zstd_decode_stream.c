/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Streaming zstd decoding: input and output in pieces of every size down
 * to one byte, frames larger than their window (so the window buffer wraps),
 * long-distance matches, frames made by several libzstd workers, the window
 * limit and its parameter, resets in the middle of a frame, and the hint.
 */
#include "zstd_test_frames.h"


/* A frame with no content size whose window descriptor says 2^wlog, and one
 * raw block holding "hello": the smallest frame that asks for a window. */
static size_t make_window_frame(uint8_t *f, unsigned wlog)
{
    static const uint8_t head[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00};
    memcpy(f, head, 5);
    f[5] = (uint8_t)((wlog - 10) << 3); /* exponent, mantissa 0 */
    /* Block header: last block, raw, 5 bytes: 1 | 0 << 1 | 5 << 3. */
    f[6] = 0x29;
    f[7] = 0;
    f[8] = 0;
    memcpy(f + 9, "hello", 5);
    return 14;
}

/* Every embedded frame with one byte in and one byte out per call. */
static void test_one_byte_pieces(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    static const zt_chunking ways[] = {{1, 1}, {1, 0}, {0, 1}, {2, 3}};
    for (size_t i = 0; i < count; i++) {
        const zt_embedded *e = &list[i];
        if (e->dict != ZT_D_NONE) continue;
        uint8_t *want = zt_embedded_content(e);
        for (size_t w = 0; w < 4; w++)
            zt_check_all_ways(d, e->frame, e->size, want, e->content_size, ways[w], 0, e->name);
        free(want);
    }
    xc_zstd_dctx_free(d);
}

/* The hint is non-zero until the frame is done, and 0 once it is. */
static void test_hint(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    const zt_embedded *e = &list[1];
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    uint8_t *dst = zt_malloc(e->content_size);
    xc_in_buffer in = {e->frame, 0, 0};
    xc_out_buffer out = {dst, e->content_size, 0};
    size_t r = xc_zstd_decompress_stream(d, &out, &in);
    assert_false(xc_is_error(r));
    assert_true(r > 0);
    unsigned calls = 0;
    while (in.pos < e->size) {
        in.size = in.pos + 1 + xc_rand_below(50);
        if (in.size > e->size) in.size = e->size;
        r = xc_zstd_decompress_stream(d, &out, &in);
        assert_false(xc_is_error(r));
        if (in.pos < e->size) assert_true(r > 0);
        assert_true(++calls < 100000);
    }
    assert_int_equal(r, 0);
    assert_int_equal(out.pos, e->content_size);
    free(dst);
    xc_zstd_dctx_free(d);
}

/* Streaming refuses windows beyond the limit with its own error, accepts
 * them once the limit is raised; one-shot decoding ignores the limit. */
static void test_window_limit(void **state)
{
    (void)state;
    uint8_t f[16], dst[16];
    size_t n = make_window_frame(f, 28);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    zt_stream_result sr = zt_stream_decode(d, dst, sizeof dst, f, n, (zt_chunking){0, 0});
    assert_int_equal(xc_error_code(sr.result), XC_ERROR_WINDOW_TOO_LARGE);
    assert_int_equal(xc_zstd_dctx_reset(d), 0);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 28), 0);
    sr = zt_stream_decode(d, dst, sizeof dst, f, n, (zt_chunking){0, 0});
    assert_true(sr.complete);
    assert_int_equal(sr.result, 5);
    assert_memory_equal(dst, "hello", 5);
    /* The parameter survives a reset; 0 restores the default of 27. */
    xc_zstd_dctx_reset(d);
    sr = zt_stream_decode(d, dst, sizeof dst, f, n, (zt_chunking){1, 1});
    assert_true(sr.complete);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 0), 0);
    sr = zt_stream_decode(d, dst, sizeof dst, f, n, (zt_chunking){0, 0});
    assert_int_equal(xc_error_code(sr.result), XC_ERROR_WINDOW_TOO_LARGE);
    xc_zstd_dctx_reset(d);
    /* 2^27 itself is within the default. */
    n = make_window_frame(f, 27);
    sr = zt_stream_decode(d, dst, sizeof dst, f, n, (zt_chunking){0, 0});
    assert_true(sr.complete);
    /* One-shot has the whole destination and needs no window buffer. */
    n = make_window_frame(f, 30);
    assert_int_equal(xc_zstd_decompress(dst, sizeof dst, f, n), 5);
    assert_int_equal(xc_zstd_decompress_dctx(d, dst, sizeof dst, f, n), 5);
    /* Beyond 2^31 no setting helps. */
    f[5] = 0xF8;
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 31), 0);
    xc_zstd_dctx_reset(d);
    sr = zt_stream_decode(d, dst, sizeof dst, f, n, (zt_chunking){0, 0});
    assert_true(xc_is_error(sr.result));
    xc_zstd_dctx_free(d);
}

/* Resetting in the middle of a frame forgets it; the context then decodes
 * the next frame from its start.  An error needs a reset too. */
static void test_reset_mid_frame(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    for (size_t i = 0; i < count; i++) {
        const zt_embedded *e = &list[i];
        if (e->dict != ZT_D_NONE) continue;
        uint8_t *want = zt_embedded_content(e);
        uint8_t *dst = zt_malloc(e->content_size);
        /* Half of the frame, then a reset. */
        xc_in_buffer in = {e->frame, e->size / 2, 0};
        xc_out_buffer out = {dst, e->content_size, 0};
        assert_false(xc_is_error(xc_zstd_decompress_stream(d, &out, &in)));
        xc_zstd_dctx_reset(d);
        zt_stream_result sr = zt_stream_decode(d, dst, e->content_size, e->frame, e->size,
                                               zt_random_chunking());
        assert_true(sr.complete);
        assert_int_equal(sr.result, e->content_size);
        assert_memory_equal(dst, want, e->content_size);
        /* A corrupt frame (unknown magic), then a reset, then this one. */
        static const uint8_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        sr = zt_stream_decode(d, dst, e->content_size, junk, sizeof junk, (zt_chunking){0, 0});
        assert_int_equal(xc_error_code(sr.result), XC_ERROR_UNKNOWN_MAGIC);
        xc_zstd_dctx_reset(d);
        sr = zt_stream_decode(d, dst, e->content_size, e->frame, e->size, zt_random_chunking());
        assert_true(sr.complete);
        assert_memory_equal(dst, want, e->content_size);
        free(dst);
        free(want);
    }
    xc_zstd_dctx_free(d);
}

#ifdef XC_HAVE_LIBZSTD

static void check_frame(xc_zstd_dctx *d, enum zt_kind kind, size_t size, const zt_cparams *p,
                        const zt_chunking *ways, size_t nways)
{
    char what[200];
    uint8_t *src = zt_make(kind, size, xc_rand());
    size_t n;
    uint8_t *frame = zt_compress(src, size, p, &n);
    for (size_t w = 0; w < nways; w++) {
        snprintf(what, sizeof what,
                 "%s %zu bytes, level %d, window log %d, ldm %d, workers %d, content size %d",
                 zt_kind_names[kind], size, p->level, p->window_log, p->ldm, p->workers,
                 p->content_size);
        zt_check_all_ways(d, frame, n, src, size, ways[w], 0, what);
    }
    free(frame);
    free(src);
}

/* libzstd frames of every kind in random pieces, and in 1-byte pieces of
 * input or output (both at once on the smaller frames). */
static void test_random_pieces(void **state)
{
    (void)state;
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    unsigned rounds = xc_test_quick() ? 6 : 40;
    for (unsigned i = 0; i < rounds; i++) {
        enum zt_kind kind = (enum zt_kind)(i % ZT_KINDS);
        size_t size = zt_scaled(xc_rand_below(i % 4 == 0 ? 600000 : 60000));
        zt_cparams p = {.level = (int)xc_rand_below(20) - 2, .checksum = (int)(i & 1),
                        .content_size = (int)(i % 3)};
        if (p.level < 1) p.level = -5 + p.level;
        zt_chunking ways[3];
        ways[0] = zt_random_chunking();
        ways[1] = zt_random_chunking();
        ways[2] = size < 100000 ? (zt_chunking){1, 1} : (zt_chunking){1, 0};
        check_frame(d, kind, size, &p, ways, 3);
    }
    xc_zstd_dctx_free(d);
}

/* Inputs much larger than the window, down to the smallest window (where
 * blocks are limited to 1 KiB), with content size and without. */
static void test_larger_than_window(void **state)
{
    (void)state;
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    static const int wlogs[] = {10, 11, 14, 17};
    for (size_t i = 0; i < 4; i++)
        for (int cs = 1; cs <= 2; cs++) {
            zt_cparams p = {.level = 1 + (int)(i * 5), .checksum = 1, .content_size = cs,
                            .window_log = wlogs[i]};
            zt_chunking ways[2];
            ways[0] = zt_random_chunking();
            ways[1].max_in = 1 + xc_rand_below(4000);
            ways[1].max_out = 1 + xc_rand_below(300);
            check_frame(d, ZT_MIXED, zt_scaled(wlogs[i] == 17 ? 1200000 : 300000), &p, ways, 2);
            check_frame(d, ZT_RUNS, zt_scaled(400000), &p, ways, 1);
        }
    xc_zstd_dctx_free(d);
}

/* Builds input whose matches lie megabytes back: a random block repeated
 * after other material. */
static uint8_t *long_distance_input(size_t unit, size_t *size)
{
    *size = 4 * unit;
    uint8_t *p = zt_malloc(*size);
    uint64_t seed = xc_rand();
    zt_gen_random(p, unit, seed);
    zt_gen_text(p + unit, unit, seed + 1);
    zt_gen_binary(p + 2 * unit, unit, seed + 2);
    memcpy(p + 3 * unit, p, unit);
    /* Sprinkle changes so that the copies break into many matches. */
    for (size_t k = 3 * unit; k < 4 * unit; k += 1 + xc_rand_below(5000)) p[k] ^= 0x55;
    return p;
}

static void test_long_distance(void **state)
{
    (void)state;
    size_t size;
    uint8_t *src = long_distance_input(zt_scaled(1u << 19), &size);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    /* The long-distance matcher runs beside every strategy; the slow ones
     * would only cost time here. */
    static const int levels[] = {1, 5, 9};
    for (size_t i = 0; i < 3; i++) {
        zt_cparams p = {.level = levels[i], .checksum = 1, .content_size = (int)(i % 3),
                        .ldm = 1, .window_log = 22};
        size_t n;
        uint8_t *frame = zt_compress(src, size, &p, &n);
        /* The repeat was found: the frame is much smaller than the input. */
        assert_true(n < size - size / 8);
        zt_check_all_ways(d, frame, n, src, size, zt_random_chunking(), 0, "ldm");
        zt_check_all_ways(d, frame, n, src, size, (zt_chunking){100, 77}, 0, "ldm");
        free(frame);
    }
    free(src);
    xc_zstd_dctx_free(d);
}

/* Frames cut into jobs by libzstd's workers (when built with them). */
static void test_workers(void **state)
{
    (void)state;
    if (!zt_have_workers()) {
        print_message("libzstd has no workers here: skipped\n");
        skip();
    }
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    static const int levels[] = {1, 3, 7};
    for (size_t i = 0; i < 3; i++) {
        zt_cparams p = {.level = levels[i], .checksum = (int)(i & 1), .content_size = (int)i,
                        .workers = 2, .job_size = 512 * 1024, .ldm = i == 2};
        zt_chunking ways[2] = {zt_random_chunking(), {0, 4096}};
        check_frame(d, ZT_MIXED, zt_scaled(3u << 20), &p, ways, 2);
    }
    xc_zstd_dctx_free(d);
}

/* A window above the limit from libzstd: 2^28, with no content size so the
 * descriptor stays. */
static void test_window_limit_libzstd(void **state)
{
    (void)state;
    size_t size = zt_scaled(300000), n;
    uint8_t *src = zt_make(ZT_MIXED, size, xc_rand());
    zt_cparams p = {.level = 3, .content_size = 2, .window_log = 28};
    uint8_t *frame = zt_compress(src, size, &p, &n);
    uint8_t *dst = zt_malloc(size);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    zt_stream_result sr = zt_stream_decode(d, dst, size, frame, n, zt_random_chunking());
    assert_int_equal(xc_error_code(sr.result), XC_ERROR_WINDOW_TOO_LARGE);
    xc_zstd_dctx_reset(d);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 28), 0);
    zt_check_all_ways(d, frame, n, src, size, zt_random_chunking(), 0, "window 2^28");
    free(dst);
    free(frame);
    free(src);
    xc_zstd_dctx_free(d);
}

/* One context through frames of growing and shrinking windows. */
static void test_window_changes(void **state)
{
    (void)state;
    static const int wlogs[] = {10, 24, 12, 20, 10, 27, 15};
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    for (size_t i = 0; i < sizeof wlogs / sizeof wlogs[0]; i++) {
        zt_cparams p = {.level = 3, .checksum = 1, .content_size = 2, .window_log = wlogs[i]};
        zt_chunking ways[1] = {zt_random_chunking()};
        check_frame(d, (enum zt_kind)(i % ZT_KINDS), zt_scaled(50000 + xc_rand_below(100000)), &p,
                    ways, 1);
    }
    xc_zstd_dctx_free(d);
}

#endif /* XC_HAVE_LIBZSTD */

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_byte_pieces),
        cmocka_unit_test(test_hint),
        cmocka_unit_test(test_window_limit),
        cmocka_unit_test(test_reset_mid_frame),
#ifdef XC_HAVE_LIBZSTD
        cmocka_unit_test(test_random_pieces),
        cmocka_unit_test(test_larger_than_window),
        cmocka_unit_test(test_long_distance),
        cmocka_unit_test(test_workers),
        cmocka_unit_test(test_window_limit_libzstd),
        cmocka_unit_test(test_window_changes),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
