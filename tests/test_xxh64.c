/* SPDX-License-Identifier: BSD-2-Clause */
/* XXH64 of several buffers at once (zstd/common/xxh64.h): every result
 * equals the single-buffer hash, for every count, mix of lengths (around
 * the 32-byte stripes and the kernel's common prefix) and alignment, and
 * every stripes kernel this CPU runs agrees with the portable one. */
#include <stdlib.h>
#include <string.h>

#include "cpucap.h"
#include "portable/kernels.h"
#include "xc_test.h"
#include "zstd/common/xxh64.h"

#define BUF (1u << 16)

static const size_t edge_lengths[] = {0, 1, 3, 4, 7, 8, 15, 31, 32, 33, 63, 64, 65, 95, 127, 128,
                                      129, 1000, 4095, 4096, 4097, 65535 - 64};

static void check_group(const uint8_t *buf, unsigned count, const size_t *off, const size_t *len)
{
    const uint8_t *p[12];
    uint64_t got[12];
    for (unsigned i = 0; i < count; i++) p[i] = buf + off[i];
    memset(got, 0, sizeof got);
    xc_xxh64_many(p, len, count, got);
    for (unsigned i = 0; i < count; i++) assert_true(got[i] == xc_xxh64(p[i], len[i], 0));
}

static void test_many_matches_single(void **state)
{
    (void)state;
    uint8_t *buf = (uint8_t *)malloc(BUF);
    assert_non_null(buf);
    xc_rand_fill(buf, BUF);
    size_t const ne = sizeof edge_lengths / sizeof edge_lengths[0];
    /* Every pair of edge lengths, in both ways of a group of two and of four. */
    for (size_t a = 0; a < ne; a++)
        for (size_t b = 0; b < ne; b++) {
            size_t off[4] = {0, 1 + a, 3 + b, 64};
            size_t len[4] = {edge_lengths[a], edge_lengths[b], edge_lengths[b], edge_lengths[a]};
            check_group(buf, 2, off, len);
            check_group(buf, 4, off, len);
        }
    /* Random groups of 0 to 12 buffers (more than one kernel call). */
    int const rounds = xc_test_quick() ? 300 : 3000;
    for (int r = 0; r < rounds; r++) {
        unsigned const count = xc_rand_below(13);
        size_t off[12], len[12];
        size_t const cap = xc_rand_below(2) ? 300 : BUF / 2;
        for (unsigned i = 0; i < count; i++) {
            len[i] = xc_rand_below((uint32_t)cap);
            off[i] = xc_rand_below((uint32_t)(BUF - len[i]));
        }
        check_group(buf, count, off, len);
    }
    /* Known digests of the empty input and of a short text. */
    const uint8_t *p[2] = {(const uint8_t *)"", (const uint8_t *)"xcodec"};
    size_t n[2] = {0, 6};
    uint64_t h[2];
    xc_xxh64_many(p, n, 2, h);
    assert_true(h[0] == 0xEF46DB3751D8E999ull);
    assert_true(h[1] == xc_xxh64("xcodec", 6, 0));
    free(buf);
}

static void test_kernels_agree(void **state)
{
    (void)state;
    uint8_t *buf = (uint8_t *)malloc(BUF);
    assert_non_null(buf);
    xc_rand_fill(buf, BUF);
    unsigned const f = xc_cpu_features();
    for (size_t v = 0; v < xc_xxh64_variant_count; v++) {
        if ((xc_xxh64_variants[v].needs & f) != xc_xxh64_variants[v].needs) continue;
        for (int r = 0; r < 200; r++) {
            uint64_t want[XC_XXH64_WAYS][4], got[XC_XXH64_WAYS][4];
            const uint8_t *p[XC_XXH64_WAYS];
            size_t const stripes = xc_rand_below(64);
            for (unsigned w = 0; w < XC_XXH64_WAYS; w++) {
                p[w] = buf + xc_rand_below((uint32_t)(BUF - 32 * 64));
                for (unsigned k = 0; k < 4; k++) want[w][k] = got[w][k] = xc_rand();
            }
            xc_xxh64_stripes_portable(want, p, XC_XXH64_WAYS, stripes);
            xc_xxh64_variants[v].fn(got, p, XC_XXH64_WAYS, stripes);
            assert_memory_equal(want, got, sizeof want);
        }
    }
    /* The variant in use is the best one the features allow. */
    const char *best = NULL;
    for (size_t v = 0; v < xc_xxh64_variant_count; v++)
        if ((xc_xxh64_variants[v].needs & f) == xc_xxh64_variants[v].needs)
            best = xc_xxh64_variants[v].name;
    assert_string_equal(xc_impl_name("xxh64"), best);
    free(buf);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_matches_single),
        cmocka_unit_test(test_kernels_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
