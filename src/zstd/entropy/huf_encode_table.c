/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Huffman tree descriptions (RFC 8878 §4.2.1.1-2), the mirror of
 * xc_huf_read_table().
 *
 * The description lists the weights of symbols 0..max_symbol - 1 (the last
 * symbol's weight follows from the others, the code being complete), either
 * as 4-bit fields after a header byte of 127 + count, possible for at most
 * 128 weights, or FSE-compressed after a header byte holding the
 * compressed size, at most 127 bytes.  We try both and keep the smaller.
 *
 * The FSE form codes the weights with two states sharing one table: the
 * decoder starts with state 1, which yields the even-indexed weights, and
 * state 2 the odd ones, alternating.  It does not know the number of
 * weights; it stops when a state update would read past the start of the
 * stream, and then takes the other state's symbol as the last weight.  So
 * the encoder runs backwards: the last two weights are held by the final
 * states of their two owners (no bits), every other weight is encoded by
 * its owner going down to weight 0, and the states are flushed second state
 * first, so that the decoder reads state 1 first.
 *
 * That stopping rule needs the update that follows the second-to-last
 * weight to read at least one bit, or the decoder would run on.
 * xc_fse_init_state() starts a state on the lowest cell of its symbol,
 * whose update reads table_log - highbit(p) bits: at least one, since a
 * table with two or more symbols gives none of them the whole table.
 *
 * What it may call: the entropy coders (entropy/).
 */
#include "zstd/entropy/entropy_encode.h"

#define WEIGHT_MAX XC_HUF_ENC_MAXBITS
#define WEIGHT_TABLELOG_MAX 6
#define FSE_WEIGHTS_MAX 127

/* FSE-compresses w[0..n); returns its size, or 0 when this form is
 * impossible or does not fit in cap. */
static size_t compress_weights(uint8_t *dst, size_t cap, const uint8_t *w, unsigned n)
{
    unsigned count[WEIGHT_MAX + 1];
    unsigned max_w = WEIGHT_MAX, log, i;
    int16_t norm[WEIGHT_MAX + 1];
    xc_fse_ctable ct;
    xc_fse_cstate st[2];
    xc_bitw bw;
    size_t hdr, body;

    if (n < 2) return 0; /* both initial states must be present */
    if (xc_hist_count_small(count, &max_w, w, n) == n) return 0; /* one value: FSE cannot */
    log = xc_fse_optimal_table_log(WEIGHT_TABLELOG_MAX, n, max_w);
    if (xc_iserr(xc_fse_normalize(norm, log, count, n, max_w, 0))) return 0;
    hdr = xc_fse_write_ncount(dst, cap, norm, max_w, log);
    if (xc_iserr(hdr)) return 0;
    if (xc_iserr(xc_fse_build_ctable(&ct, norm, max_w, log))) return 0;

    /* st[i & 1] owns weight i. */
    xc_bitw_init(&bw, dst + hdr, cap - hdr);
    xc_fse_init_state(&st[(n - 1) & 1], &ct, w[n - 1]);
    xc_fse_init_state(&st[(n - 2) & 1], &ct, w[n - 2]);
    /* At most 6 bits per weight: flushing every 8 stays within the 56
     * bits the writer takes between flushes. */
    for (i = n - 2; i-- > 0;) {
        xc_fse_encode(&bw, &st[i & 1], w[i]);
        if ((i & 7) == 0) xc_bitw_flush(&bw);
    }
    xc_fse_flush_state(&bw, &st[1]);
    xc_fse_flush_state(&bw, &st[0]);
    body = xc_bitw_close(&bw);
    if (xc_iserr(body)) return 0;
    return hdr + body;
}

size_t xc_huf_write_table(uint8_t *dst, size_t cap, const xc_huf_ctable *ct)
{
    uint8_t len[XC_HUF_ENC_SYMBOL_MAX + 1];
    unsigned s;
    for (s = 0; s < ct->max_symbol; s++) len[s] = (uint8_t)(ct->elt[s] & 0xFF);
    return xc_huf_write_lengths(dst, cap, len, ct->max_symbol, ct->depth);
}

size_t xc_huf_write_lengths(uint8_t *dst, size_t cap, const uint8_t *len, unsigned max_symbol,
                            unsigned depth)
{
    uint8_t w[XC_HUF_ENC_SYMBOL_MAX + 1];
    uint8_t fse[FSE_WEIGHTS_MAX];
    const unsigned n = max_symbol; /* weights written: all but the last symbol's */
    size_t fse_size, raw_size;
    unsigned s;

    RETURN_ERROR_IF(depth == 0 || depth > XC_HUF_ENC_MAXBITS || max_symbol > XC_HUF_ENC_SYMBOL_MAX,
                    BAD_PARAMETER);
    for (s = 0; s < n; s++) w[s] = (uint8_t)(len[s] ? depth + 1 - len[s] : 0);

    fse_size = compress_weights(fse, sizeof fse, w, n);
    raw_size = n <= 128 ? 1 + (n + 1) / 2 : 0;
    if (fse_size && (!raw_size || fse_size + 1 < raw_size)) {
        RETURN_ERROR_IF(cap < fse_size + 1, DST_TOO_SMALL);
        dst[0] = (uint8_t)fse_size;
        memcpy(dst + 1, fse, fse_size);
        return fse_size + 1;
    }
    if (!raw_size) return 0;
    RETURN_ERROR_IF(cap < raw_size, DST_TOO_SMALL);
    dst[0] = (uint8_t)(127 + n);
    for (s = 0; s < n; s += 2)
        dst[1 + s / 2] = (uint8_t)((w[s] << 4) | (s + 1 < n ? w[s + 1] : 0));
    return raw_size;
}
