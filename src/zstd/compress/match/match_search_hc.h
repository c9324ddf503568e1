/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hash-chain match search, for the greedy, lazy and lazy2 strategies with
 * windows of 16 KiB and less, where its tables are small and cheaper to
 * clear than rows.  Included by the finders that use it; everything here
 * is static and force-inlined into them, working on a local xc_zsearch.
 *
 * table maps the hash of min_match bytes to the latest position with that
 * hash; chain, indexed by position modulo its size, links each position to
 * the previous one with the same hash.  A search walks up to 2^search_log
 * links back from the head, so it sees several earlier occurrences instead
 * of only the last.  Every position is inserted, lazily: a search first
 * links all positions since the previous search (s->next).  A chain link is
 * only trusted while its slot cannot have been reused: a position more than
 * chain_size behind the current one shares its slot with a newer position,
 * so the walk stops there.
 *
 * Insertion runs ahead of the searches in a hash cache: inserting a
 * position computes the hash of the one 8 bytes further and prefetches its
 * head cell, so the insertions (one per input byte) do not wait on the
 * table.  Positions within 16 bytes of iend get no cached hash; they are
 * never searched in this block, and the next block refills the cache.
 *
 * What it may call: the match state and searches (compress/match/).
 */
#ifndef XC_ZSTD_SEARCH_HC_H
#define XC_ZSTD_SEARCH_HC_H

#include "zstd/compress/match/match_state.h"

/* Fills the cache for the 8 positions from s->next. */
XC_FORCE_INLINE void hc_fill_cache(xc_zsearch *s, const uint8_t *iend, unsigned mls)
{
    for (uint32_t i = 0; i < 8; i++) {
        const uint8_t *p = s->base + s->next + i;
        if (p + XC_ZSTD_HASH_READ > iend) break;
        uint32_t const h = (uint32_t)xc_zhash(p, s->hash_bits, mls);
        s->cache[(s->next + i) & 7] = h;
        XC_PREFETCH(s->table + h);
    }
}

/* Links positions [s->next, cur) into the chains. */
XC_FORCE_INLINE void hc_insert(xc_zsearch *s, uint32_t cur, const uint8_t *iend, unsigned mls)
{
    uint32_t *const head = s->table;
    uint32_t *const chain = s->chain;
    uint32_t const chain_mask = s->chain_size - 1;
    size_t const end = (size_t)(iend - s->base);

    for (uint32_t idx = s->next; idx < cur; idx++) {
        uint32_t const h = s->cache[idx & 7];
        if (XC_LIKELY((size_t)idx + 2 * XC_ZSTD_HASH_READ <= end)) {
            uint32_t const hn = (uint32_t)xc_zhash(s->base + idx + 8, s->hash_bits, mls);
            s->cache[idx & 7] = hn;
            XC_PREFETCH(head + hn);
        }
        chain[idx & chain_mask] = head[h];
        head[h] = idx;
    }
    s->next = cur;
}

/* The longest match at ip among the chain candidates (at least 4 bytes to
 * count), its offset in *offset.  Returns 3 or less when there is none. */
XC_FORCE_INLINE size_t hc_search(xc_zsearch *s, const uint8_t *ip, const uint8_t *iend,
                                 unsigned mls, uint32_t *offset)
{
    const uint8_t *const base = s->base;
    uint32_t const cur = (uint32_t)(ip - base);
    uint32_t const low = cur - s->start > s->window ? cur - s->window : s->start;
    uint32_t const min_chain = cur > s->chain_size ? cur - s->chain_size : 0;
    uint32_t const chain_mask = s->chain_size - 1;
    unsigned attempts = s->attempts;
    size_t best = 3;

    hc_insert(s, cur, iend, mls);
    uint32_t m = s->table[s->cache[cur & 7]];
    for (; m >= low && attempts > 0; attempts--) {
        const uint8_t *const match = base + m;
        /* Only a candidate that also agrees at the byte that would make it
         * longer than the best so far can win; checking the 4 bytes ending
         * there skips most losers with one load.  best < iend - ip, so the
         * loads stay inside the input. */
        if (xc_read32(match + best - 3) == xc_read32(ip + best - 3)) {
            size_t const len = xc_zcount(ip, match, iend);
            if (len > best) {
                best = len;
                *offset = cur - m;
                if (ip + len == iend) break; /* nothing can be longer */
            }
        }
        if (m <= min_chain) break;
        m = s->chain[m & chain_mask];
    }
    return best;
}

#endif /* XC_ZSTD_SEARCH_HC_H */
