/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Row-based match search, for the greedy, lazy and lazy2 strategies with
 * windows above 16 KiB.  Included by the finders that use it; everything
 * here is static and force-inlined into them, working on a local
 * xc_zsearch.
 *
 * Layout.  The hash of min_match bytes, with 8 extra bits, picks a row of
 * R = 2^row_log cells (row_log = search_log clamped to 4..6) and a tag: the
 * extra 8 bits.  A row is a small ring: the hash table holds its R
 * positions, the tag table the tag of each, and the row heads the cell that
 * received the newest position, so the ring reads newest to oldest from the
 * head on.  Inserting a position writes one cell and moves the head back.
 *
 * Search.  The tags of a row are compared with the tag of the current
 * position all at once (8 bytes per 64-bit word: an exact zero-byte test of
 * tags XOR tag, gathered into one bit per cell).  That keeps every cell
 * that may hold a match and, of the others, about one in 256 (those whose
 * hash happens to agree in the 8 tag bits too).  Up to 2^search_log of the
 * kept cells are checked newest first, stopping at the first one out of
 * the window (older ones are older still).  Compared with chains, the
 * candidates' positions sit in one cache line and unpromising ones cost no
 * load at all.
 *
 * The comparison is exact, in portable C, with SSE2 on x64 (the BMI2
 * copy of the finders) or with NEON on Arm64, so the candidates and the order they are tried in,
 * hence the frames, are the same on every ISA and tier.
 *
 * Insertion runs ahead of the searches in a hash cache: each inserted
 * position computes the hash of the one 8 bytes further and prefetches its
 * row, so rows are in cache when they are needed.  After a
 * match longer than 384 bytes, only its first 96 and last 32 positions are
 * inserted: the middle of a long match is rarely where the next one starts.
 *
 * What it may call: the match state and searches (compress/match/).
 */
#ifndef XC_ZSTD_SEARCH_ROW_H
#define XC_ZSTD_SEARCH_ROW_H

#include "zstd/compress/match/match_state.h"

#if defined(XC_ARCH_X64)
#  include <emmintrin.h>
#elif defined(XC_ARCH_ARM64)
#  include <arm_neon.h>
#endif

#define ROW_SKIP_AFTER 384
#define ROW_KEEP_START 96
#define ROW_KEEP_END 32

/* A row's cells take 64 to 256 bytes, one to four cache lines (the tables
 * are aligned to 64 bytes: xc_zstd_cframe_begin), its tags 16 to 64 bytes
 * within one line, and its head one byte: all of them are needed, so all
 * are fetched. */
XC_FORCE_INLINE void row_prefetch(const xc_zsearch *s, uint32_t h)
{
    size_t const row = (size_t)(h >> 8) << s->row_log;
    const uint32_t *const t = s->table + row;
    XC_PREFETCH(t);
    if (s->row_log >= 5) XC_PREFETCH(t + 16);
    if (s->row_log >= 6) {
        XC_PREFETCH(t + 32);
        XC_PREFETCH(t + 48);
    }
    XC_PREFETCH(s->tags + row);
    XC_PREFETCH(s->heads + (h >> 8));
}

/* The tag salt of the frame that starts at index `start`.  Tables are not
 * cleared between frames, so a row still holds the previous frames' cells
 * and tags; when a context compresses similar inputs one after the other,
 * those tags match the new ones, and each such match costs a cell load and
 * a mispredicted exit from the candidate loop before the cell is found to
 * be below the window.  XOR-ing the tags with a per-frame value makes an
 * old tag agree by chance only (1 in 256).  Fresh cells are salted alike,
 * so they match as before and the frame does not change.  The salt is 0
 * for frames that start at index 1 (the first frame of a context, frames
 * with a dictionary, and the dictionaries' own tables, which those frames
 * copy or search), so that tags built by one and read by the other agree. */
XC_FORCE_INLINE uint32_t row_salt(uint32_t start)
{
    return ((start - 1u) * 0x9E3779B1u) >> 24;
}

/* The row (bits 8 and up) and salted tag (bits 0..7) of position p, as
 * the cache holds them. */
XC_FORCE_INLINE uint32_t row_hash(const xc_zsearch *s, const uint8_t *p, unsigned mls)
{
    return (uint32_t)xc_zhash(p, s->hash_bits, mls) ^ row_salt(s->start);
}

/* Called at the first block of a frame that has no history before it (no
 * dictionary, no earlier blocks): sets every row's head to cell 0 and
 * every tag to 0.  Neither is needed for correctness: a ring reads newest
 * to oldest from wherever its head is, every cell the previous frame left
 * is below s->start, and the frame is the same either way (the cells
 * written by this frame come first in the ring, so the search reads the
 * same candidates in the same order before it meets a stale cell).  It is
 * done for speed alone, and the mechanism was not pinned down: the
 * instruction counts, simulated cache misses and the number of stale cells
 * whose tag agrees (a few hundred per 38 KB frame) hardly move, yet
 *  - clearing the heads measured 5-15% faster on repeated frames of 20-40
 *    KiB at levels 5 to 9;
 *  - clearing the tags as well (libzstd 1.5.4 also clears its tags at every
 *    frame) measured 10-12% faster on sum (38 KB) at levels 6 and 7 after a
 *    context had compressed 120 KB of random bytes, 7% on cp.html, and
 *    0-9% on fresh contexts.
 * Each is done only when it costs little beside the block: the heads (one
 * byte per row) when they take at most 4 bytes per byte of the block, the
 * tags (one byte per cell) at most 16, so that a large table over a tiny
 * input (unknown size, streaming) does not pay for it. */
XC_FORCE_INLINE void row_frame_begin(xc_zsearch *s, size_t block_size)
{
    size_t const rows = (size_t)1 << (s->hash_bits - 8);
    if (rows <= 4 * block_size) memset(s->heads, 0, rows);
    if ((rows << s->row_log) <= 16 * block_size) memset(s->tags, 0, rows << s->row_log);
}

/* Fills the cache for the 8 positions from s->next. */
XC_FORCE_INLINE void row_fill_cache(xc_zsearch *s, const uint8_t *iend, unsigned mls)
{
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t const idx = s->next + i;
        const uint8_t *p = s->base + idx;
        if (p + XC_ZSTD_HASH_READ > iend) break;
        uint32_t const h = row_hash(s, p, mls);
        s->cache[idx & 7] = h;
        row_prefetch(s, h);
    }
}

XC_FORCE_INLINE void row_insert_one(xc_zsearch *s, uint32_t idx, uint32_t h)
{
    uint32_t const mask = ((uint32_t)1 << s->row_log) - 1;
    uint32_t const row = h >> 8;
    uint32_t const pos = (s->heads[row] - 1u) & mask;
    size_t const cell = ((size_t)row << s->row_log) + pos;
    s->heads[row] = (uint8_t)pos;
    s->tags[cell] = (uint8_t)h;
    s->table[cell] = idx;
}

/* Takes the hash of position idx from the cache and puts there the hash of
 * idx + 8, prefetching its row (within 16 bytes of iend there is nothing to
 * compute: such positions are never searched in this block; the _inner
 * form is for an idx known to lie before that). */
XC_FORCE_INLINE uint32_t row_next_hash_inner(xc_zsearch *s, uint32_t idx, unsigned mls)
{
    uint32_t const h = s->cache[idx & 7];
    uint32_t const hn = row_hash(s, s->base + idx + 8, mls);
    s->cache[idx & 7] = hn;
    row_prefetch(s, hn);
    return h;
}

XC_FORCE_INLINE uint32_t row_next_hash(xc_zsearch *s, uint32_t idx, size_t end, unsigned mls)
{
    if (XC_LIKELY((size_t)idx + 2 * XC_ZSTD_HASH_READ <= end))
        return row_next_hash_inner(s, idx, mls);
    return s->cache[idx & 7];
}

/* Brings the rows up to date for a search at index cur.  The positions a
 * match covered are inserted in a loop that does not ask, position by
 * position, whether the one 8 ahead is still hashable: only the last 16
 * bytes of a block need that (4 instructions of an insert's 40, on 1 MiB
 * of JSON at level 5). */
XC_FORCE_INLINE void row_update(xc_zsearch *s, uint32_t cur, const uint8_t *iend, unsigned mls)
{
    size_t const end = (size_t)(iend - s->base);
    uint32_t idx = s->next;
    if (XC_UNLIKELY(cur - idx > ROW_SKIP_AFTER)) {
        for (uint32_t stop = idx + ROW_KEEP_START; idx < stop; idx++)
            row_insert_one(s, idx, row_next_hash(s, idx, end, mls));
        s->next = idx = cur - ROW_KEEP_END;
        row_fill_cache(s, iend, mls);
    }
    uint32_t const inner = end >= 2 * XC_ZSTD_HASH_READ
                               ? (uint32_t)XC_MIN((size_t)cur, end - 2 * XC_ZSTD_HASH_READ + 1)
                               : idx;
    for (; idx < inner; idx++) row_insert_one(s, idx, row_next_hash_inner(s, idx, mls));
    for (; idx < cur; idx++) row_insert_one(s, idx, row_next_hash(s, idx, end, mls));
    s->next = cur;
}

/* One bit per cell of the row whose tag equals `tag`, bit j for cell j.
 * Per 8 cells: x = tags ^ tag (a zero byte where they agree); adding 0x7F
 * to the low 7 bits of each byte sets its top bit unless those bits are
 * zero, or-ing x in adds the byte's own top bit, so the complement's top
 * bits mark exactly the zero bytes; a multiplication gathers the 8 top bits
 * into one byte (the partial products land on distinct bits, so nothing
 * carries into it). */
XC_FORCE_INLINE uint64_t row_match_tags(const uint8_t *tags, unsigned row_log, uint8_t tag)
{
    uint64_t const ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t const t = ones * tag;
    uint64_t mask = 0;
    for (unsigned w = 0; w < (1u << row_log) / 8; w++) {
        uint64_t const x = xc_read_le64(tags + 8 * w) ^ t;
        uint64_t const z = ~(((x & low7) + low7) | x | low7);
        mask |= (((z >> 7) * 0x0102040810204080ull) >> 56) << (8 * w);
    }
    return mask;
}

#if defined(XC_ARCH_X64)
/* The same mask with SSE2 (part of every x64 CPU): byte compares and the
 * sign-bit gather, 16 cells at a time. */
XC_FORCE_INLINE uint64_t row_match_tags_sse2(const uint8_t *tags, unsigned row_log, uint8_t tag)
{
    __m128i const t = _mm_set1_epi8((char)tag);
    uint64_t mask = 0;
    for (unsigned w = 0; w < (1u << row_log) / 16; w++) {
        __m128i const v = _mm_loadu_si128((const __m128i *)(const void *)(tags + 16 * w));
        mask |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, t)) << (16 * w);
    }
    return mask;
}
#elif defined(XC_ARCH_ARM64)
/* The same mask with NEON (part of every Arm64 CPU), 16 cells at a time:
 * the byte compares give 0xFF or 0; keeping bit (j % 8) of byte j and
 * summing each half of the vector packs the 16 results into 16 bits (the
 * kept bits are distinct within a half, so the sums do not carry). */
XC_FORCE_INLINE uint64_t row_match_tags_neon(const uint8_t *tags, unsigned row_log, uint8_t tag)
{
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                        1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t const w = vld1q_u8(weights);
    uint8x16_t const t = vdupq_n_u8(tag);
    uint64_t mask = 0;
    for (unsigned i = 0; i < (1u << row_log) / 16; i++) {
        uint8x16_t const bits = vandq_u8(vceqq_u8(vld1q_u8(tags + 16 * i), t), w);
        uint64_t const lo = vaddv_u8(vget_low_u8(bits));
        uint64_t const hi = vaddv_u8(vget_high_u8(bits));
        mask |= (lo | (hi << 8)) << (16 * i);
    }
    return mask;
}
#endif

/* The tag mask of a row (row_match_tags()), with SSE2 on x64 or NEON on
 * Arm64 when simd asks for it: the same bits either way. */
XC_FORCE_INLINE uint64_t row_tag_mask(const uint8_t *tags, unsigned row_log, uint8_t tag, int simd)
{
#if defined(XC_ARCH_X64)
    if (simd) return row_match_tags_sse2(tags, row_log, tag);
#elif defined(XC_ARCH_ARM64)
    if (simd) return row_match_tags_neon(tags, row_log, tag);
#endif
    (void)simd;
    return row_match_tags(tags, row_log, tag);
}

/* Rotates a row's mask so that bit k is the k-th newest cell of a row
 * whose newest cell is `head`.  Without a branch on head == 0 (where
 * head falls is as good as random, and the test mispredicted a third of
 * the time): the left shift is taken mod 64, so head 0 shifts a 64-cell
 * mask by 0 and a narrower one past its cells, which `all` drops. */
XC_FORCE_INLINE uint64_t row_rotate(uint64_t m, unsigned head, uint32_t cells)
{
    uint64_t const all = cells == 64 ? ~0ull : ((uint64_t)1 << cells) - 1;
    return ((m >> head) | (m << ((cells - head) & 63))) & all;
}

/* Appends to cand[*nc] the positions held by the cells of the rotated mask
 * m, newest first, in the row of `cells` cells from `first` in `table`
 * whose newest cell is `head`, prefetching the bytes at base + each.  Takes
 * one of *attempts per cell and stops at the first cell below low: older
 * cells are older still. */
XC_FORCE_INLINE void row_collect(const uint32_t *table, size_t first, unsigned head,
                                 uint32_t cells, uint64_t m, uint32_t low,
                                 const uint8_t *base, unsigned *attempts, uint32_t *cand,
                                 unsigned *nc)
{
    for (; m && *attempts > 0; m &= m - 1, --*attempts) {
        uint32_t const idx = table[first + ((head + xc_ctz64(m)) & (cells - 1))];
        if (idx < low) break;
        XC_PREFETCH(base + idx);
        cand[(*nc)++] = idx;
    }
}

/* The longest match at ip = base + cur among the nc candidates (positions
 * at base + cand[i]) that beats best, which it returns, its offset in
 * *offset; stops at a match that reaches iend. */
XC_FORCE_INLINE size_t row_best(const uint8_t *base, const uint32_t *cand, unsigned nc,
                                const uint8_t *ip, const uint8_t *iend, uint32_t cur,
                                size_t best, uint32_t *offset)
{
    for (unsigned i = 0; i < nc; i++) {
        const uint8_t *const match = base + cand[i];
        /* best < iend - ip, so the 4-byte loads stay inside the input. */
        if (xc_read32(match + best - 3) == xc_read32(ip + best - 3)) {
            size_t const len = xc_zcount(ip, match, iend);
            if (len > best) {
                best = len;
                *offset = cur - cand[i];
                if (ip + len == iend) break;
            }
        }
    }
    return best;
}

/* The cells of ip's row that carry its tag and lie at or above low, into
 * cand[*nc..] (newest first, up to *attempts of them); then ip joins its
 * row, which it must only do after the row was read. */
XC_FORCE_INLINE void row_gather(xc_zsearch *s, const uint8_t *ip, const uint8_t *iend,
                                unsigned mls, uint32_t low, int simd, unsigned *attempts,
                                uint32_t *cand, unsigned *nc)
{
    const uint8_t *const base = s->base;
    unsigned const row_log = s->row_log;
    uint32_t const cells = (uint32_t)1 << row_log;
    uint32_t const cur = (uint32_t)(ip - base);
    row_update(s, cur, iend, mls);
    uint32_t const h = row_next_hash(s, cur, (size_t)(iend - base), mls);
    uint32_t const row = h >> 8;
    size_t const first = (size_t)row << row_log;
    /* A head never written in this frame may hold anything; masked, it
     * still names a cell, and every cell of such a row is stale. */
    unsigned const head = s->heads[row] & (cells - 1);
    uint64_t const m = row_rotate(row_tag_mask(s->tags + first, row_log, (uint8_t)h, simd), head,
                                  cells);
    row_collect(s->table, first, head, cells, m, low, base, attempts, cand, nc);
    row_insert_one(s, cur, h);
    s->next = cur + 1;
}

/* The longest match at ip (at least 4 bytes to count) among the cells of
 * its row that carry its tag; its offset in *offset.  Returns 3 or less
 * when there is none.  ip is inserted as well.  simd picks the SSE2 tag
 * comparison on x64, NEON on Arm64 (same result). */
XC_FORCE_INLINE size_t row_search(xc_zsearch *s, const uint8_t *ip, const uint8_t *iend,
                                  unsigned mls, uint32_t *offset, int simd)
{
    uint32_t const cur = (uint32_t)(ip - s->base);
    uint32_t const low = cur - s->start > s->window ? cur - s->window : s->start;
    unsigned attempts = XC_MIN(s->attempts, (uint32_t)1 << s->row_log);
    uint32_t cand[64];
    unsigned nc = 0;
    row_gather(s, ip, iend, mls, low, simd, &attempts, cand, &nc);
    return row_best(s->base, cand, nc, ip, iend, cur, 3, offset);
}

#endif /* XC_ZSTD_SEARCH_ROW_H */
