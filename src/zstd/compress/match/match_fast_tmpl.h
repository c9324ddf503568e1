/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The "fast" match finder (levels 1 and below): one hash table mapping the
 * hash of the next min_match bytes to the last position that had it, a
 * single candidate per position, and a greedy parse.
 *
 * Where the time goes.  Searching a position is a chain of dependent
 * memory accesses: load the input to hash it, load the table cell, load the
 * candidate's bytes, compare.  Done one position at a time, their latencies
 * add up.  The loop below works on two neighbouring positions at a time and
 * keeps the stages of the next position in flight while it finishes the
 * current one: the hash of position n+1 and its table load are issued
 * before the candidate of position n is compared, so the out-of-order core
 * overlaps them.  A found match throws the pipeline away and refills it
 * after the match, which is cheap next to the bytes the match covers.
 *
 * Before the hash candidate of a pair, the repeat offset is tried at the
 * pair's first position: text and tables repeat distances often, a repeat
 * match costs the fewest bits, and its bytes are already close in cache.
 *
 * Incompressible data: each 128 bytes without a match widen the gap
 * between pairs by one, so the finder skims through data that does not
 * compress in ever larger strides (and prefetches ahead, since it now
 * outruns the hardware prefetcher).  Negative levels start with a wider gap
 * (the target_length parameter, "acceleration") and keep their literals
 * raw (see compress_block.c): that is what makes them faster.
 *
 * Hash table cells written ahead of the parse must never name a position at
 * or after where the parse resumes, or a later candidate would have a
 * negative offset: each early write below says why it is safe.
 *
 * This file is a template: every ISA variant of the encoder includes it
 * (after match_tmpl.h has set the variant's target and SIMD flag) and so
 * compiles its own copy of these finders; the entry points are static and
 * reach the rest of the encoder through the variant's kernel table
 * (compress_kernels.h).  It may call the match state and sequence store of
 * compress_internal.h and the search headers of this folder, nothing above
 * them.
 */
#ifndef XC_ZSTD_MATCH_FAST_TMPL_H
#define XC_ZSTD_MATCH_FAST_TMPL_H
#include "zstd/compress/match/match_state.h"

/* Bytes without a match after which the stride grows by one. */
#define FAST_STRIDE_STEP 128

/* Windows below 2^19 test candidates with a mask (xc_zcand4): the mask
 * measured 13% slower in large ones (1 MiB of executables at -1).
 * libzstd 1.5.5 splits the same way, at the same window log. */
#define FAST_MASKED_BELOW_WLOG 19

XC_FORCE_INLINE size_t fast_body(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                 const uint8_t *const src, size_t const size, unsigned const mls,
                                 int const accel, int const masked)
{
    uint32_t *const ht = ms->hash_table;
    unsigned const hlog = ms->p.hash_log;
    const uint8_t *const base = ms->base;
    const uint8_t *const iend = src + size;
    const uint8_t *const ilimit = iend - XC_ZSTD_HASH_READ;
    uint32_t const low = xc_zwindow_low(ms, (uint32_t)(iend - base));
    const uint8_t *const low_p = base + low;
    /* Distance from one pair to the next: 2 when pairs are adjacent. */
    size_t const gap0 = accel ? (size_t)ms->p.target_length + 1 : 2;

    const uint8_t *anchor = src;
    /* The frame's first byte has no history to match. */
    const uint8_t *ip0 = src + (src == base + ms->start);
    const uint8_t *ip1, *ip2, *ip3;
    const uint8_t *match0;
    const uint8_t *next_step;
    size_t step, h0, h1, mlen;
    uint32_t idx, cur0, off_value;

    xc_zcursor out = xc_zcursor_open(ss);
    uint32_t r0 = rep[0], r1 = rep[1], r2 = rep[2];
    uint32_t off0 = 0, off1 = 0;
    {
        uint32_t const max_rep = (uint32_t)(ip0 - base) - ms->start;
        if (r0 > max_rep) off0 = r0, r0 = 0;
        if (r1 > max_rep) off1 = r1, r1 = 0;
    }

restart:
    step = gap0;
    next_step = ip0 + FAST_STRIDE_STEP;
    ip1 = ip0 + 1;
    ip2 = ip0 + step;
    ip3 = ip2 + 1;
    if (ip3 >= ilimit) goto done;

    h0 = xc_zhash(ip0, hlog, mls);
    h1 = xc_zhash(ip1, hlog, mls);
    idx = ht[h0];

    do {
        /* First position of the pair: the repeat offset at ip2 (the next
         * pair's first position), then the hash candidate at ip0. */
        uint32_t const rep_bytes = xc_read32(ip2 - r0);
        cur0 = (uint32_t)(ip0 - base);
        ht[h0] = cur0;
        if ((xc_read32(ip2) == rep_bytes) & (r0 > 0)) {
            ip0 = ip2;
            match0 = ip0 - r0;
            /* ip2 is at least two past ip0, so one byte back stays after
             * the anchor; r0 was checked against the block start. */
            mlen = ip0[-1] == match0[-1];
            ip0 -= mlen;
            match0 -= mlen;
            mlen += 4;
            off_value = 1;
            /* ip1 < ip2 - 1 <= the match start. */
            ht[h1] = (uint32_t)(ip1 - base);
            goto extend;
        }
        {
            if (xc_zcand4(ip0, base, idx, low, masked)) {
                /* ip1 = ip0 + 1 and the match covers at least 4 bytes. */
                ht[h1] = (uint32_t)(ip1 - base);
                goto new_offset;
            }
        }

        /* Second position of the pair. */
        idx = ht[h1];
        h0 = h1;
        h1 = xc_zhash(ip2, hlog, mls);
        ip0 = ip1;
        ip1 = ip2;
        ip2 = ip3;
        cur0 = (uint32_t)(ip0 - base);
        ht[h0] = cur0;
        {
            if (xc_zcand4(ip0, base, idx, low, masked)) {
                /* ip1 = ip0 + step - 1: before the end of a match of at
                 * least 4 bytes only while step <= 4. */
                if (step <= 4) ht[h1] = (uint32_t)(ip1 - base);
                goto new_offset;
            }
        }

        /* Advance to the next pair. */
        idx = ht[h1];
        h0 = h1;
        h1 = xc_zhash(ip2, hlog, mls);
        ip0 = ip1;
        ip1 = ip2;
        ip2 = ip0 + step;
        ip3 = ip1 + step;
        if (ip2 >= next_step) {
            step++;
            XC_PREFETCH(ip1 + 64);
            XC_PREFETCH(ip1 + 128);
            next_step += FAST_STRIDE_STEP;
        }
    } while (ip3 < ilimit);

done:
    xc_zcursor_close(ss, out);
    xc_zrep_restore(rep, r0, r1, r2, off0, off1);
    return (size_t)(iend - anchor);

new_offset:
    match0 = base + idx;
    r2 = r1;
    r1 = r0;
    r0 = (uint32_t)(ip0 - match0);
    off_value = r0 + 3;
    mlen = 4;
    if (accel && gap0 > 2) {
        /* Searched positions lie target_length + 1 apart: the catch-up
         * runs 0 to 7 steps, and one compare beats a loop mispredicting
         * (text at -7: 1.03x -> 1.09x libzstd's speed).  With adjacent
         * pairs (levels 1 and -1) it is 0 or 1 steps, which the loop
         * predicts better. */
        mlen += xc_zcatch_up(&ip0, &match0, anchor, low_p);
    } else {
        while ((ip0 > anchor) & (match0 > low_p) && ip0[-1] == match0[-1]) {
            ip0--;
            match0--;
            mlen++;
        }
    }

extend:
    mlen += xc_zcount(ip0 + mlen, match0 + mlen, iend);
    xc_zput_seq(&out, (size_t)(ip0 - anchor), anchor, iend, off_value, mlen);
    ip0 += mlen;
    anchor = ip0;

    if (ip0 <= ilimit) {
        /* Positions inside the match that the loop skipped: two of them
         * are enough to find most continuations. */
        ht[xc_zhash(base + cur0 + 2, hlog, mls)] = cur0 + 2;
        ht[xc_zhash(ip0 - 2, hlog, mls)] = (uint32_t)(ip0 - 2 - base);

        /* A match right after a match, at the previous offset: no
         * literals between them, so Offset_Value 1 names r1 (§3.1.2.5),
         * and r0 and r1 swap. */
        while (ip0 <= ilimit && ((r1 > 0) & (xc_read32(ip0) == xc_read32(ip0 - r1)))) {
            size_t const rlen = 4 + xc_zcount(ip0 + 4, ip0 + 4 - r1, iend);
            uint32_t const t = r1;
            r1 = r0;
            r0 = t;
            ht[xc_zhash(ip0, hlog, mls)] = (uint32_t)(ip0 - base);
            xc_zput_seq(&out, 0, anchor, iend, 1, rlen);
            ip0 += rlen;
            anchor = ip0;
        }
    }
    goto restart;
}

/* One copy per hash width, acceleration and way of testing a candidate,
 * so that each loop runs with constants, and each of those twice
 * (XC_ZFINDER). */
#define FAST_COPIES(m)                                                                      \
    XC_ZFINDER(fast_##m##_0, fast_body(ms, ss, rep, src, size, m, 0, 0))                    \
    XC_ZFINDER(fast_##m##_1, fast_body(ms, ss, rep, src, size, m, 1, 0))                    \
    XC_ZFINDER(fast_##m##_0m, fast_body(ms, ss, rep, src, size, m, 0, 1))                   \
    XC_ZFINDER(fast_##m##_1m, fast_body(ms, ss, rep, src, size, m, 1, 1))
FAST_COPIES(4)
FAST_COPIES(5)
FAST_COPIES(6)
FAST_COPIES(7)

static size_t finder_fast(XC_ZFINDER_ARGS)
{
    /* [masked][accelerated][min_match - 4] */
    static const xc_zstd_block_fn copies[2][2][4] = {
        {{fast_4_0, fast_5_0, fast_6_0, fast_7_0}, {fast_4_1, fast_5_1, fast_6_1, fast_7_1}},
        {{fast_4_0m, fast_5_0m, fast_6_0m, fast_7_0m},
         {fast_4_1m, fast_5_1m, fast_6_1m, fast_7_1m}},
    };
    XC_ZFINDER_RUN(copies[ms->p.window_log < FAST_MASKED_BELOW_WLOG][ms->p.target_length > 0], 4u,
                   7u);
}

#endif
