/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Internet checksum with AVX-512 (F, BW) and BMI2.
 *
 * Widening without widening instructions.  Each 64-bit lane of a loaded
 * vector holds two 32-bit words, lo + 2^32 hi, and the lane's share of the
 * checksum is lo + hi (modulo 0xFFFF, src/inet_internal.h).  Zero-extending
 * both halves costs a mask, a shift and two adds per vector.  Instead each
 * vector is added whole to a "raw" accumulator, and its shifted-down high
 * halves to a "high" accumulator:
 *     raw  = sum(lo) + 2^32 sum(hi)  modulo 2^64
 *     high = sum(hi)                 exactly, below 2^64 for 2^32 vectors
 * At the end sum(lo) = raw - 2^32 high modulo 2^64, which is exact because
 * sum(lo) is itself below 2^64, and the lane's total is sum(lo) + sum(hi).
 * That is three vector operations per 64 bytes, and the loop runs at the
 * rate of the vector pipes, about 1.5 cycles per 64 bytes on Zen 4
 * (docs/inet.md has what else was tried).
 *
 * Aligned loads.  A 64-byte load that straddles two cache lines costs two
 * loads, which slows the loop on a misaligned buffer.  So long buffers are
 * read from the 64-byte boundary at or below their start, the first vector
 * with a masked load: masked-out bytes are not accessed and cannot fault.
 * Words are then paired from the aligned address, not from the buffer's
 * start; when the two differ by an odd count, every byte sits in the other
 * half of its word, which is the byte-swap that the final rotation would
 * have applied, so the rotation is skipped.
 *
 * Short buffers, the common case for packet headers, have their own paths,
 * because at these sizes the cost is the number of instructions and taken
 * branches, not the vector pipes.  Up to 64 bytes: one masked load, a mask
 * and a shift to widen, one horizontal sum, no branch.  Up to 256 bytes:
 * whole vectors with plain loads and one masked load for the last partial
 * vector.  Up to XC_INET_AVX512_ALIGNED bytes: the same with a loop, no
 * alignment step.
 */
#include "kernels.h"

#if defined(XC_ARCH_X64)

#include <immintrin.h>

#include "../inet_internal.h"

#define XC_INET_AVX512_TARGET XC_TARGET("avx512f,avx512bw,bmi2")

/* 256-byte blocks between two drains of the accumulators: each lane then
 * takes at most 2^25 vectors, far below the 2^32 the recovery allows. */
#define XC_INET_AVX512_DRAIN_BLOCKS ((size_t)1 << 24)

/* Buffers longer than this are read with aligned loads; below it, the
 * masked first vector and the extra vector it brings cost more than the
 * split loads they save (docs/inet.md). */
#define XC_INET_AVX512_ALIGNED 512

/* Keeps a loaded vector in a register.  Without it GCC folds the load into
 * both the add and the shift, loading each 64 bytes twice, which makes the
 * loop load-bound. */
#define XC_INET_PIN(v) __asm__("" : "+v"(v))

/* The first n bytes at p, n <= 64, with a masked load: masked-out bytes are
 * not read and cannot fault, and n = 0 reads nothing at all. */
XC_INET_AVX512_TARGET static inline __m512i xc_inet_load_part(const uint8_t *p, size_t n)
{
    return _mm512_maskz_loadu_epi8(_cvtu64_mask64(_bzhi_u64(~0ull, (unsigned)n)), p);
}

XC_INET_AVX512_TARGET static inline void xc_inet_add(__m512i x, __m512i *raw, __m512i *hs)
{
    *raw = _mm512_add_epi64(*raw, x);
    *hs = _mm512_add_epi64(*hs, _mm512_srli_epi64(x, 32));
}

/* Adds the first n bytes at p (n < 256) to raw and hs: whole vectors with
 * plain loads, the last n mod 64 bytes with one masked load.  On Zen 4 a
 * byte-masked load costs about two cycles more than a plain one, more than
 * the well-predicted branches that choose the plain loads. */
XC_INET_AVX512_TARGET static inline void xc_inet_rest(const uint8_t *p, size_t n, __m512i *raw,
                                                      __m512i *hs)
{
    if (n >= 64) {
        xc_inet_add(_mm512_loadu_si512(p), raw, hs);
        if (n >= 128) {
            xc_inet_add(_mm512_loadu_si512(p + 64), raw, hs);
            if (n >= 192) xc_inet_add(_mm512_loadu_si512(p + 128), raw, hs);
        }
    }
    if (n & 63) xc_inet_add(xc_inet_load_part(p + (n & ~(size_t)63), n & 63), raw, hs);
}

/* The exact lane totals, sum(lo) + sum(hi), from raw and hs. */
XC_INET_AVX512_TARGET static inline __m512i xc_inet_lanes(__m512i raw, __m512i hs)
{
    return _mm512_add_epi64(_mm512_sub_epi64(raw, _mm512_slli_epi64(hs, 32)), hs);
}

/* Up to 64 bytes (including none, with data possibly NULL: the all-zero
 * mask reads nothing).  A single vector needs no carry recovery: a mask
 * and a shift widen its halves. */
XC_INET_AVX512_TARGET static inline uint64_t xc_inet_upto64(const uint8_t *p, size_t len)
{
    __m512i x = xc_inet_load_part(p, len);
    __m512i v = _mm512_add_epi64(_mm512_and_si512(x, _mm512_set1_epi64(0xFFFFFFFF)),
                                 _mm512_srli_epi64(x, 32));
    return (uint64_t)_mm512_reduce_add_epi64(v);
}

/* 65 to 256 bytes: one whole vector, then the rest. */
XC_INET_AVX512_TARGET static inline uint64_t xc_inet_upto256(const uint8_t *p, size_t len)
{
    __m512i raw = _mm512_loadu_si512(p);
    __m512i hs = _mm512_srli_epi64(raw, 32);
    xc_inet_rest(p + 64, len - 64, &raw, &hs);
    return (uint64_t)_mm512_reduce_add_epi64(xc_inet_lanes(raw, hs));
}

/* From 257 bytes to XC_INET_AVX512_ALIGNED: unaligned loads, two sets of
 * accumulators, no alignment step. */
XC_INET_AVX512_TARGET static inline uint64_t xc_inet_unaligned(const uint8_t *p, size_t len)
{
    __m512i raw0 = _mm512_loadu_si512(p);
    __m512i hs0 = _mm512_srli_epi64(raw0, 32);
    __m512i raw1 = _mm512_setzero_si512(), hs1 = raw1;
    p += 64;
    len -= 64;
    while (len >= 256) {
        xc_inet_add(_mm512_loadu_si512(p), &raw0, &hs0);
        xc_inet_add(_mm512_loadu_si512(p + 64), &raw1, &hs1);
        xc_inet_add(_mm512_loadu_si512(p + 128), &raw0, &hs0);
        xc_inet_add(_mm512_loadu_si512(p + 192), &raw1, &hs1);
        p += 256;
        len -= 256;
    }
    xc_inet_rest(p, len, &raw1, &hs1);
    __m512i v = xc_inet_lanes(_mm512_add_epi64(raw0, raw1), _mm512_add_epi64(hs0, hs1));
    return (uint64_t)_mm512_reduce_add_epi64(v);
}

/* Longer buffers: aligned loads, 256 bytes an iteration into two sets of
 * accumulators (four sets, or 512-byte iterations, measured no faster and
 * cost more to drain).  Returns the total with words paired from the
 * 64-byte boundary at or below the buffer, p, which is skew bytes lower;
 * only a misaligned buffer pays for a masked first load. */
XC_INET_AVX512_TARGET static inline uint64_t xc_inet_aligned(const uint8_t *p, unsigned skew,
                                                             size_t len)
{
    size_t rest = len + skew - 64; /* bytes after the first aligned vector */
    const __m512i zero = _mm512_setzero_si512();
    __m512i raw0 = skew ? _mm512_maskz_loadu_epi8(_cvtu64_mask64(~0ull << skew), p)
                        : _mm512_load_si512(p);
    __m512i hs0 = _mm512_srli_epi64(raw0, 32);
    __m512i raw1 = zero, hs1 = zero;
    uint64_t total = 0;
    p += 64;

    size_t blocks = rest / 256;
    rest %= 256;
    while (blocks) {
        size_t n = XC_MIN(blocks, XC_INET_AVX512_DRAIN_BLOCKS);
        blocks -= n;
        do {
            __m512i x0 = _mm512_load_si512(p);
            __m512i x1 = _mm512_load_si512(p + 64);
            __m512i x2 = _mm512_load_si512(p + 128);
            __m512i x3 = _mm512_load_si512(p + 192);
            XC_INET_PIN(x0);
            XC_INET_PIN(x1);
            XC_INET_PIN(x2);
            XC_INET_PIN(x3);
            xc_inet_add(x0, &raw0, &hs0);
            xc_inet_add(x1, &raw1, &hs1);
            xc_inet_add(x2, &raw0, &hs0);
            xc_inet_add(x3, &raw1, &hs1);
            p += 256;
        } while (--n);
        if (XC_UNLIKELY(blocks)) {
            /* Only past 4 GiB: empty the lanes before they can overflow. */
            __m512i v = xc_inet_lanes(_mm512_add_epi64(raw0, raw1), _mm512_add_epi64(hs0, hs1));
            total = (uint64_t)xc_inet_fold64(total) + (uint64_t)_mm512_reduce_add_epi64(v);
            raw0 = raw1 = hs0 = hs1 = zero;
        }
    }
    xc_inet_rest(p, rest, &raw1, &hs1);
    __m512i v = xc_inet_lanes(_mm512_add_epi64(raw0, raw1), _mm512_add_epi64(hs0, hs1));
    return (uint64_t)xc_inet_fold64(total) + (uint64_t)_mm512_reduce_add_epi64(v);
}

/*
 * The entry point keeps only the path up to 64 bytes inline; the others are
 * separate functions reached by a tail jump.  Each starts on a 64-byte
 * boundary: at these sizes the speed of a path moved by about a quarter
 * depending on where its branch targets fell relative to the 64-byte
 * windows of the fetch and op cache, so a path whose placement depended
 * on whatever code the linker put before it was fast in one program and
 * slow in another (docs/inet.md).
 */
XC_INET_AVX512_TARGET XC_NOINLINE XC_ALIGNED(64) static uint32_t
xc_inet_sum_mid(uint32_t sum, const uint8_t *data, size_t len)
{
    if (len <= 256) return xc_inet_finish(xc_inet_upto256(data, len), sum, 8);
    return xc_inet_finish(xc_inet_unaligned(data, len), sum, 8);
}

XC_INET_AVX512_TARGET XC_NOINLINE XC_ALIGNED(64) static uint32_t
xc_inet_sum_long(uint32_t sum, const uint8_t *data, size_t len)
{
    const unsigned skew = (unsigned)((uintptr_t)data & 63);
    const uint8_t *p = (const uint8_t *)((uintptr_t)data - skew);
    return xc_inet_finish(xc_inet_aligned(p, skew, len), sum, (skew & 1) ? 0 : 8);
}

XC_INET_AVX512_TARGET XC_ALIGNED(64)
uint32_t xc_inet_sum_x64_avx512(uint32_t sum, const uint8_t *data, size_t len)
{
    if (XC_LIKELY(len <= 64)) return xc_inet_finish(xc_inet_upto64(data, len), sum, 8);
    if (len <= XC_INET_AVX512_ALIGNED) return xc_inet_sum_mid(sum, data, len);
    return xc_inet_sum_long(sum, data, len);
}

#endif /* XC_ARCH_X64 */
