/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The encoder's entropy layer (src/entropy_encode.h), part 2: Huffman.
 * Code lengths are checked against references computed here (Huffman's
 * cost when the tree fits, package-merge, the optimal length-limited code,
 * under a limit), for the depth limit, Kraft equality, ordering and
 * prefix-freeness; descriptions are read back with xc_huf_read_table() and
 * 1- and 4-stream literals decoded with the huf_decode kernels, from buffers that
 * end at a guard page, at exact and short capacities, with the BMI2 body
 * checked against the plain one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpucap.h"
#include "xc_test.h"
#include "zstd/entropy/entropy_encode.h"
#include "zstd_enc_test_util.h"
#include "zstd/entropy/entropy_decode.h"
#include "zstd/compress/compress_kernels.h"
#include "zstd/decompress/decompress_internal.h"
#include "zstd_variant_test_util.h"
#include "portable/kernels.h"

/* ---- Huffman code construction ---------------------------------------------- */

/* Optimal total cost of a prefix code with lengths at most limit
 * (package-merge): the weights of the 2n - 2 lightest items of the last
 * list.  Unlimited when limit >= n. */
static uint64_t optimal_cost(const unsigned *count, unsigned max_symbol, unsigned limit)
{
    uint64_t leaves[256], list[512], pk[256], merged[512];
    unsigned n = 0;
    for (unsigned s = 0; s <= max_symbol; s++)
        if (count[s]) leaves[n++] = count[s];
    for (unsigned i = 1; i < n; i++) /* insertion sort */
        for (unsigned j = i; j > 0 && leaves[j - 1] > leaves[j]; j--) {
            uint64_t t = leaves[j];
            leaves[j] = leaves[j - 1];
            leaves[j - 1] = t;
        }
    unsigned len = n;
    memcpy(list, leaves, n * sizeof *leaves);
    for (unsigned level = 1; level < limit; level++) {
        unsigned np = len / 2, a = 0, b = 0, m = 0;
        for (unsigned i = 0; i < np; i++) pk[i] = list[2 * i] + list[2 * i + 1];
        while (a < n || b < np) merged[m++] = (b >= np || (a < n && leaves[a] <= pk[b])) ? leaves[a++] : pk[b++];
        memcpy(list, merged, m * sizeof *list);
        len = m;
    }
    uint64_t cost = 0;
    for (unsigned i = 0; i < 2 * n - 2; i++) cost += list[i];
    return cost;
}

static uint64_t huf_cost(const xc_huf_ctable *ct, const unsigned *count, unsigned max_symbol)
{
    uint64_t c = 0;
    for (unsigned s = 0; s <= max_symbol; s++) c += (uint64_t)count[s] * xc_huf_code_length(ct, s);
    return c;
}

/* Checks lengths, Kraft equality, ordering and prefix-freeness. */
static void check_code(const xc_huf_ctable *ct, const unsigned *count, unsigned max_symbol,
                       unsigned max_bits)
{
    uint64_t kraft = 0;
    unsigned depth = ct->depth, top = 0;
    assert_true(depth >= 1 && depth <= max_bits);
    for (unsigned s = 0; s < 256; s++) {
        unsigned l = xc_huf_code_length(ct, s);
        assert_int_equal(l != 0, s <= max_symbol && count[s] != 0);
        if (!l) continue;
        top = s;
        assert_true(l <= depth);
        assert_int_equal(ct->elt[s] & ~(~(uint64_t)0 << (64 - l)), l);
        kraft += (uint64_t)1 << (depth - l);
        for (unsigned t = 0; t <= max_symbol; t++) {
            unsigned lt = xc_huf_code_length(ct, t);
            if (lt && count[t] > count[s]) assert_true(lt <= l);
            /* No code is a prefix of another. */
            if (lt && t != s && lt <= l)
                assert_true((xc_huf_code(ct, s) >> (l - lt)) != xc_huf_code(ct, t));
        }
    }
    assert_int_equal(kraft, (uint64_t)1 << depth);
    assert_int_equal(ct->max_symbol, top);
}

static void test_huf_build(void **state)
{
    (void)state;
    unsigned count[256];
    xc_huf_ctable ct;
    uint64_t worst_num = 0, worst_den = 1;
    for (int it = 0; it < iters(3000); it++) {
        unsigned ms = xc_rand_below(256), max_bits = 6 + xc_rand_below(6);
        random_hist(count, ms, 1 + xc_rand_below(it % 3 ? 100 : 200000));
        unsigned present = 0;
        for (unsigned s = 0; s <= ms; s++) present += count[s] != 0;
        size_t r = xc_huf_build_ctable(&ct, count, ms, max_bits);
        if (present < 2) {
            assert_int_equal(r, 0);
            continue;
        }
        unsigned eff = max_bits;
        while ((1u << eff) < present) eff++;
        assert_int_equal(r, ct.depth);
        check_code(&ct, count, ms, eff);
        /* Optimal when the tree fits; under the limit, within 1/128 of the
         * optimum (package-merge) by construction, and usually at it. */
        uint64_t got = huf_cost(&ct, count, ms), opt = optimal_cost(count, ms, eff);
        assert_true(got >= opt && got * 128 <= opt * 129);
        if (ct.depth < eff) assert_int_equal(got, optimal_cost(count, ms, 64));
        if ((got - opt) * worst_den > worst_num * opt) worst_num = got - opt, worst_den = opt;
    }
    printf("# huffman: repaired codes at most %.4f%% above the optimum\n",
           100.0 * (double)worst_num / (double)worst_den);

    /* The smallest description plus streams (btultra's literals): a valid
     * code within 11 bits, its description the one xc_huf_write_table
     * writes for it, never larger in total than xc_huf_build_ctable's
     * tree, and smaller on some small sections. */
    int smaller = 0;
    for (int it = 0; it < 3000; it++) {
        unsigned ms = xc_rand_below(256);
        random_hist(count, ms, 1 + xc_rand_below(it % 2 ? 30 : 3000));
        xc_huf_ctable best;
        uint8_t table[XC_HUF_TABLE_BOUND], plain[XC_HUF_TABLE_BOUND];
        size_t ts = 99, d = xc_huf_build_smallest(&best, count, ms, table, sizeof table, &ts);
        size_t d0 = xc_huf_build_ctable(&ct, count, ms, 11);
        assert_false(xc_iserr(d));
        assert_int_equal(d != 0, d0 != 0);
        if (!d) continue;
        check_code(&best, count, ms, 11);
        size_t again = xc_huf_write_table(plain, sizeof plain, &best);
        assert_int_equal(again, ts);
        assert_memory_equal(plain, table, ts);
        size_t t0 = xc_huf_write_table(plain, sizeof plain, &ct);
        if (ts && t0) {
            size_t total = ts + (size_t)(huf_cost(&best, count, ms) >> 3);
            size_t total0 = t0 + (size_t)(huf_cost(&ct, count, ms) >> 3);
            assert_true(total <= total0);
            smaller += total < total0;
        }
    }
    assert_true(smaller > 0);
    {
        uint8_t table[XC_HUF_TABLE_BOUND];
        size_t ts;
        assert_true(xc_iserr(xc_huf_build_smallest(&ct, count, 256, table, sizeof table, &ts)));
        assert_true(xc_iserr(xc_huf_build_smallest(&ct, count, 255, table, 16, &ts)));
    }

    /* Fibonacci counts force the deepest trees; limit them at 11. */
    unsigned fib[256];
    for (unsigned n = 3; n <= 40; n++) {
        fib[0] = fib[1] = 1;
        for (unsigned s = 2; s < n; s++) fib[s] = fib[s - 1] + fib[s - 2];
        assert_int_equal(xc_huf_build_ctable(&ct, fib, n - 1, 11), XC_MIN(n - 1, 11u));
        check_code(&ct, fib, n - 1, 11);
        assert_true(huf_cost(&ct, fib, n - 1) * 128 <= optimal_cost(fib, n - 1, 11) * 129);
    }
    /* All 256 symbols need 8 bits at least, whatever max_bits says. */
    for (unsigned s = 0; s < 256; s++) count[s] = 1 + (s == 9) * 100000;
    assert_int_equal(xc_huf_build_ctable(&ct, count, 255, 4), 8);
    check_code(&ct, count, 255, 8);
    /* Two symbols: one bit each. */
    memset(count, 0, sizeof count);
    count[40] = 5;
    count[200] = 1;
    assert_int_equal(xc_huf_build_ctable(&ct, count, 255, 11), 1);
    assert_int_equal(xc_huf_code_length(&ct, 40), 1);
    assert_int_equal(xc_huf_code_length(&ct, 200), 1);
    count[40] = 0;
    assert_int_equal(xc_huf_build_ctable(&ct, count, 255, 11), 0);
    assert_true(xc_iserr(xc_huf_build_ctable(&ct, count, 255, 12)));
}

/* ---- Huffman descriptions and streams --------------------------------------- */

/* Compresses src with ct (description + 1 or 4 streams) and decodes it with
 * the decoder; checks exact and short capacities on guard pages. */
static void huf_roundtrip(const uint8_t *src, size_t n, const xc_huf_ctable *ct, int four)
{
    static xc_huf_dtable dt;
    size_t cap = XC_HUF_TABLE_BOUND + n * 2 + 64;
    uint8_t *tmp = malloc(cap), *back = malloc(n + 1);
    size_t th = xc_huf_write_table(tmp, cap, ct);
    assert_false(xc_iserr(th));
    if (th == 0) goto out;
    const struct xc_zstd_ckernels *k = zt_encoder_variant(0);
    size_t body = four ? k->huf_4x(tmp + th, cap - th, src, n, ct)
                       : k->huf_1x(tmp + th, cap - th, src, n, ct);
    assert_false(xc_iserr(body));
    /* Every other variant writes the same bytes. */
    for (size_t v = 1; (k = zt_encoder_variant(v)) != NULL; v++) {
        uint8_t *alt = malloc(cap);
        size_t b2 = four ? k->huf_4x(alt, cap, src, n, ct) : k->huf_1x(alt, cap, src, n, ct);
        assert_int_equal(b2, body);
        assert_memory_equal(alt, tmp + th, body);
        free(alt);
    }
    assert_int_equal(xc_huf_read_table(&dt, tmp, th + body, n), th);
    assert_int_equal(xc_kernels.zstd_decode->huf_decode(back, n, tmp + th, body, four, &dt), n);
    assert_memory_equal(back, src, n);

    /* Exact capacity works; one byte less, or any smaller capacity,
     * fails, and nothing is written past the end (the guard page would
     * fault). */
    for (int trial = 0; trial < 3; trial++) {
        size_t c = trial == 0 ? body : trial == 1 ? body - 1 : xc_rand_below((uint32_t)body);
        uint8_t *g = xc_guard_alloc(c ? c : 1);
        uint8_t *d = g + (c ? 0 : 1);
        size_t r = four ? xc_kernels.zstd_encode->huf_4x(d, c, src, n, ct)
                        : xc_kernels.zstd_encode->huf_1x(d, c, src, n, ct);
        if (trial) assert_int_equal(r, XC_ERROR(DST_TOO_SMALL));
        else {
            assert_int_equal(r, body);
            assert_memory_equal(d, tmp + th, body);
        }
        xc_guard_free(g);

        c = trial == 0 ? th : trial == 1 ? th - 1 : xc_rand_below((uint32_t)th);
        g = xc_guard_alloc(c ? c : 1);
        d = g + (c ? 0 : 1);
        r = xc_huf_write_table(d, c, ct);
        if (trial) assert_int_equal(r, XC_ERROR(DST_TOO_SMALL));
        else assert_int_equal(r, th);
        xc_guard_free(g);
    }
out:
    free(tmp);
    free(back);
}

static void test_huf_roundtrip(void **state)
{
    (void)state;
    unsigned count[256], hist[256];
    xc_huf_ctable ct;
    int described = 0, fse_form = 0;
    for (int it = 0; it < iters(1500); it++) {
        unsigned ms = xc_rand_below(4) ? xc_rand_below(256) : xc_rand_below(130);
        random_hist(count, ms, 1 + xc_rand_below(it % 4 ? 40 : 3000));
        size_t n;
        uint8_t *src = symbols_from(count, ms, &n);
        unsigned hmax;
        xc_hist_count(hist, &hmax, src, n);
        size_t depth = xc_huf_build_ctable(&ct, hist, hmax, 6 + xc_rand_below(6));
        assert_false(xc_iserr(depth));
        if (depth) {
            assert_true(xc_huf_valid_for(&ct, hist, hmax));
            uint8_t desc[XC_HUF_TABLE_BOUND];
            size_t th = xc_huf_write_table(desc, sizeof desc, &ct);
            described += th != 0;
            fse_form += th != 0 && desc[0] < 128;
            huf_roundtrip(src, n, &ct, 0);
            if (n >= XC_HUF_4X_MIN_SRC && n <= 128 * 1024) huf_roundtrip(src, n, &ct, 1);
            /* The estimate is the streams' size less rounding. */
            size_t est = xc_huf_estimate_size(&ct, hist, hmax);
            uint8_t *tmp = malloc(n * 2 + 16);
            size_t one = xc_zstd_encode_portable.huf_1x(tmp, n * 2 + 16, src, n, &ct);
            assert_true(est < one && one <= est + 2);
            free(tmp);
            /* A symbol the table lacks. */
            if (hmax < 255) {
                hist[hmax + 1] = 1;
                assert_false(xc_huf_valid_for(&ct, hist, hmax + 1));
            }
        }
        free(src);
    }
    printf("# huffman descriptions: %d written, %d FSE-compressed\n", described, fse_form);
    assert_true(fse_form > 0 && described > fse_form);

    /* 4 streams at the smallest sizes (an empty last stream at 6 and 9). */
    for (size_t n = 6; n < 40; n++) {
        uint8_t src[40];
        for (size_t i = 0; i < n; i++) src[i] = (uint8_t)("abracadabra"[i % 11]);
        unsigned hm;
        xc_hist_count(hist, &hm, src, n);
        assert_int_equal(xc_huf_build_ctable(&ct, hist, hm, 11) != 0, 1);
        huf_roundtrip(src, n, &ct, 1);
        huf_roundtrip(src, n, &ct, 0);
    }
    assert_int_equal(xc_zstd_encode_portable.huf_4x((uint8_t *)hist, sizeof hist, (const uint8_t *)"abcde", 5, &ct),
                     XC_ERROR(BAD_PARAMETER));
    /* An empty 1-stream input is just the end mark. */
    {
        uint8_t one[1];
        assert_int_equal(xc_zstd_encode_portable.huf_1x(one, 1, NULL, 0, &ct), 1);
        assert_int_equal(one[0], 1);
    }
}

static void test_huf_large_blocks(void **state)
{
    (void)state;
    /* Skewed text-like literals of a full block, every depth limit. */
    size_t n = 128 * 1024;
    uint8_t *src = malloc(n);
    for (size_t i = 0; i < n; i++) {
        unsigned r = xc_rand_below(1000);
        src[i] = (uint8_t)(r < 600 ? 'a' + r % 26 : r < 990 ? ' ' + r % 64 : xc_rand_below(256));
    }
    unsigned hist[256], hm;
    xc_hist_count(hist, &hm, src, n);
    xc_huf_ctable ct;
    for (unsigned mb = 8; mb <= 11; mb++) {
        assert_int_equal(xc_huf_build_ctable(&ct, hist, hm, mb), mb);
        check_code(&ct, hist, hm, mb);
        huf_roundtrip(src, n, &ct, 1);
    }
    huf_roundtrip(src, n, &ct, 0);
    free(src);

    /* All 256 values with 8-bit codes cannot be described: 0, "send raw". */
    for (unsigned s = 0; s < 256; s++) hist[s] = 100;
    assert_int_equal(xc_huf_build_ctable(&ct, hist, 255, 11), 8);
    uint8_t desc[XC_HUF_TABLE_BOUND];
    assert_int_equal(xc_huf_write_table(desc, sizeof desc, &ct), 0);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_huf_build),
        cmocka_unit_test(test_huf_roundtrip),
        cmocka_unit_test(test_huf_large_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
