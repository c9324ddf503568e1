/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Everything one ISA variant of the encoder compiles, in one place: the
 * finder templates, the Huffman stream and sequence bit stream bodies, and
 * XC_ZSTD_ENCODE_KERNELS, the initialiser of the variant's kernel
 * table (compress_kernels.h).  A variant file defines XC_ZVARIANT_TARGET
 * and XC_ZVARIANT_SIMD (match/match_tmpl.h) and includes this once.
 *
 * What it may call: the encoder (compress/), the match state and searches
 * (compress/match/) and the entropy coders (entropy/).
 */
#ifndef XC_ZSTD_COMPRESS_VARIANT_TMPL_H
#define XC_ZSTD_COMPRESS_VARIANT_TMPL_H

#include "zstd/compress/compress_kernels.h"
#include "zstd/compress/match/match_tmpl.h"
#include "zstd/compress/match/match_fast_tmpl.h"
#include "zstd/compress/match/match_dfast_tmpl.h"
#include "zstd/compress/match/match_lazy_tmpl.h"
#include "zstd/compress/match/match_opt_tmpl.h"
#include "zstd/compress/match/match_fast_dict_tmpl.h"
#include "zstd/compress/compress_seq_stream_tmpl.h"
#include "zstd/entropy/huf_encode_stream_tmpl.h"

XC_ZVARIANT_TARGET static size_t variant_huf_1x(uint8_t *dst, size_t cap, const uint8_t *src,
                                                size_t n, const xc_huf_ctable *ct)
{
    return xc_huf_compress_1x_body(dst, cap, src, n, ct);
}

XC_ZVARIANT_TARGET static size_t variant_huf_4x(uint8_t *dst, size_t cap, const uint8_t *src,
                                                size_t n, const xc_huf_ctable *ct)
{
    return xc_huf_compress_4x_body(dst, cap, src, n, ct);
}

XC_ZVARIANT_TARGET static size_t variant_seq_bitstream(const xc_zseqstore *ss, uint8_t *dst,
                                                       size_t cap, const xc_fse_ctable *ctll,
                                                       const xc_fse_ctable *ctof,
                                                       const xc_fse_ctable *ctml)
{
    return xc_zseq_bitstream_body(ss, dst, cap, ctll, ctof, ctml);
}

/* The kernel table of this variant. */
#define XC_ZSTD_ENCODE_KERNELS                                                        \
    {                                                                                       \
        {NULL, finder_fast, finder_dfast, finder_greedy, finder_lazy, finder_lazy2,         \
         finder_btlazy2, finder_btopt, finder_btultra, finder_btultra2},                    \
        {NULL, finder_fast_dict, finder_dfast_dict, finder_lazy_dict, finder_lazy_dict,     \
         finder_lazy_dict, finder_btlazy2_dict, finder_btopt, finder_btultra,               \
         finder_btultra2},                                                                  \
        variant_huf_1x, variant_huf_4x, variant_seq_bitstream,                              \
    }

#endif
