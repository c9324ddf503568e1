/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd entropy layer on its own, part 2: Huffman tables and 1- and
 * 4-stream decoding with every table kind and body (including BMI2 where
 * the CPU has it), tree descriptions (direct and FSE-compressed weights),
 * bad weights and bad streams, and the literals sections of frames written
 * by libzstd.  A reference encoder (canonical codes from weights, streams
 * written last symbol first) lives here; the bit writer and the weight
 * encoder come from zstd_entropy_test_util.h.  Inputs sit in buffers with a
 * forbidden page right before and right after them.  The bit reader and
 * FSE are in test_zstd_entropy.c.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "zstd_entropy_test_util.h"
#include "cpucap.h"
#include "zstd/decompress/decompress_internal.h"
#include "zstd_variant_test_util.h"
#include "portable/kernels.h"

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

/* Decodes with every table kind and body, into a buffer fenced in turn at
 * the front and at the back; checks the result against want (or only
 * safety when want is NULL).  Returns the number of decodes that failed. */
static int decode_all_ways(const hcode *h, const uint8_t *src, size_t src_size, int four,
                           const uint8_t *want, size_t n)
{
    static xc_huf_dtable dt;
    int kind, fails = 0;
    const struct xc_zstd_dkernels *k;
    for (kind = XC_HUF_X1; kind <= XC_HUF_X2; kind++) {
        assert_int_equal(xc_huf_build_table(&dt, h->weight, h->nsym, kind), 0);
        for (size_t v = 0; (k = zt_decoder_variant(v)) != NULL; v++) {
            fenced s = fence_copy(src, src_size, (kind + (int)v) & 1);
            fenced d = fence_alloc(n, (int)v & 1);
            size_t r = k->huf_decode(d.p, n, s.p, src_size, four, &dt);
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
            assert_true(xc_iserr(xc_huf_decode_portable(out, n + 1, enc, size, four, &dt)) ||
                        memcmp(out, data, n) != 0);
            assert_true(xc_iserr(xc_huf_decode_portable(out, n - 1, enc, size, four, &dt)) ||
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
    assert_int_equal(xc_huf_decode_portable(out, 10, enc, 20, 1, &dt), XC_ERROR(CORRUPT));
    assert_int_equal(xc_huf_decode_portable(out, 10, enc, 20, 0, &dt), XC_ERROR(CORRUPT));

    hcode_random(&h, 40, 9, 256);
    assert_int_equal(xc_huf_build_table(&dt, h.weight, h.nsym, XC_HUF_X1), 0);
    /* Four streams need 10 bytes and 6 literals. */
    assert_int_equal(xc_huf_decode_portable(out, 5, enc, 20, 1, &dt), XC_ERROR(CORRUPT));
    assert_int_equal(xc_huf_decode_portable(out, 10, enc, 9, 1, &dt), XC_ERROR(CORRUPT));
    /* Jump table beyond the input: 0x5555 * 3 + 6 > 20. */
    assert_int_equal(xc_huf_decode_portable(out, 10, enc, 20, 1, &dt), XC_ERROR(CORRUPT));
    /* An empty fourth stream. */
    xc_write_le16(enc, 4);
    xc_write_le16(enc + 2, 4);
    xc_write_le16(enc + 4, 4);
    assert_int_equal(xc_huf_decode_portable(out, 10, enc, 18, 1, &dt), XC_ERROR(CORRUPT));

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
            const struct xc_zstd_dkernels *k = zt_decoder_variant(0);
            assert_int_equal(k->huf_decode(out[0], regen, lit + tree, comp - tree, four, &dt), regen);
            assert_int_equal(k->huf_decode(out[1], regen, lit + tree, comp - tree, four, &alt), regen);
            assert_memory_equal(out[0], out[1], regen);
            for (size_t v = 1; (k = zt_decoder_variant(v)) != NULL; v++) {
                assert_int_equal(k->huf_decode(out[2], regen, lit + tree, comp - tree, four, &dt), regen);
                assert_memory_equal(out[0], out[2], regen);
            }
            sections++;
            walked_treeless += type == 3;
            walked_single += !four;
        }
    }
    return sections;
}

/* The inputs below come from a private splitmix64, not xc_rand(): the
 * counts the test asserts must not depend on XC_TEST_SEED. */
static uint64_t lit_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t lit_below(uint64_t *s, uint32_t n) { return (uint32_t)((lit_next(s) >> 32) % n); }

/* Text from a small vocabulary, with noise% of the bytes random: noise 0
 * gives literals of a few dozen symbols, 40 literals over all 256. */
static void make_text(uint8_t *dst, size_t n, unsigned noise, uint64_t seed)
{
    static const char *const words[] = {"the ", "of ", "and ", "zstd ", "entropy ", "table ", "literal ",
                                        "{\"id\": ", "</tag>", "0x3f, ", "return ", "\n", "Huffman ",
                                        "stream ", "state ", "bits "};
    uint64_t s = seed;
    size_t i = 0;
    while (i < n) {
        if (noise && lit_below(&s, 100) < noise) {
            dst[i++] = (uint8_t)lit_next(&s);
            continue;
        }
        const char *w = words[lit_below(&s, 16)];
        while (*w && i < n) dst[i++] = (uint8_t)*w++;
    }
}

/* Binary-like: 12-byte records of a slowly rising counter, a small type
 * code and a random word, the literals of tables and object files. */
static void make_records(uint8_t *dst, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    uint32_t counter = 4096;
    size_t i = 0;
    while (i < n) {
        uint8_t rec[12];
        uint32_t const r = (uint32_t)lit_next(&s);
        counter += lit_below(&s, 9);
        xc_write_le32(rec, counter);
        xc_write_le32(rec + 4, lit_below(&s, 6) * 0x01000101u);
        xc_write_le32(rec + 8, r & 0x0F0F3FFFu);
        for (size_t k = 0; k < sizeof rec && i < n; k++) dst[i++] = rec[k];
    }
}

/* libzstd, streaming, with a flush every few bytes: each flush ends a
 * block, so one input gives many blocks.  Pieces of 100 to 299 bytes
 * leave fewer than 256 literals in a block, which libzstd sends as one
 * stream; pieces of a few KiB alike in statistics let it keep the last
 * block's table (a treeless section).  Returns the frame's size. */
static size_t compress_flushed(uint8_t *dst, size_t cap, const uint8_t *src, size_t n, int level,
                               uint64_t seed)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    uint64_t s = seed;
    ZSTD_outBuffer out = {dst, cap, 0};
    ZSTD_inBuffer in = {src, 0, 0};
    assert_non_null(c);
    assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)));
    while (in.size < n) {
        size_t const piece = lit_below(&s, 2) ? 100 + lit_below(&s, 200) : 2000 + lit_below(&s, 6000);
        in.size = XC_MIN(n, in.size + piece);
        ZSTD_EndDirective const how = in.size == n ? ZSTD_e_end : ZSTD_e_flush;
        size_t left;
        do {
            left = ZSTD_compressStream2(c, &out, &in, how);
            assert_false(ZSTD_isError(left));
        } while (left != 0);
    }
    ZSTD_freeCCtx(c);
    return out.pos;
}

/* Frames libzstd wrote from inputs made here (text with 0, 20 and 40%
 * noise and binary records, one-shot and flushed into many blocks, at
 * four levels): those alone must give more than 100 sections, more
 * than 20 of them treeless and more than 20 single-stream (quick mode
 * makes 142, 48 and 53, full mode 795, 482 and 291), so that every kind
 * of section is decoded many times whether or not the shared corpus is
 * there.  Its files, when it is, are decoded in addition. */
static void test_libzstd_literals(void **state)
{
    (void)state;
    static const int levels[] = {1, 3, 9, 19};
    size_t const n = xc_test_quick() ? 60000 : 400000;
    size_t const cap = ZSTD_compressBound(n) + 4096;
    uint8_t *src = malloc(n), *dst = malloc(cap);
    unsigned total = 0, made, made_treeless, made_single;
    size_t li, k;
    assert_non_null(src);
    assert_non_null(dst);
    walked_treeless = walked_single = 0;
    for (k = 0; k < 4; k++) {
        if (k < 3)
            make_text(src, n, (unsigned)(k * 20), 0x6C69740000u + k);
        else
            make_records(src, n, 0x72656300u);
        for (li = 0; li < XC_ARRAY_SIZE(levels); li++) {
            size_t c = ZSTD_compress(dst, cap, src, n, levels[li]);
            assert_false(ZSTD_isError(c));
            fenced f = fence_copy(dst, c, 0);
            total += walk_frame(f.p, c);
            fence_free(&f);
            c = compress_flushed(dst, cap, src, n, levels[li], 31 * k + li);
            f = fence_copy(dst, c, 0);
            total += walk_frame(f.p, c);
            fence_free(&f);
        }
    }
    made = total;
    made_treeless = walked_treeless;
    made_single = walked_single;
    print_message("# generated inputs: %u Huffman literal sections from libzstd decoded "
                  "(%u treeless, %u single-stream)\n", made, made_treeless, made_single);
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
        print_message("# with the shared corpus: %u sections (%u treeless, %u single-stream)\n",
                      total, walked_treeless, walked_single);
    }
    assert_true(made > 100);
    assert_true(made_treeless > 20);
    assert_true(made_single > 20);
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
