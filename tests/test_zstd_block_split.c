/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The block splitter (compress_block_split.c): frames whose blocks were cut
 * into partitions decode with our decoder and libzstd's, at the optimal
 * levels with the splitter on, off and automatic; a split never makes a
 * block larger than the same parse without it; a partition that goes out
 * raw between partitions that use repeat offsets (the decoder's offsets
 * then lag the parser's, and codes must be rewritten); small blocks;
 * streaming and a reused context; dictionaries; the parameter's range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"
#include "zstd_enc_test_util.h"
#include "zstd_test_frames.h"
#include "zstd/compress/compress_internal.h"

/* ---- frames, block by block ----------------------------------------------------- */

typedef struct {
    unsigned blocks, raw, rle, compressed;
    int raw_between; /* a raw block with compressed blocks on both sides */
} block_census;

/* Walks the blocks of a frame (RFC 8878 §3.1.1.1, §3.1.1.2). */
static block_census census(const uint8_t *f, size_t n)
{
    static const size_t did_bytes[4] = {0, 1, 2, 4};
    static const size_t fcs_bytes[4] = {0, 2, 4, 8};
    block_census b = {0, 0, 0, 0, 0};
    assert_true(n >= 6);
    unsigned const fhd = f[4];
    unsigned const single = (fhd >> 5) & 1;
    size_t pos = 5 + !single + did_bytes[fhd & 3] +
                 (fhd >> 6 == 0 ? single : fcs_bytes[fhd >> 6]);
    int seen_compressed = 0, pending_raw = 0;
    for (;;) {
        assert_true(pos + 3 <= n);
        uint32_t const h = xc_read_le24(f + pos);
        unsigned const type = (h >> 1) & 3;
        size_t const size = h >> 3;
        pos += 3 + (type == 1 ? 1 : size);
        b.blocks++;
        if (type == 0) {
            b.raw++;
            if (seen_compressed) pending_raw = 1;
        } else if (type == 1) {
            b.rle++;
        } else {
            b.compressed++;
            if (pending_raw) b.raw_between = 1;
            seen_compressed = 1;
        }
        if (h & 1) break;
    }
    return b;
}

static xc_zstd_cctx *new_cctx(int level, int split)
{
    xc_zstd_cctx *c = zt_new_cctx(level);
    zt_set(c, XC_ZSTD_C_BLOCK_SPLITTER, split);
    return c;
}

/* Compresses one-shot with the splitter in `split` mode; checks both
 * decoders; returns the frame. */
static uint8_t *round_trip(const uint8_t *src, size_t n, int level, int split, size_t *fsize,
                           const char *what)
{
    xc_zstd_cctx *c = new_cctx(level, split);
    uint8_t *f = zt_compress_oneshot(c, src, n, fsize);
    char label[160];
    snprintf(label, sizeof label, "%s, level %d, splitter %d", what, level, split);
    zt_check_decodes(f, *fsize, src, n, label);
    xc_zstd_cctx_free(c);
    return f;
}

/* ---- inputs ------------------------------------------------------------------------- */

/* Sections of text, little-endian numbers and source code, each a few KiB,
 * so that every 128 KiB block holds several changes of statistics. */
static uint8_t *make_changing(size_t n, size_t section, uint64_t seed)
{
    uint8_t *p = zt_malloc(n);
    static const enum zt_kind kinds[] = {ZT_TEXT, ZT_BINARY, ZT_SOURCE, ZT_JSON};
    for (size_t at = 0, k = 0; at < n; at += section, k++) {
        size_t const len = XC_MIN(section, n - at);
        zt_gen(kinds[k % XC_ARRAY_SIZE(kinds)], p + at, len, seed + k);
    }
    return p;
}

/* Like a fax page (ptt5): rows of 216 bytes (1728 pixels), mostly white
 * (zero), with a few black strokes each, and often the row above again
 * with a stroke moved: long zero matches, short literals. */
static uint8_t *make_bitmap(size_t n, uint64_t seed)
{
    uint8_t *p = zt_malloc(n);
    uint64_t s = seed;
    size_t const row = 216;
    for (size_t at = 0; at < n; at += row) {
        size_t const len = XC_MIN(row, n - at);
        if (at >= row && zt_below(&s, 3) != 0) {
            memcpy(p + at, p + at - row, len);
        } else {
            memset(p + at, 0, len);
            for (uint32_t k = zt_below(&s, 6); k > 0; k--) {
                size_t const x = zt_below(&s, (uint32_t)len), w = 1 + zt_below(&s, 12);
                for (size_t i = x; i < XC_MIN(len, x + w); i++) p[at + i] = 0xFF;
                if (x > 0) p[at + x - 1] = (uint8_t)(0xFF >> zt_below(&s, 8));
            }
        }
        if (zt_below(&s, 4) == 0) p[at + zt_below(&s, (uint32_t)len)] ^= (uint8_t)zt_next(&s);
    }
    return p;
}

/* Like geo (seismic samples): big-endian 32-bit floats built from their
 * bits, a random walk in the mantissa under a slowly changing exponent, so
 * that the high bytes repeat and the low ones are noise.  Integers only:
 * no float arithmetic whose rounding could differ between ISAs. */
static uint8_t *make_samples(size_t n, uint64_t seed)
{
    uint8_t *p = zt_malloc(n);
    uint64_t s = seed;
    uint32_t exponent = 0x86, mantissa = 0x400000;
    for (size_t at = 0; at < n; at += 4) {
        if (zt_below(&s, 64) == 0) exponent = 0x84 + zt_below(&s, 5);
        mantissa = (mantissa + zt_below(&s, 0x20000) - 0x10000) & 0x7FFFFF;
        uint32_t const bits = (uint32_t)(zt_below(&s, 8) == 0) << 31 | exponent << 23 | mantissa;
        uint8_t const be[4] = {(uint8_t)(bits >> 24), (uint8_t)(bits >> 16), (uint8_t)(bits >> 8),
                               (uint8_t)bits};
        memcpy(p + at, be, XC_MIN((size_t)4, n - at));
    }
    return p;
}

/* ---- a crafted block --------------------------------------------------------------- */

/* RFC 8878 §3.1.2.5 as the decoder applies it: the offset off_value means
 * after rep[], with rep[] updated. */
static uint32_t rep_apply(uint32_t rep[3], uint32_t off_value, uint32_t lit_len)
{
    if (off_value > 3) {
        rep[2] = rep[1], rep[1] = rep[0], rep[0] = off_value - 3;
        return rep[0];
    }
    unsigned const k = off_value - 1 + (lit_len == 0);
    if (k == 0) return rep[0];
    uint32_t const off = k == 3 ? rep[0] - 1 : rep[k];
    if (k != 1) rep[2] = rep[1];
    rep[1] = rep[0], rep[0] = off;
    return off;
}

/* The Offset_Value a parser would store for offset `off`: a repeat code
 * when one means it, else the offset itself. */
static uint32_t off_value_for(const uint32_t rep[3], uint32_t off, uint32_t lit_len)
{
    for (uint32_t v = 1; v <= 3; v++) {
        uint32_t r[3] = {rep[0], rep[1], rep[2]};
        if (rep_apply(r, v, lit_len) == off) return v;
    }
    return off + 3;
}

typedef struct {
    xc_zseq seq[4000];
    size_t nb;
    uint8_t src[100000];
    size_t n;
    uint8_t lit[100000];
    size_t nlit;
    uint32_t rep[3];
} crafted;

/* Appends a sequence: lit_len literals from `lits`, then a match of
 * match_len at offset off (as a decoder would produce the bytes). */
static void craft_seq(crafted *b, const uint8_t *lits, uint32_t lit_len, uint32_t off,
                      uint32_t match_len)
{
    memcpy(b->src + b->n, lits, lit_len);
    memcpy(b->lit + b->nlit, lits, lit_len);
    b->n += lit_len;
    b->nlit += lit_len;
    assert_true(off <= b->n);
    for (uint32_t i = 0; i < match_len; i++, b->n++) b->src[b->n] = b->src[b->n - off];
    xc_zseq *const q = &b->seq[b->nb++];
    q->lit_len = (uint16_t)lit_len;
    q->ml_base = (uint16_t)(match_len - 3);
    q->off_value = off_value_for(b->rep, off, lit_len);
    rep_apply(b->rep, q->off_value, lit_len);
}

/* 1600 sequences of text with a few offsets (repeat codes everywhere),
 * 800 of random literals and 3-byte matches at random offsets (raw is
 * smaller than any compressed form of that), then 800 of text again
 * (so that the splitter's halving finds the three parts), whose first
 * matches reuse the middle's last offsets: with the middle sent raw, the
 * decoder's repeat offsets are the first part's, and those codes must
 * become offsets. */
static void craft_block(crafted *b, uint64_t seed)
{
    uint64_t s = seed;
    static const uint32_t offs[4] = {16, 40, 24, 96};
    memset(b, 0, sizeof *b);
    b->rep[0] = 1, b->rep[1] = 4, b->rep[2] = 8;
    uint8_t lits[128];
    /* A first run of text to copy from. */
    for (size_t i = 0; i < 200; i++) lits[i % 64] = (uint8_t)('a' + zt_below(&s, 26));
    craft_seq(b, lits, 64, 1, 40);
    craft_seq(b, lits, 64, 50, 30);
    for (int k = 0; k < 800; k++) {
        uint32_t const ll = zt_below(&s, 3);
        for (uint32_t i = 0; i < ll; i++) lits[i] = (uint8_t)('a' + zt_skewed(&s, 26));
        craft_seq(b, lits, ll, offs[zt_skewed(&s, 4)], 4 + zt_below(&s, 5));
    }
    for (int k = 0; k < 400; k++) {
        uint32_t const ll = 64 + zt_below(&s, 64);
        for (uint32_t i = 0; i < ll; i++) lits[i] = (uint8_t)zt_next(&s);
        craft_seq(b, lits, ll, 1000 + zt_below(&s, (uint32_t)b->n - 1000), 3);
    }
    uint32_t const last[3] = {b->rep[0], b->rep[1], b->rep[2]};
    for (int k = 0; k < 400; k++) {
        uint32_t const ll = k < 6 ? (uint32_t)(k & 1) : zt_below(&s, 3);
        for (uint32_t i = 0; i < ll; i++) lits[i] = (uint8_t)('a' + zt_skewed(&s, 26));
        uint32_t const off = k < 6 ? last[k % 3] : offs[zt_skewed(&s, 4)];
        craft_seq(b, lits, ll, off, 4 + zt_below(&s, 5));
    }
    uint8_t const tail[5] = {'e', 'n', 'd', '.', '\n'};
    memcpy(b->src + b->n, tail, 5);
    memcpy(b->lit + b->nlit, tail, 5);
    b->n += 5;
    b->nlit += 5;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_parameter(void **state)
{
    (void)state;
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    for (int v = 0; v <= 2; v++)
        assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_BLOCK_SPLITTER, v), 0);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_BLOCK_SPLITTER, -1), XC_ERROR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_BLOCK_SPLITTER, 3), XC_ERROR(BAD_PARAMETER));
    assert_int_equal(xc_zstd_cctx_set(NULL, XC_ZSTD_C_BLOCK_SPLITTER, 1), XC_ERROR(BAD_PARAMETER));
    /* Not while a frame is streaming. */
    uint8_t src[100] = {0}, dst[200];
    xc_in_buffer in = {src, sizeof src, 0};
    xc_out_buffer out = {dst, sizeof dst, 0};
    assert_false(xc_is_error(xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_CONTINUE)));
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_BLOCK_SPLITTER, 2), XC_ERROR(STAGE_WRONG));
    xc_zstd_cctx_free(c);

    /* Automatic: the optimal strategies with windows of 2^17 and up. */
    c = xc_zstd_cctx_new();
    c->p = xc_zstd_level_params(19, XC_ZSTD_SIZE_UNKNOWN);
    assert_true(xc_zstd_split_active(c));
    c->p.window_log = 16;
    assert_false(xc_zstd_split_active(c));
    c->p = xc_zstd_level_params(12, XC_ZSTD_SIZE_UNKNOWN);
    assert_false(xc_zstd_split_active(c));
    c->block_split = 1;
    assert_true(xc_zstd_split_active(c));
    c->block_split = 2;
    c->p = xc_zstd_level_params(19, XC_ZSTD_SIZE_UNKNOWN);
    assert_false(xc_zstd_split_active(c));
    xc_zstd_cctx_free(c);
}

/* Levels 16..22 on changing statistics: frames decode, the splitter never
 * costs bytes, and on this input it gains. */
static void test_changing_statistics(void **state)
{
    (void)state;
    size_t const n = xc_test_quick() ? 200000 : 400000;
    uint8_t *src = make_changing(n, 12 * 1024, 4242);
    for (int level = 16; level <= 22; level++) {
        if (xc_test_quick() && level != 16 && level != 19) continue;
        size_t on, off, deflt;
        uint8_t *f_on = round_trip(src, n, level, 1, &on, "changing");
        uint8_t *f_off = round_trip(src, n, level, 2, &off, "changing");
        uint8_t *f_def = round_trip(src, n, level, 0, &deflt, "changing");
        /* The default is on here (windows of 2^17 and more). */
        assert_int_equal(deflt, on);
        assert_memory_equal(f_def, f_on, on);
        /* The frames hold several blocks, so this is a property of the
         * input (a split block leaves other tables to the next one), not
         * of the splitter: each block alone is never larger. */
        if (on >= off) {
            print_error("level %d: split %zu >= whole %zu\n", level, on, off);
            fail();
        }
        assert_true(census(f_on, on).blocks > census(f_off, off).blocks);
        free(f_on);
        free(f_off);
        free(f_def);
    }
    free(src);
}

/* A raw partition between partitions with repeat codes: the crafted
 * block goes through the splitter as a parser would hand it over. */
static void test_raw_partition(void **state)
{
    (void)state;
    crafted *b = (crafted *)zt_malloc(sizeof *b);
    craft_block(b, 8);
    static const int levels[] = {16, 19, 22};
    for (size_t i = 0; i < XC_ARRAY_SIZE(levels); i++) {
        xc_zstd_cctx *c = new_cctx(levels[i], 1);
        xc_zstd_cparams const p = xc_zstd_cframe_params(c, b->n);
        assert_int_equal(xc_zstd_cframe_begin(c, &p, b->src, b->n), 0);
        size_t const cap = xc_zstd_compress_bound(b->n);
        uint8_t *f = zt_malloc(cap);
        size_t const h = xc_zstd_write_frame_header(c, f, cap, b->n);
        assert_false(xc_is_error(h));
        memcpy(c->ss.seq, b->seq, b->nb * sizeof b->seq[0]);
        c->ss.nb_seq = b->nb;
        memcpy(c->ss.lit, b->lit, b->nlit);
        c->ss.lit_end = c->ss.lit + b->nlit;
        size_t const r = xc_zstd_split_emit(c, f + h, cap - h, b->src, b->n, 1, b->rep);
        assert_false(xc_is_error(r));
        block_census const bc = census(f, h + r);
        assert_true(bc.raw_between);
        /* A split frame never passes for one that left a dictionary's
         * tables in force (compress_dict.c). */
        assert_int_equal(c->held_entropy_slots, UINT32_MAX);
        zt_check_decodes(f, h + r, b->src, b->n, "crafted raw middle");
        free(f);
        xc_zstd_cctx_free(c);
    }
    free(b);
}

/* Blocks of 1 KiB to 64 KiB (small windows), the splitter forced on, and
 * strategies below the optimal ones. */
static void test_small_blocks(void **state)
{
    (void)state;
    size_t const n = xc_test_quick() ? 60000 : 200000;
    uint8_t *src = make_changing(n, 3000, 77);
    static const struct { int level, wlog; } cases[] = {
        {19, 10}, {19, 12}, {16, 14}, {22, 16}, {6, 17}, {12, 18}};
    for (size_t i = 0; i < XC_ARRAY_SIZE(cases); i++) {
        size_t sizes[2];
        for (int split = 1; split <= 2; split++) {
            xc_zstd_cctx *c = new_cctx(cases[i].level, split);
            zt_set(c, XC_ZSTD_C_WINDOW_LOG, cases[i].wlog);
            uint8_t *f = zt_compress_oneshot(c, src, n, &sizes[split - 1]);
            zt_check_decodes(f, sizes[split - 1], src, n, "small blocks");
            free(f);
            xc_zstd_cctx_free(c);
        }
        /* Many blocks: see test_corpus. */
        assert_true(sizes[0] <= sizes[1] + sizes[1] / 500);
    }
    free(src);
}

/* Streaming in pieces, into room for the frame and into a few bytes at a
 * time, gives the one-shot frame; a reused context gives a fresh one's. */
static void test_stream_and_reuse(void **state)
{
    (void)state;
    size_t const n = xc_test_quick() ? 150000 : 300000;
    uint8_t *src = make_changing(n, 9000, 5);
    xc_zstd_cctx *c = new_cctx(19, 1);
    size_t f1, f2, f3, f4;
    uint8_t *a = zt_compress_oneshot(c, src, n, &f1);
    uint8_t *b = zt_compress_pieces(c, src, n, 70000, &f2);
    uint8_t *d = zt_compress_stream(c, src, n, 0, 777, 0, &f3);
    xc_zstd_cctx *fresh = new_cctx(19, 1);
    uint8_t *e = zt_compress_oneshot(fresh, src, n, &f4);
    assert_int_equal(f1, f4);
    assert_memory_equal(a, e, f1);
    zt_check_decodes(b, f2, src, n, "pieces");
    zt_check_decodes(d, f3, src, n, "small output");
    free(a), free(b), free(d), free(e);
    xc_zstd_cctx_free(c);
    xc_zstd_cctx_free(fresh);
    free(src);
}

/* Frames with a formatted dictionary (entropy tables and repeat offsets),
 * one context for several single-block frames: compress_dict.c keeps
 * the dictionary's tables in force from frame to frame when the table
 * slots in force are those it installed, which two partitions that each
 * send a table would fake. */
static void test_dictionary(void **state)
{
    (void)state;
    size_t dsize;
    const uint8_t *dict = zt_embedded_json_dict(&dsize);
    unsigned const id = xc_read_le32(dict + 4);
    size_t const n = xc_test_quick() ? 60000 : 120000;
    static const int levels[] = {16, 19};
    for (size_t l = 0; l < XC_ARRAY_SIZE(levels); l++) {
        xc_zstd_cctx *c = new_cctx(levels[l], 1);
        assert_int_equal(xc_zstd_cctx_load_dictionary(c, dict, dsize), 0);
        for (int k = 0; k < 6; k++) {
            uint8_t *src = make_changing(n, 5000 + 1500 * (size_t)k, 31 + (uint64_t)k);
            size_t fsize;
            size_t const len = n - (size_t)k * 1000;
            uint8_t *f = zt_compress_oneshot(c, src, len, &fsize);
            zt_check_dict_frame(dict, dsize, f, fsize, src, len, id);
            free(f);
            free(src);
        }
        xc_zstd_cctx_free(c);
    }
}

/* On one input, the first 128 KiB (a single block) is never larger with
 * the splitter; the whole input, whose later blocks start from the
 * tables the split blocks left, hardly ever (1/500 of slack).  Returns 1
 * when the splitter made the single block smaller. */
static int split_never_costs(const uint8_t *src, size_t n, const char *what)
{
    int const level = xc_test_quick() ? 16 : 19;
    size_t const lens[2] = {XC_MIN(n, (size_t)128 << 10), n};
    int gained = 0;
    for (int k = 0; k < (n > lens[0] ? 2 : 1); k++) {
        size_t on, off;
        uint8_t *f_on = round_trip(src, lens[k], level, 0, &on, what);
        uint8_t *f_off = round_trip(src, lens[k], level, 2, &off, what);
        size_t const slack = k == 0 ? 0 : off / 500;
        print_message("# %s, %zu bytes: split %zu, whole %zu\n", what, lens[k], on, off);
        if (on > off + slack) {
            print_error("%s (%zu bytes): split %zu > whole %zu\n", what, lens[k], on, off);
            fail();
        }
        gained |= k == 0 && on < off;
        free(f_on);
        free(f_off);
    }
    return gained;
}

/* Whole files: the shared corpus's when it is there, and always an input
 * made here in place of each, of its kind and of its size up to 400 KB
 * (200 KB in quick mode: still two blocks), so that the property is
 * checked without the data too.  On the inputs made here the splitter
 * must also gain somewhere (it does on three of the four), or the
 * property would hold for a splitter that never splits. */
static void test_corpus(void **state)
{
    (void)state;
    const char *dir = xc_test_data_dir();
    enum stand_in { RECORDS, BITMAP, SAMPLES, TEXT };
    static const struct {
        const char *file;
        enum stand_in kind;
        size_t size;
    } inputs[] = {{"corpus/canterbury/kennedy.xls", RECORDS, 1029744},
                  {"corpus/canterbury/ptt5", BITMAP, 513216},
                  {"corpus/calgary/geo", SAMPLES, 102400},
                  {"corpus/canterbury/alice29.txt", TEXT, 152089}};
    size_t const cap = xc_test_quick() ? 200000 : 400000;
    unsigned gains = 0;
    for (size_t i = 0; i < XC_ARRAY_SIZE(inputs); i++) {
        size_t n = XC_MIN(inputs[i].size, cap);
        uint64_t const seed = 900 + i;
        char what[600];
        uint8_t *src;
        switch (inputs[i].kind) {
        case RECORDS: src = zt_make(ZT_BINARY, n, seed); break;
        case BITMAP: src = make_bitmap(n, seed); break;
        case SAMPLES: src = make_samples(n, seed); break;
        default: src = zt_make(ZT_TEXT, n, seed); break;
        }
        snprintf(what, sizeof what, "made in place of %s", inputs[i].file);
        gains += (unsigned)split_never_costs(src, n, what);
        free(src);
        if (!dir) continue;
        snprintf(what, sizeof what, "%s/%s", dir, inputs[i].file);
        src = (uint8_t *)xc_read_file(what, &n);
        if (!src) continue;
        split_never_costs(src, XC_MIN(n, (size_t)600000), inputs[i].file);
        free(src);
    }
    assert_true(gains >= 2);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parameter),
        cmocka_unit_test(test_changing_statistics),
        cmocka_unit_test(test_raw_partition),
        cmocka_unit_test(test_small_blocks),
        cmocka_unit_test(test_stream_and_reuse),
        cmocka_unit_test(test_dictionary),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
