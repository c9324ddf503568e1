/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Internet checksum with Advanced SIMD (NEON).
 *
 * UADALP (vpadalq_u32) adds adjacent pairs of 32-bit lanes into 64-bit
 * accumulator lanes: one instruction zero-extends, adds and accumulates 16
 * bytes.  A 64-bit lane takes two 32-bit words per instruction, so it
 * cannot overflow before 2^31 instructions; the loop drains its
 * accumulators once every XC_INET_NEON_DRAIN_BLOCKS blocks all the same.
 * UADALP has a latency of 3 to 4 cycles and Cortex-A76/Neoverse cores
 * issue one or two a cycle, so eight accumulators over 128 bytes keep the
 * pipes full with no dependency between consecutive instructions.
 *
 * 16 to 64 bytes, the common case for packet headers, is one path with no
 * branch, as on x64: four 16-byte loads at min(16 i, len - 16), each moved
 * down by TBL so that byte 16 i lands in lane 0 (an index of 16 or more
 * gives zero, which drops the bytes already counted and, for a slot past
 * the end, everything), so every byte is counted once and keeps the parity
 * of its offset, then UADALP.  Buffers under 16 bytes take the scalar
 * code, whose few loads beat any vector setup; longer ones the loops below,
 * whose horizontal sum is a single ADDP.  (These choices are made by
 * reasoning, not measured: this project's Arm64 runs are under qemu, whose
 * timings mean nothing.)
 *
 * The vector loads are byte loads reinterpreted as 32-bit lanes: a lane's
 * value is its four bytes read little-endian, on either byte order of the
 * core, so the vector part is a sum of byte-swapped words and is rotated by
 * 8 at the end like any little-endian total.  The scalar parts (short
 * buffers and the tail) add native loads; on a big-endian core the vector
 * total is rotated into their order before the two are added.
 */
#include "kernels.h"

#if defined(XC_ARCH_ARM64)

#include <arm_neon.h>

#include "../inet_internal.h"

/* Buffers shorter than this take the scalar path. */
#define XC_INET_NEON_MIN 16

/* 128-byte blocks between two drains: each 64-bit lane then takes at most
 * 2^25 pairs of 32-bit words. */
#define XC_INET_NEON_DRAIN_BLOCKS ((size_t)1 << 24)

static inline uint32x4_t xc_inet_ld(const uint8_t *p)
{
    return vreinterpretq_u32_u8(vld1q_u8(p));
}

/* The 16 bytes at p + 16 i - k moved down by k lanes: bytes from
 * p + 16 i on, lanes past 15 - k zero (and all of them for k >= 16). */
static inline uint32x4_t xc_inet_slot(const uint8_t *p, size_t i, size_t len)
{
    const size_t off = XC_MIN(16 * i, len - 16);
    const uint8x16_t iota = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const uint8x16_t idx = vaddq_u8(iota, vdupq_n_u8((uint8_t)(16 * i - off)));
    return vreinterpretq_u32_u8(vqtbl1q_u8(vld1q_u8(p + off), idx));
}

/* 16 to 64 bytes, no branch (above): a total of byte-swapped words. */
static inline uint64_t xc_inet_upto64(const uint8_t *p, size_t len)
{
    uint64x2_t a0 = vpaddlq_u32(xc_inet_slot(p, 0, len));
    uint64x2_t a1 = vpaddlq_u32(xc_inet_slot(p, 1, len));
    a0 = vpadalq_u32(a0, xc_inet_slot(p, 2, len));
    a1 = vpadalq_u32(a1, xc_inet_slot(p, 3, len));
    return vaddvq_u64(vaddq_u64(a0, a1));
}

/* 65 bytes and more. */
static uint32_t xc_inet_long(uint32_t sum, const uint8_t *data, size_t len)
{

    const uint8_t *p = data;
    uint64_t total = 0; /* byte-swapped words */
    while (len >= 128) {
        size_t blocks = XC_MIN(len / 128, XC_INET_NEON_DRAIN_BLOCKS);
        uint64x2_t a0 = vdupq_n_u64(0), a1 = a0, a2 = a0, a3 = a0;
        uint64x2_t a4 = a0, a5 = a0, a6 = a0, a7 = a0;
        len -= blocks * 128;
        do {
            a0 = vpadalq_u32(a0, xc_inet_ld(p + 0));
            a1 = vpadalq_u32(a1, xc_inet_ld(p + 16));
            a2 = vpadalq_u32(a2, xc_inet_ld(p + 32));
            a3 = vpadalq_u32(a3, xc_inet_ld(p + 48));
            a4 = vpadalq_u32(a4, xc_inet_ld(p + 64));
            a5 = vpadalq_u32(a5, xc_inet_ld(p + 80));
            a6 = vpadalq_u32(a6, xc_inet_ld(p + 96));
            a7 = vpadalq_u32(a7, xc_inet_ld(p + 112));
            p += 128;
        } while (--blocks);
        a0 = vaddq_u64(vaddq_u64(a0, a1), vaddq_u64(a2, a3));
        a4 = vaddq_u64(vaddq_u64(a4, a5), vaddq_u64(a6, a7));
        total = (uint64_t)xc_inet_fold64(total) + vaddvq_u64(vaddq_u64(a0, a4));
    }
    if (len >= 16) {
        uint64x2_t a0 = vdupq_n_u64(0), a1 = a0;
        for (; len >= 32; p += 32, len -= 32) {
            a0 = vpadalq_u32(a0, xc_inet_ld(p));
            a1 = vpadalq_u32(a1, xc_inet_ld(p + 16));
        }
        if (len >= 16) {
            a0 = vpadalq_u32(a0, xc_inet_ld(p));
            p += 16;
            len -= 16;
        }
        total += vaddvq_u64(vaddq_u64(a0, a1));
    }
    uint32_t vec = xc_inet_fold64(total);
    if (XC_BIG_ENDIAN) vec = xc_inet_rol32(vec, 8);
    return xc_inet_finish((uint64_t)vec + xc_inet_sum_native(p, len), sum, XC_INET_NATIVE_ROT);
}

/* The entries: up to 64 bytes inline and falling through, each path
 * folding by itself when fold is set (a constant after inlining).  The
 * vector total is of byte-swapped words on either byte order (above). */
XC_FORCE_INLINE uint32_t xc_inet_neon_body(uint32_t sum, const uint8_t *data, size_t len, int fold)
{
    uint32_t s;
    if (XC_LIKELY(len - 16 <= 48))
        s = xc_inet_finish(xc_inet_upto64(data, len), sum, 8);
    else if (len < 16)
        s = xc_inet_finish(xc_inet_sum_native(data, len), sum, XC_INET_NATIVE_ROT);
    else
        s = xc_inet_long(sum, data, len);
    return fold ? xc_inet_fold16(s) : s;
}

XC_ALIGNED(64) uint32_t xc_inet_sum_arm64_neon(uint32_t sum, const uint8_t *data, size_t len)
{
    return xc_inet_neon_body(sum, data, len, 0);
}

XC_ALIGNED(64) uint16_t xc_inet_checksum_arm64_neon(const uint8_t *data, size_t len)
{
    return (uint16_t)xc_inet_neon_body(0, data, len, 1);
}

#endif /* XC_ARCH_ARM64 */
