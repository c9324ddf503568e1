/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm64 kernels.  Each file compiles its functions with target attributes
 * ("+crc", "+crypto", "+sha3"), so the library builds for baseline ARMv8-A and
 * cpucap calls a variant only when the CPU has what its name says.
 */
#ifndef XC_ARM64_KERNELS_H
#define XC_ARM64_KERNELS_H

#include "../xc_internal.h"

#if defined(XC_ARCH_ARM64)
XC_HIDDEN uint32_t xc_crc32c_arm64_crc(uint32_t crc, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_crc32c_arm64_pmull(uint32_t crc, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_crc32c_arm64_sha3(uint32_t crc, const uint8_t *data, size_t len);

XC_HIDDEN uint32_t xc_inet_sum_arm64_neon(uint32_t sum, const uint8_t *data, size_t len);
XC_HIDDEN uint16_t xc_inet_checksum_arm64_neon(const uint8_t *data, size_t len);

/* The zstd encoder's hot loops with NEON row tags (zstd_encode_neon.c). */
struct xc_zstd_ckernels;
XC_HIDDEN extern const struct xc_zstd_ckernels xc_zstd_encode_arm64_neon;
#endif

#endif
