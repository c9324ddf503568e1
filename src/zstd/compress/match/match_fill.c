/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The match tables outside the parse: filling them with history placed
 * before a block, putting a prepared dictionary's cells back after a frame
 * wrote into copies of them, and lowering every index when the data moves.
 *
 * Fills insert every position of history placed before the input (a
 * dictionary's content, loaded or prepared) into the hash tables, chains,
 * rows or binary trees of the strategy, as the finder would have inserted
 * it while parsing, so that the block that follows finds matches in it.
 * None of this is hot (once per dictionary, frame or slide), so it exists
 * once, in plain C, for every ISA variant.
 *
 * What it may call: the match state and the search headers of this folder
 * (compress/match/), nothing above them.
 */
#include "zstd/compress/match/match_state.h"
#include "zstd/compress/match/match_opt_price.h"
#include "zstd/compress/match/match_search_bt.h"
#include "zstd/compress/match/match_search_bt_opt.h"
#include "zstd/compress/match/match_search_hc.h"
#include "zstd/compress/match/match_search_row.h"

uint32_t xc_zstd_hash_end(const xc_zmatch_state *ms, const uint8_t *iend)
{
    size_t const n = (size_t)(iend - ms->base);
    return n >= XC_ZSTD_HASH_READ ? (uint32_t)(n - XC_ZSTD_HASH_READ + 1) : 0;
}

/* The positions a fill inserts: from next_to_update up to
 * xc_zstd_hash_end().  Returns that end, or 0 for none. */
static uint32_t fill_end(const xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const end = xc_zstd_hash_end(ms, iend);
    return end > ms->next_to_update ? end : 0;
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

/* ---- fast and dfast, btlazy2 for a prepared dictionary ------------------- */

/* Every third position first, then the others only into cells still
 * empty: as libzstd fills a dictionary's fast table.  With every position
 * in order, the last of many similar records in the content would own most
 * cells; this spreads the candidates over the whole content, which gives
 * the smaller frames (about 1% at level 1 on JSON records). */
void xc_zstd_fill_fast(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const end = xc_zstd_hash_end(ms, iend);
    uint32_t *const ht = ms->hash_table;
    unsigned const hlog = ms->p.hash_log;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
    for (uint32_t p = ms->next_to_update; p < end; p += 3) {
        ht[xc_zhash(ms->base + p, hlog, mls)] = p;
        for (uint32_t q = p + 1; q < p + 3 && q < end; q++) {
            size_t const h = xc_zhash(ms->base + q, hlog, mls);
            if (ht[h] < ms->start) ht[h] = q;
        }
    }
    if (ms->next_to_update < end) ms->next_to_update = end;
}

/* The same for dfast: every third position into both tables, the others
 * only into empty cells of the long one. */
void xc_zstd_fill_dfast(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const end = xc_zstd_hash_end(ms, iend);
    uint32_t *const hl = ms->hash_table;
    uint32_t *const hs = ms->chain_table;
    unsigned const llog = ms->p.hash_log, slog = ms->p.chain_log;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
    for (uint32_t p = ms->next_to_update; p < end; p += 3) {
        hl[xc_zhash(ms->base + p, llog, 8)] = p;
        hs[xc_zhash(ms->base + p, slog, mls)] = p;
        for (uint32_t q = p + 1; q < p + 3 && q < end; q++) {
            size_t const h = xc_zhash(ms->base + q, llog, 8);
            if (hl[h] < ms->start) hl[h] = q;
        }
    }
    if (ms->next_to_update < end) ms->next_to_update = end;
}

/* btlazy2: every position sorted into its bucket's tree, as the finder
 * inserts the position it searches.  The finder's own fill (bt_update)
 * only pushes positions onto their buckets' chains, to be sorted by the
 * first search that reaches them: for a dictionary, whose tables every
 * frame starts from afresh, that sorting would be redone by every frame
 * (and, past 2^search_log positions in a bucket, the older ones would drop
 * out of the tree each time). */
static void fill_bt_sorted(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const stop = fill_end(ms, iend);
    if (!stop) return;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    xc_zsearch s;
    xc_zsearch_open(&s, ms);
    uint32_t const mask = (s.chain_size >> 1) - 1;
    uint32_t step;
    for (uint32_t idx = s.next; idx < stop; idx += step) {
        step = 1;
        /* As in bt_update: the first index of the history is never a node
         * (its index is the mark of unsorted nodes). */
        if (idx <= s.start) continue;
        uint32_t const h = (uint32_t)xc_zhash(s.base + idx, s.hash_bits, mls);
        uint32_t const bt_low = idx > mask ? idx - mask : 0;
        uint32_t const low = idx - s.start > s.window ? idx - s.window : s.start;
        uint32_t const root = s.table[h];
        uint32_t off, end_idx = idx + 9;
        s.table[h] = idx;
        size_t const best =
            bt_walk(&s, idx, root, iend, s.attempts, low, bt_low, 1, &off, &end_idx, NULL);
        /* Inside a repeat, the positions a candidate's match already
         * covers are left out, as bt_search does for a frame's own: in a
         * run every suffix would sort in beside its neighbour, and a
         * dictionary of runs would grow trees hundreds of nodes deep, each
         * node a long count for every search that walks it. */
        step = xc_zbt_step(best, end_idx, idx);
    }
    s.next = stop;
    xc_zsearch_close(&s, ms);
}

xc_zstd_fill_fn xc_zstd_fill_fn_for(unsigned strategy)
{
    switch (strategy) {
    case XC_ZSTRAT_FAST: return xc_zstd_fill_fast;
    case XC_ZSTRAT_DFAST: return xc_zstd_fill_dfast;
    case XC_ZSTRAT_GREEDY:
    case XC_ZSTRAT_LAZY:
    case XC_ZSTRAT_LAZY2: return xc_zstd_fill_search;
    case XC_ZSTRAT_BTLAZY2: return fill_bt_sorted;
    case XC_ZSTRAT_BTOPT:
    case XC_ZSTRAT_BTULTRA:
    case XC_ZSTRAT_BTULTRA2: return xc_zstd_fill_bt_opt;
    default: return NULL;
    }
}

/* ---- putting a dictionary's cells back ------------------------------------ */

/* fast and dfast: the cells positions [from, to) hash to, copied from a
 * prepared dictionary's tables of the same size (the only cells the frame
 * wrote). */
void xc_zstd_restore_fast(xc_zmatch_state *ms, uint32_t from, uint32_t to,
                          const uint32_t *restore)
{
    uint32_t *const ht = ms->hash_table;
    unsigned const hlog = ms->p.hash_log;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
    for (uint32_t p = from; p < to; p++) {
        size_t const h = xc_zhash(ms->base + p, hlog, mls);
        ht[h] = restore[h];
    }
}

void xc_zstd_restore_dfast(xc_zmatch_state *ms, uint32_t from, uint32_t to,
                           const uint32_t *restore_long, const uint32_t *restore_short)
{
    uint32_t *const hl = ms->hash_table;
    uint32_t *const hs = ms->chain_table;
    unsigned const llog = ms->p.hash_log, slog = ms->p.chain_log;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
    for (uint32_t p = from; p < to; p++) {
        size_t const a = xc_zhash(ms->base + p, llog, 8);
        size_t const b = xc_zhash(ms->base + p, slog, mls);
        hl[a] = restore_long[a];
        hs[b] = restore_short[b];
    }
}

/* The searching strategies over rows (match_search_row.h).  A frame inserts
 * positions [from, to) at most, each into the row its hash names (the
 * finder's hash: xc_zsearch_open gives its width), writing a cell, its tag
 * and the row's head and nothing else.  So the rows those positions hash
 * to are copied back whole, once each: a row's head, which only ever holds
 * a cell number below 64, is marked with bit 7 when its row has been
 * copied, and the heads are put back in a second pass.  (Counting the
 * insertions per row to restore only the cells written costs more: it
 * takes a third pass and a dependent head update per position, while a row
 * is one to four cache lines read in order.)  Positions the finder stepped
 * over (inside long matches) cost a row copy that changes nothing. */
void xc_zstd_restore_rows(xc_zmatch_state *ms, uint32_t from, uint32_t to,
                          const xc_zmatch_state *dms)
{
    xc_zsearch s;
    xc_zsearch_open(&s, ms);
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    size_t const cells = (size_t)1 << s.row_log;
    const uint8_t *const dheads = dms->row_heads;
    for (uint32_t p = from; p < to; p++) {
        uint32_t const row = (uint32_t)xc_zhash(s.base + p, s.hash_bits, mls) >> 8;
        if (s.heads[row] & 0x80) continue;
        size_t const first = (size_t)row << s.row_log;
        /* 16 cells and their tags at a time, in fixed-size copies the
         * compiler expands in place (a row has 16, 32 or 64 cells). */
        for (size_t k = 0; k < cells; k += 16) {
            memcpy(s.table + first + k, dms->hash_table + first + k, 16 * sizeof(uint32_t));
            memcpy(s.tags + first + k, dms->tag_table + first + k, 16);
        }
        s.heads[row] = 0x80;
    }
    for (uint32_t p = from; p < to; p++) {
        uint32_t const row = (uint32_t)xc_zhash(s.base + p, s.hash_bits, mls) >> 8;
        s.heads[row] = dheads[row];
    }
}

/* ---- moving the indices ---------------------------------------------------- */

static void rebase_table(uint32_t *t, size_t n, uint32_t shift)
{
    for (size_t i = 0; i < n; i++) t[i] = t[i] > shift ? t[i] - shift : 0;
}

/* btlazy2's trees mark a position not yet sorted in with the value 1 in
 * its second link (match_search_bt.h); the mark is not an index and stays. */
static void rebase_bt_marked(uint32_t *t, size_t n, uint32_t shift)
{
    for (size_t i = 0; i < n; i++)
        t[i] = (i & 1) && t[i] == 1 ? 1 : t[i] > shift ? t[i] - shift : 0;
}

static void reverse_words(uint32_t *t, size_t n)
{
    for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
        uint32_t const x = t[i];
        t[i] = t[j - 1];
        t[j - 1] = x;
    }
}

/* Hash chains and binary trees keep the entry of index i at slot
 * i % cycle (cycle entries of `unit` words): after indices drop by shift,
 * that entry must move to slot (i - shift) % cycle, a rotation of the whole
 * table by shift % cycle slots towards the front (three reversals). */
static void rotate_positional(uint32_t *t, size_t size, size_t unit, uint32_t shift)
{
    size_t const k = (shift & (size / unit - 1)) * unit;
    if (k == 0) return;
    reverse_words(t, k);
    reverse_words(t + k, size - k);
    reverse_words(t, size);
}

void xc_zstd_ms_rebase(xc_zmatch_state *ms, uint32_t shift)
{
    rebase_table(ms->hash_table, ms->hash_size, shift);
    if (ms->chain_size) {
        if (ms->p.strategy == XC_ZSTRAT_BTLAZY2)
            rebase_bt_marked(ms->chain_table, ms->chain_size, shift);
        else
            rebase_table(ms->chain_table, ms->chain_size, shift);
    }
    if (ms->hash3_size) rebase_table(ms->hash3_table, ms->hash3_size, shift);
    /* Greedy and lazy without rows: chains; btlazy2 and the optimal
     * parsers: trees, two words per position (match_search_hc.h,
     * match_search_bt.h, match_search_bt_opt.h). */
    if (ms->chain_size && !ms->row_log && ms->p.strategy >= XC_ZSTRAT_GREEDY)
        rotate_positional(ms->chain_table, ms->chain_size,
                          ms->p.strategy >= XC_ZSTRAT_BTLAZY2 ? 2 : 1, shift);
    ms->next_to_update = ms->next_to_update > shift ? ms->next_to_update - shift : 0;
    if (ms->next_to_update < ms->start) ms->next_to_update = ms->start;
}
