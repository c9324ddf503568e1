/* SPDX-License-Identifier: BSD-2-Clause */
/* cpucap: the tier in force, the cap, the names of the variants in use, and
 * the error and version API. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cpucap.h"
#include "xc_test.h"

static const char *const known_tiers[] = {"portable", "sse42", "pclmul", "avx2",
                                          "avx512",   "crc",   "pmull",  "sha3"};

static void test_describe_names_tier(void **state)
{
    (void)state;
    const char *d = xc_cpucap_describe();
    const char *tier = xc_cpucap_tier();
    assert_non_null(d);
    assert_non_null(tier);
    assert_non_null(strstr(d, "arch="));
    char want[64];
    snprintf(want, sizeof want, "tier=%s ", tier);
    assert_non_null(strstr(d, want));
    int known = 0;
    for (size_t i = 0; i < sizeof known_tiers / sizeof known_tiers[0]; i++)
        known |= strcmp(tier, known_tiers[i]) == 0;
    assert_true(known);
    const char *cap = getenv("XC_CPUCAP");
    if (cap && *cap) {
        /* xc_test_init() already skipped runs whose cap the CPU cannot meet. */
        assert_string_equal(tier, cap);
    }
}

static void test_features_within_detected(void **state)
{
    (void)state;
    unsigned active = xc_cpu_features(), detected = xc_cpu_detected();
    assert_int_equal(active & ~detected, 0);
    const char *cap = getenv("XC_CPUCAP");
    if (cap && strcmp(cap, "portable") == 0) assert_int_equal(active, 0);
}

static void test_impl_names(void **state)
{
    (void)state;
    assert_null(xc_impl_name(NULL));
    assert_null(xc_impl_name("no-such-kernel"));
    const char *kernels[] = {"crc32c", "inet", "zstd_decode"};
    for (size_t i = 0; i < 3; i++) {
        const char *n = xc_impl_name(kernels[i]);
        assert_non_null(n);
        if (strcmp(xc_cpucap_tier(), "portable") == 0) assert_string_equal(n, "portable");
    }
    /* The chosen variant is the best one the features in force allow. */
    unsigned f = xc_cpu_features();
    const char *best = NULL;
    for (size_t i = 0; i < xc_crc32c_variant_count; i++)
        if ((xc_crc32c_variants[i].needs & f) == xc_crc32c_variants[i].needs)
            best = xc_crc32c_variants[i].name;
    assert_string_equal(xc_impl_name("crc32c"), best);
    best = NULL;
    for (size_t i = 0; i < xc_inet_variant_count; i++)
        if ((xc_inet_variants[i].needs & f) == xc_inet_variants[i].needs)
            best = xc_inet_variants[i].name;
    assert_string_equal(xc_impl_name("inet"), best);
}

static void test_errors_and_version(void **state)
{
    (void)state;
    assert_int_equal(xc_version(), XC_VERSION_NUMBER);
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", XC_VERSION_MAJOR, XC_VERSION_MINOR, XC_VERSION_PATCH);
    assert_string_equal(xc_version_string(), v);

    assert_false(xc_is_error(0));
    assert_false(xc_is_error(12345));
    assert_false(xc_is_error((size_t)0 - 100));
    assert_int_equal(xc_error_code(0), XC_OK);
    assert_string_equal(xc_error_name(0), "no error");
    for (int e = 1; e < XC_ERROR__COUNT; e++) {
        size_t r = (size_t)0 - (size_t)e;
        assert_true(xc_is_error(r));
        assert_int_equal(xc_error_code(r), e);
        const char *name = xc_error_name(r);
        assert_non_null(name);
        assert_string_not_equal(name, "unknown error");
        /* Every name is distinct. */
        for (int o = 0; o < e; o++) assert_string_not_equal(name, xc_error_string((enum xc_error)o));
    }
    assert_string_equal(xc_error_string((enum xc_error)999), "unknown error");
    /* Stable values: these numbers are ABI. */
    assert_int_equal(XC_ERROR_CORRUPT, 2);
    assert_int_equal(XC_ERROR_DST_TOO_SMALL, 4);
    assert_int_equal(XC_ERROR_BAD_PARAMETER, 11);
    assert_int_equal(XC_ERROR_FRAME_HEADER, 18);
    assert_int_equal(XC_ERROR_SEEK_TABLE_MISSING, 19);
    assert_int_equal(XC_ERROR_OUT_OF_RANGE, 22);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe_names_tier),
        cmocka_unit_test(test_features_within_detected),
        cmocka_unit_test(test_impl_names),
        cmocka_unit_test(test_errors_and_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
