/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CRC32C: known values, every variant the CPU allows (and the dispatched
 * entry point) against a bit-at-a-time reference written here, split
 * consistency, over-reads at a guard page, combine against one pass and
 * against an independent power computation, and the LevelDB mask.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cpucap.h"
#include "portable/kernels.h"
#include "xc_test.h"

#define POLY 0x82F63B78u

/* ---- the reference: one bit at a time, straight from the definition ------ */

static uint32_t ref_update(uint32_t reg, uint8_t byte)
{
    reg ^= byte;
    for (int k = 0; k < 8; k++) reg = (reg >> 1) ^ (POLY & (0u - (reg & 1u)));
    return reg;
}

static uint32_t ref_crc(uint32_t crc, const uint8_t *p, size_t n)
{
    uint32_t reg = ~crc;
    for (size_t i = 0; i < n; i++) reg = ref_update(reg, p[i]);
    return ~reg;
}

/* pref[i] = CRC of p[0..i) extended from crc, for i = 0..n, in one pass. */
static void ref_prefixes(uint32_t crc, const uint8_t *p, size_t n, uint32_t *pref)
{
    uint32_t reg = ~crc;
    pref[0] = crc;
    for (size_t i = 0; i < n; i++) {
        reg = ref_update(reg, p[i]);
        pref[i + 1] = ~reg;
    }
}

/* Polynomials mod P in the reflected form (bit 31 is x^0, bit 0 is x^31),
 * multiplied one bit at a time: independent of the library's tables. */
static uint32_t ref_mulmod(uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    for (uint32_t m = 0x80000000u; m; m >>= 1) {
        if (a & m) r ^= b;
        b = (b & 1u) ? (b >> 1) ^ POLY : b >> 1;
    }
    return r;
}

/* x^(8n) mod P by square-and-multiply. */
static uint32_t ref_xpow8n(uint64_t n)
{
    uint32_t r = 0x80000000u;   /* x^0 */
    uint32_t base = 0x00800000u; /* x^8 */
    for (; n; n >>= 1) {
        if (n & 1) r = ref_mulmod(r, base);
        base = ref_mulmod(base, base);
    }
    return r;
}

/* ---- the functions under test ----------------------------------------------- */

struct candidate {
    char name[48];
    xc_crc32c_fn fn;
};

static uint32_t dispatched(uint32_t crc, const uint8_t *p, size_t n)
{
    return xc_crc32c(crc, p, n);
}

static struct candidate cands[16];
static size_t ncands;

static void collect_candidates(void)
{
    /* A tuning flag names no instructions: a variant chosen for one CPU
     * family runs on any CPU with its ISA, and is tested wherever it can
     * run. */
    unsigned f = xc_cpu_features() | XC_CPU_X64_ZEN5;
    ncands = 0;
    for (size_t i = 0; i < xc_crc32c_variant_count && ncands + 1 < 16; i++) {
        if ((xc_crc32c_variants[i].needs & f) != xc_crc32c_variants[i].needs) continue;
        snprintf(cands[ncands].name, sizeof cands[ncands].name, "%s", xc_crc32c_variants[i].name);
        cands[ncands].fn = xc_crc32c_variants[i].fn;
        ncands++;
    }
    snprintf(cands[ncands].name, sizeof cands[ncands].name, "dispatched(%s)",
             xc_impl_name("crc32c"));
    cands[ncands].fn = dispatched;
    ncands++;
}

#define EXPECT_CRC(got, want, cand, what, a, n)                                            \
    do {                                                                                  \
        uint32_t got_ = (got), want_ = (want);                                            \
        if (got_ != want_) {                                                              \
            print_error("%s: %s: offset %zu length %zu: got %08x want %08x\n", (cand)->name, \
                        (what), (size_t)(a), (size_t)(n), got_, want_);                    \
            fail();                                                                       \
        }                                                                                 \
    } while (0)

/* ---- known values ---------------------------------------------------------------- */

static void test_known_values(void **state)
{
    (void)state;
    uint8_t zeros[32], ones[32], inc[32], dec[32];
    for (int i = 0; i < 32; i++) {
        zeros[i] = 0;
        ones[i] = 0xff;
        inc[i] = (uint8_t)i;
        dec[i] = (uint8_t)(31 - i);
    }
    assert_int_equal(ref_crc(0, (const uint8_t *)"123456789", 9), 0xE3069283u);
    for (size_t c = 0; c < ncands; c++) {
        const struct candidate *k = &cands[c];
        EXPECT_CRC(k->fn(0, (const uint8_t *)"123456789", 9), 0xE3069283u, k, "check", 0, 9);
        /* RFC 3720 B.4. */
        EXPECT_CRC(k->fn(0, zeros, 32), 0x8A9136AAu, k, "rfc3720 zeros", 0, 32);
        EXPECT_CRC(k->fn(0, ones, 32), 0x62A8AB43u, k, "rfc3720 ones", 0, 32);
        EXPECT_CRC(k->fn(0, inc, 32), 0x46DD794Eu, k, "rfc3720 incrementing", 0, 32);
        EXPECT_CRC(k->fn(0, dec, 32), 0x113FDB5Cu, k, "rfc3720 decrementing", 0, 32);
        EXPECT_CRC(k->fn(0x12345678u, NULL, 0), 0x12345678u, k, "empty", 0, 0);
    }
    assert_int_equal(xc_crc32c(0, "123456789", 9), 0xE3069283u);
    assert_int_equal(xc_crc32c(0xdeadbeefu, NULL, 0), 0xdeadbeefu);
}

/* ---- every length 0..4096 at every alignment 0..63 ------------------------------- */

#define SMALL_MAX 4096

static void test_all_lengths_and_alignments(void **state)
{
    (void)state;
    const size_t nalign = 64;
    uint8_t *buf = malloc(SMALL_MAX + nalign);
    uint32_t *pref = malloc((SMALL_MAX + 1) * sizeof *pref);
    assert_non_null(buf);
    assert_non_null(pref);
    xc_rand_fill(buf, SMALL_MAX + nalign);
    /* Under emulation: every alignment still, but fewer lengths past 512. */
    size_t step_after = xc_test_quick() ? 37 : 1;
    for (size_t a = 0; a < nalign; a++) {
        uint32_t init = (a % 3 == 0) ? 0 : (uint32_t)xc_rand();
        ref_prefixes(init, buf + a, SMALL_MAX, pref);
        for (size_t c = 0; c < ncands; c++) {
            const struct candidate *k = &cands[c];
            for (size_t n = 0; n <= SMALL_MAX; n += (n < 512 ? 1 : step_after))
                EXPECT_CRC(k->fn(init, buf + a, n), pref[n], k, "length/alignment", a, n);
        }
    }
    free(pref);
    free(buf);
}

/* The same lengths with the data ending just before a guard page, so any
 * read past the end faults; the start, and so the alignment, moves with n. */
static void test_guard_page(void **state)
{
    (void)state;
    uint8_t *src = malloc(SMALL_MAX);
    uint32_t *pref = malloc((SMALL_MAX + 1) * sizeof *pref);
    uint8_t *g = xc_guard_alloc(SMALL_MAX);
    assert_non_null(src);
    assert_non_null(pref);
    assert_non_null(g);
    xc_rand_fill(src, SMALL_MAX);
    ref_prefixes(0, src, SMALL_MAX, pref);
    size_t step_after = xc_test_quick() ? 13 : 1;
    for (size_t n = 0; n <= SMALL_MAX; n += (n < 512 ? 1 : step_after)) {
        uint8_t *p = g + SMALL_MAX - n;
        memcpy(p, src, n);
        for (size_t c = 0; c < ncands; c++)
            EXPECT_CRC(cands[c].fn(0, p, n), pref[n], &cands[c], "guard page", SMALL_MAX - n, n);
    }
    xc_guard_free(g);
    free(pref);
    free(src);
}

/* Every length over a range above 4 KiB, where the widest kernels switch to
 * their mixed loop (vector and scalar streams): a few steps' worth covers
 * every way a length splits into steps, stream words and vector blocks. */
static void test_mixed_lengths(void **state)
{
    (void)state;
    const size_t lo = 4000, hi = 6600;
    uint8_t *g = xc_guard_alloc(hi + 64);
    uint32_t *pref = malloc((hi + 1) * sizeof *pref);
    assert_non_null(g);
    assert_non_null(pref);
    xc_rand_fill(g, hi + 64);
    size_t step = xc_test_quick() ? 7 : 1;
    const size_t aligns[] = {0, 13};
    for (size_t ai = 0; ai < 2; ai++) {
        size_t a = aligns[ai];
        uint32_t init = (uint32_t)xc_rand();
        ref_prefixes(init, g + a, hi, pref);
        for (size_t c = 0; c < ncands; c++)
            for (size_t n = lo; n <= hi; n += step)
                EXPECT_CRC(cands[c].fn(init, g + a, n), pref[n], &cands[c], "mixed lengths", a, n);
    }
    /* And ending at the guard page. */
    for (size_t n = lo; n <= hi; n += 37) {
        const uint8_t *p = g + hi + 64 - n;
        uint32_t want = ref_crc(0, p, n);
        for (size_t c = 0; c < ncands; c++)
            EXPECT_CRC(cands[c].fn(0, p, n), want, &cands[c], "mixed lengths at guard",
                       hi + 64 - n, n);
    }
    free(pref);
    xc_guard_free(g);
}

/* ---- long inputs -------------------------------------------------------------------- */

#define BIG (1u << 20)

static size_t random_length(size_t max)
{
    /* Mostly spread over the whole range, sometimes just above or below a
     * power of two, where kernels change strategy. */
    switch (xc_rand_below(3)) {
    case 0: return xc_rand_below((uint32_t)max + 1);
    case 1: {
        size_t p2 = (size_t)1 << xc_rand_below(21);
        size_t n = p2 + xc_rand_below(129);
        n = n > 64 ? n - 64 : n;
        return n > max ? max : n;
    }
    default: return max - xc_rand_below(4096);
    }
}

static void test_long_random(void **state)
{
    (void)state;
    uint8_t *g = xc_guard_alloc(BIG + 64);
    uint32_t *pref = malloc((BIG + 1) * sizeof *pref);
    assert_non_null(g);
    assert_non_null(pref);
    xc_rand_fill(g, BIG + 64);
    size_t a = 1 + xc_rand_below(63);
    uint32_t init = (uint32_t)xc_rand();
    ref_prefixes(init, g + a, BIG, pref);
    int rounds = xc_test_quick() ? 4 : 24;
    for (int r = 0; r < rounds; r++) {
        size_t n = random_length(BIG);
        for (size_t c = 0; c < ncands; c++)
            EXPECT_CRC(cands[c].fn(init, g + a, n), pref[n], &cands[c], "long", a, n);
    }
    /* The longest lengths end at the guard page. */
    for (size_t c = 0; c < ncands; c++) {
        EXPECT_CRC(cands[c].fn(init, g + a, BIG + 64 - a), ref_crc(pref[BIG], g + a + BIG, 64 - a),
                   &cands[c], "long at guard", a, BIG + 64 - a);
    }
    free(pref);
    xc_guard_free(g);
}

/* Past 4 MiB the long paths work in rounds (which keep their merge
 * distances small); lengths around one and two rounds, against the portable
 * kernel, which the tests above check against the reference. */
static void test_rounds(void **state)
{
    (void)state;
    const size_t round = (size_t)1 << 22;
    const size_t lens[] = {2 * round + 4100, round + 3000, round - 1, round, round + 1, round + 100,
                           round + 5000};
    size_t nlens = xc_test_quick() ? 2 : XC_ARRAY_SIZE(lens);
    uint8_t *g = xc_guard_alloc(2 * round + 4100);
    assert_non_null(g);
    xc_rand_fill(g, 2 * round + 4100);
    for (size_t i = 0; i < nlens; i++) {
        const uint8_t *p = g + 2 * round + 4100 - lens[i];
        uint32_t want = xc_crc32c_portable(0x2468ace0u, p, lens[i]);
        for (size_t c = 0; c < ncands; c++)
            EXPECT_CRC(cands[c].fn(0x2468ace0u, p, lens[i]), want, &cands[c], "rounds", 0, lens[i]);
    }
    xc_guard_free(g);
}

/* Feeding the data in random pieces gives the one-pass value. */
static void test_random_splits(void **state)
{
    (void)state;
    const size_t n = 200000;
    uint8_t *buf = malloc(n);
    assert_non_null(buf);
    xc_rand_fill(buf, n);
    uint32_t want = ref_crc(0, buf, n);
    int rounds = xc_test_quick() ? 3 : 20;
    for (size_t c = 0; c < ncands; c++) {
        for (int r = 0; r < rounds; r++) {
            uint32_t crc = 0;
            size_t pos = 0;
            while (pos < n) {
                size_t piece;
                switch (xc_rand_below(4)) {
                case 0: piece = xc_rand_below(16); break;
                case 1: piece = xc_rand_below(300); break;
                case 2: piece = xc_rand_below(5000); break;
                default: piece = xc_rand_below(70000); break;
                }
                if (piece > n - pos) piece = n - pos;
                crc = cands[c].fn(crc, buf + pos, piece);
                pos += piece;
            }
            EXPECT_CRC(crc, want, &cands[c], "random splits", 0, n);
        }
    }
    free(buf);
}

/* ---- combine -------------------------------------------------------------------------- */

static void test_combine_splits(void **state)
{
    (void)state;
    const size_t n = 100000;
    uint8_t *buf = malloc(n);
    assert_non_null(buf);
    xc_rand_fill(buf, n);
    int rounds = xc_test_quick() ? 50 : 400;
    for (int r = 0; r < rounds; r++) {
        size_t len = r < 40 ? (size_t)r : xc_rand_below((uint32_t)n + 1);
        size_t cut = xc_rand_below((uint32_t)len + 1);
        uint32_t whole = xc_crc32c(0, buf, len);
        uint32_t a = xc_crc32c(0, buf, cut);
        uint32_t b = xc_crc32c(0, buf + cut, len - cut);
        assert_int_equal(xc_crc32c_combine(a, b, len - cut), whole);
        /* Three pieces, combined in either grouping. */
        size_t cut2 = cut + xc_rand_below((uint32_t)(len - cut) + 1);
        uint32_t b1 = xc_crc32c(0, buf + cut, cut2 - cut);
        uint32_t b2 = xc_crc32c(0, buf + cut2, len - cut2);
        uint32_t left = xc_crc32c_combine(xc_crc32c_combine(a, b1, cut2 - cut), b2, len - cut2);
        uint32_t right = xc_crc32c_combine(a, xc_crc32c_combine(b1, b2, len - cut2), len - cut);
        assert_int_equal(left, whole);
        assert_int_equal(right, whole);
    }
    assert_int_equal(xc_crc32c_combine(0x12345678u, 0, 0), 0x12345678u);
    free(buf);
}

static void check_combine_power(uint64_t len)
{
    uint32_t a = (uint32_t)xc_rand(), b = (uint32_t)xc_rand();
    uint32_t want = ref_mulmod(a, ref_xpow8n(len)) ^ b;
    uint32_t got = xc_crc32c_combine(a, b, len);
    if (got != want) {
        print_error("combine(%08x, %08x, %llu): got %08x want %08x\n", a, b,
                    (unsigned long long)len, got, want);
        fail();
    }
}

/* Up to 2^40 bytes, against square-and-multiply on this file's own
 * polynomial arithmetic. */
static void test_combine_long_lengths(void **state)
{
    (void)state;
    for (unsigned k = 0; k <= 40; k++) {
        check_combine_power((uint64_t)1 << k);
        check_combine_power(((uint64_t)1 << k) - 1);
        check_combine_power(((uint64_t)1 << k) + 1);
    }
    int rounds = xc_test_quick() ? 100 : 1000;
    for (int r = 0; r < rounds; r++) check_combine_power(xc_rand() >> (24 + xc_rand_below(40)));
    check_combine_power((uint64_t)1 << 40);
    check_combine_power(UINT64_MAX);
}

/* ---- mask -------------------------------------------------------------------------------- */

static void test_mask(void **state)
{
    (void)state;
    /* Rotate right by 15, then add the constant (LevelDB crc32c::Mask). */
    assert_int_equal(xc_crc32c_mask(0), 0xa282ead8u);
    assert_int_equal(xc_crc32c_mask(0x00008000u), 0xa282ead9u);
    assert_int_equal(xc_crc32c_mask(0xE3069283u),
                     (uint32_t)(((0xE3069283u >> 15) | (0xE3069283u << 17)) + 0xa282ead8u));
    for (int r = 0; r < 1000; r++) {
        uint32_t c = (uint32_t)xc_rand();
        uint32_t m = xc_crc32c_mask(c);
        assert_int_equal(xc_crc32c_unmask(m), c);
        assert_int_equal(xc_crc32c_unmask(xc_crc32c_unmask(xc_crc32c_mask(m))), c);
        assert_int_not_equal(m, c);
    }
}

int main(void)
{
    xc_test_init();
    collect_candidates();
    for (size_t c = 0; c < ncands; c++) printf("# candidate: %s\n", cands[c].name);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_all_lengths_and_alignments),
        cmocka_unit_test(test_guard_page),
        cmocka_unit_test(test_mixed_lengths),
        cmocka_unit_test(test_long_random),
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_random_splits),
        cmocka_unit_test(test_combine_splits),
        cmocka_unit_test(test_combine_long_lengths),
        cmocka_unit_test(test_mask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
