/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Binary-tree match search, for the btlazy2 strategy.  Included by the
 * finders that use it; everything here is static and force-inlined into
 * them, working on a local xc_zsearch.
 *
 * The hash of min_match bytes picks a bucket (hash_table) leading to a
 * binary search tree of the positions with that hash, ordered by the bytes
 * that follow them (their suffixes), whose root is the newest position
 * sorted in (positions not yet sorted in come first, see below).  The chain table holds two links per position, at
 * 2 * (index % (chain_size / 2)): the subtree of suffixes that sort below
 * it, and the one of those that sort above.  A tree of 2^search_log levels
 * then reaches the candidates that share the longest prefixes with the
 * current position without visiting the others, which is what hash chains
 * do: chains see the newest 2^search_log positions, the tree sees the best
 * ones among many more.
 *
 * Inserting a position walks down from the old root comparing suffixes,
 * and splits the tree along that path into the nodes below and above the
 * new position, which become its two subtrees (the "re-rooting" insertion
 * of LZ77 binary trees, as in LZMA's bt4 and zstd).  The walk keeps the
 * prefix length shared with the last node that went below and with the
 * last that went above; every node further down shares at least the
 * smaller of the two, so comparisons resume there.  Each node visited is a
 * match candidate, so searching a position costs nothing beyond inserting
 * it.
 *
 * Sorting is deferred (libzstd's "dual unsorted binary tree" idea): a
 * position the parse steps over (inside a match) is only pushed onto its
 * bucket's chain, its first link naming the previous head, its second
 * holding a mark.  A search first sorts the unsorted positions at the head
 * of its bucket into the tree, oldest first (each one's tree is the one
 * its chain successor roots), and then inserts itself.  At most
 * 2^search_log positions are sorted per search; when more are waiting, the
 * oldest of those reached becomes a leaf and the ones behind it drop out.
 * Buckets that fill with positions of long repeats between two searches
 * (the common case in markup and logs) thus cost one bounded search
 * instead of a full insertion per position.
 *
 * A walk stops after 2^search_log nodes, at the first node out of the
 * window, and at a node whose links may already belong to a newer position
 * (more than chain_size / 2 behind): the part of the tree below it is cut
 * off (its link is set to 0, an invalid index), so the tree stays a tree.
 * It also stops when a candidate matches up to the end of the input, since
 * the next byte, which decides the side, does not exist; that node's
 * subtrees are dropped from the new tree, costing a little ratio on the
 * last bytes of a block and nothing else.
 *
 * In long repeats, when a search sees a candidate match that ends more
 * than 8 bytes past the current position, the positions up to 8 bytes
 * before that end are not inserted at all (inside a run, every suffix would
 * find the same match shifted by one, and the tree would degrade into a
 * list).
 *
 * As candidates, the search keeps a longer match only if its length gain
 * pays for the offset: 4 bits per byte against log2 of the offsets, so a
 * far match one byte longer than a near one does not replace it.  The
 * result is checked against the bytes once per search: the lengths the
 * walk infers are exact as long as the tree is intact, and a tree damaged
 * anyway (a rebase can turn a real link into the mark's value) must cost
 * ratio, never a wrong match.
 *
 * What it may call: the match state and searches (compress/match/).
 */
#ifndef XC_ZSTD_SEARCH_BT_H
#define XC_ZSTD_SEARCH_BT_H

#include "zstd/compress/match/match_state.h"

/* The mark in a node's second link while it is only in its bucket's chain,
 * not yet in the tree.  The first index of the history (start >= 1) is
 * never inserted, so no link to a real node reads 1, except after a rebase
 * (see the top: the search verifies its result, so such a node costs
 * ratio, never a wrong match).  Skipping it at every start, not only at 1,
 * keeps frames independent of where the context left its indices. */
#define BT_UNSORTED 1u

/* Fills the cache for the 8 positions from s->next. */
XC_FORCE_INLINE void bt_fill_cache(xc_zsearch *s, const uint8_t *iend, unsigned mls)
{
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t const idx = s->next + i;
        const uint8_t *p = s->base + idx;
        if (p + XC_ZSTD_HASH_READ > iend) break;
        uint32_t const h = (uint32_t)xc_zhash(p, s->hash_bits, mls);
        s->cache[idx & 7] = h;
        XC_PREFETCH(s->table + h);
    }
}

/* The hash of idx from the cache, replaced by the hash of idx + 8 (with
 * its bucket prefetched) when that position is still hashable. */
XC_FORCE_INLINE uint32_t bt_next_hash(xc_zsearch *s, uint32_t idx, size_t end, unsigned mls)
{
    uint32_t const h = s->cache[idx & 7];
    if (XC_LIKELY((size_t)idx + 2 * XC_ZSTD_HASH_READ <= end)) {
        uint32_t const hn = (uint32_t)xc_zhash(s->base + idx + 8, s->hash_bits, mls);
        s->cache[idx & 7] = hn;
        XC_PREFETCH(s->table + hn);
    }
    return h;
}

/* Puts the positions [s->next, cur) at the heads of their buckets' chains,
 * unsorted. */
XC_FORCE_INLINE void bt_update(xc_zsearch *s, uint32_t cur, const uint8_t *iend, unsigned mls)
{
    size_t const end = (size_t)(iend - s->base);
    uint32_t *const bt = s->chain;
    uint32_t const mask = (s->chain_size >> 1) - 1;
    for (uint32_t idx = s->next; idx < cur; idx++) {
        uint32_t const h = bt_next_hash(s, idx, end, mls);
        if (XC_UNLIKELY(idx <= s->start)) continue;
        uint32_t *const links = bt + 2 * (size_t)(idx & mask);
        links[0] = s->table[h];
        links[1] = BT_UNSORTED;
        s->table[h] = idx;
    }
    if (cur > s->next) s->next = cur;
}

/* Walks the tree from root m down, splitting it around position c into
 * the two subtrees of c (see the top), for at most n nodes.  Nodes below
 * low are out of the window; nodes at or below bt_low may share their links'
 * slot with a newer position, so the walk ends after linking one.  The
 * nodes it had left to visit go to *left (when not NULL).  With
 * find, keeps the best candidate (length, *offset) by the gain rule and
 * returns its length; returns 0 otherwise.  *end_idx is raised to the end
 * of any candidate match that reaches past it. */
XC_FORCE_INLINE size_t bt_walk(xc_zsearch *s, uint32_t c, uint32_t m, const uint8_t *iend,
                               unsigned n, uint32_t low, uint32_t bt_low, int find,
                               uint32_t *offset, uint32_t *end_idx, unsigned *left)
{
    const uint8_t *const base = s->base;
    const uint8_t *const ip = base + c;
    uint32_t *const bt = s->chain;
    uint32_t const mask = (s->chain_size >> 1) - 1;
    uint32_t *smaller = bt + 2 * (size_t)(c & mask);
    uint32_t *larger = smaller + 1;
    uint32_t cut;
    size_t len_smaller = 0, len_larger = 0;
    size_t best = 0;
    /* Offsets enter the gain as log2(offset + 1); start with a cost no
     * real offset reaches, so the first candidate always wins. */
    unsigned best_cost = 31;

    for (; n > 0 && m >= low; n--) {
        uint32_t *const links = bt + 2 * (size_t)(m & mask);
        const uint8_t *const match = base + m;
        size_t len = XC_MIN(len_smaller, len_larger);
        len += xc_zcount(ip + len, match + len, iend);
        if (find && len > best) {
            if (m + len > *end_idx) *end_idx = m + (uint32_t)len;
            unsigned const cost = xc_highbit32(c - m + 1);
            if (4 * (int)(len - best) > (int)cost - (int)best_cost) {
                best = len;
                best_cost = cost;
                *offset = c - m;
            }
        }
        if (ip + len == iend) break; /* no byte left to order them by */
        if (match[len] < ip[len]) {
            *smaller = m;
            len_smaller = len;
            if (m <= bt_low) {
                smaller = &cut;
                break;
            }
            smaller = links + 1;
            m = links[1];
        } else {
            *larger = m;
            len_larger = len;
            if (m <= bt_low) {
                larger = &cut;
                break;
            }
            larger = links;
            m = links[0];
        }
    }
    *smaller = 0;
    *larger = 0;
    if (left) *left = n;
    return best;
}

/* The best match at ip (at least 4 bytes to count) among the tree's
 * candidates, its offset in *offset.  Returns 3 or less when there is none.
 * Sorts the unsorted positions of ip's bucket first, and inserts ip.  The
 * search's comparisons not spent go to *left (when not NULL), for an
 * attached dictionary's tree (match_search_dict.h). */
XC_FORCE_INLINE size_t bt_search(xc_zsearch *s, const uint8_t *ip, const uint8_t *iend,
                                 unsigned mls, uint32_t *offset, unsigned *left)
{
    const uint8_t *const base = s->base;
    uint32_t *const bt = s->chain;
    uint32_t const mask = (s->chain_size >> 1) - 1;
    uint32_t const cur = (uint32_t)(ip - base);
    uint32_t const bt_low = cur > mask ? cur - mask : 0;
    uint32_t const low = cur - s->start > s->window ? cur - s->window : s->start;
    uint32_t const limit = XC_MAX(low, bt_low + 1);

    if (left) *left = s->attempts;
    bt_update(s, cur, iend, mls);
    if (s->next > cur) return 0; /* inside a repeat already covered */
    uint32_t const h = bt_next_hash(s, cur, (size_t)(iend - base), mls);

    /* The unsorted head of the chain, newest first, reversed in place into
     * a stack (each node's mark becomes the link to the newer one), up to
     * as many as the search may compare. */
    unsigned budget = s->attempts;
    uint32_t m = s->table[h], top = 0, stacked = 0;
    while (m >= limit && bt[2 * (size_t)(m & mask) + 1] == BT_UNSORTED && budget > 1) {
        uint32_t *const links = bt + 2 * (size_t)(m & mask);
        links[1] = top;
        top = m;
        m = links[0];
        budget--;
        stacked++;
    }
    /* Too many: the oldest one reached becomes a leaf, and the positions
     * behind it drop out of the tree (they were never sorted in). */
    if (m >= limit && bt[2 * (size_t)(m & mask) + 1] == BT_UNSORTED) {
        bt[2 * (size_t)(m & mask)] = 0;
        bt[2 * (size_t)(m & mask) + 1] = 0;
    }
    /* Oldest first, each one is inserted into the tree whose root is its
     * chain successor: the tree as it stood when it arrived. */
    uint32_t unused_end = 0, unused_off;
    for (m = top; m && stacked; stacked--, budget++) {
        uint32_t const newer = bt[2 * (size_t)(m & mask) + 1];
        bt_walk(s, m, bt[2 * (size_t)(m & mask)], iend, budget, low, bt_low, 0, &unused_off,
                &unused_end, NULL);
        m = newer;
    }

    /* Now the search proper, inserting ip as the new root. */
    uint32_t end_idx = cur + 9;
    uint32_t const root = s->table[h];
    s->table[h] = cur;
    size_t len = bt_walk(s, cur, root, iend, s->attempts, low, bt_low, 1, offset, &end_idx, left);
    /* In long repeats, skip the positions a match already covers. */
    s->next = end_idx - 8;
    if (s->next != cur + 1) bt_fill_cache(s, iend, mls);
    if (len >= 4) {
        /* The tree's invariants make the length exact; check it anyway,
         * as a damaged tree must cost ratio, never a wrong match. */
        size_t const real = xc_zcount(ip, ip - *offset, iend);
        if (real < len) len = real;
    }
    return len;
}

#endif /* XC_ZSTD_SEARCH_BT_H */
