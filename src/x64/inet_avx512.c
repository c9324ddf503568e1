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
 * alignment step, inline in the entry too.
 *
 * Two entry points share these paths: xc_inet_sum_x64_avx512() and, for
 * CPUs with AVX-512 VNNI, xc_inet_sum_x64_avx512vnni(), whose long path
 * widens and adds with vpdpwssd (below).
 */
#include "kernels.h"

#if defined(XC_ARCH_X64)

#include <immintrin.h>

#include "../inet_internal.h"

#define XC_INET_AVX512_TARGET XC_TARGET("avx512f,avx512bw,bmi2")

/* 256-byte blocks between two drains of the accumulators: each lane then
 * takes at most 2^25 vectors, far below the 2^32 the recovery allows. */
#define XC_INET_AVX512_DRAIN_BLOCKS ((size_t)1 << 24)

/* Buffers longer than this are read with aligned loads (and, with VNNI, by
 * the vpdpwssd loop); below it, the masked first vector and the extra
 * vector it brings, and the multiply's latency, cost more than they save.
 * Measured from a program linking the shared library (bench/installed):
 * the unaligned loop inline in the entry against the aligned VNNI path,
 * ns per call, 576 bytes 5.2 against 7.2, 1024 bytes 8.3 against 10.1,
 * 1500 bytes 12.8 against 13.0, 2048 bytes 15.5 against 15.0 (docs/inet.md). */
#define XC_INET_AVX512_ALIGNED 1536

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
    XC_INET_PIN(x);
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

/* The sum of the eight 64-bit lanes.  The last step adds the high lane
 * with a shuffle inside the vector unit and moves out one lane, which is
 * one instruction less than moving out both (vpextrq is two). */
XC_INET_AVX512_TARGET static inline uint64_t xc_inet_hsum(__m512i v)
{
    __m256i a = _mm256_add_epi64(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    __m128i b = _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    b = _mm_add_epi64(b, _mm_unpackhi_epi64(b, b));
    return (uint64_t)_mm_cvtsi128_si64(b);
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
    return xc_inet_hsum(v);
}

/* 65 to 256 bytes: one whole vector, then the rest. */
XC_INET_AVX512_TARGET static inline uint64_t xc_inet_upto256(const uint8_t *p, size_t len)
{
    __m512i raw = _mm512_loadu_si512(p);
    XC_INET_PIN(raw);
    __m512i hs = _mm512_srli_epi64(raw, 32);
    xc_inet_rest(p + 64, len - 64, &raw, &hs);
    return xc_inet_hsum(xc_inet_lanes(raw, hs));
}

/* From 257 bytes to XC_INET_AVX512_ALIGNED: unaligned loads, 128 bytes an
 * iteration into two sets of accumulators, then at most one whole vector
 * and one masked one.  (256-byte iterations, or four sets, ran no faster
 * here, and cost a branch more on the way out.) */
XC_INET_AVX512_TARGET static inline uint64_t xc_inet_unaligned(const uint8_t *p, size_t len)
{
    __m512i raw0 = _mm512_loadu_si512(p);
    XC_INET_PIN(raw0);
    __m512i hs0 = _mm512_srli_epi64(raw0, 32);
    __m512i raw1 = _mm512_setzero_si512(), hs1 = raw1;
    p += 64;
    len -= 64;
    while (len >= 128) {
        xc_inet_add(_mm512_loadu_si512(p), &raw0, &hs0);
        xc_inet_add(_mm512_loadu_si512(p + 64), &raw1, &hs1);
        p += 128;
        len -= 128;
    }
    if (len >= 64) {
        xc_inet_add(_mm512_loadu_si512(p), &raw1, &hs1);
        p += 64;
        len -= 64;
    }
    if (len) xc_inet_add(xc_inet_load_part(p, len), &raw0, &hs0);
    __m512i v = xc_inet_lanes(_mm512_add_epi64(raw0, raw1), _mm512_add_epi64(hs0, hs1));
    return xc_inet_hsum(v);
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
            total = (uint64_t)xc_inet_fold64(total) + xc_inet_hsum(v);
            raw0 = raw1 = hs0 = hs1 = zero;
        }
    }
    xc_inet_rest(p, rest, &raw1, &hs1);
    __m512i v = xc_inet_lanes(_mm512_add_epi64(raw0, raw1), _mm512_add_epi64(hs0, hs1));
    return (uint64_t)xc_inet_fold64(total) + xc_inet_hsum(v);
}

/*
 * With AVX-512 VNNI, vpdpwssd multiplies 16-bit words by 1 and adds the
 * pairs into 32-bit lanes, widening and accumulating in one instruction.
 * Its words are signed, so each is first flipped by its top bit (xor
 * 0x8000), which turns w into w - 32768 exactly; every 64-byte vector then
 * leaves each 32-bit lane 65536 short of its true total, which one add
 * gives back at the end, so the lanes end as the exact, non-negative totals
 * of their words.  Two instructions per 64 bytes instead of three, and the xor runs
 * on pipes the multiply leaves free: at 4 KiB the loop takes about 1.3
 * cycles per 64 bytes instead of 1.75 (docs/inet.md).  Below 512 bytes the
 * multiply's latency costs more than it saves, so only the long path uses
 * it.
 *
 * Bounds.  Blocks of four vectors are taken in chunks of at most
 * XC_INET_VNNI_DRAIN_BLOCKS (128 KiB), each drained on its own, so the
 * four lanes that add up to one exact total took at most 2052 vectors: the
 * total is below 2^28, and the wrap-around arithmetic of the lanes on the
 * way there (their sum is at least -2^27) cancels exactly.  The exact lanes
 * are summed as 64-bit pairs, lo + 2^32 hi, which is congruent to lo + hi
 * modulo 0xFFFF; each pair is below 2^60, so eight of them do not overflow
 * either.  The chunk size also makes the tests' buffers of up to 1
 * MiB go through a drain.
 */
#define XC_INET_VNNI_TARGET XC_TARGET("avx512f,avx512bw,avx512vnni,bmi2")
#define XC_INET_VNNI_DRAIN_BLOCKS ((size_t)1 << 9)

XC_INET_VNNI_TARGET static inline __m512i xc_inet_vnni_add(__m512i acc, __m512i x)
{
    const __m512i flip = _mm512_set1_epi16((short)0x8000);
    return _mm512_dpwssd_epi32(acc, _mm512_xor_si512(x, flip), _mm512_set1_epi16(1));
}

/* The exact total of the four accumulators that took nvec vectors: their
 * sum, with what the flips took back, as 32-bit lanes that cannot overflow
 * (see above); the pairs of lanes are summed as 64-bit ones. */
XC_INET_VNNI_TARGET static inline uint64_t xc_inet_vnni_total(__m512i a0, __m512i a1, __m512i a2,
                                                              __m512i a3, size_t nvec)
{
    __m512i s = _mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3));
    return xc_inet_hsum(_mm512_add_epi32(s, _mm512_set1_epi32((int)(nvec << 16))));
}

/* XC_INET_VNNI_DRAIN_BLOCKS whole blocks at p, which is 64-byte aligned.
 * The long path drains its accumulators by calling this for all but its
 * last chunk: accumulators of their own, reset by each call, keep GCC from
 * copying the main loop's accumulators on every iteration. */
XC_INET_VNNI_TARGET XC_NOINLINE static uint64_t xc_inet_vnni_chunk(const uint8_t *p)
{
    const __m512i zero = _mm512_setzero_si512();
    __m512i a0 = zero, a1 = zero, a2 = zero, a3 = zero;
    for (size_t n = XC_INET_VNNI_DRAIN_BLOCKS; n; n--, p += 256) {
        a0 = xc_inet_vnni_add(a0, _mm512_load_si512(p));
        a1 = xc_inet_vnni_add(a1, _mm512_load_si512(p + 64));
        a2 = xc_inet_vnni_add(a2, _mm512_load_si512(p + 128));
        a3 = xc_inet_vnni_add(a3, _mm512_load_si512(p + 192));
    }
    return xc_inet_vnni_total(a0, a1, a2, a3, 4 * XC_INET_VNNI_DRAIN_BLOCKS);
}

/* xc_inet_aligned() with VNNI: the same aligned loads and masked first
 * vector, 256 bytes an iteration into four accumulators, so that four
 * multiplies are in flight. */
XC_INET_VNNI_TARGET static inline uint64_t xc_inet_vnni_aligned(const uint8_t *p, unsigned skew,
                                                                size_t len)
{
    size_t rest = len + skew - 64;
    const __m512i zero = _mm512_setzero_si512();
    __m512i first = skew ? _mm512_maskz_loadu_epi8(_cvtu64_mask64(~0ull << skew), p)
                         : _mm512_load_si512(p);
    uint64_t total = 0;
    p += 64;
    /* Every chunk but the last, past 128 KiB only. */
    while (XC_UNLIKELY(rest > 256 * XC_INET_VNNI_DRAIN_BLOCKS)) {
        total = (uint64_t)xc_inet_fold64(total) + xc_inet_vnni_chunk(p);
        p += 256 * XC_INET_VNNI_DRAIN_BLOCKS;
        rest -= 256 * XC_INET_VNNI_DRAIN_BLOCKS;
    }
    /* The last chunk, with the first vector and the tail. */
    const size_t nvec = 1 + rest / 64 + ((rest & 63) != 0);
    __m512i a0 = xc_inet_vnni_add(zero, first), a1 = zero, a2 = zero, a3 = zero;
    for (; rest >= 256; rest -= 256, p += 256) {
        a0 = xc_inet_vnni_add(a0, _mm512_load_si512(p));
        a1 = xc_inet_vnni_add(a1, _mm512_load_si512(p + 64));
        a2 = xc_inet_vnni_add(a2, _mm512_load_si512(p + 128));
        a3 = xc_inet_vnni_add(a3, _mm512_load_si512(p + 192));
    }
    if (rest >= 64) {
        a1 = xc_inet_vnni_add(a1, _mm512_load_si512(p));
        if (rest >= 128) {
            a2 = xc_inet_vnni_add(a2, _mm512_load_si512(p + 64));
            if (rest >= 192) a3 = xc_inet_vnni_add(a3, _mm512_load_si512(p + 128));
        }
    }
    if (rest & 63) a0 = xc_inet_vnni_add(a0, xc_inet_load_part(p + (rest & ~(size_t)63), rest & 63));
    return (uint64_t)xc_inet_fold64(total) + xc_inet_vnni_total(a0, a1, a2, a3, nvec);
}

/*
 * The entry point keeps the paths up to XC_INET_AVX512_ALIGNED bytes
 * inline; the long ones are separate functions reached by a tail jump.
 * Each starts on a 64-byte boundary: at these sizes the speed of a path
 * moved by about a quarter depending on where its branch targets fell
 * relative to the 64-byte windows of the fetch and op cache, so a path
 * whose placement depended on whatever code the linker put before it was
 * fast in one program and slow in another (docs/inet.md).
 */
/* The public partial sum of a total of at most XC_INET_AVX512_ALIGNED bytes,
 * read from the buffer's start.  Such a total is below 2^41, so it can be
 * multiplied by 2^8, which swaps the bytes of every word modulo 0xFFFF
 * (inet_internal.h): one shift, where xc_inet_finish() with a rotation
 * rotates both the starting sum and the result.  One instruction and one
 * cycle of latency count at these sizes. */
static inline uint32_t xc_inet_finish_short(uint64_t total, uint32_t sum)
{
    return xc_inet_finish(total << 8, sum, 0);
}

XC_INET_AVX512_TARGET XC_NOINLINE XC_ALIGNED(64) static uint32_t
xc_inet_sum_long(uint32_t sum, const uint8_t *data, size_t len)
{
    const unsigned skew = (unsigned)((uintptr_t)data & 63);
    const uint8_t *p = (const uint8_t *)((uintptr_t)data - skew);
    return xc_inet_finish(xc_inet_aligned(p, skew, len), sum, (skew & 1) ? 0 : 8);
}

XC_INET_VNNI_TARGET XC_NOINLINE XC_ALIGNED(64) static uint32_t
xc_inet_sum_long_vnni(uint32_t sum, const uint8_t *data, size_t len)
{
    const unsigned skew = (unsigned)((uintptr_t)data & 63);
    const uint8_t *p = (const uint8_t *)((uintptr_t)data - skew);
    return xc_inet_finish(xc_inet_vnni_aligned(p, skew, len), sum, (skew & 1) ? 0 : 8);
}

/* Both entry points: the paths by length, with the long path that the
 * entry point's ISA allows.  vnni is a constant after inlining.
 *
 * Up to 64 bytes is the fall-through path, with no taken branch between
 * the caller's call and the return.  The other paths are reached by a
 * taken branch, and GCC is asked to put every such target on a 64-byte
 * boundary and not to merge the paths' common tails (XC_ALIGN_JUMPS): a
 * taken branch ends a fetch, and a target near the end of a 64-byte window
 * costs another one before the path gets going; a merged tail is a jump
 * more.  Measured through xc_inet_sum(), against DPDK: with this layout 64
 * bytes 1.04x and 256 bytes 1.53x; with the same layout unaligned, 1.04x
 * and 1.40x; with 64 bytes behind the taken branch instead, 1.01x and 1.53x
 * (docs/inet.md). */
XC_INET_AVX512_TARGET XC_FORCE_INLINE uint32_t xc_inet_out(uint32_t s, int fold)
{
    return fold ? xc_inet_fold16(s) : s;
}

/* fold (a constant after inlining) folds each path's sum inside the path,
 * so that the checksum entries' paths do not meet at a shared fold. */
XC_INET_AVX512_TARGET XC_FORCE_INLINE uint32_t xc_inet_sum_body(uint32_t sum, const uint8_t *data,
                                                              size_t len, int vnni, int fold)
{
    if (XC_LIKELY(len <= 64))
        return xc_inet_out(xc_inet_finish_short(xc_inet_upto64(data, len), sum), fold);
    if (XC_LIKELY(len <= 256))
        return xc_inet_out(xc_inet_finish_short(xc_inet_upto256(data, len), sum), fold);
    if (len <= XC_INET_AVX512_ALIGNED)
        return xc_inet_out(xc_inet_finish_short(xc_inet_unaligned(data, len), sum), fold);
    if (vnni) return xc_inet_out(xc_inet_sum_long_vnni(sum, data, len), fold);
    return xc_inet_out(xc_inet_sum_long(sum, data, len), fold);
}

#define XC_INET_ALIGN_TARGETS XC_ALIGN_JUMPS

XC_INET_AVX512_TARGET XC_ALIGNED(64) XC_INET_ALIGN_TARGETS
uint32_t xc_inet_sum_x64_avx512(uint32_t sum, const uint8_t *data, size_t len)
{
    return xc_inet_sum_body(sum, data, len, 0, 0);
}

XC_INET_VNNI_TARGET XC_ALIGNED(64) XC_INET_ALIGN_TARGETS
uint32_t xc_inet_sum_x64_avx512vnni(uint32_t sum, const uint8_t *data, size_t len)
{
    return xc_inet_sum_body(sum, data, len, 1, 0);
}

/* The checksum entries: the same paths with the fold inside, so that
 * xc_inet_checksum() is a single jump through the table as well. */
XC_INET_AVX512_TARGET XC_ALIGNED(64) XC_INET_ALIGN_TARGETS
uint16_t xc_inet_checksum_x64_avx512(const uint8_t *data, size_t len)
{
    return (uint16_t)xc_inet_sum_body(0, data, len, 0, 1);
}

XC_INET_VNNI_TARGET XC_ALIGNED(64) XC_INET_ALIGN_TARGETS
uint16_t xc_inet_checksum_x64_avx512vnni(const uint8_t *data, size_t len)
{
    return (uint16_t)xc_inet_sum_body(0, data, len, 1, 1);
}

#endif /* XC_ARCH_X64 */
