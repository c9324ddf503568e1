/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm64 CRC32C with PMULL (the crypto extension) and CRC32CX: folding and
 * scalar streams together; the body is crc32c_pmull_tmpl.h.
 */
#include "../crc32c_internal.h"
#include "kernels.h"

#if defined(XC_ARCH_ARM64)

#  define XC_PMULL_FUNC xc_crc32c_arm64_pmull
#  define XC_PMULL_TARGET XC_TARGET("+crc+crypto")
#  define XC_PMULL_XOR3(a, b, c) veorq_u64(veorq_u64((a), (b)), (c))
#  include "crc32c_pmull_tmpl.h"

#endif
