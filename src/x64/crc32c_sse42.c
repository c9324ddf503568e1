/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x64 CRC32C for CPUs with SSE4.2 but no PCLMULQDQ (Nehalem, and virtual
 * machines that hide PCLMULQDQ): crc32q in three streams, merged by table
 * lookups.  The body is crc32c_streams_tmpl.h.
 */
#include "../crc32c_internal.h"
#include "kernels.h"

#if defined(XC_ARCH_X64)

#  define XC_STREAMS_FUNC xc_crc32c_x64_sse42
#  define XC_STREAMS_TARGET XC_TARGET("sse4.2")
#  define XC_STREAMS_WORD(c, w) XC_CRC32C_WORD_X64(c, w)
#  define XC_STREAMS_SHORT(c, p, n) xc_crc32c_x64_short(c, p, n)
#  include "../crc32c_streams_tmpl.h"

#endif
