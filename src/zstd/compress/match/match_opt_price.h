/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prices for the optimal parsers (btopt, btultra, btultra2): what a
 * literal, a literal length, a match length and an offset code are
 * expected to cost in the block's entropy coding, in 1/256 bit.
 *
 * A symbol of frequency f among symbols totalling S costs log2(S / f)
 * bits under an ideal entropy coder, and the parser only needs the
 * difference log2(S) - log2(f).  Logarithms come from a table-free
 * approximation: btopt uses whole bits (the position of the top bit of
 * f + 1), btultra adds a linear fraction between powers of two
 * (log2(x) ~ k + (x - 2^k) / 2^k for 2^k <= x < 2^(k+1)), which is within
 * 0.09 bit of the truth and exact at powers of two.  Both are integer
 * arithmetic, so prices, and with them the frames, are the same on every
 * host.  Extra bits (of lengths and offsets) are added at full price.
 *
 * The frequencies adapt as the parse goes: every sequence the parser
 * emits is counted, so later blocks are priced by what earlier ones did.
 * At the start of a frame they come from the block's own literal
 * histogram and from priors shaped like typical zstd output (short literal
 * runs, offset codes clustered in the teens), or from the Huffman and FSE
 * tables in force when a dictionary supplied them.  Between blocks they
 * are scaled down so that recent statistics dominate.
 *
 * What it may call: the encoder (compress/).
 */
#ifndef XC_ZSTD_OPT_PRICE_H
#define XC_ZSTD_OPT_PRICE_H

#include "zstd/compress/compress_internal.h"

/* Positions one optimal-parse window may span, and the longest match the
 * parser prices position by position; longer matches are taken at once. */
#define XC_ZOPT_NUM (1u << 12)

/* Fractional bits of a price. */
#define XC_ZPRICE_SHIFT 8
#define XC_ZPRICE_ONE (1u << XC_ZPRICE_SHIFT)
#define XC_ZPRICE_MAX (1 << 30)

/* One candidate match: its Offset_Value and length. */
typedef struct {
    uint32_t off_value;
    uint32_t len;
} xc_zopt_match;

/* One position of the parse window: the cheapest known way to get there.
 * mlen is 0 when that way ends in a literal; then litlen counts the
 * literals since the last match (or since the window's anchor).  For a
 * match, litlen is the number of literals before it, off_value its
 * Offset_Value.  rep holds the repeat offsets after this position's path,
 * set when the parse reaches the position. */
typedef struct {
    int32_t price;
    uint32_t off_value;
    uint32_t mlen;
    uint32_t litlen;
    uint32_t rep[3];
} xc_zopt_node;

/* One match of the path read back from a window: where it starts (from
 * the window's first position), its Offset_Value and length. */
typedef struct {
    uint32_t pos;
    uint32_t off_value;
    uint32_t len;
} xc_zopt_step;

struct xc_zopt_s {
    /* Statistics: frequencies and their sums. */
    uint32_t lit_freq[256];
    uint32_t ll_freq[XC_ZSTD_LL_MAX + 1];
    uint32_t ml_freq[XC_ZSTD_ML_MAX + 1];
    uint32_t of_freq[XC_ZSTD_OF_MAX + 1];
    uint32_t lit_sum, ll_sum, ml_sum, of_sum;
    /* The prices of the sums, recomputed after the statistics change. */
    uint32_t lit_sum_price, ll_sum_price, ml_sum_price, of_sum_price;
    /* The price of a literal length, match length or offset with code c
     * is its kind's base (the sum's price; 0 for fixed prices) plus the
     * code's part (its extra bits, less the weight of its frequency),
     * modulo 2^32.  The parser prices hundreds of lengths per position
     * and the statistics change once per window; kept apart, a change of
     * the sums moves only the base, and only the codes counted since the
     * last window need their parts again. */
    uint32_t ll_base, ml_base, of_base;
    uint32_t ll_part[XC_ZSTD_LL_MAX + 1];
    uint32_t ml_part[XC_ZSTD_ML_MAX + 1];
    uint32_t of_part[XC_ZSTD_OF_MAX + 1];
    /* The codes counted since their parts were last computed, one bit
     * each: a window emits a few sequences, and rebuilding all 124 parts
     * after every window cost a 4 KiB record at level 19 a third of its
     * time. */
    uint64_t ll_dirty, ml_dirty, of_dirty;
    int predef;       /* tiny first block: fixed prices */
    int frac;         /* fractional-bit prices (btultra, btultra2) */
    int fresh;        /* no block parsed yet in this frame */
    const xc_zentropy *ent; /* the tables in force, for seeding */
    xc_zopt_node node[XC_ZOPT_NUM + 2];
    xc_zopt_match match[XC_ZOPT_NUM + 16];
    xc_zopt_step path[XC_ZOPT_NUM / 3 + 4];
};

/* ---- prices -------------------------------------------------------------------- */

/* log2(f + 1) in 1/256 bit, whole bits or with the linear fraction (see
 * the top; that form carries one extra bit, the same in every weight, so
 * it cancels in the differences that make prices); the +1 keeps zero
 * frequencies finite. */
XC_FORCE_INLINE uint32_t xc_zopt_weight(uint32_t f, int frac)
{
    uint32_t const x = f + 1;
    unsigned const hb = xc_highbit32(x);
    uint32_t const whole = (uint32_t)hb << XC_ZPRICE_SHIFT;
    if (!frac) return whole;
    return whole + ((x << XC_ZPRICE_SHIFT) >> hb);
}

/* One literal; never below one bit, so that a run of literals is never
 * priced as free. */
XC_FORCE_INLINE uint32_t xc_zopt_lit_price(const struct xc_zopt_s *o, unsigned byte)
{
    if (o->predef) return 6 * XC_ZPRICE_ONE;
    uint32_t const w = xc_zopt_weight(o->lit_freq[byte], o->frac);
    uint32_t const cap = o->lit_sum_price - XC_ZPRICE_ONE;
    return o->lit_sum_price - (w > cap ? cap : w);
}

XC_FORCE_INLINE uint32_t xc_zopt_ll_price(const struct xc_zopt_s *o, uint32_t ll)
{
    /* A run of a whole block's literals cannot be followed by a match
     * within the block, but the code exists; price it one bit above its
     * neighbour so that it stays representable. */
    if (XC_UNLIKELY(ll >= XC_ZSTD_BLOCK_SIZE_MAX))
        return XC_ZPRICE_ONE + xc_zopt_ll_price(o, XC_ZSTD_BLOCK_SIZE_MAX - 1);
    return o->ll_base + o->ll_part[xc_zstd_ll_code(ll)];
}

/* What one more literal adds to the price of a run of ll - 1 (ll >= 1,
 * below a block): the bases cancel. */
XC_FORCE_INLINE uint32_t xc_zopt_ll_step(const struct xc_zopt_s *o, uint32_t ll)
{
    if (XC_UNLIKELY(ll >= XC_ZSTD_BLOCK_SIZE_MAX))
        return xc_zopt_ll_price(o, ll) - xc_zopt_ll_price(o, ll - 1);
    return o->ll_part[xc_zstd_ll_code(ll)] - o->ll_part[xc_zstd_ll_code(ll - 1)];
}

/* The offset part of a match's price (see xc_zopt_set_base_prices). */
XC_FORCE_INLINE uint32_t xc_zopt_off_price(const struct xc_zopt_s *o, uint32_t off_value)
{
    return o->of_base + o->of_part[xc_zstd_of_code(off_value)];
}

/* The length part of a match's price (see xc_zopt_set_base_prices). */
XC_FORCE_INLINE uint32_t xc_zopt_ml_price(const struct xc_zopt_s *o, uint32_t mlen)
{
    return o->ml_base + o->ml_part[xc_zstd_ml_code(mlen - 3)];
}

/* The code's part alone, for a loop over lengths that adds o->ml_base
 * once. */
XC_FORCE_INLINE uint32_t xc_zopt_ml_part(const struct xc_zopt_s *o, uint32_t mlen)
{
    return o->ml_part[xc_zstd_ml_code(mlen - 3)];
}

/* ---- statistics (match_opt_price.c) ---------------------------------------------- */

/* Readies the statistics for the block src[0..size): seeds them on a
 * frame's first block, scales them down on later ones. */
XC_HIDDEN void xc_zopt_stats_begin(struct xc_zopt_s *o, const uint8_t *src, size_t size);

/* Counts one emitted sequence: its literals, their number, the
 * Offset_Value and the match length. */
XC_FORCE_INLINE void xc_zopt_stats_add(struct xc_zopt_s *o, const uint8_t *lits, uint32_t ll,
                                       uint32_t off_value, uint32_t mlen)
{
    /* Literals count double: there are many more of them than of the
     * other symbols, and their statistics should follow the data. */
    for (uint32_t i = 0; i < ll; i++) o->lit_freq[lits[i]] += 2;
    o->lit_sum += 2 * ll;
    unsigned const llc = xc_zstd_ll_code(ll);
    unsigned const ofc = xc_zstd_of_code(off_value);
    unsigned const mlc = xc_zstd_ml_code(mlen - 3);
    o->ll_freq[llc]++;
    o->ll_sum++;
    o->ll_dirty |= (uint64_t)1 << llc;
    o->of_freq[ofc]++;
    o->of_sum++;
    o->of_dirty |= (uint64_t)1 << ofc;
    o->ml_freq[mlc]++;
    o->ml_sum++;
    o->ml_dirty |= (uint64_t)1 << mlc;
}

/* Recomputes the prices after the statistics changed: those of the sums
 * (the bases), and the parts of the codes counted since the last call;
 * the result is what a full rebuild would give. */
XC_HIDDEN void xc_zopt_set_base_prices(struct xc_zopt_s *o);

#endif /* XC_ZSTD_OPT_PRICE_H */
