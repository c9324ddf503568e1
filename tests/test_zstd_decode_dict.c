/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd decoding with dictionaries: raw-content dictionaries and zstd-format
 * ones (trained by ZDICT_trainFromBuffer or finalized with a chosen ID),
 * loaded into a context or prepared once as a ddict shared by contexts in
 * several threads; the errors for a missing, a different and a corrupt
 * dictionary.
 */
#include <pthread.h>

#include "zstd_test_frames.h"


/* Decodes a frame that needs `dict` both ways a context can hold it. */
static void check_with_dict(const void *dict, size_t dict_size, const void *frame, size_t n,
                            const void *want, size_t want_size, const char *what)
{
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, dict_size), 0);
    zt_check_all_ways(d, frame, n, want, want_size, zt_random_chunking(), ZT_NEEDS_DICT, what);
    xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, dict_size);
    assert_non_null(dd);
    xc_zstd_dctx_reset(d);
    assert_int_equal(xc_zstd_dctx_ref_ddict(d, dd), 0);
    zt_check_all_ways(d, frame, n, want, want_size, zt_random_chunking(), ZT_NEEDS_DICT, what);
    xc_zstd_dctx_free(d);
    xc_zstd_ddict_free(dd);
}

/* The outcome of decoding, whichever way, is the same error. */
static void expect_error(xc_zstd_dctx *d, const void *frame, size_t n, size_t cap,
                         enum xc_error want, const char *what)
{
    uint8_t *dst = zt_malloc(cap);
    size_t r = xc_zstd_decompress_dctx(d, dst, cap, frame, n);
    if (xc_error_code(r) != want) {
        print_error("%s: context gave %s, want %s\n", what, xc_error_name(r),
                    xc_error_string(want));
        fail();
    }
    zt_stream_result sr = zt_stream_decode(d, dst, cap, frame, n, zt_random_chunking());
    if (xc_error_code(sr.result) != want) {
        print_error("%s: streaming gave %s, want %s\n", what, xc_error_name(sr.result),
                    xc_error_string(want));
        fail();
    }
    /* A failed stream needs a reset, which also drops the dictionary, so
     * the callers set it again when they need it. */
    free(dst);
}

/* ---- embedded dictionaries and frames (every build) ------------------------------ */

static void test_embedded(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    for (size_t i = 0; i < count; i++) {
        const zt_embedded *e = &list[i];
        if (e->dict == ZT_D_NONE) continue;
        size_t dict_size;
        uint8_t *dict = zt_embedded_dict(e, &dict_size);
        uint8_t *want = zt_embedded_content(e);
        for (int round = 0; round < 3; round++)
            check_with_dict(dict, dict_size, e->frame, e->size, want, e->content_size, e->name);
        xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, dict_size);
        assert_non_null(dd);
        assert_int_equal(xc_zstd_ddict_id(dd), e->dict == ZT_D_JSON ? ZT_JSON_DICT_ID : 0);
        xc_zstd_ddict_free(dd);
        free(want);
        free(dict);
    }
}

static void test_embedded_errors(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    const zt_embedded *raw = NULL, *json = NULL;
    for (size_t i = 0; i < count; i++) {
        if (list[i].dict == ZT_D_RAW_TEXT) raw = &list[i];
        if (list[i].dict == ZT_D_JSON) json = &list[i];
    }
    assert_non_null(raw);
    assert_non_null(json);
    size_t raw_size, json_size;
    uint8_t *raw_dict = zt_embedded_dict(raw, &raw_size);
    const uint8_t *json_dict = zt_embedded_json_dict(&json_size);
    uint8_t dst[2000];

    /* The frame names a dictionary and there is none. */
    assert_int_equal(xc_error_code(xc_zstd_decompress(dst, sizeof dst, json->frame, json->size)),
                     XC_ERROR_DICT_MISSING);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    expect_error(d, json->frame, json->size, sizeof dst, XC_ERROR_DICT_MISSING, "no dict");
    /* Another dictionary: a raw one has ID 0, which is not the frame's. */
    xc_zstd_dctx_reset(d);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, raw_dict, raw_size), 0);
    assert_int_equal(xc_error_code(xc_zstd_decompress_dctx(d, dst, sizeof dst, json->frame,
                                                           json->size)),
                     XC_ERROR_DICT_MISMATCH);
    /* Reset forgets a loaded dictionary, size 0 unloads it, and a NULL
     * ddict unreferences one. */
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, json_dict, json_size), 0);
    assert_int_equal(xc_zstd_decompress_dctx(d, dst, sizeof dst, json->frame, json->size),
                     json->content_size);
    /* The dictionary stays for the next frame. */
    assert_int_equal(xc_zstd_decompress_dctx(d, dst, sizeof dst, json->frame, json->size),
                     json->content_size);
    xc_zstd_dctx_reset(d);
    expect_error(d, json->frame, json->size, sizeof dst, XC_ERROR_DICT_MISSING, "after reset");
    xc_zstd_dctx_reset(d);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, json_dict, json_size), 0);
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, NULL, 0), 0);
    assert_int_equal(xc_error_code(xc_zstd_decompress_dctx(d, dst, sizeof dst, json->frame,
                                                           json->size)),
                     XC_ERROR_DICT_MISSING);
    xc_zstd_ddict *dd = xc_zstd_ddict_new(json_dict, json_size);
    assert_int_equal(xc_zstd_dctx_ref_ddict(d, dd), 0);
    assert_int_equal(xc_zstd_decompress_dctx(d, dst, sizeof dst, json->frame, json->size),
                     json->content_size);
    assert_int_equal(xc_zstd_dctx_ref_ddict(d, NULL), 0);
    assert_int_equal(xc_error_code(xc_zstd_decompress_dctx(d, dst, sizeof dst, json->frame,
                                                           json->size)),
                     XC_ERROR_DICT_MISSING);
    /* A frame with dictionary ID 0 that needs the raw dictionary's bytes:
     * without them its offsets reach before the start of the output. */
    xc_zstd_dctx_reset(d);
    assert_true(xc_is_error(xc_zstd_decompress_dctx(d, dst, sizeof dst, raw->frame, raw->size)));
    assert_true(xc_is_error(xc_zstd_decompress(dst, sizeof dst, raw->frame, raw->size)));
    xc_zstd_ddict_free(dd);
    xc_zstd_dctx_free(d);
    free(raw_dict);
}

/* A zstd-format dictionary cut inside its header or entropy tables is
 * corrupt; a raw dictionary of any size is not. */
static void test_corrupt_dictionary(void **state)
{
    (void)state;
    size_t size;
    const uint8_t *dict = zt_embedded_json_dict(&size);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    /* Cut anywhere inside its header (magic, ID, Huffman and FSE tables,
     * three repeat offsets), the dictionary cannot be read.  Below 8 bytes
     * libzstd takes any dictionary as raw content, so those sizes are left
     * alone. */
    for (size_t cut = 8; cut < ZT_JSON_DICT_HEADER; cut++) {
        size_t r = xc_zstd_dctx_load_dictionary(d, dict, cut);
        assert_int_equal(xc_error_code(r), XC_ERROR_DICT_CORRUPT);
        assert_null(xc_zstd_ddict_new(dict, cut));
    }
    uint8_t raw[3] = {1, 2, 3};
    assert_int_equal(xc_zstd_dctx_load_dictionary(d, raw, 3), 0);
    xc_zstd_ddict *dd = xc_zstd_ddict_new(raw, 3);
    assert_non_null(dd);
    assert_int_equal(xc_zstd_ddict_id(dd), 0);
    xc_zstd_ddict_free(dd);
    xc_zstd_ddict_free(NULL);
    xc_zstd_dctx_free(d);
}

/* ---- with libzstd ------------------------------------------------------------------- */

#ifdef XC_HAVE_LIBZSTD

/* A dictionary trained on records from `seed`. */
static uint8_t *train(size_t cap, uint64_t seed, size_t *size)
{
    enum { SAMPLES = 400 };
    size_t sizes[SAMPLES], total;
    uint8_t *samples = zt_json_records(SAMPLES, seed, sizes, &total);
    uint8_t *dict = zt_malloc(cap);
    *size = ZDICT_trainFromBuffer(dict, cap, samples, sizes, SAMPLES);
    assert_false(ZDICT_isError(*size));
    free(samples);
    return dict;
}

/* Records compressed one by one and in bulk with a trained dictionary, at
 * levels from -5 to 22, with every flag. */
static void test_trained(void **state)
{
    (void)state;
    static const int levels[] = {-5, 1, 3, 5, 9, 13, 16, 19, 22};
    size_t dict_size;
    uint8_t *dict = train(xc_test_quick() ? 2048 : 8192, 11, &dict_size);
    assert_int_not_equal(ZDICT_getDictID(dict, dict_size), 0);
    for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
        size_t sizes[64], total;
        size_t count = li % 3 == 0 ? 64 : 1 + xc_rand_below(3);
        uint8_t *src = zt_json_records(count, xc_rand(), sizes, &total);
        zt_cparams p = {.level = levels[li], .checksum = (int)(li & 1),
                        .content_size = (int)(li % 3), .dict = dict, .dict_size = dict_size};
        size_t n;
        uint8_t *frame = zt_compress(src, total, &p, &n);
        assert_int_equal(xc_zstd_frame_dict_id(frame, n), ZDICT_getDictID(dict, dict_size));
        char what[64];
        snprintf(what, sizeof what, "trained dict, level %d, %zu records", levels[li], count);
        check_with_dict(dict, dict_size, frame, n, src, total, what);
        /* Without the ID in the frame the dictionary still applies. */
        p.no_dict_id = 1;
        free(frame);
        frame = zt_compress(src, total, &p, &n);
        assert_int_equal(xc_zstd_frame_dict_id(frame, n), 0);
        check_with_dict(dict, dict_size, frame, n, src, total, what);
        free(frame);
        free(src);
    }
    free(dict);
}

/* Raw-content dictionaries, including ones larger than the window. */
static void test_raw(void **state)
{
    (void)state;
    size_t dict_size = zt_scaled(32768);
    uint8_t *dict = zt_make(ZT_MIXED, dict_size, xc_rand());
    static const struct {
        int level, window_log;
    } cases[] = {{1, 0}, {3, 0}, {9, 0}, {19, 0}, {-5, 0}, {3, 10}, {19, 12}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* Content made of pieces of the dictionary, with changes. */
        size_t size = zt_scaled(20000 + xc_rand_below(100000));
        uint8_t *src = zt_malloc(size);
        for (size_t k = 0; k < size;) {
            size_t piece = 1 + xc_rand_below(500), from = xc_rand_below((uint32_t)dict_size);
            if (piece > dict_size - from) piece = dict_size - from;
            if (piece > size - k) piece = size - k;
            memcpy(src + k, dict + from, piece);
            k += piece;
            if (k < size) src[k++] = (uint8_t)xc_rand();
        }
        zt_cparams p = {.level = cases[i].level, .checksum = 1, .content_size = (int)(i % 3),
                        .window_log = cases[i].window_log, .dict = dict, .dict_size = dict_size,
                        .dict_raw = 1};
        size_t n;
        uint8_t *frame = zt_compress(src, size, &p, &n);
        assert_int_equal(xc_zstd_frame_dict_id(frame, n), 0);
        char what[64];
        snprintf(what, sizeof what, "raw dict, level %d, window log %d", cases[i].level,
                 cases[i].window_log);
        check_with_dict(dict, dict_size, frame, n, src, size, what);
        free(frame);
        free(src);
    }
    free(dict);
}

/* Dictionaries with chosen IDs of 1, 2 and 4 bytes: the frame and the
 * ddict report them, and a dictionary with another ID is refused. */
static void test_ids_and_mismatch(void **state)
{
    (void)state;
    static const unsigned ids[] = {7, 255, 256, 65535, 65536, 0x7FFFFFFFu, 0xFFFFFFFFu};
    size_t sample_sizes[100], total;
    uint8_t *samples = zt_json_records(100, 5, sample_sizes, &total);
    uint8_t content[3000];
    zt_gen_json(content, sizeof content, 17);
    uint8_t dicts[7][4096];
    size_t dsize[7];
    for (size_t i = 0; i < 7; i++) {
        ZDICT_params_t zp = {.compressionLevel = 3, .dictID = ids[i]};
        dsize[i] = ZDICT_finalizeDictionary(dicts[i], sizeof dicts[i], content, sizeof content,
                                            samples, sample_sizes, 100, zp);
        assert_false(ZDICT_isError(dsize[i]));
        xc_zstd_ddict *dd = xc_zstd_ddict_new(dicts[i], dsize[i]);
        assert_non_null(dd);
        assert_int_equal(xc_zstd_ddict_id(dd), ids[i]);
        xc_zstd_ddict_free(dd);
    }
    size_t rsizes[4], rtotal;
    uint8_t *src = zt_json_records(4, 23, rsizes, &rtotal);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    for (size_t i = 0; i < 7; i++) {
        zt_cparams p = {.level = 3, .checksum = 1, .content_size = 1, .dict = dicts[i],
                        .dict_size = dsize[i]};
        size_t n;
        uint8_t *frame = zt_compress(src, rtotal, &p, &n);
        assert_int_equal(xc_zstd_frame_dict_id(frame, n), ids[i]);
        assert_int_equal(ZSTD_getDictID_fromFrame(frame, n), ids[i]);
        check_with_dict(dicts[i], dsize[i], frame, n, src, rtotal, "chosen id");
        size_t other = (i + 1) % 7;
        xc_zstd_dctx_reset(d);
        assert_int_equal(xc_zstd_dctx_load_dictionary(d, dicts[other], dsize[other]), 0);
        expect_error(d, frame, n, rtotal, XC_ERROR_DICT_MISMATCH, "loaded, other id");
        xc_zstd_ddict *dd = xc_zstd_ddict_new(dicts[other], dsize[other]);
        xc_zstd_dctx_reset(d);
        xc_zstd_dctx_ref_ddict(d, dd);
        expect_error(d, frame, n, rtotal, XC_ERROR_DICT_MISMATCH, "ddict, other id");
        xc_zstd_dctx_reset(d);
        expect_error(d, frame, n, rtotal, XC_ERROR_DICT_MISSING, "none");
        xc_zstd_ddict_free(dd);
        free(frame);
    }
    xc_zstd_dctx_free(d);
    free(src);
    free(samples);
}

/* One context switching between dictionaries, frame after frame. */
static void test_switching(void **state)
{
    (void)state;
    size_t sa, sb;
    uint8_t *a = train(4096, 31, &sa), *b = train(4096, 32, &sb);
    xc_zstd_ddict *db = xc_zstd_ddict_new(b, sb);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    for (int i = 0; i < 12; i++) {
        int use_b = (int)xc_rand_below(2);
        size_t sizes[8], total;
        size_t count = 1 + xc_rand_below(8);
        uint8_t *src = zt_json_records(count, xc_rand(), sizes, &total);
        zt_cparams p = {.level = 1 + (int)xc_rand_below(19), .checksum = 1, .content_size = 1,
                        .dict = use_b ? b : a, .dict_size = use_b ? sb : sa};
        size_t n;
        uint8_t *frame = zt_compress(src, total, &p, &n);
        if (use_b) assert_int_equal(xc_zstd_dctx_ref_ddict(d, db), 0);
        else assert_int_equal(xc_zstd_dctx_load_dictionary(d, a, sa), 0);
        zt_check_all_ways(d, frame, n, src, total, zt_random_chunking(), ZT_NEEDS_DICT,
                          "switching");
        free(frame);
        free(src);
    }
    xc_zstd_dctx_free(d);
    xc_zstd_ddict_free(db);
    free(a);
    free(b);
}

/* One ddict, many threads, each with its own context. */
enum { THREADS = 4, FRAMES_PER_SET = 16 };

typedef struct {
    const xc_zstd_ddict *ddict;
    uint8_t *frames[FRAMES_PER_SET];
    size_t frame_size[FRAMES_PER_SET];
    uint8_t *contents[FRAMES_PER_SET];
    size_t content_size[FRAMES_PER_SET];
    unsigned rounds;
} frame_set;

typedef struct {
    const frame_set *set;
    unsigned first;
    int failures;
} worker_arg;

static void *worker(void *p)
{
    worker_arg *w = p;
    const frame_set *set = w->set;
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    if (!d || xc_zstd_dctx_ref_ddict(d, set->ddict) != 0) {
        w->failures++;
        xc_zstd_dctx_free(d);
        return NULL;
    }
    uint8_t *dst = malloc(64 * 512);
    for (unsigned r = 0; r < set->rounds * FRAMES_PER_SET; r++) {
        unsigned i = (w->first + r) % FRAMES_PER_SET;
        size_t got = xc_zstd_decompress_dctx(d, dst, 64 * 512, set->frames[i], set->frame_size[i]);
        if (got != set->content_size[i] || memcmp(dst, set->contents[i], got) != 0) w->failures++;
        /* Streaming too, with all of the input and output offered at once
         * (the driver's random generator is not for threads). */
        xc_in_buffer in = {set->frames[i], set->frame_size[i], 0};
        xc_out_buffer out = {dst, 64 * 512, 0};
        size_t sr = 1;
        for (int calls = 0; sr != 0 && !xc_is_error(sr) && calls < 1000; calls++)
            sr = xc_zstd_decompress_stream(d, &out, &in);
        if (sr != 0 || in.pos != in.size || out.pos != set->content_size[i] ||
            memcmp(dst, set->contents[i], out.pos) != 0) {
            w->failures++;
            xc_zstd_dctx_reset(d);
            xc_zstd_dctx_ref_ddict(d, set->ddict);
        }
    }
    free(dst);
    xc_zstd_dctx_free(d);
    return NULL;
}

static void test_ddict_threads(void **state)
{
    (void)state;
    size_t dict_size;
    uint8_t *dict = train(8192, 41, &dict_size);
    frame_set set;
    xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, dict_size);
    assert_non_null(dd);
    set.ddict = dd;
    set.rounds = xc_test_quick() ? 2 : 20;
    for (unsigned i = 0; i < FRAMES_PER_SET; i++) {
        size_t sizes[64];
        size_t count = 1 + xc_rand_below(64);
        set.contents[i] = zt_json_records(count, xc_rand(), sizes, &set.content_size[i]);
        zt_cparams p = {.level = (int)(i % 8) * 3 - 2, .checksum = (int)(i & 1),
                        .content_size = (int)(i % 3 != 2), .dict = dict, .dict_size = dict_size};
        set.frames[i] = zt_compress(set.contents[i], set.content_size[i], &p, &set.frame_size[i]);
    }
    pthread_t th[THREADS];
    worker_arg args[THREADS];
    for (unsigned t = 0; t < THREADS; t++) {
        args[t] = (worker_arg){&set, t * 5, 0};
        assert_int_equal(pthread_create(&th[t], NULL, worker, &args[t]), 0);
    }
    int failures = 0;
    for (unsigned t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        failures += args[t].failures;
    }
    assert_int_equal(failures, 0);
    for (unsigned i = 0; i < FRAMES_PER_SET; i++) {
        free(set.frames[i]);
        free(set.contents[i]);
    }
    xc_zstd_ddict_free(dd);
    free(dict);
}

#endif /* XC_HAVE_LIBZSTD */

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded),
        cmocka_unit_test(test_embedded_errors),
        cmocka_unit_test(test_corrupt_dictionary),
#ifdef XC_HAVE_LIBZSTD
        cmocka_unit_test(test_trained),
        cmocka_unit_test(test_raw),
        cmocka_unit_test(test_ids_and_mismatch),
        cmocka_unit_test(test_switching),
        cmocka_unit_test(test_ddict_threads),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
