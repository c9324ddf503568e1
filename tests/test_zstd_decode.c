/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd decoding against libzstd: libzstd compresses many kinds of input at
 * every level, with and without checksum and content size; xcodec decodes
 * each frame one-shot, with a context reused across all frames, and
 * streaming in random pieces, and must give back the input.  The frame
 * inspection functions are compared with libzstd's.
 *
 * Without libzstd (s390x) the embedded frames of zstd_test_frames.h and
 * hand-made headers still run.  Streaming-specific cases live in
 * test_zstd_decode_stream.c, dictionaries in test_zstd_decode_dict.c.
 */
#include "zstd_test_frames.h"

/* One context for every frame of the program, to catch state that leaks
 * from one frame into the next (tables, repeat offsets, window sizes). */
static xc_zstd_dctx *shared;

static int group_setup(void **state)
{
    (void)state;
    shared = xc_zstd_dctx_new();
    return shared ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    xc_zstd_dctx_free(shared);
    return 0;
}

/* ---- embedded frames and hand-made headers (every build) --------------------- */

static void test_embedded_frames(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    for (size_t i = 0; i < count; i++) {
        const zt_embedded *e = &list[i];
        if (e->dict != ZT_D_NONE) continue; /* test_zstd_decode_dict.c */
        uint8_t *want = zt_embedded_content(e);
        for (int round = 0; round < 4; round++) {
            zt_chunking ch = round == 0 ? (zt_chunking){1, 1} : zt_random_chunking();
            zt_check_all_ways(round & 1 ? shared : NULL, e->frame, e->size, want,
                              e->content_size, ch, 0, e->name);
        }
        free(want);
    }
}

static void test_embedded_inspection(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    for (size_t i = 0; i < count; i++) {
        const zt_embedded *e = &list[i];
        unsigned long long fcs = xc_zstd_frame_content_size(e->frame, e->size);
        if (e->has_content_size) assert_int_equal(fcs, e->content_size);
        else assert_true(fcs == XC_ZSTD_CONTENTSIZE_UNKNOWN);
        assert_int_equal(xc_zstd_find_frame_compressed_size(e->frame, e->size), e->size);
        assert_int_equal(xc_zstd_frame_dict_id(e->frame, e->size),
                         e->dict == ZT_D_JSON ? ZT_JSON_DICT_ID : 0);
        /* A frame followed by anything still measures the same. */
        uint8_t *more = zt_malloc(e->size + 16);
        memcpy(more, e->frame, e->size);
        memset(more + e->size, 0x5A, 16);
        assert_int_equal(xc_zstd_find_frame_compressed_size(more, e->size + 16), e->size);
        free(more);
    }
}

/* Appends a skippable frame with `payload` bytes to buf at *len. */
static void put_skippable(uint8_t *buf, size_t *len, unsigned magic_low, size_t payload)
{
    uint8_t *p = buf + *len;
    uint32_t magic = XC_ZSTD_MAGIC_SKIPPABLE_START | magic_low;
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(magic >> (8 * k));
    for (int k = 0; k < 4; k++) p[4 + k] = (uint8_t)(payload >> (8 * k));
    for (size_t k = 0; k < payload; k++) p[8 + k] = (uint8_t)(k * 37);
    *len += 8 + payload;
}

/* Several frames and skippable frames back to back decode to the
 * concatenation of their contents, in one call and streaming. */
static void test_embedded_concatenated(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    size_t src_cap = 1024, want_cap = 0;
    for (size_t i = 0; i < count; i++) {
        src_cap += list[i].size + 8 + 40;
        want_cap += list[i].content_size;
    }
    uint8_t *src = zt_malloc(src_cap), *want = zt_malloc(want_cap);
    size_t n = 0, w = 0;
    put_skippable(src, &n, 0xF, 0);
    for (size_t i = 0; i < count; i++) {
        const zt_embedded *e = &list[i];
        if (e->dict != ZT_D_NONE) continue;
        memcpy(src + n, e->frame, e->size);
        n += e->size;
        uint8_t *c = zt_embedded_content(e);
        memcpy(want + w, c, e->content_size);
        w += e->content_size;
        free(c);
        put_skippable(src, &n, (unsigned)i, i * 5);
    }
    assert_int_equal(xc_zstd_find_frame_compressed_size(src, n), 8);
    assert_int_equal(xc_zstd_frame_content_size(src, n), 0);
    for (int round = 0; round < 6; round++)
        zt_check_all_ways(round & 1 ? shared : NULL, src, n, want, w,
                          round == 0 ? (zt_chunking){1, 3} : zt_random_chunking(), 0,
                          "concatenated");
    /* Room to spare: the result is still the exact size. */
    uint8_t *dst = zt_malloc(w + 1000);
    assert_int_equal(xc_zstd_decompress(dst, w + 1000, src, n), w);
    assert_memory_equal(dst, want, w);
    free(dst);
    free(src);
    free(want);
}

/* Frame headers of every form, made by hand: the content size in 0, 1, 2, 4
 * and 8 bytes, the dictionary ID in 0, 1, 2 and 4 bytes. */
static void test_header_forms(void **state)
{
    (void)state;
    static const struct {
        uint8_t h[18];
        size_t n;
        unsigned long long fcs;
        unsigned dict_id;
    } cases[] = {
        /* single segment, FCS flag 0: one byte of content size */
        {{0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x05}, 6, 5, 0},
        /* FCS flag 1: two bytes, plus 256 */
        {{0x28, 0xB5, 0x2F, 0xFD, 0x40, 0x00, 0x00, 0x01}, 8, 512, 0},
        {{0x28, 0xB5, 0x2F, 0xFD, 0x60, 0xFF, 0xFF}, 7, 65791, 0},
        /* FCS flag 2: four bytes */
        {{0x28, 0xB5, 0x2F, 0xFD, 0x80, 0x30, 0x78, 0x56, 0x34, 0x12}, 10, 0x12345678, 0},
        /* FCS flag 3: eight bytes, 2^40 */
        {{0x28, 0xB5, 0x2F, 0xFD, 0xC0, 0x58, 0, 0, 0, 0, 0, 1, 0, 0}, 14, 1ull << 40, 0},
        /* no content size, window descriptor only */
        {{0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x58}, 6, XC_ZSTD_CONTENTSIZE_UNKNOWN, 0},
        /* dictionary IDs of 1, 2 and 4 bytes */
        {{0x28, 0xB5, 0x2F, 0xFD, 0x01, 0x58, 0xC8}, 7, XC_ZSTD_CONTENTSIZE_UNKNOWN, 200},
        {{0x28, 0xB5, 0x2F, 0xFD, 0x02, 0x58, 0x40, 0x9C}, 8, XC_ZSTD_CONTENTSIZE_UNKNOWN, 40000},
        {{0x28, 0xB5, 0x2F, 0xFD, 0x23, 0xEF, 0xBE, 0xAD, 0xDE, 0x09}, 10, 9, 0xDEADBEEF},
        {{0x28, 0xB5, 0x2F, 0xFD, 0x62, 0x34, 0x12, 0x10, 0x00}, 9, 272, 0x1234},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_true(xc_zstd_frame_content_size(cases[i].h, cases[i].n) == cases[i].fcs);
        assert_int_equal(xc_zstd_frame_dict_id(cases[i].h, cases[i].n), cases[i].dict_id);
        /* One byte short of the header is not a header. */
        assert_true(xc_zstd_frame_content_size(cases[i].h, cases[i].n - 1) ==
                    XC_ZSTD_CONTENTSIZE_ERROR);
        assert_int_equal(xc_zstd_frame_dict_id(cases[i].h, cases[i].n - 1), 0);
        /* The header alone has no blocks yet. */
        size_t r = xc_zstd_find_frame_compressed_size(cases[i].h, cases[i].n);
        assert_int_equal(xc_error_code(r), XC_ERROR_TRUNCATED);
#ifdef XC_HAVE_LIBZSTD
        assert_true(ZSTD_getFrameContentSize(cases[i].h, cases[i].n) == cases[i].fcs);
        assert_int_equal(ZSTD_getDictID_fromFrame(cases[i].h, cases[i].n), cases[i].dict_id);
#endif
    }
    /* A skippable frame: content size 0, its whole length, no dictionary. */
    uint8_t skip[8 + 20];
    size_t n = 0;
    put_skippable(skip, &n, 3, 20);
    assert_int_equal(xc_zstd_frame_content_size(skip, n), 0);
    assert_int_equal(xc_zstd_find_frame_compressed_size(skip, n), 28);
    assert_int_equal(xc_zstd_frame_dict_id(skip, n), 0);
    assert_int_equal(xc_error_code(xc_zstd_find_frame_compressed_size(skip, n - 1)),
                     XC_ERROR_TRUNCATED);
    /* Not a frame, a reserved bit, nothing at all. */
    static const uint8_t bad_magic[] = {0x28, 0xB5, 0x2F, 0xFE, 0x20, 0x05, 0, 0, 0};
    static const uint8_t reserved[] = {0x28, 0xB5, 0x2F, 0xFD, 0x28, 0x05, 1, 0, 0};
    assert_true(xc_zstd_frame_content_size(bad_magic, sizeof bad_magic) ==
                XC_ZSTD_CONTENTSIZE_ERROR);
    assert_int_equal(xc_error_code(xc_zstd_find_frame_compressed_size(bad_magic, sizeof bad_magic)),
                     XC_ERROR_UNKNOWN_MAGIC);
    assert_int_equal(xc_zstd_frame_dict_id(bad_magic, sizeof bad_magic), 0);
    assert_true(xc_zstd_frame_content_size(reserved, sizeof reserved) ==
                XC_ZSTD_CONTENTSIZE_ERROR);
    assert_int_equal(xc_error_code(xc_zstd_find_frame_compressed_size(reserved, sizeof reserved)),
                     XC_ERROR_FRAME_HEADER);
    assert_true(xc_zstd_frame_content_size(NULL, 0) == XC_ZSTD_CONTENTSIZE_ERROR);
    assert_int_equal(xc_zstd_frame_dict_id(NULL, 0), 0);
    assert_true(xc_is_error(xc_zstd_find_frame_compressed_size(NULL, 0)));
}

/* A checksum that does not match is XC_ERROR_CHECKSUM, whichever way the
 * frame is decoded. */
static void test_checksum_mismatch(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    const zt_embedded *hello = &list[0];
    assert_string_equal(hello->name, "hello");
    uint8_t frame[64], dst[64];
    assert_true(hello->size <= sizeof frame);
    /* The last byte is part of the checksum; byte 9 is the 'H' of a raw
     * block, so both changes reach the checksum and nothing else. */
    const size_t where[2] = {hello->size - 1, 9};
    for (size_t w = 0; w < 2; w++) {
        memcpy(frame, hello->frame, hello->size);
        frame[where[w]] ^= 0x10;
        assert_int_equal(xc_error_code(xc_zstd_decompress(dst, sizeof dst, frame, hello->size)),
                         XC_ERROR_CHECKSUM);
        assert_int_equal(
            xc_error_code(xc_zstd_decompress_dctx(shared, dst, sizeof dst, frame, hello->size)),
            XC_ERROR_CHECKSUM);
        xc_zstd_dctx_reset(shared);
        zt_stream_result sr =
            zt_stream_decode(shared, dst, sizeof dst, frame, hello->size, (zt_chunking){3, 2});
        assert_int_equal(xc_error_code(sr.result), XC_ERROR_CHECKSUM);
        xc_zstd_dctx_reset(shared);
    }
}

static void test_parameters(void **state)
{
    (void)state;
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 10), 0);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 31), 0);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 0), 0);
    assert_int_equal(xc_error_code(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 9)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 32)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, -1)),
                     XC_ERROR_BAD_PARAMETER);
    assert_int_equal(xc_error_code(xc_zstd_dctx_set(d, (xc_zstd_dparam)12345, 1)),
                     XC_ERROR_BAD_PARAMETER);
    /* In the middle of a streamed frame parameters are frozen; a reset
     * unfreezes them and keeps their values. */
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    const zt_embedded *e = &list[1];
    uint8_t dst[16];
    xc_in_buffer in = {e->frame, e->size / 2, 0};
    xc_out_buffer out = {dst, sizeof dst, 0};
    size_t r = xc_zstd_decompress_stream(d, &out, &in);
    assert_false(xc_is_error(r));
    assert_int_not_equal(r, 0);
    assert_int_equal(xc_error_code(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 20)),
                     XC_ERROR_STAGE_WRONG);
    assert_int_equal(xc_zstd_dctx_reset(d), 0);
    assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, 20), 0);
    xc_zstd_dctx_free(d);
    xc_zstd_dctx_free(NULL);
}

/* ---- differential with libzstd ---------------------------------------------------- */

#ifdef XC_HAVE_LIBZSTD

/* The inputs each level compresses.  Sizes shrink at the slow levels. */
static const struct {
    enum zt_kind kind;
    size_t size;
} level_inputs[] = {
    {ZT_TEXT, 0},       {ZT_TEXT, 1},       {ZT_RANDOM, 3},      {ZT_TEXT, 200},
    {ZT_RANDOM, 1000},  {ZT_JSON, 20000},   {ZT_SOURCE, 30000},  {ZT_TEXT, 60000},
    {ZT_BINARY, 70000}, {ZT_RUNS, 200000},  {ZT_RANDOM, 140000}, {ZT_MIXED, 300000},
};

static size_t level_cap(int level)
{
    if (level >= 20) return 40000; /* btultra2 at 1-2 MB/s */
    if (level >= 16) return 150000;
    return (size_t)-1;
}

static void run_case(enum zt_kind kind, size_t size, const zt_cparams *p)
{
    char what[160];
    uint8_t *src = zt_make(kind, size, xc_rand());
    size_t n;
    uint8_t *frame = zt_compress(src, size, p, &n);
    snprintf(what, sizeof what, "%s %zu bytes, level %d, checksum %d, content size %d",
             zt_kind_names[kind], size, p->level, p->checksum, p->content_size);
    xc_zstd_dctx *d = xc_rand_below(2) ? shared : NULL;
    zt_check_all_ways(d, frame, n, src, size, zt_random_chunking(), 0, what);
    /* The header says what libzstd says it says. */
    assert_true(xc_zstd_frame_content_size(frame, n) == ZSTD_getFrameContentSize(frame, n));
    assert_int_equal(xc_zstd_find_frame_compressed_size(frame, n), n);
    free(frame);
    free(src);
}

static void test_levels(void **state)
{
    (void)state;
    static const int quick_levels[] = {-5, 1, 3, 6, 12, 17, 19, 22};
    int levels[24];
    size_t nlevels = 0;
    if (xc_test_quick()) {
        for (size_t i = 0; i < sizeof quick_levels / sizeof quick_levels[0]; i++)
            levels[nlevels++] = quick_levels[i];
    } else {
        levels[nlevels++] = -5;
        for (int l = 1; l <= 22; l++) levels[nlevels++] = l;
    }
    for (size_t li = 0; li < nlevels; li++) {
        for (size_t i = 0; i < sizeof level_inputs / sizeof level_inputs[0]; i++) {
            size_t size = zt_scaled(level_inputs[i].size);
            if (size > level_cap(levels[li])) size = level_cap(levels[li]);
            /* Flags rotate so that every level sees each of them. */
            unsigned turn = (unsigned)(li + i);
            zt_cparams p = {.level = levels[li],
                            .checksum = (int)(turn & 1),
                            .content_size = (int)(turn % 3)};
            run_case(level_inputs[i].kind, size, &p);
        }
    }
}

/* Checksum and content size in every combination, at a few levels. */
static void test_flags(void **state)
{
    (void)state;
    static const int levels[] = {-5, 1, 3, 19};
    for (size_t li = 0; li < 4; li++)
        for (int checksum = 0; checksum < 2; checksum++)
            for (int cs = 0; cs < 3; cs++) {
                zt_cparams p = {.level = levels[li], .checksum = checksum, .content_size = cs};
                run_case(ZT_MIXED, zt_scaled(100000), &p);
                run_case(ZT_TEXT, 1, &p);
                run_case(ZT_TEXT, 0, &p);
            }
}

/* Frames whose blocks libzstd splits into small compressed pieces
 * (targetCBlockSize), and with the longest minimum match. */
static void test_block_shapes(void **state)
{
    (void)state;
    zt_cparams p1 = {.level = 3, .checksum = 1, .content_size = 1, .target_cblock = 1340};
    run_case(ZT_MIXED, zt_scaled(200000), &p1);
    run_case(ZT_TEXT, zt_scaled(100000), &p1);
    zt_cparams p2 = {.level = 19, .checksum = 1, .content_size = 1, .min_match = 7};
    run_case(ZT_MIXED, zt_scaled(100000), &p2);
    zt_cparams p3 = {.level = 1, .content_size = 1, .min_match = 3, .window_log = 10};
    run_case(ZT_BINARY, zt_scaled(100000), &p3);
}

/* Several libzstd frames, with and without sizes, and skippable frames, in
 * one buffer. */
static void test_concatenated(void **state)
{
    (void)state;
    enum { FRAMES = 6 };
    uint8_t *frames[FRAMES], *contents[FRAMES];
    size_t fsize[FRAMES], csize[FRAMES], total_src = 64, total_out = 0;
    for (int i = 0; i < FRAMES; i++) {
        csize[i] = i == 2 ? 0 : zt_scaled(xc_rand_below(150000));
        enum zt_kind kind = (enum zt_kind)xc_rand_below(ZT_KINDS);
        contents[i] = zt_make(kind, csize[i], xc_rand());
        zt_cparams p = {.level = 1 + (int)xc_rand_below(9), .checksum = i & 1,
                        .content_size = i % 3};
        frames[i] = zt_compress(contents[i], csize[i], &p, &fsize[i]);
        total_src += fsize[i] + 8 + 100;
        total_out += csize[i];
    }
    uint8_t *src = zt_malloc(total_src), *want = zt_malloc(total_out);
    size_t n = 0, w = 0;
    for (int i = 0; i < FRAMES; i++) {
        memcpy(src + n, frames[i], fsize[i]);
        n += fsize[i];
        memcpy(want + w, contents[i], csize[i]);
        w += csize[i];
        if (i % 2) put_skippable(src, &n, (unsigned)i, 17u * (unsigned)i);
    }
    for (int round = 0; round < 3; round++)
        zt_check_all_ways(shared, src, n, want, w, zt_random_chunking(), 0, "libzstd frames");
    /* find_frame_compressed_size walks them one by one as libzstd does. */
    size_t pos = 0;
    while (pos < n) {
        size_t ours = xc_zstd_find_frame_compressed_size(src + pos, n - pos);
        assert_false(xc_is_error(ours));
        assert_int_equal(ours, ZSTD_findFrameCompressedSize(src + pos, n - pos));
        pos += ours;
    }
    for (int i = 0; i < FRAMES; i++) {
        free(frames[i]);
        free(contents[i]);
    }
    free(src);
    free(want);
}

/* The inspection functions agree with libzstd on every prefix of a set of
 * headers: full ones, short ones, and ones with dictionary IDs. */
static void test_inspection_vs_libzstd(void **state)
{
    (void)state;
    uint8_t dict_content[2048];
    zt_gen_json(dict_content, sizeof dict_content, 99);
    static const unsigned ids[] = {1, 200, 255, 256, 40000, 65535, 65536, 3000000, 0xFFFFFFFFu};
    for (size_t k = 0; k < 4 * (sizeof ids / sizeof ids[0]); k++) {
        size_t size = k % 4 == 0 ? 0 : k % 4 == 1 ? 100 : k % 4 == 2 ? 5000 : 70000;
        uint8_t *src = zt_make(ZT_JSON, size, k);
        zt_cparams p = {.level = 3, .checksum = (int)(k & 1), .content_size = (int)(k % 3)};
        uint8_t dict[4096];
        ZDICT_params_t zp = {.compressionLevel = 3, .dictID = ids[k / 4]};
        uint8_t *samples = zt_make(ZT_JSON, 20000, 7);
        size_t sample_sizes[20];
        for (int s = 0; s < 20; s++) sample_sizes[s] = 1000;
        size_t dsize = ZDICT_finalizeDictionary(dict, sizeof dict, dict_content,
                                                sizeof dict_content, samples, sample_sizes, 20, zp);
        free(samples);
        assert_false(ZDICT_isError(dsize));
        p.dict = dict;
        p.dict_size = dsize;
        size_t n;
        uint8_t *frame = zt_compress(src, size, &p, &n);
        assert_int_equal(ZSTD_getDictID_fromFrame(frame, n), ids[k / 4]);
        for (size_t len = 0; len <= n; len++) {
            if (len > 24 && len < n - 4) len = n - 4;
            assert_true(xc_zstd_frame_content_size(frame, len) ==
                        ZSTD_getFrameContentSize(frame, len));
            assert_int_equal(xc_zstd_frame_dict_id(frame, len),
                             ZSTD_getDictID_fromFrame(frame, len));
            size_t ours = xc_zstd_find_frame_compressed_size(frame, len);
            size_t theirs = ZSTD_findFrameCompressedSize(frame, len);
            if (ZSTD_isError(theirs)) {
                assert_true(xc_is_error(ours));
                if (len >= 4) assert_int_equal(xc_error_code(ours), XC_ERROR_TRUNCATED);
            } else {
                assert_int_equal(ours, theirs);
            }
        }
        /* Decoding it needs the dictionary. */
        xc_zstd_dctx *d = xc_zstd_dctx_new();
        assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, dsize), 0);
        zt_check_all_ways(d, frame, n, src, size, zt_random_chunking(), ZT_NEEDS_DICT, "dict id");
        xc_zstd_dctx_free(d);
        free(frame);
        free(src);
    }
}

#endif /* XC_HAVE_LIBZSTD */

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded_frames),
        cmocka_unit_test(test_embedded_inspection),
        cmocka_unit_test(test_embedded_concatenated),
        cmocka_unit_test(test_header_forms),
        cmocka_unit_test(test_checksum_mismatch),
        cmocka_unit_test(test_parameters),
#ifdef XC_HAVE_LIBZSTD
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_block_shapes),
        cmocka_unit_test(test_concatenated),
        cmocka_unit_test(test_inspection_vs_libzstd),
#endif
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
