/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CPU detection and dispatch (internal).
 *
 * cpucap.c detects the CPU once, turns the answer into a bitmask of the
 * features xcodec uses, applies the XC_CPUCAP cap and decides, from the
 * variant lists below, which variant of each kernel runs.  Two mechanisms
 * carry the decision to the callers:
 *
 *   - xc_kernels, one table of function pointers, statically initialised
 *     with the portable kernels (so a call made before detection, even from
 *     another library's constructor, is still correct) and upgraded once, by
 *     a constructor guarded by pthread_once, before main() runs.  After that
 *     nothing writes it.  The zstd codec always reads its kernels from here,
 *     and so do the checksum entry points where GNU IFUNC is not available.
 *   - With GNU IFUNC (XC_HAVE_IFUNC: ELF and glibc, decided by CMake), the
 *     checksum entry points themselves are bound by the dynamic linker to
 *     the chosen kernel, so a caller's call reaches it with one indirect jump
 *     (the PLT's) and no entry function in between.  The resolvers run
 *     during relocation, before any constructor, and use the same decision
 *     as the table: see "Resolver-safe code" in cpucap.c.
 *
 * Each kernel family lists its variants here, lowest tier first, with the
 * features each one needs: the last one the features in force allow wins,
 * and the tests walk the list to check every variant against the portable
 * one.
 */
#ifndef XC_CPUCAP_H
#define XC_CPUCAP_H

#include "xc_internal.h"
#include "zstd/common/xxh64.h"

/* Features xcodec uses.  A bit is set only when both the CPU and the OS
 * support it (for vector state, the OS must save the registers). */
enum {
    XC_CPU_X64_SSE42 = 1u << 0,   /* SSE4.2 (crc32 instruction), SSSE3, POPCNT */
    XC_CPU_X64_PCLMUL = 1u << 1,  /* PCLMULQDQ on XMM */
    XC_CPU_X64_AVX2 = 1u << 2,    /* AVX2 with YMM state enabled */
    XC_CPU_X64_BMI2 = 1u << 3,    /* BMI1 and BMI2 */
    XC_CPU_X64_AVX512 = 1u << 4,  /* AVX-512 F, BW, VL, DQ with ZMM state enabled */
    XC_CPU_X64_VPCLMUL = 1u << 5, /* VPCLMULQDQ on YMM/ZMM */
    XC_CPU_X64_VNNI = 1u << 6,    /* AVX-512 VNNI (vpdpwssd), with AVX-512 */
    XC_CPU_X64_ZEN5 = 1u << 7,    /* AMD family 1Ah, with VPCLMUL: a tuning, not an ISA */
    XC_CPU_ARM64_NEON = 1u << 8,  /* Advanced SIMD */
    XC_CPU_ARM64_CRC = 1u << 9,   /* CRC32 instructions */
    XC_CPU_ARM64_PMULL = 1u << 10,/* PMULL/PMULL2 on 64-bit lanes */
    XC_CPU_ARM64_SHA3 = 1u << 11  /* EOR3, RAX1, XAR, BCAX */
};

/* The features in force: detected, then capped by XC_CPUCAP. */
XC_HIDDEN unsigned xc_cpu_features(void);
/* The features detected, before the cap. */
XC_HIDDEN unsigned xc_cpu_detected(void);
/* Run detection now (idempotent, thread-safe). */
XC_HIDDEN void xc_cpucap_init(void);

/* ---- kernel signatures -------------------------------------------------- */

/* Same contract as xc_crc32c(): takes and returns the public CRC value. */
typedef uint32_t (*xc_crc32c_fn)(uint32_t crc, const uint8_t *data, size_t len);
/* Same contract as xc_inet_sum(). */
typedef uint32_t (*xc_inet_sum_fn)(uint32_t sum, const uint8_t *data, size_t len);
/* Same contract as xc_inet_checksum(). */
typedef uint16_t (*xc_inet_checksum_fn)(const uint8_t *data, size_t len);

struct xc_crc32c_variant {
    const char *name;
    xc_crc32c_fn fn;
    unsigned needs;
};
struct xc_inet_variant {
    const char *name;
    xc_inet_sum_fn fn;
    unsigned needs;
    xc_inet_checksum_fn checksum; /* fn's sum, folded inside the kernel */
};

XC_HIDDEN extern const struct xc_crc32c_variant xc_crc32c_variants[];
XC_HIDDEN extern const size_t xc_crc32c_variant_count;
XC_HIDDEN extern const struct xc_inet_variant xc_inet_variants[];
XC_HIDDEN extern const size_t xc_inet_variant_count;

/* The zstd codec's variants: a table of hot loops each (struct
 * xc_zstd_dkernels in zstd/decompress/decompress_internal.h, struct
 * xc_zstd_ckernels in zstd/compress/compress_kernels.h), compiled from the
 * same templates under different targets; all write the same bytes. */
struct xc_zstd_dkernels;
struct xc_zstd_ckernels;
struct xc_zstd_decode_variant {
    const char *name;
    const struct xc_zstd_dkernels *kernels;
    unsigned needs;
};
struct xc_zstd_encode_variant {
    const char *name;
    const struct xc_zstd_ckernels *kernels;
    unsigned needs;
};
XC_HIDDEN extern const struct xc_zstd_decode_variant xc_zstd_decode_variants[];
XC_HIDDEN extern const size_t xc_zstd_decode_variant_count;
XC_HIDDEN extern const struct xc_zstd_encode_variant xc_zstd_encode_variants[];
XC_HIDDEN extern const size_t xc_zstd_encode_variant_count;

/* XXH64 of several buffers side by side (zstd/common/xxh64.h). */
struct xc_xxh64_variant {
    const char *name;
    xc_xxh64_stripes_fn fn;
    unsigned needs;
};
XC_HIDDEN extern const struct xc_xxh64_variant xc_xxh64_variants[];
XC_HIDDEN extern const size_t xc_xxh64_variant_count;

/* ---- choosing a variant ------------------------------------------------- */

/* Code that may run inside an IFUNC resolver, before the program is
 * initialised: no stack protector (in a static program the canary's TLS
 * does not exist yet), no sanitizer or profiling instrumentation (their
 * runtimes are not initialised), and, by the rules of cpucap.c, no call
 * into the C library. */
#if defined(__GNUC__) || defined(__clang__)
#  if defined(__has_attribute)
#    if __has_attribute(no_stack_protector)
#      define XC_EARLY_NOSSP __attribute__((no_stack_protector))
#    endif
#  endif
#  ifndef XC_EARLY_NOSSP
#    define XC_EARLY_NOSSP __attribute__((optimize("no-stack-protector")))
#  endif
#  if defined(__clang__)
#    define XC_EARLY_NOSAN                                                                     \
        __attribute__((no_sanitize("address", "thread", "memory", "undefined", "coverage")))
#  else
#    define XC_EARLY_NOSAN                                                                     \
        __attribute__((no_sanitize("address", "thread", "undefined"), no_sanitize_coverage))
#  endif
#  define XC_EARLY XC_EARLY_NOSSP XC_EARLY_NOSAN __attribute__((no_instrument_function))
#else
#  define XC_EARLY
#endif

/* The variant of each family that the features f allow: the last entry of
 * its list whose needs f meets.  Resolver-safe. */
XC_HIDDEN XC_EARLY const struct xc_crc32c_variant *xc_crc32c_choose(unsigned f);
XC_HIDDEN XC_EARLY const struct xc_inet_variant *xc_inet_choose(unsigned f);

#if defined(XC_HAVE_IFUNC)
/* The features in force, for a resolver.  The first caller (a resolver, or
 * the constructor) detects and reads XC_CPUCAP; every later one gets that
 * same answer, so every entry point and the table agree even if the
 * program changes its environment afterwards.  hwcap is AT_HWCAP where
 * glibc passes it to resolvers (Arm64), 0 elsewhere. */
XC_HIDDEN XC_EARLY unsigned xc_cpucap_resolve(unsigned long hwcap);

/* A resolver's parameters: glibc passes AT_HWCAP (with _IFUNC_ARG_HWCAP, bit
 * 62, set, and a second argument) on Arm64, and nothing on x64. */
#  if defined(__aarch64__)
#    define XC_RESOLVER_PARAMS uint64_t hwcap
#    define XC_RESOLVER_HWCAP ((unsigned long)(hwcap & ~(1ull << 62)))
#  else
#    define XC_RESOLVER_PARAMS void
#    define XC_RESOLVER_HWCAP 0ul
#  endif
/* A resolver's attributes: resolver-safe, and marked used, since clang
 * does not count the ifunc attribute's reference to a static function. */
#  define XC_RESOLVER XC_EARLY __attribute__((used))
/* Binds the function being declared to what resolver returns. */
#  define XC_IFUNC(resolver) __attribute__((ifunc(#resolver)))
#endif

/* ---- the dispatch table ------------------------------------------------- */

struct xc_kernels {
    xc_crc32c_fn crc32c;
    xc_inet_sum_fn inet_sum;
    xc_inet_checksum_fn inet_checksum;
    const char *crc32c_name;
    const char *inet_name;
    /* zstd: the decoder's and the encoder's kernel tables (their names
     * are their first field). */
    const struct xc_zstd_dkernels *zstd_decode;
    const struct xc_zstd_ckernels *zstd_encode;
    xc_xxh64_stripes_fn xxh64_stripes;
    const char *xxh64_name;
};

XC_HIDDEN extern struct xc_kernels xc_kernels;

#endif /* XC_CPUCAP_H */
