/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Internet checksum: every kernel variant the CPU allows against a
 * byte-at-a-time reference written here, the RFC 1071 example, real IPv4,
 * UDP and ICMP packets, xc_inet_combine() over random splits, and RFC 1624
 * updates against recomputation.
 *
 * Kernels may return different 32-bit partial sums for the same input (any
 * value congruent modulo 0xFFFF is right), so sums are compared after
 * xc_inet_fold().  That comparison is exact, not modulo 0xFFFF: 0x0000 and
 * 0xFFFF must not be confused, because a kernel's partial sum is zero only
 * for all-zero input (src/inet_internal.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpucap.h"
#include "xc_test.h"

/* ---- reference ----------------------------------------------------------- */

/* A byte's share of the sum: the first byte of each big-endian word counts
 * 256 times, the second once. */
static uint64_t ref_byte(size_t offset, uint8_t b)
{
    return (offset & 1) ? b : (uint64_t)b << 8;
}

/* The canonical 16-bit ones'-complement sum of a 64-bit total: zero only
 * when the total is. */
static uint16_t ref_fold16(uint64_t total)
{
    while (total >> 16) total = (total & 0xFFFF) + (total >> 16);
    return (uint16_t)total;
}

static uint16_t ref_checksum(uint32_t start, const uint8_t *p, size_t len)
{
    uint64_t total = start;
    for (size_t i = 0; i < len; i++) total += ref_byte(i, p[i]);
    return (uint16_t)~ref_fold16(total);
}

/* ---- the variants under test ---------------------------------------------- */

static int variant_allowed(size_t i)
{
    return (xc_inet_variants[i].needs & xc_cpu_features()) == xc_inet_variants[i].needs;
}

static void check_one(size_t v, uint32_t start, const uint8_t *p, size_t len, uint16_t want,
                      const char *what)
{
    uint16_t got = xc_inet_fold(xc_inet_variants[v].fn(start, p, len));
    if (got != want)
        fail_msg("%s: %s len %zu align %u start 0x%08x: fold 0x%04x, want 0x%04x",
                 xc_inet_variants[v].name, what, len, (unsigned)((uintptr_t)p & 63),
                 (unsigned)start, got, want);
    /* The variant's checksum entry folds inside the kernel: the same value
     * when the sum starts at 0. */
    if (start == 0 && (got = xc_inet_variants[v].checksum(p, len)) != want)
        fail_msg("%s: %s len %zu align %u: checksum entry 0x%04x, want 0x%04x",
                 xc_inet_variants[v].name, what, len, (unsigned)((uintptr_t)p & 63), got, want);
}

/* ---- tests ----------------------------------------------------------------- */

static void test_fold_and_empty(void **state)
{
    (void)state;
    assert_int_equal(xc_inet_fold(0), 0xFFFF);
    assert_int_equal(xc_inet_fold(0xFFFF), 0);
    assert_int_equal(xc_inet_fold(0x10000), 0xFFFE);
    assert_int_equal(xc_inet_fold(0x1FFFE), 0);
    assert_int_equal(xc_inet_fold(0xFFFFFFFF), 0);
    assert_int_equal(xc_inet_fold(0xFFFF0000), 0);
    assert_int_equal(xc_inet_fold(0x0001FFFF), 0xFFFE);
    for (int i = 0; i < 100000; i++) {
        uint32_t s = (uint32_t)xc_rand();
        assert_int_equal(xc_inet_fold(s), (uint16_t)~ref_fold16(s));
    }
    /* NULL with length 0, through the public entry points and, since they
     * pass it on unchecked, through every variant. */
    assert_int_equal(xc_inet_sum(0x1234, NULL, 0), 0x1234);
    assert_int_equal(xc_inet_checksum(NULL, 0), 0xFFFF);
    for (size_t v = 0; v < xc_inet_variant_count; v++) {
        if (!variant_allowed(v)) continue;
        assert_int_equal(xc_inet_fold(xc_inet_variants[v].fn(0, NULL, 0)), 0xFFFF);
        assert_int_equal(xc_inet_variants[v].fn(0x1234, NULL, 0), 0x1234);
        assert_int_equal(xc_inet_variants[v].fn(0xFFFFFFFF, NULL, 0), 0xFFFFFFFF);
        assert_int_equal(xc_inet_variants[v].checksum(NULL, 0), 0xFFFF);
    }
}

/* RFC 1071 section 3: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2. */
static void test_rfc1071_example(void **state)
{
    (void)state;
    static const uint8_t b[8] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
    assert_int_equal(xc_inet_checksum(b, 8), (uint16_t)~0xddf2);
    /* The same bytes at every alignment, through every variant. */
    uint8_t buf[8 + 64];
    for (unsigned a = 0; a < 64; a++) {
        memcpy(buf + a, b, 8);
        for (size_t v = 0; v < xc_inet_variant_count; v++)
            if (variant_allowed(v)) check_one(v, 0, buf + a, 8, (uint16_t)~0xddf2, "rfc1071");
    }
}

/* Lengths 0..max at alignments 0..63, with the reference's prefix sums kept
 * incrementally so that the reference costs one byte per length. */
static void test_lengths_alignments(void **state)
{
    (void)state;
    const size_t max = xc_test_quick() ? 1024 : 4096;
    const unsigned astep = xc_test_quick() ? 7 : 1;
    uint8_t *buf = malloc(max + 64);
    assert_non_null(buf);
    xc_rand_fill(buf, max + 64);
    for (unsigned a = 0; a < 64; a += astep) {
        const uint8_t *p = buf + a;
        uint64_t total = 0;
        for (size_t len = 0; len <= max; len++) {
            uint16_t want = (uint16_t)~ref_fold16(total);
            for (size_t v = 0; v < xc_inet_variant_count; v++)
                if (variant_allowed(v)) check_one(v, 0, p, len, want, "sweep");
            if (len < max) total += ref_byte(len, p[len]);
        }
    }
    free(buf);
}

/* Buffers that end just before a guard page, so a read past the end faults;
 * the start moves through every alignment as the length grows. */
static void test_guard_page(void **state)
{
    (void)state;
    const size_t max = xc_test_quick() ? 1100 : 4200;
    uint8_t *buf = xc_guard_alloc(max);
    assert_non_null(buf);
    xc_rand_fill(buf, max);
    const uint8_t *end = buf + max;
    uint64_t even = 0, odd = 0; /* bytes at even and odd distance from the end */
    for (size_t len = 0; len <= max; len++) {
        /* With the last byte at distance 0, the first byte of the buffer
         * heads a word when len - 1 is even. */
        uint64_t total = (len & 1) ? (even << 8) + odd : (odd << 8) + even;
        uint16_t want = (uint16_t)~ref_fold16(total);
        for (size_t v = 0; v < xc_inet_variant_count; v++)
            if (variant_allowed(v)) check_one(v, 0, end - len, len, want, "guard");
        if (len < max) {
            if (len & 1) odd += end[-1 - (ptrdiff_t)len];
            else even += end[-1 - (ptrdiff_t)len];
        }
    }
    /* The same with every byte 0xFF: the most carries, and a sum that is
     * the ones'-complement zero 0xFFFF, not 0. */
    memset(buf, 0xFF, max);
    for (size_t len = 1; len <= max; len += 1 + xc_rand_below(7)) {
        const uint8_t *p = end - len;
        uint16_t want = ref_checksum(0, p, len);
        for (size_t v = 0; v < xc_inet_variant_count; v++)
            if (variant_allowed(v)) check_one(v, 0, p, len, want, "guard-ff");
    }
    xc_guard_free(buf);
}

/* Random lengths up to 1 MiB, random alignments, random and corner starting
 * sums, random, all-zero and all-0xFF data. */
static void test_random_long(void **state)
{
    (void)state;
    const size_t max = (size_t)1 << 20;
    const int rounds = xc_test_quick() ? 6 : 24;
    static const uint32_t starts[] = {0, 1, 0xFFFF, 0x10000, 0xFFFFFFFE, 0xFFFFFFFF};
    uint8_t *buf = xc_guard_alloc(max + 64);
    assert_non_null(buf);
    for (int r = 0; r < rounds; r++) {
        size_t len = xc_rand_below((uint32_t)max + 1);
        if (r < 3) len = max - (size_t)r; /* full size, odd and even */
        unsigned align = xc_rand_below(64);
        const uint8_t *p = buf + 64 + max - len - align; /* ends 0..63 bytes short of the guard */
        switch (r % 4) {
        case 0: memset(buf, 0, max + 64); break;
        case 1: memset(buf, 0xFF, max + 64); break;
        default: xc_rand_fill(buf, max + 64); break;
        }
        uint32_t start = (r & 1) ? (uint32_t)xc_rand() : starts[(size_t)r / 2 % XC_ARRAY_SIZE(starts)];
        uint16_t want = ref_checksum(start, p, len);
        for (size_t v = 0; v < xc_inet_variant_count; v++)
            if (variant_allowed(v)) check_one(v, start, p, len, want, "random");
        assert_int_equal(xc_inet_fold(xc_inet_sum(start, p, len)), want);
    }
    xc_guard_free(buf);
}

/* The starting sum is honoured on short and medium inputs as well,
 * including the zero-data cases where only the starting sum counts. */
static void test_start_sum(void **state)
{
    (void)state;
    static const uint32_t starts[] = {0, 1, 0xFFFF, 0x10000, 0x12345678, 0xFFFFFFFE, 0xFFFFFFFF};
    uint8_t buf[700];
    for (int fill = 0; fill < 3; fill++) {
        if (fill == 2) xc_rand_fill(buf, sizeof buf);
        else memset(buf, fill ? 0xFF : 0, sizeof buf);
        for (size_t s = 0; s < XC_ARRAY_SIZE(starts); s++) {
            for (size_t len = 0; len + 3 <= sizeof buf; len += 1 + xc_rand_below(40)) {
                const uint8_t *p = buf + xc_rand_below(4);
                uint16_t want = ref_checksum(starts[s], p, len);
                for (size_t v = 0; v < xc_inet_variant_count; v++)
                    if (variant_allowed(v)) check_one(v, starts[s], p, len, want, "start");
            }
        }
    }
    /* Zero data keeps the representation of the starting sum. */
    memset(buf, 0, sizeof buf);
    assert_int_equal(xc_inet_fold(xc_inet_sum(0, buf, 600)), 0xFFFF);
    assert_int_equal(xc_inet_fold(xc_inet_sum(0xFFFFFFFF, buf, 600)), 0);
}

/* Pieces of random lengths, odd and even, chained with xc_inet_combine(). */
static void test_combine(void **state)
{
    (void)state;
    const int rounds = xc_test_quick() ? 200 : 2000;
    uint8_t buf[3000];
    for (int r = 0; r < rounds; r++) {
        size_t len = xc_rand_below(sizeof buf + 1);
        xc_rand_fill(buf, len);
        if (r % 10 == 0) memset(buf, 0xFF, len);
        uint32_t acc = 0;
        size_t done = 0;
        while (done < len) {
            size_t piece = 1 + xc_rand_below((uint32_t)(len - done));
            size_t small = 1 + xc_rand_below(9);
            if ((r & 1) && small < piece) piece = small; /* many small pieces */
            acc = xc_inet_combine(acc, xc_inet_sum(0, buf + done, piece), done);
            done += piece;
        }
        assert_int_equal(xc_inet_fold(acc), ref_checksum(0, buf, len));
    }
    /* The RFC 1071 example split at every point. */
    static const uint8_t b[8] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
    for (size_t k = 0; k <= 8; k++) {
        uint32_t s = xc_inet_combine(xc_inet_sum(0, b, k), xc_inet_sum(0, b + k, 8 - k), k);
        assert_int_equal(xc_inet_fold(s), (uint16_t)~0xddf2);
    }
    assert_int_equal(xc_inet_combine(0, 0, 7), 0);
    assert_int_equal(xc_inet_fold(xc_inet_combine(0xFFFFFFFF, 0xFFFFFFFF, 3)), 0);
}

/* ---- real packets ----------------------------------------------------------- */

/* IPv4 192.168.1.10 -> 8.8.8.8, UDP 53124 -> 53, a DNS query for
 * example.com (A): 57 bytes, with an odd UDP length (37). */
static const uint8_t udp_packet[57] = {
    0x45, 0x00, 0x00, 0x39, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x11, 0x4c, 0xac,
    0xc0, 0xa8, 0x01, 0x0a, 0x08, 0x08, 0x08, 0x08, 0xcf, 0x84, 0x00, 0x35,
    0x00, 0x25, 0x54, 0x3f, 0x3a, 0x7b, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x07, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65,
    0x03, 0x63, 0x6f, 0x6d, 0x00, 0x00, 0x01, 0x00, 0x01,
};

/* IPv4 192.168.1.10 -> 1.1.1.1, an ICMP echo request as Linux ping sends
 * it: a 16-byte timestamp and the bytes 0x10..0x37. */
static const uint8_t icmp_packet[84] = {
    0x45, 0x00, 0x00, 0x54, 0x8d, 0x3e, 0x40, 0x00, 0x40, 0x01, 0xe9, 0xb6,
    0xc0, 0xa8, 0x01, 0x0a, 0x01, 0x01, 0x01, 0x01, 0x08, 0x00, 0x93, 0xc9,
    0x0f, 0x2a, 0x00, 0x01, 0x00, 0xf1, 0x53, 0x65, 0x00, 0x00, 0x00, 0x00,
    0x40, 0xe2, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x11, 0x12, 0x13,
    0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
    0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b,
    0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,
};

/* The IPv4 header used as the worked example in many texts: checksum b861. */
static const uint8_t ipv4_header[20] = {
    0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
    0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
};

static uint16_t udp_checksum_of(const uint8_t *ip, uint8_t *udp, size_t udp_len)
{
    uint8_t pseudo[12];
    memcpy(pseudo, ip + 12, 8); /* source and destination addresses */
    pseudo[8] = 0;
    pseudo[9] = ip[9];
    pseudo[10] = (uint8_t)(udp_len >> 8);
    pseudo[11] = (uint8_t)udp_len;
    uint32_t s = xc_inet_sum(0, pseudo, 12);
    return xc_inet_fold(xc_inet_sum(s, udp, udp_len));
}

static void test_packets(void **state)
{
    (void)state;
    uint8_t pkt[192];

    /* Headers carrying their checksum sum to zero; zeroing the field and
     * recomputing gives it back. */
    assert_int_equal(xc_inet_checksum(ipv4_header, 20), 0);
    memcpy(pkt, ipv4_header, 20);
    pkt[10] = pkt[11] = 0;
    assert_int_equal(xc_inet_checksum(pkt, 20), 0xb861);

    /* UDP over the pseudo-header: the received segment verifies to 0. */
    memcpy(pkt, udp_packet, sizeof udp_packet);
    assert_int_equal(xc_inet_checksum(pkt, 20), 0);
    size_t udp_len = sizeof udp_packet - 20;
    assert_int_equal(udp_checksum_of(pkt, pkt + 20, udp_len), 0);
    pkt[26] = pkt[27] = 0;
    assert_int_equal(udp_checksum_of(pkt, pkt + 20, udp_len), 0x543f);

    /* ICMP covers its message only. */
    memcpy(pkt, icmp_packet, sizeof icmp_packet);
    assert_int_equal(xc_inet_checksum(pkt, 20), 0);
    assert_int_equal(xc_inet_checksum(pkt + 20, sizeof icmp_packet - 20), 0);
    pkt[22] = pkt[23] = 0;
    assert_int_equal(xc_inet_checksum(pkt + 20, sizeof icmp_packet - 20), 0x93c9);

    /* Every variant, at every alignment. */
    for (unsigned a = 0; a < 32; a++) {
        memcpy(pkt + a, udp_packet, sizeof udp_packet);
        memcpy(pkt + a + 60, icmp_packet + 20, 64);
        for (size_t v = 0; v < xc_inet_variant_count; v++) {
            if (!variant_allowed(v)) continue;
            check_one(v, 0, pkt + a, 20, 0, "ipv4");
            check_one(v, 0, pkt + a + 60, 64, 0, "icmp");
        }
    }
}

/* ---- RFC 1624 -------------------------------------------------------------- */

static uint16_t word_at(const uint8_t *p, size_t i) { return (uint16_t)(p[2 * i] << 8 | p[2 * i + 1]); }

static void set_word(uint8_t *p, size_t i, uint16_t w)
{
    p[2 * i] = (uint8_t)(w >> 8);
    p[2 * i + 1] = (uint8_t)w;
}

static int all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* Edit word k of data (n words) to w; the incremental checksum must equal
 * a recomputation, except that all-zero data gives 0x0000, not 0xFFFF. */
static void edit_and_check(uint8_t *data, size_t n, size_t k, uint16_t w)
{
    uint16_t check = xc_inet_checksum(data, 2 * n);
    uint16_t old = word_at(data, k);
    set_word(data, k, w);
    uint16_t updated = xc_inet_update(check, old, w);
    uint16_t recomputed = xc_inet_checksum(data, 2 * n);
    if (all_zero(data, 2 * n)) {
        assert_int_equal(recomputed, 0xFFFF);
        assert_int_equal(updated, 0x0000);
    } else if (updated != recomputed) {
        fail_msg("update: %zu words, word %zu 0x%04x -> 0x%04x, check 0x%04x: got 0x%04x want 0x%04x",
                 n, k, old, w, check, updated, recomputed);
    }
}

static void test_update(void **state)
{
    (void)state;
    /* RFC 1624 section 3: equation 3 gives 0x0000 here, equation 2 0xFFFF. */
    assert_int_equal(xc_inet_update(0xDD2F, 0x5555, 0x3285), 0x0000);

    uint8_t data[64];
    const int rounds = xc_test_quick() ? 2000 : 20000;
    for (int r = 0; r < rounds; r++) {
        size_t n = 1 + xc_rand_below(32);
        xc_rand_fill(data, 2 * n);
        /* Sparse data reaches the corners: sums of 0xFFFF and of zero. */
        if (r % 3 == 0)
            for (size_t i = 0; i < n; i++)
                if (xc_rand_below(4)) set_word(data, i, 0);
        static const uint16_t specials[] = {0x0000, 0xFFFF, 0x0001, 0xFFFE, 0x8000};
        uint16_t w = (r & 1) ? (uint16_t)xc_rand() : specials[xc_rand_below(5)];
        edit_and_check(data, n, xc_rand_below((uint32_t)n), w);
    }

    /* The corners by hand. */
    for (size_t n = 1; n <= 4; n++) {
        memset(data, 0, sizeof data);
        edit_and_check(data, n, 0, 0x0000);  /* zero stays zero */
        edit_and_check(data, n, 0, 0x1234);  /* from all zero */
        edit_and_check(data, n, 0, 0x0000);  /* back to all zero */
        edit_and_check(data, n, n - 1, 0xFFFF);
        edit_and_check(data, n, n - 1, 0xFFFF);
        edit_and_check(data, n, 0, 0x0000);  /* sum 0xFFFF, checksum 0 */
        edit_and_check(data, n, n - 1, 0x0000);
        set_word(data, 0, 0xFFFF);
        set_word(data, n - 1, 0xFFFF);
        edit_and_check(data, n, 0, 0x0001);
        edit_and_check(data, n, 0, 0xFFFE);
    }

    /* A router's TTL decrement on a real header, which must keep verifying. */
    uint8_t hdr[20];
    memcpy(hdr, ipv4_header, 20);
    while (hdr[8] > 0) {
        uint16_t old = word_at(hdr, 4);
        hdr[8]--;
        uint16_t check = xc_inet_update(word_at(hdr, 5), old, word_at(hdr, 4));
        set_word(hdr, 5, check);
        assert_int_equal(xc_inet_checksum(hdr, 20), 0);
    }
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_and_empty),
        cmocka_unit_test(test_rfc1071_example),
        cmocka_unit_test(test_lengths_alignments),
        cmocka_unit_test(test_guard_page),
        cmocka_unit_test(test_random_long),
        cmocka_unit_test(test_start_sum),
        cmocka_unit_test(test_combine),
        cmocka_unit_test(test_packets),
        cmocka_unit_test(test_update),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
