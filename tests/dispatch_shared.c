/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The checksum entry points of the shared library, from a program that
 * links it, under each XC_CPUCAP tier (CTest runs it once per tier; a tier
 * the machine lacks exits 77).
 *
 * The addresses this program takes are resolved at start-up, through its
 * GOT, while the C library is not initialised and environ is still NULL;
 * dlsym() resolves the same names later, when environ is set.  Both must
 * give the same function: the resolvers read XC_CPUCAP from the initial
 * stack in the first case and from environ in the second, and agree
 * because the first decision is the one kept (src/cpucap.c).  With IFUNC
 * that function is a kernel, not the exported entry (dladdr() names the
 * symbol an address falls in, and the kernels are not exported); without
 * it, it is the entry.  Only the public API is used.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xcodec.h"

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

static void check_entry(const char *name, const void *at_start)
{
    const void *later = dlsym(RTLD_DEFAULT, name);
    char what[160];
    snprintf(what, sizeof what, "%s: start-up %p, dlsym %p", name, at_start, later);
    check(later == at_start, what);
    Dl_info info;
    check(dladdr(at_start, &info) != 0 && info.dli_fname && strstr(info.dli_fname, "libxcodec"),
          "the entry resolves into libxcodec");
#if defined(XC_HAVE_IFUNC)
    snprintf(what, sizeof what, "%s is bound past its entry (dladdr names %s)", name,
             info.dli_sname ? info.dli_sname : "nothing");
    check(!info.dli_sname || strcmp(info.dli_sname, name) != 0, what);
#endif
    printf("# %s -> libxcodec+%#lx\n", name,
           (unsigned long)((uintptr_t)at_start - (uintptr_t)info.dli_fbase));
}

/* Whether xc_cpucap_describe()'s feature list names every feature of the
 * space-separated list needs. */
static int has_features(const char *needs)
{
    const char *d = strstr(xc_cpucap_describe(), "features=");
    if (!d) return 0;
    d += 9;
    size_t dlen = strcspn(d, " ");
    while (*needs) {
        size_t n = strcspn(needs, " ");
        int found = 0;
        for (const char *f = d; f < d + dlen; f += strcspn(f, ", ") + 1)
            if (strncmp(f, needs, n) == 0 && (f[n] == ',' || f[n] == ' ' || f + n == d + dlen))
                found = 1;
        if (!found) return 0;
        needs += n + (needs[n] == ' ');
    }
    return 1;
}

/* What each tier needs (src/cpucap.c), by the names xc_cpucap_describe()
 * gives features. */
static const char *const tier_needs[][2] = {
    {"portable", ""},
    {"sse42", "sse42"},
    {"pclmul", "sse42 pclmul"},
    {"avx2", "sse42 pclmul avx2 bmi2"},
    {"avx512", "sse42 pclmul avx2 bmi2 avx512 vpclmul"},
    {"crc", "neon crc"},
    {"pmull", "neon crc pmull"},
    {"sha3", "neon crc pmull sha3"},
};

int main(void)
{
    const char *cap = getenv("XC_CPUCAP");
    /* A cap this CPU meets must be the tier; a resolver that missed
     * XC_CPUCAP would otherwise give a tier above it and be skipped below. */
    for (size_t i = 0; cap && i < sizeof tier_needs / sizeof tier_needs[0]; i++) {
        if (strcmp(cap, tier_needs[i][0]) == 0 && has_features(tier_needs[i][1]) &&
            strcmp(xc_cpucap_tier(), cap) != 0) {
            printf("FAIL: XC_CPUCAP=%s, which this CPU meets, gave tier %s\n", cap,
                   xc_cpucap_tier());
            return 1;
        }
    }
    if (cap && *cap && strcmp(cap, xc_cpucap_tier()) != 0) {
        printf("skipped: XC_CPUCAP=%s but this machine runs tier %s\n", cap, xc_cpucap_tier());
        return 77;
    }
    printf("# %s; crc32c %s, inet %s\n", xc_cpucap_describe(), xc_impl_name("crc32c"),
           xc_impl_name("inet"));

    /* Taken as data, so that the program's GOT holds them from start-up. */
    static uint32_t (*const crc)(uint32_t, const void *, size_t) = xc_crc32c;
    static uint32_t (*const combine)(uint32_t, uint32_t, uint64_t) = xc_crc32c_combine;
    static uint32_t (*const sum)(uint32_t, const void *, size_t) = xc_inet_sum;
    static uint16_t (*const checksum)(const void *, size_t) = xc_inet_checksum;
    check_entry("xc_crc32c", (const void *)(uintptr_t)crc);
    check_entry("xc_crc32c_combine", (const void *)(uintptr_t)combine);
    check_entry("xc_inet_sum", (const void *)(uintptr_t)sum);
    check_entry("xc_inet_checksum", (const void *)(uintptr_t)checksum);

    check(crc(0, "123456789", 9) == 0xE3069283u, "CRC32C check value");
    check(xc_crc32c(0, "123456789", 9) == 0xE3069283u, "CRC32C check value through the PLT");
    check(combine(crc(0, "1234", 4), crc(0, "56789", 5), 5) == 0xE3069283u, "combine");
    const uint8_t rfc1071[8] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
    check(xc_inet_fold(sum(0, rfc1071, 8)) == (uint16_t)~0xddf2, "RFC 1071 sum");
    check(checksum(rfc1071, 8) == (uint16_t)~0xddf2, "RFC 1071 checksum");
    if (cap && strcmp(cap, "portable") == 0) {
        check(strcmp(xc_impl_name("crc32c"), "portable") == 0, "portable crc32c under the cap");
        check(strcmp(xc_impl_name("inet"), "portable") == 0, "portable inet under the cap");
    }
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
