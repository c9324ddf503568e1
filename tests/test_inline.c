/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * include/xcodec_inline.h against the library: on random bytes at every
 * alignment, every length up to 300 and the fixed ones the header is for
 * (20 and 40, with the lengths given as constants, as callers give them),
 * with random starting sums, each inline function equals the library
 * function it names.  Also the corners where 0x0000 and 0xFFFF must not be
 * confused (all-zero and all-0xFF data) and a header checked the way a
 * receiver checks it.  Built twice: with the project's flags (the scalar
 * code) and with -mavx512bw (test_inline_avx512, the header's vector path),
 * which skips on a CPU without AVX-512 BW.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xc_test.h"
#include "xcodec_inline.h"

#define SPAN 64

static void check_len(const uint8_t *p, size_t len, uint32_t start)
{
    uint16_t want = xc_inet_checksum(p, len), got = xc_inline_inet_checksum(p, len);
    if (got != want)
        fail_msg("checksum len %zu align %u: inline 0x%04x, library 0x%04x", len,
                 (unsigned)((uintptr_t)p & 63), got, want);
    uint16_t ws = xc_inet_fold(xc_inet_sum(start, p, len));
    uint16_t gs = xc_inline_inet_fold(xc_inline_inet_sum(start, p, len));
    if (gs != ws)
        fail_msg("sum len %zu align %u start 0x%08x: inline 0x%04x, library 0x%04x", len,
                 (unsigned)((uintptr_t)p & 63), (unsigned)start, gs, ws);
    /* Partial sums of the two sides mix: the inline sum continues the
     * library's and the other way round. */
    size_t cut = len / 2 & ~(size_t)1;
    uint32_t mixed = xc_inline_inet_sum(xc_inet_sum(start, p, cut), p + cut, len - cut);
    assert_int_equal(xc_inet_fold(mixed), ws);
    mixed = xc_inet_sum(xc_inline_inet_sum(start, p, cut), p + cut, len - cut);
    assert_int_equal(xc_inline_inet_fold(mixed), ws);
}

static void test_random_every_alignment(void **state)
{
    (void)state;
    const size_t max = 300;
    uint8_t *buf = xc_guard_alloc(max + SPAN);
    const int rounds = xc_test_quick() ? 2 : 12;
    for (int r = 0; r < rounds; r++) {
        xc_rand_fill(buf, max + SPAN);
        for (size_t a = 0; a < SPAN; a++) {
            for (size_t len = 0; len <= max; len++) {
                /* Every alignment; with a = 0 the input ends at the guard
                 * page, so an over-read faults. */
                const uint8_t *p = buf + max + SPAN - len - a;
                check_len(p, len, a & 1 ? (uint32_t)xc_rand() : 0);
            }
        }
    }
    xc_guard_free(buf);
}

static void test_fixed_lengths(void **state)
{
    (void)state;
    uint8_t *buf = xc_guard_alloc(40 + SPAN);
    const int rounds = xc_test_quick() ? 200 : 5000;
    for (int r = 0; r < rounds; r++) {
        xc_rand_fill(buf, 40 + SPAN);
        for (size_t a = 0; a < SPAN; a++) {
            const uint8_t *p = buf + a;
            assert_int_equal(xc_inline_ipv4_checksum(p), xc_inet_checksum(p, 20));
            assert_int_equal(xc_inline_inet_checksum(p, 20), xc_inet_checksum(p, 20));
            assert_int_equal(xc_inline_inet_checksum40(p), xc_inet_checksum(p, 40));
            assert_int_equal(xc_inline_inet_checksum(p, 40), xc_inet_checksum(p, 40));
        }
    }
    /* The last 40 bytes before the guard page. */
    assert_int_equal(xc_inline_inet_checksum40(buf + SPAN), xc_inet_checksum(buf + SPAN, 40));
    assert_int_equal(xc_inline_ipv4_checksum(buf + SPAN + 20), xc_inet_checksum(buf + SPAN + 20, 20));
    xc_guard_free(buf);
}

static void test_zero_and_ones(void **state)
{
    (void)state;
    uint8_t buf[300];
    memset(buf, 0, sizeof buf);
    for (size_t len = 0; len <= sizeof buf; len++) {
        assert_int_equal(xc_inline_inet_checksum(buf, len), 0xFFFF);
        check_len(buf, len, 0);
        check_len(buf, len, 0xFFFF);
        check_len(buf, len, 0xFFFFFFFF);
    }
    assert_int_equal(xc_inline_ipv4_checksum(buf), 0xFFFF);
    assert_int_equal(xc_inline_inet_checksum40(buf), 0xFFFF);
    memset(buf, 0xFF, sizeof buf);
    for (size_t len = 0; len <= sizeof buf; len++) check_len(buf, len, 0);
    assert_int_equal(xc_inline_ipv4_checksum(buf), xc_inet_checksum(buf, 20));
    assert_int_equal(xc_inline_inet_checksum40(buf), xc_inet_checksum(buf, 40));
}

/* RFC 1071 section 3's example, and an IPv4 header written and checked. */
static void test_known(void **state)
{
    (void)state;
    const uint8_t rfc[8] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
    assert_int_equal(xc_inline_inet_checksum(rfc, 8), (uint16_t)~0xddf2);
    uint8_t hdr[20] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                       0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
    uint16_t c = xc_inline_ipv4_checksum(hdr);
    assert_int_equal(c, 0xb861);
    hdr[10] = (uint8_t)(c >> 8);
    hdr[11] = (uint8_t)c;
    assert_int_equal(xc_inline_ipv4_checksum(hdr), 0);
    assert_int_equal(xc_inet_checksum(hdr, 20), 0);
}

int main(void)
{
#if defined(__AVX512BW__)
    if (!__builtin_cpu_supports("avx512bw")) {
        printf("this CPU has no AVX-512 BW: skipped\n");
        return 77;
    }
#endif
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_every_alignment),
        cmocka_unit_test(test_fixed_lengths),
        cmocka_unit_test(test_zero_and_ones),
        cmocka_unit_test(test_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
