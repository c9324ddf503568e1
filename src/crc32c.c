/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CRC32C entry points: the dispatched checksum, combine, and the LevelDB
 * mask.  The kernels live in portable/, x64/ and arm64/; the arithmetic they
 * share is described in crc32c_internal.h.
 */
#include "cpucap.h"
#include "crc32c_internal.h"

/*
 * With IFUNC the dynamic linker binds xc_crc32c to the kernel the policy
 * chooses (cpucap.c), so a caller's call through the PLT lands in the
 * kernel itself.  Without it, the entry jumps through the table: one
 * indirect jump more.  Either way the kernels take len == 0 (and then never
 * touch data), so short inputs pay no test here.
 */
#if defined(XC_HAVE_IFUNC)
typedef uint32_t (*xc_crc32c_entry_fn)(uint32_t, const void *, size_t);

XC_RESOLVER static xc_crc32c_entry_fn resolve_crc32c(XC_RESOLVER_PARAMS)
{
    return (xc_crc32c_entry_fn)xc_crc32c_choose(xc_cpucap_resolve(XC_RESOLVER_HWCAP))->fn;
}

uint32_t xc_crc32c(uint32_t crc, const void *data, size_t len) XC_IFUNC(resolve_crc32c);
#else
uint32_t xc_crc32c(uint32_t crc, const void *data, size_t len)
{
    return xc_kernels.crc32c(crc, (const uint8_t *)data, len);
}
#endif

/*
 * Combining.  With R(s, M) the register after M from state s, and the public
 * CRC being ~R(~0, M): R(s, AB) = R(s, A) * x^(8|B|) + R(0, B), and the
 * all-ones terms cancel between crc(AB) and crc(B), leaving
 *
 *     crc(AB) = crc(A) * x^(8|B|) + crc(B)   (mod P),
 *
 * one multiplication by a power of x.  That power is the product of one
 * table entry per nonzero hexadecimal digit of |B|, so at most 16
 * multiplications for any 64-bit length.  With a carry-less multiply each is
 * a clmul and a crc32 instruction; otherwise a four-bits-at-a-time software
 * multiply and the slice-by-8 tables do the same.
 */
#if defined(XC_ARCH_X64)
XC_TARGET("sse4.2,pclmul") static uint32_t combine_x64(uint32_t crc_a, uint32_t crc_b,
                                                      uint64_t len_b)
{
    return xc_crc32c_x64_mul(crc_a, xc_crc32c_x64_xpow8n(len_b)) ^ crc_b;
}
#elif defined(XC_ARCH_ARM64)
XC_TARGET("+crc+crypto") static uint32_t combine_arm64(uint32_t crc_a, uint32_t crc_b,
                                                   uint64_t len_b)
{
    return xc_crc32c_arm64_mul(crc_a, xc_crc32c_arm64_xpow8n(len_b)) ^ crc_b;
}
#endif

static uint32_t combine_soft(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
    return xc_crc32c_mul_soft(crc_a, xc_crc32c_xpow8n_soft(len_b)) ^ crc_b;
}

typedef uint32_t (*xc_combine_fn)(uint32_t, uint32_t, uint64_t);

/* The carry-less multiply when the features in force have it. */
XC_EARLY static xc_combine_fn combine_choose(unsigned f)
{
#if defined(XC_ARCH_X64)
    const unsigned need = XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL;
    if ((f & need) == need) return combine_x64;
#elif defined(XC_ARCH_ARM64)
    const unsigned need = XC_CPU_ARM64_CRC | XC_CPU_ARM64_PMULL;
    if ((f & need) == need) return combine_arm64;
#else
    (void)f;
#endif
    return combine_soft;
}

#if defined(XC_HAVE_IFUNC)
XC_RESOLVER static xc_combine_fn resolve_combine(XC_RESOLVER_PARAMS)
{
    return combine_choose(xc_cpucap_resolve(XC_RESOLVER_HWCAP));
}

uint32_t xc_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
    XC_IFUNC(resolve_combine);
#else
uint32_t xc_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
    return combine_choose(xc_cpu_features())(crc_a, crc_b, len_b);
}
#endif

/* LevelDB's format notes that a CRC stored next to the data it covers makes
 * CRCs of strings with embedded CRCs weak, and stores this instead. */
uint32_t xc_crc32c_mask(uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

uint32_t xc_crc32c_unmask(uint32_t masked)
{
    uint32_t rot = masked - 0xa282ead8u;
    return (rot >> 17) | (rot << 15);
}

/*
 * xc_crc32c_pow16[t][d] = x^(8 * d * 16^t - 33) mod P, reflected.  Printed
 * once by a throwaway Python script (square-and-multiply on polynomials
 * over GF(2), negative exponents through x^-1 = (P - 1) / x); the test checks
 * combine() against its own independent square-and-multiply up to 2^40.
 */
const uint32_t xc_crc32c_pow16[16][16] = {
    {
        0xa9cdda0d, 0xbf818109, 0x780d5a4d, 0xfe2b5c35,
        0x05ec76f1, 0x01000000, 0x00010000, 0x00000100,
        0x00000001, 0xf26b8303, 0x13a29877, 0xa541927e,
        0xdd45aab8, 0x38116fac, 0xef306b19, 0x68032cc8,
    },
    {
        0xa9cdda0d, 0x493c7d27, 0xba4fc28e, 0xddc0152b,
        0x9e4addf8, 0x39d3b296, 0x0715ce53, 0x47db8317,
        0x0d3b6092, 0xc96cfdc0, 0x878a92a7, 0xdaece73e,
        0xab7aff2a, 0x2162d385, 0x83348832, 0x299847d5,
    },
    {
        0xa9cdda0d, 0xb9e02b86, 0xdd7e3b0c, 0xd7a4825c,
        0x170076fa, 0xdd66cbbb, 0x9ef68d35, 0xaa7c7ad5,
        0xa51b6135, 0xbedc6ba1, 0x22c3799f, 0x8515c07f,
        0x359674f7, 0x5f0e0438, 0x96a1f19b, 0x23d5e7e5,
    },
    {
        0xa9cdda0d, 0x82f89c77, 0x54a86326, 0xc1f19ee1,
        0x1dc403cc, 0x68bfa742, 0x6a173fa1, 0x0d435f26,
        0x5ae703ab, 0xa400fc17, 0xc71795dd, 0x84c8538e,
        0x51e9168b, 0x139f7c52, 0x21c03eff, 0x8f619e7d,
    },
    {
        0xa9cdda0d, 0xc5013a36, 0xac2ac6dd, 0x9edebb1b,
        0x9b4615a9, 0x846228eb, 0xb0c8dc65, 0xe8b232b8,
        0x688d1c61, 0x5b33a5ee, 0x348ced70, 0xa3905456,
        0xd270eff4, 0x508dfe99, 0x2985cfbc, 0x604d7164,
    },
    {
        0xa9cdda0d, 0xf6af14e6, 0xb6ffe386, 0x412ba6cb,
        0xb717425b, 0x99358aff, 0xa1c3255d, 0xfe8a1ee0,
        0x478b0d30, 0x1566bbcc, 0x06e3c216, 0xae567218,
        0x6888f894, 0x33186375, 0xfa8d7d58, 0xc0918c7a,
    },
    {
        0xa9cdda0d, 0x54cc62e5, 0x7b2102ee, 0x4205f0fe,
        0x8a99adef, 0xe46fa6ef, 0x9eb63379, 0xf43532c4,
        0xa7568c8f, 0xbab529eb, 0xb315c6da, 0xe7702e4b,
        0xd4e1d64d, 0xba1050d0, 0x5c9400ac, 0x32606c1b,
    },
    {
        0xa9cdda0d, 0xd610d67e, 0x6b086b3f, 0xb7720ee7,
        0xd94f3c0b, 0xee51a57d, 0xf5dee9c6, 0x7aef74e3,
        0xbf818109, 0xdd36fbfc, 0x6e9b7dfe, 0x374dbeff,
        0x9950e407, 0xce5e497b, 0xe5d91fc5, 0xf01ab49a,
    },
    {
        0xa9cdda0d, 0x780d5a4d, 0x05ec76f1, 0x00010000,
        0x00000001, 0x13a29877, 0xdd45aab8, 0xef306b19,
        0x493c7d27, 0xcb567ba5, 0x3171d430, 0x54075546,
        0xf20c0dfe, 0x0f69022b, 0x3743f7bd, 0x5c15eeb4,
    },
    {
        0xa9cdda0d, 0xba4fc28e, 0x9e4addf8, 0x0715ce53,
        0x0d3b6092, 0x878a92a7, 0xab7aff2a, 0x83348832,
        0xb9e02b86, 0xb6dd949b, 0xbac2fd7b, 0xce7f39f4,
        0xd270f1a2, 0x2b3cac5d, 0x1b03397f, 0xb3e32c28,
    },
    {
        0xa9cdda0d, 0xdd7e3b0c, 0x170076fa, 0x9ef68d35,
        0xa51b6135, 0x22c3799f, 0x359674f7, 0x96a1f19b,
        0x82f89c77, 0x005bb964, 0xca110698, 0xe3e0d8bf,
        0xb9d68d49, 0x51c0477e, 0xa9232e2b, 0xf7ac8f1f,
    },
    {
        0xa9cdda0d, 0x54a86326, 0x1dc403cc, 0x6a173fa1,
        0x5ae703ab, 0xc71795dd, 0x51e9168b, 0x21c03eff,
        0xc5013a36, 0x935f10a0, 0xa0535a61, 0x4df55b09,
        0xec132bea, 0x65f99287, 0x1a0e568c, 0x1af75504,
    },
    {
        0xa9cdda0d, 0xac2ac6dd, 0x9b4615a9, 0xb0c8dc65,
        0x688d1c61, 0x348ced70, 0xd270eff4, 0x2985cfbc,
        0xf6af14e6, 0xd9bd2133, 0xa7252d20, 0x9fe10259,
        0xc27bece5, 0xe7859bb3, 0xdaf74213, 0x3d6a848d,
    },
    {
        0xa9cdda0d, 0xb6ffe386, 0xb717425b, 0xa1c3255d,
        0x478b0d30, 0x06e3c216, 0x6888f894, 0xfa8d7d58,
        0x54cc62e5, 0x666830c6, 0x39dfc944, 0xd89cd382,
        0xbcf1eac6, 0xc86ec40f, 0x15bd00f3, 0x7db83957,
    },
    {
        0xa9cdda0d, 0x7b2102ee, 0x8a99adef, 0x9eb63379,
        0xa7568c8f, 0xb315c6da, 0xd4e1d64d, 0x5c9400ac,
        0xd610d67e, 0x3d908177, 0xc7baed8f, 0xcdad22c4,
        0xd15d7d3f, 0x598ae36d, 0xe886d05e, 0x2e4a0056,
    },
    {
        0xa9cdda0d, 0x6b086b3f, 0xd94f3c0b, 0xf5dee9c6,
        0xbf818109, 0x6e9b7dfe, 0x9950e407, 0xe5d91fc5,
        0x780d5a4d, 0x5f784b2f, 0xd453340f, 0xf699ebc7,
        0xfe2b5c35, 0x7ef1cab1, 0x5ec76f10, 0x17b1dbc4,
    },
};
