/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd compression with dictionaries: raw content and zstd-format
 * dictionaries (the embedded trained one, and libzstd's ZDICT_trainFromBuffer
 * output when libzstd is there), loaded into a context or prepared once,
 * one-shot and streamed, checked through our decoder and libzstd's.  The
 * dictionary ID in the header, the flag that leaves it out, mismatched and
 * corrupt dictionaries, and many threads sharing one cdict and one ddict
 * (also run under ThreadSanitizer: with XC_TEST_THREADS_ONLY set, only that
 * test runs).  Contexts reused across frames: test_zstd_compress_dict_reuse.c.
 */
#include <pthread.h>

#include "xc_internal.h"
#include "zstd_enc_test_util.h"
#include "zstd_test_frames.h"
#ifdef XC_HAVE_LIBZSTD
#  include <zstd_errors.h>
#endif

static const int levels[] = {-3, 1, 2, 3, 4, 6, 9, 19};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* Compresses every record with c one-shot into frames[i] (cap bytes each). */
static void compress_all(xc_zstd_cctx *c, const uint8_t *src, const size_t *sizes, size_t count,
                         uint8_t *frames, size_t cap, size_t *fsizes)
{
    size_t off = 0;
    for (size_t i = 0; i < count; i++) {
        fsizes[i] = xc_zstd_compress_cctx(c, frames + i * cap, cap, src + off, sizes[i]);
        if (xc_is_error(fsizes[i])) print_error("compress: %s\n", xc_error_name(fsizes[i]));
        assert_false(xc_is_error(fsizes[i]));
        off += sizes[i];
    }
}

/* Per level: records through a loaded dictionary and through a cdict (the
 * same bytes), each frame decoded both ways; with the dictionary the
 * records must shrink. */
static void run_levels(const uint8_t *dict, size_t dsize, unsigned id)
{
    enum { COUNT = 12, CAP = 1024 };
    size_t sizes[COUNT], total;
    uint8_t *src = zt_json_records(COUNT, 99, sizes, &total);
    uint8_t *a = zt_malloc(COUNT * CAP), *b = zt_malloc(COUNT * CAP);
    size_t as[COUNT], bs[COUNT];
    for (size_t li = 0; li < NLEVELS; li++) {
        int const level = levels[li];
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_non_null(c);
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level), 0);
        assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, dsize), 0);
        compress_all(c, src, sizes, COUNT, a, CAP, as);

        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, level);
        assert_non_null(cd);
        assert_int_equal(xc_zstd_cdict_id(cd), id);
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        compress_all(c, src, sizes, COUNT, b, CAP, bs);

        size_t off = 0, with = 0, without = 0;
        for (size_t i = 0; i < COUNT; i++) {
            assert_int_equal(as[i], bs[i]);
            assert_memory_equal(a + i * CAP, b + i * CAP, as[i]);
            zt_check_dict_frame(dict, dsize, a + i * CAP, as[i], src + off, sizes[i], id);
            with += as[i];
            without += xc_zstd_compress(b, CAP, src + off, sizes[i], level);
            off += sizes[i];
        }
        if (with * 10 > without * 7) {
            print_error("level %d: %zu bytes with the dictionary, %zu without\n", level, with,
                        without);
            fail();
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
    }
    free(src);
    free(a);
    free(b);
}

static void test_raw(void **state)
{
    (void)state;
    size_t dsize;
    uint8_t *dict = zt_raw_dict(&dsize);
    run_levels(dict, dsize, 0);
    free(dict);
}

static void test_formatted(void **state)
{
    (void)state;
    size_t dsize;
    const uint8_t *dict = zt_embedded_json_dict(&dsize);
    run_levels(dict, dsize, xc_read_le32(dict + 4));
}

/* Large inputs streamed in random pieces, with and without a pledged size,
 * with output room in random pieces too. */
static void test_streaming(void **state)
{
    (void)state;
    size_t dsize;
    const uint8_t *dict = zt_embedded_json_dict(&dsize);
    size_t const n = zt_scaled(300000);
    uint8_t *src = zt_make(ZT_JSON, n, 3);
    size_t const cap = xc_zstd_compress_bound(n);
    uint8_t *frame = zt_malloc(cap);
    static const int lv[] = {1, 3, 5};
    for (size_t li = 0; li < sizeof lv / sizeof lv[0]; li++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, lv[li]);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        for (int pledge = 0; pledge < 2; pledge++) {
            if (pledge) assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n), 0);
            xc_out_buffer out = {frame, 0, 0};
            xc_in_buffer in = {src, 0, 0};
            size_t r;
            do {
                /* (XC_MIN evaluates its arguments twice.) */
                size_t const more_in = in.size + 1 + xc_rand_below(40000);
                size_t const more_out = out.size + 1 + xc_rand_below(20000);
                in.size = XC_MIN(n, more_in);
                out.size = XC_MIN(cap, more_out);
                xc_zstd_end_op const op = in.size < n ? (xc_rand_below(4) ? XC_ZSTD_E_CONTINUE
                                                                         : XC_ZSTD_E_FLUSH)
                                                      : XC_ZSTD_E_END;
                r = xc_zstd_compress_stream(c, &out, &in, op);
                if (xc_is_error(r))
                    print_error("level %d pledge %d in %zu/%zu: %s\n", lv[li], pledge, in.pos,
                                in.size, xc_error_name(r));
                assert_false(xc_is_error(r));
            } while (in.pos < n || r != 0);
            zt_check_dict_frame(dict, dsize, frame, out.pos, src, n, xc_read_le32(dict + 4));
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
    }
    free(src);
    free(frame);
}

/* Inputs around the sizes where frames stop searching the dictionary in
 * place, and a window smaller than the dictionary (only its end is used). */
static void test_sizes_and_windows(void **state)
{
    (void)state;
    static const size_t lens[] = {0, 1, 13, 8191, 8192, 8193, 16384, 16385, 70000};
    static const int lv[] = {1, 2, 3, 4};
    size_t dsize;
    uint8_t *dict = zt_raw_dict(&dsize);
    size_t const n = 70000;
    uint8_t *src = zt_make(ZT_JSON, n, 8);
    size_t const cap = xc_zstd_compress_bound(n);
    uint8_t *frame = zt_malloc(cap);
    for (size_t li = 0; li < sizeof lv / sizeof lv[0]; li++) {
        for (int small_window = 0; small_window < 4; small_window++) {
            /* 2, 3: tiny dictionaries. */
            if (small_window >= 2) dsize = small_window == 2 ? 9 : 100;
            xc_zstd_cctx *c = xc_zstd_cctx_new();
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, lv[li]), 0);
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_CHECKSUM, small_window & 1), 0);
            if (small_window == 1)
                assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_WINDOW_LOG, 12), 0);
            assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, dsize), 0);
            for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
                size_t const f = xc_zstd_compress_cctx(c, frame, cap, src, lens[i]);
                if (xc_is_error(f))
                    print_error("level %d window %d size %zu: %s\n", lv[li], small_window,
                                lens[i], xc_error_name(f));
                assert_false(xc_is_error(f));
                zt_check_dict_frame(dict, dsize, frame, f, src, lens[i], 0);
            }
            xc_zstd_cctx_free(c);
        }
        free(dict);
        dict = zt_raw_dict(&dsize);
    }
    free(dict);
    free(src);
    free(frame);
}

/* An input that is a slice of the content, too large to attach (20 KB)
 * after content of 30 KB: the window must reach back over the content and
 * the input together, as libzstd's does (it writes 19 bytes).  With the
 * window of the input alone, 32 KiB, levels 1-4 wrote 12 KB. */
static void test_window_reaches_content(void **state)
{
    (void)state;
    size_t const dn = 30000, n = 20000;
    uint8_t *dict = zt_malloc(dn);
    xc_rand_fill(dict, dn);
    const uint8_t *src = dict + 5000;
    size_t const cap = xc_zstd_compress_bound(n);
    uint8_t *frame = zt_malloc(cap);
    for (int level = 1; level <= 6; level++) {
        for (int prepared = 0; prepared < 2; prepared++) {
            xc_zstd_cctx *c = xc_zstd_cctx_new();
            xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dn, level);
            assert_true(c && cd);
            assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level), 0);
            if (prepared)
                assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
            else
                assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, dn), 0);
            size_t const f = xc_zstd_compress_cctx(c, frame, cap, src, n);
            assert_false(xc_is_error(f));
            if (f > 64) {
                print_error("level %d %s: %zu bytes\n", level, prepared ? "cdict" : "loaded", f);
                fail();
            }
            zt_check_dict_frame(dict, dn, frame, f, src, n, 0);
            xc_zstd_cctx_free(c);
            xc_zstd_cdict_free(cd);
        }
    }
    free(dict);
    free(frame);
}

/* Large inputs of known size take the level's parameters and load the
 * content into tables of their own, where the dictionary's tables (sized
 * for small inputs) would cost ratio.  Frames alternate with small ones,
 * which copy or attach the dictionary's tables again, so each path starts
 * from what the other left behind.  A dictionary can only help such an
 * input: its frame is not larger than the frame without one (plus a
 * little), which the dictionary's own small tables would not achieve. */
static void test_large_inputs(void **state)
{
    (void)state;
    static const int lv[] = {1, 3, 5, 9, 13, 16, 19};
    size_t const lv_count = xc_test_quick() ? 3 : sizeof lv / sizeof lv[0];
    size_t dsize;
    uint8_t *dict = zt_raw_dict(&dsize);
    size_t const n = 200000;
    assert_true(n / 6 >= dsize);
    uint8_t *src = zt_make(ZT_JSON, n, 31);
    for (size_t li = 0; li < lv_count; li++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, lv[li]);
        assert_non_null(cd);
        xc_zstd_cctx *plain = zt_new_cctx(lv[li]);
        size_t plain_size;
        free(zt_compress_oneshot(plain, src, n, &plain_size));
        xc_zstd_cctx_free(plain);

        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        for (int round = 0; round < 2; round++) {
            size_t fsize;
            uint8_t *frame = zt_compress_oneshot(c, src, n, &fsize);
            if (fsize > plain_size + plain_size / 200)
                print_error("level %d: %zu bytes with the dictionary, %zu without\n", lv[li],
                            fsize, plain_size);
            assert_true(fsize <= plain_size + plain_size / 200);
            zt_check_dict_frame(dict, dsize, frame, fsize, src, n, 0);
            free(frame);
            /* A small input between them (the dictionary's own tables). */
            frame = zt_compress_oneshot(c, src + 1000 * (size_t)round, 3000, &fsize);
            zt_check_dict_frame(dict, dsize, frame, fsize, src + 1000 * (size_t)round, 3000, 0);
            free(frame);
            /* Streamed with the size pledged: the same frame as one-shot. */
            size_t ssize, osize;
            assert_int_equal(xc_zstd_cctx_set_pledged_size(c, n - 7), 0);
            uint8_t *streamed = zt_compress_stream(c, src, n - 7, 4096, 0, 0, &ssize);
            uint8_t *oneshot = zt_compress_oneshot(c, src, n - 7, &osize);
            assert_int_equal(ssize, osize);
            assert_memory_equal(streamed, oneshot, osize);
            zt_check_dict_frame(dict, dsize, streamed, ssize, src, n - 7, 0);
            free(streamed);
            free(oneshot);
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
    }
    free(dict);
    free(src);
}

/* A formatted dictionary with another ID (the ID is not checked by any
 * checksum, so patching it keeps the dictionary valid). */
static uint8_t *with_id(uint32_t id, size_t *size)
{
    const uint8_t *d = zt_embedded_json_dict(size);
    uint8_t *p = zt_malloc(*size);
    memcpy(p, d, *size);
    xc_write_le32(p + 4, id);
    return p;
}

static void test_dict_id(void **state)
{
    (void)state;
    static const uint32_t ids[] = {200, 40000, 0x12345678};
    static const size_t id_bytes[] = {1, 2, 4};
    size_t sizes[1], n;
    uint8_t *rec = zt_json_records(1, 1, sizes, &n);
    uint8_t frame[1024], plain[1024];
    for (size_t i = 0; i < 3; i++) {
        size_t dsize;
        uint8_t *dict = with_id(ids[i], &dsize);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, dsize), 0);
        size_t const f = xc_zstd_compress_cctx(c, frame, sizeof frame, rec, n);
        assert_false(xc_is_error(f));
        zt_check_dict_frame(dict, dsize, frame, f, rec, n, ids[i]);
        /* Without the ID, the frame is id_bytes shorter and otherwise equal
         * after the header. */
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_DICT_ID, 0), 0);
        size_t const g = xc_zstd_compress_cctx(c, plain, sizeof plain, rec, n);
        assert_int_equal(g + id_bytes[i], f);
        assert_memory_equal(plain + 5, frame + 5 + id_bytes[i], g - 5);
        zt_check_dict_frame(dict, dsize, plain, g, rec, n, 0);

        /* Another dictionary's ID is refused; so is no dictionary. */
        size_t osize;
        uint8_t *other = with_id(ids[i] + 1, &osize);
        xc_zstd_dctx *d = xc_zstd_dctx_new();
        uint8_t out[1024];
        assert_int_equal(xc_zstd_dctx_load_dictionary(d, other, osize), 0);
        assert_int_equal(xc_error_code(xc_zstd_decompress_dctx(d, out, sizeof out, frame, f)),
                         XC_ERROR_DICT_MISMATCH);
        xc_zstd_dctx_reset(d);
        assert_int_equal(xc_error_code(xc_zstd_decompress_dctx(d, out, sizeof out, frame, f)),
                         XC_ERROR_DICT_MISSING);
        xc_zstd_dctx_free(d);
#ifdef XC_HAVE_LIBZSTD
        ZSTD_DCtx *z = ZSTD_createDCtx();
        size_t const zr = ZSTD_decompress_usingDict(z, out, sizeof out, frame, f, other, osize);
        assert_true(ZSTD_isError(zr));
        assert_int_equal(ZSTD_getErrorCode(zr), ZSTD_error_dictionary_wrong);
        ZSTD_freeDCtx(z);
#endif
        free(other);
        free(dict);
        xc_zstd_cctx_free(c);
    }
    free(rec);
}

static void test_corrupt(void **state)
{
    (void)state;
    size_t dsize;
    const uint8_t *good = zt_embedded_json_dict(&dsize);
    uint8_t *d = zt_malloc(dsize);
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    /* Every truncation is either refused as corrupt or (when only content
     * was cut) accepted; none crashes.  Short ones lose the tables. */
    size_t refused = 0;
    for (size_t n = 8; n < dsize; n += 1 + (n > 200) * 37) {
        size_t const r = xc_zstd_cctx_load_dictionary(c, good, n);
        if (xc_is_error(r)) {
            assert_int_equal(xc_error_code(r), XC_ERROR_DICT_CORRUPT);
            assert_null(xc_zstd_cdict_new(good, n, 3));
            refused++;
        }
    }
    assert_true(refused > 20);
    /* Garbage after the magic. */
    memcpy(d, good, dsize);
    memset(d + 8, 0xFF, 64);
    assert_int_equal(xc_error_code(xc_zstd_cctx_load_dictionary(c, d, dsize)),
                     XC_ERROR_DICT_CORRUPT);
    assert_null(xc_zstd_cdict_new(d, dsize, 1));
    /* Fewer than 8 bytes are raw content, even with the magic. */
    assert_int_equal(xc_zstd_cctx_load_dictionary(c, good, 7), 0);
    /* Arguments and stages. */
    assert_int_equal(xc_error_code(xc_zstd_cctx_load_dictionary(c, NULL, 5)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_cctx_load_dictionary(NULL, good, dsize)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_cctx_ref_cdict(NULL, NULL)), XC_ERROR_BAD_PARAMETER);
    assert_null(xc_zstd_cdict_new(good, dsize, 99));
    assert_null(xc_zstd_cdict_new(NULL, 10, 1));
    xc_zstd_cdict_free(NULL);
    uint8_t out[256];
    xc_out_buffer o = {out, sizeof out, 0};
    xc_in_buffer in = {good, 100, 0};
    assert_false(xc_is_error(xc_zstd_compress_stream(c, &o, &in, XC_ZSTD_E_CONTINUE)));
    assert_int_equal(xc_error_code(xc_zstd_cctx_load_dictionary(c, good, dsize)),
                     XC_ERROR_STAGE_WRONG);
    assert_int_equal(xc_error_code(xc_zstd_cctx_ref_cdict(c, NULL)), XC_ERROR_STAGE_WRONG);
    xc_zstd_cctx_reset(c);
    assert_int_equal(xc_zstd_cctx_load_dictionary(c, good, dsize), 0);
    assert_int_equal(xc_zstd_cctx_load_dictionary(c, NULL, 0), 0);
    xc_zstd_cctx_free(c);
    free(d);
}

#ifdef XC_HAVE_LIBZSTD
/* libzstd's trainer's dictionaries, at every level, and the sizes against
 * libzstd's with the same dictionary (printed, for a look). */
static void test_trained(void **state)
{
    (void)state;
    enum { SAMPLES = 400, COUNT = 40, CAP = 1024 };
    size_t ssizes[SAMPLES], stotal;
    uint8_t *samples = zt_json_records(SAMPLES, 11, ssizes, &stotal);
    size_t const dcap = xc_test_quick() ? 2048 : 8192;
    uint8_t *dict = zt_malloc(dcap);
    size_t const dsize = ZDICT_trainFromBuffer(dict, dcap, samples, ssizes, SAMPLES);
    assert_false(ZDICT_isError(dsize));
    unsigned const id = ZDICT_getDictID(dict, dsize);
    size_t sizes[COUNT], total;
    uint8_t *src = zt_json_records(COUNT, 12, sizes, &total);
    uint8_t frame[CAP];
    for (size_t li = 0; li < NLEVELS; li++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, levels[li]);
        ZSTD_CDict *zd = ZSTD_createCDict(dict, dsize, levels[li]);
        ZSTD_CCtx *zc = ZSTD_createCCtx();
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        size_t off = 0, ours = 0, theirs = 0;
        for (size_t i = 0; i < COUNT; i++) {
            size_t const f = xc_zstd_compress_cctx(c, frame, CAP, src + off, sizes[i]);
            assert_false(xc_is_error(f));
            zt_check_dict_frame(dict, dsize, frame, f, src + off, sizes[i], id);
            ours += f;
            theirs += ZSTD_compress_usingCDict(zc, frame, CAP, src + off, sizes[i], zd);
            off += sizes[i];
        }
        print_message("level %d: %zu bytes, libzstd %zu (%.3fx)\n", levels[li], ours, theirs,
                      (double)ours / (double)theirs);
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
        ZSTD_freeCDict(zd);
        ZSTD_freeCCtx(zc);
    }
    free(samples);
    free(dict);
    free(src);
}
#endif

/* ---- threads ----------------------------------------------------------------------- */

enum { TH_THREADS = 4, TH_RECORDS = 40, TH_CAP = 1024 };

typedef struct {
    const xc_zstd_cdict *cd;
    const xc_zstd_ddict *dd;
    const uint8_t *src;
    const size_t *sizes;
    const uint8_t *want;   /* TH_RECORDS frames of TH_CAP bytes */
    const size_t *wsizes;
    size_t count;
    int failed;
} th_job;

static void *th_run(void *arg)
{
    th_job *j = (th_job *)arg;
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    uint8_t frame[TH_CAP], out[TH_CAP];
    if (!c || !d || xc_zstd_cctx_ref_cdict(c, j->cd) || xc_zstd_dctx_ref_ddict(d, j->dd))
        j->failed = 1;
    for (int round = 0; round < 3 && !j->failed; round++) {
        size_t off = 0;
        for (size_t i = 0; i < j->count; i++) {
            size_t const f = xc_zstd_compress_cctx(c, frame, sizeof frame, j->src + off,
                                                   j->sizes[i]);
            if (f != j->wsizes[i] || memcmp(frame, j->want + i * TH_CAP, f) != 0) j->failed = 1;
            size_t const r = xc_zstd_decompress_dctx(d, out, sizeof out, frame, f);
            if (r != j->sizes[i] || memcmp(out, j->src + off, r) != 0) j->failed = 1;
            off += j->sizes[i];
        }
    }
    xc_zstd_cctx_free(c);
    xc_zstd_dctx_free(d);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    static const int lv[] = {1, 3, 9};
    size_t const count = xc_test_quick() ? 8 : TH_RECORDS;
    size_t sizes[TH_RECORDS], total, dsize;
    uint8_t *src = zt_json_records(count, 21, sizes, &total);
    const uint8_t *dict = zt_embedded_json_dict(&dsize);
    uint8_t *want = zt_malloc(TH_RECORDS * TH_CAP);
    size_t wsizes[TH_RECORDS];
    xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, dsize);
    assert_non_null(dd);
    for (size_t li = 0; li < sizeof lv / sizeof lv[0]; li++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, lv[li]);
        assert_non_null(cd);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        compress_all(c, src, sizes, count, want, TH_CAP, wsizes);
        xc_zstd_cctx_free(c);

        pthread_t th[TH_THREADS];
        th_job jobs[TH_THREADS];
        for (int t = 0; t < TH_THREADS; t++) {
            jobs[t] = (th_job){cd, dd, src, sizes, want, wsizes, count, 0};
            assert_int_equal(pthread_create(&th[t], NULL, th_run, &jobs[t]), 0);
        }
        for (int t = 0; t < TH_THREADS; t++) {
            assert_int_equal(pthread_join(th[t], NULL), 0);
            assert_int_equal(jobs[t].failed, 0);
        }
        xc_zstd_cdict_free(cd);
    }
    xc_zstd_ddict_free(dd);
    free(src);
    free(want);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_raw),
        cmocka_unit_test(test_formatted),
        cmocka_unit_test(test_streaming),
        cmocka_unit_test(test_sizes_and_windows),
        cmocka_unit_test(test_window_reaches_content),
        cmocka_unit_test(test_large_inputs),
        cmocka_unit_test(test_dict_id),
        cmocka_unit_test(test_corrupt),
#ifdef XC_HAVE_LIBZSTD
        cmocka_unit_test(test_trained),
#endif
        cmocka_unit_test(test_threads),
    };
    const struct CMUnitTest threads_only[] = {
        cmocka_unit_test(test_threads),
    };
    if (getenv("XC_TEST_THREADS_ONLY")) return cmocka_run_group_tests(threads_only, NULL, NULL);
    return cmocka_run_group_tests(all, NULL, NULL);
}
