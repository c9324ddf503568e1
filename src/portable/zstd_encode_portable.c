/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd encoder's hot loops in plain C: every match finder (with and
 * without an attached dictionary), the Huffman stream encoders and the
 * sequences bit stream, instantiated from their templates with no target
 * attribute and no vector code.  Every CPU can run this variant, and the
 * others must write the same frames.
 */
#include "portable/kernels.h"

#define XC_ZVARIANT_TARGET
#define XC_ZVARIANT_SIMD 0
#include "zstd/compress/compress_variant_tmpl.h"

const struct xc_zstd_ckernels xc_zstd_encode_portable = XC_ZSTD_ENCODE_KERNELS;
