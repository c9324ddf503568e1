/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CRC32C internals shared by the entry points and every kernel: the tables,
 * multiplication modulo the polynomial, powers of x, and the short-input
 * paths built on the crc32 instructions.
 *
 * Notation.  P = x^32 + x^28 + x^27 + ... + 1 is Castagnoli's polynomial
 * (0x1EDC6F41 written MSB first).  CRC32C is "reflected": a 32-bit value v
 * stands for the polynomial sum(v_i * x^(31-i)), bit 0 being the highest
 * degree, which is why the polynomial appears as 0x82F63B78.  Likewise a
 * 64-bit value stands for sum(w_i * x^(63-i)) and a 128-bit vector lane for
 * sum(q_i * x^(127-i)); a little-endian load of message bytes gives exactly
 * that order, the first byte's bit 0 being the highest degree.
 *
 * Kernels work on the register state c = ~crc (the public value is the
 * register inverted before and after).  Feeding a message M from state s
 * gives s * x^(8|M|) + M(x) * x^32 (mod P), which is linear in s and in M.
 *
 * The crc32 instruction (SSE4.2 crc32q, ARMv8 CRC32CX) on a 64-bit word w
 * from state c computes (W + c * x^64) * x^32 mod P, W being w's polynomial;
 * with c = 0 it reduces any 64-bit polynomial W to W * x^32 mod P.  A
 * carry-less multiply of two reflected 32-bit values a, b gives a 63-bit
 * product which, read as a reflected 64-bit value, is A * B * x.  Together:
 *
 *     mul(a, b) = crc32q(0, clmul(a, b)) = A * B * x^33 (mod P),
 *
 * so multiplying the state c by x^(8n) (appending n zero bytes, "shifting" by
 * n bytes) is mul(c, K) with the constant K = x^(8n - 33) mod P.  Every
 * constant below is stored in that form, and products of such constants stay
 * in it: mul(x^(a-33), x^(b-33)) = x^(a+b-33).
 */
#ifndef XC_CRC32C_INTERNAL_H
#define XC_CRC32C_INTERNAL_H

#include "xc_internal.h"

#if defined(XC_ARCH_X64)
#  include <immintrin.h>
#elif defined(XC_ARCH_ARM64)
#  include <arm_acle.h>
#  include <arm_neon.h>
#endif

/* xc_crc32c_table[k][b]: the state after byte b then k zero bytes, from
 * state 0 (slice-by-8; defined in portable/crc32c_portable.c). */
XC_HIDDEN extern const uint32_t xc_crc32c_table[8][256];

/* xc_crc32c_pow16[t][d] = x^(8 * d * 16^t - 33) mod P: the multiplier that
 * shifts a state by d * 16^t bytes.  Column 0 holds x^-33, the identity of
 * mul().  A shift by any 64-bit byte count n takes one factor per nonzero
 * hexadecimal digit of n (defined in crc32c.c). */
XC_HIDDEN extern const uint32_t xc_crc32c_pow16[16][16];

/* ---- portable arithmetic ------------------------------------------------ */

/* What crc32q computes, from the slice-by-8 tables. */
static inline uint32_t xc_crc32c_word_soft(uint32_t c, uint64_t w)
{
    w ^= c;
    return xc_crc32c_table[7][w & 0xff] ^ xc_crc32c_table[6][(w >> 8) & 0xff] ^
           xc_crc32c_table[5][(w >> 16) & 0xff] ^ xc_crc32c_table[4][(w >> 24) & 0xff] ^
           xc_crc32c_table[3][(w >> 32) & 0xff] ^ xc_crc32c_table[2][(w >> 40) & 0xff] ^
           xc_crc32c_table[1][(w >> 48) & 0xff] ^ xc_crc32c_table[0][w >> 56];
}

/* Carry-less 32 x 32 -> 64 multiply, four bits of b at a time. */
static inline uint64_t xc_clmul32_soft(uint32_t a, uint32_t b)
{
    uint64_t m[16];
    m[0] = 0;
    m[1] = a;
    for (unsigned i = 2; i < 16; i += 2) {
        m[i] = m[i / 2] << 1;
        m[i + 1] = m[i] ^ a;
    }
    uint64_t r = 0;
    for (unsigned s = 0; s < 32; s += 4) r ^= m[(b >> s) & 15] << s;
    return r;
}

static inline uint32_t xc_crc32c_mul_soft(uint32_t a, uint32_t b)
{
    return xc_crc32c_word_soft(0, xc_clmul32_soft(a, b));
}

/* x^(8n - 33) mod P: the multiplier that shifts a state by n bytes. */
static inline uint32_t xc_crc32c_xpow8n_soft(uint64_t n)
{
    uint32_t acc = xc_crc32c_pow16[0][n & 15];
    for (unsigned t = 1; (n >>= 4) != 0; t++)
        if (n & 15) acc = xc_crc32c_mul_soft(acc, xc_crc32c_pow16[t][n & 15]);
    return acc;
}

/* ---- x64: crc32 and pclmulqdq -------------------------------------------- */
#if defined(XC_ARCH_X64)

/* The state is kept in 64-bit variables: crc32q zero-extends its result,
 * and a uint32_t state would cost a zero-extending mov (one more cycle of
 * latency on Zen 4) between every two dependent crc32q. */
#  define XC_CRC32C_WORD_X64(c, w) _mm_crc32_u64((c), (w))

/* One step of the three scalar streams beside a vector region: each of
 * c0, c1, c2 takes the next `bytes` bytes (a multiple of 8) of its own
 * stream s0, s1, s2, and the pointers move past them.  The three chains are
 * independent, so the crc32q unit overlaps them with the vector folds. */
#  define XC_CRC32C_X64_STREAMS3(c0, c1, c2, s0, s1, s2, bytes)                            \
      do {                                                                                   \
          for (size_t i_ = 0; i_ < (bytes); i_ += 8) {                                       \
              (c0) = XC_CRC32C_WORD_X64((c0), xc_read_le64((s0) + i_));                      \
              (c1) = XC_CRC32C_WORD_X64((c1), xc_read_le64((s1) + i_));                      \
              (c2) = XC_CRC32C_WORD_X64((c2), xc_read_le64((s2) + i_));                      \
          }                                                                                  \
          (s0) += (bytes);                                                                   \
          (s1) += (bytes);                                                                   \
          (s2) += (bytes);                                                                   \
      } while (0)

#  define XC_HW_NAME(op) xc_crc32c_x64_##op
#  define XC_HW_TARGET_CRC XC_TARGET("sse4.2")
#  define XC_HW_TARGET_MUL XC_TARGET("sse4.2,pclmul")
#  define XC_HW_WORD(c, w) XC_CRC32C_WORD_X64(c, w)
#  define XC_HW_WORD32(c, w) ((uint64_t)_mm_crc32_u32((uint32_t)(c), (w)))
#  define XC_HW_CLMUL(a, b)                                                                  \
      ((uint64_t)_mm_cvtsi128_si64(                                                          \
          _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)(a)), _mm_cvtsi32_si128((int)(b)), 0x00)))
#  include "crc32c_hw_tmpl.h"

#endif /* XC_ARCH_X64 */

/* ---- Arm64: CRC32C* and PMULL ---------------------------------------------- */
#if defined(XC_ARCH_ARM64)

/* Takes and returns a 64-bit state, like the x64 macro, so that the code
 * can be shared; on Arm64 the conversions are free. */
#  define XC_CRC32C_WORD_ARM64(c, w) ((uint64_t)__crc32cd((uint32_t)(c), (w)))

/* GCC 12 offers vmull_p64 to "+crypto" code, not to "+aes" alone. */
#  define XC_HW_NAME(op) xc_crc32c_arm64_##op
#  define XC_HW_TARGET_CRC XC_TARGET("+crc")
#  define XC_HW_TARGET_MUL XC_TARGET("+crc+crypto")
#  define XC_HW_WORD(c, w) XC_CRC32C_WORD_ARM64(c, w)
#  define XC_HW_WORD32(c, w) ((uint64_t)__crc32cw((uint32_t)(c), (w)))
#  define XC_HW_CLMUL(a, b) vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64((a), (b))), 0)
#  include "crc32c_hw_tmpl.h"

#endif /* XC_ARCH_ARM64 */

#endif /* XC_CRC32C_INTERNAL_H */
