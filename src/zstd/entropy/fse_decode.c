/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FSE, the table-driven ANS coder of zstd (RFC 8878 §4.1): the reader of
 * table descriptions, the construction of decoding tables from normalized
 * counts, and the two-state decoder of compressed Huffman weights.
 *
 * A decoding table has 1 << L cells (L the accuracy log).  A symbol of
 * normalized count c owns c cells, placed by a fixed walk over the table,
 * and its k-th cell in state order (k = 0..c-1) is given the number
 * x = c + k.  Reading that cell emits the symbol; the next state is
 * (x << n) - (1 << L) plus n fresh bits, where n = L - floor(log2 x), so
 * that the c cells together cover every next state exactly once: the
 * lowest cells, whose x are small, take one bit more than the others.
 * This is the spec's "Number_of_Bits / Baseline" rule written as one
 * formula.  A count of -1 ("less than 1") owns a single cell at the top of
 * the table, with x = 1 and n = L: a full reset of the state.
 *
 * What it may call: the entropy coders (entropy/) and the shared format
 * (common/).
 */
#include "zstd/entropy/entropy_decode.h"
#include "zstd/common/bitstream_read.h"

/* ---- table descriptions (§4.1.1) --------------------------------------- */

/* The little-endian 32-bit word at byte offset pos of src[0..size), with
 * zeros in place of bytes past the end.  A description is read forward and
 * may end a few bits before the end of its buffer, so the last words are
 * assembled byte by byte instead of being loaded beyond it. */
static inline uint32_t load32_padded(const uint8_t *src, size_t size, size_t pos)
{
    uint32_t v = 0;
    size_t i;

    if (XC_LIKELY(pos + 4 <= size)) return xc_read_le32(src + pos);
    for (i = 0; pos + i < size && i < 4; i++) v |= (uint32_t)src[pos + i] << (8 * i);
    return v;
}

/* The next n bits (n <= 25) at bit position bit, zeros past the end. */
static inline uint32_t peek_bits(const uint8_t *src, size_t size, size_t bit, unsigned n)
{
    uint32_t w = load32_padded(src, size, bit >> 3) >> (bit & 7);
    return w & ((1u << n) - 1);
}

size_t xc_fse_read_ncount(int16_t *norm, unsigned *max_symbol, unsigned *table_log,
                          const uint8_t *src, size_t src_size)
{
    size_t const size_bits = src_size * 8;
    unsigned const limit = *max_symbol;
    size_t bit = 0;
    unsigned log, nbits, sym = 0;
    int32_t remaining, threshold;
    int prev_zero = 0;

    RETURN_ERROR_IF(src_size == 0, TRUNCATED);
    log = (src[0] & 15u) + 5;
    RETURN_ERROR_IF(log > XC_FSE_TABLELOG_ABSMAX, CORRUPT);
    bit = 4;

    /* remaining is "probability points left + 1": the largest value the
     * next field can hold.  threshold is the power of two with
     * threshold <= remaining < 2 * threshold, and nbits = log2(threshold) + 1
     * is the field width. */
    remaining = (int32_t)(1u << log) + 1;
    threshold = (int32_t)(1u << log);
    nbits = log + 1;

    while (remaining > 1) {
        int32_t value, count;
        uint32_t field;
        int32_t short_values;

        if (prev_zero) {
            /* After a zero count, 2-bit flags give how many further
             * symbols are zero; a flag of 3 announces one more flag.  Up
             * to 12 flags are read at once: the run of 3s is the run of
             * one bits at the bottom of the word.  Bits past the end read
             * as zeros, so a flag of 3 always lies within the input and
             * only the last flag can run past it; a count must follow
             * the zeros, so they may not reach past the last allowed
             * symbol.  (The checks come in the order of a flag-by-flag
             * reading, so errors are the same.) */
            for (;;) {
                uint32_t const w = peek_bits(src, src_size, bit, 24);
                unsigned const threes = xc_ctz64(~(uint64_t)w) >> 1; /* at most 12 */
                RETURN_ERROR_IF(sym + 3 * threes > limit, CORRUPT);
                for (unsigned i = 0; i < 3 * threes; i++) norm[sym++] = 0;
                bit += 2 * threes;
                if (threes == 12) continue;
                unsigned const rep = (w >> (2 * threes)) & 3;
                bit += 2;
                RETURN_ERROR_IF(bit > size_bits, TRUNCATED);
                RETURN_ERROR_IF(sym + rep > limit, CORRUPT);
                for (unsigned i = 0; i < rep; i++) norm[sym++] = 0;
                break;
            }
        }
        RETURN_ERROR_IF(sym > limit, CORRUPT);

        /* The field holds 0..remaining.  Its nbits-bit space has
         * 2 * threshold - 1 - remaining spare codes, which let the smallest
         * values be written with one bit less: a low value below that count
         * is complete in nbits - 1 bits; otherwise the full field is read
         * and its top half folded back onto the upper values. */
        short_values = 2 * threshold - 1 - remaining;
        field = peek_bits(src, src_size, bit, nbits);
        if ((int32_t)(field & (uint32_t)(threshold - 1)) < short_values) {
            value = (int32_t)(field & (uint32_t)(threshold - 1));
            bit += nbits - 1;
        } else {
            value = (int32_t)(field & (uint32_t)(2 * threshold - 1));
            if (value >= threshold) value -= short_values;
            bit += nbits;
        }
        RETURN_ERROR_IF(bit > size_bits, TRUNCATED);

        count = value - 1;                    /* value 0 encodes -1 */
        remaining -= count < 0 ? -count : count;
        RETURN_ERROR_IF(remaining < 1, CORRUPT);
        norm[sym++] = (int16_t)count;
        prev_zero = count == 0;
        while (remaining < threshold) {
            nbits--;
            threshold >>= 1;
        }
    }

    *max_symbol = sym - 1;
    *table_log = log;
    return (bit + 7) >> 3;
}

/* ---- decoding tables (§4.1.1, "From normalized distribution...") ------- */

/* Tables up to this log (the sequences' are at most 9) spread in two
 * passes through a buffer on the stack. */
#define SPREAD_FAST_LOG_MAX 9

/* Writes the symbol of every cell to base[cell * stride], so that the same
 * walk fills a plain symbol array or the symbol field of xc_fse_cell. */
static inline void spread(uint8_t *base, size_t stride, const int16_t *norm,
                          unsigned max_symbol, unsigned table_log)
{
    unsigned const size = 1u << table_log;
    unsigned const mask = size - 1;
    unsigned const step = (size >> 1) + (size >> 3) + 3;
    unsigned high = size - 1;
    unsigned s, pos = 0;

    /* The "less than 1" symbols take the top cells, in symbol order.
     * Written without a branch (they come scattered over the alphabet):
     * every symbol is stored at the next free top cell, which only the
     * "less than 1" ones claim; a cell written for another symbol is
     * claimed later or filled by the walk below, which covers every cell
     * up to the last claimed.  (When they claim every cell, high wraps
     * below 0 and the loop ends: the counts sum to the table size, so
     * only zeros could follow.) */
    for (s = 0; s <= max_symbol && high <= mask; s++) {
        base[(size_t)high * stride] = (uint8_t)s;
        high -= norm[s] == -1;
    }

    /* The step is odd, hence coprime with the table size: the walk visits
     * every cell once per lap, so the low cells (those not taken by the
     * "less than 1" symbols) are filled exactly when the counts sum to the
     * table size.  Without "less than 1" symbols no cell is skipped. */
    if (high == mask && table_log <= SPREAD_FAST_LOG_MAX) {
        /* The same cells in two passes without a branch that depends on
         * the counts (a loop per symbol of 1 to 8 or so rounds
         * mispredicts about once per symbol, which the tables of small
         * blocks pay on every block): the symbols in order, 8 copies a
         * store (the last store may run 7 bytes past the table), then
         * the walk, which reads the i-th of them at the i-th cell it
         * visits. */
        uint8_t order[(1u << SPREAD_FAST_LOG_MAX) + 8];
        uint64_t word = 0;
        size_t at = 0;
        for (s = 0; s <= max_symbol; s++, word += 0x0101010101010101ull) {
            size_t const n = (size_t)norm[s];
            memcpy(order + at, &word, 8);
            for (size_t k = 8; k < n; k += 8) memcpy(order + at + k, &word, 8);
            at += n;
        }
        for (size_t i = 0; i < size; i += 2) {
            base[(size_t)pos * stride] = order[i];
            base[(size_t)((pos + step) & mask) * stride] = order[i + 1];
            pos = (pos + 2 * step) & mask;
        }
    } else if (high == mask) {
        for (s = 0; s <= max_symbol; s++) {
            int i;
            for (i = 0; i < norm[s]; i++) {
                base[(size_t)pos * stride] = (uint8_t)s;
                pos = (pos + step) & mask;
            }
        }
    } else {
        for (s = 0; s <= max_symbol; s++) {
            int i;
            for (i = 0; i < norm[s]; i++) {
                base[(size_t)pos * stride] = (uint8_t)s;
                do pos = (pos + step) & mask;
                while (pos > high);
            }
        }
    }
}

void xc_fse_spread_symbols(uint8_t *symbols, const int16_t *norm, unsigned max_symbol,
                           unsigned table_log)
{
    spread(symbols, 1, norm, max_symbol, table_log);
}

void xc_fse_build_cells(xc_fse_cell *cells, const int16_t *norm, unsigned max_symbol,
                        unsigned table_log)
{
    unsigned const size = 1u << table_log;
    uint16_t next[XC_FSE_MAX_SYMBOL + 1];
    unsigned s, u;

    spread(&cells[0].symbol, sizeof(xc_fse_cell), norm, max_symbol, table_log);
    for (s = 0; s <= max_symbol; s++) next[s] = (uint16_t)(norm[s] == -1 ? 1 : norm[s]);

    /* Walking the cells in state order hands each symbol its x = c + k in
     * that order, as the construction requires. */
    for (u = 0; u < size; u++) {
        unsigned const sym = cells[u].symbol;
        unsigned const x = next[sym]++;
        unsigned const n = table_log - xc_highbit32(x);
        cells[u].nbits = (uint8_t)n;
        cells[u].next_base = (uint16_t)((x << n) - size);
    }
}

/* ---- compressed Huffman weights (§4.2.1.2) ----------------------------- */

/* The weights are symbols 0..12 (12 for the 12-bit trees of libzstd's
 * dictionaries, see XC_HUF_MAX_BITS), the accuracy log at most 6. */
#define WEIGHT_SYMBOL_MAX XC_HUF_MAX_BITS
#define WEIGHT_TABLELOG_MAX 6

size_t xc_fse_decode_weights(uint8_t *out, size_t out_cap, const uint8_t *src, size_t src_size)
{
    int16_t norm[WEIGHT_SYMBOL_MAX + 1];
    xc_fse_cell cells[1u << WEIGHT_TABLELOG_MAX];
    unsigned max_symbol = WEIGHT_SYMBOL_MAX, log;
    size_t hdr, n = 0;
    unsigned s1, s2;
    xc_bits br;

    hdr = xc_fse_read_ncount(norm, &max_symbol, &log, src, src_size);
    FORWARD_IF_ERROR(hdr);
    RETURN_ERROR_IF(log > WEIGHT_TABLELOG_MAX, CORRUPT);
    xc_fse_build_cells(cells, norm, max_symbol, log);

    /* The bit stream follows the description and fills the rest. */
    RETURN_ERROR_IF(hdr >= src_size, CORRUPT);
    FORWARD_IF_ERROR(xc_bits_init(&br, src + hdr, src_size - hdr));

    /* Two states share the table: the first decodes the even-indexed
     * weights, the second the odd ones.  Both initial states must be in
     * the stream (the permissive reading of v1.5.6 and older, which
     * padded them with zeros, is not allowed). */
    s1 = (unsigned)xc_bits_read(&br, log);
    s2 = (unsigned)xc_bits_read(&br, log);
    RETURN_ERROR_IF(xc_bits_reload(&br) == XC_BITS_OVERFLOW, CORRUPT);

    /* The number of weights is not sent: the encoder stops when the
     * stream is spent.  A state update that reads past the start of the
     * stream marks the end; the other state then yields its last symbol.
     * Each update reads at most 6 bits, and the reload after it keeps the
     * container at 57 bits or more until the start is reached, so the
     * over-read is noticed on the very update that causes it. */
    /* While the reader has bytes before its container (so that 57 bits
     * are loaded and 4 updates of at most 6 bits cannot run past the
     * start), 4 weights per reload and no test for the end. */
    while (n + 6 <= out_cap && xc_bits_reload(&br) == XC_BITS_UNFINISHED) {
        out[n] = cells[s1].symbol;
        s1 = cells[s1].next_base + (unsigned)xc_bits_read(&br, cells[s1].nbits);
        out[n + 1] = cells[s2].symbol;
        s2 = cells[s2].next_base + (unsigned)xc_bits_read(&br, cells[s2].nbits);
        out[n + 2] = cells[s1].symbol;
        s1 = cells[s1].next_base + (unsigned)xc_bits_read(&br, cells[s1].nbits);
        out[n + 3] = cells[s2].symbol;
        s2 = cells[s2].next_base + (unsigned)xc_bits_read(&br, cells[s2].nbits);
        n += 4;
    }
    for (;;) {
        RETURN_ERROR_IF(n + 2 > out_cap, CORRUPT);
        out[n++] = cells[s1].symbol;
        s1 = cells[s1].next_base + (unsigned)xc_bits_read(&br, cells[s1].nbits);
        if (xc_bits_reload(&br) == XC_BITS_OVERFLOW) {
            out[n++] = cells[s2].symbol;
            break;
        }
        RETURN_ERROR_IF(n + 2 > out_cap, CORRUPT);
        out[n++] = cells[s2].symbol;
        s2 = cells[s2].next_base + (unsigned)xc_bits_read(&br, cells[s2].nbits);
        if (xc_bits_reload(&br) == XC_BITS_OVERFLOW) {
            out[n++] = cells[s1].symbol;
            break;
        }
    }
    return n;
}
