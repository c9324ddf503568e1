/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FSE encoding (RFC 8878 §4.1): normalisation of a histogram to a power-of-
 * two total, the table description, and the encoding tables.
 *
 * ---- The encoding transform ----------------------------------------------
 *
 * Let T be the accuracy log and S = 1 << T.  The decoder's table gives each
 * symbol s exactly p cells (p = its probability, a "-1" counting as 1).
 * Sorting the cells of s by state, the j-th one (j = 0..p-1) carries the
 * number k = p + j; it reads nb = T - highbit(k) bits and moves to state
 * (k << nb) - S + bits.  Writing the encoder's state as x = S + (decoder
 * state), which lies in [S, 2S), one decoding step maps a cell of s and
 * nb bits b to x = (k << nb) + b.  The encoder inverts it: given x, find
 * the nb for which k = x >> nb falls in [p, 2p), emit the low nb bits of
 * x, and continue from the state of s's (k - p)-th cell.
 *
 * With h = highbit(p), x >> (T - h) lies in [2^h, 2^(h+1)), which contains
 * p, so nb is T - h when x >= p << (T - h) and T - h - 1 otherwise.  Both
 * cases fold into one addition: nb = (x + delta_nbits) >> 16 with
 * delta_nbits = ((T - h) << 16) - (p << (T - h)), because x and the
 * threshold differ by less than 2^16.  The successor is stored in `state`
 * sorted by symbol, the cells of s starting at cum(s) (the sum of the
 * probabilities of the symbols before s), so it is
 * state[(x >> nb) + cum(s) - p]; delta_state = cum(s) - p.
 *
 * ---- Normalisation --------------------------------------------------------
 *
 * Coding symbol s with q cells costs about T - log2(q) bits, so the best
 * integer distribution maximises sum(count[s] * log2(q[s])) subject to
 * sum(q) = S and q >= 1 for every present symbol.  The objective is
 * separable and concave, so a distribution is optimal exactly when moving
 * one cell from any symbol to any other does not help.  Symbols whose
 * share is at most one cell get one (the "-1" of the format when asked);
 * the others start from their share of the cells left, rounded where the
 * marginal gain says so (the rule below).  Then cells are added or removed
 * one at a time where the marginal value count * log2((q + 1) / q) is
 * highest or lowest, and traded while a trade gains.  The start is usually
 * within a few cells of the optimum, so the loops are short.  (Model
 * caveat: on small tables with one dominant symbol, real tANS costs depart
 * from T - log2(q); the optimum of the model is still a good choice.)
 *
 * Rounding: with ideal share r = p + f, one more cell gains
 * count * log2(1 + 1/p), proportional to r * ln(1 + 1/p), while the cell it
 * takes away costs about 1 in the same unit (at the optimum of the
 * continuous problem every cell has the same marginal value).  So p rounds
 * up when f > 1 / ln(1 + 1/p) - p, a threshold that grows from 0.443 (p = 1)
 * towards 1/2 - 1/(12p).
 *
 * What it may call: the entropy coders (entropy/).
 */
#include "zstd/entropy/entropy_encode.h"
#include "zstd/entropy/entropy_decode.h"

static unsigned highbit_st(size_t x)
{
    return 63u - xc_clz64((uint64_t)x);
}

/* ---- fixed-point logarithms --------------------------------------------- */

/* log2(x) * 256, rounded down to about 1/256; x >= 1.  Repeated squaring of
 * the mantissa yields one fraction bit per step, in plain integer
 * arithmetic, so every platform computes the same value. */
static uint32_t log2_q8(uint32_t x)
{
    unsigned h = xc_highbit32(x);
    uint64_t m = (uint64_t)x << (31 - h); /* mantissa in [2^31, 2^32): 1.0 = 2^31 */
    uint32_t r = h << 8;
    int i;
    for (i = 7; i >= 0; i--) {
        m = (m * m) >> 31;
        if (m >= ((uint64_t)1 << 32)) {
            m >>= 1;
            r |= 1u << i;
        }
    }
    return r;
}

/* log2(1 + 1/q) in Q24 for q = 1..64 (k_step[0] unused); beyond, the value
 * 2^24 / (ln 2 * (q + 1/2)) is within 2e-5 relative of the truth.  Near
 * ties between two symbols are decided by these values, so they carry more
 * precision than the result needs. */
static const uint32_t k_step[65] = {
    0,        16777216, 9814042, 6963174, 5401057, 4412985, 3731126, 3232048, 2850868,
    2550189,  2306926,  2106059, 1937386, 1793739, 1669931, 1562117, 1467383, 1383485,
    1308665,  1241524,  1180937, 1125989, 1075929, 1030130, 988072,  949314,  913482,
    880257,   849365,   820567,  793658,  768458,  744810,  722573,  701626,  681859,
    663176,   645489,   628721,  612803,  597670,  583267,  569542,  556448,  543942,
    531986,   520545,   509585,  499078,  488995,  479311,  470003,  461050,  452432,
    444130,   436127,   428408,  420957,  413761,  406806,  400082,  393576,  387279,
    381180,   375270};

static uint32_t log2_step(uint32_t q)
{
    return q <= 64 ? k_step[q] : (uint32_t)(48408813u / (2 * q + 1));
}

/* The threshold of the rounding rule, 1/ln(1 + 1/p) - p, in Q16. */
static const uint32_t k_round_up[17] = {0,     29012, 30560, 31199, 31550, 31773,
                                        31926, 32039, 32125, 32193, 32248, 32293,
                                        32331, 32363, 32391, 32416, 32437};

static uint32_t round_up_threshold_q16(uint64_t p)
{
    return p <= 16 ? k_round_up[p] : 32768u - (uint32_t)(5461u / p);
}

/* ---- table log --------------------------------------------------------- */

unsigned xc_fse_optimal_table_log(unsigned max_log, size_t total, unsigned max_symbol)
{
    unsigned log, need;
    if (max_log < XC_FSE_ENC_TABLELOG_MIN) max_log = XC_FSE_ENC_TABLELOG_MIN;
    if (max_log > XC_FSE_ENC_TABLELOG_MAX) max_log = XC_FSE_ENC_TABLELOG_MAX;
    if (total < 2) return XC_FSE_ENC_TABLELOG_MIN;
    log = max_log;
    /* More cells than about a quarter of the samples buy no accuracy that
     * pays for the longer description. */
    if (highbit_st(total - 1) < log + 2) log = XC_MAX(highbit_st(total - 1), 2u) - 2;
    /* But every symbol needs a cell, with some room to spare. */
    need = XC_MIN(highbit_st(total) + 1, (max_symbol ? xc_highbit32(max_symbol) : 0) + 2);
    if (need > log) log = need;
    if (log < XC_FSE_ENC_TABLELOG_MIN) log = XC_FSE_ENC_TABLELOG_MIN;
    if (log > max_log) log = max_log;
    return log;
}

/* ---- normalisation ------------------------------------------------------- */

/* What one more cell, and the last cell, are worth to a symbol with q
 * cells (see xc_fse_normalize()). */
static void marginals(uint64_t *up, uint64_t *down, int q, int fixed, unsigned count)
{
    /* Selects, not branches: which symbols are absent or fixed is close
     * to random in the small tables of short blocks. */
    int const ok = (q > 0) & !fixed;
    uint32_t const qu = ok ? (uint32_t)q : 1u;
    uint64_t const u = (uint64_t)count * log2_step(qu);
    uint64_t const d = (uint64_t)count * log2_step(qu > 1 ? qu - 1 : 1u);
    *up = ok ? u : 0;
    *down = (ok & (qu >= 2)) ? d : UINT64_MAX;
}

size_t xc_fse_normalize(int16_t *norm, unsigned table_log, const unsigned *count, size_t total,
                        unsigned max_symbol, int use_low_prob)
{
    const uint64_t scale = (uint64_t)1 << table_log;
    int fixed[XC_FSE_ENC_SYMBOL_MAX_NCOUNT + 1]; /* a "-1" symbol: may not grow */
    uint64_t step, low_total = 0;
    int64_t left;
    unsigned s, present = 0, low_cells = 0, rounds;

    RETURN_ERROR_IF(table_log < XC_FSE_ENC_TABLELOG_MIN || table_log > XC_FSE_ENC_TABLELOG_MAX,
                    BAD_PARAMETER);
    RETURN_ERROR_IF(max_symbol > XC_FSE_ENC_SYMBOL_MAX_NCOUNT || total == 0, BAD_PARAMETER);

    /* First the symbols whose share, count * scale / total, is at most one
     * cell: they get exactly one, marked "less than 1" when asked (and then
     * keep it).  The shares are computed in fixed point through a single
     * division: step = 2^62 / total, count * step <= 2^62, the error stays
     * below 2^-21 of a cell. */
    step = ((uint64_t)1 << 62) / total;
    {
        /* Without a branch per symbol (absent and one-cell symbols are
         * as good as random in short blocks' tables): norm is the one-cell
         * value times `low`, and the sums add masked terms. */
        uint64_t const one_cell = (uint64_t)1 << (62 - table_log);
        int const low_norm = use_low_prob ? -1 : 1, low_fixed = use_low_prob != 0;
        unsigned single = 0;
        for (s = 0; s <= max_symbol; s++) {
            uint64_t const c = count[s];
            unsigned const here = c != 0;
            unsigned const low = here & (c * step <= one_cell);
            single |= c == total;
            present += here;
            norm[s] = (int16_t)(low_norm * (int)low);
            fixed[s] = low_fixed & (int)low;
            low_cells += low;
            low_total += c & ((uint64_t)0 - low);
        }
        if (single) return 0; /* a single symbol: RLE */
    }
    RETURN_ERROR_IF(present > scale, BAD_PARAMETER);
    RETURN_ERROR_IF(present == 0, BAD_PARAMETER); /* counts do not add up to total */

    /* Then the others share the cells that remain in proportion to their
     * counts, so that the rounding alone is left to settle.  Here step is
     * (cells left) * 2^52 / (count left), at most 2^61. */
    left = (int64_t)(scale - low_cells);
    if (total > low_total) {
        step = (((uint64_t)scale - low_cells) << 52) / (total - low_total);
        for (s = 0; s <= max_symbol; s++) {
            /* As above, selects: q is computed for every symbol and kept
             * for those present and not yet given their one cell. */
            uint64_t const c = count[s], share = c * step, q0 = share >> 52;
            int const take = (c != 0) & (norm[s] == 0);
            uint64_t const rounded = q0 + (((share >> 36) & 0xFFFF) > round_up_threshold_q16(q0));
            uint64_t const q = q0 ? rounded : 1;
            norm[s] = take ? (int16_t)q : norm[s];
            left -= take ? (int64_t)q : 0;
        }
    }
    /* Hand out or take back the cells the rounding left over, each time
     * where it helps most or hurts least, then trade cells while a trade
     * gains.  up[s] is what one more cell is worth to s, down[s] what its
     * last cell is worth (0 and UINT64_MAX where the move is not allowed:
     * absent and "-1" symbols, a last single cell); only the symbols that
     * change are recomputed. */
    {
        uint64_t up[XC_FSE_ENC_SYMBOL_MAX_NCOUNT + 1], down[XC_FSE_ENC_SYMBOL_MAX_NCOUNT + 1];
        for (s = 0; s <= max_symbol; s++) marginals(&up[s], &down[s], norm[s], fixed[s], count[s]);
        while (left != 0) {
            unsigned best = 0;
            if (left > 0) {
                for (s = 1; s <= max_symbol; s++) best = up[s] > up[best] ? s : best;
            } else {
                for (s = 1; s <= max_symbol; s++) best = down[s] < down[best] ? s : best;
            }
            if (left > 0 ? up[best] == 0 : down[best] == UINT64_MAX) {
                /* Only "-1" symbols are left to grow (every symbol has a
                 * share of one cell at most): let them become ordinary.
                 * Cells to take back with nothing above one cell cannot
                 * happen, since there are no more symbols than cells. */
                int unfixed = 0;
                for (s = 0; s <= max_symbol; s++) {
                    if (!fixed[s]) continue;
                    fixed[s] = 0, norm[s] = 1, unfixed = 1;
                    marginals(&up[s], &down[s], norm[s], 0, count[s]);
                }
                RETURN_ERROR_IF(!unfixed || left < 0, GENERIC);
                continue;
            }
            norm[best] = (int16_t)(norm[best] + (left > 0 ? 1 : -1));
            left += left > 0 ? -1 : 1;
            marginals(&up[best], &down[best], norm[best], 0, count[best]);
        }
        /* Each trade strictly improves the objective; the bound only
         * guards against pathological inputs. */
        for (rounds = 0; rounds < 2 * present + 8; rounds++) {
            unsigned give = 0, take = 0;
            for (s = 1; s <= max_symbol; s++) {
                give = up[s] > up[give] ? s : give;
                take = down[s] < down[take] ? s : take;
            }
            if (down[take] == UINT64_MAX || up[give] <= down[take] || give == take) break;
            norm[give]++;
            norm[take]--;
            marginals(&up[give], &down[give], norm[give], 0, count[give]);
            marginals(&up[take], &down[take], norm[take], 0, count[take]);
        }
    }
    return table_log;
}

/* ---- table description (§4.1.1) ---------------------------------------- */

size_t xc_fse_ncount_bound(unsigned max_symbol, unsigned table_log)
{
    /* 4 bits of accuracy log; each symbol takes at most table_log + 1 bits
     * for its value, or 2 bits inside a run of zeros, and each run ends
     * with one more 2-bit flag. */
    return (4 + (size_t)(max_symbol + 1) * (table_log + 3) + 7) / 8 + 1;
}

size_t xc_fse_write_ncount(uint8_t *dst, size_t cap, const int16_t *norm, unsigned max_symbol,
                           unsigned table_log)
{
    xc_bitw w;
    int remaining;
    unsigned s = 0;

    RETURN_ERROR_IF(table_log < XC_FSE_ENC_TABLELOG_MIN || table_log > XC_FSE_ENC_TABLELOG_MAX,
                    BAD_PARAMETER);
    RETURN_ERROR_IF(max_symbol > XC_FSE_ENC_SYMBOL_MAX_NCOUNT, BAD_PARAMETER);
    xc_bitw_init(&w, dst, cap);
    xc_bitw_add(&w, table_log - XC_FSE_ENC_TABLELOG_MIN, 4);

    remaining = 1 << table_log;
    while (remaining > 0) {
        int p, value, max_value;
        unsigned nb, low;
        RETURN_ERROR_IF(s > max_symbol, BAD_PARAMETER);
        p = norm[s++];
        RETURN_ERROR_IF(p < -1, BAD_PARAMETER);
        /* The value is p + 1, in [0, remaining + 1]: nb = log2sup of the
         * largest value, and the `low` smallest values fit in nb - 1 bits
         * because the decoder reads nb - 1 bits first and only takes one
         * more when they are not below `low`. */
        value = p + 1;
        max_value = remaining + 1;
        nb = xc_highbit32((uint32_t)max_value) + 1;
        low = (1u << nb) - 1 - (unsigned)max_value;
        if ((unsigned)value < low) {
            xc_bitw_add(&w, (unsigned)value, nb - 1);
        } else if ((unsigned)value < (1u << (nb - 1))) {
            xc_bitw_add(&w, (unsigned)value, nb);
        } else {
            xc_bitw_add(&w, (unsigned)value + low, nb);
        }
        remaining -= p < 0 ? 1 : p;
        RETURN_ERROR_IF(remaining < 0, BAD_PARAMETER);
        if (p == 0) {
            /* A zero is followed by 2-bit repeat counts of further zeros,
             * each 3 announcing another count. */
            unsigned run = 0;
            while (s + run <= max_symbol && norm[s + run] == 0) run++;
            s += run;
            while (run >= 3) {
                xc_bitw_add(&w, 3, 2);
                run -= 3;
                if (w.count >= 48) xc_bitw_flush(&w);
            }
            xc_bitw_add(&w, run, 2);
        }
        xc_bitw_flush(&w);
    }
    /* The description ends in the byte holding its last bit, without an
     * end mark. */
    if (w.count > 0) {
        if (w.ptr == w.end) w.overflow = 1;
        else *w.ptr++ = (uint8_t)w.bits;
    }
    if (w.overflow) return XC_ERROR(DST_TOO_SMALL);
    return (size_t)(w.ptr - w.start);
}

/* ---- encoding tables ----------------------------------------------------- */

size_t xc_fse_build_ctable(xc_fse_ctable *ct, const int16_t *norm, unsigned max_symbol,
                           unsigned table_log)
{
    const unsigned size = 1u << table_log;
    uint8_t cell_symbol[1u << XC_FSE_ENC_TABLELOG_MAX];
    uint16_t next[XC_FSE_ENC_SYMBOL_MAX + 1];
    unsigned s, u, cum = 0;

    RETURN_ERROR_IF(table_log < XC_FSE_ENC_TABLELOG_MIN || table_log > XC_FSE_ENC_TABLELOG_MAX,
                    BAD_PARAMETER);
    RETURN_ERROR_IF(max_symbol > XC_FSE_ENC_SYMBOL_MAX, BAD_PARAMETER);

    /* Cell counts, start positions and the transforms (see the top of the
     * file).  Absent symbols get a transform that stays inside the tables
     * should a caller encode one anyway.  Selects rather than a branch on
     * absence, which is close to random in short blocks' tables; the
     * checks are gathered and made once. */
    {
        uint32_t const absent_nbits = ((table_log + 1) << 16) - size;
        unsigned bad = 0;
        for (s = 0; s <= max_symbol; s++) {
            int const p = norm[s];
            unsigned const pu = p < 0 ? 1u : (unsigned)p;
            unsigned const maxbits = table_log - xc_highbit32(pu | 1u);
            bad |= p < -1;
            ct->prob[s] = (uint16_t)pu;
            ct->sym[s].delta_nbits = pu ? (maxbits << 16) - (pu << maxbits) : absent_nbits;
            ct->sym[s].delta_state = pu ? (int32_t)cum - (int32_t)pu : 0;
            next[s] = (uint16_t)cum;
            cum += pu & 0xFFFFu;
        }
        RETURN_ERROR_IF(bad, BAD_PARAMETER);
        RETURN_ERROR_IF(cum != size, BAD_PARAMETER);
        for (; s <= XC_FSE_ENC_SYMBOL_MAX; s++) {
            ct->prob[s] = 0;
            ct->sym[s].delta_nbits = absent_nbits;
            ct->sym[s].delta_state = 0;
        }
    }

    /* Spread the symbols over the cells with the decoder's own walk
     * (fse_decode.c), so both sides agree on every cell by construction. */
    xc_fse_spread_symbols(cell_symbol, norm, max_symbol, table_log);

    /* Each symbol's cells in increasing state order. */
    for (u = 0; u < size; u++) ct->state[next[cell_symbol[u]]++] = (uint16_t)(size + u);
    ct->table_log = table_log;
    ct->max_symbol = max_symbol;
    return 0;
}

void xc_fse_build_ctable_rle(xc_fse_ctable *ct, unsigned symbol)
{
    /* One cell, table_log 0: the transform gives nb = 0 and keeps the
     * state at 1, and flushing writes 0 bits. */
    unsigned s;
    for (s = 0; s <= XC_FSE_ENC_SYMBOL_MAX; s++) {
        ct->prob[s] = 0;
        ct->sym[s].delta_nbits = (1u << 16) - 1;
        ct->sym[s].delta_state = 0;
    }
    ct->table_log = 0;
    ct->max_symbol = symbol;
    ct->state[0] = 1;
    ct->prob[symbol] = 1;
    ct->sym[symbol].delta_nbits = (uint32_t)0 - 1;
    ct->sym[symbol].delta_state = -1;
}

size_t xc_fse_estimate_bits(const xc_fse_ctable *ct, const unsigned *count, unsigned max_symbol)
{
    uint64_t cost = 0;
    const uint32_t top = ct->table_log << 8;
    unsigned s;
    for (s = 0; s <= max_symbol; s++) {
        if (count[s] == 0) continue;
        if (s > ct->max_symbol || ct->prob[s] == 0) return XC_ERROR(GENERIC);
        cost += (uint64_t)count[s] * (top - log2_q8(ct->prob[s]));
    }
    return (size_t)(cost >> 8);
}
