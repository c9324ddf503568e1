/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Template: Arm64 CRC32C with PMULL folding beside three CRC32CX streams.
 * Included by arm64/crc32c_pmull.c and arm64/crc32c_sha3.c, which differ
 * only in how three vectors are XORed (two EORs, or one EOR3 with SHA3).
 *
 * Parameters, defined by the including file and #undef'ed at the end:
 *   XC_PMULL_FUNC          name of the kernel (xc_crc32c_fn signature)
 *   XC_PMULL_TARGET        target attribute
 *   XC_PMULL_XOR3(a,b,c)   a ^ b ^ c on uint64x2_t
 *
 * The arithmetic and the layout are those of x64/crc32c_avx512.c and
 * crc32c_pclmul.c (PMULL is PCLMULQDQ, CRC32CX is crc32q, and a
 * little-endian load gives the same lanes): eight 16-byte accumulators fold
 * 128 bytes per step with the constants x^(8d+31) and x^(8d-33) mod P; three
 * scalar streams run beside them; the 128-bit result is reduced by two
 * CRC32CX and the streams are merged by multiplying by powers of x.
 *
 * Why eight accumulators: on the cores this targets (Neoverse N1/V1/V2,
 * Cortex-X, Apple M) PMULL issues two to four times per cycle with a
 * latency of two or three, so a fold (two PMULL and an XOR) takes about five
 * cycles and four accumulators would leave the multipliers idle.  Three
 * words per stream per step keep the CRC unit (one per cycle) as busy as the
 * multipliers.  These choices come from the cores' published tables, not
 * from measurement: this project only runs Arm64 code under qemu.
 *
 * Below MIX_MIN, and on big-endian Arm64 (where vector lanes would load in
 * another order), the CRC32CX-only kernel runs instead.
 */

#define XC_PMULL_NV 8
#define XC_PMULL_WORDS 3
#define XC_PMULL_STEP (16 * XC_PMULL_NV + 3 * 8 * XC_PMULL_WORDS)
#define XC_PMULL_MIX_MIN 1024
#define XC_PMULL_ROUND_MAX (1u << 22)

#if !XC_BIG_ENDIAN

/* Fold pairs {x^(8d+31), x^(8d-33)} mod P for d = 16j bytes, j = 0..8
 * (printed by the script that made xc_crc32c_pow16, see crc32c.c). */
static const uint64_t XC_ALIGNED(16) xc_pmull_k[9][2] = {
    {0x00000001, 0xa9cdda0d}, {0xf20c0dfe, 0x493c7d27}, {0x3da6d0cb, 0xba4fc28e},
    {0x1c291d04, 0xddc0152b}, {0x740eef02, 0x9e4addf8}, {0x083a6eec, 0x39d3b296},
    {0xc49f4f67, 0x0715ce53}, {0x2ad91c30, 0x47db8317}, {0x6992cea2, 0x0d3b6092},
};

XC_PMULL_TARGET XC_FORCE_INLINE uint64x2_t xc_pmull_load(const uint8_t *p)
{
    return vreinterpretq_u64_u8(vld1q_u8(p));
}

/* x * x^d + data, with k = {x^(8d+31), x^(8d-33)}. */
XC_PMULL_TARGET XC_FORCE_INLINE uint64x2_t xc_pmull_fold(uint64x2_t x, uint64x2_t k,
                                                         uint64x2_t data)
{
    uint64x2_t lo = vreinterpretq_u64_p128(
        vmull_p64((poly64_t)vgetq_lane_u64(x, 0), (poly64_t)vgetq_lane_u64(k, 0)));
    uint64x2_t hi = vreinterpretq_u64_p128(
        vmull_high_p64(vreinterpretq_p64_u64(x), vreinterpretq_p64_u64(k)));
    return XC_PMULL_XOR3(lo, hi, data);
}

XC_PMULL_TARGET XC_FORCE_INLINE uint64x2_t xc_pmull_kd(size_t j)
{
    return vld1q_u64(xc_pmull_k[j]);
}

XC_PMULL_TARGET XC_FORCE_INLINE uint64x2_t xc_pmull_with_state(uint64x2_t x, uint32_t c)
{
    return veorq_u64(x, vsetq_lane_u64(c, vdupq_n_u64(0), 0));
}

/* The state of 128 bits x from zero, plus the polynomial y joined into the
 * second CRC32CX (linear in its operands). */
XC_PMULL_TARGET XC_FORCE_INLINE uint32_t xc_pmull_reduce(uint64x2_t x, uint64_t y)
{
    uint64_t c = XC_CRC32C_WORD_ARM64(0, vgetq_lane_u64(x, 0));
    return (uint32_t)XC_CRC32C_WORD_ARM64(c, vgetq_lane_u64(x, 1) ^ y);
}

/* n bytes, XC_PMULL_MIX_MIN <= n <= XC_PMULL_ROUND_MAX: r < 8 leading bytes
 * (one CRC32CX, its result entering the vector region as initial state), a
 * vector region of v bytes (a multiple of 16), three streams of s bytes. */
XC_PMULL_TARGET XC_FORCE_INLINE uint32_t xc_pmull_mixed(uint32_t c, const uint8_t *p, size_t n)
{
    size_t r = n & 7;
    c = xc_crc32c_arm64_short(c, p, r);
    p += r;
    n -= r;
    size_t m = n / XC_PMULL_STEP;
    size_t rest = n - m * XC_PMULL_STEP;
    size_t delta = (rest / 8) & 1; /* 24 * delta = rest (mod 16) */
    if (24 * delta > rest) {
        m -= 1;
        rest += XC_PMULL_STEP;
        delta = (rest / 8) & 1;
    }
    size_t e = (rest - 24 * delta) / 16;
    size_t s = 8 * (XC_PMULL_WORDS * m + delta);
    size_t v = 16 * XC_PMULL_NV * m + 16 * e;

    uint32_t k1 = xc_crc32c_arm64_xpow8n_small((uint32_t)s);
    uint32_t k2 = xc_crc32c_arm64_mul(k1, k1);
    uint32_t k3 = xc_crc32c_arm64_mul(k2, k1);

    const uint8_t *s0 = p + v, *s1 = s0 + s, *s2 = s1 + s;
    uint64_t c0 = 0, c1 = 0, c2 = 0;
    if (delta) {
        c0 = XC_CRC32C_WORD_ARM64(c0, xc_read_le64(s0));
        c1 = XC_CRC32C_WORD_ARM64(c1, xc_read_le64(s1));
        c2 = XC_CRC32C_WORD_ARM64(c2, xc_read_le64(s2));
        s0 += 8;
        s1 += 8;
        s2 += 8;
    }

    /* The first e mod 8 blocks are folded onto the first accumulator's
     * block before the loop, the others are whole steps after it. */
    size_t pre = e % XC_PMULL_NV;
    const uint8_t *q = p + 16 * pre;
    uint64x2_t x[XC_PMULL_NV];
    for (size_t i = 0; i < XC_PMULL_NV; i++) x[i] = xc_pmull_load(q + 16 * i);
    if (pre) {
        uint64x2_t b = xc_pmull_with_state(xc_pmull_load(p), c);
        x[0] = xc_pmull_fold(b, xc_pmull_kd(pre), x[0]);
        for (size_t i = 1; i < pre; i++)
            x[0] = xc_pmull_fold(xc_pmull_load(p + 16 * i), xc_pmull_kd(pre - i), x[0]);
    } else {
        x[0] = xc_pmull_with_state(x[0], c);
    }
    q += 16 * XC_PMULL_NV;

    const uint64x2_t kstep = xc_pmull_kd(XC_PMULL_NV);
    for (size_t j = 0; j < m; j++) {
        if (j) {
            for (size_t i = 0; i < XC_PMULL_NV; i++)
                x[i] = xc_pmull_fold(x[i], kstep, xc_pmull_load(q + 16 * i));
            q += 16 * XC_PMULL_NV;
        }
        for (size_t i = 0; i < 8 * XC_PMULL_WORDS; i += 8) {
            c0 = XC_CRC32C_WORD_ARM64(c0, xc_read_le64(s0 + i));
            c1 = XC_CRC32C_WORD_ARM64(c1, xc_read_le64(s1 + i));
            c2 = XC_CRC32C_WORD_ARM64(c2, xc_read_le64(s2 + i));
        }
        s0 += 8 * XC_PMULL_WORDS;
        s1 += 8 * XC_PMULL_WORDS;
        s2 += 8 * XC_PMULL_WORDS;
    }
    for (size_t j = e / XC_PMULL_NV; j > 0; j--, q += 16 * XC_PMULL_NV)
        for (size_t i = 0; i < XC_PMULL_NV; i++)
            x[i] = xc_pmull_fold(x[i], kstep, xc_pmull_load(q + 16 * i));

    /* Every accumulator moves to the end of the region in one level; then
     * the result moves by 3s bytes (constants k3 * x^64, k3). */
    uint64x2_t acc = x[XC_PMULL_NV - 1];
    for (size_t i = 0; i + 1 < XC_PMULL_NV; i++)
        acc = xc_pmull_fold(x[i], xc_pmull_kd(XC_PMULL_NV - 1 - i), acc);
    uint64x2_t k3v = vcombine_u64(vcreate_u64(XC_CRC32C_WORD_ARM64(0, k3)), vcreate_u64(k3));
    acc = xc_pmull_fold(acc, k3v, vdupq_n_u64(0));
    uint64_t y =
        xc_crc32c_arm64_mulraw((uint32_t)c0, k2) ^ xc_crc32c_arm64_mulraw((uint32_t)c1, k1);
    return xc_pmull_reduce(acc, y) ^ (uint32_t)c2;
}

XC_PMULL_TARGET uint32_t XC_PMULL_FUNC(uint32_t crc, const uint8_t *p, size_t len)
{
    if (XC_LIKELY(len < XC_PMULL_MIX_MIN)) return xc_crc32c_arm64_crc(crc, p, len);
    uint32_t c = ~crc;
    while (len >= XC_PMULL_MIX_MIN) {
        size_t n = len <= XC_PMULL_ROUND_MAX ? len : XC_PMULL_ROUND_MAX;
        c = xc_pmull_mixed(c, p, n);
        p += n;
        len -= n;
    }
    return xc_crc32c_arm64_crc(~c, p, len);
}

#else /* XC_BIG_ENDIAN */

XC_PMULL_TARGET uint32_t XC_PMULL_FUNC(uint32_t crc, const uint8_t *p, size_t len)
{
    return xc_crc32c_arm64_crc(crc, p, len);
}

#endif

#undef XC_PMULL_NV
#undef XC_PMULL_WORDS
#undef XC_PMULL_STEP
#undef XC_PMULL_MIX_MIN
#undef XC_PMULL_ROUND_MAX
#undef XC_PMULL_FUNC
#undef XC_PMULL_TARGET
#undef XC_PMULL_XOR3
