/* SPDX-License-Identifier: BSD-2-Clause */
/* Portable kernels: plain C, correct on every architecture and byte order. */
#ifndef XC_PORTABLE_KERNELS_H
#define XC_PORTABLE_KERNELS_H

#include "../xc_internal.h"

XC_HIDDEN uint32_t xc_crc32c_portable(uint32_t crc, const uint8_t *data, size_t len);
XC_HIDDEN uint32_t xc_inet_sum_portable(uint32_t sum, const uint8_t *data, size_t len);
XC_HIDDEN uint16_t xc_inet_checksum_portable(const uint8_t *data, size_t len);

#endif
