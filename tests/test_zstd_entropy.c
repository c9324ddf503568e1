/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd entropy layer on its own, part 1: the backward bit reader, FSE
 * table descriptions, decoding tables (the predefined ones against RFC 8878
 * Appendix A) and FSE-compressed Huffman weights.  Streams come from the
 * reference encoder of zstd_entropy_test_util.h, written independently of
 * the decoder.  Inputs sit in buffers with a forbidden page right before
 * and right after them, so any read or write outside them faults.  The
 * Huffman tables and streams are in test_zstd_entropy_huf.c.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "zstd_entropy_test_util.h"
#include "cpucap.h"

/* ---- bit reader --------------------------------------------------------- */

static void test_bits_roundtrip(void **state)
{
    (void)state;
    uint8_t buf[64];
    uint64_t vals[200];
    unsigned lens[200];
    int round;
    for (round = 0; round < 3000; round++) {
        bitw w = {buf, sizeof buf, 0};
        size_t const budget = xc_rand_below(8 * 40);
        unsigned n = 0, i;
        /* Fields of 0..25 bits, written forward, read back in reverse. */
        while (n < 200) {
            unsigned const l = xc_rand_below(26);
            if (w.len + l > budget) break;
            vals[n] = xc_rand() & ((1ull << l) - 1);
            lens[n] = l;
            bw_add(&w, vals[n], l);
            n++;
        }
        size_t const size = bw_close(&w);
        fenced f = fence_copy(buf, size, round & 1);
        xc_bits br;
        assert_int_equal(xc_bits_init(&br, f.p, size), 0);
        for (i = n; i-- > 0;) {
            xc_bits_status st = xc_bits_reload(&br);
            assert_true(st <= XC_BITS_COMPLETED);
            if (lens[i] && (round & 2))
                assert_true(xc_bits_read_fast(&br, lens[i]) == vals[i]);
            else
                assert_true(xc_bits_read(&br, lens[i]) == vals[i]);
        }
        assert_true(xc_bits_completed(&br));
        assert_int_equal(xc_bits_reload(&br), XC_BITS_COMPLETED);
        assert_false(xc_bits_overflowed(&br));
        /* One bit more is an over-read, reported and not a fault. */
        (void)xc_bits_read(&br, 1);
        assert_true(xc_bits_overflowed(&br));
        assert_int_equal(xc_bits_reload(&br), XC_BITS_OVERFLOW);
        fence_free(&f);
    }
}

static void test_bits_end_mark(void **state)
{
    (void)state;
    xc_bits br;
    uint8_t b[16];
    fenced f;
    unsigned size;

    /* Empty and zero-ended streams have no end mark. */
    f = fence_alloc(0, 1);
    assert_int_equal(xc_bits_init(&br, f.p, 0), XC_ERROR(CORRUPT));
    assert_int_equal(xc_bits_reload(&br), XC_BITS_OVERFLOW);
    fence_free(&f);
    for (size = 1; size <= 16; size++) {
        memset(b, 0xA5, sizeof b);
        b[size - 1] = 0;
        f = fence_copy(b, size, size & 1);
        assert_int_equal(xc_bits_init(&br, f.p, size), XC_ERROR(CORRUPT));
        fence_free(&f);
    }
    /* A lone end mark: an exactly empty stream. */
    b[0] = 1;
    f = fence_copy(b, 1, 1);
    assert_int_equal(xc_bits_init(&br, f.p, 1), 0);
    assert_true(xc_bits_completed(&br));
    assert_int_equal(xc_bits_reload(&br), XC_BITS_COMPLETED);
    assert_int_equal(xc_bits_look(&br, 0), 0);
    fence_free(&f);
    /* 0x80: seven data bits (all 0) below the mark, in every position of
     * streams of 1..16 bytes. */
    for (size = 1; size <= 16; size++) {
        unsigned total = 0;
        memset(b, 0, sizeof b);
        b[size - 1] = 0x80;
        f = fence_copy(b, size, 0);
        assert_int_equal(xc_bits_init(&br, f.p, size), 0);
        while (xc_bits_reload(&br) <= XC_BITS_END) {
            assert_int_equal(xc_bits_read(&br, 1), 0);
            total++;
        }
        assert_int_equal(total, 8 * size - 1);
        assert_true(xc_bits_completed(&br));
        fence_free(&f);
    }
}

/* Large reads right after a reload, in long streams: up to 57 bits. */
static void test_bits_wide(void **state)
{
    (void)state;
    uint8_t buf[256];
    uint64_t vals[100];
    unsigned lens[100];
    int round;
    for (round = 0; round < 300; round++) {
        bitw w = {buf, sizeof buf, 0};
        unsigned n = 0, i;
        while (n < 30) {
            unsigned const l = 1 + xc_rand_below(57);
            vals[n] = xc_rand() & (l == 64 ? ~0ull : (1ull << l) - 1);
            lens[n] = l;
            bw_add(&w, vals[n], l);
            n++;
        }
        size_t const size = bw_close(&w);
        fenced f = fence_copy(buf, size, round & 1);
        xc_bits br;
        assert_int_equal(xc_bits_init(&br, f.p, size), 0);
        for (i = n; i-- > 0;) {
            xc_bits_status st = xc_bits_reload(&br);
            /* After an unfinished reload 57 bits are there; in the END
             * state everything left is. */
            if (st == XC_BITS_UNFINISHED) assert_true(br.consumed <= 7);
            assert_true(xc_bits_read(&br, lens[i]) == vals[i]);
        }
        assert_int_equal(xc_bits_reload(&br), XC_BITS_COMPLETED);
        fence_free(&f);
    }
}

/* ---- FSE descriptions --------------------------------------------------- */

/* A random distribution summing to 1 << log, with some zeros and some
 * "less than 1" symbols; the last symbol is non-zero. */
static unsigned random_norm(int16_t *norm, unsigned max_symbol, unsigned log, int allow_m1)
{
    int32_t left = 1 << log;
    unsigned s, n = 1 + xc_rand_below(max_symbol + 1);
    if (n < 2) n = 2;
    if (n > (unsigned)left) n = (unsigned)left;
    memset(norm, 0, (max_symbol + 1) * sizeof *norm);
    for (s = 0; s < n && left > 0; s++) {
        unsigned const kind = xc_rand_below(8);
        int32_t c;
        if (s == n - 1) c = left;
        else if (kind == 0) c = 0;
        else if (kind == 1 && allow_m1) c = -1;
        else c = 1 + (int32_t)xc_rand_below((uint32_t)(left - (int32_t)(n - s - 1)) / 2 + 1);
        if (c > left - (int32_t)(n - s - 1)) c = 1;
        norm[s] = (int16_t)c;
        left -= c < 0 ? 1 : c;
        if (left == 0) return s;
    }
    return n - 1;
}

static void test_ncount_roundtrip(void **state)
{
    (void)state;
    uint8_t buf[1024];
    int16_t norm[256], got[256];
    int round;
    for (round = 0; round < (xc_test_quick() ? 300 : 3000); round++) {
        unsigned const log = 5 + xc_rand_below(XC_FSE_TABLELOG_ABSMAX - 4);
        unsigned const maxs = xc_rand_below(256);
        unsigned const last = random_norm(norm, maxs, log, round & 1);
        size_t const size = write_ncount(buf, sizeof buf, norm, last, log);
        unsigned gmax = 255, glog = 0;
        fenced f = fence_copy(buf, size, round & 1);
        size_t r = xc_fse_read_ncount(got, &gmax, &glog, f.p, size);
        assert_int_equal(r, size);
        assert_int_equal(gmax, last);
        assert_int_equal(glog, log);
        assert_memory_equal(got, norm, (last + 1) * sizeof *norm);
        /* A limit below the last symbol rejects it. */
        if (last > 0) {
            gmax = last - 1;
            assert_int_equal(xc_fse_read_ncount(got, &gmax, &glog, f.p, size), XC_ERROR(CORRUPT));
        }
        /* Every truncation is an error, never an over-read (in one round
         * of 8: each fence costs a few system calls). */
        for (size_t cut = 0; (round & 7) == 0 && cut < size; cut++) {
            fenced g = fence_copy(buf, cut, 0);
            gmax = 255;
            r = xc_fse_read_ncount(got, &gmax, &glog, g.p, cut);
            assert_true(r == XC_ERROR(TRUNCATED) || r == XC_ERROR(CORRUPT) || r <= cut);
            fence_free(&g);
        }
        fence_free(&f);
    }
}

static void test_ncount_hand_built(void **state)
{
    (void)state;
    int16_t norm[256];
    unsigned maxs, log;
    /* Accuracy log 5 (4 bits of 0), then one symbol holding all 32
     * points: value 33 is above the threshold 32, so it takes the long
     * form, 6 bits holding 33 + 30 spare codes = 63.  Bits 0b11_1111_0000. */
    const uint8_t one[] = {0xF0, 0x03};
    maxs = 255;
    assert_int_equal(xc_fse_read_ncount(norm, &maxs, &log, one, 2), 2);
    assert_int_equal(log, 5);
    assert_int_equal(maxs, 0);
    assert_int_equal(norm[0], 32);
    /* The same cut to one byte. */
    maxs = 255;
    assert_int_equal(xc_fse_read_ncount(norm, &maxs, &log, one, 1), XC_ERROR(TRUNCATED));
    /* Accuracy log 5 + 15 = 20 is above what this reader keeps. */
    const uint8_t big[] = {0x0F, 0, 0, 0};
    maxs = 255;
    assert_int_equal(xc_fse_read_ncount(norm, &maxs, &log, big, 4), XC_ERROR(CORRUPT));
    /* The largest accepted log, with its largest count. */
    {
        int16_t n2[2] = {1, 16383};
        uint8_t buf[16];
        size_t size = write_ncount(buf, sizeof buf, n2, 1, XC_FSE_TABLELOG_ABSMAX);
        maxs = 255;
        assert_int_equal(xc_fse_read_ncount(norm, &maxs, &log, buf, size), size);
        assert_int_equal(log, XC_FSE_TABLELOG_ABSMAX);
        assert_int_equal(norm[1], 16383);
        buf[0] = (uint8_t)(buf[0] + 1);
        maxs = 255;
        assert_int_equal(xc_fse_read_ncount(norm, &maxs, &log, buf, size), XC_ERROR(CORRUPT));
    }
    /* A run of zeros longer than the symbol limit allows. */
    {
        int16_t n3[40] = {0};
        uint8_t buf[32];
        n3[0] = 16;
        n3[39] = 16;
        size_t size = write_ncount(buf, sizeof buf, n3, 39, 5);
        maxs = 39;
        assert_int_equal(xc_fse_read_ncount(norm, &maxs, &log, buf, size), size);
        assert_int_equal(maxs, 39);
        maxs = 38;
        assert_int_equal(xc_fse_read_ncount(norm, &maxs, &log, buf, size), XC_ERROR(CORRUPT));
    }
    /* Empty input. */
    maxs = 255;
    assert_int_equal(xc_fse_read_ncount(norm, &maxs, &log, one, 0), XC_ERROR(TRUNCATED));
}

/* RFC 8878 Appendix A: the predefined tables, as (symbol, bits, base). */
static const int16_t ll_default[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
                                       2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const int16_t ml_default[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const int16_t of_default[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};
static const uint8_t ll_a[64][3] = {
    {0, 4, 0},   {0, 4, 16},  {1, 5, 32},  {3, 5, 0},   {4, 5, 0},   {6, 5, 0},   {7, 5, 0},
    {9, 5, 0},   {10, 5, 0},  {12, 5, 0},  {14, 6, 0},  {16, 5, 0},  {18, 5, 0},  {19, 5, 0},
    {21, 5, 0},  {22, 5, 0},  {24, 5, 0},  {25, 5, 32}, {26, 5, 0},  {27, 6, 0},  {29, 6, 0},
    {31, 6, 0},  {0, 4, 32},  {1, 4, 0},   {2, 5, 0},   {4, 5, 32},  {5, 5, 0},   {7, 5, 32},
    {8, 5, 0},   {10, 5, 32}, {11, 5, 0},  {13, 6, 0},  {16, 5, 32}, {17, 5, 0},  {19, 5, 32},
    {20, 5, 0},  {22, 5, 32}, {23, 5, 0},  {25, 4, 0},  {25, 4, 16}, {26, 5, 32}, {28, 6, 0},
    {30, 6, 0},  {0, 4, 48},  {1, 4, 16},  {2, 5, 32},  {3, 5, 32},  {5, 5, 32},  {6, 5, 32},
    {8, 5, 32},  {9, 5, 32},  {11, 5, 32}, {12, 5, 32}, {15, 6, 0},  {17, 5, 32}, {18, 5, 32},
    {20, 5, 32}, {21, 5, 32}, {23, 5, 32}, {24, 5, 32}, {35, 6, 0},  {34, 6, 0},  {33, 6, 0},
    {32, 6, 0}};
static const uint8_t ml_a[64][3] = {
    {0, 6, 0},   {1, 4, 0},   {2, 5, 32},  {3, 5, 0},   {5, 5, 0},   {6, 5, 0},   {8, 5, 0},
    {10, 6, 0},  {13, 6, 0},  {16, 6, 0},  {19, 6, 0},  {22, 6, 0},  {25, 6, 0},  {28, 6, 0},
    {31, 6, 0},  {33, 6, 0},  {35, 6, 0},  {37, 6, 0},  {39, 6, 0},  {41, 6, 0},  {43, 6, 0},
    {45, 6, 0},  {1, 4, 16},  {2, 4, 0},   {3, 5, 32},  {4, 5, 0},   {6, 5, 32},  {7, 5, 0},
    {9, 6, 0},   {12, 6, 0},  {15, 6, 0},  {18, 6, 0},  {21, 6, 0},  {24, 6, 0},  {27, 6, 0},
    {30, 6, 0},  {32, 6, 0},  {34, 6, 0},  {36, 6, 0},  {38, 6, 0},  {40, 6, 0},  {42, 6, 0},
    {44, 6, 0},  {1, 4, 32},  {1, 4, 48},  {2, 4, 16},  {4, 5, 32},  {5, 5, 32},  {7, 5, 32},
    {8, 5, 32},  {11, 6, 0},  {14, 6, 0},  {17, 6, 0},  {20, 6, 0},  {23, 6, 0},  {26, 6, 0},
    {29, 6, 0},  {52, 6, 0},  {51, 6, 0},  {50, 6, 0},  {49, 6, 0},  {48, 6, 0},  {47, 6, 0},
    {46, 6, 0}};
static const uint8_t of_a[32][3] = {
    {0, 5, 0},   {6, 4, 0},   {9, 5, 0},   {15, 5, 0},  {21, 5, 0},  {3, 5, 0},   {7, 4, 0},
    {12, 5, 0},  {18, 5, 0},  {23, 5, 0},  {5, 5, 0},   {8, 4, 0},   {14, 5, 0},  {20, 5, 0},
    {2, 5, 0},   {7, 4, 16},  {11, 5, 0},  {17, 5, 0},  {22, 5, 0},  {4, 5, 0},   {8, 4, 16},
    {13, 5, 0},  {19, 5, 0},  {1, 5, 0},   {6, 4, 16},  {10, 5, 0},  {16, 5, 0},  {28, 5, 0},
    {27, 5, 0},  {26, 5, 0},  {25, 5, 0},  {24, 5, 0}};

static void check_appendix(const int16_t *norm, unsigned max_symbol, unsigned log,
                           const uint8_t (*want)[3])
{
    xc_fse_cell cells[64];
    uint8_t symbols[64];
    uint8_t desc[64];
    int16_t back[64];
    unsigned u, gmax = 63, glog;
    xc_fse_build_cells(cells, norm, max_symbol, log);
    xc_fse_spread_symbols(symbols, norm, max_symbol, log);
    for (u = 0; u < (1u << log); u++) {
        assert_int_equal(cells[u].symbol, want[u][0]);
        assert_int_equal(symbols[u], want[u][0]);
        assert_int_equal(cells[u].nbits, want[u][1]);
        assert_int_equal(cells[u].next_base, want[u][2]);
    }
    /* And the distribution survives a description round trip. */
    size_t size = write_ncount(desc, sizeof desc, norm, max_symbol, log);
    assert_int_equal(xc_fse_read_ncount(back, &gmax, &glog, desc, size), size);
    assert_int_equal(gmax, max_symbol);
    assert_int_equal(glog, log);
    assert_memory_equal(back, norm, (max_symbol + 1) * sizeof *norm);
}

static void test_fse_predefined_tables(void **state)
{
    (void)state;
    check_appendix(ll_default, 35, 6, ll_a);
    check_appendix(ml_default, 52, 6, ml_a);
    check_appendix(of_default, 28, 5, of_a);
}

/* The spread against a plain transcription of §4.1.1, for random
 * distributions with and without "less than 1" symbols, at every log. */
static void test_fse_spread_reference(void **state)
{
    (void)state;
    static uint8_t got[1 << XC_FSE_TABLELOG_ABSMAX], want[1 << XC_FSE_TABLELOG_ABSMAX];
    int16_t norm[256];
    int round;
    for (round = 0; round < 400; round++) {
        unsigned const log = 5 + (unsigned)round % (XC_FSE_TABLELOG_ABSMAX - 4);
        unsigned const last = random_norm(norm, 255, log, round & 1);
        unsigned const size = 1u << log, step = (size >> 1) + (size >> 3) + 3;
        unsigned s, high = size - 1, pos = 0;
        int i;
        for (s = 0; s <= last; s++)
            if (norm[s] == -1) want[high--] = (uint8_t)s;
        for (s = 0; s <= last; s++)
            for (i = 0; i < norm[s]; i++) {
                want[pos] = (uint8_t)s;
                do pos = (pos + step) & (size - 1);
                while (pos > high);
            }
        xc_fse_spread_symbols(got, norm, last, log);
        assert_memory_equal(got, want, size);
    }
}

/* Every state of every symbol is reachable exactly once: the cells of a
 * symbol cover [0, size) with their [base, base + 2^bits) ranges. */
static void test_fse_cells_partition(void **state)
{
    (void)state;
    static xc_fse_cell cells[1 << 12];
    static uint8_t cover[1 << 12];
    int16_t norm[256];
    int round;
    for (round = 0; round < 300; round++) {
        unsigned const log = 5 + xc_rand_below(8);
        unsigned const last = random_norm(norm, 255, log, round & 1);
        unsigned const size = 1u << log;
        unsigned s, u;
        xc_fse_build_cells(cells, norm, last, log);
        for (s = 0; s <= last; s++) {
            if (norm[s] == 0) continue;
            memset(cover, 0, size);
            unsigned owned = 0;
            for (u = 0; u < size; u++) {
                if (cells[u].symbol != s) continue;
                owned++;
                for (unsigned k = 0; k < (1u << cells[u].nbits); k++) {
                    assert_true(cells[u].next_base + k < size);
                    cover[cells[u].next_base + k]++;
                }
            }
            assert_int_equal(owned, norm[s] < 0 ? 1 : (unsigned)norm[s]);
            for (u = 0; u < size; u++) assert_int_equal(cover[u], 1);
        }
    }
}

/* ---- FSE-compressed Huffman weights ------------------------------------ */

static void test_fse_weights(void **state)
{
    (void)state;
    uint8_t wts[256], got[256], buf[600];
    int16_t norm[XC_HUF_MAX_BITS + 1];
    int round;
    for (round = 0; round < (xc_test_quick() ? 300 : 3000); round++) {
        unsigned const log = 5 + (round & 1);
        unsigned const n = 2 + xc_rand_below(254);
        unsigned last, k;
        /* A distribution over weights 0..12 (no count above half the
         * table, so that every state of the final update reads bits), and
         * weights drawn from the symbols it gives a place. */
        do {
            last = random_norm(norm, XC_HUF_MAX_BITS, log, round & 2);
        } while (last < 1);
        for (k = 0; k <= last; k++)
            if (norm[k] > (1 << (log - 1))) break;
        if (k <= last) continue;
        for (k = 0; k < n; k++) {
            unsigned s;
            do s = xc_rand_below(last + 1);
            while (norm[s] == 0);
            wts[k] = (uint8_t)s;
        }
        size_t const size = encode_weights(buf, sizeof buf, wts, n, norm, last, log);
        fenced f = fence_copy(buf, size, round & 1);
        size_t r = xc_fse_decode_weights(got, 255, f.p, size);
        assert_int_equal(r, n);
        assert_memory_equal(got, wts, n);
        /* Capacity one short of the count. */
        assert_int_equal(xc_fse_decode_weights(got, n - 1, f.p, size), XC_ERROR(CORRUPT));
        fence_free(&f);
        /* Truncations: an error or a different result, never a fault. */
        for (size_t cut = 0; (round & 7) == 0 && cut < size; cut += 1 + cut / 8) {
            fenced g = fence_copy(buf, cut, cut & 1);
            r = xc_fse_decode_weights(got, 255, g.p, cut);
            assert_true(xc_iserr(r) || r <= 255);
            fence_free(&g);
        }
    }
}

/* The example of doc/decompressor_permissive.md ("Truncated Huffman
 * states"): a weight stream too short for its two initial states. */
static void test_fse_weights_truncated_states(void **state)
{
    (void)state;
    /* Literals header 0x72 0x80 0x01, then the tree: header byte 0x04 (4
     * bytes of FSE weights) 0x20 0x7e 0x1f 0x02. */
    const uint8_t tree[] = {0x04, 0x20, 0x7e, 0x1f, 0x02};
    uint8_t got[256];
    xc_huf_dtable dt;
    assert_true(xc_iserr(xc_fse_decode_weights(got, 255, tree + 1, 4)));
    assert_true(xc_iserr(xc_huf_read_table(&dt, tree, sizeof tree, 7)));
    assert_int_equal(dt.kind, XC_HUF_NONE);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits_roundtrip),
        cmocka_unit_test(test_bits_end_mark),
        cmocka_unit_test(test_bits_wide),
        cmocka_unit_test(test_ncount_roundtrip),
        cmocka_unit_test(test_ncount_hand_built),
        cmocka_unit_test(test_fse_predefined_tables),
        cmocka_unit_test(test_fse_spread_reference),
        cmocka_unit_test(test_fse_cells_partition),
        cmocka_unit_test(test_fse_weights),
        cmocka_unit_test(test_fse_weights_truncated_states),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
