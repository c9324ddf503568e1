/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The XXH64 stripes kernel in plain C (src/zstd/common/xxh64.h): the
 * ways in use one after another (the others are left as they are), each
 * stream's four lanes round by round.  It is
 * the oracle of the vector kernels and what every CPU without them runs.
 */
#include <string.h>

#include "kernels.h"
#include "zstd/common/xxh64_round.h"

void xc_xxh64_stripes_portable(uint64_t acc[XC_XXH64_WAYS][4],
                               const uint8_t *const p[XC_XXH64_WAYS], unsigned ways,
                               size_t stripes)
{
    for (unsigned w = 0; w < ways; w++) {
        uint64_t v[4] = {acc[w][0], acc[w][1], acc[w][2], acc[w][3]};
        const uint8_t *q = p[w];
        for (size_t s = 0; s < stripes; s++, q += 32) xc_xxh_stripe(v, q);
        memcpy(acc[w], v, sizeof v);
    }
}
