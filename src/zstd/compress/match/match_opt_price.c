/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The statistics behind the optimal parsers' prices (match_opt_price.h):
 * where they start in a frame, how they age between blocks, and the state
 * that holds them.
 *
 * What it may call: the match state and searches (compress/match/).
 */
#include <stdlib.h>

#include "zstd/compress/match/match_opt_price.h"

/* Below this many bytes a first block is priced with fixed costs: its own
 * histogram says too little. */
#define PREDEF_BELOW 9

/* Sums the statistics are scaled towards between blocks: about 4096
 * literals' worth and 2048 of each sequence symbol, so that a block's own
 * counts (up to 128 Ki literals, tens of thousands of sequences) soon
 * outweigh the history while rare symbols keep a finite price. */
#define LIT_SCALE_LOG 12
#define SEQ_SCALE_LOG 11

/* Every frequency becomes keep + (f >> shift); keep is 1 to give every
 * symbol a price, or (f > 0) to leave absent symbols absent.  Returns the
 * new sum. */
static uint32_t downscale(uint32_t *f, unsigned last, unsigned shift, int keep_all)
{
    uint32_t sum = 0;
    for (unsigned s = 0; s <= last; s++) {
        uint32_t const keep = keep_all ? 1u : (f[s] > 0);
        f[s] = keep + (f[s] >> shift);
        sum += f[s];
    }
    return sum;
}

static uint32_t scale_towards(uint32_t *f, unsigned last, unsigned log_target)
{
    uint32_t sum = 0;
    for (unsigned s = 0; s <= last; s++) sum += f[s];
    uint32_t const factor = sum >> log_target;
    if (factor <= 1) return sum;
    return downscale(f, last, xc_highbit32(factor), 1);
}

/* A code of n bits stands for a frequency of about 2^(scale - n) out of
 * 2^scale; symbols without a code (or longer ones) get the least. */
static uint32_t freq_of_bits(unsigned bits, unsigned scale)
{
    return bits && bits < scale ? 1u << (scale - bits) : 1u;
}

/* Literal lengths of 0 and 1 dominate zstd's sequences; offset codes
 * gather at the repeat codes (1, 2) and at medium distances (codes 4..10,
 * 8 bytes to 1 KiB).  Uniform priors for match lengths. */
static const uint8_t ll_prior[XC_ZSTD_LL_MAX + 1] = {4, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
static const uint8_t of_prior[XC_ZSTD_OF_MAX + 1] = {6, 2, 1, 1, 2, 3, 4, 4, 4, 3, 2,
                                                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

static uint32_t seed_from_fse(uint32_t *f, unsigned last, const xc_zentropy *e, unsigned type)
{
    const xc_fse_ctable *ct = &e->fse[type][e->fse_cur[type]];
    uint32_t sum = 0;
    for (unsigned s = 0; s <= last; s++) {
        unsigned bits = 16;
        if (s <= ct->max_symbol && ct->prob[s])
            bits = (unsigned)(((uint64_t)ct->sym[s].delta_nbits + 0xFFFFu) >> 16) & 31u;
        /* No bits at all: the only symbol of an RLE table. */
        f[s] = bits ? freq_of_bits(bits, 10) : 1u << 10;
        sum += f[s];
    }
    return sum;
}

static uint32_t seed_from_prior(uint32_t *f, unsigned last, const uint8_t *prior)
{
    uint32_t sum = 0;
    for (unsigned s = 0; s <= last; s++) {
        f[s] = prior ? prior[s] : 1u;
        sum += f[s];
    }
    return sum;
}

static void seed(struct xc_zopt_s *o, const uint8_t *src, size_t size)
{
    const xc_zentropy *e = o->ent;
    o->predef = size < PREDEF_BELOW;
    /* Tables already in force at a frame's first block can only come from
     * a dictionary; they describe the data to come better than priors. */
    if (e && e->huf_valid) {
        o->predef = 0;
        const xc_huf_ctable *h = &e->huf[e->huf_cur];
        o->lit_sum = 0;
        for (unsigned s = 0; s < 256; s++) {
            unsigned const len = s <= h->max_symbol ? xc_huf_code_length(h, s) : 0;
            o->lit_freq[s] = freq_of_bits(len, 11);
            o->lit_sum += o->lit_freq[s];
        }
    } else {
        memset(o->lit_freq, 0, sizeof o->lit_freq);
        for (size_t i = 0; i < size; i++) o->lit_freq[src[i]]++;
        o->lit_sum = downscale(o->lit_freq, 255, 8, 0);
    }
    int const tables = e && e->huf_valid;
    o->ll_sum = tables && e->fse_valid[XC_SEQ_LL]
                    ? seed_from_fse(o->ll_freq, XC_ZSTD_LL_MAX, e, XC_SEQ_LL)
                    : seed_from_prior(o->ll_freq, XC_ZSTD_LL_MAX, ll_prior);
    o->ml_sum = tables && e->fse_valid[XC_SEQ_ML]
                    ? seed_from_fse(o->ml_freq, XC_ZSTD_ML_MAX, e, XC_SEQ_ML)
                    : seed_from_prior(o->ml_freq, XC_ZSTD_ML_MAX, NULL);
    o->of_sum = tables && e->fse_valid[XC_SEQ_OF]
                    ? seed_from_fse(o->of_freq, XC_ZSTD_OF_MAX, e, XC_SEQ_OF)
                    : seed_from_prior(o->of_freq, XC_ZSTD_OF_MAX, of_prior);
}

static void set_all_prices(struct xc_zopt_s *o);

void xc_zopt_stats_begin(struct xc_zopt_s *o, const uint8_t *src, size_t size)
{
    if (o->fresh) {
        seed(o, src, size);
        o->fresh = 0;
    } else {
        o->predef = 0;
        o->lit_sum = scale_towards(o->lit_freq, 255, LIT_SCALE_LOG);
        o->ll_sum = scale_towards(o->ll_freq, XC_ZSTD_LL_MAX, SEQ_SCALE_LOG);
        o->ml_sum = scale_towards(o->ml_freq, XC_ZSTD_ML_MAX, SEQ_SCALE_LOG);
        o->of_sum = scale_towards(o->of_freq, XC_ZSTD_OF_MAX, SEQ_SCALE_LOG);
    }
    set_all_prices(o);
}

/* The part of one code of each kind (see struct xc_zopt_s): its extra
 * bits less the weight of its frequency, modulo 2^32, or with fixed
 * prices its extra bits and 6 bits. */
static uint32_t ll_code_part(const struct xc_zopt_s *o, unsigned c)
{
    return (xc_zstd_ll_bits(c) << XC_ZPRICE_SHIFT) +
           (o->predef ? 6 * XC_ZPRICE_ONE : 0u - xc_zopt_weight(o->ll_freq[c], o->frac));
}

/* Matches carry a fifth of a bit more, so that of two parses that cost the
 * same the one with fewer sequences (faster to decode) wins. */
static uint32_t ml_code_part(const struct xc_zopt_s *o, unsigned c)
{
    return (xc_zstd_ml_bits(c) << XC_ZPRICE_SHIFT) +
           (o->predef ? 6 * XC_ZPRICE_ONE
                      : XC_ZPRICE_ONE / 5 - xc_zopt_weight(o->ml_freq[c], o->frac));
}

static uint32_t of_code_part(const struct xc_zopt_s *o, unsigned c)
{
    uint32_t p = (c << XC_ZPRICE_SHIFT) +
                 (o->predef ? 6 * XC_ZPRICE_ONE : 0u - xc_zopt_weight(o->of_freq[c], o->frac));
    /* btopt favours decoding speed a little: offsets beyond 1 MiB miss the
     * caches, so they cost two extra bits per doubling. */
    if (!o->predef && !o->frac && c >= 20) p += (c - 19) * 2 * XC_ZPRICE_ONE;
    return p;
}

/* The sums' prices, and the bases of the codes' prices. */
static void set_sum_prices(struct xc_zopt_s *o)
{
    int const frac = o->frac;
    o->lit_sum_price = xc_zopt_weight(o->lit_sum, frac);
    o->ll_sum_price = xc_zopt_weight(o->ll_sum, frac);
    o->ml_sum_price = xc_zopt_weight(o->ml_sum, frac);
    o->of_sum_price = xc_zopt_weight(o->of_sum, frac);
    o->ll_base = o->predef ? 0 : o->ll_sum_price;
    o->ml_base = o->predef ? 0 : o->ml_sum_price;
    o->of_base = o->predef ? 0 : o->of_sum_price;
}

/* A tiny first block (predef) is priced at 6 bits per code plus its extra
 * bits whatever the statistics say. */
static void set_all_prices(struct xc_zopt_s *o)
{
    set_sum_prices(o);
    for (unsigned c = 0; c <= XC_ZSTD_LL_MAX; c++) o->ll_part[c] = ll_code_part(o, c);
    for (unsigned c = 0; c <= XC_ZSTD_ML_MAX; c++) o->ml_part[c] = ml_code_part(o, c);
    for (unsigned c = 0; c <= XC_ZSTD_OF_MAX; c++) o->of_part[c] = of_code_part(o, c);
    o->ll_dirty = o->ml_dirty = o->of_dirty = 0;
}

/* Rebuilds the parts of the codes in dirty. */
static void refresh(uint32_t *part, uint64_t dirty, const struct xc_zopt_s *o,
                    uint32_t (*code_part)(const struct xc_zopt_s *, unsigned))
{
    for (; dirty; dirty &= dirty - 1) {
        unsigned const c = xc_ctz64(dirty);
        part[c] = code_part(o, c);
    }
}

void xc_zopt_set_base_prices(struct xc_zopt_s *o)
{
    set_sum_prices(o);
    /* Fixed prices do not follow the statistics. */
    if (!o->predef) {
        refresh(o->ll_part, o->ll_dirty, o, ll_code_part);
        refresh(o->ml_part, o->ml_dirty, o, ml_code_part);
        refresh(o->of_part, o->of_dirty, o, of_code_part);
    }
    o->ll_dirty = o->ml_dirty = o->of_dirty = 0;
}

/* ---- the state ------------------------------------------------------------------- */

size_t xc_zstd_opt_reserve(xc_zmatch_state *ms, const xc_zentropy *ent)
{
    if (!ms->opt) {
        ms->opt = (struct xc_zopt_s *)malloc(sizeof(struct xc_zopt_s));
        RETURN_ERROR_IF(!ms->opt, OUT_OF_MEMORY);
    }
    ms->opt->fresh = 1;
    ms->opt->predef = 0;
    ms->opt->frac = ms->p.strategy >= XC_ZSTRAT_BTULTRA;
    ms->opt->ent = ent;
    return 0;
}

void xc_zstd_opt_free(xc_zmatch_state *ms)
{
    free(ms->opt);
    ms->opt = NULL;
}
