/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sequences section header (RFC 8878 §3.1.1.3.2.1): the number of
 * sequences, the compression mode of each symbol type, and the decoding
 * tables those modes describe (predefined, RLE, FSE-compressed, repeat).
 *
 * Each state of a table carries its FSE transition and the baseline and
 * extra-bit count of its symbol's value (xc_seq_cell), so a length is
 * base(table[state]) + read(extra(table[state])).  Offsets use the same
 * shape: code c >= 2 stands for the offset (1 << c) - 3 + read(c); codes 0
 * and 1 are repeat codes, whose base is their Offset_Value - 1 (0 and 1)
 * and whose extra bits are 0 and 1.  decompress_sequences.c decodes with them.
 *
 * What it may call: the decoder (decompress/).
 */
#include "zstd/decompress/decompress_internal.h"

/* ---- symbol values (RFC 8878 §3.1.1.3.2.1) ------------------------------ */

static void symbol_value(int type, unsigned s, uint32_t *base, uint8_t *extra)
{
    switch (type) {
    case XC_SEQ_LL: *base = xc_zstd_ll_base(s); *extra = (uint8_t)xc_zstd_ll_bits(s); break;
    case XC_SEQ_ML: *base = xc_zstd_ml_base(s); *extra = (uint8_t)xc_zstd_ml_bits(s); break;
    default:
        *base = s < 2 ? s : (1u << s) - 3;
        *extra = (uint8_t)s;
        break;
    }
}

/* ---- tables ---------------------------------------------------------------- */

/* The cells of a table from its normalized counts.  The k-th cell of a
 * symbol with count c (in state order) gets x = c + k; it reads
 * n = log - floor(log2 x) bits and its next states start at
 * (x << n) - size, which tiles the table once per symbol (the spec's
 * Number_of_Bits / Baseline rule).  A "less than 1" count (-1) has x = 1:
 * a full reset that reads `log` bits.  Cells store that start relative to
 * their own index. */
static void build_cells(xc_seq_cell *cells, const int16_t *norm, unsigned max_symbol,
                        unsigned log, int type)
{
    unsigned const size = 1u << log;
    uint8_t symbols[1u << XC_ZSTD_LL_LOG_MAX];
    uint16_t next[XC_ZSTD_ML_MAX + 1];
    uint32_t base[XC_ZSTD_ML_MAX + 1];
    uint8_t extra[XC_ZSTD_ML_MAX + 1];
    unsigned s, u;

    xc_fse_spread_symbols(symbols, norm, max_symbol, log);
    for (s = 0; s <= max_symbol; s++) {
        next[s] = (uint16_t)(norm[s] == -1 ? 1 : norm[s]);
        symbol_value(type, s, &base[s], &extra[s]);
    }
    for (u = 0; u < size; u++) {
        unsigned const sym = symbols[u];
        unsigned const x = next[sym]++;
        unsigned const n = log - xc_highbit32(x);
        cells[u].step = (int16_t)((int)((x << n) - size) - (int)u);
        cells[u].nbits = (uint8_t)n;
        cells[u].extra = extra[sym];
        cells[u].base = base[sym];
    }
}

void xc_zstd_build_default_tables(xc_seq_cell *ll, xc_seq_cell *ml, xc_seq_cell *of)
{
    xc_seq_cell *const cells[3] = {[XC_SEQ_LL] = ll, [XC_SEQ_OF] = of, [XC_SEQ_ML] = ml};
    for (int t = 0; t < 3; t++) {
        xc_seq_default const d = xc_zstd_seq_default((unsigned)t);
        build_cells(cells[t], d.norm, d.max_symbol, d.log, t);
    }
}

size_t xc_zstd_read_fse_table(xc_seq_cell *cells, unsigned *log, int type, const uint8_t *src,
                              size_t size)
{
    int16_t norm[XC_ZSTD_ML_MAX + 1];
    unsigned max_symbol = xc_zstd_seq_max_code((unsigned)type), table_log;
    size_t r = xc_fse_read_ncount(norm, &max_symbol, &table_log, src, size);

    RETURN_ERROR_IF(xc_iserr(r) || table_log > xc_zstd_seq_log_max((unsigned)type), CORRUPT);
    build_cells(cells, norm, max_symbol, table_log, type);
    *log = table_log;
    return r;
}

size_t xc_zstd_read_seq_header(xc_zstd_dctx *d, int *nb_seq, const uint8_t *src, size_t size)
{
    size_t pos;
    unsigned modes;
    int t, n;

    RETURN_ERROR_IF(size < 1, CORRUPT);
    if (src[0] < 128) {
        n = src[0];
        pos = 1;
    } else if (src[0] < 255) {
        RETURN_ERROR_IF(size < 2, CORRUPT);
        n = ((src[0] - 128) << 8) + src[1];
        pos = 2;
    } else {
        RETURN_ERROR_IF(size < 3, CORRUPT);
        n = xc_read_le16(src + 1) + XC_ZSTD_NBSEQ_LONG;
        pos = 3;
    }
    *nb_seq = n;
    /* With no sequences the section ends right after the count, whichever
     * of its forms was used (errata "No sequence using the 2-bytes
     * format"), and the tables are left as they were. */
    if (n == 0) {
        RETURN_ERROR_IF(pos != size, CORRUPT);
        return pos;
    }

    RETURN_ERROR_IF(pos >= size, CORRUPT);
    modes = src[pos++];
    RETURN_ERROR_IF(modes & 3, CORRUPT); /* reserved bits */

    /* The tables come in the order literal lengths, offsets, match
     * lengths (XC_SEQ_*), as their mode fields do. */
    for (t = 0; t < 3; t++) {
        unsigned const mode = (modes >> XC_SEQ_MODE_SHIFT(t)) & 3;
        const xc_seq_cell **table = t == XC_SEQ_LL ? &d->ll : t == XC_SEQ_OF ? &d->of : &d->ml;
        unsigned *log = t == XC_SEQ_LL ? &d->ll_log : t == XC_SEQ_OF ? &d->of_log : &d->ml_log;
        xc_seq_cell *own = t == XC_SEQ_LL   ? d->seq_own.ll
                           : t == XC_SEQ_OF ? d->seq_own.of
                                            : d->seq_own.ml;

        switch (mode) {
        case XC_SEQ_MODE_PREDEFINED:
            *table = t == XC_SEQ_LL ? d->def_ll : t == XC_SEQ_OF ? d->def_of : d->def_ml;
            *log = xc_zstd_seq_default((unsigned)t).log;
            break;
        case XC_SEQ_MODE_RLE: { /* one symbol, a table of one state that reads nothing */
            RETURN_ERROR_IF(pos >= size || src[pos] > xc_zstd_seq_max_code((unsigned)t), CORRUPT);
            own[0].step = 0;
            own[0].nbits = 0;
            symbol_value(t, src[pos], &own[0].base, &own[0].extra);
            pos++;
            *table = own;
            *log = 0;
            break;
        }
        case XC_SEQ_MODE_COMPRESSED: {
            size_t const r = xc_zstd_read_fse_table(own, log, t, src + pos, size - pos);
            FORWARD_IF_ERROR(r);
            pos += r;
            *table = own;
            break;
        }
        default: /* XC_SEQ_MODE_REPEAT */
            RETURN_ERROR_IF(*table == NULL, CORRUPT);
            break;
        }
    }
    return pos;
}
