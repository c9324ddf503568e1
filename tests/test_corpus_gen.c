/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The benchmark corpus by class (programs/corpus_gen*.c): each class at
 * 64 KiB from seed 1 has the digest pinned below on every platform (the
 * arm64 and s390x presets run this test under qemu: a host-endian write
 * or a float rounding would show there), any size is filled exactly and
 * nothing past it is written, a seed gives the same bytes twice and two
 * seeds give different bytes, and the classes are what their names say
 * to a compressor (random and zlib data do not compress, runs do, far
 * repeats lie more than 1 MiB back).
 *
 * The zlib class is deflate's output, so its digest is pinned for the
 * zlib release it was taken with (1.2.13, Debian 12) only; other releases
 * may choose other matches.  Builds without zlib (the s390x preset has no
 * :s390x zlib) do not have the class.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_gen.h"
#include "xc_test.h"

#ifdef XC_HAVE_ZLIB
#  include <zlib.h>
#endif

#define DIGEST_BYTES ((size_t)64 << 10)

/* 64-bit FNV-1a: a digest that is the same on every byte order. */
static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

static const struct {
    const char *name;
    uint64_t digest;
} g_digests[] = {
    {"text", 0x166e9db2171fdbabull},
    {"source", 0x1b782a8c0e14d08full},
    {"exec", 0x2f5cd212ed15ef11ull},
    {"json", 0x22f8c3e1dcf9efaeull},
    {"csv", 0xface33c4f6d55dc0ull},
    {"logs", 0x6e4e2c3ed54843e0ull},
    {"utf16", 0x5fadeb6412cf53bcull},
    {"database", 0xdfa5d723801346ccull},
    {"random", 0x0847f449a97aeb0bull},
    {"zlib", 0x69de47029abcdbbaull},
    {"runs", 0x12ae81daf8fe4e65ull},
    {"periods", 0x4d68c056f716f3e4ull},
    {"mixed", 0x737841431d48f3f2ull},
};

static void test_names(void **state)
{
    (void)state;
    size_t n = xc_corpus_class_count();
    assert_int_equal(n, sizeof g_digests / sizeof g_digests[0]);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(xc_corpus_class_name(i), g_digests[i].name);
        assert_int_equal(xc_corpus_class_find(g_digests[i].name), (int)i);
        assert_non_null(xc_corpus_class_what(i));
    }
    assert_null(xc_corpus_class_name(n));
    assert_int_equal(xc_corpus_class_find("nonesuch"), -1);
    assert_int_equal(xc_corpus_generate(n, 1, NULL, 0), -1);
}

static void test_digests(void **state)
{
    (void)state;
    uint8_t *d = malloc(DIGEST_BYTES);
    assert_non_null(d);
    int bad = 0;
    for (size_t i = 0; i < xc_corpus_class_count(); i++) {
        if (!xc_corpus_class_available(i)) {
            assert_string_equal(xc_corpus_class_name(i), "zlib");
            printf("# class zlib: not built in (no zlib), no digest to check\n");
            continue;
        }
        assert_int_equal(xc_corpus_generate(i, 1, d, DIGEST_BYTES), 0);
        uint64_t h = fnv1a(d, DIGEST_BYTES);
#ifdef XC_HAVE_ZLIB
        if (strcmp(xc_corpus_class_name(i), "zlib") == 0 && ZLIB_VERNUM != 0x12d0) {
            printf("# class zlib: zlib %s, digest pinned for 1.2.13 only\n", ZLIB_VERSION);
            continue;
        }
#endif
        if (h != g_digests[i].digest) {
            printf("# class %s: digest 0x%016llxull, expected 0x%016llxull\n",
                   xc_corpus_class_name(i), (unsigned long long)h,
                   (unsigned long long)g_digests[i].digest);
            bad = 1;
        }
    }
    free(d);
    assert_false(bad);
}

/* Every size is filled to the last byte and not one byte further; the
 * output is a function of (class, seed, size). */
static void test_sizes_and_seeds(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 64, 1000, 4096, 65543};
    const size_t cap = 65543 + 64;
    uint8_t *a = malloc(cap), *b = malloc(cap);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t i = 0; i < xc_corpus_class_count(); i++) {
        if (!xc_corpus_class_available(i)) continue;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            memset(a, 0xA5, cap);
            memset(b, 0x5A, cap);
            assert_int_equal(xc_corpus_generate(i, 7, a, n), 0);
            assert_int_equal(xc_corpus_generate(i, 7, b, n), 0);
            assert_memory_equal(a, b, n);
            for (size_t j = n; j < cap; j++) assert_int_equal(a[j], 0xA5);
            if (n >= 1000) {
                assert_int_equal(xc_corpus_generate(i, 8, b, n), 0);
                assert_memory_not_equal(a, b, n);
            }
        }
    }
    free(a);
    free(b);
}

static size_t compressed_size(const uint8_t *p, size_t n)
{
    size_t cap = xc_zstd_compress_bound(n);
    uint8_t *dst = malloc(cap);
    assert_non_null(dst);
    size_t r = xc_zstd_compress(dst, cap, p, n, 1);
    assert_false(xc_is_error(r));
    free(dst);
    return r;
}

/* What each class is for: incompressible data stays incompressible, runs
 * and periods compress far, the text-like classes in between. */
static void test_compressibility(void **state)
{
    (void)state;
    const size_t n = (size_t)256 << 10;
    uint8_t *d = malloc(n);
    assert_non_null(d);
    for (size_t i = 0; i < xc_corpus_class_count(); i++) {
        if (!xc_corpus_class_available(i)) continue;
        const char *name = xc_corpus_class_name(i);
        assert_int_equal(xc_corpus_generate(i, 3, d, n), 0);
        size_t c = compressed_size(d, n);
        if (strcmp(name, "random") == 0 || strcmp(name, "zlib") == 0)
            assert_true(c >= n);
        else if (strcmp(name, "runs") == 0)
            assert_true(c < n / 100);
        else if (strcmp(name, "periods") == 0)
            assert_true(c < n / 10);
        else
            assert_true(c > n / 20 && c < n * 3 / 4);
    }
    free(d);
}

/* The mixed class repeats what lies more than 1 MiB back: in 3 MiB of it,
 * some 256-byte block at 8 KiB alignment past the first 1 MiB + 4 KiB
 * equals the bytes at least 1 MiB before it. */
static void test_far_repeats(void **state)
{
    (void)state;
    const size_t n = (size_t)3 << 20, far = (size_t)1 << 20;
    uint8_t *d = malloc(n);
    assert_non_null(d);
    assert_int_equal(xc_corpus_generate((size_t)xc_corpus_class_find("mixed"), 1, d, n), 0);
    /* Most blocks past 1 MiB are copies, so the scan stops after a few. */
    size_t found = 0;
    for (size_t pos = far + 4096; pos + 256 <= n && found < 4; pos += 8192) {
        for (size_t src = 0; src + far <= pos; src++) {
            if (d[src] == d[pos] && memcmp(d + src, d + pos, 256) == 0) {
                found++;
                break;
            }
        }
    }
    free(d);
    assert_true(found >= 4);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_digests),
        cmocka_unit_test(test_sizes_and_seeds),
        cmocka_unit_test(test_compressibility),
        cmocka_unit_test(test_far_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
