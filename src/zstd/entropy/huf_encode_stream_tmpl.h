/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Huffman-coded literal streams (RFC 8878 §4.2.2 and the jump table of
 * §3.1.1.3.1.6).
 *
 * The decoder reads a stream backwards and must meet the first literal
 * first, so the encoder walks the literals from the last to the first, and
 * a code read from the top of the decoder's window must appear with its
 * most significant bit last in writing order.
 *
 * Container.  The pending bits sit at the TOP of a 64-bit word, the newest
 * highest.  Inserting a code shifts the word right by the code's length and
 * ors the code in above; each table entry holds the code already in its top
 * bits and the length in its low byte (xc_huf_ctable.elt), so an insertion
 * is one load, one shift by the entry itself (shifts use the low 6 bits of
 * their count on x64 and Arm64, so `& 63` costs nothing), one or and one
 * add to the bit count.  The or also drops the length byte into bits 0..3,
 * below the pending bits: harmless while at most 60 bits are pending,
 * since later shifts only move it further down.  The bit count takes the
 * whole entry too; its low byte stays exact (at most 64 is added between
 * flushes) and the high garbage is cleared by the flush.
 *
 * A flush moves the oldest whole bytes to memory: the pending bits are the
 * top `nb` of the word, so word >> (64 - nb) has them in writing order from
 * bit 0, and an 8-byte little-endian store writes them; the newest nb % 8
 * bits stay at the top.
 *
 * With codes of at most `depth` bits, K codes go in between flushes when
 * (K - 1) * depth + 7 <= 60 and K * depth + 7 <= 64 (7 bits may wait from
 * the previous flush), the K-th code inserted without its length byte:
 * 5 codes of 10 or 11 bits, 6 of 9, 7 of 8, 8 of 7, 9 of 6, 11 of 5 or
 * fewer.
 *
 * The dependency chain of one container (shift, then or) is two cycles per
 * code; to overlap two chains, codes go alternately K to the container and
 * K to a second, fresh word, merged with one shift and one or before the
 * second flush (its length bytes, the only bits below its code bits, masked
 * away).
 *
 * When the destination has room for the worst case (every literal coded
 * with the deepest code) plus the 8 bytes a store writes, the loop flushes
 * without looking at the end; otherwise every flush checks it and the
 * stream fails cleanly when the room runs out.
 *
 * This is a template: every ISA variant of the encoder instantiates
 * xc_huf_compress_1x_body() and xc_huf_compress_4x_body() under its own
 * target attribute (src/portable/zstd_encode_portable.c,
 * src/x64/zstd_encode_bmi2.c with shlx/shrx: variable shifts in one uop
 * without a flags dependency); every variant writes identical bytes.  It
 * may call the entropy encoder's tables and bit writer, nothing above them.
 */
#ifndef XC_ZSTD_HUF_ENCODE_STREAM_TMPL_H
#define XC_ZSTD_HUF_ENCODE_STREAM_TMPL_H

#include "zstd/entropy/entropy_encode.h"

typedef struct {
    uint64_t bits;  /* pending bits at the top, newest highest */
    uint64_t fill;  /* low byte: number of pending bits; above: garbage */
    uint8_t *ptr;
    uint8_t *end;
    int overflow;
} huf_stream;

#define HUF_PUT(bits, fill, e)                                                                 \
    do {                                                                                       \
        uint64_t e_ = (e);                                                                     \
        (bits) = ((bits) >> (e_ & 63)) | e_;                                                   \
        (fill) += e_;                                                                          \
    } while (0)

/* The flush.  `checked` is a constant: without it the caller guarantees
 * 8 bytes of room at ptr. */
XC_FORCE_INLINE void huf_flush(huf_stream *st, int checked)
{
    unsigned nb = (unsigned)st->fill & 0xFF;
    uint64_t v = st->bits >> ((64 - nb) & 63);
    if (!checked || XC_LIKELY((size_t)(st->end - st->ptr) >= 8)) {
        xc_write_le64(st->ptr, v);
        st->ptr += nb >> 3;
    } else {
        unsigned k;
        for (k = 0; k < nb >> 3; k++) {
            if (st->ptr == st->end) {
                st->overflow = 1;
                break;
            }
            *st->ptr++ = (uint8_t)(v >> (8 * k));
        }
    }
    st->fill = nb & 7;
}

/* Inserts the codes of src[i - 1] down to src[i - k], k <= 11 and a
 * constant, so the tests below fold away and the group is straight-line
 * code.  The last code goes in without its length byte (see the top of the
 * file: it may bring the pending bits above 60). */
XC_FORCE_INLINE void huf_put_group(uint64_t *bits, uint64_t *fill, const uint8_t *src, size_t i,
                                   const uint64_t *elt, unsigned k)
{
    uint64_t b = *bits, f = *fill, last;
#define HUF_PUT_NTH(u) if (k - 1 > (u)) HUF_PUT(b, f, elt[src[i - 1 - (u)]])
    HUF_PUT_NTH(0);
    HUF_PUT_NTH(1);
    HUF_PUT_NTH(2);
    HUF_PUT_NTH(3);
    HUF_PUT_NTH(4);
    HUF_PUT_NTH(5);
    HUF_PUT_NTH(6);
    HUF_PUT_NTH(7);
    HUF_PUT_NTH(8);
    HUF_PUT_NTH(9);
#undef HUF_PUT_NTH
    /* The k-th code; k >= 2 always. */
    last = elt[src[i - k]];
    b = (b >> (last & 63)) | (last & ~(uint64_t)0xFF);
    f += last;
    *bits = b;
    *fill = f;
}

XC_FORCE_INLINE void huf_loop(huf_stream *st, const uint8_t *src, size_t n, const uint64_t *elt,
                              unsigned k, int checked)
{
    size_t i = n, r = n % k;
    if (r) {
        unsigned u;
        for (u = 1; u <= r; u++) HUF_PUT(st->bits, st->fill, elt[src[i - u]]);
        huf_flush(st, checked);
        i -= r;
    }
    if ((i / k) & 1) {
        huf_put_group(&st->bits, &st->fill, src, i, elt, k);
        huf_flush(st, checked);
        i -= k;
    }
    for (; i > 0; i -= 2 * (size_t)k) {
        uint64_t b1 = 0, f1 = 0;
        huf_put_group(&st->bits, &st->fill, src, i, elt, k);
        huf_put_group(&b1, &f1, src, i - k, elt, k);
        huf_flush(st, checked);
        st->bits = (st->bits >> (f1 & 63)) | (b1 & ~(uint64_t)0xFF);
        st->fill += f1;
        huf_flush(st, checked);
    }
}

XC_FORCE_INLINE size_t xc_huf_compress_1x_body(uint8_t *dst, size_t cap, const uint8_t *src, size_t n,
                                   const xc_huf_ctable *ct)
{
    const unsigned depth = ct->depth;
    huf_stream st;
    st.bits = 0;
    st.fill = 0;
    st.ptr = dst;
    st.end = dst + cap;
    st.overflow = 0;
    if (depth >= 1 && depth <= XC_HUF_ENC_MAXBITS && cap >= 8 &&
        (cap - 8) >= (n >> 3) * depth + depth) {
        /* (n >> 3) * depth + depth >= n * depth / 8: the bytes any flush
         * can have completed, so each 8-byte store stays inside. */
        switch (depth) {
        case 11:
        case 10: huf_loop(&st, src, n, ct->elt, 5, 0); break;
        case 9: huf_loop(&st, src, n, ct->elt, 6, 0); break;
        case 8: huf_loop(&st, src, n, ct->elt, 7, 0); break;
        case 7: huf_loop(&st, src, n, ct->elt, 8, 0); break;
        case 6: huf_loop(&st, src, n, ct->elt, 9, 0); break;
        default: huf_loop(&st, src, n, ct->elt, 11, 0); break;
        }
    } else {
        huf_loop(&st, src, n, ct->elt, 5, 1);
    }
    /* The end mark: a single 1 bit above the last code. */
    HUF_PUT(st.bits, st.fill, ((uint64_t)1 << 63) | 1);
    huf_flush(&st, 1);
    if (st.fill & 7) {
        if (st.ptr == st.end) st.overflow = 1;
        else *st.ptr++ = (uint8_t)(st.bits >> (64 - (st.fill & 7)));
    }
    if (st.overflow) return XC_ERROR(DST_TOO_SMALL);
    return (size_t)(st.ptr - dst);
}

XC_FORCE_INLINE size_t xc_huf_compress_4x_body(uint8_t *dst, size_t cap, const uint8_t *src, size_t n,
                                   const xc_huf_ctable *ct)
{
    const size_t seg = (n + 3) / 4;
    uint8_t *op = dst + 6;
    unsigned k;

    RETURN_ERROR_IF(n < XC_HUF_4X_MIN_SRC, BAD_PARAMETER);
    RETURN_ERROR_IF(cap < 6 + 4, DST_TOO_SMALL);
    for (k = 0; k < 4; k++) {
        size_t len = k < 3 ? seg : n - 3 * seg;
        size_t r = xc_huf_compress_1x_body(op, (size_t)(dst + cap - op), src + k * seg, len, ct);
        FORWARD_IF_ERROR(r);
        if (k < 3) {
            RETURN_ERROR_IF(r > 0xFFFF, BAD_PARAMETER);
            xc_write_le16(dst + 2 * k, (uint16_t)r);
        }
        op += r;
    }
    return (size_t)(op - dst);
}

#endif
