/* SPDX-License-Identifier: BSD-2-Clause */
/* Internet checksum entry points. */
#include "cpucap.h"

uint32_t xc_inet_sum(uint32_t sum, const void *data, size_t len)
{
    if (len == 0) return sum;
    return xc_kernels.inet_sum(sum, (const uint8_t *)data, len);
}
