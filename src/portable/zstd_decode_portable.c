/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd decoder's hot loops in plain C: the sequence loop (with and
 * without prefetching) and the Huffman stream decoder, instantiated from
 * their templates with every ISA flag off.  This is the variant every CPU
 * can run and the one the others are tested against.
 */
#include "portable/kernels.h"
#include "zstd/decompress/decompress_sequences_tmpl.h"
#include "zstd/entropy/huf_decode_tmpl.h"

static size_t exec_plain(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend, const uint8_t *src,
                         size_t size, int nb_seq)
{
    return xc_zseq_exec_body(d, op, oend, src, size, nb_seq, 0, 0);
}

static size_t exec_prefetch(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend, const uint8_t *src,
                            size_t size, int nb_seq)
{
    return xc_zseq_exec_body(d, op, oend, src, size, nb_seq, 1, 0);
}

size_t xc_huf_decode_portable(uint8_t *dst, size_t regen_size, const uint8_t *src,
                              size_t src_size, int four_streams, const xc_huf_dtable *dt)
{
    return xc_huf_decode_body(dst, regen_size, src, src_size, four_streams, dt);
}

const struct xc_zstd_dkernels xc_zstd_decode_portable = {
    exec_plain, exec_prefetch, xc_huf_decode_portable,
};
