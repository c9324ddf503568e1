/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Searching a prepared dictionary where it lies, for the searching
 * finders' attached mode (match_lazy_tmpl.h with dict set; libzstd calls
 * it dictMatchState): the frame's own rows or tree first, then the
 * dictionary's, which are only read.
 *
 * Tables.  The frame's rows are as wide as the dictionary's (row_log and
 * min_match are the same) but fewer, as many as the input needs (see
 * dict/compress_dict.c): a few KiB that stay in the first-level cache,
 * where rows for every position of the content would take hundreds of KiB
 * and a cache miss per inserted position.  So each search hashes twice,
 * once for each table.  btlazy2 likewise gets buckets and a tree sized for
 * the input (see bt_dict_search for the dictionary's tree).  The frame's
 * cells from earlier frames hold indices below ms->start, which the search
 * treats as the end of a row (rows are rings read newest first), so
 * nothing is cleared between frames; heads left by earlier frames may
 * point anywhere, which only changes where the ring starts.
 *
 * Search.  Each search reads the frame's row, then the dictionary's: up to
 * 2^search_log candidates in all, the frame's first (the nearest, so ties
 * go to the shorter offset).  Dictionary index d (content byte d - 1) lies
 * pos + (content size + 1 - d) bytes before the frame's byte pos (RFC 8878
 * §5: the content is the history just before the frame); candidates beyond
 * the window the frame header declares are not taken.  A match in the
 * content that reaches its end continues at the frame's first byte.
 *
 * Repeat offsets resolve the same way: within the frame, or into the
 * content, where one whose 4 bytes would straddle the content's end and
 * the frame's start is not tried (a match that does straddle is still
 * found by counting on).
 *
 * Like the other search headers, it is compiled into every ISA variant
 * through the finder templates.  It may call the match state, the
 * prepared dictionary's fields (dict/cdict.h, data only) and the row and
 * tree searches of this folder.
 */
#ifndef XC_ZSTD_MATCH_SEARCH_DICT_H
#define XC_ZSTD_MATCH_SEARCH_DICT_H
#include "zstd/dict/cdict.h"
#include "zstd/compress/match/match_search_bt.h"
#include "zstd/compress/match/match_search_row.h"

typedef struct {
    xc_zsearch s;               /* the frame's rows or trees */
    const uint32_t *dcells;     /* the dictionary's rows or buckets, read only */
    const uint32_t *dlinks;     /* the dictionary's tree links (btlazy2) */
    uint32_t dmask;             /* node m's links are dlinks[2 * (m & dmask)] */
    uint32_t dbt_low;           /* nodes at or below it may have lost their links */
    const uint8_t *dtags;
    const uint8_t *dheads;
    const uint8_t *dbase;       /* dictionary index d is dbase[d] */
    const uint8_t *dlowest;     /* the content's first byte */
    const uint8_t *dend;        /* the content's end */
    const uint8_t *prefix;      /* the frame's first byte */
    unsigned dhash_bits;        /* the dictionary's hash (rows: row, then tag) */
    uint32_t dend_idx;          /* content size + 1: the index just past it */
    uint32_t window;
} dsearch;

/* Bytes ip[0..) agrees with m[0..) up to iend; m in the content (mend its
 * end) goes on at the frame's first byte, m in the frame has mend NULL. */
XC_FORCE_INLINE size_t count2(const dsearch *d, const uint8_t *ip, const uint8_t *m,
                              const uint8_t *iend, const uint8_t *mend)
{
    return xc_zcount_2seg(ip, m, iend, mend, d->prefix);
}

/* The bytes `off` back from p (a frame byte), or NULL when that is not a
 * place a repeat may be tried (see the top); *mend as for count2. */
XC_FORCE_INLINE const uint8_t *rep_at(const dsearch *d, const uint8_t *p, uint32_t off,
                                      const uint8_t **mend)
{
    size_t const pos = (size_t)(p - d->prefix);
    if (off <= pos) {
        *mend = NULL;
        return off ? p - off : NULL;
    }
    size_t const into = off - pos;
    if (into < 4 || into >= d->dend_idx || off > d->window) return NULL;
    *mend = d->dend;
    return d->dend - into;
}

/* The longest match at ip (4 bytes or more to count) among the frame's and
 * the dictionary's candidates, its offset in *offset; 3 or less for none.
 * ip joins the frame's row. */
XC_FORCE_INLINE size_t dict_search(dsearch *d, const uint8_t *ip, const uint8_t *iend,
                                   unsigned mls, uint32_t *offset, int simd)
{
    xc_zsearch *const s = &d->s;
    const uint8_t *const base = s->base;
    unsigned const row_log = s->row_log;
    uint32_t const cells = (uint32_t)1 << row_log;
    uint32_t const cur = (uint32_t)(ip - base);
    uint32_t const low = s->start;
    unsigned attempts = XC_MIN(s->attempts, cells);
    uint32_t cand[64], dcand[64];
    unsigned nc = 0, nd = 0;

    uint32_t const dh = (uint32_t)xc_zhash(ip, d->dhash_bits, mls);
    uint32_t const drow = dh >> 8;
    size_t const dfirst = (size_t)drow << row_log;
    XC_PREFETCH(d->dcells + dfirst);
    XC_PREFETCH(d->dtags + dfirst);
    /* The dictionary's tables lie mostly outside the first-level cache,
     * and the next search is most often one byte on (the look-ahead, or
     * a position without a match): its row is fetched while this one is
     * searched (when its 8 hashed bytes are in the input: the look-ahead
     * searches up to 8 bytes before its end). */
    if (XC_LIKELY(iend - ip > XC_ZSTD_HASH_READ)) {
        size_t const next = (size_t)(xc_zhash(ip + 1, d->dhash_bits, mls) >> 8) << row_log;
        XC_PREFETCH(d->dcells + next);
        XC_PREFETCH(d->dtags + next);
    }
    /* low is the frame's start: older frames, and older still beyond. */
    row_gather(s, ip, iend, mls, low, simd, &attempts, cand, &nc);

    /* The dictionary's cells: distance reach - d, at most one window. */
    uint32_t const reach = (uint32_t)(ip - d->prefix) + d->dend_idx;
    uint32_t const dlow = reach > d->window ? reach - d->window : 1;
    unsigned const dhead = d->dheads[drow] & (cells - 1);
    uint64_t const dm = row_rotate(row_tag_mask(d->dtags + dfirst, row_log, (uint8_t)dh, simd),
                                   dhead, cells);
    /* dlow is at least 1, which also stops at the empty cells (0). */
    row_collect(d->dcells, dfirst, dhead, cells, dm, dlow, d->dbase, &attempts, dcand, &nd);

    size_t best = row_best(base, cand, nc, ip, iend, cur, 3, offset);
    if (ip + best == iend) return best;
    for (unsigned i = 0; i < nd; i++) {
        const uint8_t *const match = d->dbase + dcand[i];
        /* The quick test reads best + 1 bytes of the candidate, which must
         * lie in the content; near its end the count decides alone. */
        if ((size_t)(d->dend - match) > best &&
            xc_read32(match + best - 3) != xc_read32(ip + best - 3))
            continue;
        size_t const len = count2(d, ip, match, iend, d->dend);
        if (len > best) {
            best = len;
            *offset = reach - dcand[i];
            if (ip + len == iend) break;
        }
    }
    return best;
}

/* The byte at dictionary-side index i, and the bytes ip[k..) agrees with
 * from the dictionary's position m + k on (xc_zdict_byte and
 * xc_zdict_count_from over d's view). */
XC_FORCE_INLINE uint8_t dbyte(const dsearch *d, uint32_t i)
{
    return xc_zdict_byte(d->dbase, d->dend_idx, d->prefix, i);
}

XC_FORCE_INLINE size_t dcount_from(const dsearch *d, const uint8_t *ip, uint32_t m, size_t k,
                                   const uint8_t *iend)
{
    return xc_zdict_count_from(ip, iend, d->dbase, d->dend, d->dend_idx, d->prefix, m, k);
}

/* btlazy2: the frame's own tree (match_search_bt.h, which inserts ip), then
 * a walk down the dictionary's tree that writes nothing.  Its nodes are
 * ordered by their suffixes within the content; compared here with the
 * frame's bytes after the content's end, a suffix that reaches that end
 * may be out of order, which can only send the walk down a worse branch or
 * overstate a length the walk infers, so the winner's length is counted
 * again from its first byte.  Between the two trees' best, the gain rule
 * of match_search_bt.h decides. */
XC_FORCE_INLINE size_t bt_dict_search(dsearch *d, const uint8_t *ip, const uint8_t *iend,
                                      unsigned mls, uint32_t *offset)
{
    uint32_t const dh = (uint32_t)xc_zhash(ip, d->dhash_bits, mls);
    uint32_t m = d->dcells[dh];
    if (XC_LIKELY(iend - ip > XC_ZSTD_HASH_READ)) /* as in dict_search */
        XC_PREFETCH(d->dcells + xc_zhash(ip + 1, d->dhash_bits, mls));
    uint32_t foff = 0;
    unsigned left;
    size_t flen = bt_search(&d->s, ip, iend, mls, &foff, &left);
    /* A match of the frame's that reaches the end of the input cannot be
     * beaten by a longer one: the dictionary's tree is not walked (in
     * runs, every node of it would be counted to the end for nothing). */
    if (ip + flen == iend) {
        *offset = foff;
        return flen;
    }

    uint32_t const reach = (uint32_t)(ip - d->prefix) + d->dend_idx;
    uint32_t dlow = reach > d->window ? reach - d->window : 1;
    if (dlow < 2) dlow = 2; /* index 1 is never a node (match_search_bt.h) */
    size_t len_smaller = 0, len_larger = 0, best = 0;
    uint32_t best_m = 0;
    unsigned best_cost = 31;
    /* The comparisons the frame's tree left (as libzstd shares them). */
    for (unsigned n = left; n > 0 && m >= dlow; n--) {
        const uint32_t *const links = d->dlinks + 2 * (size_t)(m & d->dmask);
        size_t const len = dcount_from(d, ip, m, XC_MIN(len_smaller, len_larger), iend);
        if (len > best) {
            unsigned const cost = xc_highbit32(reach - m + 1);
            if (4 * (int)(len - best) > (int)cost - (int)best_cost) {
                best = len;
                best_cost = cost;
                best_m = m;
            }
        }
        if (ip + len == iend || m <= d->dbt_low) break;
        if (dbyte(d, m + (uint32_t)len) < ip[len]) {
            len_smaller = len;
            m = links[1];
        } else {
            len_larger = len;
            m = links[0];
        }
    }
    if (best >= 4) best = dcount_from(d, ip, best_m, 0, iend);
    if (best >= 4 && (flen < 4 || 4 * ((int)best - (int)flen) >
                                      (int)best_cost - (int)xc_highbit32(foff + 1))) {
        *offset = reach - best_m;
        return best;
    }
    if (flen >= 4) *offset = foff;
    return flen;
}

/* The best match at ip among the frame's and the dictionary's candidates:
 * rows, or btlazy2's trees (bt set). */
XC_FORCE_INLINE size_t dict_any_search(dsearch *d, const uint8_t *ip, const uint8_t *iend,
                                       unsigned mls, uint32_t *offset, int bt, int simd)
{
    if (bt) return bt_dict_search(d, ip, iend, mls, offset);
    return dict_search(d, ip, iend, mls, offset, simd);
}

/* Sets up d (whose frame search d->s is open) for the dictionary ms->dict:
 * rows, or btlazy2's tree (bt set). */
XC_FORCE_INLINE void dict_open(dsearch *d, const xc_zmatch_state *ms, int bt)
{
    const xc_zstd_cdict *const cd = ms->dict;
    d->dcells = cd->ms.hash_table;
    d->dtags = cd->ms.tag_table;
    d->dheads = cd->ms.row_heads;
    d->dbase = cd->ms.base;
    d->dlowest = cd->content;
    d->dend = cd->content + cd->content_size;
    d->prefix = ms->base + ms->start;
    d->dend_idx = (uint32_t)cd->content_size + 1;
    d->window = (uint32_t)1 << ms->p.window_log;
    if (bt) {
        d->dhash_bits = cd->ms.p.hash_log;
        d->dlinks = cd->ms.chain_table;
        d->dmask = (uint32_t)(cd->ms.chain_size >> 1) - 1;
        d->dbt_low = d->dend_idx > d->dmask ? d->dend_idx - d->dmask : 0;
    } else {
        d->dhash_bits = cd->ms.p.hash_log - cd->ms.row_log + 8;
        d->dlinks = NULL;
        d->dmask = 0;
        d->dbt_low = 0;
    }
}

#endif
