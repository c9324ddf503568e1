/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The binary-tree match finder of the optimal parsers: every useful match
 * at a position, shortest first, each longer than the one before and at a
 * larger distance.  Included by match_opt.c; everything here is static and
 * force-inlined, working on a local xc_zbt.
 *
 * The tree.  Positions with the same hash of their first bytes (min_match
 * of them, at least 4: see bt_key_bytes) form a binary search tree ordered
 * by the bytes that follow them (lexicographically, as suffixes), newest at
 * the root, whose head is in the hash table.  Each position owns two cells
 * of the chain table, at 2 * (index & mask): the roots of its subtrees of
 * smaller and larger suffixes.  Inserting a position walks down from the
 * root as in a search and splits the tree along the way: every node met
 * goes to the new position's smaller or larger side, and the walk continues
 * into that node's child that lies towards the new position.  Because the
 * walk descends by suffix order, the nodes met are those sharing the
 * longest prefixes with the new position, closest first, which is why one
 * walk both inserts and finds the matches.  Two lower bounds (the bytes
 * known to be shared with every node left on the smaller side, and with
 * those on the larger side) let a comparison start past the common prefix
 * instead of at byte 0.
 *
 * Limits.  A walk visits at most 2^search_log nodes; the subtrees it does
 * not reach are cut off (their cells set to 0, an invalid index), which
 * loses old, distant positions only.  A node whose cells another position
 * has reused since (more than mask positions back) ends the walk after it
 * is compared.  A comparison that reaches the end of the readable input
 * cannot tell which side the node belongs to, so the walk stops there too;
 * the tree stays ordered, and at worst some old positions are dropped.
 * Inserting every position of a long repetition would walk the same deep
 * path again and again for nothing, so after a long match the positions
 * it covers are skipped (as the greedy finders do).
 *
 * Every index >= ms->start within the window is history, whatever put it
 * there (an earlier block, or dictionary content inserted with
 * xc_zstd_fill_bt_opt); entries below start (from earlier frames, or 0)
 * stop every walk.
 *
 * What it may call: the match state and searches (compress/match/).
 */
#ifndef XC_ZSTD_SEARCH_BT_OPT_H
#define XC_ZSTD_SEARCH_BT_OPT_H

#include "zstd/compress/match/match_opt_price.h"
#include "zstd/dict/cdict.h"

#if defined(XC_ARCH_X64)
#  include <emmintrin.h>
#elif defined(XC_ARCH_ARM64) && !XC_BIG_ENDIAN
#  include <arm_neon.h>
#endif

typedef struct {
    const uint8_t *base;
    uint32_t *head;       /* hash_table */
    uint32_t *bt;         /* chain_table, two cells per position */
    uint32_t *head3;      /* hash3_table, or NULL */
    uint32_t bt_mask;
    unsigned hash_log;
    unsigned hash3_log;
    uint32_t start;
    uint32_t window;
    uint32_t compares;
    uint32_t sufficient;  /* a match this long ends the search */
    uint32_t next;        /* next_to_update */
    uint32_t next3;       /* first position not yet in head3 */
    /* Every byte from run_from to run_end equals the one run_dist before
     * it (see bt_count); run_dist 0 when nothing is known. */
    const uint8_t *run_from;
    const uint8_t *run_end;
    size_t run_dist;
    /* An attached dictionary (see bt_dict_walk), read only: its buckets
     * and tree, its content's bytes (index d is dbase[d], the content
     * ends at dend, index dend_idx), and the frame's first byte. */
    const uint32_t *dhead;
    const uint32_t *dbt;
    uint32_t dmask;
    uint32_t dbt_low;     /* its nodes at or below it may have lost their cells */
    uint32_t dend_idx;
    unsigned dhash_log;
    const uint8_t *dbase;
    const uint8_t *dend;
    const uint8_t *prefix;
} xc_zbt;

static inline void bt_open(xc_zbt *s, const xc_zmatch_state *ms)
{
    s->base = ms->base;
    s->head = ms->hash_table;
    s->bt = ms->chain_table;
    s->head3 = ms->hash3_size ? ms->hash3_table : NULL;
    s->bt_mask = (uint32_t)(ms->chain_size >> 1) - 1;
    s->hash_log = ms->p.hash_log;
    s->hash3_log = ms->hash3_log;
    s->start = ms->start;
    s->window = (uint32_t)1 << ms->p.window_log;
    s->compares = 1u << XC_MIN(ms->p.search_log, 24u);
    s->sufficient = XC_MIN(XC_MAX(ms->p.target_length, 1u), XC_ZOPT_NUM - 1);
    s->next = ms->next_to_update;
    s->next3 = ms->next_to_update;
    s->run_from = s->run_end = NULL;
    s->run_dist = 0;
    s->prefix = ms->base + ms->start;
    const xc_zstd_cdict *const cd = ms->dict;
    if (cd) {
        s->dhead = cd->ms.hash_table;
        s->dbt = cd->ms.chain_table;
        s->dmask = (uint32_t)(cd->ms.chain_size >> 1) - 1;
        s->dend_idx = (uint32_t)cd->content_size + 1;
        s->dbt_low = s->dend_idx > s->dmask ? s->dend_idx - s->dmask : 0;
        s->dhash_log = cd->ms.p.hash_log;
        s->dbase = cd->ms.base;
        s->dend = cd->content + cd->content_size;
    } else {
        s->dhead = s->dbt = NULL;
        s->dmask = s->dbt_low = s->dend_idx = 0;
        s->dhash_log = 0;
        s->dbase = s->dend = NULL;
    }
}

/* The bytes hashed to pick a position's tree: min_match, except that
 * with min_match 3 the trees are keyed on 4 bytes.  A tree of every
 * position sharing 3 bytes is deep in tabular or binary data (kennedy.xls:
 * nearly twice the nodes per walk), and of its 3-byte matches only a close
 * one saves anything over literals; the 3-byte hash table supplies that
 * one. */
XC_FORCE_INLINE unsigned bt_key_bytes(unsigned mls) { return mls == 3 ? 4 : mls; }

XC_FORCE_INLINE uint32_t bt_low_for(const xc_zbt *s, uint32_t cur)
{
    return cur - s->start > s->window ? cur - s->window : s->start;
}

/* One step of an insertion's walk (see the top): links node *m, which
 * shares len bytes with the new position and is smaller than it when
 * `is_smaller`, on that side (*smaller or *larger: where the side's next
 * node goes; *common_*: the bytes every node on it shares with the new
 * position), and moves *m to the node's child towards the new position.
 * Returns 0 when the walk must stop there (the node's cells are reused
 * below reused_below): that side then links into *dummy.  (Pointers to
 * the caller's locals rather than a struct of them: gcc keeps the walk's
 * code as tight as when it was written out twice.) */
XC_FORCE_INLINE int bt_link(uint32_t **smaller, uint32_t **larger, size_t *common_smaller,
                            size_t *common_larger, uint32_t *cells, uint32_t *m, size_t len,
                            int is_smaller, uint32_t reused_below, uint32_t *dummy)
{
    if (is_smaller) {
        **smaller = *m;
        *common_smaller = len;
        if (*m <= reused_below) {
            *smaller = dummy;
            return 0;
        }
        *smaller = cells + 1;
        *m = cells[1];
    } else {
        **larger = *m;
        *common_larger = len;
        if (*m <= reused_below) {
            *larger = dummy;
            return 0;
        }
        *larger = cells;
        *m = cells[0];
    }
    return 1;
}

/* xc_zcount() for the walks.  Most steps of a walk in a large tree stop
 * within the first word (the common prefix is known, and the next byte
 * usually differs), so that word is read alone: reading more would often
 * touch a second cache line of a match that is not in cache.  In
 * repetitive input, though, a walk compares matches thousands of bytes
 * long (up to the block's end), and there the loop's exit branch sets the
 * pace: 32 bytes a round, with SSE2 or NEON (both baseline on their
 * architectures) or four words elsewhere.  The count is exact either way,
 * so the trees, and the frames, are the same on every host.
 *
 * In a block that repeats with some period, the walks of many positions
 * compare against the previous period all the way to the block's end
 * (html_x_4: 680 such comparisons of 82 KB on average make 80% of the
 * bytes compared at level 16).  One such comparison proves the bytes from
 * its start to the end equal to those one distance back, so the last one
 * is remembered in s, and a later comparison at the same distance that
 * starts inside that stretch is answered at once, with the same count. */
XC_FORCE_INLINE size_t bt_count(xc_zbt *s, const uint8_t *ip, const uint8_t *match,
                                const uint8_t *iend)
{
    const uint8_t *const start = ip;
    if (XC_UNLIKELY(ip + 8 > iend)) return xc_zcount(ip, match, iend);
    {
        uint64_t const d = xc_read64(ip) ^ xc_read64(match);
        if (d) return (XC_BIG_ENDIAN ? xc_clz64(d) : xc_ctz64(d)) >> 3;
    }
    size_t const dist = (size_t)(ip - match);
    if (dist == s->run_dist && ip >= s->run_from && iend == s->run_end)
        return (size_t)(iend - start);
    ip += 8;
    match += 8;
    while (ip + 32 <= iend) {
#if defined(XC_ARCH_X64)
        __m128i const e0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)ip),
                                          _mm_loadu_si128((const __m128i *)(const void *)match));
        __m128i const e1 =
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(ip + 16)),
                           _mm_loadu_si128((const __m128i *)(const void *)(match + 16)));
        uint32_t const same = (uint32_t)_mm_movemask_epi8(e0) |
                              ((uint32_t)_mm_movemask_epi8(e1) << 16);
        if (same != 0xFFFFFFFFu) return (size_t)(ip - start) + xc_ctz64(~(uint64_t)same);
#elif defined(XC_ARCH_ARM64) && !XC_BIG_ENDIAN
        uint8x16_t const e0 = vceqq_u8(vld1q_u8(ip), vld1q_u8(match));
        uint8x16_t const e1 = vceqq_u8(vld1q_u8(ip + 16), vld1q_u8(match + 16));
        if (vminvq_u8(vandq_u8(e0, e1)) != 0xFF) {
            /* Narrowing each 16-bit lane by 4 leaves 4 bits per byte, all
             * ones where the bytes agree: a 64-bit mask per half. */
            uint64_t const m0 =
                vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(e0), 4)), 0);
            if (m0 != ~(uint64_t)0) return (size_t)(ip - start) + (xc_ctz64(~m0) >> 2);
            uint64_t const m1 =
                vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(e1), 4)), 0);
            return (size_t)(ip - start) + 16 + (xc_ctz64(~m1) >> 2);
        }
#else
        uint64_t const d0 = xc_read64(ip) ^ xc_read64(match);
        uint64_t const d1 = xc_read64(ip + 8) ^ xc_read64(match + 8);
        uint64_t const d2 = xc_read64(ip + 16) ^ xc_read64(match + 16);
        uint64_t const d3 = xc_read64(ip + 24) ^ xc_read64(match + 24);
        if (d0 | d1 | d2 | d3) {
            unsigned k = 0;
            uint64_t d = d0;
            if (!d) d = d1, k = 8;
            if (!d) d = d2, k = 16;
            if (!d) d = d3, k = 24;
            return (size_t)(ip - start) + k +
                   ((XC_BIG_ENDIAN ? xc_clz64(d) : xc_ctz64(d)) >> 3);
        }
#endif
        ip += 32;
        match += 32;
    }
    ip += xc_zcount(ip, match, iend);
    if (ip == iend) {
        s->run_from = start;
        s->run_end = iend;
        s->run_dist = dist;
    }
    return (size_t)(ip - start);
}

/* Inserts position cur (cur + 8 <= iend) into its tree.  Returns how far
 * the next insertion may skip: 1, or more inside a long repetition. */
XC_FORCE_INLINE uint32_t bt_insert_one(xc_zbt *s, uint32_t cur, const uint8_t *iend, unsigned mls)
{
    const uint8_t *const base = s->base;
    const uint8_t *const ip = base + cur;
    uint32_t *const bt = s->bt;
    uint32_t const mask = s->bt_mask;
    size_t const h = xc_zhash(ip, s->hash_log, bt_key_bytes(mls));
    uint32_t m = s->head[h];
    uint32_t const low = bt_low_for(s, cur);
    uint32_t const reused_below = mask >= cur ? 0 : cur - mask;
    uint32_t *smaller = bt + 2 * (cur & mask);
    uint32_t *larger = smaller + 1;
    uint32_t dummy;
    size_t common_smaller = 0, common_larger = 0;
    size_t best = 8;
    uint32_t match_end = cur + 9; /* one past the furthest byte a match reached */

    s->head[h] = cur;
    /* The next insertion is usually at cur + 1: let its hash head's miss
     * overlap this walk. */
    if (XC_LIKELY(ip + 1 + 8 <= iend))
        XC_PREFETCH(s->head + xc_zhash(ip + 1, s->hash_log, bt_key_bytes(mls)));
    for (uint32_t n = s->compares; n && m >= low; n--) {
        uint32_t *const cells = bt + 2 * (m & mask);
        size_t len = XC_MIN(common_smaller, common_larger);
        len += bt_count(s, ip + len, base + m + len, iend);
        if (len > best) {
            best = len;
            if (len > match_end - m) match_end = m + (uint32_t)len;
        }
        if (ip + len == iend) break;
        if (!bt_link(&smaller, &larger, &common_smaller, &common_larger, cells, &m, len,
                     base[m + len] < ip[len], reused_below, &dummy))
            break;
    }
    *smaller = *larger = 0;
    return xc_zbt_step(best, match_end, cur);
}

/* Inserts positions [s->next, target). */
XC_FORCE_INLINE void btopt_update(xc_zbt *s, uint32_t target, const uint8_t *iend, unsigned mls)
{
    uint32_t idx = s->next;
    while (idx < target) idx += bt_insert_one(s, idx, iend, mls);
    s->next = target;
}

/* The 3-byte hash heads up to (not including) cur, and cur's head. */
XC_FORCE_INLINE uint32_t bt_hash3_update(xc_zbt *s, uint32_t cur)
{
    uint32_t *const head3 = s->head3;
    unsigned const hlog = s->hash3_log;
    for (uint32_t idx = s->next3; idx < cur; idx++) head3[xc_zhash(s->base + idx, hlog, 3)] = idx;
    s->next3 = cur;
    return head3[xc_zhash(s->base + cur, hlog, 3)];
}

/* Whether the first min_match bytes at a and b agree (3 or 4). */
XC_FORCE_INLINE int bt_same_prefix(const uint8_t *a, const uint8_t *b, unsigned min_match)
{
    uint32_t const d = xc_read_le32(a) ^ xc_read_le32(b);
    return (min_match == 3 ? d << 8 : d) == 0;
}

/* The walk down an attached dictionary's tree (libzstd's dictMatchState),
 * after the frame's own: up to n more nodes, writing nothing.  Its nodes
 * are ordered by their suffixes within the content, and a suffix that
 * reaches the content's end is compared here with the frame's bytes after
 * it, where the order may not hold; that can only send the walk down a
 * worse branch, never a wrong length into the list, since every length is
 * counted from the bytes (from the bound the walk keeps, which holds for
 * the nodes the tree ordered correctly, and the content then the frame).
 * Dictionary index d lies (ip's frame position) + dend_idx - d bytes back,
 * beyond every frame candidate, so the list stays ordered by distance.
 * Appends to matches[nb..), keeping only lengths above best; returns the
 * new count. */
XC_FORCE_INLINE uint32_t bt_dict_walk(const xc_zbt *s, xc_zopt_match *matches, uint32_t nb,
                                      size_t best, const uint8_t *ip, const uint8_t *iend,
                                      uint32_t n, unsigned mls)
{
    uint32_t const reach = (uint32_t)(ip - s->prefix) + s->dend_idx;
    uint32_t const dlow = reach > s->window ? reach - s->window : 1;
    uint32_t m = s->dhead[xc_zhash(ip, s->dhash_log, bt_key_bytes(mls))];
    size_t common_smaller = 0, common_larger = 0;
    for (; n && m >= dlow; n--) {
        size_t const len = xc_zdict_count_from(ip, iend, s->dbase, s->dend, s->dend_idx,
                                               s->prefix, m, XC_MIN(common_smaller, common_larger));
        if (len > best) {
            best = len;
            matches[nb].off_value = reach - m + 3;
            matches[nb].len = (uint32_t)len;
            nb++;
            if (len > XC_ZOPT_NUM) break;
        }
        if (ip + len == iend || m <= s->dbt_low) break;
        const uint32_t *const cells = s->dbt + 2 * (m & s->dmask);
        if (xc_zdict_byte(s->dbase, s->dend_idx, s->prefix, m + (uint32_t)len) < ip[len]) {
            common_smaller = len;
            m = cells[1];
        } else {
            common_larger = len;
            m = cells[0];
        }
    }
    return nb;
}

/* Every useful match at ip (ip + 8 <= iend), shortest first, into
 * matches; returns their number.  First the repeat offsets as the decoder
 * will read them after a literal run of length 0 (ll0) or not
 * (RFC 8878 §3.1.2.5: with ll0, Offset_Value 1..3 name rep[1], rep[2]
 * and rep[0] - 1), then (min_match 3) the latest position with the same
 * 3 bytes, then the tree.  A match enters the list only when longer than
 * every one before it. */
XC_FORCE_INLINE uint32_t bt_get_all(xc_zbt *s, xc_zopt_match *matches, const uint8_t *ip,
                                    const uint8_t *iend, const uint32_t rep[3], int ll0,
                                    unsigned mls, int dict)
{
    const uint8_t *const base = s->base;
    uint32_t const cur = (uint32_t)(ip - base);
    if (cur < s->next) return 0; /* inside a repetition skipped above */
    btopt_update(s, cur, iend, mls);
    /* The parse usually asks for the next position soon: start loading
     * its hash heads now, so that the misses overlap this walk. */
    if (XC_LIKELY(ip + 1 + 8 <= iend)) {
        XC_PREFETCH(s->head + xc_zhash(ip + 1, s->hash_log, bt_key_bytes(mls)));
        if (mls == 3) XC_PREFETCH(s->head3 + xc_zhash(ip + 1, s->hash3_log, 3));
    }

    unsigned const min_match = mls == 3 ? 3 : 4;
    uint32_t const sufficient = s->sufficient;
    uint32_t const low = bt_low_for(s, cur);
    uint32_t nb = 0;
    size_t best = min_match - 1;

    for (unsigned r = (unsigned)ll0; r < 3u + (unsigned)ll0; r++) {
        uint32_t const off = r == 3 ? rep[0] - 1 : rep[r];
        size_t len;
        /* off - 1 wraps for 0 (rep[0] - 1 with rep[0] == 1), so this also
         * keeps the match at or after the first valid index. */
        if (off - 1 >= cur - s->start || cur - off < low) {
            /* Attached: a repeat may reach into the content, when its
             * first min_match bytes lie there whole and it is within the
             * window. */
            if (!dict || off == 0 || off - 1 < cur - s->start) continue;
            uint32_t const into = off - (cur - s->start);
            if (into < 4 || into >= s->dend_idx || off > s->window) continue;
            const uint8_t *const m = s->dend - into;
            if (!bt_same_prefix(ip, m, min_match)) continue;
            len = min_match +
                  xc_zcount_2seg(ip + min_match, m + min_match, iend, s->dend, s->prefix);
        } else {
            if (!bt_same_prefix(ip, ip - off, min_match)) continue;
            len = min_match + xc_zcount(ip + min_match, ip + min_match - off, iend);
        }
        if (len > best) {
            best = len;
            matches[nb].off_value = r - (unsigned)ll0 + 1;
            matches[nb].len = (uint32_t)len;
            nb++;
            if (len > sufficient || ip + len == iend) return nb;
        }
    }

    if (mls == 3 && best < 3) {
        uint32_t const m3 = bt_hash3_update(s, cur);
        /* Beyond 256 KiB a 3-byte match saves nothing over literals. */
        if (m3 >= low && cur - m3 < (1u << 18)) {
            size_t const len = xc_zcount(ip, base + m3, iend);
            if (len >= 3) {
                best = len;
                matches[0].off_value = cur - m3 + 3;
                matches[0].len = (uint32_t)len;
                nb = 1;
                if (len > sufficient || ip + len == iend) {
                    s->next = cur + 1;
                    return nb;
                }
            }
        }
    }

    uint32_t *const bt = s->bt;
    uint32_t const mask = s->bt_mask;
    size_t const h = xc_zhash(ip, s->hash_log, bt_key_bytes(mls));
    uint32_t m = s->head[h];
    uint32_t const reused_below = mask >= cur ? 0 : cur - mask;
    uint32_t *smaller = bt + 2 * (cur & mask);
    uint32_t *larger = smaller + 1;
    uint32_t dummy;
    size_t common_smaller = 0, common_larger = 0;
    uint32_t match_end = cur + 9;

    s->head[h] = cur;
    uint32_t n = s->compares;
    int done = 0;
    for (; n && m >= low; n--) {
        uint32_t *const cells = bt + 2 * (m & mask);
        const uint8_t *const match = base + m;
        size_t len = XC_MIN(common_smaller, common_larger);
        len += bt_count(s, ip + len, match + len, iend);
        if (len > best) {
            if (len > match_end - m) match_end = m + (uint32_t)len;
            best = len;
            matches[nb].off_value = cur - m + 3;
            matches[nb].len = (uint32_t)len;
            nb++;
            /* Long enough to be taken at once, or ordered past the end:
             * stop here, dropping the rest of the tree below. */
            if (len > XC_ZOPT_NUM || ip + len == iend) {
                done = 1;
                break;
            }
        }
        if (!bt_link(&smaller, &larger, &common_smaller, &common_larger, cells, &m, len,
                     match[len] < ip[len], reused_below, &dummy))
            break;
    }
    *smaller = *larger = 0;
    s->next = match_end - 8;
    if (dict && !done && n) nb = bt_dict_walk(s, matches, nb, best, ip, iend, n, mls);
    return nb;
}

#endif /* XC_ZSTD_SEARCH_BT_OPT_H */
