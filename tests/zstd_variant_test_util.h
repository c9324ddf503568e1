/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd codec's ISA variants, for tests that run each one directly:
 * every variant in cpucap's lists whose features this CPU has, whatever
 * XC_CPUCAP caps (so that every tier's run compares all of them), with the
 * portable variant first.
 */
#ifndef XC_ZSTD_VARIANT_TEST_UTIL_H
#define XC_ZSTD_VARIANT_TEST_UTIL_H

#include <stddef.h>

#include "cpucap.h"

/* The i-th decoder variant this CPU runs, or NULL past the last. */
static inline const struct xc_zstd_dkernels *zt_decoder_variant(size_t i)
{
    unsigned const have = xc_cpu_detected();
    for (size_t v = 0; v < xc_zstd_decode_variant_count; v++) {
        if ((xc_zstd_decode_variants[v].needs & have) != xc_zstd_decode_variants[v].needs) continue;
        if (i-- == 0) return xc_zstd_decode_variants[v].kernels;
    }
    return NULL;
}

/* The i-th encoder variant this CPU runs, or NULL past the last. */
static inline const struct xc_zstd_ckernels *zt_encoder_variant(size_t i)
{
    unsigned const have = xc_cpu_detected();
    for (size_t v = 0; v < xc_zstd_encode_variant_count; v++) {
        if ((xc_zstd_encode_variants[v].needs & have) != xc_zstd_encode_variants[v].needs) continue;
        if (i-- == 0) return xc_zstd_encode_variants[v].kernels;
    }
    return NULL;
}

#endif
