/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internet checksum (RFC 1071) arithmetic shared by the entry points and by
 * every kernel.
 *
 * The checksum adds 16-bit words in ones'-complement arithmetic, which is
 * addition modulo 2^16 - 1 (0xFFFF).  Since 2^16 = 1 (mod 0xFFFF), also
 * 2^32 = 1 and 2^64 = 1, so two things follow:
 *   - a wide accumulator is reduced by adding its halves (the end-around
 *     carry), at any width: 64 to 32 bits and 32 to 16 bits alike;
 *   - a 32-bit word b0b1b2b3 read as one number is congruent to the sum of
 *     its two 16-bit halves, so kernels may add 32-bit or 64-bit loads and
 *     reduce only at the end.
 *
 * Byte order.  Kernels add native loads.  On a big-endian CPU a native load
 * is a sum of big-endian 16-bit words, exactly what the RFC adds.  On a
 * little-endian CPU it is a sum of byte-swapped words, and swapping the
 * bytes of a ones'-complement sum gives the sum of the swapped words (RFC
 * 1071 section 2(B)).  Swapping the two bytes of a 16-bit value multiplies
 * it by 2^8 modulo 0xFFFF; modulo 2^32 - 1, a multiple of 0xFFFF, a
 * multiplication by 2^8 is a rotation by 8 bits.  So a little-endian kernel
 * rotates its 32-bit partial sum once at the end, and xc_inet_combine()
 * uses the same rotation for a piece that starts at an odd offset.
 *
 * Zero.  Ones' complement has two zeros, 0x0000 and 0xFFFF, and the field
 * value tells them apart.  Every kernel computes the exact integer total of
 * its loads (the vector ones subtract only to recover such a total), then
 * folds with end-around carry and rotates, and neither step turns a
 * non-zero value into zero.  So a partial sum is zero exactly when the
 * starting sum and every data word are zero, whatever the kernel, and
 * xc_inet_fold() of two kernels' results agree exactly, not merely modulo
 * 0xFFFF.
 */
#ifndef XC_INET_INTERNAL_H
#define XC_INET_INTERNAL_H

#include "xc_internal.h"

/* The scalar loop's four 64-bit accumulators each take four 32-bit words
 * per 64 bytes; draining them into the running total once a gibibyte keeps
 * every accumulator below 2^59, far from overflow, on any size_t. */
#define XC_INET_SCALAR_CHUNK ((size_t)1 << 30)

/* Rotation left by r bits (0 <= r < 32) with no undefined shift by 32. */
static inline uint32_t xc_inet_rol32(uint32_t x, unsigned r)
{
    return (x << (r & 31)) | (x >> ((32 - r) & 31));
}

/* 64 to 32 bits with end-around carry, branch-free: adding the value to
 * itself rotated by 32 puts hi + lo + carry(hi + lo) in the upper half. */
static inline uint32_t xc_inet_fold64(uint64_t x)
{
    uint64_t t = x + ((x >> 32) | (x << 32));
    return (uint32_t)(t >> 32);
}

/* The value of a checksum field: the partial sum folded to 16 bits and
 * complemented.  Adding the value to itself rotated by 16 leaves hi + lo
 * with its end-around carry in the upper half, with no loop and no branch. */
static inline uint16_t xc_inet_fold16(uint32_t sum)
{
    uint32_t t = sum + xc_inet_rol32(sum, 16);
    return (uint16_t)~(t >> 16);
}

/* a + b in 32-bit ones'-complement arithmetic. */
static inline uint32_t xc_inet_add32(uint32_t a, uint32_t b)
{
    uint64_t t = (uint64_t)a + b;
    return (uint32_t)t + (uint32_t)(t >> 32);
}

/* Turns a kernel's 64-bit total of native loads into the public partial sum,
 * with the caller's starting sum added.  rot is 8 when the total is in
 * byte-swapped words (little-endian loads paired from the buffer's start)
 * and 0 when it already is in big-endian words.  The starting sum is brought
 * into the total's order first, which takes it off the critical path: only
 * one add, the fold and one rotation wait for the data.  Rotating by 8 one
 * way and by 8 the other (24) both multiply by 2^8 modulo 0xFFFF; undoing
 * the first rotation exactly returns an unchanged sum for empty input. */
static inline uint32_t xc_inet_finish(uint64_t total, uint32_t sum, unsigned rot)
{
    return xc_inet_rol32(xc_inet_fold64(total + xc_inet_rol32(sum, rot)), (32 - rot) & 31);
}

/* The rotation that xc_inet_finish() needs for totals of native loads. */
#define XC_INET_NATIVE_ROT (XC_BIG_ENDIAN ? 0u : 8u)

static inline uint64_t xc_inet_load32(const uint8_t *p) { return xc_read32(p); }

/*
 * The total of len bytes at p as native 32-bit words, for every length and
 * alignment (loads go through memcpy, which compiles to one unaligned load).
 * The main loop takes 64 bytes an iteration into four independent 64-bit
 * accumulators, so no carry has to travel from one block to the next; what
 * is left (under 64 bytes) takes at most one step of each power of two.  An
 * odd last byte is the first byte of a 16-bit word padded with zero: the
 * high half of a big-endian word, the low half of a little-endian one.
 *
 * This is the portable kernel and the short-input path of the vector ones,
 * so it is inlined into each and must stay free of ISA-specific code.
 */
XC_FORCE_INLINE uint64_t xc_inet_sum_native(const uint8_t *p, size_t len)
{
    uint64_t total = 0;
    while (len >= 64) {
        size_t n = (len < XC_INET_SCALAR_CHUNK ? len : XC_INET_SCALAR_CHUNK) & ~(size_t)63;
        const uint8_t *stop = p + n;
        uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        len -= n;
        do {
            a0 += xc_inet_load32(p + 0);
            a1 += xc_inet_load32(p + 4);
            a2 += xc_inet_load32(p + 8);
            a3 += xc_inet_load32(p + 12);
            a0 += xc_inet_load32(p + 16);
            a1 += xc_inet_load32(p + 20);
            a2 += xc_inet_load32(p + 24);
            a3 += xc_inet_load32(p + 28);
            a0 += xc_inet_load32(p + 32);
            a1 += xc_inet_load32(p + 36);
            a2 += xc_inet_load32(p + 40);
            a3 += xc_inet_load32(p + 44);
            a0 += xc_inet_load32(p + 48);
            a1 += xc_inet_load32(p + 52);
            a2 += xc_inet_load32(p + 56);
            a3 += xc_inet_load32(p + 60);
            p += 64;
        } while (p != stop);
        total = (uint64_t)xc_inet_fold64(total) + ((a0 + a1) + (a2 + a3));
    }
    /* Two accumulators halve the dependency chain of the 32-byte step. */
    uint64_t t0 = 0, t1 = 0;
    if (len & 32) {
        t0 += xc_inet_load32(p + 0) + xc_inet_load32(p + 8);
        t1 += xc_inet_load32(p + 4) + xc_inet_load32(p + 12);
        t0 += xc_inet_load32(p + 16) + xc_inet_load32(p + 24);
        t1 += xc_inet_load32(p + 20) + xc_inet_load32(p + 28);
        p += 32;
    }
    if (len & 16) {
        t0 += xc_inet_load32(p + 0) + xc_inet_load32(p + 8);
        t1 += xc_inet_load32(p + 4) + xc_inet_load32(p + 12);
        p += 16;
    }
    if (len & 8) {
        t0 += xc_inet_load32(p + 0);
        t1 += xc_inet_load32(p + 4);
        p += 8;
    }
    if (len & 4) {
        t0 += xc_inet_load32(p);
        p += 4;
    }
    if (len & 2) {
        t1 += xc_read16(p);
        p += 2;
    }
    if (len & 1) t0 += XC_BIG_ENDIAN ? (uint64_t)p[0] << 8 : (uint64_t)p[0];
    return total + t0 + t1;
}

#endif /* XC_INET_INTERNAL_H */
