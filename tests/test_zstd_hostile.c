/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd decoding of hostile input.  Whatever the bytes, the decoder returns
 * a result or an error and never reads or writes outside the buffers it is
 * given: sources and destinations here end at a guard page, so one byte too
 * far faults.  Cases: every truncation of a set of frames, random bit flips,
 * random garbage, destinations exactly right and one byte short, streaming
 * into a one-byte buffer, hand-made invalid frames with the error each
 * deserves, and damaged dictionaries.
 */
#include "zstd_test_frames.h"

typedef struct {
    char name[48];
    uint8_t *frame;
    size_t size;
    uint8_t *content;
    size_t content_size;
} sample;

enum { MAX_SAMPLES = 24 };
static sample samples[MAX_SAMPLES];
static size_t nsamples;
static xc_zstd_dctx *shared;

static void add_sample(const char *name, const uint8_t *frame, size_t size,
                       const uint8_t *content, size_t content_size)
{
    assert_true(nsamples < MAX_SAMPLES);
    sample *s = &samples[nsamples++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->frame = zt_malloc(size);
    memcpy(s->frame, frame, size);
    s->size = size;
    s->content = zt_malloc(content_size);
    memcpy(s->content, content, content_size);
    s->content_size = content_size;
}

static int group_setup(void **state)
{
    (void)state;
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    for (size_t i = 0; i < count; i++) {
        if (list[i].dict != ZT_D_NONE) continue;
        uint8_t *c = zt_embedded_content(&list[i]);
        add_sample(list[i].name, list[i].frame, list[i].size, c, list[i].content_size);
        free(c);
    }
#ifdef XC_HAVE_LIBZSTD
    /* Small contents keep the every-byte truncation loop quadratic in a
     * few kilobytes only. */
    static const struct {
        enum zt_kind kind;
        size_t size;
        int level, checksum, content_size;
    } made[] = {
        {ZT_MIXED, 20000, 1, 1, 1},  {ZT_MIXED, 16000, 3, 0, 2}, {ZT_MIXED, 12000, 19, 1, 0},
        {ZT_TEXT, 9000, -5, 1, 1},   {ZT_JSON, 12000, 9, 0, 1},  {ZT_RUNS, 200000, 1, 1, 1},
        {ZT_RANDOM, 3000, 3, 1, 1},  {ZT_SOURCE, 10000, 22, 1, 2}, {ZT_BINARY, 12000, 6, 0, 1},
    };
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        uint8_t *c = zt_make(made[i].kind, made[i].size, 1000 + i);
        zt_cparams p = {.level = made[i].level, .checksum = made[i].checksum,
                        .content_size = made[i].content_size};
        size_t n;
        uint8_t *f = zt_compress(c, made[i].size, &p, &n);
        char name[48];
        snprintf(name, sizeof name, "libzstd %s level %d", zt_kind_names[made[i].kind],
                 made[i].level);
        add_sample(name, f, n, c, made[i].size);
        free(f);
        free(c);
    }
#endif
    shared = xc_zstd_dctx_new();
    return shared ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < nsamples; i++) {
        free(samples[i].frame);
        free(samples[i].content);
    }
    xc_zstd_dctx_free(shared);
    return 0;
}

/* Copies n bytes to the end of a guarded buffer of capacity n. */
static uint8_t *guarded_copy(const void *p, size_t n)
{
    uint8_t *g = xc_guard_alloc(n);
    assert_non_null(g);
    if (n) memcpy(g, p, n);
    return g;
}

/* Decodes hostile src every way into guarded destinations of capacity cap;
 * any result is fine, as long as it is within bounds and nothing faults.
 * Returns the one-shot result. */
static size_t decode_anyhow(const uint8_t *src, size_t n, size_t cap)
{
    uint8_t *dst = xc_guard_alloc(cap);
    assert_non_null(dst);
    size_t r = xc_zstd_decompress(dst, cap, src, n);
    assert_true(xc_is_error(r) || r <= cap);
    size_t r2 = xc_zstd_decompress_dctx(shared, dst, cap, src, n);
    assert_true(xc_is_error(r2) || r2 <= cap);
    /* Both ways read the same bytes the same way. */
    assert_int_equal(xc_is_error(r), xc_is_error(r2));
    zt_stream_result sr = zt_stream_decode(shared, dst, cap, src, n, zt_random_chunking());
    assert_false(sr.stalled);
    assert_true(xc_is_error(sr.result) || sr.result <= cap);
    xc_zstd_dctx_reset(shared);
    xc_guard_free(dst);
    return r;
}

/* The error a frame cut to len bytes deserves: truncated, or, with the cut
 * in the content checksum, checksum mismatch as libzstd says. */
static int truncation_error(const sample *s, size_t len, size_t r)
{
    int has_checksum = (s->frame[4] & 0x04) != 0;
    if (xc_error_code(r) == XC_ERROR_TRUNCATED) return 1;
    return has_checksum && len >= s->size - 4 && xc_error_code(r) == XC_ERROR_CHECKSUM;
}

/* Every strict prefix of a frame is an error (truncated once the magic is
 * whole), never a success; streaming it never completes. */
static void test_truncation(void **state)
{
    (void)state;
    for (size_t i = 0; i < nsamples; i++) {
        const sample *s = &samples[i];
        uint8_t *src = xc_guard_alloc(s->size);
        uint8_t *dst = xc_guard_alloc(s->content_size);
        size_t step = xc_test_quick() && s->size > 1500 ? 1 + s->size / 500 : 1;
        for (size_t len = 1; len < s->size; len += step) {
            /* The prefix sits at the end of the guarded buffer. */
            const uint8_t *p = src + s->size - len;
            memcpy(src + s->size - len, s->frame, len);
            size_t r = xc_zstd_decompress(dst, s->content_size, p, len);
            size_t r2 = xc_zstd_decompress_dctx(shared, dst, s->content_size, p, len);
            if (!xc_is_error(r) || !xc_is_error(r2) ||
                (len >= 4 && (!truncation_error(s, len, r) || !truncation_error(s, len, r2)))) {
                print_error("%s cut to %zu of %zu bytes: one-shot %s, context %s\n", s->name, len,
                            s->size, xc_error_name(r), xc_error_name(r2));
                fail();
            }
            zt_stream_result sr = zt_stream_decode(shared, dst, s->content_size, p, len,
                                                   len % 7 ? (zt_chunking){0, 0}
                                                           : zt_random_chunking());
            if (sr.complete || sr.stalled) {
                print_error("%s cut to %zu of %zu bytes: streaming complete %d stalled %d\n",
                            s->name, len, s->size, sr.complete, sr.stalled);
                fail();
            }
            xc_zstd_dctx_reset(shared);
        }
        xc_guard_free(src);
        xc_guard_free(dst);
    }
}

/* Random bit flips: any outcome but a fault.  Afterwards the shared context
 * still decodes every sample correctly. */
static void test_bit_flips(void **state)
{
    (void)state;
    unsigned rounds = xc_test_quick() ? 30 : 300;
    for (size_t i = 0; i < nsamples; i++) {
        const sample *s = &samples[i];
        uint8_t *copy = zt_malloc(s->size);
        unsigned ok = 0;
        for (unsigned r = 0; r < rounds; r++) {
            memcpy(copy, s->frame, s->size);
            unsigned flips = 1 + xc_rand_below(4);
            for (unsigned f = 0; f < flips; f++) {
                /* Half the flips land in the first 32 bytes, where the
                 * headers and tables are. */
                size_t at = xc_rand_below(2) && s->size > 32 ? xc_rand_below(32)
                                                             : xc_rand_below((uint32_t)s->size);
                copy[at] ^= (uint8_t)(1u << xc_rand_below(8));
            }
            uint8_t *src = guarded_copy(copy, s->size);
            size_t cap = s->content_size;
            switch (xc_rand_below(4)) {
            case 0: cap += xc_rand_below(1000); break;
            case 1: cap = xc_rand_below((uint32_t)cap + 1); break;
            default: break;
            }
            ok += !xc_is_error(decode_anyhow(src, s->size, cap));
            xc_guard_free(src);
        }
        print_message("# %s: %u of %u flipped frames decoded\n", s->name, ok, rounds);
        free(copy);
    }
    for (size_t i = 0; i < nsamples; i++)
        zt_check_all_ways(shared, samples[i].frame, samples[i].size, samples[i].content,
                          samples[i].content_size, zt_random_chunking(), 0, samples[i].name);
}

/* Random bytes, alone and behind a valid magic and frame header byte. */
static void test_garbage(void **state)
{
    (void)state;
    unsigned rounds = xc_test_quick() ? 300 : 3000;
    uint8_t buf[2048];
    for (unsigned r = 0; r < rounds; r++) {
        size_t n = xc_rand_below(r % 10 == 0 ? sizeof buf : 64);
        xc_rand_fill(buf, n);
        unsigned kind = xc_rand_below(4);
        if (kind >= 1 && n >= 4) memcpy(buf, "\x28\xB5\x2F\xFD", 4);
        if (kind == 2 && n >= 5) buf[4] &= (uint8_t)~0x08; /* reserved bit clear */
        if (kind == 3 && n >= 8) {
            /* A skippable frame whose size may or may not fit. */
            memcpy(buf, "\x5A\x2A\x4D\x18", 4);
            buf[6] = buf[7] = 0;
        }
        uint8_t *src = guarded_copy(buf, n);
        decode_anyhow(src, n, xc_rand_below(4) ? xc_rand_below(300000) : 0);
        xc_guard_free(src);
    }
}

/* A destination exactly the size of the content decodes; one byte less is
 * XC_ERROR_DST_TOO_SMALL with nothing written past it (the guard page). */
static void test_destination_size(void **state)
{
    (void)state;
    for (size_t i = 0; i < nsamples; i++) {
        const sample *s = &samples[i];
        uint8_t *src = guarded_copy(s->frame, s->size);
        uint8_t *exact = xc_guard_alloc(s->content_size);
        assert_int_equal(xc_zstd_decompress(exact, s->content_size, src, s->size),
                         s->content_size);
        assert_memory_equal(exact, s->content, s->content_size);
        assert_int_equal(xc_zstd_decompress_dctx(shared, exact, s->content_size, src, s->size),
                         s->content_size);
        xc_guard_free(exact);
        if (s->content_size == 0) {
            xc_guard_free(src);
            continue;
        }
        size_t short_caps[3] = {s->content_size - 1, s->content_size / 2, 0};
        for (size_t k = 0; k < 3; k++) {
            uint8_t *dst = xc_guard_alloc(short_caps[k]);
            size_t r = xc_zstd_decompress(dst, short_caps[k], src, s->size);
            if (xc_error_code(r) != XC_ERROR_DST_TOO_SMALL) {
                print_error("%s into %zu of %zu bytes: %s\n", s->name, short_caps[k],
                            s->content_size, xc_error_name(r));
                fail();
            }
            r = xc_zstd_decompress_dctx(shared, dst, short_caps[k], src, s->size);
            assert_int_equal(xc_error_code(r), XC_ERROR_DST_TOO_SMALL);
            /* Streaming fills what room there is and waits for more. */
            zt_stream_result sr =
                zt_stream_decode(shared, dst, short_caps[k], src, s->size, zt_random_chunking());
            assert_false(sr.complete);
            assert_false(sr.stalled);
            if (!xc_is_error(sr.result)) {
                assert_int_equal(sr.result, short_caps[k]);
                assert_memory_equal(dst, s->content, short_caps[k]);
            }
            xc_zstd_dctx_reset(shared);
            xc_guard_free(dst);
        }
        xc_guard_free(src);
    }
}

/* Streaming into a fresh one-byte guarded buffer per call. */
static void test_one_byte_output(void **state)
{
    (void)state;
    uint8_t *one = xc_guard_alloc(1);
    for (size_t i = 0; i < nsamples; i++) {
        const sample *s = &samples[i];
        if (xc_test_quick() && s->content_size > 50000) continue;
        uint8_t *src = guarded_copy(s->frame, s->size);
        uint8_t *got = zt_malloc(s->content_size);
        xc_in_buffer in = {src, 0, 0};
        size_t produced = 0, r = 1;
        unsigned idle = 0;
        while (r != 0) {
            xc_out_buffer out = {one, 1, 0};
            in.size = in.pos + zt_chunk(1 + xc_rand_below(9), s->size - in.pos);
            size_t before = in.pos;
            r = xc_zstd_decompress_stream(shared, &out, &in);
            assert_false(xc_is_error(r));
            assert_true(out.pos <= 1);
            if (out.pos) {
                assert_true(produced < s->content_size);
                got[produced++] = one[0];
            }
            idle = out.pos || in.pos != before ? 0 : idle + 1;
            assert_true(idle < 8);
        }
        assert_int_equal(in.pos, s->size);
        assert_int_equal(produced, s->content_size);
        assert_memory_equal(got, s->content, s->content_size);
        free(got);
        xc_guard_free(src);
    }
    xc_guard_free(one);
}

/* ---- hand-made invalid frames ---------------------------------------------------- */

/* Writes a frame header with a 1 KiB window and no content size. */
static size_t put_header(uint8_t *f, uint8_t fhd, uint8_t wd)
{
    memcpy(f, "\x28\xB5\x2F\xFD", 4);
    f[4] = fhd;
    f[5] = wd;
    return 6;
}

/* Writes a block header: last flag, type (0 raw, 1 RLE, 2 compressed,
 * 3 reserved), size. */
static size_t put_block(uint8_t *f, int last, unsigned type, uint32_t size)
{
    uint32_t v = (uint32_t)last | type << 1 | size << 3;
    f[0] = (uint8_t)v;
    f[1] = (uint8_t)(v >> 8);
    f[2] = (uint8_t)(v >> 16);
    return 3;
}

static void expect(const uint8_t *f, size_t n, size_t cap, enum xc_error want, const char *what)
{
    uint8_t *src = guarded_copy(f, n);
    uint8_t *dst = xc_guard_alloc(cap);
    size_t r = xc_zstd_decompress(dst, cap, src, n);
    int ok = want == XC_OK ? !xc_is_error(r) : xc_error_code(r) == want;
    if (!ok) {
        print_error("%s: got %s, want %s\n", what, xc_error_name(r), xc_error_string(want));
        fail();
    }
    /* Streaming cannot tell the end of the input from a pause in it: where
     * one-shot says truncated, streaming waits for more. */
    zt_stream_result sr = zt_stream_decode(shared, dst, cap, src, n, (zt_chunking){0, 0});
    if (want == XC_OK) ok = sr.complete;
    else if (want == XC_ERROR_TRUNCATED)
        ok = !sr.complete && !sr.stalled && !xc_is_error(sr.result);
    else ok = xc_error_code(sr.result) == want;
    if (!ok) {
        print_error("%s, streaming: got %s (complete %d), want %s\n", what,
                    xc_error_name(sr.result), sr.complete, xc_error_string(want));
        fail();
    }
    xc_zstd_dctx_reset(shared);
    xc_guard_free(dst);
    xc_guard_free(src);
}

static void test_invalid_frames(void **state)
{
    (void)state;
    enum { BIG = XC_ZSTD_BLOCK_SIZE_MAX + 64 };
    uint8_t *f = zt_malloc(BIG + 64);
    memset(f, 'x', BIG + 64);
    size_t n;

    /* A valid base: 1 KiB window, one last raw block of 5 bytes. */
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 1, 0, 5);
    n += 5;
    expect(f, n, 64, XC_OK, "base frame");

    /* The reserved bit of the frame header descriptor. */
    f[4] = 0x08;
    expect(f, n, 64, XC_ERROR_FRAME_HEADER, "reserved header bit");
    /* The unused bit must be ignored. */
    f[4] = 0x10;
    expect(f, n, 64, XC_OK, "unused header bit");

    /* Block type 3 is reserved. */
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 1, 3, 5);
    n += 5;
    expect(f, n, 64, XC_ERROR_CORRUPT, "reserved block type");

    /* A raw block larger than the 1 KiB window (Block_Maximum_Size). */
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 1, 0, 2048);
    n += 2048;
    expect(f, n, 4096, XC_ERROR_CORRUPT, "block larger than the window");

    /* A raw block above 128 KiB, in a window that would hold it. */
    n = put_header(f, 0x00, 0x40); /* 2^18 */
    n += put_block(f + n, 1, 0, XC_ZSTD_BLOCK_SIZE_MAX + 1);
    n += XC_ZSTD_BLOCK_SIZE_MAX + 1;
    expect(f, n, BIG, XC_ERROR_CORRUPT, "block above 128 KiB");

    /* A compressed block with no room for even a literals header. */
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 1, 2, 0);
    expect(f, n, 64, XC_ERROR_CORRUPT, "empty compressed block");

    /* The content size says 10 and the blocks give 5, or 3. */
    memcpy(f, "\x28\xB5\x2F\xFD\x20\x0A", 6);
    n = 6 + put_block(f + 6, 1, 0, 5) + 5;
    expect(f, n, 64, XC_ERROR_CORRUPT, "content shorter than its size");
    f[5] = 3;
    expect(f, n, 64, XC_ERROR_CORRUPT, "content longer than its size");

    /* No last block: the input ends where the next block header should be. */
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 0, 0, 5);
    n += 5;
    expect(f, n, 64, XC_ERROR_TRUNCATED, "no last block");

    /* A skippable frame that claims more bytes than there are. */
    memcpy(f, "\x50\x2A\x4D\x18\x10\x00\x00\x00", 8);
    expect(f, 8 + 15, 64, XC_ERROR_TRUNCATED, "short skippable frame");
    expect(f, 8 + 16, 64, XC_OK, "skippable frame");

    /* The two reserved bits of the sequences' mode byte (RFC 8878
     * 3.1.1.3.2.1; decompressor_permissive.md, "Non-zeroes reserved bits").
     * The frame is zstd -19's for the 35 bytes "abcdefgh-" x 4 minus one
     * byte: 9 raw literals, one sequence with predefined tables. */
    static const uint8_t seq_frame[] = {0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x23, 0x7d, 0x00,
                                        0x00, 0x48, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66,
                                        0x67, 0x68, 0x2d, 0x01, 0x00, 0xb4, 0xcb, 0x11};
    memcpy(f, seq_frame, sizeof seq_frame);
    expect(f, sizeof seq_frame, 64, XC_OK, "one sequence");
    f[20] |= 0x01;
    expect(f, sizeof seq_frame, 64, XC_ERROR_CORRUPT, "reserved bits in the modes");
    f[20] = 0x02;
    expect(f, sizeof seq_frame, 64, XC_ERROR_CORRUPT, "reserved bits in the modes");

    /* With no sequences, the section ends right after their count: bytes
     * after it are an error (zstd PR #3674). */
    static const uint8_t zero_seq[] = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x3d, 0x00, 0x00,
                                       0x28, 'h',  'e',  'l',  'l',  'o',  0x00};
    memcpy(f, zero_seq, sizeof zero_seq);
    expect(f, sizeof zero_seq, 64, XC_OK, "no sequences");
    f[6] = 0x4d; /* block size 9 */
    f[sizeof zero_seq] = 0;
    f[sizeof zero_seq + 1] = 0;
    expect(f, sizeof zero_seq + 2, 64, XC_ERROR_CORRUPT, "bytes after no sequences");

    /* The same with the two-byte form of the count, (0x80 - 128) << 8 + 0
     * (RFC 8878 3.1.1.3.2.1; zstd's golden zeroSeq_2B.zst): valid. */
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 1, 2, 8);
    memcpy(f + n, "\x28hello\x80\x00", 8);
    expect(f, n + 8, 64, XC_OK, "no sequences, two-byte count");

    /* Offset 0 (the golden off0.bin.zst): 16 bytes of history in a raw
     * block, then one sequence with literal length 0 and Offset_Value 3,
     * which means rep[0] - 1 = 0 (RFC 8878 3.1.2.5).  All three codes are
     * RLE (modes 0x54): literal length code 0, offset code 1, match length
     * code 0 (3 bytes), so the bitstream holds only the offset's one extra
     * bit below the end marker: 0x03 gives Offset_Value 3, 0x02 gives 2,
     * which with literal length 0 means rep[2] = 8: valid, which shows the
     * frame is otherwise sound.  (libzstd 1.5.4 takes offset 0 for 1 and
     * refuses the two-byte count above; the golden files say otherwise.) */
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 0, 0, 16);
    memcpy(f + n, "0123456789abcdef", 16);
    n += 16;
    n += put_block(f + n, 1, 2, 7);
    memcpy(f + n, "\x00\x01\x54\x00\x01\x00\x02", 7);
    expect(f, n + 7, 64, XC_OK, "repeat offset 2 with literal length 0");
    f[n + 6] = 0x03;
    expect(f, n + 7, 64, XC_ERROR_CORRUPT, "offset 0");

    /* Empty raw blocks, and a first block that is RLE at the largest block
     * size (the golden empty-block.zst and rle-first-block.zst). */
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 0, 0, 0);
    n += put_block(f + n, 1, 0, 0);
    expect(f, n, 64, XC_OK, "empty raw blocks");
    n = put_header(f, 0x00, 0x38); /* 2^17 */
    n += put_block(f + n, 0, 1, XC_ZSTD_BLOCK_SIZE_MAX);
    f[n++] = 0;
    n += put_block(f + n, 1, 0, 5);
    n += 5;
    expect(f, n, XC_ZSTD_BLOCK_SIZE_MAX + 5, XC_OK, "RLE first block");

    /* Not a frame; and a good frame followed by bytes that are not one. */
    memcpy(f, "\x28\xB5\x2F\xFC", 4);
    expect(f, 16, 64, XC_ERROR_UNKNOWN_MAGIC, "bad magic");
    n = put_header(f, 0x00, 0x00);
    n += put_block(f + n, 1, 1, 40); /* RLE: 40 copies of the next byte */
    f[n++] = 'r';
    memcpy(f + n, "JUNKJUNK", 8);
    expect(f, n, 64, XC_OK, "RLE frame");
    expect(f, n + 8, 64, XC_ERROR_UNKNOWN_MAGIC, "trailing junk");
    free(f);
}

/* NULL buffers with zero sizes are valid everywhere; an empty frame needs
 * no destination at all. */
static void test_null_and_empty(void **state)
{
    (void)state;
    static const uint8_t empty[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x00, 0x01, 0x00, 0x00};
    size_t r = xc_zstd_decompress(NULL, 0, NULL, 0);
    assert_true(r == 0 || xc_is_error(r));
    assert_int_equal(xc_zstd_decompress(NULL, 0, empty, sizeof empty), 0);
    assert_int_equal(xc_zstd_decompress_dctx(shared, NULL, 0, empty, sizeof empty), 0);
    size_t count;
    const zt_embedded *list = zt_embedded_frames(&count);
    assert_int_equal(xc_error_code(xc_zstd_decompress(NULL, 0, list[0].frame, list[0].size)),
                     XC_ERROR_DST_TOO_SMALL);
    xc_in_buffer in = {NULL, 0, 0};
    xc_out_buffer out = {NULL, 0, 0};
    r = xc_zstd_decompress_stream(shared, &out, &in);
    assert_false(xc_is_error(r));
    assert_int_not_equal(r, 0);
    in = (xc_in_buffer){empty, sizeof empty, 0};
    r = xc_zstd_decompress_stream(shared, &out, &in);
    assert_int_equal(r, 0);
    assert_int_equal(in.pos, sizeof empty);
    assert_true(xc_zstd_frame_content_size(empty, sizeof empty) == 0);
    assert_int_equal(xc_zstd_find_frame_compressed_size(empty, sizeof empty), sizeof empty);
    xc_zstd_dctx_reset(shared);
}

/* A good frame with a damaged dictionary, and random dictionaries. */
static void test_damaged_dictionaries(void **state)
{
    (void)state;
    size_t count, dict_size;
    const zt_embedded *list = zt_embedded_frames(&count);
    const zt_embedded *json = NULL;
    for (size_t i = 0; i < count; i++)
        if (list[i].dict == ZT_D_JSON) json = &list[i];
    assert_non_null(json);
    const uint8_t *dict = zt_embedded_json_dict(&dict_size);
    uint8_t *copy = zt_malloc(dict_size);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    uint8_t *dst = xc_guard_alloc(json->content_size);
    uint8_t *src = guarded_copy(json->frame, json->size);
    unsigned rounds = xc_test_quick() ? 100 : 1000, loaded = 0;
    for (unsigned r = 0; r < rounds; r++) {
        memcpy(copy, dict, dict_size);
        size_t n = dict_size;
        if (r % 4 == 3) {
            /* Random content behind the magic and the right ID. */
            n = 8 + xc_rand_below((uint32_t)dict_size - 8);
            xc_rand_fill(copy + 8, n - 8);
        } else {
            /* Flips in the tables and repeat offsets. */
            for (unsigned k = 0, flips = 1 + xc_rand_below(3); k < flips; k++) {
                size_t at = 8 + xc_rand_below(ZT_JSON_DICT_HEADER - 8);
                copy[at] ^= (uint8_t)(1u << xc_rand_below(8));
            }
        }
        uint8_t *g = guarded_copy(copy, n);
        size_t lr = xc_zstd_dctx_load_dictionary(d, g, n);
        xc_zstd_ddict *dd = xc_zstd_ddict_new(g, n);
        xc_guard_free(g);
        if (!xc_is_error(lr)) {
            loaded++;
            size_t res = xc_zstd_decompress_dctx(d, dst, json->content_size, src, json->size);
            assert_true(xc_is_error(res) || res <= json->content_size);
            zt_stream_result sr = zt_stream_decode(d, dst, json->content_size, src, json->size,
                                                   zt_random_chunking());
            assert_false(sr.stalled);
        }
        if (dd) {
            xc_zstd_dctx_reset(d);
            xc_zstd_dctx_ref_ddict(d, dd);
            size_t res = xc_zstd_decompress_dctx(d, dst, json->content_size, src, json->size);
            assert_true(xc_is_error(res) || res <= json->content_size);
            xc_zstd_ddict_free(dd);
        }
        xc_zstd_dctx_reset(d);
    }
    print_message("# %u of %u damaged dictionaries loaded\n", loaded, rounds);
    xc_guard_free(src);
    xc_guard_free(dst);
    xc_zstd_dctx_free(d);
    free(copy);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_bit_flips),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_destination_size),
        cmocka_unit_test(test_one_byte_output),
        cmocka_unit_test(test_invalid_frames),
        cmocka_unit_test(test_null_and_empty),
        cmocka_unit_test(test_damaged_dictionaries),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
