/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the encoder tests.  For the entropy layer
 * (test_zstd_enc_entropy.c, test_zstd_enc_huffman.c): loop counts that
 * shrink under emulation, random histograms of several shapes, and symbol
 * strings with exactly a given histogram.  For whole frames
 * (test_zstd_compress.c, test_zstd_lazy.c, test_zstd_opt.c,
 * test_zstd_ldm.c, test_zstd_compress_dict*.c): a context at a level,
 * one-shot and streaming drivers, and the round trip of a frame, with or
 * without a dictionary, through our decoder and libzstd's.  Static inline,
 * so that each program compiles without unused-function warnings.
 */
#ifndef ZSTD_ENC_TEST_UTIL_H
#define ZSTD_ENC_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xc_internal.h"
#include "xc_test.h"
#include "zstd_test_util.h"

static inline int iters(int n) { return xc_test_quick() ? (n + 9) / 10 : n; }


/* A random histogram over [0, max_symbol] of one of several shapes. */
static inline void random_hist(unsigned *count, unsigned max_symbol, unsigned scale)
{
    unsigned kind = xc_rand_below(5);
    for (unsigned s = 0; s <= max_symbol; s++) {
        switch (kind) {
        case 0: count[s] = xc_rand_below(scale + 1); break;
        case 1: count[s] = (scale >> XC_MIN(s, 31u)) + (xc_rand_below(4) == 0); break;
        case 2: count[s] = xc_rand_below(8) == 0 ? xc_rand_below(scale + 1) : 0; break;
        case 3: count[s] = xc_rand_below(3) ? 1 + xc_rand_below(3) : 0; break;
        default: count[s] = s == 0 ? scale * 50 : xc_rand_below(scale / 8 + 2); break;
        }
    }
}

/* Symbols with exactly count[s] copies of each, shuffled. */
static inline uint8_t *symbols_from(const unsigned *count, unsigned max_symbol, size_t *n)
{
    size_t total = 0, k = 0;
    for (unsigned s = 0; s <= max_symbol; s++) total += count[s];
    uint8_t *p = malloc(total + 1);
    for (unsigned s = 0; s <= max_symbol; s++)
        for (unsigned i = 0; i < count[s]; i++) p[k++] = (uint8_t)s;
    for (size_t i = total; i > 1; i--) {
        size_t j = xc_rand() % i;
        uint8_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    *n = total;
    return p;
}

/* ---- frames from our encoder ------------------------------------------------ */

/* A new context at `level`. */
static inline xc_zstd_cctx *zt_new_cctx(int level)
{
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    assert_non_null(c);
    assert_int_equal(xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level), 0);
    return c;
}

/* Sets a parameter; a refusal fails the test, naming the parameter. */
static inline void zt_set(xc_zstd_cctx *c, xc_zstd_cparam p, int v)
{
    size_t r = xc_zstd_cctx_set(c, p, v);
    if (r != 0) {
        print_error("set %d to %d: %s\n", (int)p, v, xc_error_name(r));
        fail();
    }
}

/* Compresses one-shot into a buffer of exactly the bound; returns the
 * frame (malloc'ed) and its size in *fsize. */
static inline uint8_t *zt_compress_oneshot(xc_zstd_cctx *c, const uint8_t *src, size_t n,
                                           size_t *fsize)
{
    size_t cap = xc_zstd_compress_bound(n);
    assert_false(xc_is_error(cap));
    uint8_t *dst = zt_malloc(cap);
    size_t r = xc_zstd_compress_cctx(c, dst, cap, src, n);
    if (xc_is_error(r)) {
        print_error("compress of %zu bytes: %s\n", n, xc_error_name(r));
        fail();
    }
    *fsize = r;
    return dst;
}

/* Streams src in pieces of `piece` input bytes (the last one shorter),
 * without a pledged size, into room for the whole frame, and ends the
 * frame; returns it. */
static inline uint8_t *zt_compress_pieces(xc_zstd_cctx *c, const uint8_t *src, size_t n,
                                          size_t piece, size_t *fsize)
{
    size_t cap = xc_zstd_compress_bound(n) + 1024;
    uint8_t *dst = zt_malloc(cap);
    xc_in_buffer in = {src, 0, 0};
    xc_out_buffer out = {dst, cap, 0};
    for (;;) {
        in.size = XC_MIN(n, in.pos + piece);
        size_t r = xc_zstd_compress_stream(c, &out, &in,
                                           in.size == n ? XC_ZSTD_E_END : XC_ZSTD_E_CONTINUE);
        assert_false(xc_is_error(r));
        if (in.pos == n && r == 0) break;
    }
    *fsize = out.pos;
    return dst;
}

/* Streams src through the context in random input and output pieces of at
 * most max_in and max_out bytes (0: all that is left), with a random flush
 * now and then when `flushes` is set, and ends the frame.  Returns it. */
static inline uint8_t *zt_compress_stream(xc_zstd_cctx *c, const uint8_t *src, size_t n,
                                          size_t max_in, size_t max_out, int flushes,
                                          size_t *fsize)
{
    /* Each flush may close a small block: 3 bytes of header per flush. */
    size_t cap = 2 * xc_zstd_compress_bound(n) + 1024;
    uint8_t *dst = zt_malloc(cap);
    xc_in_buffer in = {src, 0, 0};
    xc_out_buffer out = {dst, 0, 0};
    unsigned guard = 0;
    for (;;) {
        in.size = in.pos + zt_chunk(max_in, n - in.pos);
        out.size = out.pos + zt_chunk(max_out, cap - out.pos);
        xc_zstd_end_op op = XC_ZSTD_E_CONTINUE;
        if (in.size == n) op = XC_ZSTD_E_END;
        else if (flushes && xc_rand_below(8) == 0) op = XC_ZSTD_E_FLUSH;
        size_t before = in.pos + out.pos;
        size_t r = xc_zstd_compress_stream(c, &out, &in, op);
        if (xc_is_error(r)) {
            print_error("stream of %zu bytes: %s\n", n, xc_error_name(r));
            fail();
        }
        assert_true(in.pos <= in.size && out.pos <= out.size);
        if (op == XC_ZSTD_E_END && r == 0 && in.pos == n) break;
        if (in.pos + out.pos == before && ++guard > 100) {
            print_error("stream of %zu bytes stalls at in %zu, out %zu\n", n, in.pos, out.pos);
            fail();
        }
    }
    *fsize = out.pos;
    return dst;
}

/* ---- round trips ------------------------------------------------------------ */

/* Decodes a frame with our decoder and (when present) libzstd and checks
 * that each gives want[0..n).  window_log_max, when not 0, raises both
 * decoders' window limit (ours then decodes through a context, not the
 * one-shot call).  A prefix (history before the frame, as a raw
 * dictionary is) goes to libzstd alone: ours is skipped then, as it takes
 * history only as a dictionary. */
static inline void zt_check_decodes_ex(const uint8_t *frame, size_t fsize, const uint8_t *want,
                                       size_t n, int window_log_max, const uint8_t *prefix,
                                       size_t prefix_size, const char *what)
{
    uint8_t *out = zt_malloc(n + 1);
    size_t r;
    if (!prefix_size) {
        if (window_log_max) {
            xc_zstd_dctx *d = xc_zstd_dctx_new();
            assert_non_null(d);
            assert_int_equal(xc_zstd_dctx_set(d, XC_ZSTD_D_WINDOW_LOG_MAX, window_log_max), 0);
            r = xc_zstd_decompress_dctx(d, out, n + 1, frame, fsize);
            xc_zstd_dctx_free(d);
        } else {
            r = xc_zstd_decompress(out, n + 1, frame, fsize);
        }
        if (xc_is_error(r) || r != n || (n && memcmp(out, want, n) != 0)) {
            print_error("%s: our decoder gave %s (%zu of %zu bytes)\n", what,
                        xc_is_error(r) ? xc_error_name(r) : "data", r, n);
            fail();
        }
    }
#ifdef XC_HAVE_LIBZSTD
    memset(out, 0, n + 1);
    ZSTD_DCtx *z = ZSTD_createDCtx();
    assert_non_null(z);
    if (window_log_max)
        assert_false(ZSTD_isError(ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, window_log_max)));
    if (prefix_size) assert_false(ZSTD_isError(ZSTD_DCtx_refPrefix(z, prefix, prefix_size)));
    r = ZSTD_decompressDCtx(z, out, n + 1, frame, fsize);
    ZSTD_freeDCtx(z);
    if (ZSTD_isError(r) || r != n || (n && memcmp(out, want, n) != 0)) {
        print_error("%s: libzstd gave %s (%zu of %zu bytes)\n", what,
                    ZSTD_isError(r) ? ZSTD_getErrorName(r) : "data", r, n);
        fail();
    }
#else
    (void)prefix;
#endif
    free(out);
}

/* The same with the decoders' defaults and no history. */
static inline void zt_check_decodes(const uint8_t *frame, size_t fsize, const uint8_t *want,
                                    size_t n, const char *what)
{
    zt_check_decodes_ex(frame, fsize, want, n, 0, NULL, 0, what);
}

/* ---- frames with a dictionary ------------------------------------------------- */

/* A raw dictionary: 48 JSON records of their own seed, as content. */
static inline uint8_t *zt_raw_dict(size_t *size)
{
    size_t sizes[48];
    return zt_json_records(48, 7, sizes, size);
}

/* Decodes with our decoder holding dict (loaded, or as a ddict). */
static inline void zt_dict_decode_ours(const void *dict, size_t dsize, const void *frame,
                                       size_t n, const void *want, size_t wn, int use_ddict)
{
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    xc_zstd_ddict *dd = NULL;
    assert_non_null(d);
    if (use_ddict) {
        dd = xc_zstd_ddict_new(dict, dsize);
        assert_non_null(dd);
        assert_int_equal(xc_zstd_dctx_ref_ddict(d, dd), 0);
    } else {
        assert_int_equal(xc_zstd_dctx_load_dictionary(d, dict, dsize), 0);
    }
    uint8_t *out = zt_malloc(wn + 1);
    size_t const r = xc_zstd_decompress_dctx(d, out, wn + 1, frame, n);
    if (xc_is_error(r)) print_error("decode: %s\n", xc_error_name(r));
    assert_int_equal(r, wn);
    assert_memory_equal(out, want, wn);
    free(out);
    xc_zstd_dctx_free(d);
    xc_zstd_ddict_free(dd);
}

static inline void zt_dict_decode_libzstd(const void *dict, size_t dsize, const void *frame,
                                          size_t n, const void *want, size_t wn)
{
#ifdef XC_HAVE_LIBZSTD
    ZSTD_DCtx *z = ZSTD_createDCtx();
    uint8_t *out = zt_malloc(wn + 1);
    size_t const r = ZSTD_decompress_usingDict(z, out, wn + 1, frame, n, dict, dsize);
    if (ZSTD_isError(r)) print_error("libzstd: %s\n", ZSTD_getErrorName(r));
    assert_int_equal(r, wn);
    assert_memory_equal(out, want, wn);
    free(out);
    ZSTD_freeDCtx(z);
#else
    (void)dict, (void)dsize, (void)frame, (void)n, (void)want, (void)wn;
#endif
}

/* The frame names dictionary `id` (0: none) and decodes to want[0..wn)
 * with dict, by our decoder (the dictionary loaded or as a ddict, by the
 * frame size's parity) and by libzstd's. */
static inline void zt_check_dict_frame(const void *dict, size_t dsize, const void *frame,
                                       size_t n, const void *want, size_t wn, unsigned id)
{
    assert_int_equal(xc_zstd_frame_dict_id(frame, n), id);
    zt_dict_decode_ours(dict, dsize, frame, n, want, wn, (int)(n & 1));
    zt_dict_decode_libzstd(dict, dsize, frame, n, want, wn);
}

/* For tests that see the dictionary's internals (cdict.h, included
 * before this file).  The formatted dictionary with its repeat offsets
 * replaced (RFC 8878 §5: the 12 bytes before the content).  Values above 3
 * are taken as fractions v / 1024 of the content's size. */
#ifdef XC_ZSTD_CDICT_H
#include "zstd/compress/compress_kernels.h"
#include "zstd_variant_test_util.h"
static inline uint8_t *zt_dict_with_reps(const uint8_t *dict, size_t dsize, const uint32_t want[3])
{
    xc_zstd_cdict *cd = xc_zstd_cdict_new(dict, dsize, 1);
    assert_non_null(cd);
    size_t const at = (size_t)(cd->content - cd->buf) - 12;
    size_t const content = cd->content_size;
    xc_zstd_cdict_free(cd);
    uint8_t *d = zt_malloc(dsize);
    memcpy(d, dict, dsize);
    for (unsigned i = 0; i < 3; i++)
        xc_write_le32(d + at + 4 * i, want[i] > 3 ? (uint32_t)(content * want[i] / 1024) : want[i]);
    return d;
}

/* Folds the sequences the last block's finder stored into *h, in a form
 * that does not depend on the host's byte order. */
static inline void zt_seq_digest(const xc_zstd_cctx *c, uint64_t *h)
{
    uint8_t b[12];
    for (size_t i = 0; i < c->ss.nb_seq; i++) {
        xc_write_le32(b, xc_zseq_lit_len(&c->ss, &c->ss.seq[i]));
        xc_write_le32(b + 4, xc_zseq_match_len(&c->ss, &c->ss.seq[i]));
        xc_write_le32(b + 8, c->ss.seq[i].off_value);
        *h = xc_xxh64(b, sizeof b, *h);
    }
    xc_write_le32(b, (uint32_t)c->ss.nb_seq);
    *h = xc_xxh64(b, 4, *h);
}

/* The index of the last block's first sequence whose source starts in
 * the dictionary's content and ends in the input, or -1. */
static inline long zt_crossing_seq(const xc_zstd_cctx *c)
{
    size_t pos = 0;
    for (size_t i = 0; i < c->ss.nb_seq; i++) {
        const xc_zseq *s = &c->ss.seq[i];
        size_t const ml = xc_zseq_match_len(&c->ss, s);
        pos += xc_zseq_lit_len(&c->ss, s);
        if (s->off_value > 3) {
            size_t const off = s->off_value - 3;
            if (off > pos && off - pos < ml) return (long)i;
        }
        pos += ml;
    }
    return -1;
}

/* Writes to in an input whose match crosses from the dictionary's content
 * into the input: head + gap random bytes (top bit set, from seed s), the
 * content's last 40 bytes, the first head bytes again, and 16 more random
 * bytes.  A decoder holding the content sees the last 40 bytes and the
 * copy of the head as one run.  Returns its size, head + gap + head + 56. */
static inline size_t zt_crossing_input(uint8_t *in, const uint8_t *dict, size_t dsize,
                                       size_t head, size_t gap, uint64_t s)
{
    size_t n = 0;
    for (size_t k = 0; k < head + gap; k++) in[n++] = (uint8_t)(zt_next(&s) | 0x80);
    memcpy(in + n, dict + dsize - 40, 40);
    n += 40;
    memcpy(in + n, in, head);
    n += head;
    for (size_t k = 0; k < 16; k++) in[n++] = (uint8_t)(zt_next(&s) | 0x80);
    return n;
}

/* Compresses src_in[0..n) one-shot with c (which references a cdict of
 * `dict`) from a copy that ends at a guard page (a read past the input
 * faults) into out, which has room for xc_zstd_compress_bound(n) + 64
 * bytes.  The frame must name `id` and decode through both decoders; where
 * the CPU has the second copy of the finders, the first copy must write the
 * same bytes.  With digest, the sequences of a frame that searched the
 * dictionary in place go into it (zt_seq_digest).  Returns the frame's
 * size. */
static inline size_t zt_dict_roundtrip(xc_zstd_cctx *c, const uint8_t *dict, size_t dsize,
                                       unsigned id, const uint8_t *src_in, size_t n,
                                       uint8_t *out, uint64_t *digest)
{
    size_t const cap = xc_zstd_compress_bound(n) + 64;
    uint8_t *const src = (uint8_t *)xc_guard_alloc(n);
    assert_non_null(src);
    if (n) memcpy(src, src_in, n);
    c->ss.nb_seq = 0;
    size_t const r = xc_zstd_compress_cctx(c, out, cap, src, n);
    if (xc_is_error(r)) {
        print_error("compress %zu bytes: %s\n", n, xc_error_name(r));
        fail();
    }
    if (digest && c->ms.dict) zt_seq_digest(c, digest);
    zt_check_dict_frame(dict, dsize, out, r, src, n, id);
    /* Every ISA variant writes the same frame. */
    const struct xc_zstd_ckernels *const chosen = c->kern, *k;
    for (size_t v = 0; (k = zt_encoder_variant(v)) != NULL; v++) {
        if (k == chosen) continue;
        uint8_t *other = zt_malloc(cap);
        c->kern = k;
        size_t const p = xc_zstd_compress_cctx(c, other, cap, src, n);
        c->kern = chosen;
        assert_int_equal(p, r);
        assert_memory_equal(other, out, r);
        free(other);
    }
    xc_guard_free(src);
    return r;
}
#endif

#endif
