/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd encoder's hot loops compiled for BMI2 (the avx2 tier and up):
 * every hash is a variable shift, which BMI2's shlx/shrx do in one uop
 * without the cl register, trailing-zero counts become tzcnt and masks
 * bzhi, which frees registers in loops that are short of them; the row
 * finders compare tags with SSE2 and have one copy per row log.  The
 * bodies are the templates'; the frames are the portable variant's.
 */
#include "x64/kernels.h"

#if defined(XC_ARCH_X64)
#define XC_ZVARIANT_TARGET XC_TARGET("bmi,bmi2")
#define XC_ZVARIANT_SIMD 1
#include "zstd/compress/compress_variant_tmpl.h"

const struct xc_zstd_ckernels xc_zstd_encode_x64_bmi2 = XC_ZSTD_ENCODE_KERNELS;
#endif
