/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x64 CRC32C with VPCLMULQDQ on 512-bit vectors running beside three crc32q
 * streams (AVX-512 F/BW/VL/DQ + VPCLMULQDQ + SSE4.2).
 *
 * Folding.  A 128-bit lane X = Q0 * x^64 + Q1 (Q0 the low qword, which holds
 * the higher powers in the reflected order) is moved d bits further along
 * the message, X * x^d = Q0 * x^(64+d) + Q1 * x^d (mod P), with two
 * carry-less multiplies: a 64 x 32 product read as a reflected 128-bit value
 * carries an extra x^33 (see crc32c_internal.h), so the constants are
 * x^(d+31) for the low qword and x^(d-33) for the high one, both mod P and 32
 * bits wide.  Folding the accumulator over the next block and XORing the
 * block in keeps a value congruent to the message polynomial; at the end its
 * 128 bits go through two crc32q from state 0, which multiplies by x^32 and
 * reduces: no Barrett step.
 *
 * Ports.  On Zen 4 VPCLMULQDQ issues every other cycle at any width (so
 * 512 bits it is), crc32q once per cycle, and the two mostly overlap:
 * measured, a 256-byte folding step (8 VPCLMULQDQ, 16 cycles) keeps its 16
 * cycles with up to 9 crc32q beside it, but takes 17 with 12 and 19 with 15.
 * Long inputs are therefore cut into one vector region and three scalar
 * streams, advancing together in one loop (as corsix's fast-crc32 generator
 * does) at 256 + 3 x 24 bytes per step: 20.5 bytes per cycle, 75 GB/s at
 * 3.7 GHz, where folding alone gives 16 (ISA-L's AVX-512 code, 58 GB/s).
 * The streams are merged at the end by multiplying each state by
 * x^(8 * bytes after it) mod P; those powers depend on the length and are
 * computed from xc_crc32c_pow16 before the loop, in its shadow.
 *
 * Zen 5 (AMD family 1Ah) keeps the crc32q unit busier beside the folds:
 * five words per stream per step measured best there (105 GB/s at 512 KiB
 * against 88 with three; four gave 98, six 100, seven and eight 86 and 83),
 * so it gets an entry point of its own, xc_crc32c_x64_avx512w, chosen by
 * cpucap.  Frames of work differ, the results do not.
 *
 * Sizes (docs/crc32c.md has the measurements): below SHORT_MAX, crc32q
 * over 8-byte words (crc32c_internal.h), which beats folding's fixed cost up
 * to about 128 bytes; below MIX_MIN, folding alone, since under 4 KiB the
 * merge costs more than the streams save; above, the mixed loop.
 */
#include "../crc32c_internal.h"
#include "kernels.h"

#if defined(XC_ARCH_X64)

#  define AVX512_TARGET                                                                          \
      XC_TARGET("sse4.2,pclmul,avx2,avx512f,avx512bw,avx512vl,avx512dq,vpclmulqdq")

enum {
    SHORT_MAX = 129, /* below: crc32q only */
    MIX_MIN = 4096,  /* from here: vector and scalar streams together */
    WORDS = 3,       /* crc32q per stream per 256-byte vector step */
    WORDS_WIDE = 5,  /* the same on Zen 5 */
    ROUND_MAX = 1 << 22 /* keeps every merge distance below 2^24 bytes */
};

/* Fold constants {x^(8d+31), x^(8d-33)} mod P for a distance of d bytes.
 * These and the tables below were printed by the throwaway script that made
 * xc_crc32c_pow16 (crc32c.c); the tests check every path that uses them. */
#  define K64 0x740eef02u, 0x9e4addf8u
#  define K128 0x6992cea2u, 0x0d3b6092u
#  define K192 0xa87ab8a8u, 0xab7aff2au
#  define K256 0xdcb17aa4u, 0xb9e02b86u

/* Fold pairs, per lane, that move lane j of accumulator i (four accumulators
 * holding consecutive 64-byte blocks) to the very end: 64(3-i) + 16(3-j)
 * bytes.  Lane 3 of the last accumulator moves by zero: {x^31, x^-33}. */
static const uint64_t XC_ALIGNED(64) merge_k[4][8] = {
    {0xffd852c6, 0x299847d5, 0x71d111a8, 0x83348832,
     0x8462d800, 0x2162d385, 0xa87ab8a8, 0xab7aff2a},
    {0xf1d0f55e, 0xdaece73e, 0x1b3d8f29, 0x878a92a7,
     0x7e908048, 0xc96cfdc0, 0x6992cea2, 0x0d3b6092},
    {0x2ad91c30, 0x47db8317, 0xc49f4f67, 0x0715ce53,
     0x083a6eec, 0x39d3b296, 0x740eef02, 0x9e4addf8},
    {0x1c291d04, 0xddc0152b, 0x3da6d0cb, 0xba4fc28e,
     0xf20c0dfe, 0x493c7d27, 0x00000001, 0xa9cdda0d},
};

AVX512_TARGET XC_FORCE_INLINE __m512i bcast(uint32_t lo, uint32_t hi)
{
    return _mm512_broadcast_i32x4(_mm_set_epi64x((long long)hi, (long long)lo));
}

AVX512_TARGET XC_FORCE_INLINE __m512i load(const uint8_t *p) { return _mm512_loadu_si512(p); }

AVX512_TARGET XC_FORCE_INLINE __m512i with_state(__m512i z, uint32_t c)
{
    return _mm512_xor_si512(z, _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)c)));
}

/* x * x^d + data, four lanes at once. */
AVX512_TARGET XC_FORCE_INLINE __m512i fold(__m512i x, __m512i k, __m512i data)
{
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
                                     _mm512_clmulepi64_epi128(x, k, 0x11), data, 0x96);
}

AVX512_TARGET XC_FORCE_INLINE __m128i xor_lanes(__m512i t)
{
    __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(t), _mm512_extracti64x4_epi64(t, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

/* Four accumulators of consecutive 64-byte blocks to 128 bits congruent to
 * their polynomial: every lane moves to the end in one level of multiplies,
 * then three-way XORs and the XOR across lanes. */
AVX512_TARGET XC_FORCE_INLINE __m128i merge(__m512i z0, __m512i z1, __m512i z2, __m512i z3)
{
    const __m512i k0 = _mm512_load_si512(merge_k[0]), k1 = _mm512_load_si512(merge_k[1]);
    const __m512i k2 = _mm512_load_si512(merge_k[2]), k3 = _mm512_load_si512(merge_k[3]);
    __m512i a = _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z0, k0, 0x00),
                                          _mm512_clmulepi64_epi128(z0, k0, 0x11),
                                          _mm512_clmulepi64_epi128(z1, k1, 0x00), 0x96);
    __m512i b = _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z1, k1, 0x11),
                                          _mm512_clmulepi64_epi128(z2, k2, 0x00),
                                          _mm512_clmulepi64_epi128(z2, k2, 0x11), 0x96);
    __m512i d = _mm512_xor_si512(_mm512_clmulepi64_epi128(z3, k3, 0x00),
                                 _mm512_clmulepi64_epi128(z3, k3, 0x11));
    return xor_lanes(_mm512_ternarylogic_epi64(a, b, d, 0x96));
}

/* Four accumulators of consecutive blocks folded onto the last, as a tree
 * (two levels of latency instead of three). */
AVX512_TARGET XC_FORCE_INLINE __m512i merge3(__m512i z0, __m512i z1, __m512i z2, __m512i z3)
{
    const __m512i k128 = bcast(K128);
    return fold(fold(z0, k128, z2), bcast(K64), fold(z1, k128, z3));
}

/* k (1..3) 64-byte blocks at p, the first carrying the state c, moved onto
 * the block that follows them and XORed into z, which holds that block.
 * Done before a folding loop, this costs the loop nothing: each
 * accumulator's chain has slack (5 cycles of latency per 16 of
 * throughput). */
AVX512_TARGET XC_FORCE_INLINE __m512i prefix(__m512i z, const uint8_t *p, size_t k, uint32_t c)
{
    __m512i b0 = with_state(load(p), c);
    if (k == 1) return fold(b0, bcast(K64), z);
    if (k == 2) return fold(b0, bcast(K128), fold(load(p + 64), bcast(K64), z));
    return fold(b0, bcast(K192),
                fold(load(p + 64), bcast(K128), fold(load(p + 128), bcast(K64), z)));
}

/* The state of 128 bits x from zero (x * x^32 mod P), plus the 64-bit
 * polynomial y, which joins the second crc32q (linear in its operands). */
AVX512_TARGET XC_FORCE_INLINE uint32_t reduce(__m128i x, uint64_t y)
{
    uint64_t c = XC_CRC32C_WORD_X64(0, (uint64_t)_mm_cvtsi128_si64(x));
    return (uint32_t)XC_CRC32C_WORD_X64(c, (uint64_t)_mm_extract_epi64(x, 1) ^ y);
}

/* The state of 64 bytes z from zero: eight crc32q. */
AVX512_TARGET XC_FORCE_INLINE uint32_t reduce64(__m512i z)
{
    uint64_t w[8];
    _mm512_storeu_si512(w, z);
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) c = XC_CRC32C_WORD_X64(c, w[i]);
    return (uint32_t)c;
}

/*
 * Folding alone, for SHORT_MAX <= len < MIX_MIN.  The len mod 64 bytes at the
 * start go through crc32q, and the state they leave enters the first
 * vector, so that the vectors end with the buffer and nothing has to be
 * moved past a tail.  When there are four blocks or more, the first (blocks
 * mod 4) of them are folded into the first accumulator before the loop, so
 * that no block is left over at the end, where it would lengthen the chain.
 * The four accumulators are folded onto the last one, and its 64 bytes go
 * through eight crc32q from state 0 (reduce64), which take the crc32q unit
 * that folding leaves idle instead of two more VPCLMULQDQ and the XORs across
 * lanes.  Measured from bench/installed on Zen 5 against the previous
 * arrangement (the tail from zero beside the vectors, moved with two
 * PCLMULQDQ, every lane moved to the end with eight VPCLMULQDQ): 256 bytes
 * 38 -> 44 GB/s, 576 bytes 54 -> 56, 1500 bytes 55 -> 56 for calls that do
 * not wait for each other.  A chain of calls that each wait for the last one
 * pays for it: 256 bytes 9.8 -> 12.4 ns, 576 bytes 14 -> 16.5 ns, still
 * ahead of ISA-L's 20 and 33 ns (docs/crc32c.md).
 */
AVX512_TARGET XC_NOINLINE static uint32_t vector_only(uint32_t c, const uint8_t *p, size_t len)
{
    size_t nb = len / 64, t = len % 64;
    const uint8_t *end = p + len;
    if (t) c = xc_crc32c_x64_short(c, p, t);
    p += t;

    __m512i z;
    if (nb >= 4) {
        size_t k = nb % 4;
        const uint8_t *q = p + 64 * k;
        __m512i z0 = load(q), z1 = load(q + 64), z2 = load(q + 128), z3 = load(q + 192);
        z0 = k ? prefix(z0, p, k, c) : with_state(z0, c);
        const __m512i k256 = bcast(K256);
        for (q += 256; q < end; q += 256) {
            z0 = fold(z0, k256, load(q));
            z1 = fold(z1, k256, load(q + 64));
            z2 = fold(z2, k256, load(q + 128));
            z3 = fold(z3, k256, load(q + 192));
        }
        z = merge3(z0, z1, z2, z3);
    } else {
        const uint8_t *q = p + 64 * (nb - 1);
        z = load(q);
        z = nb > 1 ? prefix(z, p, nb - 1, c) : with_state(z, c);
    }
    return reduce64(z);
}

/*
 * n bytes, MIX_MIN <= n <= ROUND_MAX, laid out as r < 8 leading bytes, a
 * vector region of v bytes and three scalar streams of s bytes each.  The
 * main loop runs m steps of 256 vector bytes and WORDS words per stream.
 * The rest is shared out so that v is a multiple of 64: each stream gets
 * delta more words (24 * delta = rest mod 64), done before the loop where the
 * chains have slack (9 cycles of latency per 16-cycle step); the vector
 * region gets e more blocks, the e mod 4 first ones folded in before the
 * loop, the others as whole steps after it.  The r leading bytes go through
 * one crc32q whose result enters the vector region as its initial state;
 * the delay is absorbed the same way.
 *
 * The vector region comes first so that the incoming state enters it
 * directly (XORed into its first bytes) and the merge distances depend on s
 * alone: the vector result moves by 3s bytes, the streams by 2s, s and 0.
 */
AVX512_TARGET XC_FORCE_INLINE uint32_t mixed(uint32_t c, const uint8_t *p, size_t n,
                                            size_t const words)
{
    size_t const step = 256 + 3 * 8 * words;
    size_t r = n & 7;
    c = xc_crc32c_x64_short(c, p, r);
    p += r;
    n -= r;
    size_t m = n / step;
    size_t rest = n - m * step;
    size_t delta = (3 * (rest / 8)) & 7;
    if (24 * delta > rest) {
        m -= 1;
        rest += step;
        delta = (3 * (rest / 8)) & 7;
    }
    size_t e = (rest - 24 * delta) / 64;
    size_t s = 8 * (words * m + delta);
    size_t v = 256 * m + 64 * e;

    /* x^(8k - 33) mod P for k = s, 2s, 3s: started here, used after the loop. */
    uint32_t k1 = xc_crc32c_x64_xpow8n_small((uint32_t)s);
    uint32_t k2 = xc_crc32c_x64_mul(k1, k1);
    uint32_t k3 = xc_crc32c_x64_mul(k2, k1);

    const uint8_t *s0 = p + v, *s1 = s0 + s, *s2 = s1 + s;
    uint64_t c0 = 0, c1 = 0, c2 = 0;
    XC_CRC32C_X64_STREAMS3(c0, c1, c2, s0, s1, s2, 8 * delta);

    const __m512i k256 = bcast(K256);
    const uint8_t *q = p + 64 * (e % 4);
    __m512i z0 = load(q), z1 = load(q + 64), z2 = load(q + 128), z3 = load(q + 192);
    z0 = e % 4 ? prefix(z0, p, e % 4, c) : with_state(z0, c);
    q += 256;
    /* The first step's words are peeled off and each later step folds then
     * reads words: measured on Zen 4 with GCC 12, other arrangements of the
     * same instructions ran at 67 to 71 GB/s instead of 75. */
    XC_CRC32C_X64_STREAMS3(c0, c1, c2, s0, s1, s2, 8 * words);
    for (size_t j = 1; j < m; j++) {
        z0 = fold(z0, k256, load(q));
        z1 = fold(z1, k256, load(q + 64));
        z2 = fold(z2, k256, load(q + 128));
        z3 = fold(z3, k256, load(q + 192));
        q += 256;
        XC_CRC32C_X64_STREAMS3(c0, c1, c2, s0, s1, s2, 8 * words);
    }
    for (size_t j = e / 4; j > 0; j--, q += 256) {
        z0 = fold(z0, k256, load(q));
        z1 = fold(z1, k256, load(q + 64));
        z2 = fold(z2, k256, load(q + 128));
        z3 = fold(z3, k256, load(q + 192));
    }
    /* Move the vector result by 3s bytes: the fold constants are
     * x^(24s - 33) = k3 and x^(24s + 31) = k3 * x^64, which is one crc32q of
     * k3 (mul() by x^31, whose reflected form is 1, is a clmul by 1). */
    __m128i x = merge(z0, z1, z2, z3);
    __m128i k = _mm_set_epi64x((long long)k3, (long long)XC_CRC32C_WORD_X64(0, k3));
    x = _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
    uint64_t y = xc_crc32c_x64_mulraw((uint32_t)c0, k2) ^ xc_crc32c_x64_mulraw((uint32_t)c1, k1);
    return reduce(x, y) ^ (uint32_t)c2;
}

/* Long inputs, in rounds that keep the merge distances below 2^24. */
AVX512_TARGET XC_FORCE_INLINE uint32_t long_body(uint32_t c, const uint8_t *p, size_t len,
                                                 size_t const words)
{
    while (len >= MIX_MIN) {
        size_t n = len <= ROUND_MAX ? len : ROUND_MAX;
        c = mixed(c, p, n, words);
        p += n;
        len -= n;
    }
    if (len >= SHORT_MAX) return vector_only(c, p, len);
    return xc_crc32c_x64_short(c, p, len);
}

AVX512_TARGET XC_NOINLINE static uint32_t long_input(uint32_t c, const uint8_t *p, size_t len)
{
    return long_body(c, p, len, WORDS);
}

AVX512_TARGET XC_NOINLINE static uint32_t long_input_wide(uint32_t c, const uint8_t *p,
                                                          size_t len)
{
    return long_body(c, p, len, WORDS_WIDE);
}

/* Each size class calls a function of its own, so that short inputs do not
 * pay the prologue of the long paths (saved registers, a stack realigned for
 * 512-bit spills).  The entry starts on a 64-byte boundary and its branch
 * targets too (XC_ALIGN_JUMPS): short inputs are bound by taken branches,
 * and how their targets fell in the fetch windows moved 16 bytes by 10%
 * between two programs, measured from bench/installed.  wide (a constant
 * after inlining) picks the long path's stream width. */
AVX512_TARGET XC_FORCE_INLINE uint32_t entry(uint32_t crc, const uint8_t *p, size_t len, int wide)
{
    if (XC_LIKELY(len < SHORT_MAX)) return ~xc_crc32c_x64_short(~crc, p, len);
    if (len < MIX_MIN) return ~vector_only(~crc, p, len);
    return wide ? ~long_input_wide(~crc, p, len) : ~long_input(~crc, p, len);
}

AVX512_TARGET XC_ALIGNED(64) XC_ALIGN_JUMPS
uint32_t xc_crc32c_x64_avx512(uint32_t crc, const uint8_t *p, size_t len)
{
    return entry(crc, p, len, 0);
}

AVX512_TARGET XC_ALIGNED(64) XC_ALIGN_JUMPS
uint32_t xc_crc32c_x64_avx512w(uint32_t crc, const uint8_t *p, size_t len)
{
    return entry(crc, p, len, 1);
}

#endif /* XC_ARCH_X64 */
