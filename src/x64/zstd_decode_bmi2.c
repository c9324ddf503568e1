/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd decoder's hot loops compiled for BMI2 (the avx2 tier and up):
 * the sequence loop reads its extra bits with BZHI/SHRX and the Huffman
 * streams shift with SHLX/SHRX and count with TZCNT, none of which go
 * through the flags register, so the dependency chains of the bit readers
 * get shorter.  The bodies are the templates' (decompress_sequences_tmpl.h,
 * huf_decode_tmpl.h); only the target and the bmi2 flag differ from the
 * portable variant, and the output is the same.
 */
#include "x64/kernels.h"

#if defined(XC_ARCH_X64)
#include "zstd/decompress/decompress_sequences_tmpl.h"
#include "zstd/entropy/huf_decode_tmpl.h"

#define XC_ZSTD_BMI2_TARGET XC_TARGET("bmi,bmi2")

XC_ZSTD_BMI2_TARGET static size_t exec_plain(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend,
                                             const uint8_t *src, size_t size, int nb_seq)
{
    return xc_zseq_exec_body(d, op, oend, src, size, nb_seq, 0, 1);
}

XC_ZSTD_BMI2_TARGET static size_t exec_prefetch(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend,
                                                const uint8_t *src, size_t size, int nb_seq)
{
    return xc_zseq_exec_body(d, op, oend, src, size, nb_seq, 1, 1);
}

XC_ZSTD_BMI2_TARGET size_t xc_huf_decode_x64_bmi2(uint8_t *dst, size_t regen_size,
                                                  const uint8_t *src, size_t src_size,
                                                  int four_streams, const xc_huf_dtable *dt)
{
    return xc_huf_decode_body(dst, regen_size, src, src_size, four_streams, dt);
}

const struct xc_zstd_dkernels xc_zstd_decode_x64_bmi2 = {
    exec_plain, exec_prefetch, xc_huf_decode_x64_bmi2,
};
#endif
