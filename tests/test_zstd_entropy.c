/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd entropy layer on its own: the backward bit reader, FSE table
 * descriptions and decoding tables, compressed Huffman weights, Huffman
 * tables and 1-/4-stream decoding.  A small reference encoder lives here
 * (forward bit writer, canonical Huffman codes, FSE description writer and
 * a brute-force FSE encoder driven by the decoding table), so that every
 * stream the decoder sees was produced independently of it.  Inputs sit in
 * buffers with a forbidden page right before and right after them, so any
 * read or write outside them faults.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xc_test.h"
#include "xc_internal.h"
#include "zstd_bits.h"
#include "zstd_entropy.h"
#include "cpucap.h"

/* ---- buffers fenced on both sides -------------------------------------- */

/* n bytes placed either right after a PROT_NONE page (front) or right
 * before one (back). */
typedef struct {
    uint8_t *p;
    uint8_t *base;
    size_t total;
} fenced;

static fenced fence_alloc(size_t n, int front)
{
    size_t const page = (size_t)sysconf(_SC_PAGESIZE);
    size_t const data = (n + page - 1) / page * page;
    fenced f;
    f.total = data + 2 * page;
    f.base = mmap(NULL, f.total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(f.base != MAP_FAILED);
    assert_int_equal(mprotect(f.base, page, PROT_NONE), 0);
    assert_int_equal(mprotect(f.base + page + data, page, PROT_NONE), 0);
    f.p = front ? f.base + page : f.base + page + data - n;
    return f;
}

static void fence_free(fenced *f) { munmap(f->base, f->total); }

/* Copies src into a fenced buffer (front or back in turn, by the caller's
 * choice). */
static fenced fence_copy(const void *src, size_t n, int front)
{
    fenced f = fence_alloc(n, front);
    if (n) memcpy(f.p, src, n);
    return f;
}

/* ---- reference forward bit writer --------------------------------------- */

typedef struct {
    uint8_t *buf;
    size_t cap, len;   /* len in bits */
} bitw;

static void bw_add(bitw *w, uint64_t v, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++, w->len++) {
        size_t const byte = w->len >> 3;
        assert_true(byte < w->cap);
        if ((w->len & 7) == 0) w->buf[byte] = 0;
        w->buf[byte] |= (uint8_t)(((v >> i) & 1) << (w->len & 7));
    }
}

/* Closes with the end mark; returns the size in bytes. */
static size_t bw_close(bitw *w)
{
    bw_add(w, 1, 1);
    return (w->len + 7) >> 3;
}

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

/* Reference writer of §4.1.1 descriptions. */
static size_t write_ncount(uint8_t *dst, size_t cap, const int16_t *norm, unsigned max_symbol,
                           unsigned log)
{
    bitw w = {dst, cap, 0};
    int32_t remaining = (1 << log) + 1, threshold = 1 << log;
    unsigned nbits = log + 1, s = 0;

    bw_add(&w, log - 5, 4);
    while (remaining > 1) {
        int32_t const value = norm[s] + 1;
        int32_t const short_values = 2 * threshold - 1 - remaining;
        assert_true(s <= max_symbol);
        if (value < short_values)
            bw_add(&w, (uint64_t)value, nbits - 1);
        else if (value >= threshold)
            bw_add(&w, (uint64_t)(value + short_values), nbits);
        else
            bw_add(&w, (uint64_t)value, nbits);
        remaining -= norm[s] < 0 ? -norm[s] : norm[s];
        while (remaining < threshold) {
            nbits--;
            threshold >>= 1;
        }
        if (norm[s] == 0) {
            unsigned z = 0;
            while (s + 1 + z <= max_symbol && norm[s + 1 + z] == 0) z++;
            s += z;
            while (z >= 3) {
                bw_add(&w, 3, 2);
                z -= 3;
            }
            bw_add(&w, z, 2);
        }
        s++;
    }
    return (w.len + 7) >> 3;
}

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

/* Encodes w[0..n) (n >= 2) as §4.2.1.2 describes, with the given
 * distribution: description, then a stream whose two interleaved states
 * the decoder runs until a state update reads past the start.  The encoder
 * is driven by the decoding table: going backwards, the cell chosen for
 * weight k is the one of its symbol whose next-state range contains the
 * state already chosen for weight k + 2. */
static size_t encode_weights(uint8_t *dst, size_t cap, const uint8_t *wts, unsigned n,
                             const int16_t *norm, unsigned max_symbol, unsigned log)
{
    xc_fse_cell cells[64];
    unsigned state[256], bits[256], nb[256];
    unsigned const size = 1u << log;
    unsigned k, u;
    size_t hdr = write_ncount(dst, cap, norm, max_symbol, log);
    bitw w = {dst + hdr, cap - hdr, 0};

    xc_fse_build_cells(cells, norm, max_symbol, log);
    /* The last two weights' states are free; the update after weight n - 2
     * must read at least one bit so that it runs past the start. */
    for (k = n - 2; k < n; k++) {
        for (u = 0; u < size; u++)
            if (cells[u].symbol == wts[k] && (k == n - 1 || cells[u].nbits > 0)) break;
        assert_true(u < size);
        state[k] = u;
    }
    for (k = n - 2; k-- > 0;) {
        unsigned const next = state[k + 2];
        for (u = 0; u < size; u++)
            if (cells[u].symbol == wts[k] && cells[u].next_base <= next &&
                next < cells[u].next_base + (1u << cells[u].nbits))
                break;
        assert_true(u < size);
        state[k] = u;
        bits[k] = next - cells[u].next_base;
        nb[k] = cells[u].nbits;
    }
    /* The reader sees: state 0, state 1, then the updates after weights
     * 0, 1, ..., n - 3; written in reverse. */
    for (k = n - 2; k-- > 0;) bw_add(&w, bits[k], nb[k]);
    bw_add(&w, state[1], log);
    bw_add(&w, state[0], log);
    return hdr + bw_close(&w);
}

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

/* ---- Huffman: reference codes and encoder ------------------------------ */

typedef struct {
    uint8_t weight[256];
    unsigned nsym;          /* weights given for symbols 0..nsym-1 */
    unsigned max_bits;
    unsigned len[256];
    uint32_t code[256];
} hcode;

/* Canonical codes from the weights, the spec's way: sort by weight, then
 * symbol; hand out ascending codes from the longest. */
static void hcode_assign(hcode *h)
{
    uint32_t total = 0, pos = 0;
    unsigned w, s;
    for (s = 0; s < h->nsym; s++) total += h->weight[s] ? 1u << (h->weight[s] - 1) : 0;
    h->max_bits = xc_highbit32(total);
    for (w = 1; w <= XC_HUF_MAX_BITS; w++)
        for (s = 0; s < h->nsym; s++) {
            if (h->weight[s] != w) continue;
            h->len[s] = h->max_bits + 1 - w;
            h->code[s] = pos >> (h->max_bits - h->len[s]);
            pos += 1u << (h->max_bits - h->len[s]);
        }
    for (s = 0; s < h->nsym; s++)
        if (!h->weight[s]) h->len[s] = 0;
}

/* A random complete code: split random leaves until there are `leaves`,
 * none deeper than max_depth, then give them to random distinct symbols. */
static void hcode_random(hcode *h, unsigned leaves, unsigned max_depth, unsigned alphabet)
{
    unsigned depth[256], n = 2, i, s;
    uint8_t perm[256];
    depth[0] = depth[1] = 1;
    while (n < leaves) {
        unsigned tries = 0;
        do i = xc_rand_below(n);
        while (depth[i] >= max_depth && ++tries < 1000);
        if (depth[i] >= max_depth) break;
        depth[i]++;
        depth[n++] = depth[i];
    }
    for (s = 0; s < alphabet; s++) perm[s] = (uint8_t)s;
    for (s = alphabet; s-- > 1;) {
        unsigned const j = xc_rand_below(s + 1);
        uint8_t t = perm[s];
        perm[s] = perm[j];
        perm[j] = t;
    }
    unsigned maxd = 0;
    for (i = 0; i < n; i++) maxd = XC_MAX(maxd, depth[i]);
    memset(h->weight, 0, sizeof h->weight);
    h->nsym = 0;
    for (i = 0; i < n; i++) {
        h->weight[perm[i]] = (uint8_t)(maxd + 1 - depth[i]);
        h->nsym = XC_MAX(h->nsym, perm[i] + 1u);
    }
    hcode_assign(h);
}

/* Symbols drawn with probability 2^-len (a uniform point of the code
 * space), or uniformly among those present. */
static void hcode_sample(const hcode *h, uint8_t *out, size_t n, int uniform)
{
    unsigned present[256], np = 0, s;
    for (s = 0; s < h->nsym; s++)
        if (h->len[s]) present[np++] = s;
    for (size_t i = 0; i < n; i++) {
        if (uniform) {
            out[i] = (uint8_t)present[xc_rand_below(np)];
        } else {
            uint32_t const x = xc_rand_below(1u << h->max_bits);
            for (s = 0; s < h->nsym; s++) {
                if (!h->len[s]) continue;
                uint32_t const lo = h->code[s] << (h->max_bits - h->len[s]);
                if (x >= lo && x < lo + (1u << (h->max_bits - h->len[s]))) break;
            }
            out[i] = (uint8_t)s;
        }
    }
}

/* One stream: symbols written last to first, so they read first to last. */
static size_t huf_encode_1(uint8_t *dst, size_t cap, const hcode *h, const uint8_t *src, size_t n)
{
    bitw w = {dst, cap, 0};
    for (size_t i = n; i-- > 0;) bw_add(&w, h->code[src[i]], h->len[src[i]]);
    return bw_close(&w);
}

/* Four streams behind the jump table; 0 when a stream exceeds 64 KiB. */
static size_t huf_encode_4(uint8_t *dst, size_t cap, const hcode *h, const uint8_t *src, size_t n)
{
    size_t const seg = (n + 3) / 4;
    size_t pos = 6, i;
    for (i = 0; i < 4; i++) {
        size_t const a = XC_MIN(n, seg * i), b = i == 3 ? n : XC_MIN(n, seg * (i + 1));
        size_t const len = huf_encode_1(dst + pos, cap - pos, h, src + a, b - a);
        if (i < 3) {
            if (len > 0xFFFF) return 0;
            xc_write_le16(dst + 2 * i, (uint16_t)len);
        }
        pos += len;
    }
    return pos;
}

/* Tree description: 4-bit weights when possible and asked, else FSE with
 * a distribution fitted to the weights.  The last present symbol's weight
 * is left out. */
static size_t huf_write_tree(uint8_t *dst, size_t cap, const hcode *h, int prefer_direct)
{
    unsigned const listed = h->nsym - 1;
    unsigned k;
    if ((prefer_direct || listed < 2) && listed <= 128) {
        dst[0] = (uint8_t)(127 + listed);
        for (k = 0; k < listed; k += 2)
            dst[1 + k / 2] = (uint8_t)(h->weight[k] << 4 | (k + 1 < listed ? h->weight[k + 1] : 0));
        return 1 + (listed + 1) / 2;
    }
    {
        /* Counts of each weight, scaled to 32 or 64 with the largest taking
         * the rest; fall back to a flat table when that breaks the
         * half-table rule of encode_weights(). */
        unsigned cnt[XC_HUF_MAX_BITS + 1] = {0}, maxw = 0, log = 6, sum = 0;
        int16_t norm[XC_HUF_MAX_BITS + 1];
        for (k = 0; k < listed; k++) cnt[h->weight[k]]++, maxw = XC_MAX(maxw, h->weight[k]);
        for (k = 0; k <= maxw; k++) {
            norm[k] = (int16_t)(cnt[k] ? XC_MAX(1u, cnt[k] * 48 / listed) : 0);
            sum += (unsigned)norm[k];
        }
        if (sum > 64) return 0;
        for (k = 0; k <= maxw && sum < 64; k++)
            if (norm[k] && norm[k] < 32) {
                unsigned const add = XC_MIN(64 - sum, 32u - (unsigned)norm[k]);
                norm[k] = (int16_t)(norm[k] + (int)add);
                sum += add;
            }
        if (sum != 64) return 0;
        size_t const size = encode_weights(dst + 1, cap - 1, h->weight, listed, norm, maxw, log);
        if (size > 127) return 0;
        dst[0] = (uint8_t)size;
        return 1 + size;
    }
}

/* ---- Huffman: tables and decoding ---------------------------------------- */

static int have_bmi2(void)
{
#if defined(__x86_64__)
    return (xc_cpu_detected() & XC_CPU_X64_BMI2) != 0;
#else
    return 0;
#endif
}

/* Decodes with every table kind and body, into a buffer fenced in turn at
 * the front and at the back; checks the result against want (or only
 * safety when want is NULL).  Returns the number of decodes that failed. */
static int decode_all_ways(const hcode *h, const uint8_t *src, size_t src_size, int four,
                           const uint8_t *want, size_t n)
{
    static xc_huf_dtable dt;
    int kind, bmi2, fails = 0;
    for (kind = XC_HUF_X1; kind <= XC_HUF_X2; kind++) {
        assert_int_equal(xc_huf_build_table(&dt, h->weight, h->nsym, kind), 0);
        for (bmi2 = 0; bmi2 <= have_bmi2(); bmi2++) {
            fenced s = fence_copy(src, src_size, (kind + bmi2) & 1);
            fenced d = fence_alloc(n, bmi2 & 1);
            size_t r = xc_huf_decode(d.p, n, s.p, src_size, four, &dt, bmi2);
            if (want) {
                assert_int_equal(r, n);
                assert_memory_equal(d.p, want, n);
            } else {
                assert_true(r == n || r == XC_ERROR(CORRUPT));
                fails += r != n;
            }
            fence_free(&s);
            fence_free(&d);
        }
    }
    return fails;
}

static void test_huf_spec_example(void **state)
{
    (void)state;
    /* RFC 8878 §4.2.1.3/§4.2.2: A..F with weights 4 3 2 0 1 1 get the
     * codes A = 1, B = 01, C = 001, E = 0000, F = 0001 (longest first,
     * ties by symbol order, as libzstd assigns them too).  The spec then
     * shows "ABEF" as the bytes 0x10 0x0D, but that worked stream swaps the
     * codes of E and F relative to its own table: with the table, 0x10 0x0D
     * reads A B F E, and "ABEF" is 0x01 0x0D. */
    hcode h = {{4, 3, 2, 0, 1, 1}, 6, 0, {0}, {0}};
    const uint8_t spec_stream[] = {0x10, 0x0D};
    const uint8_t abfe[] = {0, 1, 5, 4};
    const uint8_t abef_stream[] = {0x01, 0x0D};
    const uint8_t abef[] = {0, 1, 4, 5};
    hcode_assign(&h);
    assert_int_equal(h.max_bits, 4);
    assert_int_equal(h.code[4], 0);  /* E = 0000 */
    assert_int_equal(h.code[5], 1);  /* F = 0001 */
    assert_int_equal(h.code[2], 1);  /* C = 001 */
    assert_int_equal(h.code[1], 1);  /* B = 01 */
    assert_int_equal(h.code[0], 1);  /* A = 1 */
    decode_all_ways(&h, spec_stream, sizeof spec_stream, 0, abfe, sizeof abfe);
    decode_all_ways(&h, abef_stream, sizeof abef_stream, 0, abef, sizeof abef);
    {
        uint8_t enc[8];
        size_t size = huf_encode_1(enc, sizeof enc, &h, abef, 4);
        assert_int_equal(size, 2);
        assert_memory_equal(enc, abef_stream, 2);
    }
    /* Table cells: with T = 11, A (1 bit) owns the upper half. */
    {
        static xc_huf_dtable dt;
        assert_int_equal(xc_huf_build_table(&dt, h.weight, 6, XC_HUF_X1), 0);
        assert_int_equal(xc_huf_x1_symbol(dt.u.x1[0]), 4);
        assert_int_equal(xc_huf_x1_nbits(dt.u.x1[0]), 4);
        assert_int_equal(xc_huf_x1_symbol(dt.u.x1[1024]), 0);
        assert_int_equal(xc_huf_x1_nbits(dt.u.x1[2047]), 1);
        assert_int_equal(xc_huf_build_table(&dt, h.weight, 6, XC_HUF_X2), 0);
        /* Cell 2047 = 1 1 1111111: A then A. */
        assert_int_equal(xc_huf_x2_length(dt.u.x2[2047]), 2);
        assert_int_equal(xc_huf_x2_sym0(dt.u.x2[2047]), 0);
        assert_int_equal(xc_huf_x2_sym1(dt.u.x2[2047]), 0);
        assert_int_equal(xc_huf_x2_nbits(dt.u.x2[2047]), 2);
        /* Cell 0 = E then E. */
        assert_int_equal(xc_huf_x2_length(dt.u.x2[0]), 2);
        assert_int_equal(xc_huf_x2_nbits(dt.u.x2[0]), 8);
    }
}

static void test_huf_roundtrip(void **state)
{
    (void)state;
    static uint8_t data[140000], enc[200000];
    hcode h;
    int round;
    int const rounds = xc_test_quick() ? 60 : 600;
    for (round = 0; round < rounds; round++) {
        unsigned const leaves = 2 + xc_rand_below(255);
        /* Depths up to 12, the deepest libzstd's dictionaries use. */
        unsigned const depth = XC_MAX(1u + xc_rand_below(12), xc_highbit32(leaves) + 1);
        int const four = round & 1;
        size_t n;
        hcode_random(&h, leaves, depth, 256);
        switch (xc_rand_below(4)) {
        case 0: n = xc_rand_below(64); break;
        case 1: n = xc_rand_below(1024); break;
        case 2: n = xc_rand_below(20000); break;
        default: n = xc_rand_below(131073); break;
        }
        if (four && n < 6) n = 6 + xc_rand_below(10);
        if (!four && n > 1023) n = xc_rand_below(1024);
        hcode_sample(&h, data, n, round & 2);
        size_t const size = four ? huf_encode_4(enc, sizeof enc, &h, data, n)
                                 : huf_encode_1(enc, sizeof enc, &h, data, n);
        if (size == 0) continue;
        decode_all_ways(&h, enc, size, four, data, n);
        /* The announced size one off either way does not decode. */
        if (n > 6) {
            static xc_huf_dtable dt;
            uint8_t *out = malloc(n + 1);
            assert_int_equal(xc_huf_build_table(&dt, h.weight, h.nsym, XC_HUF_X1 + (round & 1)), 0);
            assert_true(xc_iserr(xc_huf_decode(out, n + 1, enc, size, four, &dt, 0)) ||
                        memcmp(out, data, n) != 0);
            assert_true(xc_iserr(xc_huf_decode(out, n - 1, enc, size, four, &dt, 0)) ||
                        memcmp(out, data, n - 1) != 0);
            free(out);
        }
    }
}

/* Single-symbol codes are impossible, two symbols of 1 bit the simplest;
 * long runs of the longest codes exercise the tails. */
static void test_huf_extremes(void **state)
{
    (void)state;
    static uint8_t data[70000], enc[140000];
    hcode h;
    size_t n, size;

    memset(&h, 0, sizeof h);
    h.weight[7] = 1;
    h.weight[200] = 1;
    h.nsym = 201;
    hcode_assign(&h);
    for (n = 6; n < 300; n += 7) {
        hcode_sample(&h, data, n, 1);
        size = huf_encode_4(enc, sizeof enc, &h, data, n);
        decode_all_ways(&h, enc, size, 1, data, n);
        size = huf_encode_1(enc, sizeof enc, &h, data, n);
        decode_all_ways(&h, enc, size, 0, data, n);
    }
    /* 256 symbols: 255 listed weights, and 11-bit codes. */
    hcode_random(&h, 256, 11, 256);
    for (n = 6; n < 70000; n = n * 3 + 1) {
        hcode_sample(&h, data, n, 0);
        size = huf_encode_4(enc, sizeof enc, &h, data, n);
        decode_all_ways(&h, enc, size, 1, data, n);
    }
    /* 12 bits deep (libzstd's dictionaries): every path of the X1 table
     * of 12-bit lookups, with the longest codes. */
    {
        unsigned k;
        memset(&h, 0, sizeof h);
        for (k = 0; k < 11; k++) h.weight[k] = (uint8_t)(12 - k);
        h.weight[11] = h.weight[12] = 1;
        h.nsym = 13;
        hcode_assign(&h);
        assert_int_equal(h.max_bits, 12);
        for (n = 6; n < 20000; n = n * 3 + 5) {
            size_t i;
            for (i = 0; i < n; i++) data[i] = (uint8_t)(i % 3 ? 9 + xc_rand_below(4) : xc_rand_below(13));
            size = huf_encode_4(enc, sizeof enc, &h, data, n);
            decode_all_ways(&h, enc, size, 1, data, n);
            if (n < 1024) {
                size = huf_encode_1(enc, sizeof enc, &h, data, n);
                decode_all_ways(&h, enc, size, 0, data, n);
            }
        }
        hcode_random(&h, 256, 12, 256);
        for (n = 6; n < 70000; n = n * 5 + 1) {
            hcode_sample(&h, data, n, 1);
            size = huf_encode_4(enc, sizeof enc, &h, data, n);
            decode_all_ways(&h, enc, size, 1, data, n);
        }
    }
    /* Only the longest codes: a skewed tree used on its rare symbols. */
    {
        unsigned d;
        memset(&h, 0, sizeof h);
        for (d = 1; d <= 10; d++) h.weight[d - 1] = (uint8_t)(12 - d);
        h.weight[10] = 1;
        h.weight[11] = 1;
        h.nsym = 12;
        hcode_assign(&h);
        assert_int_equal(h.max_bits, 11);
        for (n = 6; n < 5000; n = n * 2 + 3) {
            size_t i;
            for (i = 0; i < n; i++) data[i] = (uint8_t)(10 + (xc_rand() & 1));
            size = huf_encode_4(enc, sizeof enc, &h, data, n);
            decode_all_ways(&h, enc, size, 1, data, n);
        }
    }
}

static void test_huf_read_table(void **state)
{
    (void)state;
    static xc_huf_dtable a, b;
    uint8_t desc[300];
    hcode h;
    int round;
    for (round = 0; round < (xc_test_quick() ? 200 : 2000); round++) {
        unsigned const leaves = 2 + xc_rand_below(255);
        unsigned const alphabet = (round & 3) == 0 ? 129 : 256;
        hcode_random(&h, XC_MIN(leaves, alphabet), 11 + (round % 5 == 0), alphabet);
        size_t const size = huf_write_tree(desc, sizeof desc, &h, round & 1);
        if (size == 0) continue;
        size_t const regen = (round & 4) ? 0 : xc_rand_below(131073);
        fenced f = fence_copy(desc, size, round & 1);
        size_t r = xc_huf_read_table(&a, f.p, size, regen);
        assert_int_equal(r, size);
        assert_true(a.kind == XC_HUF_X1 || a.kind == XC_HUF_X2);
        if (regen == 0) assert_int_equal(a.kind, h.max_bits > 11 ? XC_HUF_X1 : XC_HUF_X2);
        assert_int_equal(a.max_bits, h.max_bits);
        assert_int_equal(xc_huf_build_table(&b, h.weight, h.nsym, a.kind), 0);
        assert_memory_equal(&a.u, &b.u, sizeof a.u);
        if (a.kind == XC_HUF_X2) assert_memory_equal(a.sym_bits, b.sym_bits, sizeof a.sym_bits);
        fence_free(&f);
        /* Truncated descriptions fail cleanly. */
        for (size_t cut = 0; (round & 7) == 0 && cut < size; cut++) {
            fenced g = fence_copy(desc, cut, cut & 1);
            r = xc_huf_read_table(&a, g.p, cut, regen);
            assert_true(xc_iserr(r));
            assert_int_equal(a.kind, XC_HUF_NONE);
            fence_free(&g);
        }
    }
}

static void test_huf_bad_weights(void **state)
{
    (void)state;
    static xc_huf_dtable dt;
    uint8_t w[256];
    /* Not a power of two; a lone symbol; weight 13; no weight 1; odd
     * number of weight-1 symbols cannot happen in a complete tree. */
    const uint8_t incomplete[] = {1, 1, 1};
    const uint8_t lone[] = {0, 1};
    const uint8_t thirteen[] = {13, 1, 1};
    const uint8_t no_one[] = {2, 2};
    assert_int_equal(xc_huf_build_table(&dt, incomplete, 3, XC_HUF_X1), XC_ERROR(CORRUPT));
    assert_int_equal(xc_huf_build_table(&dt, lone, 2, XC_HUF_X1), XC_ERROR(CORRUPT));
    assert_int_equal(xc_huf_build_table(&dt, thirteen, 3, XC_HUF_X2), XC_ERROR(CORRUPT));
    assert_int_equal(xc_huf_build_table(&dt, no_one, 2, XC_HUF_X2), XC_ERROR(CORRUPT));
    assert_int_equal(dt.kind, XC_HUF_NONE);

    /* Descriptions: 4-bit weights whose completion is not a power of two
     * (1 + 2 = 3 -> rest 1: fine; 1 + 1 + 2 = 4 -> rest 4 would need a
     * code of 0 bits beside... use 3 + 2 + 2 = 7 points listed: 2^(3-1) +
     * 2^(2-1) * 2 = 8 -> rest 8, max bits 4, last weight 4: then no weight
     * 1: rejected). */
    const uint8_t d1[] = {130, 0x32, 0x20};
    assert_true(xc_iserr(xc_huf_read_table(&dt, d1, sizeof d1, 100)));
    /* 12 bits deep is accepted (libzstd's dictionaries), as an X1 table
     * of 12-bit lookups whatever the kind asked for; 13 is not. */
    /* Codes of 1, 2, ..., 11, 12 and 12 bits: weights 12 down to 2, 1, 1. */
    memset(w, 0, sizeof w);
    for (unsigned k = 0; k < 11; k++) w[k] = (uint8_t)(12 - k);
    w[11] = w[12] = 1;
    assert_int_equal(xc_huf_build_table(&dt, w, 13, XC_HUF_X2), 0);
    assert_int_equal(dt.kind, XC_HUF_X1);
    assert_int_equal(dt.table_log, 12);
    assert_int_equal(dt.max_bits, 12);
    /* One level deeper: 13 bits. */
    for (unsigned k = 0; k < 12; k++) w[k] = (uint8_t)(13 - k);
    w[12] = w[13] = 1;
    assert_int_equal(xc_huf_build_table(&dt, w, 14, XC_HUF_X1), XC_ERROR(CORRUPT));
    {
        uint8_t d2[1 + 64];
        unsigned k;
        d2[0] = 127 + 128;
        /* 128 weights of 5 (16 points each) = 2048: the last weight would
         * be 12, but there is no weight 1. */
        for (k = 0; k < 64; k++) d2[1 + k] = 0x55;
        assert_int_equal(xc_huf_read_table(&dt, d2, sizeof d2, 100), XC_ERROR(CORRUPT));
    }
    /* Header byte 0: an FSE series of length 0. */
    const uint8_t d3[] = {0, 0, 0};
    assert_true(xc_iserr(xc_huf_read_table(&dt, d3, sizeof d3, 100)));
    /* A 4-bit weight of 15. */
    const uint8_t d4[] = {129, 0xF1};
    assert_int_equal(xc_huf_read_table(&dt, d4, sizeof d4, 100), XC_ERROR(CORRUPT));
    /* An empty description. */
    assert_int_equal(xc_huf_read_table(&dt, d4, 0, 100), XC_ERROR(TRUNCATED));
}

static void test_huf_bad_streams(void **state)
{
    (void)state;
    static xc_huf_dtable dt;
    static uint8_t data[40000], enc[60000], bad[60000];
    uint8_t out[64];
    hcode h;
    int round;

    /* No table yet (a treeless block first). */
    xc_huf_dtable_clear(&dt);
    memset(enc, 0x55, 64);
    assert_int_equal(xc_huf_decode(out, 10, enc, 20, 1, &dt, 0), XC_ERROR(CORRUPT));
    assert_int_equal(xc_huf_decode(out, 10, enc, 20, 0, &dt, 0), XC_ERROR(CORRUPT));

    hcode_random(&h, 40, 9, 256);
    assert_int_equal(xc_huf_build_table(&dt, h.weight, h.nsym, XC_HUF_X1), 0);
    /* Four streams need 10 bytes and 6 literals. */
    assert_int_equal(xc_huf_decode(out, 5, enc, 20, 1, &dt, 0), XC_ERROR(CORRUPT));
    assert_int_equal(xc_huf_decode(out, 10, enc, 9, 1, &dt, 0), XC_ERROR(CORRUPT));
    /* Jump table beyond the input: 0x5555 * 3 + 6 > 20. */
    assert_int_equal(xc_huf_decode(out, 10, enc, 20, 1, &dt, 0), XC_ERROR(CORRUPT));
    /* An empty fourth stream. */
    xc_write_le16(enc, 4);
    xc_write_le16(enc + 2, 4);
    xc_write_le16(enc + 4, 4);
    assert_int_equal(xc_huf_decode(out, 10, enc, 18, 1, &dt, 0), XC_ERROR(CORRUPT));

    /* Random damage to valid streams: errors or wrong bytes, never a
     * fault (the fences see to that). */
    for (round = 0; round < (xc_test_quick() ? 40 : 400); round++) {
        size_t const n = 6 + xc_rand_below(round & 1 ? 40000 : 300);
        int const four = n > 1023 || (round & 2);
        size_t size, i;
        hcode_random(&h, 2 + xc_rand_below(255), 11, 256);
        hcode_sample(&h, data, n, 0);
        size = four ? huf_encode_4(enc, sizeof enc, &h, data, n)
                    : huf_encode_1(enc, sizeof enc, &h, data, n);
        if (size == 0) continue;
        memcpy(bad, enc, size);
        switch (round % 4) {
        case 0: /* bit flips */
            for (i = 0; i < 1 + xc_rand_below(4); i++) bad[xc_rand_below((uint32_t)size)] ^= (uint8_t)(1u << xc_rand_below(8));
            break;
        case 1: /* truncation */
            size = xc_rand_below((uint32_t)size);
            break;
        case 2: /* garbage with a plausible jump table */
            xc_rand_fill(bad + 6, size - 6);
            break;
        default: /* garbage everywhere */
            xc_rand_fill(bad, size);
            break;
        }
        decode_all_ways(&h, bad, size, four, NULL, n);
    }
}

/* ---- literals of frames written by libzstd ------------------------------- */

#if defined(XC_HAVE_LIBZSTD)
#include <zstd.h>

/* Walks the blocks of one frame and decodes every Huffman-compressed
 * literals section (RFC 8878 §3.1.1.3.1) with each table form and body,
 * keeping the table across blocks for treeless sections.  Returns the
 * number of sections decoded; fails the test on any error or on a
 * disagreement between the ways. */
static unsigned walked_treeless, walked_single;

static unsigned walk_frame(const uint8_t *f, size_t size)
{
    static xc_huf_dtable dt, alt;
    static uint8_t out[3][1 << 17];
    size_t pos = 4, hdr;
    unsigned const fhd = f[4];
    unsigned const did = fhd & 3, single = (fhd >> 5) & 1, fcs = fhd >> 6;
    unsigned sections = 0;
    int last = 0;

    assert_true(size >= 6 && xc_read_le32(f) == 0xFD2FB528u);
    hdr = 1 + !single + (did ? 1u << (did - 1) : 0) + (fcs ? 1u << fcs : single);
    pos += hdr;
    xc_huf_dtable_clear(&dt);
    while (!last) {
        uint32_t const bh = xc_read_le24(f + pos);
        size_t const bsize = bh >> 3;
        const uint8_t *b = f + pos + 3;
        last = bh & 1;
        pos += 3 + ((bh >> 1 & 3) == 1 ? 1 : bsize);
        assert_true(pos <= size);
        if ((bh >> 1 & 3) != 2) continue;
        {
            unsigned const type = b[0] & 3, sf = (b[0] >> 2) & 3;
            size_t regen, comp, lhs;
            int four;
            if (type < 2) continue;
            if (sf < 2) {
                uint32_t const v = xc_read_le24(b);
                lhs = 3, regen = (v >> 4) & 0x3FF, comp = (v >> 14) & 0x3FF, four = sf != 0;
            } else if (sf == 2) {
                uint32_t const v = xc_read_le32(b);
                lhs = 4, regen = (v >> 4) & 0x3FFF, comp = v >> 18, four = 1;
            } else {
                uint64_t const v = xc_read_le32(b) | (uint64_t)b[4] << 32;
                lhs = 5, regen = (v >> 4) & 0x3FFFF, comp = (size_t)(v >> 22) & 0x3FFFF, four = 1;
            }
            assert_true(lhs + comp <= bsize);
            const uint8_t *lit = b + lhs;
            size_t tree = 0;
            if (type == 2) {
                tree = xc_huf_read_table(&dt, lit, comp, regen);
                assert_false(xc_iserr(tree));
            }
            assert_true(dt.kind != XC_HUF_NONE);
            /* The same tree as the other form. */
            {
                uint8_t w[256];
                unsigned k;
                for (k = 0; k < 256; k++) w[k] = 0;
                if (dt.kind == XC_HUF_X2) {
                    for (k = 0; k < 256; k++)
                        w[k] = dt.sym_bits[k] ? (uint8_t)(dt.max_bits + 1 - dt.sym_bits[k]) : 0;
                    assert_int_equal(xc_huf_build_table(&alt, w, 256, XC_HUF_X1), 0);
                } else {
                    /* Rebuild the weights from the X1 cells' run lengths. */
                    unsigned cell = 0;
                    while (cell < 2048) {
                        xc_huf_x1 const c = dt.u.x1[cell];
                        w[xc_huf_x1_symbol(c)] = (uint8_t)(dt.max_bits + 1 - xc_huf_x1_nbits(c));
                        cell += 1u << (dt.table_log - xc_huf_x1_nbits(c));
                    }
                    assert_int_equal(xc_huf_build_table(&alt, w, 256, XC_HUF_X2), 0);
                }
            }
            assert_int_equal(xc_huf_decode(out[0], regen, lit + tree, comp - tree, four, &dt, 0), regen);
            assert_int_equal(xc_huf_decode(out[1], regen, lit + tree, comp - tree, four, &alt, 0), regen);
            assert_memory_equal(out[0], out[1], regen);
            if (have_bmi2()) {
                assert_int_equal(xc_huf_decode(out[2], regen, lit + tree, comp - tree, four, &dt, 1), regen);
                assert_memory_equal(out[0], out[2], regen);
            }
            sections++;
            walked_treeless += type == 3;
            walked_single += !four;
        }
    }
    return sections;
}

/* Text from a small vocabulary, with some binary noise mixed in. */
static void make_text(uint8_t *dst, size_t n, unsigned noise)
{
    static const char *const words[] = {"the ", "of ", "and ", "zstd ", "entropy ", "table ", "literal ",
                                        "{\"id\": ", "</tag>", "0x3f, ", "return ", "\n", "Huffman ",
                                        "stream ", "state ", "bits "};
    size_t i = 0;
    while (i < n) {
        if (noise && xc_rand_below(100) < noise) {
            dst[i++] = (uint8_t)xc_rand();
            continue;
        }
        const char *w = words[xc_rand_below(16)];
        while (*w && i < n) dst[i++] = (uint8_t)*w++;
    }
}

static void test_libzstd_literals(void **state)
{
    (void)state;
    static const int levels[] = {1, 3, 9, 19};
    size_t const n = xc_test_quick() ? 100000 : 400000;
    uint8_t *src = malloc(n), *dst = malloc(ZSTD_compressBound(n));
    unsigned total = 0;
    size_t li, k;
    assert_non_null(src);
    assert_non_null(dst);
    for (k = 0; k < 3; k++) {
        make_text(src, n, (unsigned)(k * 20));
        for (li = 0; li < XC_ARRAY_SIZE(levels); li++) {
            size_t const c = ZSTD_compress(dst, ZSTD_compressBound(n), src, n, levels[li]);
            assert_false(ZSTD_isError(c));
            fenced f = fence_copy(dst, c, 0);
            total += walk_frame(f.p, c);
            fence_free(&f);
        }
    }
    /* Corpus files, when the shared data is there. */
    if (xc_test_data_dir()) {
        static const char *const files[] = {"corpus/canterbury/alice29.txt", "corpus/calgary/obj2",
                                            "corpus/canterbury/kennedy.xls", "corpus/large/bible.txt"};
        for (k = 0; k < XC_ARRAY_SIZE(files); k++) {
            char path[4096];
            size_t fsize;
            snprintf(path, sizeof path, "%s/%s", xc_test_data_dir(), files[k]);
            uint8_t *data = xc_read_file(path, &fsize);
            if (!data) continue;
            if (fsize > (xc_test_quick() ? 100000u : 300000u)) fsize = xc_test_quick() ? 100000 : 300000;
            uint8_t *cmp = malloc(ZSTD_compressBound(fsize));
            for (li = 0; li < XC_ARRAY_SIZE(levels); li++) {
                size_t const c = ZSTD_compress(cmp, ZSTD_compressBound(fsize), data, fsize, levels[li]);
                assert_false(ZSTD_isError(c));
                total += walk_frame(cmp, c);
            }
            free(cmp);
            free(data);
        }
    }
    print_message("# %u Huffman literal sections from libzstd decoded (%u treeless, %u single-stream)\n",
                  total, walked_treeless, walked_single);
    assert_true(total > 20);
    assert_true(walked_treeless > 0);
    assert_true(walked_single > 0);
    free(src);
    free(dst);
}
#else
static void test_libzstd_literals(void **state)
{
    (void)state;
    skip();
}
#endif

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
        cmocka_unit_test(test_huf_spec_example),
        cmocka_unit_test(test_huf_roundtrip),
        cmocka_unit_test(test_huf_extremes),
        cmocka_unit_test(test_huf_read_table),
        cmocka_unit_test(test_huf_bad_weights),
        cmocka_unit_test(test_huf_bad_streams),
        cmocka_unit_test(test_libzstd_literals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
