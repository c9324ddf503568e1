/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The "greedy" match finder (level 4 for sources up to 256 KiB): several
 * candidates per position, and the longest match taken at once.  It beats
 * the single-candidate fast finders on small, repetitive inputs (source
 * code, markup, object files).
 *
 * Candidates come from rows of recent positions (zstd_search_row.h) when
 * the window is above 16 KiB, from hash chains (zstd_search_hc.h) below, as
 * in libzstd: rows touch fewer cache lines per search, chains need smaller
 * tables, which matters when small inputs dominate.
 *
 * Per position: the repeat offset one byte ahead first (cheap, and a
 * repeat match costs few bits), otherwise the best candidate; with no
 * match the parse strides ahead faster the longer it has gone without one.
 * Part 2 of the encoder builds the lazy strategies (which also look one or
 * two positions further before deciding) on the same searches.
 */
#include "zstd_compress_internal.h"
#include "zstd_search_hc.h"
#include "zstd_search_row.h"

/* Positions without a match after which the stride grows by one: 2^8. */
#define GREEDY_SKIP_LOG 8

XC_FORCE_INLINE size_t greedy_body(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                   const uint8_t *const src, size_t const size, unsigned const mls,
                                   int const rows, int const simd)
{
    const uint8_t *const base = ms->base;
    const uint8_t *const iend = src + size;
    const uint8_t *const ilimit = iend - XC_ZSTD_HASH_READ;
    const uint8_t *const frame_p = base + ms->start;
    const uint8_t *anchor = src;
    /* The frame's first byte has no history to match. */
    const uint8_t *ip = src + (src == frame_p);

    xc_zcursor out = xc_zcursor_open(ss);
    uint32_t r0 = rep[0], r1 = rep[1], r2 = rep[2];
    uint32_t off0 = 0, off1 = 0;
    {
        uint32_t const max_rep = (uint32_t)(ip - frame_p);
        if (r0 > max_rep) off0 = r0, r0 = 0;
        if (r1 > max_rep) off1 = r1, r1 = 0;
    }
    xc_zsearch s;
    xc_zsearch_open(&s, ms);
    /* After a very long match in the previous block, do not insert all of
     * it: the last couple of hundred positions are the useful ones. */
    {
        uint32_t const cur = (uint32_t)(src - base);
        if (cur > s.next + 384) s.next = cur - XC_MIN(192u, cur - s.next - 384);
    }
    if (rows)
        row_fill_cache(&s, iend, mls);
    else
        hc_fill_cache(&s, iend, mls);

    while (ip < ilimit) {
        const uint8_t *mstart = ip + 1;
        size_t mlen;
        uint32_t off_value = 1;

        /* Repeat offset one byte ahead: at least one literal precedes it,
         * so Offset_Value 1 is r0 and the offsets keep their order. */
        if ((r0 > 0) & (xc_read32(ip + 1 - r0) == xc_read32(ip + 1))) {
            mlen = 4 + xc_zcount(ip + 1 + 4, ip + 1 + 4 - r0, iend);
            goto store;
        }
        {
            uint32_t offset = 0;
            mlen = rows ? row_search(&s, ip, iend, mls, &offset, simd)
                        : hc_search(&s, ip, iend, mls, &offset);
            if (mlen < 4) {
                ip += ((size_t)(ip - anchor) >> GREEDY_SKIP_LOG) + 1;
                continue;
            }
            mstart = ip;
            while ((mstart > anchor) & (mstart - offset > frame_p) &&
                   mstart[-1] == mstart[-1 - (ptrdiff_t)offset]) {
                mstart--;
                mlen++;
            }
            r2 = r1;
            r1 = r0;
            r0 = offset;
            off_value = offset + 3;
        }
    store:
        xc_zput_seq(&out, (size_t)(mstart - anchor), anchor, iend, off_value, mlen);
        ip = anchor = mstart + mlen;

        /* A match right after a match at the previous offset: with no
         * literals, Offset_Value 1 names r1 (§3.1.2.5); r0 and r1 swap. */
        while (ip <= ilimit && ((r1 > 0) & (xc_read32(ip) == xc_read32(ip - r1)))) {
            size_t const rlen = 4 + xc_zcount(ip + 4, ip + 4 - r1, iend);
            uint32_t const t = r1;
            r1 = r0;
            r0 = t;
            xc_zput_seq(&out, 0, anchor, iend, 1, rlen);
            ip += rlen;
            anchor = ip;
        }
    }

    xc_zsearch_close(&s, ms);
    xc_zcursor_close(ss, out);
    xc_zrep_restore(rep, r0, r1, r2, off0, off1);
    return (size_t)(iend - anchor);
}

XC_ZFINDER(greedy_hc_4, greedy_body(ms, ss, rep, src, size, 4, 0, xc_simd))
XC_ZFINDER(greedy_hc_5, greedy_body(ms, ss, rep, src, size, 5, 0, xc_simd))
XC_ZFINDER(greedy_hc_6, greedy_body(ms, ss, rep, src, size, 6, 0, xc_simd))
XC_ZFINDER(greedy_row_4, greedy_body(ms, ss, rep, src, size, 4, 1, xc_simd))
XC_ZFINDER(greedy_row_5, greedy_body(ms, ss, rep, src, size, 5, 1, xc_simd))
XC_ZFINDER(greedy_row_6, greedy_body(ms, ss, rep, src, size, 6, 1, xc_simd))

size_t xc_zstd_greedy(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                      const uint8_t *src, size_t size)
{
    static const xc_zstd_block_fn variants[2][2][3] = {
        {{greedy_hc_4, greedy_hc_5, greedy_hc_6}, {greedy_row_4, greedy_row_5, greedy_row_6}},
        {{greedy_hc_4_bmi2, greedy_hc_5_bmi2, greedy_hc_6_bmi2},
         {greedy_row_4_bmi2, greedy_row_5_bmi2, greedy_row_6_bmi2}},
    };
    if (size < XC_ZSTD_HASH_READ + 4) return size;
    unsigned mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    return variants[ms->bmi2 != 0][ms->row_log != 0][mls - 4](ms, ss, rep, src, size);
}
