/* SPDX-License-Identifier: BSD-2-Clause */
#include "kernels.h"

uint32_t xc_inet_sum_portable(uint32_t sum, const uint8_t *data, size_t len)
{
    uint64_t s = sum;
    size_t i = 0;
    for (; i + 1 < len; i += 2) s += (uint32_t)(data[i] << 8 | data[i + 1]);
    if (i < len) s += (uint32_t)data[i] << 8;
    while (s >> 32) s = (s & 0xFFFFFFFFu) + (s >> 32);
    return (uint32_t)s;
}
