/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How the checksum entry points reach their kernels, under each XC_CPUCAP
 * tier (CTest runs this once per tier): with GNU IFUNC the entry points are
 * bound to the variant that cpucap's lists choose for the features in force,
 * and xc_impl_name() names that very variant; without it the table holds it.
 *
 * This program is linked with the static library into a dynamically linked
 * executable, so its IRELATIVE relocations are applied while the C library
 * is not initialised yet (environ is still NULL): XC_CPUCAP then reaches the
 * resolvers from the initial stack, and a resolver that missed it would
 * bind a variant above the cap, which the first test sees.  The shared
 * library's side is tests/dispatch_shared.c, the fully static program's
 * tests/install/run.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpucap.h"
#include "xc_test.h"

#if defined(XC_TEST_CPU_FEATURES) && defined(XC_ARCH_X64)
#  include <cpu_features/cpuinfo_x86.h>
#  include "cpucap_cpu_features.h"
#endif

/* The address of a function, for comparison: an entry point's address is
 * its IFUNC target, the kernel itself. */
#define ADDR(f) ((const void *)(uintptr_t)(f))

static void test_entries_bound_to_choice(void **state)
{
    (void)state;
    const unsigned f = xc_cpu_features();
    const struct xc_crc32c_variant *crc = xc_crc32c_choose(f);
    const struct xc_inet_variant *inet = xc_inet_choose(f);
#if defined(XC_HAVE_IFUNC)
    if (ADDR(xc_crc32c) != ADDR(crc->fn))
        fail_msg("xc_crc32c is not bound to %s under tier %s", crc->name, xc_cpucap_tier());
    if (ADDR(xc_inet_sum) != ADDR(inet->fn))
        fail_msg("xc_inet_sum is not bound to %s under tier %s", inet->name, xc_cpucap_tier());
    if (ADDR(xc_inet_checksum) != ADDR(inet->checksum))
        fail_msg("xc_inet_checksum is not bound to %s's entry under tier %s", inet->name,
                 xc_cpucap_tier());
    printf("# IFUNC: xc_crc32c -> %s, xc_inet_sum and xc_inet_checksum -> %s\n", crc->name,
           inet->name);
#else
    assert_ptr_equal(ADDR(xc_kernels.crc32c), ADDR(crc->fn));
    assert_ptr_equal(ADDR(xc_kernels.inet_sum), ADDR(inet->fn));
    assert_ptr_equal(ADDR(xc_kernels.inet_checksum), ADDR(inet->checksum));
    printf("# table: crc32c -> %s, inet -> %s\n", crc->name, inet->name);
#endif
    /* The table agrees with the binding either way (the zstd codec and the
     * benchmarks read it). */
    assert_ptr_equal(ADDR(xc_kernels.crc32c), ADDR(crc->fn));
    assert_ptr_equal(ADDR(xc_kernels.inet_checksum), ADDR(inet->checksum));
}

/* xc_impl_name() names what runs: the variant whose kernel the entry point
 * is bound to (IFUNC) or the table holds. */
static void test_impl_name_is_bound_variant(void **state)
{
    (void)state;
#if defined(XC_HAVE_IFUNC)
    const void *crc = ADDR(xc_crc32c), *inet = ADDR(xc_inet_checksum);
#else
    const void *crc = ADDR(xc_kernels.crc32c), *inet = ADDR(xc_kernels.inet_checksum);
#endif
    const char *crc_name = NULL, *inet_name = NULL;
    for (size_t i = 0; i < xc_crc32c_variant_count; i++)
        if (ADDR(xc_crc32c_variants[i].fn) == crc) crc_name = xc_crc32c_variants[i].name;
    for (size_t i = 0; i < xc_inet_variant_count; i++)
        if (ADDR(xc_inet_variants[i].checksum) == inet) inet_name = xc_inet_variants[i].name;
    assert_non_null(crc_name);
    assert_non_null(inet_name);
    assert_string_equal(xc_impl_name("crc32c"), crc_name);
    assert_string_equal(xc_impl_name("inet"), inet_name);
}

/* Under a cap, nothing above it is bound: the variant's needs are within
 * the cap's tier (the cap's tier is the one in force, xc_test_init() skips
 * the others). */
static void test_cap_obeyed(void **state)
{
    (void)state;
    const char *cap = getenv("XC_CPUCAP");
    if (!cap || !*cap) skip();
    assert_string_equal(xc_cpucap_tier(), cap);
    const unsigned f = xc_cpu_features();
    assert_int_equal(xc_crc32c_choose(f)->needs & ~f, 0);
    if (strcmp(cap, "portable") == 0) {
        assert_int_equal(f, 0);
        assert_string_equal(xc_impl_name("crc32c"), "portable");
        assert_string_equal(xc_impl_name("inet"), "portable");
    }
}

/* The entry points compute the right thing whichever way they are bound,
 * the combine among them (its two forms are static in crc32c.c). */
static void test_entries_work(void **state)
{
    (void)state;
    assert_int_equal(xc_crc32c(0, "123456789", 9), 0xE3069283u);
    const uint8_t rfc1071[8] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
    assert_int_equal(xc_inet_fold(xc_inet_sum(0, rfc1071, 8)), (uint16_t)~0xddf2);
    assert_int_equal(xc_inet_checksum(rfc1071, 8), (uint16_t)~0xddf2);
    uint32_t a = xc_crc32c(0, "12345", 5), b = xc_crc32c(0, "6789", 4);
    assert_int_equal(xc_crc32c_combine(a, b, 4), 0xE3069283u);
}

/* With IFUNC the library reads CPUID itself (cpu_features cannot run in a
 * resolver, src/cpucap.c says why); where cpu_features is installed, it is
 * the reference for what that detection finds, by the rules cpucap.c
 * follows. */
static void test_detection_matches_cpu_features(void **state)
{
    (void)state;
#if defined(XC_TEST_CPU_FEATURES) && defined(XC_HAVE_IFUNC) && defined(XC_ARCH_X64)
    const X86Info info = GetX86Info();
    unsigned const f = xc_cpu_x64_from_cpu_features(&info);
    if (f != xc_cpu_detected())
        fail_msg("CPUID detection 0x%x, cpu_features 0x%x", xc_cpu_detected(), f);
#else
    skip();
#endif
}

/* What each tier needs (src/cpucap.c's table, AVX-512 VNNI being optional
 * there), to tell a cap the CPU can meet from one it cannot without asking
 * the code under test. */
static const struct {
    const char *name;
    unsigned needs;
} tier_needs[] = {
    {"portable", 0},
    {"sse42", XC_CPU_X64_SSE42},
    {"pclmul", XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL},
    {"avx2", XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL | XC_CPU_X64_AVX2 | XC_CPU_X64_BMI2},
    {"avx512", XC_CPU_X64_SSE42 | XC_CPU_X64_PCLMUL | XC_CPU_X64_AVX2 | XC_CPU_X64_BMI2 |
                   XC_CPU_X64_AVX512 | XC_CPU_X64_VPCLMUL},
    {"crc", XC_CPU_ARM64_NEON | XC_CPU_ARM64_CRC},
    {"pmull", XC_CPU_ARM64_NEON | XC_CPU_ARM64_CRC | XC_CPU_ARM64_PMULL},
    {"sha3", XC_CPU_ARM64_NEON | XC_CPU_ARM64_CRC | XC_CPU_ARM64_PMULL | XC_CPU_ARM64_SHA3},
};

int main(void)
{
    /* Before xc_test_init(), which skips a run whose tier is not the cap:
     * a resolver that missed XC_CPUCAP would give a tier above the cap and
     * be skipped, not caught.  Here a cap this CPU meets must be the tier. */
    const char *cap = getenv("XC_CPUCAP");
    for (size_t i = 0; cap && i < sizeof tier_needs / sizeof tier_needs[0]; i++) {
        if (strcmp(cap, tier_needs[i].name) == 0 &&
            (xc_cpu_detected() & tier_needs[i].needs) == tier_needs[i].needs &&
            strcmp(xc_cpucap_tier(), cap) != 0) {
            printf("FAIL: XC_CPUCAP=%s, which this CPU meets, gave tier %s\n", cap,
                   xc_cpucap_tier());
            return 1;
        }
    }
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_bound_to_choice),
        cmocka_unit_test(test_impl_name_is_bound_variant),
        cmocka_unit_test(test_cap_obeyed),
        cmocka_unit_test(test_entries_work),
        cmocka_unit_test(test_detection_matches_cpu_features),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
