/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd encoder's hot loops with NEON (every tier above portable): the
 * row finders compare a row's tags with NEON and have one copy per row
 * log.  NEON is part of the ARMv8-A base, so no target attribute is
 * needed; the bodies are the templates' and the frames the portable
 * variant's.
 */
#include "arm64/kernels.h"

#if defined(XC_ARCH_ARM64)
#define XC_ZVARIANT_TARGET
#define XC_ZVARIANT_SIMD 1
#include "zstd/compress/compress_variant_tmpl.h"

const struct xc_zstd_ckernels xc_zstd_encode_arm64_neon = XC_ZSTD_ENCODE_KERNELS;
#endif
