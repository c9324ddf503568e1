/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fast and dfast strategies with a prepared dictionary searched where
 * it lies (libzstd calls this attaching the dictionary), for small one-shot
 * inputs.
 *
 * Placing the dictionary in front of the input (compress_history.c) lets
 * every finder run unchanged, but each frame then owns tables that start as
 * the dictionary's, and giving them back costs about as much as the frame.
 * Here the context's own hash table holds only the frame's positions (older
 * entries are below ms->start and so invalid, as for any frame), and the
 * dictionary's table is only read; the frame's candidate is tried first,
 * then the dictionary's.  One hash serves both: the frame uses the
 * dictionary's min_match, and its tables are sized for its input (about
 * two cells per position, dict/compress_dict.c) and no larger than the
 * dictionary's, so the top bits of the dictionary's hash (hash_log + 8
 * bits: cell and tag) are the frame's cell, as xc_zhash computes it with
 * the frame's log.  Tables sized for the input rather than the dictionary
 * (384 KiB at level 3) keep the frame's stores in the L1 cache, which made
 * level 3 about 12% faster on 1 KiB records.  A frame costs what it would
 * cost without a dictionary plus one load per searched position.
 *
 * The dictionary is history just before the frame: content byte k lies
 * (frame position) + (content size - k) bytes back, offsets into it are
 * ordinary offsets, and a match that reaches the end of the content goes on
 * at the frame's first byte (RFC 8878 §5).  Repeat offsets are resolved the
 * same way; one whose 4 bytes would straddle the two segments is not tried.
 * Matches stay within the window the frame header declares.
 *
 * This file is a template: every ISA variant of the encoder includes it
 * (after match_tmpl.h has set the variant's target and SIMD flag) and so
 * compiles its own copy of these finders; the entry points are static and
 * reach the rest of the encoder through the variant's kernel table
 * (compress_kernels.h).  It may call the match state and sequence store of
 * compress_internal.h and the search headers of this folder, nothing above
 * them.
 */
#ifndef XC_ZSTD_MATCH_FAST_DICT_TMPL_H
#define XC_ZSTD_MATCH_FAST_DICT_TMPL_H
#include "zstd/dict/cdict.h"

/* dfast: the gap between searched positions grows by one every 2^8
 * literals. */
#define SEARCH_STRENGTH 8

typedef struct {
    const uint8_t *prefix; /* the frame's first byte */
    const uint8_t *low_p;  /* lowest frame byte in the window */
    const uint8_t *dlow;   /* lowest dictionary byte in the window */
    const uint8_t *dend;   /* end of the dictionary content */
} segs;

/* The bytes `off` back from p (in the frame), or NULL when they are not in
 * the window or straddle the end of the dictionary; *seg_end is the end of
 * the dictionary for a position in it, else NULL. */
static inline const uint8_t *back(const segs *s, const uint8_t *p, uint32_t off,
                                  const uint8_t **seg_end)
{
    size_t const pos = (size_t)(p - s->prefix);
    if (off == 0) return NULL;
    if (off <= pos) {
        *seg_end = NULL;
        return p - off >= s->low_p ? p - off : NULL;
    }
    size_t const into = off - pos;
    if (into < 4 || into > (size_t)(s->dend - s->dlow)) return NULL;
    *seg_end = s->dend;
    return s->dend - into;
}

/* Match length of ip against m up to iend, continuing at the frame's first
 * byte when m reaches mend (a dictionary match); mend NULL for a match in
 * the frame. */
static inline size_t seg_count2(const segs *s, const uint8_t *ip, const uint8_t *m,
                                const uint8_t *iend, const uint8_t *mend)
{
    return xc_zcount_2seg(ip, m, iend, mend, s->prefix);
}

/* The segments a block ending at iend sees, whose window starts at frame
 * index `low`: the block's last byte reaches back one window, and the
 * dictionary ends where the frame starts.  Returns the lowest dictionary
 * table cell in the window (cells hold 1 + the content offset; 0 is
 * empty). */
XC_FORCE_INLINE uint32_t segs_open(segs *s, const xc_zmatch_state *ms, const uint8_t *iend,
                                   uint32_t low)
{
    const xc_zstd_cdict *const cd = ms->dict;
    s->prefix = ms->base + ms->start;
    s->low_p = ms->base + low;
    s->dend = cd->content + cd->content_size;
    uint64_t const w = (uint64_t)1 << ms->p.window_log;
    uint64_t const reach = (uint64_t)(iend - s->prefix) + cd->content_size;
    s->dlow = low > ms->start ? s->dend : reach > w ? cd->content + (reach - w) : cd->content;
    return (uint32_t)(s->dlow - cd->content) + 1;
}

/* The fast finders' step after a match that ends at *ip (= *anchor), the
 * search having stood at frame index cur: two positions inside the match
 * go into the frame's table, as the plain finder does, then the matches
 * that follow at r1 with no literals between, where Offset_Value 1 names
 * r1 (§3.1.2.5) and r0, r1 swap. */
XC_FORCE_INLINE void fast_dict_after(const segs *s, uint32_t *ht, unsigned hlog, unsigned mls,
                                     const uint8_t *base, uint32_t cur, const uint8_t *ilimit,
                                     const uint8_t *iend, const uint8_t **ipp,
                                     const uint8_t **anchor, uint32_t *r0, uint32_t *r1,
                                     xc_zcursor *out)
{
    const uint8_t *ip = *ipp;
    if (ip > ilimit) return;
    ht[xc_zhash(base + cur + 2, hlog, mls)] = cur + 2;
    ht[xc_zhash(ip - 2, hlog, mls)] = (uint32_t)(ip - 2 - base);
    while (ip <= ilimit) {
        const uint8_t *seg;
        const uint8_t *m2 = back(s, ip, *r1, &seg);
        if (!m2 || xc_read32(m2) != xc_read32(ip)) break;
        size_t const rlen = 4 + seg_count2(s, ip + 4, m2 + 4, iend, seg);
        uint32_t const t = *r1;
        *r1 = *r0;
        *r0 = t;
        ht[xc_zhash(ip, hlog, mls)] = (uint32_t)(ip - base);
        xc_zput_seq(out, 0, *anchor, iend, 1, rlen);
        ip += rlen;
        *anchor = ip;
    }
    *ipp = ip;
}

/* Closes a dictionary finder's block: the cursor back into the store,
 * the repeat offsets back to the caller; returns the literals left. */
XC_FORCE_INLINE size_t dict_finish(xc_zseqstore *ss, xc_zcursor out, uint32_t rep[3], uint32_t r0,
                                   uint32_t r1, uint32_t r2, const uint8_t *iend,
                                   const uint8_t *anchor)
{
    xc_zcursor_close(ss, out);
    rep[0] = r0;
    rep[1] = r1;
    rep[2] = r2;
    return (size_t)(iend - anchor);
}

/* The dictionary's candidate for ip, whose hash with the tag is hx: its
 * first byte in the content when it is in the window and its first 4 bytes
 * are ip's, else NULL. */
static inline const uint8_t *dict_cand(const uint32_t *dt, size_t hx, uint32_t dlow_idx,
                                       const uint8_t *dcontent, const uint8_t *ip)
{
    uint32_t const didx = xc_zdict_cell(dt, hx);
    if (didx < dlow_idx || xc_read32(dcontent + didx - 1) != xc_read32(ip)) return NULL;
    return dcontent + didx - 1;
}

/* Bytes without a match after which the gap between pairs grows by one. */
#define FAST_DICT_STRIDE_STEP 128

/*
 * fast: positions are searched in pairs, as in match_fast_tmpl.h, the next
 * position's hash and table loads issued before the current one is
 * compared.  Each position tries the frame's candidate, then the
 * dictionary's; each pair tries the repeat offset once, at the next pair's
 * first position.  The repeat offset's bytes are found from positions
 * relative to the frame's first byte (rv): the dictionary's content lies at
 * -1 and below, a match is in the window from vlow on, and one starting at
 * -3..-1 would straddle the dictionary's end, so it is not tried.
 */
XC_FORCE_INLINE size_t fast_dict_body(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                      const uint8_t *const src, size_t const size,
                                      unsigned const mls, int const small)
{
    const xc_zstd_cdict *const cd = ms->dict;
    uint32_t *const ht = ms->hash_table;
    const uint32_t *const dt = cd->packed;
    unsigned const hlog = ms->p.hash_log;
    unsigned const dlog = cd->p.hash_log;
    unsigned const dshift = 8 + dlog - hlog;
    const uint8_t *const base = ms->base;
    const uint8_t *const iend = src + size;
    const uint8_t *const ilimit = iend - XC_ZSTD_HASH_READ;
    uint32_t const low = xc_zwindow_low(ms, (uint32_t)(iend - base));
    segs s;
    uint32_t const dlow_idx = segs_open(&s, ms, iend, low);
    const uint8_t *const dcontent = cd->content;
    const uint8_t *const prefix = s.prefix;
    intptr_t const vlow =
        s.low_p > prefix ? (intptr_t)(s.low_p - prefix) : -(intptr_t)(s.dend - s.dlow);
    /* Distance from one pair to the next: adjacent pairs.  Levels -2 and
     * below use fast_dict_step_body (below); at -1 the acceleration's step
     * is 1, as at level 1. */
    size_t const gap0 = 2;

    const uint8_t *anchor = src;
    const uint8_t *ip0 = src, *ip1, *ip2, *ip3;
    const uint8_t *match0, *mend, *next_step;
    size_t step, hx0, hx1, mlen;
    uint32_t idx, cur0, off_value;
    uint32_t r0 = rep[0], r1 = rep[1], r2 = rep[2];
    xc_zcursor out = xc_zcursor_open(ss);

restart:
    step = gap0;
    next_step = ip0 + FAST_DICT_STRIDE_STEP;
    ip1 = ip0 + 1;
    ip2 = ip0 + step;
    ip3 = ip2 + 1;
    if (ip3 >= ilimit) goto done;

    hx0 = xc_zhash(ip0, dlog + 8, mls);
    hx1 = xc_zhash(ip1, dlog + 8, mls);
    idx = ht[hx0 >> dshift];

    do {
        /* First position of the pair, after the repeat offset at ip2. */
        {
            intptr_t const rv = (intptr_t)(ip2 - prefix) - (intptr_t)r0;
            int const rok = (rv >= vlow) & ((uintptr_t)(rv + 3) >= 3) & (r0 != 0);
            const uint8_t *const rm = rok ? (rv >= 0 ? prefix : s.dend) + rv : ip0;
            cur0 = (uint32_t)(ip0 - base);
            ht[hx0 >> dshift] = cur0;
            if (rok & (xc_read32(rm) == xc_read32(ip2))) {
                ip0 = ip2;
                match0 = rm;
                mend = rv >= 0 ? NULL : s.dend;
                /* One byte back, when it is in the same segment and the
                 * window (ip2 is at least two past the anchor). */
                mlen = (rv - 1 >= vlow) & (rv != 0) && ip0[-1] == match0[-1];
                ip0 -= mlen;
                match0 -= mlen;
                mlen += 4;
                off_value = 1;
                ht[hx1 >> dshift] = (uint32_t)(ip1 - base);
                goto extend;
            }
        }
        if (xc_zcand4(ip0, base, idx, low, small)) {
            ht[hx1 >> dshift] = (uint32_t)(ip1 - base);
            goto frame_match;
        }
        match0 = dict_cand(dt, hx0, dlow_idx, dcontent, ip0);
        if (match0) {
            ht[hx1 >> dshift] = (uint32_t)(ip1 - base);
            goto dict_match;
        }

        /* Second position of the pair. */
        idx = ht[hx1 >> dshift];
        hx0 = hx1;
        hx1 = xc_zhash(ip2, dlog + 8, mls);
        ip0 = ip1;
        ip1 = ip2;
        ip2 = ip3;
        cur0 = (uint32_t)(ip0 - base);
        ht[hx0 >> dshift] = cur0;
        if (xc_zcand4(ip0, base, idx, low, small)) {
            /* ip1 = ip0 + step - 1: inside a match of 4 bytes or more only
             * while step <= 4. */
            if (step <= 4) ht[hx1 >> dshift] = (uint32_t)(ip1 - base);
            goto frame_match;
        }
        match0 = dict_cand(dt, hx0, dlow_idx, dcontent, ip0);
        if (match0) {
            if (step <= 4) ht[hx1 >> dshift] = (uint32_t)(ip1 - base);
            goto dict_match;
        }

        /* Advance to the next pair. */
        idx = ht[hx1 >> dshift];
        hx0 = hx1;
        hx1 = xc_zhash(ip2, dlog + 8, mls);
        ip0 = ip1;
        ip1 = ip2;
        ip2 = ip0 + step;
        ip3 = ip1 + step;
        if (ip2 >= next_step) {
            step++;
            next_step += FAST_DICT_STRIDE_STEP;
        }
    } while (ip3 < ilimit);

done:
    return dict_finish(ss, out, rep, r0, r1, r2, iend, anchor);

frame_match:
    match0 = base + idx;
    mend = NULL;
    mlen = 4 + xc_zcatch_up(&ip0, &match0, anchor, s.low_p);
    r2 = r1;
    r1 = r0;
    r0 = (uint32_t)(ip0 - match0);
    off_value = r0 + 3;
    goto extend;

dict_match:
    mend = s.dend;
    mlen = 4 + xc_zcatch_up(&ip0, &match0, anchor, s.dlow);
    r2 = r1;
    r1 = r0;
    r0 = (uint32_t)((size_t)(ip0 - prefix) + (size_t)(s.dend - match0));
    off_value = r0 + 3;

extend:
    mlen += seg_count2(&s, ip0 + mlen, match0 + mlen, iend, mend);
    xc_zput_seq(&out, (size_t)(ip0 - anchor), anchor, iend, off_value, mlen);
    ip0 += mlen;
    anchor = ip0;

    fast_dict_after(&s, ht, hlog, mls, base, cur0, ilimit, iend, &ip0, &anchor, &r0, &r1, &out);
    goto restart;
}

/*
 * fast at levels -2 and below, whose acceleration spaces the searched
 * positions target_length apart: one position at a time, each trying the
 * repeat offset one byte ahead, the frame's candidate and the
 * dictionary's.  The paired search above, with its pairs spread as far,
 * searched twice the positions and was up to 25% slower; spread twice as
 * far, it made CSV records 4-10% larger, the repeat offset being tried
 * once a pair.
 */
XC_FORCE_INLINE size_t fast_dict_step_body(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                      const uint8_t *const src, size_t const size,
                                      unsigned const mls, int const small)
{
    const xc_zstd_cdict *const cd = ms->dict;
    uint32_t *const ht = ms->hash_table;
    const uint32_t *const dt = cd->packed;
    unsigned const hlog = ms->p.hash_log;
    unsigned const dlog = cd->p.hash_log;
    const uint8_t *const base = ms->base;
    const uint8_t *const iend = src + size;
    const uint8_t *const ilimit = iend - XC_ZSTD_HASH_READ;
    uint32_t const low = xc_zwindow_low(ms, (uint32_t)(iend - base));
    segs s;
    uint32_t const dlow_idx = segs_open(&s, ms, iend, low);

    const uint8_t *ip = src;
    const uint8_t *anchor = src;
    uint32_t r0 = rep[0], r1 = rep[1], r2 = rep[2];
    xc_zcursor out = xc_zcursor_open(ss);

    const uint8_t *const dcontent = cd->content;
    /* The negative levels' acceleration: the gap between searched
     * positions starts at target_length instead of 1. */
    size_t const step = ms->p.target_length + !ms->p.target_length;

    while (ip < ilimit) {
        size_t const hx = xc_zhash(ip, dlog + 8, mls);
        size_t const h = hx >> (8 + dlog - hlog);
        uint32_t const cur = (uint32_t)(ip - base);
        uint32_t const idx = ht[h];
        uint32_t const didx = xc_zdict_cell(dt, hx);
        const uint8_t *seg;
        const uint8_t *match;
        size_t mlen;
        ht[h] = cur;

        const uint8_t *const rm = back(&s, ip + 1, r0, &seg);
        if (rm && xc_read32(rm) == xc_read32(ip + 1)) {
            /* At least one literal (ip + 1 > anchor): Offset_Value 1 is r0. */
            mlen = 4 + seg_count2(&s, ip + 5, rm + 4, iend, seg);
            ip++;
            xc_zput_seq(&out, (size_t)(ip - anchor), anchor, iend, 1, mlen);
        } else {
            uint32_t off;
            /* A stale slot (an older frame's position) is masked into the
             * compare rather than tested first: with a reused context
             * which slots are live is as good as random (as in xc_zcand4).
             * Only in small frames: in larger ones the frame's own
             * positions soon fill the table, the test predicts well, and
             * the mask measured slower (random 4 KiB records 0.97x ->
             * 0.89x libzstd's speed, 256 B records 0.89x -> 1.27x). */
            uint32_t const here = xc_read32(ip);
            if (xc_zcand4(ip, base, idx, low, small)) {
                match = base + idx;
                mlen = 4 + xc_zcount(ip + 4, match + 4, iend);
                mlen += xc_zcatch_up(&ip, &match, anchor, s.low_p);
                off = (uint32_t)(ip - match);
            } else if (didx >= dlow_idx && xc_read32(dcontent + didx - 1) == here) {
                /* dict_cand()'s test written out, on the cell loaded early and
                 * the bytes read once for both candidates: through the helper
                 * this search measured 1-3% slower. */
                match = dcontent + didx - 1;
                mlen = 4 + seg_count2(&s, ip + 4, match + 4, iend, s.dend);
                mlen += xc_zcatch_up(&ip, &match, anchor, s.dlow);
                off = (uint32_t)((size_t)(ip - s.prefix) + (size_t)(s.dend - match));
            } else {
                ip += ((size_t)(ip - anchor) >> SEARCH_STRENGTH) + step;
                continue;
            }
            r2 = r1;
            r1 = r0;
            r0 = off;
            xc_zput_seq(&out, (size_t)(ip - anchor), anchor, iend, off + 3, mlen);
        }
        ip += mlen;
        anchor = ip;

        fast_dict_after(&s, ht, hlog, mls, base, cur, ilimit, iend, &ip, &anchor, &r0, &r1, &out);
    }
    return dict_finish(ss, out, rep, r0, r1, r2, iend, anchor);
}


/* dfast: a long (8-byte) and a short (min_match) candidate per position in
 * each of the frame's and the dictionary's tables; a long match is
 * preferred, and a short one is only taken after the long tables have been
 * asked about the next position, as in match_dfast_tmpl.h. */
XC_FORCE_INLINE size_t dfast_dict_body(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                       const uint8_t *const src, size_t const size,
                                       unsigned const mls, int const masked)
{
    const xc_zstd_cdict *const cd = ms->dict;
    uint32_t *const hl = ms->hash_table;
    uint32_t *const hs = ms->chain_table;
    const uint32_t *const dl = cd->packed;
    const uint32_t *const ds = cd->packed + cd->ms.hash_size;
    unsigned const llog = ms->p.hash_log, slog = ms->p.chain_log;
    unsigned const dllog = cd->p.hash_log, dslog = cd->p.chain_log;
    const uint8_t *const base = ms->base;
    const uint8_t *const iend = src + size;
    const uint8_t *const ilimit = iend - XC_ZSTD_HASH_READ;
    uint32_t const low = xc_zwindow_low(ms, (uint32_t)(iend - base));
    segs s;
    uint32_t const dlow_idx = segs_open(&s, ms, iend, low);

    const uint8_t *ip = src;
    const uint8_t *anchor = src;
    uint32_t r0 = rep[0], r1 = rep[1], r2 = rep[2];
    xc_zcursor out = xc_zcursor_open(ss);


    while (ip < ilimit) {
        size_t const x8 = xc_zhash(ip, dllog + 8, 8);
        size_t const xm = xc_zhash(ip, dslog + 8, mls);

        size_t const h8 = x8 >> (8 + dllog - llog), hm = xm >> (8 + dslog - slog);
        uint32_t const cur = (uint32_t)(ip - base);
        uint32_t const il = hl[h8], is = hs[hm];
        /* Tags decide with masks (xc_zdict_cell): json, logs, text
         * 256x4K+dict L3 3-8% faster; records that match nothing pay two
         * loads the branch skipped (random: 1.11x -> 1.00x libzstd's
         * speed). */
        uint32_t const jl = xc_zdict_cell(dl, x8);
        uint32_t const js = xc_zdict_cell(ds, xm);
        const uint8_t *seg = NULL;
        const uint8_t *match;
        size_t mlen;
        hl[h8] = cur;
        hs[hm] = cur;

        const uint8_t *const rm = back(&s, ip + 1, r0, &seg);
        if (rm && xc_read32(rm) == xc_read32(ip + 1)) {
            mlen = 4 + seg_count2(&s, ip + 5, rm + 4, iend, seg);
            ip++;
            xc_zput_seq(&out, (size_t)(ip - anchor), anchor, iend, 1, mlen);
            goto matched;
        }
        if (xc_zcand8(ip, base, il, low, masked)) {
            match = base + il;
            seg = NULL;
            mlen = 8 + xc_zcount(ip + 8, match + 8, iend);
        } else if (jl >= dlow_idx && xc_read64(cd->content + jl - 1) == xc_read64(ip)) {
            match = cd->content + jl - 1;
            seg = s.dend;
            mlen = 8 + seg_count2(&s, ip + 8, match + 8, iend, s.dend);
        } else {
            /* A short candidate, unless the next position has a long one. */
            if (xc_zcand4(ip, base, is, low, masked)) {
                match = base + is;
                seg = NULL;
            } else if (js >= dlow_idx && xc_read32(cd->content + js - 1) == xc_read32(ip)) {
                match = cd->content + js - 1;
                seg = s.dend;
            } else {
                ip += ((size_t)(ip - anchor) >> SEARCH_STRENGTH) + 1;
                continue;
            }
            const uint8_t *const ip1 = ip + 1;
            size_t const x1 = xc_zhash(ip1, dllog + 8, 8);
            size_t const h1 = x1 >> (8 + dllog - llog);
            uint32_t const il1 = hl[h1];
            uint32_t const jl1 = xc_zdict_cell(dl, x1);
            hl[h1] = cur + 1;
            if (xc_zcand8(ip1, base, il1, low, masked)) {
                ip = ip1;
                match = base + il1;
                seg = NULL;
                mlen = 8 + xc_zcount(ip + 8, match + 8, iend);
            } else if (jl1 >= dlow_idx && xc_read64(cd->content + jl1 - 1) == xc_read64(ip1)) {
                ip = ip1;
                match = cd->content + jl1 - 1;
                seg = s.dend;
                mlen = 8 + seg_count2(&s, ip + 8, match + 8, iend, s.dend);
            } else {
                mlen = 4 + seg_count2(&s, ip + 4, match + 4, iend, seg);
            }
        }
        {
            const uint8_t *const lowest = seg ? s.dlow : s.low_p;
            mlen += xc_zcatch_up(&ip, &match, anchor, lowest);
            uint32_t const off = seg ? (uint32_t)((size_t)(ip - s.prefix) + (size_t)(s.dend - match))
                                     : (uint32_t)(ip - match);
            r2 = r1;
            r1 = r0;
            r0 = off;
            xc_zput_seq(&out, (size_t)(ip - anchor), anchor, iend, off + 3, mlen);
        }
    matched:
        ip += mlen;
        anchor = ip;
        if (ip <= ilimit) {
            uint32_t const in = cur + 2;
            hl[xc_zhash(base + in, llog, 8)] = in;
            hs[xc_zhash(base + in, slog, mls)] = in;
            hl[xc_zhash(ip - 2, llog, 8)] = (uint32_t)(ip - 2 - base);
            hs[xc_zhash(ip - 1, slog, mls)] = (uint32_t)(ip - 1 - base);
            while (ip <= ilimit) {
                const uint8_t *m2 = back(&s, ip, r1, &seg);
                if (!m2 || xc_read32(m2) != xc_read32(ip)) break;
                size_t const rlen = 4 + seg_count2(&s, ip + 4, m2 + 4, iend, seg);
                uint32_t const t = r1;
                r1 = r0;
                r0 = t;
                hs[xc_zhash(ip, slog, mls)] = (uint32_t)(ip - base);
                hl[xc_zhash(ip, llog, 8)] = (uint32_t)(ip - base);
                xc_zput_seq(&out, 0, anchor, iend, 1, rlen);
                ip += rlen;
                anchor = ip;
            }
        }
    }
    return dict_finish(ss, out, rep, r0, r1, r2, iend, anchor);
}

XC_ZFINDER(dfast_dict_4, dfast_dict_body(ms, ss, rep, src, size, 4, 0))
XC_ZFINDER(dfast_dict_5, dfast_dict_body(ms, ss, rep, src, size, 5, 0))
XC_ZFINDER(dfast_dict_6, dfast_dict_body(ms, ss, rep, src, size, 6, 0))
XC_ZFINDER(dfast_dict_7, dfast_dict_body(ms, ss, rep, src, size, 7, 0))
XC_ZFINDER(dfast_dict_4m, dfast_dict_body(ms, ss, rep, src, size, 4, 1))
XC_ZFINDER(dfast_dict_5m, dfast_dict_body(ms, ss, rep, src, size, 5, 1))
XC_ZFINDER(dfast_dict_6m, dfast_dict_body(ms, ss, rep, src, size, 6, 1))
XC_ZFINDER(dfast_dict_7m, dfast_dict_body(ms, ss, rep, src, size, 7, 1))

/* Frames with windows below 2^21 test the frame's candidates with a mask,
 * as dfast without a dictionary does (match_dfast_tmpl.h). */
#define DFAST_DICT_MASKED_BELOW_WLOG 21u

static size_t finder_dfast_dict(XC_ZFINDER_ARGS)
{
    /* [masked][min_match - 4] */
    static const xc_zstd_block_fn copies[2][4] = {
        {dfast_dict_4, dfast_dict_5, dfast_dict_6, dfast_dict_7},
        {dfast_dict_4m, dfast_dict_5m, dfast_dict_6m, dfast_dict_7m}};
    XC_ZFINDER_RUN(copies[ms->p.window_log < DFAST_DICT_MASKED_BELOW_WLOG], 4u, 7u);
}

/* One copy per hash width and frame size class (the stale-slot mask is for
 * frames of FAST_DICT_SMALL bytes or less, see above), so that neither
 * loop carries the other's test. */
#define FAST_DICT_SMALL 1024
XC_ZFINDER(fast_dict_4, fast_dict_body(ms, ss, rep, src, size, 4, 0))
XC_ZFINDER(fast_dict_5, fast_dict_body(ms, ss, rep, src, size, 5, 0))
XC_ZFINDER(fast_dict_6, fast_dict_body(ms, ss, rep, src, size, 6, 0))
XC_ZFINDER(fast_dict_7, fast_dict_body(ms, ss, rep, src, size, 7, 0))
XC_ZFINDER(fast_dict_4s, fast_dict_body(ms, ss, rep, src, size, 4, 1))
XC_ZFINDER(fast_dict_5s, fast_dict_body(ms, ss, rep, src, size, 5, 1))
XC_ZFINDER(fast_dict_6s, fast_dict_body(ms, ss, rep, src, size, 6, 1))
XC_ZFINDER(fast_dict_7s, fast_dict_body(ms, ss, rep, src, size, 7, 1))
XC_ZFINDER(fast_dict_4a, fast_dict_step_body(ms, ss, rep, src, size, 4, 0))
XC_ZFINDER(fast_dict_5a, fast_dict_step_body(ms, ss, rep, src, size, 5, 0))
XC_ZFINDER(fast_dict_6a, fast_dict_step_body(ms, ss, rep, src, size, 6, 0))
XC_ZFINDER(fast_dict_7a, fast_dict_step_body(ms, ss, rep, src, size, 7, 0))
XC_ZFINDER(fast_dict_4as, fast_dict_step_body(ms, ss, rep, src, size, 4, 1))
XC_ZFINDER(fast_dict_5as, fast_dict_step_body(ms, ss, rep, src, size, 5, 1))
XC_ZFINDER(fast_dict_6as, fast_dict_step_body(ms, ss, rep, src, size, 6, 1))
XC_ZFINDER(fast_dict_7as, fast_dict_step_body(ms, ss, rep, src, size, 7, 1))

static size_t finder_fast_dict(XC_ZFINDER_ARGS)
{
    /* [accelerated past level -1][small][min_match - 4]: at level -1 the
     * step is 1 (target_length 1), as at level 1 */
    static const xc_zstd_block_fn copies[2][2][4] = {
        {{fast_dict_4, fast_dict_5, fast_dict_6, fast_dict_7},
         {fast_dict_4s, fast_dict_5s, fast_dict_6s, fast_dict_7s}},
        {{fast_dict_4a, fast_dict_5a, fast_dict_6a, fast_dict_7a},
         {fast_dict_4as, fast_dict_5as, fast_dict_6as, fast_dict_7as}},
    };
    XC_ZFINDER_RUN(copies[ms->p.target_length > 1][size <= FAST_DICT_SMALL], 4u, 7u);
}

#endif
