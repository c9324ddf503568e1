/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd compression with a prepared dictionary searched in place by the fast
 * and dfast finders (match_fast_dict.c): small one-shot inputs at levels
 * 1..4 (and -7..-1 for the cut-offs), the cut-offs (8 KiB for fast, 16 KiB for dfast) and the inputs
 * around them.  Every frame goes through our decoder and libzstd's.  Cases:
 * records (raw and formatted dictionaries), inputs only the content
 * matches (its start, middle and last bytes), a match that starts in the
 * content and runs on into the input, repeat offsets that reach into the
 * content (and 1..3-byte ones whose first 4 bytes would straddle its end),
 * a reused context against fresh ones, and the parse's independence of the
 * tier: the finder's sequences are hashed into a digest every tier and ISA
 * must reproduce, and where the CPU has the second copy of the finders
 * both copies must write the same frames.
 */
#include "xc_internal.h"
#include "zstd/dict/cdict.h"
#include "zstd_enc_test_util.h"
#include "zstd_test_frames.h"

/* xxh64 of the sequences of every block test_records parses with the
 * dictionary attached (see zt_seq_digest). */
#define EXPECTED_SEQ_DIGEST 0x7f3125f1d381ba9cull

static size_t bound(size_t n) { return xc_zstd_compress_bound(n) + 64; }

/* The largest input compressed with cd attached. */
static size_t cutoff(const xc_zstd_cdict *cd)
{
    if (cd->p.strategy == XC_ZSTRAT_FAST) return (size_t)8 << 10;
    if (cd->p.strategy == XC_ZSTRAT_DFAST) return (size_t)16 << 10;
    return 0;
}

static void test_records(void **state)
{
    (void)state;
    enum { COUNT = 40 };
    size_t sizes[COUNT], total, rsize, fsize;
    uint8_t *src = zt_json_records(COUNT, 23, sizes, &total);
    uint8_t *raw = zt_raw_dict(&rsize);
    const uint8_t *fmt = zt_embedded_json_dict(&fsize);
    uint8_t *out = zt_malloc(bound(total));
    uint64_t digest = 0;
    for (int level = 1; level <= 4; level++) {
        for (int k = 0; k < 2; k++) {
            const uint8_t *dict = k ? fmt : raw;
            size_t const dsize = k ? fsize : rsize;
            unsigned const id = k ? xc_read_le32(fmt + 4) : 0;
            xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, level);
            xc_zstd_cctx *c = xc_zstd_cctx_new();
            assert_true(cd && c);
            assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
            size_t off = 0;
            for (size_t i = 0; i < COUNT && off < total; i++) {
                /* Every fourth frame takes three records. */
                size_t n = sizes[i];
                if (i % 4 == 3 && i + 3 <= COUNT) n += sizes[i + 1] + sizes[i + 2];
                /* Levels that are not fast or dfast for this dictionary
                 * (level 4 with the small one) are another finder's. */
                int const ours = cutoff(cd) > 0;
                zt_dict_roundtrip(c, dict, dsize, id, src + off, n, out, ours ? &digest : NULL);
                if (ours) assert_non_null(c->ms.dict);
                off += sizes[i];
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

/* Slices of the content, down to its very last bytes (the positions the
 * table fill reaches last), compress to a few sequences; and an input whose
 * longest match starts in the content's last 40 bytes and runs on into the
 * input's own first bytes. */
static void test_content_matches(void **state)
{
    (void)state;
    size_t dsize;
    uint8_t *dict = zt_raw_dict(&dsize);
    uint8_t *in = zt_malloc(4096), *out = zt_malloc(bound(4096));
    /* A content whose last 64 bytes occur nowhere else, so that the cells
     * of their positions hold them. */
    uint64_t tail_seed = 77;
    for (size_t k = dsize - 64; k < dsize; k++) dict[k] = (uint8_t)(zt_next(&tail_seed) | 0x80);
    for (int level = 1; level <= 4; level++) {
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, level);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_true(cd && c);
        if (cutoff(cd) == 0) {
            /* Level 4 is greedy for dictionaries this small. */
            xc_zstd_cctx_free(c);
            xc_zstd_cdict_free(cd);
            continue;
        }
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        static const size_t at[] = {0, 1, 777, 3000};
        for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
            size_t const from = XC_MIN(at[i], dsize - 500);
            assert_true(zt_dict_roundtrip(c, dict, dsize, 0, dict + from, 500, out, NULL) < 40);
        }
        /* The last 300, 64 and 24 bytes of the content: the fill reaches
         * every position whose 8 hashed bytes end by the content's end, so
         * a match covers all but the few bytes the finder leaves as
         * literals at the end of the input. */
        static const size_t tail[] = {300, 64, 24};
        for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) {
            zt_dict_roundtrip(c, dict, dsize, 0, dict + dsize - tail[i], tail[i], out, NULL);
            size_t matched = 0;
            for (size_t q = 0; q < c->ss.nb_seq; q++) matched += xc_zseq_match_len(&c->ss, &c->ss.seq[q]);
            assert_true(matched + XC_ZSTD_HASH_READ >= tail[i]);
        }
        /* The content's end, then its start: the match reaching the end
         * goes on at the frame's first byte only for a decoder's history,
         * not here; both halves must still be found. */
        memcpy(in, dict + dsize - 500, 500);
        memcpy(in + 500, dict, 300);
        assert_true(zt_dict_roundtrip(c, dict, dsize, 0, in, 800, out, NULL) < 40);

        for (unsigned seed = 1; seed <= 4; seed++) {
            size_t const n =
                zt_crossing_input(in, dict, dsize, 16 + 8 * seed, 48, seed * 0x9E37u);
            zt_dict_roundtrip(c, dict, dsize, 0, in, n, out, NULL);
            assert_true(zt_crossing_seq(c) >= 0);
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
    }
    free(dict);
    free(in);
    free(out);
}

/* The first repeat offset reaching into the content: an input that copies
 * the content at that distance from its second byte on is one literal and
 * a repeat match.  Offsets of 1..3 bytes, whose 4 bytes would straddle the
 * content's end and the input, are not tried but must decode. */
static void test_repeat_offsets(void **state)
{
    (void)state;
    size_t fsize;
    const uint8_t *fmt = zt_embedded_json_dict(&fsize);
    unsigned const id = xc_read_le32(fmt + 4);
    static const uint32_t reps[][3] = {{700, 250, 900}, {1, 3, 2}, {3, 2, 1}, {2, 1, 3}};
    uint8_t *in = zt_malloc(1024), *out = zt_malloc(bound(1024));
    for (size_t ri = 0; ri < sizeof reps / sizeof reps[0]; ri++) {
        uint8_t *dict = zt_dict_with_reps(fmt, fsize, reps[ri]);
        for (int level = 1; level <= 4; level++) {
            xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, fsize, level);
            xc_zstd_cctx *c = xc_zstd_cctx_new();
            assert_true(cd && c);
            if (cutoff(cd) == 0) {
                /* Not fast or dfast with this small dictionary. */
                xc_zstd_cctx_free(c);
                xc_zstd_cdict_free(cd);
                continue;
            }
            assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
            const uint8_t *dend = cd->content + cd->content_size;
            uint32_t const r0 = cd->rep[0];
            if (r0 > 160) {
                size_t const n = 160;
                in[0] = (uint8_t)(dend[-(ptrdiff_t)r0] ^ 0x5A);
                memcpy(in + 1, dend - r0 + 1, n - 1);
                zt_dict_roundtrip(c, dict, fsize, id, in, n, out, NULL);
                assert_true(c->ss.nb_seq >= 1);
                assert_int_equal(c->ss.seq[0].lit_len, 1);
                assert_int_equal(c->ss.seq[0].off_value, 1);
                assert_true(xc_zseq_match_len(&c->ss, &c->ss.seq[0]) >= 120);
            }
            for (size_t period = 1; period <= 8; period++) {
                size_t const n = 48 + period;
                for (size_t k = 0; k < n; k++)
                    in[k] = dend[(ptrdiff_t)(k % period) - (ptrdiff_t)period];
                zt_dict_roundtrip(c, dict, fsize, id, in, n, out, NULL);
                memcpy(in, dend - 12, 12);
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

/* Empty and tiny inputs, and inputs around the cut-off: attached up to it,
 * the content placed before the input above it; a context reused for all
 * of them writes what a fresh one writes. */
static void test_sizes(void **state)
{
    (void)state;
    size_t rsize, total, sizes[256];
    uint8_t *dict = zt_raw_dict(&rsize);
    uint8_t *src = zt_json_records(256, 5, sizes, &total);
    assert_true(total > ((size_t)16 << 10) + 8);
    uint8_t *out = zt_malloc(bound(total)), *fresh = zt_malloc(bound(total));
    /* The negative levels too: their acceleration (a first gap of
     * target_length) applies to the attached finder. */
    static const int levels[] = {-7, -3, -1, 1, 2, 3, 4};
    for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
        int const level = levels[li];
        xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, rsize, level);
        xc_zstd_cctx *c = xc_zstd_cctx_new();
        assert_true(cd && c);
        assert_int_equal(xc_zstd_cctx_ref_cdict(c, cd), 0);
        size_t const cut = cutoff(cd);
        if (cut == 0) {
            xc_zstd_cctx_free(c);
            xc_zstd_cdict_free(cd);
            continue;
        }
        size_t const ns[] = {0, 1, 7, 12, 13, 20, 100, cut - 1, cut, cut + 1};
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            size_t const n = ns[i];
            size_t const r = zt_dict_roundtrip(c, dict, rsize, 0, src, n, out, NULL);
            if (n >= XC_ZSTD_HASH_READ + 4) assert_int_equal(c->ms.dict != NULL, n <= cut);
            xc_zstd_cctx *c2 = xc_zstd_cctx_new();
            assert_non_null(c2);
            assert_int_equal(xc_zstd_cctx_ref_cdict(c2, cd), 0);
            size_t const r2 = xc_zstd_compress_cctx(c2, fresh, bound(n), src, n);
            assert_int_equal(r2, r);
            assert_memory_equal(fresh, out, r);
            xc_zstd_cctx_free(c2);
        }
        xc_zstd_cctx_free(c);
        xc_zstd_cdict_free(cd);
    }
    free(dict);
    free(src);
    free(out);
    free(fresh);
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_content_matches),
        cmocka_unit_test(test_repeat_offsets),
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
