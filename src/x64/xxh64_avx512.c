/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The XXH64 stripes kernel with AVX-512 (F, DQ for the 64-bit multiply,
 * VPROLQ for the rotation).  A 512-bit register holds the four lanes of
 * two streams, so the four ways are two registers, each a chain of
 * add, multiply, rotate and multiply per stripe; the two chains overlap,
 * and one stripe of all four streams (128 bytes) costs about what one
 * stripe of a single scalar XXH64 does (the chain's latency).
 */
#include "kernels.h"

#if defined(XC_ARCH_X64)

#include <immintrin.h>

#include "zstd/common/xxh64_round.h"

#define XC_XXH_AVX512_TARGET XC_TARGET("avx512f,avx512dq,avx512vl")

/* The 32-byte stripes at a and b side by side. */
XC_XXH_AVX512_TARGET static inline __m512i two(const uint8_t *a, const uint8_t *b)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)a)),
                              _mm256_loadu_si256((const __m256i *)b), 1);
}

XC_XXH_AVX512_TARGET static inline __m512i round8(__m512i acc, __m512i in, __m512i p1, __m512i p2)
{
    acc = _mm512_add_epi64(acc, _mm512_mullo_epi64(in, p2));
    return _mm512_mullo_epi64(_mm512_rol_epi64(acc, 31), p1);
}

XC_XXH_AVX512_TARGET void xc_xxh64_stripes_x64_avx512(uint64_t acc[XC_XXH64_WAYS][4],
                                                     const uint8_t *const p[XC_XXH64_WAYS],
                                                     unsigned ways, size_t stripes)
{
    (void)ways; /* all four ways cost what two do: the chains run side by side */
    const __m512i p1 = _mm512_set1_epi64((long long)XC_XXH_P1);
    const __m512i p2 = _mm512_set1_epi64((long long)XC_XXH_P2);
    /* acc[0], acc[1] and acc[2], acc[3] are each eight adjacent words. */
    __m512i a = _mm512_loadu_si512(acc[0]);
    __m512i b = _mm512_loadu_si512(acc[2]);
    const uint8_t *q0 = p[0], *q1 = p[1], *q2 = p[2], *q3 = p[3];
    for (size_t s = 0; s < stripes; s++) {
        a = round8(a, two(q0, q1), p1, p2);
        b = round8(b, two(q2, q3), p1, p2);
        q0 += 32;
        q1 += 32;
        q2 += 32;
        q3 += 32;
    }
    _mm512_storeu_si512(acc[0], a);
    _mm512_storeu_si512(acc[2], b);
}

#endif /* XC_ARCH_X64 */
