/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * XXH64's constants, its lane round and stripe, shared by
 * xc_xxh64_many() (xxh64_many.c) and the portable stripes kernel.  A round takes 8 input
 * bytes into a lane: acc + in * P2, rotated left by 31, times P1.
 *
 * What it may call: the library's helpers (xc_internal.h).
 */
#ifndef XC_ZSTD_XXH64_ROUND_H
#define XC_ZSTD_XXH64_ROUND_H

#include "xc_internal.h"

#define XC_XXH_P1 0x9E3779B185EBCA87ull
#define XC_XXH_P2 0xC2B2AE3D27D4EB4Full
#define XC_XXH_P3 0x165667B19E3779F9ull
#define XC_XXH_P4 0x85EBCA77C2B2AE63ull
#define XC_XXH_P5 0x27D4EB2F165667C5ull

static inline uint64_t xc_xxh_rotl(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t xc_xxh_round(uint64_t acc, uint64_t in)
{
    return xc_xxh_rotl(acc + in * XC_XXH_P2, 31) * XC_XXH_P1;
}

/* One 32-byte stripe at p into the four lanes v. */
static inline void xc_xxh_stripe(uint64_t v[4], const uint8_t *p)
{
    v[0] = xc_xxh_round(v[0], xc_read_le64(p));
    v[1] = xc_xxh_round(v[1], xc_read_le64(p + 8));
    v[2] = xc_xxh_round(v[2], xc_read_le64(p + 16));
    v[3] = xc_xxh_round(v[3], xc_read_le64(p + 24));
}

/* The lanes of a stream with seed 0 before its first stripe. */
static inline void xc_xxh_lanes_init(uint64_t v[4])
{
    v[0] = XC_XXH_P1 + XC_XXH_P2;
    v[1] = XC_XXH_P2;
    v[2] = 0;
    v[3] = (uint64_t)0 - XC_XXH_P1;
}

#endif /* XC_ZSTD_XXH64_ROUND_H */
