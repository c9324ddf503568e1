/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd compression with a prepared dictionary searched in place by the
 * greedy, lazy, lazy2 and btlazy2 finders (match_lazy_tmpl.h) and the
 * optimal parsers (match_opt_tmpl.h), for small one-shot inputs at levels
 * 5..19 (inputs above the cut-offs, 32 KiB and 8 KiB for btultra, place
 * the content before the input instead).  Every
 * frame is decoded by our decoder and libzstd's.  Cases: records, inputs
 * that only the content matches, a match that starts in the content and
 * runs on into the input, repeat offsets that reach into the content (and
 * ones that would straddle its end), empty and tiny inputs, inputs around
 * the cut-off, a reused context against fresh ones, and the parse's
 * independence of the tier: the finder's sequences are hashed into a digest
 * that every tier and ISA must reproduce, and on tiers with the second
 * (SIMD) copy of the finders both copies must write the same frames.
 */
#include "xc_internal.h"
#include "zstd/dict/cdict.h"
#include "zstd_enc_test_util.h"
#include "zstd_test_frames.h"

#define CUTOFF ((size_t)32 << 10)

/* xxh64 of the sequences of every block the tests below parse with the
 * dictionary attached (see zt_seq_digest), the same on every tier and ISA. */
#define EXPECTED_SEQ_DIGEST 0x1dce37b6d0b9bb7a

/* Whether an input of n bytes is compressed with cd attached: greedy,
 * lazy and lazy2 over rows, btlazy2 and btopt (which level that is depends
 * on the dictionary's size) up to 32 KiB, btultra and btultra2 up to
 * 8 KiB (libzstd's cut-offs). */
static int attaches(const xc_zstd_cdict *cd, size_t n)
{
    unsigned const s = cd->p.strategy;
    if (s >= XC_ZSTRAT_GREEDY && s <= XC_ZSTRAT_BTOPT) return n <= CUTOFF;
    return s >= XC_ZSTRAT_BTULTRA && n <= ((size_t)8 << 10);
}

static size_t bound(size_t n) { return xc_zstd_compress_bound(n) + 64; }

/* Records one per frame and several per frame, levels 5..19 (the
 * optimal parsers attached too), raw and formatted dictionaries. */
static void test_records(void **state)
{
    (void)state;
    enum { COUNT = 40 };
    size_t sizes[COUNT], total, rsize, fsize;
    uint8_t *src = zt_json_records(COUNT, 11, sizes, &total);
    uint8_t *raw = zt_raw_dict(&rsize);
    const uint8_t *fmt = zt_embedded_json_dict(&fsize);
    uint8_t *out = zt_malloc(bound(total));
    uint64_t digest = 0;
    for (int level = 5; level <= 19; level++) {
        for (int k = 0; k < 2; k++) {
            const uint8_t *dict = k ? fmt : raw;
            size_t const dsize = k ? fsize : rsize;
            unsigned const id = k ? xc_read_le32(fmt + 4) : 0;
            xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, level);
            xc_zstd_cctx *c = xc_zstd_cctx_new();
            assert_true(cd && c);
            assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
            size_t off = 0;
            for (size_t i = 0; i < COUNT; i++) {
                /* Every fifth frame takes three records. */
                size_t n = sizes[i];
                if (i % 5 == 4 && i + 4 <= COUNT) n = sizes[i] + sizes[i + 1] + sizes[i + 2];
                zt_dict_roundtrip(c, dict, dsize, id, src + off, n, out, &digest);
                assert_int_equal(c->ms.dict != NULL, attaches(cd, n));
                off += sizes[i];
                if (off >= total) break;
            }
            xc_zstd_cctx_free(c);
            xc_zstd_cdict_free(cd);
        }
    }
    if (digest != EXPECTED_SEQ_DIGEST) {
        print_error("sequence digest 0x%016llx\n", (unsigned long long)digest);
        fail();
    }
    free(src);
    free(raw);
    free(out);
}

/* Inputs only the content matches (slices of it), and one whose longest
 * match starts in the content and ends in the input: H, noise, then the
 * content's last 40 bytes followed by H again. */
static void test_content_matches(void **state)
{
    (void)state;
    size_t dsize;
    uint8_t *dict = zt_raw_dict(&dsize);
    uint8_t *in = zt_malloc(4096), *out = zt_malloc(bound(4096));
    for (int level = 5; level <= 19; level++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, level);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_true(cd && c);
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        static const size_t at[] = {0, 1, 1000, 5000};
        for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
            size_t const from = XC_MIN(at[i], dsize - 600);
            size_t const r =
                zt_dict_roundtrip(c, dict, dsize, 0, dict + from, 600, out, NULL);
            /* One match or a few: header, block header, a sequence. */
            assert_true(r < 40);
        }
        /* The content's last 600 bytes, then its first 300. */
        memcpy(in, dict + dsize - 600, 600);
        memcpy(in + 600, dict, 300);
        zt_dict_roundtrip(c, dict, dsize, 0, in, 900, out, NULL);

        for (unsigned seed = 1; seed <= 4; seed++) {
            size_t const n = zt_crossing_input(in, dict, dsize, 20 + 10 * seed, 50, seed);
            zt_dict_roundtrip(c, dict, dsize, 0, in, n, out, NULL);
            if (attaches(cd, n)) assert_true(zt_crossing_seq(c) >= 0);
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
    }
    free(dict);
    free(in);
    free(out);
}

/* Repeat offsets into the content: the input repeats the content at
 * distance rep[0] from its second byte on, which the parse takes as a
 * repeat; and offsets of 1..3 bytes, whose first 4 bytes would straddle
 * the content's end and the input (not tried, but the frames must still
 * decode). */
static void test_repeat_offsets(void **state)
{
    (void)state;
    size_t fsize;
    const uint8_t *fmt = zt_embedded_json_dict(&fsize);
    unsigned const id = xc_read_le32(fmt + 4);
    static const uint32_t reps[][3] = {{768, 300, 900}, {2, 3, 1}, {3, 1, 2}, {1, 2, 3}};
    uint8_t *in = zt_malloc(2048), *out = zt_malloc(bound(2048));
    for (size_t ri = 0; ri < sizeof reps / sizeof reps[0]; ri++) {
        uint8_t *dict = zt_dict_with_reps(fmt, fsize, reps[ri]);
        for (int level = 5; level <= 19; level++) {
            xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, fsize, level);
            xc_zstd_cctx *c = xc_zstd_cctx_new();
            assert_true(cd && c);
            assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
            const uint8_t *dend = cd->content + cd->content_size;
            uint32_t const r0 = cd->rep[0];
            if (r0 > 200) {
                size_t const n = 200;
                memcpy(in + 1, dend - r0 + 1, n - 1);
                in[0] = (uint8_t)(dend[-(ptrdiff_t)r0] ^ 0x55);
                zt_dict_roundtrip(c, dict, fsize, id, in, n, out, NULL);
                if (attaches(cd, n)) {
                    assert_true(c->ss.nb_seq >= 1);
                    assert_int_equal(c->ss.seq[0].lit_len, 1);
                    assert_int_equal(c->ss.seq[0].off_value, 1);
                    assert_true(xc_zseq_match_len(&c->ss, &c->ss.seq[0]) >= 150);
                }
            }
            /* The content's tail repeated with short periods. */
            for (size_t period = 1; period <= 8; period++) {
                size_t const n = 64 + period;
                for (size_t k = 0; k < n; k++) in[k] = dend[-(ptrdiff_t)period + (ptrdiff_t)(k % period)];
                zt_dict_roundtrip(c, dict, fsize, id, in, n, out, NULL);
                memcpy(in, dend - 16, 16);
                zt_dict_roundtrip(c, dict, fsize, id, in, n, out, NULL);
            }
            xc_zstd_cctx_free(c);
            xc_zstd_cdict_free(cd);
        }
        free(dict);
    }
    free(in);
    free(out);
}

/* Empty and tiny inputs, and sizes around the cut-off (attached up to it,
 * the content placed before the input above it). */
static void test_sizes(void **state)
{
    (void)state;
    size_t dsize, total, sizes[200];
    uint8_t *dict = zt_raw_dict(&dsize);
    uint8_t *src = zt_json_records(200, 23, sizes, &total);
    assert_true(total > CUTOFF + 1);
    uint8_t *out = zt_malloc(bound(total));
    static const size_t tiny[] = {0, 1, 2, 3, 6, 7, 8, 11, 12, 13, 16, 17, 24};
    for (int level = 5; level <= 19; level++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, level);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_true(cd && c);
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++) {
            zt_dict_roundtrip(c, dict, dsize, 0, src, tiny[i], out, NULL);
            /* Also the content's own first bytes. */
            zt_dict_roundtrip(c, dict, dsize, 0, dict, tiny[i], out, NULL);
        }
        for (size_t n = CUTOFF - 1; n <= CUTOFF + 1; n++) {
            zt_dict_roundtrip(c, dict, dsize, 0, src, n, out, NULL);
            assert_int_equal(c->ms.dict != NULL, attaches(cd, n));
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
    }
    free(dict);
    free(src);
    free(out);
}

/* A context reused across attached frames, frames above the cut-off and
 * frames without the dictionary writes what a fresh context writes. */
static void test_reuse(void **state)
{
    (void)state;
    size_t dsize, total, sizes[120];
    uint8_t *dict = zt_raw_dict(&dsize);
    uint8_t *src = zt_json_records(120, 31, sizes, &total);
    size_t const cap = bound(total);
    uint8_t *got = zt_malloc(cap), *want = zt_malloc(cap);
    static const int lv[] = {5, 7, 9};
    for (size_t li = 0; li < sizeof lv / sizeof lv[0]; li++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, lv[li]);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_true(cd && c);
        size_t off = 0;
        for (size_t i = 0; i < 30; i++) {
            size_t n = sizes[i];
            const uint8_t *rec = src + off;
            off += n;
            if (i % 7 == 3) {
                rec = src;
                n = CUTOFF + 100; /* placed before the input, tables copied */
            } else if (i % 7 == 5) {
                assert_int_equal(xc_zstd_cctx_ref_cdict(c, NULL), 0);
                assert_false(xc_is_error(xc_zstd_compress_cctx(c, got, cap, rec, n)));
            }
            assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
            size_t const g = xc_zstd_compress_cctx(c, got, cap, rec, n);
            xc_zstd_cctx *f = xc_zstd_cctx_new();
            assert_int_equal(xc_zstd_cctx_ref_cdict(f, cd), 0);
            size_t const w = xc_zstd_compress_cctx(f, want, cap, rec, n);
            xc_zstd_cctx_free(f);
            assert_false(xc_is_error(g));
            assert_int_equal(g, w);
            assert_memory_equal(got, want, g);
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
    }
    free(dict);
    free(src);
    free(got);
    free(want);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_content_matches),
        cmocka_unit_test(test_repeat_offsets),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_reuse),
    };
    return cmocka_run_group_tests(all, NULL, NULL);
}
