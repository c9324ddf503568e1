/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Internet checksum for x64 CPUs with SSSE3 but no AVX2 (the sse42 and
 * pclmul tiers): 16 to 64 bytes in one path with no branch, as the AVX2,
 * AVX-512 and NEON kernels have; other lengths run the portable code.
 *
 * SSE has no masked load, so the path reads four 16-byte vectors at
 * min(16 i, len - 16), all inside the buffer, and PSHUFB moves each down so
 * that byte 16 i lands in lane 0.  The shuffle index of lane j is j + k,
 * k = 16 i - offset; indices of 16 or more (bytes an earlier vector already
 * took, or a whole vector past the end) get their top bit set, which makes
 * PSHUFB write zero.  Every byte is then counted once, at a lane of the
 * same parity as its offset, so 32-bit lanes add as native words do.
 * Measured from a program that dlopens the library (XC_CPUCAP=sse42), ns
 * per call at 20, 40 and 64 bytes: see docs/inet.md.
 */
#include "kernels.h"

#if defined(XC_ARCH_X64)

#include <immintrin.h>

#include "../inet_internal.h"

#define XC_INET_SSSE3_TARGET XC_TARGET("ssse3")

/* The 16 bytes from p + 16 i, those at or past len zero. */
XC_INET_SSSE3_TARGET static inline __m128i xc_inet_slot(const uint8_t *p, size_t i, size_t len)
{
    const size_t off = XC_MIN(16 * i, len - 16);
    const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m128i idx = _mm_add_epi8(iota, _mm_set1_epi8((char)(16 * i - off)));
    idx = _mm_or_si128(idx, _mm_cmpgt_epi8(idx, _mm_set1_epi8(15)));
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + off)), idx);
}

/* 16 to 64 bytes: the total of the native 32-bit words. */
XC_INET_SSSE3_TARGET static inline uint64_t xc_inet_upto64(const uint8_t *p, size_t len)
{
    const __m128i lo = _mm_set1_epi64x(0xFFFFFFFF);
    __m128i x0 = xc_inet_slot(p, 0, len), x1 = xc_inet_slot(p, 1, len);
    __m128i x2 = xc_inet_slot(p, 2, len), x3 = xc_inet_slot(p, 3, len);
    __m128i a = _mm_add_epi64(_mm_add_epi64(_mm_and_si128(x0, lo), _mm_srli_epi64(x0, 32)),
                              _mm_add_epi64(_mm_and_si128(x1, lo), _mm_srli_epi64(x1, 32)));
    __m128i b = _mm_add_epi64(_mm_add_epi64(_mm_and_si128(x2, lo), _mm_srli_epi64(x2, 32)),
                              _mm_add_epi64(_mm_and_si128(x3, lo), _mm_srli_epi64(x3, 32)));
    a = _mm_add_epi64(a, b);
    a = _mm_add_epi64(a, _mm_unpackhi_epi64(a, a));
    return (uint64_t)_mm_cvtsi128_si64(a);
}

XC_INET_SSSE3_TARGET XC_FORCE_INLINE uint32_t xc_inet_ssse3_body(uint32_t sum, const uint8_t *data,
                                                               size_t len, int fold)
{
    uint32_t s;
    if (XC_LIKELY(len - 16 <= 48))
        s = xc_inet_finish(xc_inet_upto64(data, len), sum, 8);
    else
        s = xc_inet_finish(xc_inet_sum_native(data, len), sum, 8);
    return fold ? xc_inet_fold16(s) : s;
}

XC_INET_SSSE3_TARGET XC_ALIGNED(64) XC_ALIGN_JUMPS
uint32_t xc_inet_sum_x64_ssse3(uint32_t sum, const uint8_t *data, size_t len)
{
    return xc_inet_ssse3_body(sum, data, len, 0);
}

XC_INET_SSSE3_TARGET XC_ALIGNED(64) XC_ALIGN_JUMPS
uint16_t xc_inet_checksum_x64_ssse3(const uint8_t *data, size_t len)
{
    return (uint16_t)xc_inet_ssse3_body(0, data, len, 1);
}

#endif /* XC_ARCH_X64 */
