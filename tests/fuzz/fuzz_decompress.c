/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: one-shot zstd decompression of arbitrary bytes, with
 * and without a context, plus the frame inspection functions.  Both ways
 * must agree; with libzstd present, whenever both decoders accept the input
 * they must produce the same bytes (libzstd 1.5.4 accepts some invalid
 * frames that xcodec rejects, so a disagreement on acceptance is not a
 * failure by itself).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xcodec.h"
#ifdef XC_HAVE_LIBZSTD
#  include <zstd.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Enough for what the frames in a seed corpus hold, small enough that a
 * header claiming gigabytes costs nothing. */
#define CAP_MAX ((size_t)1 << 22)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xc_zstd_dctx *dctx;
    if (!dctx && !(dctx = xc_zstd_dctx_new())) return 0;

    /* The exact content size when the header gives a small one, so that
     * the destination ends where the content does (ASan's redzone follows);
     * otherwise a fixed buffer, allocated once. */
    static uint8_t *big_a, *big_b;
    if (!big_a && (!(big_a = malloc(CAP_MAX)) || !(big_b = malloc(CAP_MAX)))) return 0;
    unsigned long long fcs = xc_zstd_frame_content_size(data, size);
    size_t cap = fcs < CAP_MAX ? (size_t)fcs : CAP_MAX;
    uint8_t *a = cap < CAP_MAX ? malloc(cap ? cap : 1) : big_a;
    uint8_t *b = cap < CAP_MAX ? malloc(cap ? cap : 1) : big_b;
    if (!a || !b) goto done;

    size_t ra = xc_zstd_decompress(a, cap, data, size);
    size_t rb = xc_zstd_decompress_dctx(dctx, b, cap, data, size);
    if (xc_is_error(ra) != xc_is_error(rb)) __builtin_trap();
    if (xc_is_error(ra) && xc_error_code(ra) != xc_error_code(rb)) __builtin_trap();
    if (!xc_is_error(ra) && (ra > cap || ra != rb || memcmp(a, b, ra) != 0)) __builtin_trap();

    size_t fsize = xc_zstd_find_frame_compressed_size(data, size);
    if (!xc_is_error(fsize) && fsize > size) __builtin_trap();
    (void)xc_zstd_frame_dict_id(data, size);

#ifdef XC_HAVE_LIBZSTD
    if (!xc_is_error(ra)) {
        size_t rz = ZSTD_decompress(b, cap, data, size);
        if (!ZSTD_isError(rz) && (rz != ra || memcmp(a, b, ra) != 0)) __builtin_trap();
    }
#endif
done:
    if (a != big_a) free(a);
    if (b != big_b) free(b);
    return 0;
}
