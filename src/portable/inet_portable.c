/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The portable Internet checksum kernel: plain C, any alignment, either byte
 * order, and the oracle the vector kernels are tested against.
 *
 * It adds native 32-bit loads into 64-bit accumulators, 64 bytes an
 * iteration (src/inet_internal.h).  Why not the classic 16-bit loop, or
 * 64-bit loads with add-with-carry?  A 16-bit loop spends one load and one
 * add per two bytes.  Add-with-carry is one instruction per eight bytes on
 * x64 but C cannot spell it, and every add then waits for the carry of the
 * one before, a serial chain the CPU cannot overlap.  Zero-extended 32-bit
 * words cannot carry out of a 64-bit accumulator for 2^32 additions, so
 * four accumulators run side by side with no carry to propagate at all,
 * and a compiler is free to vectorise the loop.  A 32-bit accumulator, by
 * contrast, overflows after 2^16 words of 0xFFFF, 128 KiB, which is why the
 * accumulators here are 64-bit and are drained once a gibibyte.
 *
 * The total is folded once at the end, without branches, and rotated by 8
 * bits on little-endian CPUs to turn byte-swapped words into the big-endian
 * words the RFC adds (the derivation is in src/inet_internal.h).
 */
#include "kernels.h"

#include "../inet_internal.h"

uint32_t xc_inet_sum_portable(uint32_t sum, const uint8_t *data, size_t len)
{
    return xc_inet_finish(xc_inet_sum_native(data, len), sum, XC_INET_NATIVE_ROT);
}

uint16_t xc_inet_checksum_portable(const uint8_t *data, size_t len)
{
    return xc_inet_fold16(xc_inet_sum_portable(0, data, len));
}
