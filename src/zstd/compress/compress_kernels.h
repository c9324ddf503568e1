/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The encoder's kernels: the hot loops that each ISA variant compiles from
 * the templates of this layer (match/match_*_tmpl.h,
 * compress_seq_stream_tmpl.h, entropy/huf_encode_stream_tmpl.h) under its
 * own target attribute.  One table per variant, defined in
 * src/portable/zstd_encode_portable.c, src/x64/zstd_encode_bmi2.c and
 * src/arm64/zstd_encode_neon.c; cpucap's list xc_zstd_encode_variants says
 * which one a CPU runs, and a context keeps a pointer to it.  Every
 * variant writes the same frames.
 *
 * What it may call: the encoder (compress/).
 */
#ifndef XC_ZSTD_COMPRESS_KERNELS_H
#define XC_ZSTD_COMPRESS_KERNELS_H

#include "zstd/compress/compress_internal.h"

/* The sequences section's bit stream for ss with the three FSE tables:
 * returns its size or XC_ERROR(DST_TOO_SMALL). */
typedef size_t (*xc_zseq_bitstream_fn)(const xc_zseqstore *ss, uint8_t *dst, size_t cap,
                                       const xc_fse_ctable *ctll, const xc_fse_ctable *ctof,
                                       const xc_fse_ctable *ctml);

struct xc_zstd_ckernels {
    /* The match finder of each strategy ([0] unused), searching the
     * window alone (a dictionary, if any, placed in it before the input). */
    xc_zstd_block_fn finder[XC_ZSTRAT_MAX + 1];
    /* The finders that search a prepared dictionary where it lies
     * (attached: match_fast_dict_tmpl.h, and match_lazy_tmpl.h in its
     * dictionary mode); NULL for the strategies that have none (the
     * optimal parsers). */
    xc_zstd_block_fn attached[XC_ZSTRAT_MAX + 1];
    xc_huf_compress_fn huf_1x;
    xc_huf_compress_fn huf_4x;
    xc_zseq_bitstream_fn seq_bitstream;
};

#endif
