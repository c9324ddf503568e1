/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compression with workers (XC_ZSTD_C_NB_WORKERS, compress_mt.c):
 * - frames round-trip through our decoder and libzstd's for 1..8 workers,
 *   on inputs of several kinds and sizes, one-shot and streamed in random
 *   pieces with random flushes;
 * - the frame does not depend on the number of workers (one-shot, and
 *   streamed with the same flush points), nor on the tier: the suite runs
 *   under every XC_CPUCAP tier and each run compares a digest of its frames
 *   with the one written in this file;
 * - a streamed frame with a pledged size and no flush is the one-shot
 *   frame; an input of one job is the frame of nb_workers = 0;
 * - a dictionary and long-distance matching with workers; a shared pool;
 * - a slow first job, which the jobs after it overtake: the same frame for
 *   every count of workers, and an output too small fails cleanly;
 * - the default job size: libzstd's when the content size is unknown, a
 *   sixteenth (an eighth for fast and dfast) of a known content within
 *   its floor and that ceiling;
 * - reset and free in the middle of a frame, errors mid-frame (a pledged
 *   size not met) leave no job behind (ASan and TSan watch it);
 * - the parameters' bounds and defaults are libzstd's;
 * - XC_ZSTD_D_NB_WORKERS decodes several frames at once, with the serial
 *   decoder's results and errors.
 * Under ThreadSanitizer (XC_TEST_THREADS_ONLY) a smaller set runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XC_HAVE_LIBZSTD
#  include <zstd.h>
#endif

#include "xc_test.h"
#include "zstd/compress/compress_internal.h"
#include "zstd_test_util.h"

#define ERR(e) ((size_t) - (XC_ERROR_##e))
#define XC_TEST_MIN(a, b) ((a) < (b) ? (a) : (b))
#define XC_ARRAY_SIZE_T(a) (sizeof(a) / sizeof((a)[0]))
/* See test_frames_digest. */
#define XC_WORKERS_DIGEST 0x0e6a32776a3c3f58ull
#define JOB ((size_t)512 << 10)

static int tsan_mode(void) { return getenv("XC_TEST_THREADS_ONLY") != NULL; }

static xc_zstd_cctx *new_cctx(int level, int workers, int job_size)
{
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, workers), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_SIZE, job_size), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, 1), 0);
    return c;
}

static uint8_t *oneshot(xc_zstd_cctx *c, const void *src, size_t n, size_t *size)
{
    size_t const cap = xc_zstd_compress_bound(n);
    uint8_t *dst = zt_malloc(cap);
    size_t const r = xc_zstd_compress_cctx(c, dst, cap, src, n);
    if (xc_is_error(r)) {
        print_error("compress: %s\n", xc_error_name(r));
        fail();
    }
    *size = r;
    return dst;
}

/* Streams src in pieces of random size with random output room; flushes
 * after the inputs' bytes listed in flush_at (sorted, n_flush of them). */
static uint8_t *streamed(xc_zstd_cctx *c, const uint8_t *src, size_t n, const size_t *flush_at,
                         unsigned n_flush, uint64_t seed, size_t *size)
{
    size_t const cap = xc_zstd_compress_bound(n) + 64 + 3 * n_flush;
    uint8_t *dst = zt_malloc(cap);
    uint64_t s = seed;
    xc_out_buffer out = {dst, 0, 0};
    xc_in_buffer in = {src, 0, 0};
    unsigned f = 0;
    for (;;) {
        size_t const limit = f < n_flush ? flush_at[f] : n;
        size_t const piece = 1 + zt_below(&s, 300000);
        in.size = XC_TEST_MIN(limit, in.pos + piece);
        int const at_limit = in.size == limit;
        xc_zstd_end_op const op = !at_limit ? XC_ZSTD_E_CONTINUE
                                  : f < n_flush ? XC_ZSTD_E_FLUSH
                                                : XC_ZSTD_E_END;
        size_t r;
        do {
            out.size = XC_TEST_MIN(cap, out.pos + 1 + zt_below(&s, 200000));
            r = xc_zstd_compress_stream(c, &out, &in, op);
            if (xc_is_error(r)) {
                print_error("stream: %s\n", xc_error_name(r));
                fail();
            }
        } while (op != XC_ZSTD_E_CONTINUE && (r != 0 || in.pos < in.size));
        while (op == XC_ZSTD_E_CONTINUE && in.pos < in.size) {
            out.size = XC_TEST_MIN(cap, out.pos + 1 + zt_below(&s, 200000));
            r = xc_zstd_compress_stream(c, &out, &in, op);
            assert_false(xc_is_error(r));
        }
        if (op == XC_ZSTD_E_FLUSH) f++;
        if (op == XC_ZSTD_E_END) break;
    }
    *size = out.pos;
    return dst;
}

static void check_decodes(const uint8_t *frame, size_t size, const uint8_t *want, size_t n,
                          const char *what)
{
    uint8_t *back = zt_malloc(n);
    size_t r = xc_zstd_decompress(back, n, frame, size);
    if (xc_is_error(r) || r != n || memcmp(back, want, n) != 0) {
        print_error("%s: our decoder: %s\n", what, xc_is_error(r) ? xc_error_name(r) : "differs");
        fail();
    }
#ifdef XC_HAVE_LIBZSTD
    memset(back, 0, n);
    r = ZSTD_decompress(back, n, frame, size);
    if (ZSTD_isError(r) || r != n || memcmp(back, want, n) != 0) {
        print_error("%s: libzstd: %s\n", what, ZSTD_isError(r) ? ZSTD_getErrorName(r) : "differs");
        fail();
    }
#endif
    free(back);
}

/* The first frame of a sweep is checked to decode and kept as *ref; each
 * later one must be the same bytes, and is freed. */
static void keep_or_compare(uint8_t **ref, size_t *ref_size, uint8_t *frame, size_t size,
                            const uint8_t *src, size_t n, const char *what)
{
    if (!*ref) {
        check_decodes(frame, size, src, n, what);
        *ref = frame;
        *ref_size = size;
        return;
    }
    assert_int_equal(size, *ref_size);
    assert_memory_equal(frame, *ref, size);
    free(frame);
}

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

/* ---- one-shot and streamed, 1..8 workers ------------------------------------------ */

typedef struct {
    enum zt_kind kind;
    size_t size;
    int level;
} job_case;

/* Inputs of several jobs of 512 KiB (the smallest job), at levels of every
 * strategy family: fast, dfast, lazy (rows), lazy2, btlazy2, btopt,
 * btultra2. */
static const job_case cases[] = {
    {ZT_TEXT, 1800000, 1},   {ZT_MIXED, 2100000, 3},  {ZT_JSON, 1600000, 5},
    {ZT_SOURCE, 1200000, 7}, {ZT_BINARY, 1100000, 12}, {ZT_RUNS, 1300000, 3},
    {ZT_RANDOM, 1100000, 3}, {ZT_TEXT, 800000, 16},    {ZT_MIXED, 700000, 19},
};

/* Every count of workers from 1 to 8 for the fast levels; for the slow
 * ones, where each frame takes long, 1 and 3. */
static int sweeps(int level, unsigned w)
{
    return level <= 5 || w == 1 || w == 3;
}

/* The digest of every frame the test below writes, the same on every tier
 * and architecture (printed when it differs, to update after a deliberate
 * change of the encoder). */
static void test_workers_oneshot_and_stream(void **state)
{
    (void)state;
    unsigned const max_workers = tsan_mode() ? 3 : 8;
    size_t const ncases = tsan_mode() ? 3 : XC_ARRAY_SIZE_T(cases);
    for (size_t k = 0; k < ncases; k++) {
        job_case const *jc = &cases[k];
        size_t const n = xc_test_quick() ? jc->size / 2 : jc->size;
        uint8_t *src = zt_make(jc->kind, n, 1000 + k);
        char what[96];

        size_t ref_size = 0;
        uint8_t *ref = NULL;
        size_t flush_at[3] = {n / 5, n / 5 + 70000, (n * 3) / 4};
        size_t ref_f_size = 0;
        uint8_t *ref_f = NULL;
        unsigned const top = jc->level > 5 ? XC_TEST_MIN(max_workers, 3u) : max_workers;
        for (unsigned w = 1; w <= top; w++) {
            if (!sweeps(jc->level, w)) continue;
            snprintf(what, sizeof what, "%s %zu level %d, %u workers", zt_kind_names[jc->kind], n,
                     jc->level, w);
            xc_zstd_cctx *c = new_cctx(jc->level, (int)w, (int)JOB);
            size_t size;
            uint8_t *frame = oneshot(c, src, n, &size);
            if (!ref) {
                check_decodes(frame, size, src, n, what);
                ref = frame;
                ref_size = size;
            } else {
                if (size != ref_size || memcmp(frame, ref, size) != 0) {
                    print_error("%s: one-shot frame differs from 1 worker's\n", what);
                    fail();
                }
                free(frame);
            }
            /* Streamed with a pledge and no flush: the one-shot frame. */
            if (w == top || (w == 2 && jc->level <= 5)) {
                assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n), 0);
                frame = streamed(c, src, n, NULL, 0, 77 + w, &size);
                if (size != ref_size || memcmp(frame, ref, size) != 0) {
                    print_error("%s: streamed frame differs from one-shot\n", what);
                    fail();
                }
                free(frame);
            }
            /* Streamed with flushes, size unknown: the same for every
             * count of workers, however the pieces fall. */
            frame = streamed(c, src, n, flush_at, 3, 99 + w, &size);
            if (!ref_f) {
                check_decodes(frame, size, src, n, what);
                ref_f = frame;
                ref_f_size = size;
            } else {
                if (size != ref_f_size || memcmp(frame, ref_f, size) != 0) {
                    print_error("%s: flushed stream differs from 1 worker's\n", what);
                    fail();
                }
                free(frame);
            }
            xc_zstd_cctx_free(c);
        }
        free(ref);
        free(ref_f);
        free(src);
    }
}

/* The first job is text at a slow level, the others zeros: with two or
 * more workers the later jobs finish first and wait for it out of their
 * slots.  The frame is the same for every count of workers; an output
 * that is too small fails with DST_TOO_SMALL and the context compresses
 * again afterwards. */
static void test_slow_first_job(void **state)
{
    (void)state;
    size_t const n = 12 * JOB;
    uint8_t *src = zt_malloc(n);
    memset(src, 0, n);
    zt_gen(ZT_TEXT, src, JOB, 77);
    size_t ref_size = 0;
    uint8_t *ref = NULL;
    unsigned const top = tsan_mode() ? 2 : 4;
    for (unsigned w = 1; w <= top; w++) {
        xc_zstd_cctx *c = new_cctx(12, (int)w, (int)JOB);
        size_t size;
        uint8_t *frame = oneshot(c, src, n, &size);
        keep_or_compare(&ref, &ref_size, frame, size, src, n, "slow first job");
        uint8_t *small = zt_malloc(ref_size - 1);
        assert_int_equal(xc_zstd_compress_cctx(c, small, ref_size - 1, src, n),
                         ERR(DST_TOO_SMALL));
        free(small);
        frame = oneshot(c, src, n, &size);
        assert_int_equal(size, ref_size);
        assert_memory_equal(frame, ref, size);
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(ref);
    free(src);
}

/* The default job: libzstd's 4 windows without a content size, a
 * sixteenth of the content (an eighth for fast and dfast) when that is
 * smaller, never under 2 windows or 8 overlaps; a job size set is kept. */
static void test_default_job_size(void **state)
{
    (void)state;
    xc_zstd_cparams const p9 = xc_zstd_level_params(9, XC_ZSTD_SIZE_UNKNOWN);
    size_t const window = (size_t)1 << p9.window_log;
    size_t const ov = xc_zstd_mt_overlap(NULL, &p9);
    size_t const base = XC_TEST_MIN(4 * window, (size_t)1 << 30);
    size_t const floor = window * 2 > ov * 8 ? window * 2 : ov * 8;
    assert_true(floor < base);
    assert_int_equal(xc_zstd_mt_job_size(NULL, &p9, XC_ZSTD_SIZE_UNKNOWN), base);
    assert_int_equal(xc_zstd_mt_job_size(NULL, &p9, (uint64_t)base * 64), base);
    assert_int_equal(xc_zstd_mt_job_size(NULL, &p9, (uint64_t)floor * 16), floor);
    assert_int_equal(xc_zstd_mt_job_size(NULL, &p9, (uint64_t)floor * 16 + 160), floor + 10);
    assert_int_equal(xc_zstd_mt_job_size(NULL, &p9, (uint64_t)floor * 4), floor);
    /* dfast (level 3) takes an eighth of the content. */
    xc_zstd_cparams const p3 = xc_zstd_level_params(3, XC_ZSTD_SIZE_UNKNOWN);
    size_t const base3 = (size_t)4 << p3.window_log;
    assert_int_equal(xc_zstd_mt_job_size(NULL, &p3, (uint64_t)base3 * 4), base3 / 2);
    assert_int_equal(xc_zstd_mt_job_size(NULL, &p3, (uint64_t)base3 * 16), base3);
    /* Level 19 overlaps a whole window: 8 overlaps are over libzstd's job. */
    xc_zstd_cparams const p19 = xc_zstd_level_params(19, XC_ZSTD_SIZE_UNKNOWN);
    size_t const base19 = (size_t)4 << p19.window_log;
    assert_int_equal(xc_zstd_mt_job_size(NULL, &p19, (uint64_t)1 << 30), base19);
    xc_zstd_cctx *c = new_cctx(9, 2, (int)(3 * JOB));
    assert_int_equal(xc_zstd_mt_job_size(c, &p9, (uint64_t)1 << 30), 3 * JOB);
    xc_zstd_cctx_free(c);
}

/* An input of one job is compressed in the calling thread into the frame
 * of nb_workers = 0. */
static void test_one_job_is_serial_frame(void **state)
{
    (void)state;
    size_t const n = 300000;
    uint8_t *src = zt_make(ZT_MIXED, n, 5);
    xc_zstd_cctx *c0 = new_cctx(3, 0, 0);
    xc_zstd_cctx *c2 = new_cctx(3, 2, 0);
    size_t s0, s2;
    uint8_t *f0 = oneshot(c0, src, n, &s0);
    uint8_t *f2 = oneshot(c2, src, n, &s2);
    assert_int_equal(s0, s2);
    assert_memory_equal(f0, f2, s0);
    free(f2);
    /* Streamed in pieces with the size pledged: the same frame. */
    assert_int_equal(xc_zstd_cctx_set_pledged_size(c2, n), 0);
    f2 = streamed(c2, src, n, NULL, 0, 3, &s2);
    assert_int_equal(s0, s2);
    assert_memory_equal(f0, f2, s0);
    free(f0);
    free(f2);
    xc_zstd_cctx_free(c0);
    xc_zstd_cctx_free(c2);
    free(src);
}

/* Across tiers and ISAs: a digest of frames with several jobs, against the
 * value this file holds. */
static void test_frames_digest(void **state)
{
    (void)state;
    if (xc_test_quick() || tsan_mode()) skip();
    static const int levels[] = {1, 3, 6, 13, 17};
    uint64_t h = 0xcbf29ce484222325ull;
    size_t const n = 1700000;
    uint8_t *src = zt_make(ZT_MIXED, n, 424242);
    for (size_t i = 0; i < XC_ARRAY_SIZE_T(levels); i++) {
        xc_zstd_cctx *c = new_cctx(levels[i], 2, (int)JOB);
        size_t size;
        uint8_t *frame = oneshot(c, src, n, &size);
        h = fnv(h, frame, size);
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(src);
    print_message("workers frames digest %016llx (%s)\n", (unsigned long long)h,
                  xc_impl_name("zstd_encode"));
    assert_true(h == XC_WORKERS_DIGEST);
}

/* ---- dictionary, long-distance matching, shared pool -------------------------------- */

static void test_dictionary_with_workers(void **state)
{
    (void)state;
    size_t const n = tsan_mode() ? 1200000 : 2000000;
    uint8_t *src = zt_make(ZT_JSON, n, 17);
    /* The dictionary: records of the same kind. */
    uint8_t *dict = zt_make(ZT_JSON, 60000, 18);
    xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, 60000, 3);
    assert_non_null(cd);
    size_t ref_size = 0;
    uint8_t *ref = NULL;
    for (int w = 1; w <= 4; w++) {
        xc_zstd_cctx *c = new_cctx(3, w, (int)JOB);
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        size_t size;
        uint8_t *frame = oneshot(c, src, n, &size);
        if (!ref) {
            uint8_t *back = zt_malloc(n);
            xc_zstd_dctx *d = xc_zstd_dctx_new();
            xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, 60000);
            assert_int_equal(xc_zstd_dctx_ref_ddict(d, dd), 0);
            assert_int_equal(xc_zstd_decompress_dctx(d, back, n, frame, size), n);
            assert_memory_equal(back, src, n);
#ifdef XC_HAVE_LIBZSTD
            ZSTD_DCtx *z = ZSTD_createDCtx();
            assert_int_equal(ZSTD_decompress_usingDict(z, back, n, frame, size, dict, 60000), n);
            assert_memory_equal(back, src, n);
            ZSTD_freeDCtx(z);
#endif
            xc_zstd_ddict_free(dd);
            xc_zstd_dctx_free(d);
            free(back);
            ref = frame;
            ref_size = size;
        } else {
            assert_int_equal(size, ref_size);
            assert_memory_equal(frame, ref, size);
            free(frame);
        }
        /* Streamed with the pledge: the same frame. */
        assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n), 0);
        frame = streamed(c, src, n, NULL, 0, 5, &size);
        assert_int_equal(size, ref_size);
        assert_memory_equal(frame, ref, size);
        free(frame);
        xc_zstd_cctx_free(c);
    }
    free(ref);
    xc_zstd_cdict_free(cd);
    free(dict);
    free(src);
}

static void test_ldm_with_workers(void **state)
{
    (void)state;
    /* A block of random bytes repeated far apart. */
    size_t const n = tsan_mode() ? 2400000 : 4200000;
    uint8_t *src = zt_malloc(n);
    zt_gen_random(src, n / 3, 9);
    zt_gen_text(src + n / 3, n / 3, 10);
    memcpy(src + 2 * (n / 3), src, n - 2 * (n / 3));
    size_t ref_size = 0;
    uint8_t *ref = NULL;
    for (int w = 1; w <= 3; w++) {
        xc_zstd_cctx *c = new_cctx(3, w, 0);
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LONG_DISTANCE, 1), 0);
        size_t size;
        uint8_t *frame = oneshot(c, src, n, &size);
        keep_or_compare(&ref, &ref_size, frame, size, src, n, "ldm");
        xc_zstd_cctx_free(c);
    }
    free(ref);
    free(src);
}

static void test_shared_pool(void **state)
{
    (void)state;
    xc_thread_pool *pool = xc_thread_pool_new(2);
    assert_non_null(pool);
    assert_null(xc_thread_pool_new(0));
    assert_null(xc_thread_pool_new(XC_THREAD_POOL_MAX + 1));
    size_t const n = 1500000;
    uint8_t *src = zt_make(ZT_TEXT, n, 33);
    xc_zstd_cctx *own = new_cctx(3, 4, (int)JOB);
    size_t ref_size;
    uint8_t *ref = oneshot(own, src, n, &ref_size);
    xc_zstd_cctx *c[3];
    for (int i = 0; i < 3; i++) {
        c[i] = new_cctx(3, 4, (int)JOB);
        assert_int_equal(xc_zstd_cctx_ref_thread_pool(c[i], pool), 0);
    }
    /* Three contexts with frames in progress at once on one pool. */
    xc_in_buffer in[3];
    xc_out_buffer out[3];
    uint8_t *dst[3];
    size_t const cap = xc_zstd_compress_bound(n);
    for (int i = 0; i < 3; i++) {
        dst[i] = zt_malloc(cap);
        in[i] = (xc_in_buffer){src, 0, 0};
        out[i] = (xc_out_buffer){dst[i], cap, 0};
        assert_int_equal(xc_zstd_cctx_set_pledged_size(c[i], n), 0);
    }
    for (size_t pos = 0; pos < n;) {
        size_t const step = XC_TEST_MIN((size_t)400000, n - pos);
        pos += step;
        for (int i = 0; i < 3; i++) {
            in[i].size = pos;
            assert_false(xc_is_error(xc_zstd_compress_stream(c[i], &out[i], &in[i],
                                                             XC_ZSTD_E_CONTINUE)));
        }
    }
    for (int i = 0; i < 3; i++) {
        size_t r;
        do r = xc_zstd_compress_stream(c[i], &out[i], &in[i], XC_ZSTD_E_END);
        while (r != 0 && !xc_is_error(r));
        assert_int_equal(r, 0);
        assert_int_equal(out[i].pos, ref_size);
        assert_memory_equal(dst[i], ref, ref_size);
        free(dst[i]);
        xc_zstd_cctx_free(c[i]);
    }
    xc_thread_pool_free(pool);
    free(ref);
    xc_zstd_cctx_free(own);
    free(src);
}

/* ---- abandoning frames -------------------------------------------------------------- */

static void test_reset_and_free_mid_frame(void **state)
{
    (void)state;
    size_t const n = 3000000;
    uint8_t *src = zt_make(ZT_SOURCE, n, 61);
    size_t const cap = xc_zstd_compress_bound(n);
    uint8_t *dst = zt_malloc(cap);
    xc_zstd_cctx *c = new_cctx(5, 3, (int)JOB);
    size_t ref_size;
    uint8_t *ref = oneshot(c, src, n, &ref_size);
    for (int round = 0; round < 3; round++) {
        /* Jobs in flight, then a reset: the next frame is whole and the
         * same as before. */
        xc_in_buffer in = {src, n, 0};
        xc_out_buffer out = {dst, 100, 0};
        size_t r = xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE);
        assert_false(xc_is_error(r));
        assert_int_equal(xc_zstd_cctx_reset(c), 0);
        size_t size;
        uint8_t *frame = oneshot(c, src, n, &size);
        assert_int_equal(size, ref_size);
        assert_memory_equal(frame, ref, size);
        free(frame);
    }
    /* A pledge not met ends the frame with an error, jobs in flight. */
    assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n + 1), 0);
    {
        xc_in_buffer in = {src, n, 0};
        xc_out_buffer out = {dst, cap, 0};
        size_t r;
        do r = xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END);
        while (r != 0 && !xc_is_error(r));
        assert_int_equal(r, ERR(SRC_SIZE_WRONG));
        assert_int_equal(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END), ERR(STAGE_WRONG));
        assert_int_equal(xc_zstd_cctx_reset(c), 0);
    }
    /* A destination too small for one-shot. */
    assert_int_equal(xc_zstd_compress_cctx(c, dst, ref_size - 1, src, n), ERR(DST_TOO_SMALL));
    /* Freed with jobs in flight. */
    {
        xc_in_buffer in = {src, n, 0};
        xc_out_buffer out = {dst, 10, 0};
        assert_false(xc_is_error(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_FLUSH)));
    }
    xc_zstd_cctx_free(c);
    free(ref);
    free(dst);
    free(src);
}

/* ---- parameters ---------------------------------------------------------------------- */

static void test_parameters(void **state)
{
    (void)state;
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    /* Clamped into range, as libzstd does. */
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, 1000), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, -1), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_SIZE, 1), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_OVERLAP_LOG, 12), 0);
    assert_int_equal(xc_zstd_cctx_ref_thread_pool(NULL, NULL), ERR(BAD_PARAMETER));
    /* nb_workers = 0 again after -1: frames are the serial ones. */
    size_t const n = 1200000;
    uint8_t *src = zt_make(ZT_TEXT, n, 2);
    xc_zstd_cctx *c0 = new_cctx(3, 0, 0);
    size_t s, s0;
    uint8_t *f = oneshot(c, src, n, &s);
    assert_int_equal(xc_zstd_cctx_set(c0, XC_ZSTD_C_CHECKSUM, 0), 0);
    uint8_t *f0 = oneshot(c0, src, n, &s0);
    assert_int_equal(s, s0);
    assert_memory_equal(f, f0, s);
    free(f);
    free(f0);
    /* Overlap none (1) and whole window (9) both round-trip. */
    for (int ov = 1; ov <= 9; ov += 8) {
        xc_zstd_cctx *w = new_cctx(3, 2, (int)JOB);
        assert_int_equal(xc_zstd_cctx_set(w, XC_ZSTD_C_OVERLAP_LOG, ov), 0);
        f = oneshot(w, src, n, &s);
        check_decodes(f, s, src, n, "overlap");
        free(f);
        xc_zstd_cctx_free(w);
    }
    /* The estimate grows with the workers. */
    size_t const e0 = xc_zstd_estimate_cctx_size_workers(3, 0);
    assert_int_equal(e0, xc_zstd_estimate_cctx_size(3));
    size_t const e2 = xc_zstd_estimate_cctx_size_workers(3, 2);
    size_t const e4 = xc_zstd_estimate_cctx_size_workers(3, 4);
    assert_true(e0 < e2 && e2 < e4);
    assert_int_equal(xc_zstd_estimate_cctx_size_workers(99, 2), ERR(BAD_PARAMETER));
    {
        /* What a streaming context with 2 workers holds stays within it. */
        xc_zstd_cctx *w = new_cctx(3, 2, 0);
        uint8_t *fr = streamed(w, src, n, NULL, 0, 1, &s);
        free(fr);
        assert_true(xc_zstd_cctx_mem_held(w) <= e2);
        xc_zstd_cctx_free(w);
    }
    xc_zstd_cctx_free(c0);
    xc_zstd_cctx_free(c);
    free(src);
}

#ifdef XC_HAVE_LIBZSTD
/* libzstd reads our frames with workers, and we read libzstd's. */
static void test_libzstd_peer(void **state)
{
    (void)state;
    if (!zt_have_workers()) skip();
    size_t const n = 1800000;
    uint8_t *src = zt_make(ZT_MIXED, n, 8);
    zt_cparams p = {0};
    p.level = 3;
    p.checksum = 1;
    p.content_size = 1;
    p.workers = 2;
    p.job_size = (int)JOB;
    size_t size;
    uint8_t *frame = zt_compress(src, n, &p, &size);
    check_decodes(frame, size, src, n, "libzstd's frame");
    free(frame);
    free(src);
}
#endif

/* ---- parallel decompression of several frames ------------------------------------------- */

static void test_decompress_frames_in_parallel(void **state)
{
    (void)state;
    enum { FRAMES = 6 };
    size_t const each = 700000;
    size_t const n = FRAMES * each;
    uint8_t *src = zt_make(ZT_MIXED, n, 123);
    size_t const cap = xc_zstd_compress_bound(n) + FRAMES * 64;
    uint8_t *frames = zt_malloc(cap);
    size_t fsize = 0;
    size_t starts[FRAMES];
    xc_zstd_cctx *c = new_cctx(1, 0, 0);
    for (int i = 0; i < FRAMES; i++) {
        starts[i] = fsize;
        size_t const r = xc_zstd_compress_cctx(c, frames + fsize, cap - fsize, src + i * each, each);
        assert_false(xc_is_error(r));
        fsize += r;
        if (i == 2) {
            /* A skippable frame between two frames. */
            static const uint8_t skip[12] = {0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4};
            memcpy(frames + fsize, skip, sizeof skip);
            fsize += sizeof skip;
        }
    }
    uint8_t *back = zt_malloc(n);
    for (int w = 0; w <= 4; w++) {
        xc_zstd_dctx *d = xc_zstd_dctx_new();
        assert_non_null(d);
        assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_NB_WORKERS, w), 0);
        memset(back, 0, n);
        assert_int_equal(xc_zstd_decompress_dctx(d, back, n, frames, fsize), n);
        assert_memory_equal(back, src, n);
        /* Too small a destination, and a corrupt fifth frame: the serial
         * decoder's errors. */
        assert_int_equal(xc_zstd_decompress_dctx(d, back, n - 1, frames, fsize),
                         ERR(DST_TOO_SMALL));
        uint8_t const saved = frames[starts[4] + 20];
        frames[starts[4] + 20] ^= 0x5A;
        size_t const serial = xc_zstd_decompress(back, n, frames, fsize);
        assert_true(xc_is_error(serial));
        assert_int_equal(xc_zstd_decompress_dctx(d, back, n, frames, fsize), serial);
        frames[starts[4] + 20] = saved;
        /* Truncated in the last frame. */
        assert_int_equal(xc_zstd_decompress_dctx(d, back, n, frames, fsize - 5),
                         xc_zstd_decompress(back, n, frames, fsize - 5));
        xc_zstd_dctx_free(d);
    }
    xc_zstd_cctx_free(c);
    free(back);
    free(frames);
    free(src);
}

/* A library built without threads (XCODEC_THREADS=OFF). */
static void test_without_threads(void **state)
{
    (void)state;
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, 1), ERR(UNSUPPORTED));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_SIZE, 1 << 20), ERR(UNSUPPORTED));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, 0), 0);
    assert_null(xc_thread_pool_new(2));
    assert_int_equal(xc_zstd_estimate_cctx_size_workers(3, 2), ERR(UNSUPPORTED));
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_NB_WORKERS, 2), ERR(UNSUPPORTED));
    xc_zstd_dctx_free(d);
    xc_zstd_cctx_free(c);
}

int main(void)
{
    xc_test_init();
    {
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        size_t const r = c ? xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, 1) : 0;
        xc_zstd_cctx_free(c);
        if (r == ERR(UNSUPPORTED)) {
            const struct CMUnitTest none[] = {cmocka_unit_test(test_without_threads)};
            return cmocka_run_group_tests(none, NULL, NULL);
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parameters),
        cmocka_unit_test(test_one_job_is_serial_frame),
        cmocka_unit_test(test_slow_first_job),
        cmocka_unit_test(test_default_job_size),
        cmocka_unit_test(test_workers_oneshot_and_stream),
        cmocka_unit_test(test_frames_digest),
        cmocka_unit_test(test_dictionary_with_workers),
        cmocka_unit_test(test_ldm_with_workers),
        cmocka_unit_test(test_shared_pool),
        cmocka_unit_test(test_reset_and_free_mid_frame),
        cmocka_unit_test(test_decompress_frames_in_parallel),
#ifdef XC_HAVE_LIBZSTD
        cmocka_unit_test(test_libzstd_peer),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
