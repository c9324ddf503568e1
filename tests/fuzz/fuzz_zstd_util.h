/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the compression fuzz targets (fuzz_compress.c,
 * fuzz_compress_params.c): the round trip every frame must pass, and a
 * small generator for piece sizes and flushes.  A failure traps, which
 * libFuzzer reports as a crash with the input that caused it.
 */
#ifndef FUZZ_ZSTD_UTIL_H
#define FUZZ_ZSTD_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xcodec.h"
#ifdef XC_HAVE_LIBZSTD
#  include <zstd.h>
#endif

/* The frame decodes back to src[0..n) with our decoder and, when present,
 * libzstd's. */
static inline void check_frame(const uint8_t *frame, size_t fsize, const uint8_t *src, size_t n)
{
    uint8_t *back = malloc(n ? n : 1);
    if (!back) return;
    size_t r = xc_zstd_decompress(back, n, frame, fsize);
    if (xc_is_error(r) || r != n || (n && memcmp(back, src, n) != 0)) __builtin_trap();
#ifdef XC_HAVE_LIBZSTD
    r = ZSTD_decompress(back, n, frame, fsize);
    if (ZSTD_isError(r) || r != n || (n && memcmp(back, src, n) != 0)) __builtin_trap();
#endif
    free(back);
}

/* A linear congruential step: piece sizes and flushes follow from the
 * input's seed bytes, so a crash replays from its input alone. */
static inline uint32_t lcg_next(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

#endif /* FUZZ_ZSTD_UTIL_H */
