/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Byte histograms for the entropy coders.
 *
 * Counting into one table is limited by the store-to-load round trip of a
 * counter that is incremented again before its previous increment has
 * retired: runs of equal bytes, common in literals and very common in
 * sequence codes, then cost several cycles per byte.  Spreading consecutive
 * bytes over four tables (byte i into table i % 4) breaks those chains; the
 * tables are summed at the end.  Below a few thousand bytes, clearing and
 * summing the extra tables costs more than it saves.
 *
 * What it may call: the entropy coders (entropy/).
 */
#include "zstd/entropy/entropy_encode.h"

#define HIST_PARALLEL_MIN 1500

/* The largest symbol present and the largest count, without a branch per
 * symbol: the scan down stops at the first nonzero count, the maximum is a
 * plain reduction. */
static unsigned finish(const unsigned *count, unsigned *max_symbol, unsigned nsym)
{
    unsigned s, largest = 0, top = nsym - 1;
    while (top > 0 && count[top] == 0) top--;
    for (s = 0; s <= top; s++) largest = count[s] > largest ? count[s] : largest;
    *max_symbol = top;
    return largest;
}

unsigned xc_hist_count(unsigned *count, unsigned *max_symbol, const uint8_t *src, size_t n)
{
    size_t i = 0;
    unsigned s;

    if (n < HIST_PARALLEL_MIN) {
        memset(count, 0, 256 * sizeof *count);
        for (; i < n; i++) count[src[i]]++;
        return finish(count, max_symbol, 256);
    }

    {
        uint32_t t[4][256];
        memset(t, 0, sizeof t);
        /* Eight bytes per load; the byte order of the load does not matter
         * for counting, only that every byte lands in some table. */
        for (; i + 16 <= n; i += 16) {
            uint64_t a = xc_read64(src + i), b = xc_read64(src + i + 8);
            t[0][(uint8_t)a]++;
            t[1][(uint8_t)(a >> 8)]++;
            t[2][(uint8_t)(a >> 16)]++;
            t[3][(uint8_t)(a >> 24)]++;
            t[0][(uint8_t)(a >> 32)]++;
            t[1][(uint8_t)(a >> 40)]++;
            t[2][(uint8_t)(a >> 48)]++;
            t[3][(uint8_t)(a >> 56)]++;
            t[0][(uint8_t)b]++;
            t[1][(uint8_t)(b >> 8)]++;
            t[2][(uint8_t)(b >> 16)]++;
            t[3][(uint8_t)(b >> 24)]++;
            t[0][(uint8_t)(b >> 32)]++;
            t[1][(uint8_t)(b >> 40)]++;
            t[2][(uint8_t)(b >> 48)]++;
            t[3][(uint8_t)(b >> 56)]++;
        }
        for (; i < n; i++) t[i & 3][src[i]]++;
        for (s = 0; s < 256; s++) count[s] = t[0][s] + t[1][s] + t[2][s] + t[3][s];
    }
    return finish(count, max_symbol, 256);
}

unsigned xc_hist_count_small(unsigned *count, unsigned *max_symbol, const uint8_t *src,
                             size_t n)
{
    /* Private tables of the full byte range keep a stray value above the
     * bound from writing outside count[]; it is simply not reported. */
    uint32_t t[2][256];
    unsigned bound = XC_MIN(*max_symbol, 255u), s;
    size_t i = 0;

    memset(t, 0, sizeof t);
    for (; i + 4 <= n; i += 4) {
        t[0][src[i]]++;
        t[1][src[i + 1]]++;
        t[0][src[i + 2]]++;
        t[1][src[i + 3]]++;
    }
    for (; i < n; i++) t[0][src[i]]++;
    for (s = 0; s <= bound; s++) count[s] = t[0][s] + t[1][s];
    return finish(count, max_symbol, bound + 1);
}
