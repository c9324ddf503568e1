/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xc_xxh64_many(): XXH64 of several buffers, their common stripes run
 * side by side by the cpucap kernel, the rest of each (its own stripes,
 * the lanes' merge, the last 31 bytes or fewer, the avalanche) here, one
 * buffer at a time.  A group of fewer than XC_XXH64_WAYS buffers fills the
 * kernel's other ways with its first buffer (the portable kernel skips
 * them, a vector one runs them for nothing) and drops their results.
 *
 * What it may call: cpucap's kernel table, the shared format (common/).
 */
#include "cpucap.h"
#include "zstd/common/xxh64.h"
#include "zstd/common/xxh64_round.h"

static uint64_t merge_lane(uint64_t h, uint64_t v)
{
    h ^= xc_xxh_round(0, v);
    return h * XC_XXH_P1 + XC_XXH_P4;
}

/* The digest of `total` bytes whose lanes v have taken all but the last
 * `rest` bytes, which start at p; the lanes are only read when total is
 * 32 or more. */
static uint64_t finish(uint64_t v[4], const uint8_t *p, size_t rest, uint64_t total)
{
    uint64_t h;
    for (; rest >= 32; rest -= 32, p += 32) xc_xxh_stripe(v, p);
    if (total >= 32) {
        h = xc_xxh_rotl(v[0], 1) + xc_xxh_rotl(v[1], 7) + xc_xxh_rotl(v[2], 12) +
            xc_xxh_rotl(v[3], 18);
        for (unsigned k = 0; k < 4; k++) h = merge_lane(h, v[k]);
    } else {
        h = XC_XXH_P5;
    }
    h += total;
    for (; rest >= 8; rest -= 8, p += 8) {
        h ^= xc_xxh_round(0, xc_read_le64(p));
        h = xc_xxh_rotl(h, 27) * XC_XXH_P1 + XC_XXH_P4;
    }
    if (rest >= 4) {
        h ^= (uint64_t)xc_read_le32(p) * XC_XXH_P1;
        h = xc_xxh_rotl(h, 23) * XC_XXH_P2 + XC_XXH_P3;
        p += 4;
        rest -= 4;
    }
    for (; rest; rest--, p++) {
        h ^= (uint64_t)*p * XC_XXH_P5;
        h = xc_xxh_rotl(h, 11) * XC_XXH_P1;
    }
    h ^= h >> 33;
    h *= XC_XXH_P2;
    h ^= h >> 29;
    h *= XC_XXH_P3;
    return h ^ (h >> 32);
}

void xc_xxh64_many(const uint8_t *const p[], const size_t n[], unsigned count, uint64_t out[])
{
    while (count > XC_XXH64_WAYS) {
        xc_xxh64_many(p, n, XC_XXH64_WAYS, out);
        p += XC_XXH64_WAYS;
        n += XC_XXH64_WAYS;
        out += XC_XXH64_WAYS;
        count -= XC_XXH64_WAYS;
    }
    if (count < 2) {
        if (count) out[0] = xc_xxh64(p[0], n[0], 0);
        return;
    }
    xc_cpucap_init();
    uint64_t acc[XC_XXH64_WAYS][4];
    const uint8_t *q[XC_XXH64_WAYS];
    size_t stripes = SIZE_MAX;
    for (unsigned i = 0; i < count; i++) stripes = XC_MIN(stripes, n[i] / 32);
    for (unsigned w = 0; w < XC_XXH64_WAYS; w++) {
        q[w] = p[w < count ? w : 0];
        xc_xxh_lanes_init(acc[w]);
    }
    if (stripes) xc_kernels.xxh64_stripes(acc, q, count, stripes);
    for (unsigned i = 0; i < count; i++)
        out[i] = finish(acc[i], p[i] + 32 * stripes, n[i] - 32 * stripes, n[i]);
}
