/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Template: the CRC32C helpers built on a 64-bit crc32 instruction and a
 * carry-less multiply, included by crc32c_internal.h once for x64 (crc32q,
 * PCLMULQDQ) and once for Arm64 (CRC32CX, PMULL), which compute the same
 * thing.  Every function is static inline; the kernels inline them into
 * code compiled for their own, wider, targets.
 *
 * Parameters, #undef'ed at the end:
 *   XC_HW_NAME(op)      the name of helper op for this ISA
 *   XC_HW_TARGET_CRC    target attribute for the crc32 instruction
 *   XC_HW_TARGET_MUL    target attribute for crc32 and carry-less multiply
 *   XC_HW_WORD(c, w)    the crc32 instruction: 64-bit state c, 64-bit word w
 *   XC_HW_CLMUL(a, b)   carry-less product of two 32-bit values, 64 bits
 */

/*
 * The state after t more bytes (1 <= t <= 7), given in the top t bytes of
 * `top` (the low 8 - t bytes are ignored).  One crc32 does it: the state is
 * XORed into the first four data bytes as usual, the bytes before them are
 * zeros (which leave a zero state unchanged), and when t < 4 the part of the
 * state that is not yet consumed, c >> 8t, is already reduced and is added
 * afterwards.
 */
XC_HW_TARGET_CRC XC_FORCE_INLINE uint32_t XC_HW_NAME(partial)(uint32_t c, uint64_t top, size_t t)
{
    unsigned sh = (unsigned)(64 - 8 * t);
    uint64_t x = ((top >> sh) << sh) ^ ((uint64_t)c << sh);
    return (uint32_t)XC_HW_WORD(0, x) ^ (uint32_t)((uint64_t)c >> (8 * t));
}

/*
 * k <= 8 words at p, without a loop: the bits of k select runs of 8, 4, 2
 * and 1 words.  A loop whose trip count varies ends in a branch that keeps
 * the core from overlapping independent calls (measured on Zen 4: 64 bytes
 * in 4.9 ns with a loop, 2.2 ns straight-line), and short inputs are where
 * that matters.
 */
XC_HW_TARGET_CRC XC_FORCE_INLINE uint64_t XC_HW_NAME(words)(uint64_t s, const uint8_t *p, size_t k)
{
    if (k & 8) {
        s = XC_HW_WORD(s, xc_read_le64(p));
        s = XC_HW_WORD(s, xc_read_le64(p + 8));
        s = XC_HW_WORD(s, xc_read_le64(p + 16));
        s = XC_HW_WORD(s, xc_read_le64(p + 24));
        s = XC_HW_WORD(s, xc_read_le64(p + 32));
        s = XC_HW_WORD(s, xc_read_le64(p + 40));
        s = XC_HW_WORD(s, xc_read_le64(p + 48));
        s = XC_HW_WORD(s, xc_read_le64(p + 56));
        p += 64;
    }
    if (k & 4) {
        s = XC_HW_WORD(s, xc_read_le64(p));
        s = XC_HW_WORD(s, xc_read_le64(p + 8));
        s = XC_HW_WORD(s, xc_read_le64(p + 16));
        s = XC_HW_WORD(s, xc_read_le64(p + 24));
        p += 32;
    }
    if (k & 2) {
        s = XC_HW_WORD(s, xc_read_le64(p));
        s = XC_HW_WORD(s, xc_read_le64(p + 8));
        p += 16;
    }
    if (k & 1) s = XC_HW_WORD(s, xc_read_le64(p));
    return s;
}

/*
 * Short inputs: unaligned 8-byte loads straight into crc32, then the last
 * len mod 8 bytes in one more crc32 from an 8-byte load that ends at the end
 * of the buffer (it overlaps bytes already done; partial() masks them).
 * Below 8 bytes the bytes are gathered with loads that stay inside the
 * buffer.  No loop runs byte by byte, nothing depends on alignment, and up
 * to 64 bytes there is no loop at all.  Lengths that are multiples of 8 skip
 * partial(): on Zen 4 its shifts compete with crc32q for the same ALU, which
 * shows when calls overlap.  8 to 16 bytes, the most common lengths of all,
 * have a path of their own with as few branches as possible.
 */
XC_HW_TARGET_CRC XC_FORCE_INLINE uint32_t XC_HW_NAME(short)(uint32_t c, const uint8_t *p,
                                                             size_t len)
{
    if (XC_LIKELY(len >= 8)) {
        const uint8_t *end = p + len;
        uint64_t s = c;
        if (len <= 16) {
            s = XC_HW_WORD(s, xc_read_le64(p));
            if (len == 16) return (uint32_t)XC_HW_WORD(s, xc_read_le64(p + 8));
            if (len == 8) return (uint32_t)s;
            if (len == 12) return (uint32_t)XC_HW_WORD32(s, xc_read_le32(end - 4));
            return XC_HW_NAME(partial)((uint32_t)s, xc_read_le64(end - 8), len - 8);
        }
        for (; XC_UNLIKELY((size_t)(end - p) > 64); p += 64) s = XC_HW_NAME(words)(s, p, 8);
        size_t rest = (size_t)(end - p);
        s = XC_HW_NAME(words)(s, p, rest / 8);
        /* A 4-byte tail (20 bytes: an IPv4 header, or SCTP's 12-byte
         * header past 8) is one 32-bit crc32, with none of partial()'s
         * shifts on the chain: 20 bytes 2.6 -> 2.2 ns. */
        if ((rest & 7) == 4) return (uint32_t)XC_HW_WORD32(s, xc_read_le32(end - 4));
        if (rest & 7) return XC_HW_NAME(partial)((uint32_t)s, xc_read_le64(end - 8), rest & 7);
        return (uint32_t)s;
    }
    if (len == 0) return c;
    uint64_t w;
    if (len >= 4) {
        w = xc_read_le32(p) | (uint64_t)xc_read_le32(p + len - 4) << (8 * (len - 4));
    } else {
        w = p[0] | (uint64_t)p[len / 2] << (8 * (len / 2)) |
            (uint64_t)p[len - 1] << (8 * (len - 1));
    }
    return XC_HW_NAME(partial)(c, w << (64 - 8 * len), len);
}

/* The carry-less product alone: several can be XORed and reduced by one
 * crc32 (the reduction is linear). */
XC_HW_TARGET_MUL XC_FORCE_INLINE uint64_t XC_HW_NAME(mulraw)(uint32_t a, uint32_t b)
{
    return XC_HW_CLMUL(a, b);
}

/* a * b * x^33 mod P (see crc32c_internal.h). */
XC_HW_TARGET_MUL XC_FORCE_INLINE uint32_t XC_HW_NAME(mul)(uint32_t a, uint32_t b)
{
    return (uint32_t)XC_HW_WORD(0, XC_HW_CLMUL(a, b));
}

/* x^(8n - 33) mod P: the multiplier that shifts a state by n bytes. */
XC_HW_TARGET_MUL static inline uint32_t XC_HW_NAME(xpow8n)(uint64_t n)
{
    uint32_t acc = xc_crc32c_pow16[0][n & 15];
    for (unsigned t = 1; (n >>= 4) != 0; t++)
        if (n & 15) acc = XC_HW_NAME(mul)(acc, xc_crc32c_pow16[t][n & 15]);
    return acc;
}

/* The same for n < 2^24, as a tree instead of a chain (depth two below
 * 2^16, three above), so a kernel can start it ahead of its main loop and
 * find it done at the end. */
XC_HW_TARGET_MUL XC_FORCE_INLINE uint32_t XC_HW_NAME(xpow8n_small)(uint32_t n)
{
    uint32_t a = XC_HW_NAME(mul)(xc_crc32c_pow16[0][n & 15], xc_crc32c_pow16[1][(n >> 4) & 15]);
    if (n < (1u << 12)) return XC_HW_NAME(mul)(a, xc_crc32c_pow16[2][(n >> 8) & 15]);
    uint32_t b = XC_HW_NAME(mul)(xc_crc32c_pow16[2][(n >> 8) & 15],
                                 xc_crc32c_pow16[3][(n >> 12) & 15]);
    if (n < (1u << 16)) return XC_HW_NAME(mul)(a, b);
    uint32_t d = XC_HW_NAME(mul)(xc_crc32c_pow16[4][(n >> 16) & 15],
                                 xc_crc32c_pow16[5][(n >> 20) & 15]);
    return XC_HW_NAME(mul)(XC_HW_NAME(mul)(a, b), d);
}

#undef XC_HW_NAME
#undef XC_HW_TARGET_CRC
#undef XC_HW_TARGET_MUL
#undef XC_HW_WORD
#undef XC_HW_CLMUL
