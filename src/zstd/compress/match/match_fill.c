/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Filling the match finders' tables ahead of a block: every position of
 * history placed before the input (a dictionary's content, loaded or
 * prepared) is inserted into the hash chains, rows or binary trees of the
 * strategy, exactly as the finder would have inserted it while parsing, so
 * that the block that follows finds matches in it.  Fills are not hot
 * (once per dictionary or frame), so they exist once, in plain C, for
 * every ISA variant.  They use the search headers of this folder and the
 * match state of compress_internal.h, nothing above them.
 */
#include "zstd/compress/match/match_state.h"
#include "zstd/compress/match/match_opt_price.h"
#include "zstd/compress/match/match_search_bt.h"
#include "zstd/compress/match/match_search_bt_opt.h"
#include "zstd/compress/match/match_search_hc.h"
#include "zstd/compress/match/match_search_row.h"

/* The positions a fill inserts: from next_to_update to the last one whose
 * 8 hashed bytes end by iend.  Returns that end, or 0 for none. */
static uint32_t fill_end(const xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const end = (uint32_t)(iend - ms->base);
    if (end < XC_ZSTD_HASH_READ || end - XC_ZSTD_HASH_READ + 1 <= ms->next_to_update) return 0;
    return end - XC_ZSTD_HASH_READ + 1;
}

void xc_zstd_fill_hc(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const stop = fill_end(ms, iend);
    if (!stop) return;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    xc_zsearch s;
    xc_zsearch_open(&s, ms);
    hc_fill_cache(&s, iend, mls);
    hc_insert(&s, stop, iend, mls);
    xc_zsearch_close(&s, ms);
}

void xc_zstd_fill_row(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const stop = fill_end(ms, iend);
    if (!stop) return;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    size_t const end = (size_t)(iend - ms->base);
    xc_zsearch s;
    xc_zsearch_open(&s, ms);
    row_fill_cache(&s, iend, mls);
    for (uint32_t idx = s.next; idx < stop; idx++)
        row_insert_one(&s, idx, row_next_hash(&s, idx, end, mls));
    s.next = stop;
    xc_zsearch_close(&s, ms);
}

void xc_zstd_fill_bt(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const stop = fill_end(ms, iend);
    if (!stop) return;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    xc_zsearch s;
    xc_zsearch_open(&s, ms);
    bt_fill_cache(&s, iend, mls);
    bt_update(&s, stop, iend, mls);
    xc_zsearch_close(&s, ms);
}

void xc_zstd_fill_search(xc_zmatch_state *ms, const uint8_t *iend)
{
    switch (ms->p.strategy) {
    case XC_ZSTRAT_GREEDY:
    case XC_ZSTRAT_LAZY:
    case XC_ZSTRAT_LAZY2:
        if (ms->row_log)
            xc_zstd_fill_row(ms, iend);
        else
            xc_zstd_fill_hc(ms, iend);
        break;
    case XC_ZSTRAT_BTLAZY2: xc_zstd_fill_bt(ms, iend); break;
    default: break;
    }
}

/* ---- the optimal parsers' tree ----------------------------------------- */

void xc_zstd_fill_bt_opt(xc_zmatch_state *ms, const uint8_t *iend)
{
    size_t const end = (size_t)(iend - ms->base);
    if (end < (size_t)ms->next_to_update + XC_ZSTD_HASH_READ) return;
    uint32_t const target = (uint32_t)(end - XC_ZSTD_HASH_READ);
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 3u), 6u);
    xc_zbt s;
    bt_open(&s, ms);
    btopt_update(&s, target, iend, mls);
    if (s.head3) bt_hash3_update(&s, target);
    ms->next_to_update = s.next;
}
