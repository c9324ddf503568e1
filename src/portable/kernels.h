/* SPDX-License-Identifier: BSD-2-Clause */
/* Portable kernels: plain C, correct on every architecture and byte order. */
#ifndef XC_PORTABLE_KERNELS_H
#define XC_PORTABLE_KERNELS_H

#include "../xc_internal.h"
#include "zstd/entropy/entropy_decode.h"
#include "zstd/common/xxh64.h"
#include "zstd/entropy/entropy_encode.h"

XC_HIDDEN uint32_t xc_crc32c_portable(uint32_t crc, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_inet_sum_portable(uint32_t sum, const uint8_t *data, size_t len);
XC_HIDDEN uint16_t xc_inet_checksum_portable(const uint8_t *data, size_t len);
XC_HIDDEN void xc_xxh64_stripes_portable(uint64_t acc[XC_XXH64_WAYS][4],
                                         const uint8_t *const p[XC_XXH64_WAYS], unsigned ways,
                                         size_t stripes);

/* The zstd codec's kernel sets (struct xc_zstd_dkernels in
 * decompress_internal.h, struct xc_zstd_ckernels in compress_kernels.h),
 * and the Huffman coders that tests call one variant at a time. */
struct xc_zstd_dkernels;
struct xc_zstd_ckernels;
XC_HIDDEN extern const struct xc_zstd_dkernels xc_zstd_decode_portable;
XC_HIDDEN extern const struct xc_zstd_ckernels xc_zstd_encode_portable;
XC_HIDDEN size_t xc_huf_decode_portable(uint8_t *dst, size_t regen_size, const uint8_t *src,
                                        size_t src_size, int four_streams,
                                        const xc_huf_dtable *dt);

#endif
