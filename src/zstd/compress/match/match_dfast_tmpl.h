/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The "double fast" match finder (levels 2 to 4): two hash tables, one
 * keyed on 8 bytes (hash_log bits, ms->hash_table) and one on min_match
 * bytes (chain_log bits, ms->chain_table), one candidate each, greedy
 * parse.
 *
 * Why two tables.  A hash of 8 bytes finds long matches and rarely
 * collides; a hash of 4 to 7 bytes finds the short matches the long one
 * misses.  Each position first tries the repeat offset one byte ahead
 * (cheapest to encode and very common in structured data), then the long
 * candidate, then the short one; a short match is only taken after the
 * long table has been asked about the next position too, since a long
 * match one byte later usually beats a short match now.
 *
 * Speed.  The long hash and table load of the next position are issued
 * before the current position's candidates are compared, so their
 * latencies overlap.  Each 256 bytes without a match widen the stride by
 * one byte (with prefetches ahead), so incompressible data is skimmed.  As
 * in match_fast_tmpl.h, early table writes never name a position at or after
 * where the parse resumes.
 *
 * This file is a template: every ISA variant of the encoder includes it
 * (after match_tmpl.h has set the variant's target and SIMD flag) and so
 * compiles its own copy of these finders; the entry points are static and
 * reach the rest of the encoder through the variant's kernel table
 * (compress_kernels.h).  It may call the match state and sequence store of
 * compress_internal.h and the search headers of this folder, nothing above
 * them.
 */
#ifndef XC_ZSTD_MATCH_DFAST_TMPL_H
#define XC_ZSTD_MATCH_DFAST_TMPL_H
#include "zstd/compress/match/match_state.h"

/* Bytes without a match after which the stride grows by one. */
#define DFAST_STRIDE_STEP 256

/* Which search a frame gets, by its window (levels 2-4 size the window to
 * the input).  In a reused context most slots of a small frame's tables
 * hold older frames' positions, and a branch on whether a slot is live
 * mispredicts; testing the candidates with a mask (xc_zcand8, xc_zcand4),
 * as the fast finder does, avoids that but loads every candidate.  Same
 * process against the plain search, libzstd 1.5.4 beside, level 3:
 * - windows up to 2^12 (4 KiB records): masked, 1.05-1.31x on every class
 *   (random and zlib data 1.08-1.09x);
 * - 2^13 to 2^15: plain: masked, random and zlib data lost 4-10% and fell
 *   below libzstd's speed, for 0-5% on most text-like classes;
 * - 2^16 to 2^20 (64 KiB to 1 MiB): masked while matches come, plain once
 *   a block has gone DFAST_STRIDE_STEP bytes without one or has had none
 *   yet ("skim"): text 1.20x, database 1.22x, csv 1.09x, random 0.95x;
 * - 2^21 and up (silesia files): plain; nearly every slot is live, and the
 *   mask measured 0.93-0.97x. */
#define DFAST_MASKED_UP_TO_WLOG 12u
#define DFAST_SKIM_FROM_WLOG 16u
#define DFAST_SKIM_BELOW_WLOG 21u

XC_FORCE_INLINE size_t dfast_body(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                  const uint8_t *const src, size_t const size, unsigned const mls,
                                  int const masked, int const skim)
{
    uint32_t *const hlong = ms->hash_table;
    uint32_t *const hshort = ms->chain_table;
    unsigned const llog = ms->p.hash_log;
    unsigned const slog = ms->p.chain_log;
    const uint8_t *const base = ms->base;
    const uint8_t *const iend = src + size;
    const uint8_t *const ilimit = iend - XC_ZSTD_HASH_READ;
    uint32_t const low = xc_zwindow_low(ms, (uint32_t)(iend - base));
    const uint8_t *const low_p = base + low;

    const uint8_t *anchor = src;
    /* The frame's first byte has no history to match. */
    const uint8_t *ip = src + (src == base + ms->start);
    const uint8_t *ip1;
    const uint8_t *next_step;
    const uint8_t *matchl0, *matchl1, *matchs0;
    size_t step, hl0, hl1, mlen;
    uint32_t idxl0, idxl1, cur, offset;

    xc_zcursor out = xc_zcursor_open(ss);
    uint32_t r0 = rep[0], r1 = rep[1], r2 = rep[2];
    uint32_t off0 = 0, off1 = 0;
    {
        uint32_t const max_rep = (uint32_t)(ip - base) - ms->start;
        if (r0 > max_rep) off0 = r0, r0 = 0;
        if (r1 > max_rep) off1 = r1, r1 = 0;
    }

    for (;;) {
        step = 1;
        next_step = ip + DFAST_STRIDE_STEP;
        ip1 = ip + 1;
        if (ip1 > ilimit) break;

        hl0 = xc_zhash(ip, llog, 8);
        idxl0 = hlong[hl0];
        matchl0 = base + idxl0;

        /* One probe of the search: the repeat offset, then the long and the
         * short candidate at ip.  `m` asks for the masked tests. */
#define DFAST_PROBE(m)                                                                      \
    do {                                                                                    \
        size_t const hs0 = xc_zhash(ip, slog, mls);                                        \
        uint32_t const idxs0 = hshort[hs0];                                                \
        cur = (uint32_t)(ip - base);                                                        \
        matchs0 = base + idxs0;                                                             \
        hlong[hl0] = cur;                                                                   \
        hshort[hs0] = cur;                                                                  \
        /* The repeat offset one byte ahead: at least one literal precedes                 \
         * it, so Offset_Value 1 is r0 and nothing rotates. */                             \
        if ((r0 > 0) & (xc_read32(ip + 1 - r0) == xc_read32(ip + 1))) {                    \
            mlen = 4 + xc_zcount(ip + 1 + 4, ip + 1 + 4 - r0, iend);                        \
            ip++;                                                                           \
            xc_zput_seq(&out, (size_t)(ip - anchor), anchor, iend, 1, mlen);                \
            goto stored;                                                                    \
        }                                                                                   \
        hl1 = xc_zhash(ip1, llog, 8);                                                       \
        if (xc_zcand8(ip, base, idxl0, low + 1, (m))) {                                     \
            mlen = 8 + xc_zcount(ip + 8, matchl0 + 8, iend);                                \
            offset = (uint32_t)(ip - matchl0);                                              \
            while ((ip > anchor) & (matchl0 > low_p) && ip[-1] == matchl0[-1]) {            \
                ip--;                                                                       \
                matchl0--;                                                                  \
                mlen++;                                                                     \
            }                                                                               \
            goto found;                                                                     \
        }                                                                                   \
        idxl1 = hlong[hl1];                                                                 \
        matchl1 = base + idxl1;                                                             \
        if (xc_zcand4(ip, base, idxs0, low + 1, (m))) goto short_found;                    \
    } while (0)

        /* The stride grows by one every DFAST_STRIDE_STEP bytes without a
         * match; then ip moves on to ip1 with the next position's long
         * candidate, already loaded. */
#define DFAST_NEXT()                                                                        \
    do {                                                                                    \
        if (ip1 >= next_step) {                                                             \
            XC_PREFETCH(ip1 + 64);                                                          \
            XC_PREFETCH(ip1 + 128);                                                         \
            step++;                                                                         \
            next_step += DFAST_STRIDE_STEP;                                                 \
        }                                                                                   \
        ip = ip1;                                                                           \
        ip1 += step;                                                                        \
        hl0 = hl1;                                                                          \
        idxl0 = idxl1;                                                                      \
        matchl0 = matchl1;                                                                  \
    } while (0)

        /* With skimming, the masked search runs only while matches come:
         * a block that has had none yet, or has just gone DFAST_STRIDE_STEP
         * bytes without one (incompressible data), continues with the plain
         * search, whose branches then predict well and which skips the
         * loads of stale candidates, until its next match. */
        if (skim && anchor == src) goto skim;
        do {
            DFAST_PROBE(masked);
            int const grows = skim && ip1 >= next_step;
            DFAST_NEXT();
            if (grows) goto skim;
        } while (ip1 <= ilimit);
        break;

    skim:
        while (ip1 <= ilimit) {
            DFAST_PROBE(0);
            DFAST_NEXT();
        }
        break;
#undef DFAST_PROBE
#undef DFAST_NEXT

    short_found:
        /* Prefer a long match starting one byte later. */
        if (xc_zcand8(ip1, base, idxl1, low + 1, masked)) {
            ip = ip1;
            mlen = 8 + xc_zcount(ip + 8, matchl1 + 8, iend);
            offset = (uint32_t)(ip - matchl1);
            while ((ip > anchor) & (matchl1 > low_p) && ip[-1] == matchl1[-1]) {
                ip--;
                matchl1--;
                mlen++;
            }
        } else {
            mlen = 4 + xc_zcount(ip + 4, matchs0 + 4, iend);
            offset = (uint32_t)(ip - matchs0);
            while ((ip > anchor) & (matchs0 > low_p) && ip[-1] == matchs0[-1]) {
                ip--;
                matchs0--;
                mlen++;
            }
        }

    found:
        r2 = r1;
        r1 = r0;
        r0 = offset;
        /* ip1 is at most 3 past where the search stood, and the match that
         * starts there or earlier covers at least 4 bytes. */
        if (step < 4) hlong[hl1] = (uint32_t)(ip1 - base);
        xc_zput_seq(&out, (size_t)(ip - anchor), anchor, iend, offset + 3, mlen);

    stored:
        ip += mlen;
        anchor = ip;
        if (ip <= ilimit) {
            /* Two positions inside the match, for continuations. */
            uint32_t const in = cur + 2;
            hlong[xc_zhash(base + in, llog, 8)] = in;
            hlong[xc_zhash(ip - 2, llog, 8)] = (uint32_t)(ip - 2 - base);
            hshort[xc_zhash(base + in, slog, mls)] = in;
            hshort[xc_zhash(ip - 1, slog, mls)] = (uint32_t)(ip - 1 - base);

            /* A match right after a match at the previous offset: with no
             * literals, Offset_Value 1 names r1 (§3.1.2.5); r0 and r1 swap. */
            while (ip <= ilimit && ((r1 > 0) & (xc_read32(ip) == xc_read32(ip - r1)))) {
                size_t const rlen = 4 + xc_zcount(ip + 4, ip + 4 - r1, iend);
                uint32_t const t = r1;
                r1 = r0;
                r0 = t;
                hshort[xc_zhash(ip, slog, mls)] = (uint32_t)(ip - base);
                hlong[xc_zhash(ip, llog, 8)] = (uint32_t)(ip - base);
                xc_zput_seq(&out, 0, anchor, iend, 1, rlen);
                ip += rlen;
                anchor = ip;
            }
        }
    }

    xc_zcursor_close(ss, out);
    xc_zrep_restore(rep, r0, r1, r2, off0, off1);
    return (size_t)(iend - anchor);
}

/* The four min_match copies of one kind of search. */
#define DFAST_COPIES(sfx, masked, skim)                                                     \
    XC_ZFINDER(dfast_4##sfx, dfast_body(ms, ss, rep, src, size, 4, masked, skim))           \
    XC_ZFINDER(dfast_5##sfx, dfast_body(ms, ss, rep, src, size, 5, masked, skim))           \
    XC_ZFINDER(dfast_6##sfx, dfast_body(ms, ss, rep, src, size, 6, masked, skim))           \
    XC_ZFINDER(dfast_7##sfx, dfast_body(ms, ss, rep, src, size, 7, masked, skim))
DFAST_COPIES(, 0, 0)
DFAST_COPIES(m, 1, 0)
DFAST_COPIES(s, 1, 1)
#undef DFAST_COPIES

static size_t finder_dfast(XC_ZFINDER_ARGS)
{
    /* [plain, masked, masked with skimming][min_match - 4] */
    static const xc_zstd_block_fn copies[3][4] = {{dfast_4, dfast_5, dfast_6, dfast_7},
                                                  {dfast_4m, dfast_5m, dfast_6m, dfast_7m},
                                                  {dfast_4s, dfast_5s, dfast_6s, dfast_7s}};
    unsigned const wlog = ms->p.window_log;
    unsigned const kind = wlog <= DFAST_MASKED_UP_TO_WLOG                              ? 1
                          : wlog >= DFAST_SKIM_FROM_WLOG && wlog < DFAST_SKIM_BELOW_WLOG ? 2
                                                                                        : 0;
    XC_ZFINDER_RUN(copies[kind], 4u, 7u);
}

#endif
