/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x64 kernels.  Each file compiles its functions with target attributes, so
 * the library needs no -m flags and nothing leaks into generic code; cpucap
 * calls a variant only when the CPU has what its name says.
 */
#ifndef XC_X64_KERNELS_H
#define XC_X64_KERNELS_H

#include "../xc_internal.h"
#include "zstd/entropy/entropy_decode.h"
#include "zstd/common/xxh64.h"
#include "zstd/entropy/entropy_encode.h"

#if defined(XC_ARCH_X64)
XC_HIDDEN uint32_t xc_crc32c_x64_sse42(uint32_t crc, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_crc32c_x64_pclmul(uint32_t crc, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_crc32c_x64_avx2(uint32_t crc, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_crc32c_x64_avx512(uint32_t crc, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_crc32c_x64_avx512w(uint32_t crc, const uint8_t *data, size_t len);

XC_HIDDEN uint32_t xc_inet_sum_x64_ssse3(uint32_t sum, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_inet_sum_x64_avx2(uint32_t sum, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_inet_sum_x64_avx512(uint32_t sum, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_inet_sum_x64_avx512vnni(uint32_t sum, const uint8_t *data, size_t len);
/* The checksum entries: each variant's sum of (0, data, len), folded and
 * complemented (xc_inet_checksum()). */
XC_HIDDEN uint16_t xc_inet_checksum_x64_ssse3(const uint8_t *data, size_t len);
XC_HIDDEN uint16_t xc_inet_checksum_x64_avx2(const uint8_t *data, size_t len);
XC_HIDDEN uint16_t xc_inet_checksum_x64_avx512(const uint8_t *data, size_t len);
XC_HIDDEN uint16_t xc_inet_checksum_x64_avx512vnni(const uint8_t *data, size_t len);

XC_HIDDEN void xc_xxh64_stripes_x64_avx512(uint64_t acc[XC_XXH64_WAYS][4],
                                           const uint8_t *const p[XC_XXH64_WAYS], unsigned ways,
                                           size_t stripes);

/* The zstd codec's hot loops compiled for BMI2 (zstd_decode_bmi2.c,
 * zstd_encode_bmi2.c). */
struct xc_zstd_dkernels;
struct xc_zstd_ckernels;
XC_HIDDEN extern const struct xc_zstd_dkernels xc_zstd_decode_x64_bmi2;
XC_HIDDEN extern const struct xc_zstd_ckernels xc_zstd_encode_x64_bmi2;
XC_HIDDEN size_t xc_huf_decode_x64_bmi2(uint8_t *dst, size_t regen_size, const uint8_t *src,
                                        size_t src_size, int four_streams,
                                        const xc_huf_dtable *dt);
#endif

#endif
