/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm64 CRC32C for cores with the CRC32 extension but no PMULL (for example
 * the Cortex-A53 and A72 in boards without the crypto extension): CRC32CX in
 * three streams, merged by table lookups.  The body is crc32c_streams_tmpl.h.
 */
#include "../crc32c_internal.h"
#include "kernels.h"

#if defined(XC_ARCH_ARM64)

#  define XC_STREAMS_FUNC xc_crc32c_arm64_crc
#  define XC_STREAMS_TARGET XC_TARGET("+crc")
#  define XC_STREAMS_WORD(c, w) XC_CRC32C_WORD_ARM64(c, w)
#  define XC_STREAMS_SHORT(c, p, n) xc_crc32c_arm64_short(c, p, n)
#  include "../crc32c_streams_tmpl.h"

#endif
