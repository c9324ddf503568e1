/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The entry of sequence execution (RFC 8878 §3.1.1.4): chooses, per block,
 * between the plain loop and the one that prefetches matches far back, and
 * calls the variant of it that cpucap chose for this CPU (the dctx's
 * kernels).  The loops themselves are in decompress_sequences_tmpl.h.
 *
 * What it may call: the decoder (decompress/).
 */
#include "zstd/decompress/decompress_internal.h"

/* Whether to run the prefetching loop for a block: when the history
 * reaches beyond PREFETCH_DISTANCE bytes (4 MiB, so matches that far back
 * are likely to miss the caches) and the offset table gives such distances
 * (codes of PREFETCH_CODE or more) to at least PREFETCH_SHARE states out
 * of 256.  Measured on silesia: level 19 of multi-megabyte inputs gains
 * 10-40% (more when other processes compete for memory), while
 * cache-resident data and the fast levels, whose offsets are short, lose
 * 10-15% to the extra work of the pipeline, so they keep the plain loop.
 * With a 1 MiB threshold level 3 (2 MiB windows) already lost. */
#define PREFETCH_CODE 22
#define PREFETCH_DISTANCE ((size_t)1 << PREFETCH_CODE)
#define PREFETCH_SHARE 4

static int use_prefetch(const xc_zstd_dctx *d, const uint8_t *op, int nb_seq)
{
    size_t const history = (size_t)(op - d->prefix) + (size_t)(d->ext_end - d->ext_start);
    unsigned const n = 1u << d->of_log;
    unsigned share = 0, u;

    if (history < PREFETCH_DISTANCE || nb_seq <= XC_ZSEQ_AHEAD) return 0;
    for (u = 0; u < n; u++) share += d->of[u].extra >= PREFETCH_CODE;
    return (share << (8 - d->of_log)) >= PREFETCH_SHARE;
}

size_t xc_zstd_exec_sequences(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend, const uint8_t *src,
                              size_t size, int nb_seq)
{
    if (use_prefetch(d, op, nb_seq))
        return d->kern->exec_sequences_prefetch(d, op, oend, src, size, nb_seq);
    return d->kern->exec_sequences(d, op, oend, src, size, nb_seq);
}
