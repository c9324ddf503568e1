/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The searching match finders: greedy (level 5, and 4 for small sources),
 * lazy (6..7), lazy2 (8..12) and btlazy2 (13..15) as libzstd's tables
 * assign them to large sources, one parse over three searches.
 *
 * Searches.  Candidates come from rows of recent positions
 * (match_search_row.h) for greedy and lazy with windows above 16 KiB, from
 * hash chains (match_search_hc.h) for the same strategies with smaller
 * windows, and from binary trees (match_search_bt.h) for btlazy2, as in
 * libzstd: rows touch fewer cache lines per search, chains need smaller
 * tables (which matters when small inputs dominate), trees find the best
 * candidates among many more positions for the same number of compares.
 *
 * The parse, at depth 0 (greedy), 1 (lazy) or 2 (lazy2, btlazy2).  At each
 * position: the repeat offset one byte ahead (cheap, and a repeat costs few
 * bits), and the best candidate at the position itself, the longer of the
 * two.  Greedy takes a repeat at once.  The lazy parses then look one byte
 * further (depth 2: up to two bytes) before committing: a repeat there, or
 * a search there, replaces the match in hand when it is worth more.  The
 * worth of a match is about the bits it saves: 4 per byte of length, less
 * log2 of its Offset_Value (what its offset costs to send), so a longer
 * match far away does not beat a near one that is one byte shorter.  A
 * candidate further on must win by a margin, since taking it leaves the
 * bytes before it as literals: 1 for a repeat (whose offset costs next to
 * nothing; one byte on, repeats count 3 bits per byte instead of 4, which
 * favours the match in hand), 4 for a search one byte on, 7 two bytes on.
 * When it wins, the look-ahead starts over from there.  Then the match is
 * extended backwards over equal bytes (the literals before it cost more
 * than match bytes), stored, and followed by as many repeat matches at the
 * previous offset as there are.
 *
 * With no match the parse strides ahead faster the longer it has gone
 * without one (2^8 positions per extra byte of stride).
 *
 * Every variant (strategy, search, min_match) is a separate function
 * compiled from the one force-inlined body, so that the choices are
 * constants inside the loop; each is compiled twice (see XC_ZFINDER), the
 * second copy with the SIMD row-tag comparison (SSE2 on x64, NEON on
 * Arm64), which finds exactly what the plain C does.
 *
 * With a dictionary attached (libzstd's dictMatchState mode: small one-shot
 * frames whose prepared dictionary is searched where it lies, see
 * match_search_dict.h), the same parse runs with `dict` set, a constant of
 * its own copies: repeats may reach into the dictionary's content, the
 * search reads the frame's rows or tree and then the dictionary's, and a
 * match is extended backwards within the segment it lies in.  The plain
 * copies have dict 0 and compile without any of it.
 *
 * This file is a template: every ISA variant of the encoder includes it
 * (after match_tmpl.h has set the variant's target and SIMD flag) and so
 * compiles its own copy of these finders; the entry points are static and
 * reach the rest of the encoder through the variant's kernel table
 * (compress_kernels.h).  It may call the match state and sequence store of
 * compress_internal.h and the search headers of this folder, nothing above
 * them.
 */
#ifndef XC_ZSTD_MATCH_LAZY_TMPL_H
#define XC_ZSTD_MATCH_LAZY_TMPL_H
#include "zstd/compress/match/match_state.h"
#include "zstd/compress/match/match_search_bt.h"
#include "zstd/compress/match/match_search_hc.h"
#include "zstd/compress/match/match_search_row.h"
#include "zstd/compress/match/match_search_dict.h"

/* Positions without a match after which the stride grows by one: 2^8. */
#define LAZY_SKIP_LOG 8

/* Strides above this (2 KiB without a match) stop inserting the positions
 * stepped over: see lazy_skip_to. */
#define LAZY_SKIPPING_STEP 8

enum { SEARCH_HC = 0, SEARCH_ROW = 1, SEARCH_BT = 2 };

/* The best match at ip (see the top): the frame's own search, or with a
 * dictionary attached (dict set) the frame's and the dictionary's
 * (match_search_dict.h). */
XC_FORCE_INLINE size_t lazy_search(dsearch *d, const uint8_t *ip, const uint8_t *iend,
                                   unsigned mls, uint32_t *offset, int kind, int simd, int dict)
{
    if (dict) return dict_any_search(d, ip, iend, mls, offset, kind == SEARCH_BT, simd);
    if (kind == SEARCH_ROW) return row_search(&d->s, ip, iend, mls, offset, simd);
    if (kind == SEARCH_BT) return bt_search(&d->s, ip, iend, mls, offset, NULL);
    return hc_search(&d->s, ip, iend, mls, offset);
}

/* Whether a repeat match at p with offset r is there (its length into
 * *len): within the frame, or with a dictionary attached also into its
 * content (rep_at).  A flag and a length rather than a length of 0 for
 * none, so that the plain copies test what they tested before. */
XC_FORCE_INLINE int lazy_rep(const dsearch *d, const uint8_t *p, uint32_t r, const uint8_t *iend,
                             int dict, size_t *len)
{
    if (!dict) {
        if (!((r > 0) & (xc_read32(p - r) == xc_read32(p)))) return 0;
        *len = 4 + xc_zcount(p + 4, p + 4 - r, iend);
        return 1;
    }
    const uint8_t *mend;
    const uint8_t *const rm = rep_at(d, p, r, &mend);
    if (!rm || xc_read32(rm) != xc_read32(p)) return 0;
    *len = 4 + count2(d, p + 4, rm + 4, iend, mend);
    return 1;
}

/* One step of the look-ahead at ip: a repeat at r0, weighed at rep_weight
 * bits per byte, then a search, which must win by `margin` (see the top).
 * The winner replaces the match in hand (*mlen, *ov, *mstart).  Returns 1
 * when the search won: the look-ahead then starts over from ip. */
XC_FORCE_INLINE int lazy_step(dsearch *d, const uint8_t *ip, const uint8_t *iend, unsigned mls,
                              int kind, int simd, int dict, uint32_t r0, int rep_weight,
                              int margin, size_t *mlen, uint32_t *ov, const uint8_t **mstart)
{
    size_t rlen;
    if (lazy_rep(d, ip, r0, iend, dict, &rlen) &&
        rep_weight * (int)rlen > rep_weight * (int)*mlen - xc_zoff_cost(*ov) + 1) {
        *mlen = rlen;
        *ov = 1;
        *mstart = ip;
    }
    uint32_t offset = 0;
    size_t const len = lazy_search(d, ip, iend, mls, &offset, kind, simd, dict);
    if (len >= 4 &&
        4 * (int)len - xc_zoff_cost(offset + 3) > 4 * (int)*mlen - xc_zoff_cost(*ov) + margin) {
        *mlen = len;
        *ov = offset + 3;
        *mstart = ip;
        return 1;
    }
    return 0;
}

/* Skipping.  Long stretches without a match (compressed media, random
 * bytes, binary noise) would still cost an insertion per position, most of
 * the time such data takes: once the stride is above LAZY_SKIPPING_STEP,
 * only the positions searched go into the tables (libzstd's lazy skipping,
 * 1.5.5 on, draws the same line).  The next search is at ip: hash chains
 * first link the position just searched (rows inserted it already), then
 * the hash cache gets ip's slot alone. */
XC_FORCE_INLINE void lazy_skip_to(xc_zsearch *s, const uint8_t *ip, const uint8_t *iend,
                                  unsigned mls, int kind)
{
    /* Past the last position this block searches, the insertions stay
     * where they are: s->next must never pass the block's end, where the
     * next block's first search inserts from. */
    if (ip >= iend - XC_ZSTD_HASH_READ) return;
    uint32_t const cur = (uint32_t)(ip - s->base);
    if (kind == SEARCH_HC && s->next < cur) hc_insert(s, s->next + 1, iend, mls);
    if (kind == SEARCH_ROW) {
        uint32_t const h = row_hash(s, ip, mls);
        s->cache[cur & 7] = h;
        row_prefetch(s, h);
    } else {
        uint32_t const h = (uint32_t)xc_zhash(ip, s->hash_bits, mls);
        s->cache[cur & 7] = h;
        XC_PREFETCH(s->table + h);
    }
    s->next = cur;
}

/* Out of skipping at a match: the whole hash cache again, from s->next. */
XC_FORCE_INLINE void lazy_refill(xc_zsearch *s, const uint8_t *iend, unsigned mls, int kind)
{
    if (kind == SEARCH_ROW) row_fill_cache(s, iend, mls);
    else hc_fill_cache(s, iend, mls);
}

XC_FORCE_INLINE size_t lazy_body(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                 const uint8_t *const src, size_t const size, unsigned const mls,
                                 int const kind, int const depth, unsigned const row_log,
                                 int const dict, int const simd)
{
    const uint8_t *const base = ms->base;
    const uint8_t *const iend = src + size;
    const uint8_t *const ilimit = iend - XC_ZSTD_HASH_READ;
    const uint8_t *const frame_p = base + ms->start;
    const uint8_t *anchor = src;
    /* The first byte of the history has nothing before it to match (but a
     * frame's first byte may match an attached dictionary's content). */
    const uint8_t *ip = src + (!dict && src == frame_p);

    xc_zcursor out = xc_zcursor_open(ss);
    uint32_t r0 = rep[0], r1 = rep[1], r2 = rep[2];
    uint32_t off0 = 0, off1 = 0;
    if (!dict) {
        uint32_t const max_rep = (uint32_t)(ip - frame_p);
        if (r0 > max_rep) off0 = r0, r0 = 0;
        if (r1 > max_rep) off1 = r1, r1 = 0;
    }
    dsearch d;
    xc_zsearch_open(&d.s, ms);
    if (dict) dict_open(&d, ms, kind == SEARCH_BT);
    /* A row log known at compile time (the specialised copies below) makes
     * the row's size, masks and prefetches constants. */
    if (kind == SEARCH_ROW && row_log) d.s.row_log = row_log;
    /* After a very long match in the previous block, do not insert all of
     * it: the last couple of hundred positions are the useful ones.  (An
     * attached frame is one block.) */
    if (!dict) {
        uint32_t const cur = (uint32_t)(src - base);
        if (cur > d.s.next + 384) d.s.next = cur - XC_MIN(192u, cur - d.s.next - 384);
    }
    if (kind == SEARCH_ROW) {
        if (!dict && src == frame_p) row_frame_begin(&d.s, size);
        row_fill_cache(&d.s, iend, mls);
    } else if (kind == SEARCH_BT)
        bt_fill_cache(&d.s, iend, mls);
    else
        hc_fill_cache(&d.s, iend, mls);

    /* Whether positions are being stepped over without insertion (never
     * with an attached dictionary, whose frames are small, nor for trees). */
    int skipping = 0;
    int const may_skip = !dict && kind != SEARCH_BT;

    while (ip < ilimit) {
        const uint8_t *mstart = ip + 1;
        size_t mlen = 0;
        /* Offset_Value: 1 for the repeat offset r0 (always after at least
         * one literal here, so 1 means r0), offset + 3 otherwise. */
        uint32_t ov = 1;

        {
            size_t rlen;
            if (lazy_rep(&d, ip + 1, r0, iend, dict, &rlen)) {
                mlen = rlen;
                if (depth == 0) {
                    if (may_skip && skipping) lazy_refill(&d.s, iend, mls, kind), skipping = 0;
                    goto store;
                }
            }
        }
        {
            uint32_t offset = 0;
            size_t const len = lazy_search(&d, ip, iend, mls, &offset, kind, simd, dict);
            if (len > mlen) {
                mlen = len;
                mstart = ip;
                ov = offset + 3;
            }
        }
        if (mlen < 4) {
            size_t const step = ((size_t)(ip - anchor) >> LAZY_SKIP_LOG) + 1;
            ip += step;
            if (may_skip && step > LAZY_SKIPPING_STEP) {
                lazy_skip_to(&d.s, ip, iend, mls, kind);
                skipping = 1;
            }
            continue;
        }
        if (may_skip && skipping) lazy_refill(&d.s, iend, mls, kind), skipping = 0;

        /* Look ahead (see the top for the weights): k bytes past the match
         * in hand, starting over at 1 when a search there wins.  One call
         * site for both steps, so that the search is inlined twice (here
         * and above) rather than three times: lazy2's finder shrank from
         * 20 to 8 KiB, and its speed stopped depending on where the linker
         * put it (sum at level 7 measured 0.85x or 1.04x libzstd in two
         * programs before, 0.93-0.98x in both after). */
        for (int k = 1; k <= depth && ip < ilimit;) {
            ip++;
            if (lazy_step(&d, ip, iend, mls, kind, simd, dict, r0, k == 1 ? 3 : 4,
                          k == 1 ? 4 : 7, &mlen, &ov, &mstart))
                k = 1;
            else
                k++;
        }

        if (ov > 3) {
            uint32_t const offset = ov - 3;
            /* Extend backwards over equal bytes, within the segment the
             * match lies in: the frame, or an attached dictionary's content. */
            const uint8_t *match = mstart - offset, *mlow = frame_p;
            if (dict) {
                size_t const pos = (size_t)(mstart - d.prefix);
                if (offset <= pos) {
                    mlow = d.prefix;
                } else {
                    match = d.dend - (offset - pos);
                    mlow = d.dlowest;
                }
            }
            while ((mstart > anchor) & (match > mlow) && mstart[-1] == match[-1]) {
                mstart--;
                match--;
                mlen++;
            }
            r2 = r1;
            r1 = r0;
            r0 = offset;
        }
    store:
        xc_zput_seq(&out, (size_t)(mstart - anchor), anchor, iend, ov, mlen);
        ip = anchor = mstart + mlen;

        /* A match right after a match at the previous offset: with no
         * literals, Offset_Value 1 names r1 (§3.1.2.5); r0 and r1 swap. */
        size_t rlen;
        while (ip <= ilimit && lazy_rep(&d, ip, r1, iend, dict, &rlen)) {
            uint32_t const t = r1;
            r1 = r0;
            r0 = t;
            xc_zput_seq(&out, 0, anchor, iend, 1, rlen);
            ip += rlen;
            anchor = ip;
        }
    }

    xc_zsearch_close(&d.s, ms);
    xc_zcursor_close(ss, out);
    xc_zrep_restore(rep, r0, r1, r2, off0, off1);
    return (size_t)(iend - anchor);
}

#define LAZY_MLS(name, kind, depth) XC_ZFINDER_MLS(name, lazy_body, kind, depth, 0, 0)

LAZY_MLS(greedy_hc, SEARCH_HC, 0)
LAZY_MLS(lazy_hc, SEARCH_HC, 1)
LAZY_MLS(lazy2_hc, SEARCH_HC, 2)
LAZY_MLS(btlazy2_bt, SEARCH_BT, 2)

/*
 * The row finders.  In plain C they read the row log (4 to 6) from the
 * match state; the SIMD variants, which every tier above portable runs,
 * have one function per row log as well, as libzstd does.  With the row
 * log a constant, the tag comparison, the rotation of the match mask and
 * the prefetches of a row lose their loops and tests: sum (38 KB) at level
 * 7 went from 97 to 114 MB/s, 0.78x to 0.92x libzstd's speed.
 */
#if XC_ZVARIANT_SIMD
#  define ROW_ONE(name, depth, mls, rl, dict)                                               \
    XC_ZFINDER(name##_##mls##_r##rl,                                                        \
               lazy_body(ms, ss, rep, src, size, mls, SEARCH_ROW, depth, rl, dict, xc_simd))
#  define ROW_MLS(name, depth, mls, dict)                                                   \
    ROW_ONE(name, depth, mls, 4, dict) ROW_ONE(name, depth, mls, 5, dict)                   \
    ROW_ONE(name, depth, mls, 6, dict)
#  define ROW_FINDERS(name, depth, dict)                                                    \
    ROW_MLS(name, depth, 4, dict) ROW_MLS(name, depth, 5, dict) ROW_MLS(name, depth, 6, dict)
#  define ROW_BY_LOG(name, mls) {name##_##mls##_r4, name##_##mls##_r5, name##_##mls##_r6}
#  define ROW_TABLE(name) {ROW_BY_LOG(name, 4), ROW_BY_LOG(name, 5), ROW_BY_LOG(name, 6)}
#else
#  define ROW_ONE(name, depth, mls, dict)                                                   \
    XC_ZFINDER(name##_##mls,                                                                \
               lazy_body(ms, ss, rep, src, size, mls, SEARCH_ROW, depth, 0, dict, 0))
#  define ROW_FINDERS(name, depth, dict)                                                    \
    ROW_ONE(name, depth, 4, dict) ROW_ONE(name, depth, 5, dict) ROW_ONE(name, depth, 6, dict)
#  define ROW_BY_LOG(name, mls) {name##_##mls, name##_##mls, name##_##mls}
#  define ROW_TABLE(name) {ROW_BY_LOG(name, 4), ROW_BY_LOG(name, 5), ROW_BY_LOG(name, 6)}
#endif

/* [min_match - 4][row_log - 4] */
typedef xc_zstd_block_fn row_finders[3][3];

ROW_FINDERS(greedy_row, 0, 0)
ROW_FINDERS(lazy_row, 1, 0)
ROW_FINDERS(lazy2_row, 2, 0)

static size_t row_run(const row_finders *t, XC_ZFINDER_ARGS)
{
    if (size < XC_ZSTD_HASH_READ + 4) return size;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    return (*t)[mls - 4][ms->row_log - 4](ms, ss, rep, src, size);
}

static size_t finder_greedy(XC_ZFINDER_ARGS)
{
    static const xc_zfinder_mls_table hc = XC_ZFINDER_MLS_TABLE(greedy_hc);
    static const row_finders row = ROW_TABLE(greedy_row);
    if (ms->row_log) return row_run(&row, ms, ss, rep, src, size);
    return xc_zfinder_run_mls(&hc, ms, ss, rep, src, size);
}

static size_t finder_lazy(XC_ZFINDER_ARGS)
{
    static const xc_zfinder_mls_table hc = XC_ZFINDER_MLS_TABLE(lazy_hc);
    static const row_finders row = ROW_TABLE(lazy_row);
    if (ms->row_log) return row_run(&row, ms, ss, rep, src, size);
    return xc_zfinder_run_mls(&hc, ms, ss, rep, src, size);
}

static size_t finder_lazy2(XC_ZFINDER_ARGS)
{
    static const xc_zfinder_mls_table hc = XC_ZFINDER_MLS_TABLE(lazy2_hc);
    static const row_finders row = ROW_TABLE(lazy2_row);
    if (ms->row_log) return row_run(&row, ms, ss, rep, src, size);
    return xc_zfinder_run_mls(&hc, ms, ss, rep, src, size);
}

static size_t finder_btlazy2(XC_ZFINDER_ARGS)
{
    static const xc_zfinder_mls_table bt = XC_ZFINDER_MLS_TABLE(btlazy2_bt);
    return xc_zfinder_run_mls(&bt, ms, ss, rep, src, size);
}

/* The attached mode: the row finders once more with the dictionary's
 * search (its rows are as wide as the frame's, so the same row log serves
 * both), and btlazy2's tree. */
#define DICT_MLS(name, kind, depth) XC_ZFINDER_MLS(name, lazy_body, kind, depth, 0, 1)

ROW_FINDERS(greedy_dict, 0, 1)
ROW_FINDERS(lazy_dict, 1, 1)
ROW_FINDERS(lazy2_dict, 2, 1)
DICT_MLS(btlazy2_dict, SEARCH_BT, 2)

static size_t finder_lazy_dict(XC_ZFINDER_ARGS)
{
    static const row_finders greedy = ROW_TABLE(greedy_dict), lazy = ROW_TABLE(lazy_dict),
                             lazy2 = ROW_TABLE(lazy2_dict);
    const row_finders *v = ms->p.strategy == XC_ZSTRAT_GREEDY ? &greedy
                           : ms->p.strategy == XC_ZSTRAT_LAZY ? &lazy
                                                              : &lazy2;
    return row_run(v, ms, ss, rep, src, size);
}

static size_t finder_btlazy2_dict(XC_ZFINDER_ARGS)
{
    static const xc_zfinder_mls_table bt = XC_ZFINDER_MLS_TABLE(btlazy2_dict);
    return xc_zfinder_run_mls(&bt, ms, ss, rep, src, size);
}

#endif
