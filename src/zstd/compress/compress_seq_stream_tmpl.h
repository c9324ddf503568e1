/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The bit stream of a compressed block's sequences section (RFC 8878
 * §3.1.1.3.2.2 and §4.1): the FSE states and extra bits of every sequence,
 * last sequence first, so that the decoder, reading backwards, meets the
 * first one first.
 *
 * This is a template: every ISA variant of the encoder instantiates
 * xc_zseq_bitstream_body() under its own target attribute (the BMI2 one
 * turns masks into bzhi and variable shifts into shlx/shrx, which do not
 * go through the flags register); every variant writes the same bytes.
 * It may call the sequence store and the FSE encoding tables, nothing
 * above them.
 */
#ifndef XC_ZSTD_COMPRESS_SEQ_STREAM_TMPL_H
#define XC_ZSTD_COMPRESS_SEQ_STREAM_TMPL_H

#include "zstd/compress/compress_internal.h"
#include "zstd/common/format.h"

/* ---- the sequences section ----------------------------------------------------------- */

/* The sequence bitstream has its own writer rather than the entropy layer's
 * xc_bitw: with the container, its fill, the output pointer and the three
 * FSE states all in locals, the loop below keeps them in registers, which
 * is worth a good part of the encoder's time at the fast levels.  Fields
 * are added at the top of a 64-bit container (the oldest at bit 0) and
 * whole bytes are stored little-endian, 8 at a time while 8 bytes of room
 * remain; near the end, byte by byte, and past the end the overflow flag
 * drops them (the block then goes out raw). */
typedef struct {
    uint64_t acc;
    unsigned fill;
    int overflow;
    uint8_t *p;
    uint8_t *fast_lim; /* p below this has 8 bytes of room */
    uint8_t *end;
} seq_writer;

static XC_NOINLINE void seq_store_tail(seq_writer *w, unsigned nbytes)
{
    for (unsigned i = 0; i < nbytes; i++) {
        if (w->p == w->end) {
            w->overflow = 1;
            return;
        }
        *w->p++ = (uint8_t)(w->acc >> (8 * i));
    }
}

XC_FORCE_INLINE void seq_flush(seq_writer *w)
{
    unsigned const nbytes = w->fill >> 3;
    if (XC_LIKELY(w->p < w->fast_lim)) {
        xc_write_le64(w->p, w->acc);
        w->p += nbytes;
    } else {
        seq_store_tail(w, nbytes);
    }
    w->acc >>= nbytes * 8; /* fill <= 63, so at most 56 */
    w->fill &= 7;
}

/* value's low n bits (n < 64); with BMI2 this is one bzhi. */
XC_FORCE_INLINE void seq_add(seq_writer *w, uint64_t value, unsigned n)
{
    w->acc |= (value & (((uint64_t)1 << n) - 1)) << w->fill;
    w->fill += n;
}

/* One FSE step (see entropy_encode.h): emit the low bits of the state
 * that the decoder will read to come back to it, move to the next state. */
XC_FORCE_INLINE uint32_t seq_fse(seq_writer *w, const xc_fse_ctable *ct, uint32_t state,
                                 unsigned symbol)
{
    xc_fse_symtt const tt = ct->sym[symbol];
    unsigned const nb = (state + tt.delta_nbits) >> 16;
    seq_add(w, state, nb);
    return ct->state[(int32_t)(state >> nb) + tt.delta_state];
}

XC_FORCE_INLINE size_t xc_zseq_bitstream_body(const xc_zseqstore *ss, uint8_t *dst, size_t cap,
                                          const xc_fse_ctable *ctll, const xc_fse_ctable *ctof,
                                          const xc_fse_ctable *ctml)
{
    const xc_zseq *const seq = ss->seq;
    const uint8_t *const llc = ss->ll_code, *const mlc = ss->ml_code, *const ofc = ss->of_code;
    size_t n = ss->nb_seq - 1;
    seq_writer w;
    xc_fse_cstate init;
    uint32_t sll, sof, sml;

    w.acc = 0;
    w.fill = 0;
    w.overflow = 0;
    w.p = dst;
    w.end = dst + cap;
    w.fast_lim = cap >= 8 ? dst + cap - 7 : dst;

    xc_fse_init_state(&init, ctml, mlc[n]);
    sml = init.value;
    xc_fse_init_state(&init, ctof, ofc[n]);
    sof = init.value;
    xc_fse_init_state(&init, ctll, llc[n]);
    sll = init.value;
    seq_add(&w, seq[n].lit_len, xc_zstd_ll_bits(llc[n]));
    seq_add(&w, seq[n].ml_base, xc_zstd_ml_bits(mlc[n]));
    seq_flush(&w);
    seq_add(&w, seq[n].off_value, ofc[n]);
    seq_flush(&w);

    while (n-- > 0) {
        unsigned const lc = llc[n], mc = mlc[n], oc = ofc[n];
        unsigned const lb = xc_zstd_ll_bits(lc), mb = xc_zstd_ml_bits(mc);
        /* After a flush at most 7 bits wait; the three state updates add at
         * most 8 + 9 + 9 and the literal-length bits 16: 49 < 64. */
        sof = seq_fse(&w, ctof, sof, oc);
        sml = seq_fse(&w, ctml, sml, mc);
        sll = seq_fse(&w, ctll, sll, lc);
        seq_add(&w, seq[n].lit_len, lb);
        /* The rest fits without a flush when the three extra fields take
         * at most 30 bits (7 + 26 + 30 <= 63): only long offsets and long
         * lengths need the early one. */
        if (XC_UNLIKELY(lb + mb + oc > 30)) seq_flush(&w);
        seq_add(&w, seq[n].ml_base, mb);
        seq_add(&w, seq[n].off_value, oc);
        seq_flush(&w);
    }
    seq_add(&w, sml, ctml->table_log);
    seq_add(&w, sof, ctof->table_log);
    seq_add(&w, sll, ctll->table_log);
    seq_add(&w, 1, 1); /* the end mark */
    seq_flush(&w);
    if (w.fill) {
        if (w.p == w.end) w.overflow = 1;
        else *w.p++ = (uint8_t)w.acc;
    }
    RETURN_ERROR_IF(w.overflow, DST_TOO_SMALL);
    return (size_t)(w.p - dst);
}

#endif
