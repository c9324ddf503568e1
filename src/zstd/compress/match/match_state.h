/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The match state every match finder works on, the finder interface, the
 * table fills for history placed before a block (match_fill.c), the
 * searching finders' local state, and the helpers every finder shares:
 * match length, window bound, hashing.
 *
 * Indices.  Match finders remember positions as 32-bit indices: index i is
 * the byte ms->base[i].  A frame's first byte has index ms->start (>= 1),
 * and every index below start is invalid: table entries left from earlier
 * frames are all below it, so a context reused for the next frame starts
 * that frame's indices after the last one's instead of clearing its tables
 * (clearing megabytes of tables would dominate small inputs), and a freshly
 * zeroed table holds only invalid entries.  Results therefore do not depend
 * on what the context did before.  (As in libzstd, base itself may point
 * before the buffer; only base + i for valid indices is ever dereferenced.)
 * When indices would grow too large (one-shot inputs of gigabytes) or the
 * stream buffer slides, xc_zstd_ms_rebase() subtracts the same amount from
 * every table entry and the caller moves base (or the data) to match.
 *
 * The window.  A block whose last byte has index end - 1 may only take
 * matches at indices >= max(start, end - window), which keeps every offset
 * below the window size declared in the frame header.  Repeat offsets are
 * checked against start only: they never exceed the window (a repeat offset
 * is an offset used before, or one of the initial 1, 4, 8), so what matters
 * is that their bytes belong to the frame.
 *
 * It may include the parameters and the sequence store, nothing above
 * them: the frame layer hands a finder a match state and a store, and the
 * finder never reaches back into the context.
 */
#ifndef XC_ZSTD_MATCH_STATE_H
#define XC_ZSTD_MATCH_STATE_H

#include "zstd/compress/compress_params.h"
#include "zstd/compress/compress_seqstore.h"

/* ---- the match state and the match finder interface ---------------------- */

typedef struct {
    const uint8_t *base;      /* index i is base[i] */
    uint32_t start;           /* index of the frame's first byte; lower ones are invalid */
    uint32_t *hash_table;     /* 1 << hash_log entries */
    uint32_t *chain_table;    /* 1 << chain_log entries (dfast: the short hash) */
    size_t hash_size;         /* entries in each, 0 when absent */
    size_t chain_size;
    uint32_t next_to_update;  /* first index not yet inserted (strategies that insert lazily) */
    uint32_t hash_cache[8];   /* hashes of positions just ahead, by index % 8 (match_lazy_tmpl.h) */
    /* Row-based search (match_search_row.h): 0, or the log of the cells per
     * row, with a tag byte per cell of hash_table and a head per row. */
    unsigned row_log;
    uint8_t *tag_table;
    uint8_t *row_heads;
    xc_zstd_cparams p;
    /* The optimal parsers (btopt and up, min_match 3): heads of 3-byte
     * hashes (1 << hash3_log entries, in the tables), and the parser's
     * statistics and work area (match_opt_price.h), kept between frames. */
    uint32_t *hash3_table;
    size_t hash3_size;
    unsigned hash3_log;
    struct xc_zopt_s *opt;
    /* A prepared dictionary searched in place (match_fast_dict_tmpl.h,
     * match_lazy_tmpl.h), or NULL. */
    const xc_zstd_cdict *dict;
} xc_zmatch_state;

/* Finders start on a 64-byte boundary, so that their loops sit at the same
 * place relative to the fetch windows in every program that links the
 * library.  Placed at 48 bytes past a boundary by one program's link, the
 * lazy2 finder ran sum (38 KB) at level 7 0.84-0.90x libzstd's speed; at a
 * boundary, 0.95-1.05x. */
#define XC_ZFINDER_ALIGN XC_ALIGNED(64)
#define XC_ZFINDER_ARGS                                                                     \
    xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3], const uint8_t *src, size_t size

/* A match finder parses src[0..size), a block whose bytes are at indices
 * src - ms->base onwards and whose history is everything before it in the
 * window.  It appends sequences to ss (without the trailing literals),
 * updates rep[0..2] exactly as the decoder will after these sequences, and
 * returns the number of literals left after the last sequence.  size is at
 * most one block; the caller stores those literals. */
typedef size_t (*xc_zstd_block_fn)(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                   const uint8_t *src, size_t size);

/* match_fill.c: insert every position from ms->next_to_update to the last
 * one whose 8 hashed bytes end by iend into the search structure (hash
 * chains, rows, binary trees), so that a block starting at iend finds them
 * as matches: for history such as a dictionary placed at [ms->start, iend).
 * xc_zstd_fill_search() calls the one the match state's strategy uses
 * (greedy, lazy, lazy2, btlazy2; nothing for the others). */
XC_HIDDEN void xc_zstd_fill_hc(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN void xc_zstd_fill_row(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN void xc_zstd_fill_bt(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN void xc_zstd_fill_search(xc_zmatch_state *ms, const uint8_t *iend);

/* match_fill.c: inserts every position from ms->next_to_update up to the
 * last one whose hash can be read before iend into the binary tree (and
 * the 3-byte hash heads) of the optimal parsers, so that a block starting
 * at iend finds them as history; for dictionary content loaded ahead of a
 * frame.  The match state must be set up for btopt, btultra or btultra2. */
XC_HIDDEN void xc_zstd_fill_bt_opt(xc_zmatch_state *ms, const uint8_t *iend);

/* match_fill.c: the fills of a prepared dictionary's tables.  fast and
 * dfast insert every third position and then the others into cells still
 * empty (as libzstd fills a dictionary's table); btlazy2 sorts every
 * position into its tree.  xc_zstd_fill_fn_for() gives the fill of a
 * strategy, NULL when it has none (its finder inserts lazily from
 * next_to_update on its first search). */
typedef void (*xc_zstd_fill_fn)(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN void xc_zstd_fill_fast(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN void xc_zstd_fill_dfast(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN xc_zstd_fill_fn xc_zstd_fill_fn_for(unsigned strategy);

/* match_fill.c: the last position whose 8 hashed bytes end by iend, plus
 * one (0 when none). */
XC_HIDDEN uint32_t xc_zstd_hash_end(const xc_zmatch_state *ms, const uint8_t *iend);

/* match_fill.c: after a frame that wrote its positions [from, to) into
 * copies of a prepared dictionary's tables, puts back what they held:
 * fast's cells (from `cells`), dfast's long and short cells, or the rows
 * of greedy, lazy and lazy2 (from the dictionary's match state dms). */
XC_HIDDEN void xc_zstd_restore_fast(xc_zmatch_state *ms, uint32_t from, uint32_t to,
                                    const uint32_t *cells);
XC_HIDDEN void xc_zstd_restore_dfast(xc_zmatch_state *ms, uint32_t from, uint32_t to,
                                     const uint32_t *cells_long, const uint32_t *cells_short);
XC_HIDDEN void xc_zstd_restore_rows(xc_zmatch_state *ms, uint32_t from, uint32_t to,
                                    const xc_zmatch_state *dms);

/* The log of the 3-byte hash table the optimal parsers use with
 * min_match 3 (0 when none): up to 128 Ki heads, fewer for small windows. */
static inline unsigned xc_zstd_hash3_log(const xc_zstd_cparams *p)
{
    if (p->strategy < XC_ZSTRAT_BTOPT || p->min_match != 3) return 0;
    return XC_MIN(17u, p->window_log);
}

/* match_fill.c: subtracts shift from every table entry (entries below it become 0), for
 * a caller that is about to move base forward by shift bytes or the data
 * back by as many. */
XC_HIDDEN void xc_zstd_ms_rebase(xc_zmatch_state *ms, uint32_t shift);

/* The state of the searching finders (greedy, lazy, lazy2, btlazy2), copied
 * from the match state into a local variable for the length of a block.
 * Table writes go through uint8_t and uint32_t pointers, which the compiler
 * must assume may alias the match state's fields; a local copy whose
 * address never escapes cannot be aliased, so its fields stay in registers
 * instead of being reloaded after every store. */
typedef struct {
    const uint8_t *base;
    uint32_t *table;      /* hash_table: chain heads, or row cells */
    uint32_t *chain;      /* chain_table (hash chains) */
    uint8_t *tags;        /* tag_table (rows) */
    uint8_t *heads;       /* row_heads (rows) */
    uint32_t chain_size;
    unsigned hash_bits;   /* bits of the position hash */
    unsigned row_log;
    uint32_t start;
    uint32_t window;
    unsigned attempts;    /* 2^search_log */
    uint32_t next;        /* next_to_update */
    uint32_t cache[8];    /* hash_cache */
} xc_zsearch;

static inline void xc_zsearch_open(xc_zsearch *s, const xc_zmatch_state *ms)
{
    s->base = ms->base;
    s->table = ms->hash_table;
    s->chain = ms->chain_table;
    s->tags = ms->tag_table;
    s->heads = ms->row_heads;
    s->chain_size = (uint32_t)ms->chain_size;
    s->row_log = ms->row_log;
    s->hash_bits = ms->row_log ? ms->p.hash_log - ms->row_log + 8 : ms->p.hash_log;
    s->start = ms->start;
    s->window = (uint32_t)1 << ms->p.window_log;
    s->attempts = 1u << XC_MIN(ms->p.search_log, 24u);
    s->next = ms->next_to_update;
    memcpy(s->cache, ms->hash_cache, sizeof s->cache);
}

static inline void xc_zsearch_close(const xc_zsearch *s, xc_zmatch_state *ms)
{
    ms->next_to_update = s->next;
    memcpy(ms->hash_cache, s->cache, sizeof s->cache);
}

/* Whether the parameters call for row-based search (as libzstd decides:
 * the greedy and lazy strategies, with windows above 16 KiB), and then the
 * log of the cells per row, else 0. */
static inline unsigned xc_zstd_row_log(const xc_zstd_cparams *p)
{
    if (p->strategy < XC_ZSTRAT_GREEDY || p->strategy > XC_ZSTRAT_LAZY2) return 0;
    if (p->window_log <= 14) return 0;
    return XC_MIN(XC_MAX(p->search_log, 4u), 6u);
}

/* The lowest index a match for the block ending before index end may take. */
static inline uint32_t xc_zwindow_low(const xc_zmatch_state *ms, uint32_t end)
{
    uint32_t const w = (uint32_t)1 << ms->p.window_log;
    uint32_t const low = end > w ? end - w : 0;
    return low > ms->start ? low : ms->start;
}

/* Bytes ip[0..) and match[0..) agree on, counting no further than iend
 * (where ip's readable input stops).  8 bytes at a time: the first byte
 * that differs is the lowest set byte of the XOR on a little-endian load,
 * the highest on a big-endian one, so the count is the same everywhere. */
XC_FORCE_INLINE size_t xc_zcount(const uint8_t *ip, const uint8_t *match, const uint8_t *iend)
{
    const uint8_t *const start = ip;
    while (XC_LIKELY(ip + 8 <= iend)) {
        uint64_t diff = xc_read64(ip) ^ xc_read64(match);
        if (diff) {
            unsigned bits = XC_BIG_ENDIAN ? xc_clz64(diff) : xc_ctz64(diff);
            return (size_t)(ip - start) + (bits >> 3);
        }
        ip += 8;
        match += 8;
    }
    while (ip < iend && *ip == *match) {
        ip++;
        match++;
    }
    return (size_t)(ip - start);
}

/* How many bytes before ip and before match agree, at most max (the
 * bytes both may step back over: to the anchor and to the match's segment
 * start).  The catch-up after a hashed match: at the fast levels the
 * positions searched lie several bytes apart, so it runs 0 to 7 steps,
 * which a byte loop mispredicted at nearly every match; one 8-byte compare
 * answers it when 8 bytes are there to read.  On a little-endian load the
 * byte just before ip is the top byte of the XOR, so the leading zero
 * bytes count the agreement. */
XC_FORCE_INLINE size_t xc_zcount_back(const uint8_t *ip, const uint8_t *match, size_t max)
{
    size_t n = 0;
    if (XC_LIKELY(max >= 8)) {
        uint64_t const diff = xc_read64(ip - 8) ^ xc_read64(match - 8);
        if (XC_LIKELY(diff != 0))
            return (XC_BIG_ENDIAN ? xc_ctz64(diff) : xc_clz64(diff)) >> 3;
        n = 8;
    }
    while (n < max && ip[-1 - (ptrdiff_t)n] == match[-1 - (ptrdiff_t)n]) n++;
    return n;
}

/* Whether the first `width` bytes (4 or 8) at ip match those at candidate
 * index idx, which counts only inside the window (idx >= low).  Two ways
 * to ask, the same answer:
 * - masked: in small windows (small frames, a reused context) most slots
 *   hold older frames' positions, as good as random, and a branch on them
 *   mispredicts.  The index is chosen with a mask: a stale slot reads
 *   ip itself and the test refuses it.  (A pointer chosen with a mask
 *   cost two operations more: random 4 KiB records at -7 ran 0.92x
 *   libzstd's speed, now 1.08x.)
 * - branched: in large windows nearly every slot is live, the branch is
 *   always right, and the candidate's load starts without waiting for the
 *   comparison with low. */
XC_FORCE_INLINE int xc_zcand(const uint8_t *ip, const uint8_t *base, uint32_t idx, uint32_t low,
                             int masked, unsigned width)
{
    if (masked) {
        /* The index is selected with a mask, not a branch (which GCC
         * makes of a conditional): a stale slot reads ip itself, and the
         * test refuses it. */
        uint32_t const dead = (uint32_t)0 - (uint32_t)(idx < low);
        uint32_t const at = idx ^ ((idx ^ (uint32_t)(ip - base)) & dead);
        if (width == 8) return ((xc_read64(ip) ^ xc_read64(base + at)) | (dead & 1)) == 0;
        return ((xc_read32(ip) ^ xc_read32(base + at)) | (dead & 1)) == 0;
    }
    if (width == 8) return idx >= low && xc_read64(ip) == xc_read64(base + idx);
    return idx >= low && xc_read32(ip) == xc_read32(base + idx);
}

/* The 4-byte test of the fast finders and dfast's short table, and the
 * 8-byte one of dfast's long table. */
XC_FORCE_INLINE int xc_zcand4(const uint8_t *ip, const uint8_t *base, uint32_t idx, uint32_t low,
                              int masked)
{
    return xc_zcand(ip, base, idx, low, masked, 4);
}

XC_FORCE_INLINE int xc_zcand8(const uint8_t *ip, const uint8_t *base, uint32_t idx, uint32_t low,
                              int masked)
{
    return xc_zcand(ip, base, idx, low, masked, 8);
}

/* Moves a match found at *ip back over the bytes before it that agree
 * (not before anchor, nor below mlow, the start of the match's segment);
 * returns how many. */
XC_FORCE_INLINE size_t xc_zcatch_up(const uint8_t **ip, const uint8_t **match,
                                    const uint8_t *anchor, const uint8_t *mlow)
{
    size_t const b =
        xc_zcount_back(*ip, *match, XC_MIN((size_t)(*ip - anchor), (size_t)(*match - mlow)));
    *ip -= b;
    *match -= b;
    return b;
}

/* xc_zcount() for a match that may lie in another segment: m in a segment
 * ending at mend (a dictionary's content searched in place) goes on at
 * `next` (the frame's first byte) when it reaches mend; mend NULL for a
 * match in the same segment as ip. */
XC_FORCE_INLINE size_t xc_zcount_2seg(const uint8_t *ip, const uint8_t *m, const uint8_t *iend,
                                      const uint8_t *mend, const uint8_t *next)
{
    if (!mend) return xc_zcount(ip, m, iend);
    const uint8_t *const lim = (size_t)(iend - ip) > (size_t)(mend - m) ? ip + (mend - m) : iend;
    size_t const n = xc_zcount(ip, m, lim);
    if (m + n != mend) return n;
    return n + xc_zcount(ip + n, next, iend);
}

/* An attached dictionary seen from a frame (libzstd's dictMatchState):
 * index i below dend_idx is the content's byte dbase[i] (the content ends
 * at dend, index dend_idx), and from dend_idx on the frame's bytes follow,
 * prefix[i - dend_idx].  The byte at index i, and how far ip[k..) agrees
 * with the bytes from index m + k on. */
XC_FORCE_INLINE uint8_t xc_zdict_byte(const uint8_t *dbase, uint32_t dend_idx,
                                      const uint8_t *prefix, uint32_t i)
{
    return i < dend_idx ? dbase[i] : prefix[i - dend_idx];
}

XC_FORCE_INLINE size_t xc_zdict_count_from(const uint8_t *ip, const uint8_t *iend,
                                           const uint8_t *dbase, const uint8_t *dend,
                                           uint32_t dend_idx, const uint8_t *prefix,
                                           uint32_t m, size_t k)
{
    size_t const i = (size_t)m + k;
    if (i < dend_idx) return k + xc_zcount_2seg(ip + k, dbase + i, iend, dend, prefix);
    return k + xc_zcount(ip + k, prefix + (i - dend_idx), iend);
}

/* How far a binary-tree insertion at cur may step after its walk: past the
 * positions a candidate's match already covers (match_end, initially
 * cur + 9, is one past the furthest byte one reached, in candidate
 * coordinates), and after a match of hundreds of bytes (best) past most of
 * it, whose trees would only get the same long match again.  At least 1. */
XC_FORCE_INLINE uint32_t xc_zbt_step(size_t best, uint32_t match_end, uint32_t cur)
{
    uint32_t const skip = best > 384 ? XC_MIN(192u, (uint32_t)(best - 384)) : 0;
    uint32_t const covered = match_end - (cur + 8);
    return XC_MAX(skip, covered);
}

/* Repeat offsets that point before index 0 at the start of a block (the
 * initial 1, 4, 8 at the very start of a frame) must not be tried, so the
 * fast finders replace them by 0, which their checks skip, and put them back
 * at the end of the block: restore them here.  The finders only ever push a
 * new offset in front (r0, r1, r2 = new, r0, r1) or swap r0 and r1 when r1
 * is nonzero, so the zeros keep their original order (the one from rep[0]
 * ahead of the one from rep[1]) and the last zero to fall off is rep[1]'s.
 * Hence: hand the disabled values back to the zeros in order. */
static inline void xc_zrep_restore(uint32_t rep[3], uint32_t r0, uint32_t r1, uint32_t r2,
                                   uint32_t off0, uint32_t off1)
{
    uint32_t out[3] = {r0, r1, r2};
    uint32_t pending[2];
    unsigned np = 0, next = 0;
    if (off0) pending[np++] = off0;
    if (off1) pending[np++] = off1;
    for (unsigned i = 0; i < 3; i++)
        if (out[i] == 0 && next < np) out[i] = pending[next++];
    rep[0] = out[0];
    rep[1] = out[1];
    rep[2] = out[2];
}

/* Hash of the first mls bytes at p (4 <= mls <= 8) into hlog bits.  The
 * bytes are read little-endian on every host and moved to the top of a
 * 64-bit word, where a multiplication by an odd constant mixes each of them
 * into the high bits that are kept: the same input hashes the same way on
 * every ISA and byte order. */
#define XC_ZHASH_PRIME 0x9E3779B185EBCA87ull

XC_FORCE_INLINE size_t xc_zhash(const uint8_t *p, unsigned hlog, unsigned mls)
{
    uint64_t v = xc_read_le64(p) << (64 - 8 * mls);
    return (size_t)((v * XC_ZHASH_PRIME) >> (64 - hlog));
}

#endif
