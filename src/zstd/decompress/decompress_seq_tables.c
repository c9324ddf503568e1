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
 */
#include "zstd/decompress/decompress_internal.h"

/* ---- symbol values (RFC 8878 §3.1.1.3.2.1) ------------------------------ */

static const uint32_t ll_base[XC_ZSTD_LL_MAX + 1] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,   10,  11,  12,  13,   14,   15,   16,   18,
    20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const uint8_t ll_extra[XC_ZSTD_LL_MAX + 1] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  1,  1,
    1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint32_t ml_base[XC_ZSTD_ML_MAX + 1] = {
    3,  4,  5,  6,  7,  8,  9,  10, 11,  12,  13,  14,   15,   16,   17,   18,    19,    20,
    21, 22, 23, 24, 25, 26, 27, 28, 29,  30,  31,  32,   33,   34,   35,   37,    39,    41,
    43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const uint8_t ml_extra[XC_ZSTD_ML_MAX + 1] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

static void symbol_value(int type, unsigned s, uint32_t *base, uint8_t *extra)
{
    switch (type) {
    case XC_SEQ_LL: *base = ll_base[s]; *extra = ll_extra[s]; break;
    case XC_SEQ_ML: *base = ml_base[s]; *extra = ml_extra[s]; break;
    default:
        *base = s < 2 ? s : (1u << s) - 3;
        *extra = (uint8_t)s;
        break;
    }
}

static const unsigned type_max[3] = {XC_ZSTD_LL_MAX, XC_ZSTD_OF_MAX, XC_ZSTD_ML_MAX};
static const unsigned type_log_max[3] = {XC_ZSTD_LL_LOG_MAX, XC_ZSTD_OF_LOG_MAX,
                                         XC_ZSTD_ML_LOG_MAX};

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
    /* The predefined distributions of RFC 8878 §3.1.1.3.2.2. */
    static const int16_t ll_norm[XC_ZSTD_LL_MAX + 1] = {
        4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2,  2,
        2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
    static const int16_t ml_norm[XC_ZSTD_ML_MAX + 1] = {
        1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
    static const int16_t of_norm[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
                                        1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

    build_cells(ll, ll_norm, XC_ZSTD_LL_MAX, 6, XC_SEQ_LL);
    build_cells(ml, ml_norm, XC_ZSTD_ML_MAX, 6, XC_SEQ_ML);
    build_cells(of, of_norm, 28, 5, XC_SEQ_OF);
}

size_t xc_zstd_read_fse_table(xc_seq_cell *cells, unsigned *log, int type, const uint8_t *src,
                              size_t size)
{
    int16_t norm[XC_ZSTD_ML_MAX + 1];
    unsigned max_symbol = type_max[type], table_log;
    size_t r = xc_fse_read_ncount(norm, &max_symbol, &table_log, src, size);

    RETURN_ERROR_IF(xc_iserr(r) || table_log > type_log_max[type], CORRUPT);
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
        n = xc_read_le16(src + 1) + 0x7F00;
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
     * lengths; the mode fields sit at bits 7-6, 5-4 and 3-2. */
    for (t = 0; t < 3; t++) {
        unsigned const mode = (modes >> (6 - 2 * t)) & 3;
        const xc_seq_cell **table = t == XC_SEQ_LL ? &d->ll : t == XC_SEQ_OF ? &d->of : &d->ml;
        unsigned *log = t == XC_SEQ_LL ? &d->ll_log : t == XC_SEQ_OF ? &d->of_log : &d->ml_log;
        xc_seq_cell *own = t == XC_SEQ_LL   ? d->seq_own.ll
                           : t == XC_SEQ_OF ? d->seq_own.of
                                            : d->seq_own.ml;

        switch (mode) {
        case 0: /* Predefined_Mode */
            *table = t == XC_SEQ_LL ? d->def_ll : t == XC_SEQ_OF ? d->def_of : d->def_ml;
            *log = t == XC_SEQ_OF ? 5 : 6;
            break;
        case 1: { /* RLE_Mode: one symbol, a table of one state that reads nothing */
            RETURN_ERROR_IF(pos >= size || src[pos] > type_max[t], CORRUPT);
            own[0].step = 0;
            own[0].nbits = 0;
            symbol_value(t, src[pos], &own[0].base, &own[0].extra);
            pos++;
            *table = own;
            *log = 0;
            break;
        }
        case 2: { /* FSE_Compressed_Mode */
            size_t const r = xc_zstd_read_fse_table(own, log, t, src + pos, size - pos);
            FORWARD_IF_ERROR(r);
            pos += r;
            *table = own;
            break;
        }
        default: /* Repeat_Mode */
            RETURN_ERROR_IF(*table == NULL, CORRUPT);
            break;
        }
    }
    return pos;
}
