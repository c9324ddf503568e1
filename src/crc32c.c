/* SPDX-License-Identifier: BSD-2-Clause */
/* CRC32C entry points. */
#include "cpucap.h"

uint32_t xc_crc32c(uint32_t crc, const void *data, size_t len)
{
    if (len == 0) return crc;
    return xc_kernels.crc32c(crc, (const uint8_t *)data, len);
}
