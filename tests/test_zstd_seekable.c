/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The seekable format (src/zstd/seekable):
 * - files written in random pieces into random output room equal the file
 *   written in one call, for frame sizes from 1 byte to 64 KiB, with and
 *   without checksums, and for 1 and 3 compression workers;
 * - the seek table lists every frame's sizes and offsets; many random
 *   range reads (over a buffer and over a read-at callback) and the
 *   whole-content decode on 1, 2 and 4 workers give the original bytes;
 * - libzstd reads our files as ordinary concatenated frames;
 * - a file whose seek table this test builds byte by byte from the format
 *   document (frames from libzstd, a skippable frame listed among them,
 *   unused descriptor bits set) is read by ours, every range right;
 * - hostile tables and frames each fail with their named error, and reads
 *   past the end with XC_ERROR_OUT_OF_RANGE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XC_HAVE_LIBZSTD
#  include <zstd.h>
#endif

#include "xc_test.h"
#include "zstd/common/xxh64.h"

#define ERR(e) ((size_t) - (XC_ERROR_##e))

/* Text-like content with repeats, so frames really compress. */
static uint8_t *make_input(size_t n)
{
    static const char *const words[] = {"seek ", "table ", "frame ", "zstd ", "offset ",
                                        "range ", "\n", "0123456789 "};
    uint8_t *p = (uint8_t *)malloc(n ? n : 1);
    assert_non_null(p);
    size_t i = 0;
    while (i < n) {
        if (xc_rand_below(8) == 0) {
            p[i++] = (uint8_t)xc_rand();
            continue;
        }
        const char *w = words[xc_rand_below(8)];
        for (size_t k = 0; w[k] && i < n; k++) p[i++] = (uint8_t)w[k];
    }
    return p;
}

typedef struct {
    uint8_t *p;
    size_t size, cap;
} growbuf;

static void grow(growbuf *g, size_t more)
{
    if (g->size + more <= g->cap) return;
    g->cap = 2 * (g->size + more);
    g->p = (uint8_t *)realloc(g->p, g->cap);
    assert_non_null(g->p);
}

/* Writes src as a seekable file at `level`, with XC_ZSTD_C_JOB_SIZE = job
 * (0: the default); piece > 0 feeds it in random pieces of up to `piece`
 * bytes into random output room. */
static growbuf write_seekable_at(const uint8_t *src, size_t n, unsigned frame, int sums,
                                 int workers, size_t piece, int level, int job)
{
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_false(xc_is_error(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level)));
    assert_false(xc_is_error(xc_zstd_cctx_set(c, XC_ZSTD_C_JOB_SIZE, job)));
    if (workers) assert_false(xc_is_error(xc_zstd_cctx_set(c, XC_ZSTD_C_NB_WORKERS, workers)));
    xc_zstd_seekable_writer *w = xc_zstd_seekable_writer_new(c, frame, sums);
    assert_non_null(w);
    growbuf g = {0};
    xc_in_buffer in = {src, 0, 0};
    size_t rem;
    do {
        size_t const k = piece ? 1 + xc_rand_below((uint32_t)piece) : n - in.size;
        in.size = in.size + k > n ? n : in.size + k;
        size_t const room = piece ? 1 + xc_rand_below(4096) : 1 << 20;
        grow(&g, room);
        xc_out_buffer out = {g.p + g.size, room, 0};
        rem = xc_zstd_seekable_write(w, &out, &in);
        assert_false(xc_is_error(rem));
        g.size += out.pos;
    } while (in.pos < n || rem);
    do {
        size_t const room = piece ? 1 + xc_rand_below(64) : 1 << 20;
        grow(&g, room);
        xc_out_buffer out = {g.p + g.size, room, 0};
        rem = xc_zstd_seekable_finish(w, &out);
        assert_false(xc_is_error(rem));
        g.size += out.pos;
    } while (rem);
    /* Done: more input is refused, finishing again is a no-op. */
    xc_out_buffer out = {NULL, 0, 0};
    xc_in_buffer none = {NULL, 0, 0};
    assert_int_equal(xc_zstd_seekable_write(w, &out, &none), ERR(STAGE_WRONG));
    assert_int_equal(xc_zstd_seekable_finish(w, &out), 0);
    xc_zstd_seekable_writer_free(w);
    xc_zstd_cctx_free(c);
    return g;
}

static growbuf write_seekable(const uint8_t *src, size_t n, unsigned frame, int sums,
                              int workers, size_t piece)
{
    return write_seekable_at(src, n, frame, sums, workers, piece, 3, 0);
}

typedef struct {
    const uint8_t *p;
    size_t size;
    int fail_after; /* calls that succeed before one fails; < 0 never */
} cb_src;

static int read_at(void *opaque, void *buf, size_t len, unsigned long long off)
{
    cb_src *s = (cb_src *)opaque;
    assert_true(off <= s->size && len <= s->size - off); /* never outside */
    if (s->fail_after == 0) return -1;
    if (s->fail_after > 0) s->fail_after--;
    memcpy(buf, s->p + off, len);
    return 0;
}

static void check_reads(xc_zstd_seekable *r, const uint8_t *src, size_t n, int rounds)
{
    assert_int_equal(xc_zstd_seekable_content_size(r), n);
    uint8_t *dst = (uint8_t *)malloc(n + 16);
    assert_non_null(dst);
    for (int t = 0; t < rounds; t++) {
        size_t const off = n ? xc_rand_below((uint32_t)n + 1) : 0;
        size_t const len = xc_rand_below(t & 1 ? 300000 : 5000);
        size_t const want = len < n - off ? len : n - off;
        size_t const got = xc_zstd_seekable_read(r, dst, len, off);
        assert_int_equal(got, want);
        assert_memory_equal(dst, src + off, want);
    }
    assert_int_equal(xc_zstd_seekable_read(r, dst, 10, n), 0);
    assert_int_equal(xc_zstd_seekable_read(r, dst, 10, (unsigned long long)n + 1),
                     ERR(OUT_OF_RANGE));
    free(dst);
}

static void check_table(xc_zstd_seekable *r, size_t file_size, size_t n, unsigned frame)
{
    unsigned const frames = xc_zstd_seekable_frames(r);
    unsigned long long c = 0, d = 0;
    for (unsigned i = 0; i < frames; i++) {
        assert_int_equal(xc_zstd_seekable_frame_c_offset(r, i), c);
        assert_int_equal(xc_zstd_seekable_frame_d_offset(r, i), d);
        unsigned long long const ds = xc_zstd_seekable_frame_d_size(r, i);
        if (frame) assert_int_equal(ds, i + 1 < frames ? frame : n - d);
        if (ds) assert_int_equal(xc_zstd_seekable_frame_of(r, d + ds - 1), i);
        c += xc_zstd_seekable_frame_c_size(r, i);
        d += ds;
    }
    assert_int_equal(d, n);
    assert_true(c < file_size);
    assert_int_equal(xc_zstd_seekable_frame_c_size(r, frames), 0);
    assert_int_equal(xc_zstd_seekable_frame_of(r, n), frames);
}

static void test_roundtrip(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 1000, 70000, 300001};
    static const unsigned frames[] = {1, 777, 4096, 65536};
    for (size_t si = 0; si < XC_ARRAY_SIZE(sizes); si++) {
        size_t const n = sizes[si];
        uint8_t *src = make_input(n);
        for (size_t fi = 0; fi < XC_ARRAY_SIZE(frames); fi++) {
            unsigned const frame = frames[fi];
            if (frame == 1 && n > 1000) continue;
            for (int sums = 0; sums < 2; sums++) {
                growbuf a = write_seekable(src, n, frame, sums, 0, 0);
                growbuf b = write_seekable(src, n, frame, sums, 0, 1 + xc_rand_below(9000));
                assert_int_equal(a.size, b.size);
                assert_memory_equal(a.p, b.p, a.size);

                xc_zstd_seekable *r = xc_zstd_seekable_new();
                assert_non_null(r);
                assert_int_equal(xc_zstd_seekable_open_buffer(r, a.p, a.size), 0);
                assert_int_equal(xc_zstd_seekable_has_checksums(r), sums);
                assert_int_equal(xc_zstd_seekable_frames(r), n ? (n + frame - 1) / frame : 0);
                check_table(r, a.size, n, frame);
                check_reads(r, src, n, 60);

                uint8_t *all = (uint8_t *)malloc(n + 1);
                for (unsigned wk = 1; wk <= 4; wk *= 2) {
                    memset(all, 0xAA, n + 1);
                    assert_int_equal(xc_zstd_seekable_decompress_all(r, all, n, wk), n);
                    assert_memory_equal(all, src, n);
                }
                if (n) assert_int_equal(xc_zstd_seekable_decompress_all(r, all, n - 1, 2),
                                        ERR(DST_TOO_SMALL));

                cb_src cs = {a.p, a.size, -1};
                assert_int_equal(xc_zstd_seekable_open_callback(r, read_at, &cs, a.size), 0);
                check_reads(r, src, n, 30);
                assert_int_equal(xc_zstd_seekable_decompress_all(r, all, n, 2), n);
                assert_memory_equal(all, src, n);
#ifdef XC_HAVE_LIBZSTD
                /* Any zstd decoder: frames, then a skippable frame. */
                uint8_t *z = (uint8_t *)malloc(n + 1);
                size_t const zr = ZSTD_decompress(z, n + 1, a.p, a.size);
                assert_false(ZSTD_isError(zr));
                assert_int_equal(zr, n);
                assert_memory_equal(z, src, n);
                free(z);
#endif
                free(all);
                xc_zstd_seekable_free(r);
                free(a.p);
                free(b.p);
            }
        }
        free(src);
    }
}

static void test_workers_same_file(void **state)
{
    (void)state;
    /* Smaller under ThreadSanitizer and emulators. */
    int const small = xc_test_quick() || getenv("XC_TEST_THREADS_ONLY") != NULL;
    size_t const n = small ? (size_t)3 << 18 : (size_t)3 << 20;
    unsigned const frame = small ? 1u << 18 : 1u << 20;
    uint8_t *src = make_input(n);
    growbuf a = write_seekable(src, n, frame, 1, 1, 0);
    growbuf b = write_seekable(src, n, frame, 1, 3, 100000);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.p, b.p, a.size);
    xc_zstd_seekable *r = xc_zstd_seekable_new();
    assert_int_equal(xc_zstd_seekable_open_buffer(r, b.p, b.size), 0);
    check_reads(r, src, n, 20);
    xc_zstd_seekable_free(r);
    free(a.p);
    free(b.p);
    free(src);
}

/* With workers the writer compresses whole frames in parallel: the file of
 * nb_workers = 0 for every count of workers and any chunking, also with
 * frames larger than a job (which one frame of jobs would cut). */
static void test_parallel_frames_are_serial(void **state)
{
    (void)state;
    int const small = xc_test_quick() || getenv("XC_TEST_THREADS_ONLY") != NULL;
    static const struct {
        unsigned frame;
        int level, job;
        size_t n;
    } cases[] = {
        {64u << 10, 3, 0, 1300000},
        {(3u << 20) / 2, 1, 512 << 10, 3500000},
        {100000, 5, 0, 1000000}, /* the last batch partial, the last frame short */
    };
    static const int workers[] = {1, 2, 4};
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        size_t const n = small ? cases[ci].n / 4 : cases[ci].n;
        unsigned const frame = small ? cases[ci].frame / 4 : cases[ci].frame;
        uint8_t *src = make_input(n);
        int const sums = (int)(ci & 1) == 0;
        growbuf want = write_seekable_at(src, n, frame, sums, 0, 0, cases[ci].level,
                                         cases[ci].job);
        for (size_t wi = 0; wi < sizeof workers / sizeof workers[0]; wi++) {
            growbuf got = write_seekable_at(src, n, frame, sums, workers[wi],
                                            wi ? 200000 : 0, cases[ci].level, cases[ci].job);
            if (got.size != want.size || memcmp(got.p, want.p, want.size) != 0) {
                print_error("frame %u, %d workers: not the serial file\n", frame, workers[wi]);
                fail();
            }
            free(got.p);
        }
        xc_zstd_seekable *r = xc_zstd_seekable_new();
        assert_int_equal(xc_zstd_seekable_open_buffer(r, want.p, want.size), 0);
        assert_int_equal(xc_zstd_seekable_frames(r), (n + frame - 1) / frame);
        check_reads(r, src, n, 10);
        xc_zstd_seekable_free(r);
        free(want.p);
        free(src);
    }
}

/* ---- a seek table built by hand from the format document ------------- */

static size_t put_frame(growbuf *g, const uint8_t *src, size_t n)
{
    size_t const cap = xc_zstd_compress_bound(n);
    grow(g, cap);
#ifdef XC_HAVE_LIBZSTD
    size_t const c = ZSTD_compress(g->p + g->size, cap, src, n, 5);
    assert_false(ZSTD_isError(c));
#else
    size_t const c = xc_zstd_compress(g->p + g->size, cap, src, n, 5);
    assert_false(xc_is_error(c));
#endif
    g->size += c;
    return c;
}

static void put32(growbuf *g, uint32_t v)
{
    grow(g, 4);
    g->p[g->size++] = (uint8_t)v;
    g->p[g->size++] = (uint8_t)(v >> 8);
    g->p[g->size++] = (uint8_t)(v >> 16);
    g->p[g->size++] = (uint8_t)(v >> 24);
}

/* Frames of the given content sizes (0: a skippable frame of 5 bytes of
 * payload listed with decompressed size 0), then the table. */
static growbuf hand_file(const uint8_t *src, const size_t *parts, unsigned nparts, int sums,
                         uint8_t extra_desc_bits)
{
    growbuf g = {0};
    uint32_t cs[16], ds[16], xs[16];
    size_t off = 0;
    for (unsigned i = 0; i < nparts; i++) {
        if (!parts[i]) {
            put32(&g, 0x184D2A53u);
            put32(&g, 5);
            grow(&g, 5);
            memcpy(g.p + g.size, "skip!", 5);
            g.size += 5;
            cs[i] = 13;
            ds[i] = 0;
            xs[i] = (uint32_t)xc_xxh64("", 0, 0);
            continue;
        }
        cs[i] = (uint32_t)put_frame(&g, src + off, parts[i]);
        ds[i] = (uint32_t)parts[i];
        xs[i] = (uint32_t)xc_xxh64(src + off, parts[i], 0);
        off += parts[i];
    }
    uint32_t const es = sums ? 12 : 8;
    put32(&g, 0x184D2A5Eu);           /* Skippable_Magic_Number */
    put32(&g, nparts * es + 9);       /* Frame_Size */
    for (unsigned i = 0; i < nparts; i++) {
        put32(&g, cs[i]);             /* Compressed_Size */
        put32(&g, ds[i]);             /* Decompressed_Size */
        if (sums) put32(&g, xs[i]);   /* Checksum */
    }
    put32(&g, nparts);                /* Number_Of_Frames */
    grow(&g, 1);
    g.p[g.size++] = (uint8_t)((sums ? 0x80 : 0) | extra_desc_bits); /* Seek_Table_Descriptor */
    put32(&g, 0x8F92EAB1u);           /* Seekable_Magic_Number */
    return g;
}

static void test_hand_built_table(void **state)
{
    (void)state;
    static const size_t parts[] = {5000, 0, 1, 20000, 0, 7777};
    size_t n = 0;
    for (size_t i = 0; i < XC_ARRAY_SIZE(parts); i++) n += parts[i];
    uint8_t *src = make_input(n);
    for (int sums = 0; sums < 2; sums++) {
        growbuf g = hand_file(src, parts, XC_ARRAY_SIZE(parts), sums, 3);
        xc_zstd_seekable *r = xc_zstd_seekable_new();
        assert_int_equal(xc_zstd_seekable_open_buffer(r, g.p, g.size), 0);
        assert_int_equal(xc_zstd_seekable_frames(r), XC_ARRAY_SIZE(parts));
        assert_int_equal(xc_zstd_seekable_frame_d_size(r, 1), 0);
        assert_int_equal(xc_zstd_seekable_frame_c_size(r, 1), 13);
        assert_int_equal(xc_zstd_seekable_frame_of(r, 5000), 2);
        check_reads(r, src, n, 200);
        uint8_t *all = (uint8_t *)malloc(n);
        assert_int_equal(xc_zstd_seekable_decompress_all(r, all, n, 3), n);
        assert_memory_equal(all, src, n);
        free(all);
        xc_zstd_seekable_free(r);
        free(g.p);
    }
    free(src);
}

/* ---- hostile input --------------------------------------------------- */

static size_t open_copy(const growbuf *g, void (*edit)(uint8_t *p, size_t n), size_t n_cut,
                        size_t *read_err)
{
    uint8_t *p = (uint8_t *)xc_guard_alloc(g->size - n_cut);
    memcpy(p, g->p, g->size - n_cut);
    if (edit) edit(p, g->size - n_cut);
    xc_zstd_seekable *r = xc_zstd_seekable_new();
    size_t const e = xc_zstd_seekable_open_buffer(r, p, g->size - n_cut);
    if (read_err) {
        size_t const n = (size_t)xc_zstd_seekable_content_size(r);
        uint8_t *dst = (uint8_t *)malloc(n + 1);
        *read_err = xc_zstd_seekable_read(r, dst, n, 0);
        /* The same first error in frame order, however many runners check
         * their frames' checksums in groups. */
        for (unsigned wk = 1; wk <= 3; wk++) {
            size_t const all = xc_zstd_seekable_decompress_all(r, dst, n, wk);
            if (xc_is_error(*read_err)) assert_int_equal(all, *read_err);
        }
        free(dst);
    }
    xc_zstd_seekable_free(r);
    xc_guard_free(p);
    return e;
}

/* The hand-built file with checksums: frames 5000, 0 (skippable), 1,
 * 20000, 0, 7777; entries of 12 bytes end 9 bytes before the end. */
#define NPARTS 6
#define ENTRY(p, n, i) ((p) + (n) - 9 - 12 * (NPARTS - (i)))
static void edit_magic(uint8_t *p, size_t n) { p[n - 1] ^= 1; }
static void edit_reserved(uint8_t *p, size_t n) { p[n - 5] |= 0x04; }
static void edit_count_up(uint8_t *p, size_t n) { p[n - 9] += 1; }
static void edit_count_huge(uint8_t *p, size_t n) { p[n - 6] = 0xFF; }
static void edit_head_magic(uint8_t *p, size_t n) { ENTRY(p, n, 0)[-8] ^= 1; }
static void edit_head_size(uint8_t *p, size_t n) { ENTRY(p, n, 0)[-4] += 1; }
static void edit_csize(uint8_t *p, size_t n) { ENTRY(p, n, 3)[0] += 1; }
static void edit_move_byte(uint8_t *p, size_t n)
{   /* frame 0 one byte shorter, frame 2 one longer: sums still add up */
    ENTRY(p, n, 0)[0] -= 1;
    ENTRY(p, n, 2)[0] += 1;
}
static void edit_dsize(uint8_t *p, size_t n) { ENTRY(p, n, 3)[4] += 1; }
static void edit_dsize_huge(uint8_t *p, size_t n) { ENTRY(p, n, 2)[7] = 0xF0; }
static void edit_sum(uint8_t *p, size_t n) { ENTRY(p, n, 5)[8] ^= 0x10; }
static void edit_sum_then_dsize(uint8_t *p, size_t n)
{   /* frame 0's checksum wrong, frame 3 longer than its entry says */
    ENTRY(p, n, 0)[8] ^= 0x01;
    ENTRY(p, n, 3)[4] += 1;
}
static void edit_dsize_then_sum(uint8_t *p, size_t n)
{   /* frame 3 longer than its entry says, frame 5's checksum wrong */
    ENTRY(p, n, 3)[4] += 1;
    ENTRY(p, n, 5)[8] ^= 0x01;
}
static void edit_merge(uint8_t *p, size_t n)
{   /* entries 2 and 3 claim to be one frame and an empty one */
    uint32_t c2 = xc_read_le32(ENTRY(p, n, 2)), c3 = xc_read_le32(ENTRY(p, n, 3));
    uint32_t d2 = xc_read_le32(ENTRY(p, n, 2) + 4), d3 = xc_read_le32(ENTRY(p, n, 3) + 4);
    xc_write_le32(ENTRY(p, n, 2), c2 + c3);
    xc_write_le32(ENTRY(p, n, 2) + 4, d2 + d3);
    xc_write_le32(ENTRY(p, n, 3), 0);
    xc_write_le32(ENTRY(p, n, 3) + 4, 0);
}

static void test_hostile(void **state)
{
    (void)state;
    static const size_t parts[NPARTS] = {5000, 0, 1, 20000, 0, 7777};
    size_t n = 0;
    for (size_t i = 0; i < NPARTS; i++) n += parts[i];
    uint8_t *src = make_input(n);
    growbuf g = hand_file(src, parts, NPARTS, 1, 0);
    size_t re;

    assert_int_equal(open_copy(&g, NULL, 0, &re), 0);
    assert_int_equal(re, n);
    assert_int_equal(open_copy(&g, edit_magic, 0, NULL), ERR(SEEK_TABLE_MISSING));
    assert_int_equal(open_copy(&g, NULL, 1, NULL), ERR(SEEK_TABLE_MISSING));
    assert_int_equal(open_copy(&g, NULL, g.size - 16, NULL), ERR(SEEK_TABLE_MISSING));
    assert_int_equal(open_copy(&g, edit_reserved, 0, NULL), ERR(SEEK_TABLE_CORRUPT));
    assert_int_equal(open_copy(&g, edit_count_up, 0, NULL), ERR(SEEK_TABLE_CORRUPT));
    assert_int_equal(open_copy(&g, edit_count_huge, 0, NULL), ERR(SEEK_TABLE_CORRUPT));
    assert_int_equal(open_copy(&g, edit_head_magic, 0, NULL), ERR(SEEK_TABLE_CORRUPT));
    assert_int_equal(open_copy(&g, edit_head_size, 0, NULL), ERR(SEEK_TABLE_CORRUPT));
    assert_int_equal(open_copy(&g, edit_csize, 0, NULL), ERR(SEEK_TABLE_CORRUPT));

    assert_int_equal(open_copy(&g, edit_move_byte, 0, &re), 0);
    assert_int_equal(re, ERR(SEEK_TABLE_MISMATCH));
    assert_int_equal(open_copy(&g, edit_dsize, 0, &re), 0);
    assert_int_equal(re, ERR(SEEK_TABLE_MISMATCH));
    assert_int_equal(open_copy(&g, edit_dsize_huge, 0, &re), 0);
    assert_int_equal(re, ERR(SEEK_TABLE_MISMATCH));
    assert_int_equal(open_copy(&g, edit_merge, 0, &re), 0);
    assert_int_equal(re, ERR(SEEK_TABLE_MISMATCH));
    assert_int_equal(open_copy(&g, edit_sum, 0, &re), 0);
    assert_int_equal(re, ERR(CHECKSUM));
    assert_int_equal(open_copy(&g, edit_sum_then_dsize, 0, &re), 0);
    assert_int_equal(re, ERR(CHECKSUM));
    assert_int_equal(open_copy(&g, edit_dsize_then_sum, 0, &re), 0);
    assert_int_equal(re, ERR(SEEK_TABLE_MISMATCH));

    /* The reader stays usable after an error; callback failures. */
    xc_zstd_seekable *r = xc_zstd_seekable_new();
    uint8_t buf[64];
    assert_int_equal(xc_zstd_seekable_read(r, buf, 1, 0), ERR(STAGE_WRONG));
    cb_src cs = {g.p, g.size, 0};
    assert_int_equal(xc_zstd_seekable_open_callback(r, read_at, &cs, g.size), ERR(TRUNCATED));
    assert_int_equal(xc_zstd_seekable_frames(r), 0);
    cs.fail_after = 3; /* footer, header, one chunk of entries */
    assert_int_equal(xc_zstd_seekable_open_callback(r, read_at, &cs, g.size), 0);
    assert_int_equal(xc_zstd_seekable_read(r, buf, sizeof buf, 6000), ERR(TRUNCATED));
    cs.fail_after = -1;
    assert_int_equal(xc_zstd_seekable_read(r, buf, sizeof buf, 6000), sizeof buf);
    assert_memory_equal(buf, src + 6000, sizeof buf);
    assert_int_equal(xc_zstd_seekable_read(r, NULL, 1, 0), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_seekable_open_buffer(r, NULL, 5), ERR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_seekable_open_buffer(r, NULL, 0), ERR(SEEK_TABLE_MISSING));
    xc_zstd_seekable_free(r);

    /* The writer's parameters. */
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_null(xc_zstd_seekable_writer_new(NULL, 0, 0));
    assert_null(xc_zstd_seekable_writer_new(c, XC_ZSTD_SEEKABLE_FRAME_SIZE_MAX + 1, 0));
    xc_zstd_seekable_writer *w = xc_zstd_seekable_writer_new(c, 100, 0);
    xc_out_buffer out = {buf, sizeof buf, sizeof buf + 1};
    xc_in_buffer in = {src, 10, 0};
    assert_int_equal(xc_zstd_seekable_write(w, &out, &in), ERR(BAD_PARAMETER));
    xc_zstd_seekable_writer_free(w);
    xc_zstd_cctx_free(c);
    assert_string_equal(xc_error_name(ERR(SEEK_TABLE_MISSING)), "seek table missing");

    free(g.p);
    free(src);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_workers_same_file),
        cmocka_unit_test(test_parallel_frames_are_serial),
        cmocka_unit_test(test_hand_built_table),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
