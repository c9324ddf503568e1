/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x64 CRC32C with PCLMULQDQ on 128-bit vectors beside three crc32q streams
 * (SSE4.2 + PCLMULQDQ: every x64 CPU since Westmere and Bulldozer).
 *
 * The arithmetic is that of crc32c_avx512.c on one lane: four 16-byte
 * accumulators fold 64 bytes per step with the constants x^(8d+31) and
 * x^(8d-33) mod P (d = 64 bytes), and the last 128 bits are reduced by two
 * crc32q from state 0 instead of a Barrett reduction.
 *
 * Why streams beside the folding: PCLMULQDQ issues once every two cycles on
 * Zen 4 (once per cycle on recent Intel cores), so folding alone moves 4 to
 * 8 bytes per cycle, about what three crc32q chains move.  Both together, in
 * one loop, add up: 64 vector bytes and 6 words per stream per step give
 * 38 GB/s at 512 KiB on Zen 4, against 28 for the three streams alone
 * (x64-sse42) and 9.6 for one.  The layout and the merge are
 * crc32c_avx512.c's.  The mixed loop wins over crc32q alone from about 400
 * bytes (measured: 448 bytes in 25 ns against 33), hence MIX_MIN = 2 * STEP,
 * which is also the least length the split handles.
 */
#include "../crc32c_internal.h"
#include "kernels.h"

#if defined(XC_ARCH_X64)

#  define PCLMUL_TARGET XC_TARGET("sse4.2,pclmul")

enum {
    WORDS = 6, /* crc32q per stream per 64-byte vector step */
    STEP = 64 + 3 * 8 * WORDS,
    MIX_MIN = 2 * STEP, /* from here: vector and scalar streams together */
    ROUND_MAX = 1 << 22 /* keeps every merge distance below 2^24 bytes */
};

/* Fold constants {x^(8d+31), x^(8d-33)} mod P for a distance of d bytes
 * (printed by the script that made xc_crc32c_pow16, see crc32c.c). */
#  define K16 0xf20c0dfeu, 0x493c7d27u
#  define K32 0x3da6d0cbu, 0xba4fc28eu
#  define K48 0x1c291d04u, 0xddc0152bu
#  define K64 0x740eef02u, 0x9e4addf8u

PCLMUL_TARGET XC_FORCE_INLINE __m128i kpair(uint32_t lo, uint32_t hi)
{
    return _mm_set_epi64x((long long)hi, (long long)lo);
}

PCLMUL_TARGET XC_FORCE_INLINE __m128i load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

PCLMUL_TARGET XC_FORCE_INLINE __m128i mulk(__m128i x, __m128i k)
{
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

/* x * x^d + data. */
PCLMUL_TARGET XC_FORCE_INLINE __m128i fold(__m128i x, __m128i k, __m128i data)
{
    return _mm_xor_si128(mulk(x, k), data);
}

/* Four accumulators of consecutive 16-byte blocks into one, in one level. */
PCLMUL_TARGET XC_FORCE_INLINE __m128i merge(__m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
    __m128i a = _mm_xor_si128(mulk(x0, kpair(K48)), mulk(x1, kpair(K32)));
    return _mm_xor_si128(a, _mm_xor_si128(mulk(x2, kpair(K16)), x3));
}

/* k (1..3) 16-byte blocks at p, the first carrying the state c, moved onto
 * the block that follows them and XORed into x (see crc32c_avx512.c). */
PCLMUL_TARGET XC_FORCE_INLINE __m128i prefix(__m128i x, const uint8_t *p, size_t k, uint32_t c)
{
    __m128i b0 = _mm_xor_si128(load(p), _mm_cvtsi32_si128((int)c));
    if (k == 1) return fold(b0, kpair(K16), x);
    if (k == 2) return fold(b0, kpair(K32), fold(load(p + 16), kpair(K16), x));
    return fold(b0, kpair(K48), fold(load(p + 16), kpair(K32), fold(load(p + 32), kpair(K16), x)));
}

/* The state of 128 bits x from zero, plus the 64-bit polynomial y joined
 * into the second crc32q (linear in its operands). */
PCLMUL_TARGET XC_FORCE_INLINE uint32_t reduce(__m128i x, uint64_t y)
{
    uint64_t c = XC_CRC32C_WORD_X64(0, (uint64_t)_mm_cvtsi128_si64(x));
    return (uint32_t)XC_CRC32C_WORD_X64(c, (uint64_t)_mm_extract_epi64(x, 1) ^ y);
}

/*
 * n bytes, MIX_MIN <= n <= ROUND_MAX: r < 8 leading bytes, a vector region
 * of v bytes (a multiple of 16) and three scalar streams of s bytes; the
 * 128-bit version of crc32c_avx512.c's mixed(), which explains the split.
 */
PCLMUL_TARGET XC_FORCE_INLINE uint32_t mixed(uint32_t c, const uint8_t *p, size_t n)
{
    size_t r = n & 7;
    c = xc_crc32c_x64_short(c, p, r);
    p += r;
    n -= r;
    size_t m = n / STEP;
    size_t rest = n - m * STEP;
    size_t delta = (rest / 8) & 1; /* 24 * delta = rest (mod 16) */
    if (24 * delta > rest) {
        m -= 1;
        rest += STEP;
        delta = (rest / 8) & 1;
    }
    size_t e = (rest - 24 * delta) / 16;
    size_t s = 8 * (WORDS * m + delta);
    size_t v = 64 * m + 16 * e;

    uint32_t k1 = xc_crc32c_x64_xpow8n_small((uint32_t)s);
    uint32_t k2 = xc_crc32c_x64_mul(k1, k1);
    uint32_t k3 = xc_crc32c_x64_mul(k2, k1);

    const uint8_t *s0 = p + v, *s1 = s0 + s, *s2 = s1 + s;
    uint64_t c0 = 0, c1 = 0, c2 = 0;
    if (delta) {
        c0 = XC_CRC32C_WORD_X64(c0, xc_read_le64(s0));
        c1 = XC_CRC32C_WORD_X64(c1, xc_read_le64(s1));
        c2 = XC_CRC32C_WORD_X64(c2, xc_read_le64(s2));
        s0 += 8;
        s1 += 8;
        s2 += 8;
    }

    const __m128i k64 = kpair(K64);
    const uint8_t *q = p + 16 * (e % 4);
    __m128i x0 = load(q), x1 = load(q + 16), x2 = load(q + 32), x3 = load(q + 48);
    x0 = e % 4 ? prefix(x0, p, e % 4, c) : _mm_xor_si128(x0, _mm_cvtsi32_si128((int)c));
    q += 64;
    XC_CRC32C_X64_STREAMS3(c0, c1, c2, s0, s1, s2, 8 * WORDS);
    for (size_t j = 1; j < m; j++) {
        x0 = fold(x0, k64, load(q));
        x1 = fold(x1, k64, load(q + 16));
        x2 = fold(x2, k64, load(q + 32));
        x3 = fold(x3, k64, load(q + 48));
        q += 64;
        XC_CRC32C_X64_STREAMS3(c0, c1, c2, s0, s1, s2, 8 * WORDS);
    }
    for (size_t j = e / 4; j > 0; j--, q += 64) {
        x0 = fold(x0, k64, load(q));
        x1 = fold(x1, k64, load(q + 16));
        x2 = fold(x2, k64, load(q + 32));
        x3 = fold(x3, k64, load(q + 48));
    }

    /* The vector result moves by 3s bytes (constants k3 * x^64, k3). */
    __m128i x = merge(x0, x1, x2, x3);
    x = mulk(x, _mm_set_epi64x((long long)k3, (long long)XC_CRC32C_WORD_X64(0, k3)));
    uint64_t y = xc_crc32c_x64_mulraw((uint32_t)c0, k2) ^ xc_crc32c_x64_mulraw((uint32_t)c1, k1);
    return reduce(x, y) ^ (uint32_t)c2;
}

/* Long inputs, in rounds that keep the merge distances below 2^24. */
PCLMUL_TARGET XC_FORCE_INLINE uint32_t long_body(uint32_t c, const uint8_t *p, size_t len)
{
    while (len >= MIX_MIN) {
        size_t n = len <= ROUND_MAX ? len : ROUND_MAX;
        c = mixed(c, p, n);
        p += n;
        len -= n;
    }
    return xc_crc32c_x64_short(c, p, len);
}

/*
 * Two builds of the same code.  Legacy-SSE encoded instructions that write
 * an XMM register merge into the upper bits of the YMM/ZMM register, so after
 * code that leaves those bits dirty without VZEROUPPER (ISA-L's AVX-512
 * crc32_iscsi does), they wait on them: measured on Zen 4, the SSE build
 * then runs at half speed.  CPUs with AVX get the VEX-encoded build, which
 * has no such dependence; the SSE build is for the others.
 */
PCLMUL_TARGET XC_NOINLINE static uint32_t long_sse(uint32_t c, const uint8_t *p, size_t len)
{
    return long_body(c, p, len);
}

XC_TARGET("avx2,sse4.2,pclmul") XC_NOINLINE static uint32_t long_avx(uint32_t c, const uint8_t *p,
                                                                     size_t len)
{
    return long_body(c, p, len);
}

/* The entries start on a 64-byte boundary, their branch targets too (see
 * crc32c_avx512.c). */
PCLMUL_TARGET XC_ALIGNED(64) XC_ALIGN_JUMPS
uint32_t xc_crc32c_x64_pclmul(uint32_t crc, const uint8_t *p, size_t len)
{
    if (XC_LIKELY(len < MIX_MIN)) return ~xc_crc32c_x64_short(~crc, p, len);
    return ~long_sse(~crc, p, len);
}

XC_TARGET("avx2,sse4.2,pclmul") XC_ALIGNED(64) XC_ALIGN_JUMPS
uint32_t xc_crc32c_x64_avx2(uint32_t crc, const uint8_t *p, size_t len)
{
    if (XC_LIKELY(len < MIX_MIN)) return ~xc_crc32c_x64_short(~crc, p, len);
    return ~long_avx(~crc, p, len);
}

#endif /* XC_ARCH_X64 */
