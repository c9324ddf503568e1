/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Arm64 CRC32C with PMULL, CRC32CX and EOR3 (the SHA3 extension, Armv8.2):
 * each fold's two products and data block are XORed by one EOR3 instead of
 * two EORs.  The body is crc32c_pmull_tmpl.h.  GCC 12 only offers the EOR3
 * intrinsic to code compiled for Armv8.2-A, hence the arch= in the target.
 */
#include "../crc32c_internal.h"
#include "kernels.h"

#if defined(XC_ARCH_ARM64)

#  define XC_PMULL_FUNC xc_crc32c_arm64_sha3
#  define XC_PMULL_TARGET XC_TARGET("arch=armv8.2-a+crc+crypto+sha3")
#  define XC_PMULL_XOR3(a, b, c) veor3q_u64((a), (b), (c))
#  include "crc32c_pmull_tmpl.h"

#endif
