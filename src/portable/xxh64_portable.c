/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The XXH64 stripes kernel in plain C (src/zstd/common/xxh64.h): the
 * ways one after another, each stream's four lanes round by round.  It is
 * the oracle of the vector kernels and what every CPU without them runs.
 */
#include "kernels.h"
#include "zstd/common/xxh64_round.h"

void xc_xxh64_stripes_portable(uint64_t acc[XC_XXH64_WAYS][4],
                               const uint8_t *const p[XC_XXH64_WAYS], size_t stripes)
{
    for (unsigned w = 0; w < XC_XXH64_WAYS; w++) {
        uint64_t v0 = acc[w][0], v1 = acc[w][1], v2 = acc[w][2], v3 = acc[w][3];
        const uint8_t *q = p[w];
        for (size_t s = 0; s < stripes; s++, q += 32) {
            v0 = xc_xxh_round(v0, xc_read_le64(q));
            v1 = xc_xxh_round(v1, xc_read_le64(q + 8));
            v2 = xc_xxh_round(v2, xc_read_le64(q + 16));
            v3 = xc_xxh_round(v3, xc_read_le64(q + 24));
        }
        acc[w][0] = v0;
        acc[w][1] = v1;
        acc[w][2] = v2;
        acc[w][3] = v3;
    }
}
