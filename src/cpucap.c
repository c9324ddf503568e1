/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CPU detection, the XC_CPUCAP cap, and the dispatch table.
 *
 * Detection asks Google's cpu_features once.  Two quirks of the Debian 12
 * version (0.7) shape the code: its feature fields are signed one-bit
 * bitfields, so a set flag reads as -1 (we test with !!), and GetX86Info()
 * runs CPUID on every call (we call it once).  It reports PCLMULQDQ and
 * VPCLMULQDQ from CPUID alone, without asking whether the OS saves the
 * vector registers those forms use, so VPCLMUL is only taken together with
 * usable AVX-512.
 *
 * On Arm64 Linux we read AT_HWCAP ourselves instead: cpu_features 0.7 also
 * reads AT_HWCAP2, and when that is zero (every CPU without ARMv8.2+
 * extensions, the Cortex-A53 and A72 among them) it prints a line to stdout
 * and re-reads /proc/self/auxv.  A library must not print, and the four bits
 * we need are all in AT_HWCAP, which the kernel fills on every Arm64 system.
 *
 * The choice of variant is policy kept here, in the variant lists below:
 * each kernel family lists its variants lowest tier first, and the last one
 * whose needs the CPU meets wins.
 */
#include "cpucap.h"

#include <pthread.h>
#include <stdlib.h>

#include "arm64/kernels.h"
#include "portable/kernels.h"
#include "x64/kernels.h"

#if defined(XC_HAVE_CPU_FEATURES) && defined(XC_ARCH_X64)
#  include <cpu_features/cpuinfo_x86.h>
#elif defined(XC_ARCH_ARM64) && defined(__linux__)
#  include <sys/auxv.h>
/* Bits of AT_HWCAP (Linux, arch/arm64/include/uapi/asm/hwcap.h). */
#  define XC_HWCAP_ASIMD (1ul << 1)
#  define XC_HWCAP_PMULL (1ul << 4)
#  define XC_HWCAP_CRC32 (1ul << 7)
#  define XC_HWCAP_SHA3 (1ul << 17)
#endif

/* ---- variant lists (lowest tier first) ---------------------------------- */

const struct xc_crc32c_variant xc_crc32c_variants[] = {
    {"portable", xc_crc32c_portable, 0},
#if defined(XC_ARCH_X64)
    {"x64-sse42", xc_crc32c_x64_sse42, XC_CPU_X64_SSE42},
    {"x64-pclmul", xc_crc32c_x64_pclmul, XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL},
    {"x64-avx2", xc_crc32c_x64_avx2, XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL | XC_CPU_X64_AVX2},
    {"x64-avx512", xc_crc32c_x64_avx512,
     XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL | XC_CPU_X64_AVX512 | XC_CPU_X64_VPCLMUL},
#elif defined(XC_ARCH_ARM64)
    {"arm64-crc", xc_crc32c_arm64_crc, XC_CPU_ARM64_CRC},
    {"arm64-pmull", xc_crc32c_arm64_pmull, XC_CPU_ARM64_CRC | XC_CPU_ARM64_PMULL},
    {"arm64-sha3", xc_crc32c_arm64_sha3,
     XC_CPU_ARM64_CRC | XC_CPU_ARM64_PMULL | XC_CPU_ARM64_NEON | XC_CPU_ARM64_SHA3},
#endif
};
const size_t xc_crc32c_variant_count = XC_ARRAY_SIZE(xc_crc32c_variants);

const struct xc_inet_variant xc_inet_variants[] = {
    {"portable", xc_inet_sum_portable, 0, xc_inet_checksum_portable},
#if defined(XC_ARCH_X64)
    {"x64-avx2", xc_inet_sum_x64_avx2, XC_CPU_X64_AVX2, xc_inet_checksum_x64_avx2},
    {"x64-avx512", xc_inet_sum_x64_avx512, XC_CPU_X64_AVX512 | XC_CPU_X64_BMI2,
     xc_inet_checksum_x64_avx512},
    {"x64-avx512vnni", xc_inet_sum_x64_avx512vnni,
     XC_CPU_X64_AVX512 | XC_CPU_X64_BMI2 | XC_CPU_X64_VNNI, xc_inet_checksum_x64_avx512vnni},
#elif defined(XC_ARCH_ARM64)
    {"arm64-neon", xc_inet_sum_arm64_neon, XC_CPU_ARM64_NEON, xc_inet_checksum_arm64_neon},
#endif
};
const size_t xc_inet_variant_count = XC_ARRAY_SIZE(xc_inet_variants);

/* The zstd codec's hot loops differ between variants in a few instructions
 * (BMI2's shifts and bit fields, vector row tags), not in the algorithm:
 * see src/x64/zstd_*_bmi2.c and src/arm64/zstd_encode_neon.c.  The Arm64
 * decoder has no variant of its own: its loops are scalar, and the plain
 * C build already uses the whole base ISA. */
const struct xc_zstd_decode_variant xc_zstd_decode_variants[] = {
    {"portable", &xc_zstd_decode_portable, 0},
#if defined(XC_ARCH_X64)
    {"x64-bmi2", &xc_zstd_decode_x64_bmi2, XC_CPU_X64_BMI2},
#endif
};
const size_t xc_zstd_decode_variant_count = XC_ARRAY_SIZE(xc_zstd_decode_variants);

const struct xc_zstd_encode_variant xc_zstd_encode_variants[] = {
    {"portable", &xc_zstd_encode_portable, 0},
#if defined(XC_ARCH_X64)
    {"x64-bmi2", &xc_zstd_encode_x64_bmi2, XC_CPU_X64_BMI2},
#elif defined(XC_ARCH_ARM64)
    {"arm64-neon", &xc_zstd_encode_arm64_neon, XC_CPU_ARM64_NEON},
#endif
};
const size_t xc_zstd_encode_variant_count = XC_ARRAY_SIZE(xc_zstd_encode_variants);

/* ---- tiers --------------------------------------------------------------- */

struct tier {
    const char *name;
    unsigned features; /* everything this tier may use */
};

/* Features a tier may use without requiring them: a CPU that lacks them
 * is still of that tier, and its kernels that need them are not chosen. */
#if defined(XC_ARCH_X64)
#  define XC_TIER_OPTIONAL XC_CPU_X64_VNNI
#else
#  define XC_TIER_OPTIONAL 0u
#endif

#if defined(XC_ARCH_X64)
#  define XC_ARCH_NAME "x64"
static const struct tier tiers[] = {
    {"portable", 0},
    {"sse42", XC_CPU_X64_SSE42},
    {"pclmul", XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL},
    {"avx2", XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL | XC_CPU_X64_AVX2 | XC_CPU_X64_BMI2},
    {"avx512", XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL | XC_CPU_X64_AVX2 | XC_CPU_X64_BMI2 |
                   XC_CPU_X64_AVX512 | XC_CPU_X64_VPCLMUL | XC_CPU_X64_VNNI},
};
#elif defined(XC_ARCH_ARM64)
#  define XC_ARCH_NAME "arm64"
/* NEON is part of the ARMv8-A base, so every tier, even "portable", could
 * use it; the portable tier still runs plain C so that it stays the oracle. */
static const struct tier tiers[] = {
    {"portable", 0},
    {"crc", XC_CPU_ARM64_NEON | XC_CPU_ARM64_CRC},
    {"pmull", XC_CPU_ARM64_NEON | XC_CPU_ARM64_CRC | XC_CPU_ARM64_PMULL},
    {"sha3", XC_CPU_ARM64_NEON | XC_CPU_ARM64_CRC | XC_CPU_ARM64_PMULL | XC_CPU_ARM64_SHA3},
};
#else
#  if defined(__s390x__)
#    define XC_ARCH_NAME "s390x"
#  elif defined(__x86_64__)
#    define XC_ARCH_NAME "x64"
#  elif defined(__aarch64__)
#    define XC_ARCH_NAME "arm64"
#  else
#    define XC_ARCH_NAME "generic"
#  endif
static const struct tier tiers[] = {{"portable", 0}};
#endif

static const struct {
    unsigned bit;
    const char *name;
} feature_names[] = {
    {XC_CPU_X64_SSE42, "sse42"},   {XC_CPU_X64_PCLMUL, "pclmul"},
    {XC_CPU_X64_AVX2, "avx2"},     {XC_CPU_X64_BMI2, "bmi2"},
    {XC_CPU_X64_AVX512, "avx512"}, {XC_CPU_X64_VPCLMUL, "vpclmul"},
    {XC_CPU_X64_VNNI, "vnni"},
    {XC_CPU_ARM64_NEON, "neon"},   {XC_CPU_ARM64_CRC, "crc"},
    {XC_CPU_ARM64_PMULL, "pmull"}, {XC_CPU_ARM64_SHA3, "sha3"},
};

/* ---- state: written once by init(), read-only afterwards ----------------- */

struct xc_kernels xc_kernels = {
    xc_crc32c_portable, xc_inet_sum_portable, xc_inet_checksum_portable, "portable", "portable",
    &xc_zstd_decode_portable, &xc_zstd_encode_portable,
};
static const char *zstd_decode_name = "portable";
static const char *zstd_encode_name = "portable";

static unsigned detected_features;
static unsigned active_features;
static const char *active_tier = "portable";
static char description[256];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static unsigned detect(void)
{
    unsigned f = 0;
#if defined(XC_HAVE_CPU_FEATURES) && defined(XC_ARCH_X64)
    const X86Info info = GetX86Info();
    const X86Features *x = &info.features;
    if (!!x->sse4_2 && !!x->ssse3 && !!x->popcnt) f |= XC_CPU_X64_SSE42;
    if ((f & XC_CPU_X64_SSE42) && !!x->pclmulqdq) f |= XC_CPU_X64_PCLMUL;
    /* cpu_features only reports AVX/AVX2/AVX-512 when XCR0 says the OS saves
     * the YMM/ZMM state. */
    if (!!x->avx && !!x->avx2) f |= XC_CPU_X64_AVX2;
    if (!!x->bmi1 && !!x->bmi2) f |= XC_CPU_X64_BMI2;
    if ((f & XC_CPU_X64_AVX2) && !!x->avx512f && !!x->avx512bw && !!x->avx512vl &&
        !!x->avx512dq)
        f |= XC_CPU_X64_AVX512;
    if ((f & XC_CPU_X64_AVX512) && !!x->vpclmulqdq) f |= XC_CPU_X64_VPCLMUL;
    if ((f & XC_CPU_X64_AVX512) && !!x->avx512vnni) f |= XC_CPU_X64_VNNI;
#elif defined(XC_ARCH_ARM64) && defined(__linux__)
    const unsigned long hw = getauxval(AT_HWCAP);
    if (hw & XC_HWCAP_ASIMD) f |= XC_CPU_ARM64_NEON;
    if (hw & XC_HWCAP_CRC32) f |= XC_CPU_ARM64_CRC;
    if (hw & XC_HWCAP_PMULL) f |= XC_CPU_ARM64_PMULL;
    if (hw & XC_HWCAP_SHA3) f |= XC_CPU_ARM64_SHA3;
#endif
    return f;
}

static size_t append(char *buf, size_t pos, size_t cap, const char *s)
{
    while (*s && pos + 1 < cap) buf[pos++] = *s++;
    buf[pos] = '\0';
    return pos;
}

static void init(void)
{
    const char *cap = getenv("XC_CPUCAP");
    size_t ntiers = XC_ARRAY_SIZE(tiers);
    size_t cap_index = ntiers - 1;
    int cap_known = 1;

    if (cap && *cap) {
        cap_known = 0;
        for (size_t i = 0; i < ntiers; i++) {
            if (strcmp(cap, tiers[i].name) == 0) {
                cap_index = i;
                cap_known = 1;
            }
        }
        if (!cap_known) cap_index = ntiers - 1;
    }

    detected_features = detect();
    active_features = detected_features & tiers[cap_index].features;

    /* The tier in force is the highest one whose features are all there. */
    size_t tier_index = 0;
    for (size_t i = 0; i <= cap_index; i++)
        if ((tiers[i].features & ~XC_TIER_OPTIONAL & ~active_features) == 0) tier_index = i;
    active_tier = tiers[tier_index].name;
    /* Features above the tier in force are dropped, so that the cap really
     * means "this tier and below" on CPUs with odd feature mixes. */
    active_features &= tiers[tier_index].features;

    for (size_t i = 0; i < xc_crc32c_variant_count; i++) {
        if ((xc_crc32c_variants[i].needs & active_features) == xc_crc32c_variants[i].needs) {
            xc_kernels.crc32c = xc_crc32c_variants[i].fn;
            xc_kernels.crc32c_name = xc_crc32c_variants[i].name;
        }
    }
    for (size_t i = 0; i < xc_inet_variant_count; i++) {
        if ((xc_inet_variants[i].needs & active_features) == xc_inet_variants[i].needs) {
            xc_kernels.inet_sum = xc_inet_variants[i].fn;
            xc_kernels.inet_checksum = xc_inet_variants[i].checksum;
            xc_kernels.inet_name = xc_inet_variants[i].name;
        }
    }
    for (size_t i = 0; i < xc_zstd_decode_variant_count; i++) {
        if ((xc_zstd_decode_variants[i].needs & active_features) == xc_zstd_decode_variants[i].needs) {
            xc_kernels.zstd_decode = xc_zstd_decode_variants[i].kernels;
            zstd_decode_name = xc_zstd_decode_variants[i].name;
        }
    }
    for (size_t i = 0; i < xc_zstd_encode_variant_count; i++) {
        if ((xc_zstd_encode_variants[i].needs & active_features) == xc_zstd_encode_variants[i].needs) {
            xc_kernels.zstd_encode = xc_zstd_encode_variants[i].kernels;
            zstd_encode_name = xc_zstd_encode_variants[i].name;
        }
    }

    size_t pos = 0, cap_sz = sizeof description;
    pos = append(description, pos, cap_sz, "arch=" XC_ARCH_NAME " features=");
    int any = 0;
    for (size_t i = 0; i < XC_ARRAY_SIZE(feature_names); i++) {
        if (detected_features & feature_names[i].bit) {
            if (any) pos = append(description, pos, cap_sz, ",");
            pos = append(description, pos, cap_sz, feature_names[i].name);
            any = 1;
        }
    }
    if (!any) pos = append(description, pos, cap_sz, "none");
    pos = append(description, pos, cap_sz, " tier=");
    pos = append(description, pos, cap_sz, active_tier);
    pos = append(description, pos, cap_sz, " cap=");
    if (!cap || !*cap) {
        pos = append(description, pos, cap_sz, "none");
    } else {
        pos = append(description, pos, cap_sz, cap_known ? "" : "ignored:");
        /* The value comes from the environment: keep only printable bytes. */
        char clean[33];
        size_t n = 0;
        for (const char *c = cap; *c && n + 1 < sizeof clean; c++)
            clean[n++] = (*c > ' ' && *c < 127) ? *c : '?';
        clean[n] = '\0';
        pos = append(description, pos, cap_sz, clean);
    }
}

void xc_cpucap_init(void) { pthread_once(&init_once, init); }

#if defined(__GNUC__) || defined(__clang__)
__attribute__((constructor)) static void xc_cpucap_constructor(void) { xc_cpucap_init(); }
#endif

unsigned xc_cpu_features(void)
{
    xc_cpucap_init();
    return active_features;
}

unsigned xc_cpu_detected(void)
{
    xc_cpucap_init();
    return detected_features;
}

const char *xc_cpucap_describe(void)
{
    xc_cpucap_init();
    return description;
}

const char *xc_cpucap_tier(void)
{
    xc_cpucap_init();
    return active_tier;
}

const char *xc_impl_name(const char *kernel)
{
    xc_cpucap_init();
    if (!kernel) return NULL;
    if (strcmp(kernel, "crc32c") == 0) return xc_kernels.crc32c_name;
    if (strcmp(kernel, "inet") == 0) return xc_kernels.inet_name;
    if (strcmp(kernel, "zstd_decode") == 0) return zstd_decode_name;
    if (strcmp(kernel, "zstd_encode") == 0) return zstd_encode_name;
    return NULL;
}
