/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the tests of the encoder's entropy layer
 * (test_zstd_enc_entropy.c, test_zstd_enc_huffman.c): loop counts that
 * shrink under emulation, random histograms of several shapes, and symbol
 * strings with exactly a given histogram.  Static inline, so that each
 * program compiles without unused-function warnings.
 */
#ifndef ZSTD_ENC_TEST_UTIL_H
#define ZSTD_ENC_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>

#include "xc_internal.h"
#include "xc_test.h"

static inline int iters(int n) { return xc_test_quick() ? (n + 9) / 10 : n; }


/* A random histogram over [0, max_symbol] of one of several shapes. */
static inline void random_hist(unsigned *count, unsigned max_symbol, unsigned scale)
{
    unsigned kind = xc_rand_below(5);
    for (unsigned s = 0; s <= max_symbol; s++) {
        switch (kind) {
        case 0: count[s] = xc_rand_below(scale + 1); break;
        case 1: count[s] = (scale >> XC_MIN(s, 31u)) + (xc_rand_below(4) == 0); break;
        case 2: count[s] = xc_rand_below(8) == 0 ? xc_rand_below(scale + 1) : 0; break;
        case 3: count[s] = xc_rand_below(3) ? 1 + xc_rand_below(3) : 0; break;
        default: count[s] = s == 0 ? scale * 50 : xc_rand_below(scale / 8 + 2); break;
        }
    }
}

/* Symbols with exactly count[s] copies of each, shuffled. */
static inline uint8_t *symbols_from(const unsigned *count, unsigned max_symbol, size_t *n)
{
    size_t total = 0, k = 0;
    for (unsigned s = 0; s <= max_symbol; s++) total += count[s];
    uint8_t *p = malloc(total + 1);
    for (unsigned s = 0; s <= max_symbol; s++)
        for (unsigned i = 0; i < count[s]; i++) p[k++] = (uint8_t)s;
    for (size_t i = total; i > 1; i--) {
        size_t j = xc_rand() % i;
        uint8_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    *n = total;
    return p;
}

#endif
