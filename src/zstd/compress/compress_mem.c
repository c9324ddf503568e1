/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The compression context's memory: what each part needs for a frame's
 * parameters, what a context holds, and the public estimate.
 *
 * The estimate and the allocations are computed by the same functions
 * (xc_zstd_table_layout, xc_zstd_block_mem_bytes, xc_zldm_bytes, the size
 * of the optimal parsers' state), so that they cannot drift apart; a test
 * compares xc_zstd_estimate_cctx_size() with xc_zstd_cctx_mem_held() after
 * a frame at every level.  A part that a context allocates must be counted
 * in both functions below.
 *
 * What it may call: the encoder (compress/) and the match state and searches
 * (compress/match/).
 */
#include "zstd/compress/compress_internal.h"
#include "zstd/compress/match/match_ldm.h"
#include "zstd/compress/match/match_opt_price.h"

xc_ztable_layout xc_zstd_table_layout(const xc_zstd_cparams *p)
{
    xc_ztable_layout t;
    unsigned const row_log = xc_zstd_row_log(p);
    unsigned const hash3_log = xc_zstd_hash3_log(p);
    t.hash = (size_t)1 << p->hash_log;
    /* No chain table for fast, nor for row-based search, which has a tag
     * byte per cell and a head byte per row instead. */
    t.chain = p->strategy == XC_ZSTRAT_FAST || row_log ? 0 : (size_t)1 << p->chain_log;
    t.row = row_log ? (t.hash + (t.hash >> row_log) + 3) / 4 : 0;
    t.hash3 = hash3_log ? (size_t)1 << hash3_log : 0;
    t.total = t.hash + t.chain + t.row + t.hash3;
    return t;
}

void xc_zstd_ms_place_tables(xc_zmatch_state *ms, uint32_t *tables, const xc_zstd_cparams *p)
{
    xc_ztable_layout const t = xc_zstd_table_layout(p);
    unsigned const row_log = xc_zstd_row_log(p);
    /* The hash table first; then the chain table (chains, trees, or
     * dfast's short hash) or, for row-based search, the tag bytes (one per
     * cell) and the row heads; then the optimal parsers' 3-byte hash. */
    ms->hash_table = tables;
    ms->hash_size = t.hash;
    ms->chain_table = t.chain ? tables + t.hash : NULL;
    ms->chain_size = t.chain;
    ms->row_log = row_log;
    ms->tag_table = row_log ? (uint8_t *)(void *)(tables + t.hash) : NULL;
    ms->row_heads = row_log ? ms->tag_table + t.hash : NULL;
    ms->hash3_table = t.hash3 ? tables + t.hash + t.chain : NULL;
    ms->hash3_size = t.hash3;
    ms->hash3_log = xc_zstd_hash3_log(p);
    ms->p = *p;
}

/* The block splitter's saved states, for the levels that split by
 * default (xc_zstd_split_active). */
static size_t split_bytes(const xc_zstd_cparams *p)
{
    return xc_zstd_split_by_default(p) ? 2 * sizeof(xc_zsplit_saved) : 0;
}

/* The optimal parsers' statistics and work area (match_opt_price.c). */
static size_t opt_bytes(const xc_zstd_cparams *p)
{
    return p->strategy >= XC_ZSTRAT_BTOPT ? sizeof(struct xc_zopt_s) : 0;
}

size_t xc_zstd_cctx_mem_held(const xc_zstd_cctx *c)
{
    size_t n = sizeof *c;
    n += c->tables_cap * sizeof(uint32_t);
    if (c->seq_mem) n += xc_zstd_block_mem_bytes(c->seq_mem_block, c->seq_mem_max_seq);
    n += xc_zldm_held(c->ldm);
    if (c->ms.opt) n += sizeof(struct xc_zopt_s);
    if (c->split_saved) n += 2 * sizeof(xc_zsplit_saved);
    n += c->in_cap + c->out_alloc_cap;
    n += xc_zstd_mt_held(c);
    return n;
}

size_t xc_zstd_estimate_cctx_size(int level)
{
    RETURN_ERROR_IF(level < XC_ZSTD_LEVEL_MIN || level > XC_ZSTD_LEVEL_MAX, BAD_PARAMETER);
    xc_zstd_cparams const p = xc_zstd_level_params(level, XC_ZSTD_SIZE_UNKNOWN);
    xc_zldm_params const lp = xc_zldm_params_for(NULL, &p);
    size_t const block = XC_MIN((size_t)XC_ZSTD_BLOCK_SIZE_MAX, (size_t)1 << p.window_log);
    return sizeof(xc_zstd_cctx) + xc_zstd_table_layout(&p).total * sizeof(uint32_t) +
           xc_zstd_block_mem_bytes(block, xc_zstd_max_seq(block, &p)) + xc_zldm_bytes(&lp) + opt_bytes(&p) + split_bytes(&p);
}

/* Every match the finders below the optimal parsers emit is at least 4
 * bytes long (repeat and hash candidates are compared 4 bytes at a time,
 * and the lazy loop drops shorter ones), as are long-distance matches;
 * only the optimal parsers, and minimum matches of 3, go down to 3.  A
 * block has at most one sequence per match, and one more for a match that
 * a finder splits at a repeat offset. */
size_t xc_zstd_max_seq(size_t block, const xc_zstd_cparams *p)
{
    unsigned const shortest = p->strategy >= XC_ZSTRAT_BTOPT || p->min_match < 4 ? 3 : 4;
    return block / shortest + 2;
}

/* Sequences, literals and codes of one block in one allocation. */
size_t xc_zstd_block_mem_bytes(size_t block, size_t max_seq)
{
    return max_seq * sizeof(xc_zseq) + 3 * max_seq + 4096 + block + XC_ZSTD_LIT_SLACK;
}
