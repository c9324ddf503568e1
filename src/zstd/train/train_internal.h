/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The dictionary trainer's internal interface: the content selection
 * (train_cover.c) and the statistics of a candidate content
 * (train_stats.c), both used by the assembly in train.c.
 *
 * What it may call: the library's helpers (xc_internal.h) and the shared
 * format (common/).
 */
#ifndef XC_ZSTD_TRAIN_INTERNAL_H
#define XC_ZSTD_TRAIN_INTERNAL_H

#include "xc_internal.h"
#include "zstd/common/format.h"

/* The samples, concatenated, and where each one ends. */
typedef struct {
    const uint8_t *data;
    const size_t *sizes;
    unsigned nb;
    size_t total;   /* sum of sizes[0..nb) */
} xc_train_samples;

/* Parameters of the segment selection: segments of k bytes scored by their
 * d-byte pieces (6 <= d <= 8, d < k), counted in a table of 2^f entries. */
typedef struct {
    unsigned k;
    unsigned d;
    unsigned f;
} xc_cover_params;

/* Adds to counts[h], for each of the 2^f piece hashes h, the number of
 * samples among [from, to) that hold a piece of d bytes with that hash.
 * seen[h] is the number (plus one) of the last sample counted for h: zero
 * it before the first call, and keep it between calls that continue with
 * the following samples. */
XC_HIDDEN void xc_train_count(uint32_t *counts, uint32_t *seen, const xc_train_samples *s,
                              unsigned from, unsigned to, unsigned d, unsigned f);

/* Chooses up to cap bytes of content from the samples, given their counts
 * from xc_train_count() with the same d and f, and writes them at the end
 * of out[0..cap), the segment worth most last.  Returns the number of
 * bytes written (they are out[cap - n .. cap)), or
 * XC_ERROR(OUT_OF_MEMORY). */
XC_HIDDEN size_t xc_train_cover(uint8_t *out, size_t cap, const xc_train_samples *s,
                                const xc_cover_params *p, const uint32_t *counts);

/* What the level-3 parser makes of samples with a content as history:
 * literal bytes and the codes of the sequences' three fields, plus the
 * extra bits those codes imply (to compare contents by estimated size). */
typedef struct {
    unsigned lit[256];
    unsigned ll[XC_ZSTD_LL_MAX + 1];
    unsigned ml[XC_ZSTD_ML_MAX + 1];
    unsigned of[XC_ZSTD_OF_MAX + 1];
    uint64_t extra_bits;
    uint64_t nb_seq;
    uint64_t nb_lit;
} xc_train_stats;

/* Parses samples[first .. first + count) (each at most 128 KiB of it) one
 * by one, each with content[0..size) in front of it and nothing else, and
 * adds what it finds to *st (which the caller zeroes).  Returns 0 or
 * XC_ERROR(OUT_OF_MEMORY). */
XC_HIDDEN size_t xc_train_stats_collect(xc_train_stats *st, const uint8_t *content, size_t size,
                                        const xc_train_samples *s, unsigned first,
                                        unsigned count);

/* The estimated compressed size in bits of what *st counts, coded with
 * tables fitted to it (an order-0 entropy, in fixed point so that every
 * host computes the same figure). */
XC_HIDDEN uint64_t xc_train_stats_cost(const xc_train_stats *st);

#endif /* XC_ZSTD_TRAIN_INTERNAL_H */
