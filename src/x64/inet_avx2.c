/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Internet checksum with AVX2.
 *
 * The scheme of inet_avx512.c on 32-byte vectors: each vector is added
 * whole to a raw accumulator and its high 32-bit halves, shifted down, to a
 * high one; the exact lane totals come back at the end as raw - 2^32 high
 * + high, three vector operations per 32 bytes.
 *
 * Up to 64 bytes, the common case for packet headers, one path with no
 * branch: AVX2 has no byte-masked load, but VPMASKMOVD loads whole 32-bit
 * words under a mask (masked-out words are not read and cannot fault), so
 * two of them take the len / 4 whole words, and the last len % 4 bytes come
 * from one 32-bit load that ends at the end of the buffer, shifted down past
 * the bytes already counted.  Those bytes start at an offset that is a
 * multiple of 4, so their words pair as the vectors' do.  Measured from a
 * program linking the shared library, ns per call at 20, 40 and 64 bytes:
 * 3.3, 3.3, 3.3, where the scalar code below took 4.4, 5.2, 5.4.  Fewer
 * than 4 bytes go to the scalar code.
 *
 * Longer buffers: bytes that do not fill a vector go through the scalar
 * code of inet_internal.h, the last 31 bytes or fewer.  Their words pair
 * from an even offset, so their total adds to the vectors' directly.
 *
 * Long buffers are first brought to a 32-byte boundary by the scalar code,
 * which keeps every vector load inside one cache line.  When that head has
 * an odd length, the rest of the buffer starts at an odd offset, its words
 * pair the other way, and its partial sum is byte-swapped (rotated by 8)
 * before the head's is added: RFC 1071 section 2(B), as in
 * xc_inet_combine().  Shorter buffers are not worth the detour.
 */
#include "kernels.h"

#if defined(XC_ARCH_X64)

#include <immintrin.h>

#include "../inet_internal.h"

#define XC_INET_AVX2_TARGET XC_TARGET("avx2")

/* Buffers longer than this are aligned first. */
#define XC_INET_AVX2_ALIGN_MIN 1024

/* 128-byte blocks between two drains of the accumulators: each lane takes
 * well under 2^32 vectors. */
#define XC_INET_AVX2_DRAIN_BLOCKS ((size_t)1 << 24)

/* Keeps a loaded vector in a register, so that GCC does not load it once
 * for the add and again for the shift. */
#define XC_INET_PIN(v) __asm__("" : "+x"(v))

XC_INET_AVX2_TARGET static inline void xc_inet_add256(__m256i x, __m256i *raw, __m256i *hs)
{
    *raw = _mm256_add_epi64(*raw, x);
    *hs = _mm256_add_epi64(*hs, _mm256_srli_epi64(x, 32));
}

XC_INET_AVX2_TARGET static inline __m256i xc_inet_ld256(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* The sum of the exact lane totals, raw - 2^32 hs + hs. */
XC_INET_AVX2_TARGET static inline uint64_t xc_inet_total256(__m256i raw, __m256i hs)
{
    __m256i v = _mm256_add_epi64(_mm256_sub_epi64(raw, _mm256_slli_epi64(hs, 32)), hs);
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}

/* The total of len >= 32 bytes at p: 128-byte blocks into two sets of
 * accumulators, up to three more vectors, then the scalar tail. */
XC_INET_AVX2_TARGET static inline uint64_t xc_inet_vectors(const uint8_t *p, size_t len)
{
    __m256i raw0 = xc_inet_ld256(p);
    __m256i hs0 = _mm256_srli_epi64(raw0, 32);
    __m256i raw1 = _mm256_setzero_si256(), hs1 = raw1;
    uint64_t total = 0;
    p += 32;
    len -= 32;
    size_t blocks = len / 128;
    len %= 128;
    while (blocks) {
        size_t n = XC_MIN(blocks, XC_INET_AVX2_DRAIN_BLOCKS);
        blocks -= n;
        do {
            __m256i x0 = xc_inet_ld256(p);
            __m256i x1 = xc_inet_ld256(p + 32);
            __m256i x2 = xc_inet_ld256(p + 64);
            __m256i x3 = xc_inet_ld256(p + 96);
            XC_INET_PIN(x0);
            XC_INET_PIN(x1);
            XC_INET_PIN(x2);
            XC_INET_PIN(x3);
            xc_inet_add256(x0, &raw0, &hs0);
            xc_inet_add256(x1, &raw1, &hs1);
            xc_inet_add256(x2, &raw0, &hs0);
            xc_inet_add256(x3, &raw1, &hs1);
            p += 128;
        } while (--n);
        if (XC_UNLIKELY(blocks)) {
            /* Only past 2 GiB: empty the lanes before they can overflow. */
            total = (uint64_t)xc_inet_fold64(total) +
                    xc_inet_total256(_mm256_add_epi64(raw0, raw1), _mm256_add_epi64(hs0, hs1));
            raw0 = raw1 = hs0 = hs1 = _mm256_setzero_si256();
        }
    }
    if (len >= 32) {
        xc_inet_add256(xc_inet_ld256(p), &raw1, &hs1);
        if (len >= 64) {
            xc_inet_add256(xc_inet_ld256(p + 32), &raw0, &hs0);
            if (len >= 96) xc_inet_add256(xc_inet_ld256(p + 64), &raw1, &hs1);
        }
        p += len & ~(size_t)31;
    }
    total = (uint64_t)xc_inet_fold64(total) +
            xc_inet_total256(_mm256_add_epi64(raw0, raw1), _mm256_add_epi64(hs0, hs1));
    return total + xc_inet_sum_native(p, len & 31);
}

/* 4 to 64 bytes, no branch (above). */
XC_INET_AVX2_TARGET static inline uint64_t xc_inet_upto64(const uint8_t *p, size_t len)
{
    const __m256i words = _mm256_set1_epi32((int)(len >> 2));
    const __m256i m0 = _mm256_cmpgt_epi32(words, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i m1 = _mm256_cmpgt_epi32(words, _mm256_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15));
    __m256i x0 = _mm256_maskload_epi32((const int *)(const void *)p, m0);
    __m256i x1 = _mm256_maskload_epi32((const int *)(const void *)(p + 32), m1);
    const __m256i lo = _mm256_set1_epi64x(0xFFFFFFFF);
    __m256i v = _mm256_add_epi64(_mm256_add_epi64(_mm256_and_si256(x0, lo), _mm256_srli_epi64(x0, 32)),
                                 _mm256_add_epi64(_mm256_and_si256(x1, lo), _mm256_srli_epi64(x1, 32)));
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    /* A shift by 32 (len a multiple of 4) leaves nothing: the 64-bit value
     * is zero-extended. */
    uint64_t tail = (uint64_t)xc_read32(p + len - 4) >> (8 * (4 - (len & 3)));
    return (uint64_t)_mm_cvtsi128_si64(t) + tail;
}

XC_INET_AVX2_TARGET XC_FORCE_INLINE uint32_t xc_inet_out(uint32_t s, int fold)
{
    return fold ? xc_inet_fold16(s) : s;
}

/* Both entry points; fold (a constant after inlining) folds each path's
 * sum inside the path, so that the paths do not meet at a shared fold. */
XC_INET_AVX2_TARGET XC_FORCE_INLINE uint32_t xc_inet_avx2_body(uint32_t sum, const uint8_t *data,
                                                             size_t len, int fold)
{
    if (XC_LIKELY(len - 4 <= 60)) return xc_inet_out(xc_inet_finish(xc_inet_upto64(data, len), sum, 8), fold);
    if (len < 4) return xc_inet_out(xc_inet_finish(xc_inet_sum_native(data, len), sum, 8), fold);
    if (len <= XC_INET_AVX2_ALIGN_MIN)
        return xc_inet_out(xc_inet_finish(xc_inet_vectors(data, len), sum, 8), fold);

    const size_t head = (size_t)(-(uintptr_t)data & 31);
    const uint64_t head_total = xc_inet_sum_native(data, head);
    /* The part after an odd head pairs its words the other way round. */
    uint32_t body = xc_inet_rol32(xc_inet_fold64(xc_inet_vectors(data + head, len - head)),
                                  (unsigned)(head & 1) * 8);
    return xc_inet_out(xc_inet_finish((uint64_t)body + head_total, sum, 8), fold);
}

XC_INET_AVX2_TARGET XC_ALIGNED(64) XC_ALIGN_JUMPS
uint32_t xc_inet_sum_x64_avx2(uint32_t sum, const uint8_t *data, size_t len)
{
    return xc_inet_avx2_body(sum, data, len, 0);
}

XC_INET_AVX2_TARGET XC_ALIGNED(64) XC_ALIGN_JUMPS
uint16_t xc_inet_checksum_x64_avx2(const uint8_t *data, size_t len)
{
    return (uint16_t)xc_inet_avx2_body(0, data, len, 1);
}

#endif /* XC_ARCH_X64 */
