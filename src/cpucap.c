/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CPU detection, the XC_CPUCAP cap, the choice of variants and the dispatch
 * table.
 *
 * Where the checksum entry points are bound with GNU IFUNC (XC_HAVE_IFUNC),
 * detection runs inside the resolvers, and they run before the program is
 * initialised; "Resolver-safe code" below says what that rules out and how
 * the detection and the environment are read instead.  Elsewhere detection
 * asks Google's cpu_features once.  Two quirks of the Debian 12
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

#if defined(XC_ARCH_X64) && defined(XC_HAVE_IFUNC)
#  include <cpuid.h>
#elif defined(XC_ARCH_X64) && defined(XC_HAVE_CPU_FEATURES)
#  include <cpu_features/cpuinfo_x86.h>
#  include "cpucap_cpu_features.h"
#endif
#if defined(XC_ARCH_ARM64) && defined(__linux__)
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
    {"x64-avx512w", xc_crc32c_x64_avx512w,
     XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL | XC_CPU_X64_AVX512 | XC_CPU_X64_VPCLMUL |
         XC_CPU_X64_ZEN5},
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
    {"x64-ssse3", xc_inet_sum_x64_ssse3, XC_CPU_X64_SSE42, xc_inet_checksum_x64_ssse3},
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

/* Arm64 has no 64-bit vector multiply, so its scalar lanes are as fast as
 * NEON would be; it keeps the portable kernel. */
const struct xc_xxh64_variant xc_xxh64_variants[] = {
    {"portable", xc_xxh64_stripes_portable, 0},
#if defined(XC_ARCH_X64)
    {"x64-avx512", xc_xxh64_stripes_x64_avx512, XC_CPU_X64_AVX512},
#endif
};
const size_t xc_xxh64_variant_count = XC_ARRAY_SIZE(xc_xxh64_variants);

/* ---- tiers --------------------------------------------------------------- */

struct tier {
    const char *name;
    unsigned features; /* everything this tier may use */
};

/* Features a tier may use without requiring them: a CPU that lacks them
 * is still of that tier, and its kernels that need them are not chosen. */
#if defined(XC_ARCH_X64)
#  define XC_TIER_OPTIONAL (XC_CPU_X64_VNNI | XC_CPU_X64_ZEN5)
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
                   XC_CPU_X64_AVX512 | XC_CPU_X64_VPCLMUL | XC_CPU_X64_VNNI | XC_CPU_X64_ZEN5},
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
    {XC_CPU_X64_VNNI, "vnni"},     {XC_CPU_X64_ZEN5, "zen5"},
    {XC_CPU_ARM64_NEON, "neon"},   {XC_CPU_ARM64_CRC, "crc"},
    {XC_CPU_ARM64_PMULL, "pmull"}, {XC_CPU_ARM64_SHA3, "sha3"},
};

/* ---- choosing a variant ---------------------------------------------------- */

/* The index of the last entry of a variant list whose needs f meets. */
#define XC_CHOOSE(list, count, f)                                                          \
    do {                                                                                   \
        size_t i_ = 0;                                                                     \
        for (size_t k_ = 0; k_ < (count); k_++)                                            \
            if (((list)[k_].needs & (f)) == (list)[k_].needs) i_ = k_;                     \
        return &(list)[i_];                                                                \
    } while (0)

const struct xc_crc32c_variant *xc_crc32c_choose(unsigned f)
{
    XC_CHOOSE(xc_crc32c_variants, XC_ARRAY_SIZE(xc_crc32c_variants), f);
}

const struct xc_inet_variant *xc_inet_choose(unsigned f)
{
    XC_CHOOSE(xc_inet_variants, XC_ARRAY_SIZE(xc_inet_variants), f);
}

static const struct xc_zstd_decode_variant *zstd_decode_choose(unsigned f)
{
    XC_CHOOSE(xc_zstd_decode_variants, XC_ARRAY_SIZE(xc_zstd_decode_variants), f);
}

static const struct xc_zstd_encode_variant *zstd_encode_choose(unsigned f)
{
    XC_CHOOSE(xc_zstd_encode_variants, XC_ARRAY_SIZE(xc_zstd_encode_variants), f);
}

static const struct xc_xxh64_variant *xxh64_choose(unsigned f)
{
    XC_CHOOSE(xc_xxh64_variants, XC_ARRAY_SIZE(xc_xxh64_variants), f);
}

/*
 * ---- resolver-safe code ------------------------------------------------------
 *
 * With IFUNC, the dynamic linker calls the resolvers while it relocates the
 * objects that refer to the entry points, and a static program calls them
 * from its start-up code, before the C library sets up thread-local storage.
 * What they run must not depend on anything that is set up later:
 *
 *   - No call into the C library.  In a static program its own IFUNC'd
 *     functions (strlen, memmove, strncmp, ...) may not be relocated yet,
 *     and errno lives in thread-local storage.  So no getenv(), and no
 *     cpu_features: GetX86Info() may open /proc/cpuinfo and calls strlen and
 *     memmove, and Debian builds it with the stack protector, whose canary
 *     is read from thread-local storage: called from a resolver in a static
 *     program it crashes (SIGSEGV, tried).  Detection here is CPUID and
 *     XGETBV by hand, with the rules cpu_features follows (below), and the
 *     tests compare the two wherever cpu_features is installed.
 *   - No stack protector and no sanitizer or profiling instrumentation in
 *     these functions (XC_EARLY), for the same reason.
 *   - The environment: a static program sets environ before it resolves,
 *     but in a dynamically linked one the C library sets environ only when
 *     it is initialised, after relocation, so a resolver that runs then (for
 *     a function pointer taken by the program, or under -z now) sees NULL.
 *     The environment the process started with is still where the kernel
 *     put it, after argv on the initial stack, and glibc's dynamic linker
 *     exports the address of argc there as __libc_stack_end.  So XC_CPUCAP
 *     is read from environ when it is set, else from that initial stack.
 *   - Resolvers may run more than once, and lazily bound ones from several
 *     threads at once; they must also all agree.  The first caller's
 *     decision is published with one atomic compare-and-swap, and everyone,
 *     later resolvers and the table's constructor alike, uses that one.
 */
#if defined(XC_HAVE_IFUNC)
#  if defined(XC_ARCH_X64)
XC_EARLY static void cpuid(unsigned leaf, unsigned sub, unsigned *a, unsigned *b, unsigned *c,
                           unsigned *d)
{
    __asm__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

/* What the OS saves on a context switch (XCR0), which XGETBV may only be
 * asked for when CPUID says the OS enabled it (OSXSAVE). */
XC_EARLY static unsigned xcr0(void)
{
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}

/* cpu_features' rules: AVX and AVX2 need the XMM and YMM state saved (XCR0
 * bits 1 and 2), AVX-512 also the opmask and ZMM state (bits 5 to 7);
 * PCLMULQDQ and VPCLMULQDQ are CPUID bits alone, so VPCLMUL is taken only
 * with usable AVX-512. */
XC_EARLY static unsigned detect_x64(void)
{
    unsigned a, b, c, d, max, f = 0;
    cpuid(0, 0, &max, &b, &c, &d);
    if (max < 1) return 0;
    /* "AuthenticAMD" in ebx, edx, ecx of leaf 0. */
    unsigned const amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;
    cpuid(1, 0, &a, &b, &c, &d);
    const unsigned c1 = c;
    /* The family is the base family plus the extended one (leaf 1, eax). */
    unsigned const family = ((a >> 8) & 0xF) + ((a >> 20) & 0xFF);
    unsigned b7 = 0, c7 = 0;
    if (max >= 7) {
        cpuid(7, 0, &a, &b, &c, &d);
        b7 = b;
        c7 = c;
    }
    const unsigned os = (c1 & bit_OSXSAVE) ? xcr0() : 0;
    const int ymm = (os & 0x6) == 0x6, zmm = (os & 0xe6) == 0xe6;
    if ((c1 & bit_SSE4_2) && (c1 & bit_SSSE3) && (c1 & bit_POPCNT)) f |= XC_CPU_X64_SSE42;
    if ((f & XC_CPU_X64_SSE42) && (c1 & bit_PCLMUL)) f |= XC_CPU_X64_PCLMUL;
    if (ymm && (c1 & bit_AVX) && (b7 & bit_AVX2)) f |= XC_CPU_X64_AVX2;
    if ((b7 & bit_BMI) && (b7 & bit_BMI2)) f |= XC_CPU_X64_BMI2;
    const unsigned avx512 = bit_AVX512F | bit_AVX512BW | bit_AVX512VL | bit_AVX512DQ;
    if ((f & XC_CPU_X64_AVX2) && zmm && (b7 & avx512) == avx512) f |= XC_CPU_X64_AVX512;
    if ((f & XC_CPU_X64_AVX512) && (c7 & bit_VPCLMULQDQ)) f |= XC_CPU_X64_VPCLMUL;
    if ((f & XC_CPU_X64_AVX512) && (c7 & bit_AVX512VNNI)) f |= XC_CPU_X64_VNNI;
    if ((f & XC_CPU_X64_VPCLMUL) && amd && family == 0x1A) f |= XC_CPU_X64_ZEN5;
    return f;
}
#  endif

extern char **environ;
/* Defined by glibc's dynamic linker, and by its static start-up code (where
 * it does not point at argc, and environ is used instead). */
extern void *__libc_stack_end __attribute__((weak));

/* The value of XC_CPUCAP in the environment env, or NULL. */
XC_EARLY static const char *find_cap_in(char *const *env)
{
    static const char key[] = "XC_CPUCAP=";
    for (; *env; env++) {
        const char *e = *env;
        size_t i = 0;
        while (key[i] && e[i] == key[i]) i++;
        if (!key[i]) return e + i;
    }
    return NULL;
}

XC_EARLY static const char *find_cap(void)
{
    char *const *env = environ;
    if (!env && &__libc_stack_end && __libc_stack_end) {
        /* argc, argv[0..argc-1], NULL, then the environment. */
        const long *sp = (const long *)__libc_stack_end;
        char *const *argv = (char *const *)(sp + 1);
        if (sp[0] >= 0 && sp[0] < (1L << 24) && argv[sp[0]] == NULL) env = argv + sp[0] + 1;
    }
    return env ? find_cap_in(env) : NULL;
}
#else
static const char *find_cap(void) { return getenv("XC_CPUCAP"); }
#endif

/* AT_HWCAP: glibc passes it to Arm64 resolvers; the constructor asks for it. */
static unsigned long own_hwcap(void)
{
#if defined(XC_ARCH_ARM64) && defined(__linux__)
    return getauxval(AT_HWCAP);
#else
    return 0;
#endif
}

XC_EARLY static unsigned detect(unsigned long hwcap)
{
    unsigned f = 0;
    (void)hwcap;
#if defined(XC_ARCH_X64) && defined(XC_HAVE_IFUNC)
    f = detect_x64();
#elif defined(XC_ARCH_X64) && defined(XC_HAVE_CPU_FEATURES)
    const X86Info info = GetX86Info();
    f = xc_cpu_x64_from_cpu_features(&info);
#elif defined(XC_ARCH_ARM64) && defined(__linux__)
    if (hwcap & XC_HWCAP_ASIMD) f |= XC_CPU_ARM64_NEON;
    if (hwcap & XC_HWCAP_CRC32) f |= XC_CPU_ARM64_CRC;
    if (hwcap & XC_HWCAP_PMULL) f |= XC_CPU_ARM64_PMULL;
    if (hwcap & XC_HWCAP_SHA3) f |= XC_CPU_ARM64_SHA3;
#endif
    return f;
}

XC_EARLY static int same_string(const char *a, const char *b)
{
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

/*
 * The decision, packed into one word so that it can be published with one
 * atomic operation: the features in force (bits 0-15), those detected
 * (16-31), the tier in force (32-35) and the cap's tier (36-39), whether a
 * cap was named (40) and whether it named a tier (41), and bit 63, set in
 * every decision so that 0 means "not decided yet".
 */
#define XC_DECIDED (1ull << 63)
#define XC_D_ACTIVE(d) ((unsigned)((d) & 0xffff))
#define XC_D_DETECTED(d) ((unsigned)(((d) >> 16) & 0xffff))
#define XC_D_TIER(d) ((size_t)(((d) >> 32) & 15))
#define XC_D_CAP_NAMED(d) ((int)(((d) >> 40) & 1))
#define XC_D_CAP_KNOWN(d) ((int)(((d) >> 41) & 1))

XC_EARLY static uint64_t decide(unsigned detected, const char *cap)
{
    const size_t ntiers = XC_ARRAY_SIZE(tiers);
    size_t cap_index = ntiers - 1;
    int named = cap && *cap, known = 0;
    if (named) {
        for (size_t i = 0; i < ntiers; i++) {
            if (same_string(cap, tiers[i].name)) {
                cap_index = i;
                known = 1;
            }
        }
    }
    unsigned active = detected & tiers[cap_index].features;
    /* The tier in force is the highest one whose features are all there. */
    size_t tier = 0;
    for (size_t i = 0; i <= cap_index; i++)
        if ((tiers[i].features & ~XC_TIER_OPTIONAL & ~active) == 0) tier = i;
    /* Features above the tier in force are dropped, so that the cap really
     * means "this tier and below" on CPUs with odd feature mixes. */
    active &= tiers[tier].features;
    return XC_DECIDED | active | (uint64_t)detected << 16 | (uint64_t)tier << 32 |
           (uint64_t)cap_index << 36 | (uint64_t)named << 40 | (uint64_t)known << 41;
}

#if defined(XC_HAVE_IFUNC)
static uint64_t decision;

XC_EARLY static uint64_t decide_once(unsigned long hwcap)
{
    uint64_t d = __atomic_load_n(&decision, __ATOMIC_ACQUIRE);
    if (d) return d;
    uint64_t mine = decide(detect(hwcap), find_cap());
    /* Whoever publishes first decides for everyone. */
    if (__atomic_compare_exchange_n(&decision, &d, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return mine;
    return d;
}

unsigned xc_cpucap_resolve(unsigned long hwcap) { return XC_D_ACTIVE(decide_once(hwcap)); }
#else
static uint64_t decide_once(unsigned long hwcap) { return decide(detect(hwcap), find_cap()); }
#endif

/* ---- state: written once by init(), read-only afterwards ----------------- */

struct xc_kernels xc_kernels = {
    xc_crc32c_portable, xc_inet_sum_portable, xc_inet_checksum_portable, "portable", "portable",
    &xc_zstd_decode_portable, &xc_zstd_encode_portable, xc_xxh64_stripes_portable, "portable",
};
static const char *zstd_decode_name = "portable";
static const char *zstd_encode_name = "portable";

static unsigned detected_features;
static unsigned active_features;
static const char *active_tier = "portable";
static char description[256];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static size_t append(char *buf, size_t pos, size_t cap, const char *s)
{
    while (*s && pos + 1 < cap) buf[pos++] = *s++;
    buf[pos] = '\0';
    return pos;
}

static void init(void)
{
    const uint64_t d = decide_once(own_hwcap());
    detected_features = XC_D_DETECTED(d);
    active_features = XC_D_ACTIVE(d);
    active_tier = tiers[XC_D_TIER(d)].name;

    const struct xc_crc32c_variant *crc = xc_crc32c_choose(active_features);
    xc_kernels.crc32c = crc->fn;
    xc_kernels.crc32c_name = crc->name;
    const struct xc_inet_variant *inet = xc_inet_choose(active_features);
    xc_kernels.inet_sum = inet->fn;
    xc_kernels.inet_checksum = inet->checksum;
    xc_kernels.inet_name = inet->name;
    const struct xc_zstd_decode_variant *zd = zstd_decode_choose(active_features);
    xc_kernels.zstd_decode = zd->kernels;
    zstd_decode_name = zd->name;
    const struct xc_zstd_encode_variant *ze = zstd_encode_choose(active_features);
    xc_kernels.zstd_encode = ze->kernels;
    zstd_encode_name = ze->name;
    const struct xc_xxh64_variant *xx = xxh64_choose(active_features);
    xc_kernels.xxh64_stripes = xx->fn;
    xc_kernels.xxh64_name = xx->name;

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
    /* The cap's value is read again for the description only; the decision
     * above is the one the entry points were bound with. */
    const char *cap = find_cap();
    if (!XC_D_CAP_NAMED(d)) {
        pos = append(description, pos, cap_sz, "none");
    } else {
        pos = append(description, pos, cap_sz, XC_D_CAP_KNOWN(d) ? "" : "ignored:");
        /* The value comes from the environment: keep only printable bytes. */
        char clean[33];
        size_t n = 0;
        for (const char *c = cap ? cap : "?"; *c && n + 1 < sizeof clean; c++)
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
    if (strcmp(kernel, "xxh64") == 0) return xc_kernels.xxh64_name;
    return NULL;
}
