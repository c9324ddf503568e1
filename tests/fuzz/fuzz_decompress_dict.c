/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: dictionary decoding.  The input is a 2-byte
 * little-endian dictionary length, the dictionary, then the frames.  The
 * dictionary is used loaded into a context and as a prepared ddict; both
 * must accept or refuse it together and decode the frames the same way.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xcodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP_MAX ((size_t)1 << 22)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xc_zstd_dctx *dctx;
    if (size < 2) return 0;
    if (!dctx && !(dctx = xc_zstd_dctx_new())) return 0;
    size_t dict_size = (size_t)data[0] | (size_t)data[1] << 8;
    if (dict_size > size - 2) dict_size = size - 2;
    const uint8_t *dict = data + 2, *src = dict + dict_size;
    size_t n = size - 2 - dict_size;

    /* Destinations of exactly the content size when the header gives a
     * small one (ASan's redzone follows), else buffers allocated once. */
    static uint8_t *big_a, *big_b;
    if (!big_a && (!(big_a = malloc(CAP_MAX)) || !(big_b = malloc(CAP_MAX)))) return 0;
    unsigned long long fcs = xc_zstd_frame_content_size(src, n);
    size_t cap = fcs < CAP_MAX ? (size_t)fcs : CAP_MAX;
    uint8_t *a = cap < CAP_MAX ? malloc(cap ? cap : 1) : big_a;
    uint8_t *b = cap < CAP_MAX ? malloc(cap ? cap : 1) : big_b;
    xc_zstd_ddict *ddict = xc_zstd_ddict_new(dict, dict_size);
    if (!a || !b) goto done;

    size_t loaded = xc_zstd_dctx_load_dictionary(dctx, dict, dict_size);
    if (xc_is_error(loaded) && xc_error_code(loaded) != XC_ERROR_DICT_CORRUPT) __builtin_trap();
    if (xc_is_error(loaded) != (ddict == NULL)) __builtin_trap();
    if (!ddict) goto done;
    size_t ra = xc_zstd_decompress_dctx(dctx, a, cap, src, n);

    xc_zstd_dctx_reset(dctx);
    if (xc_zstd_dctx_ref_ddict(dctx, ddict) != 0) __builtin_trap();
    size_t rb = xc_zstd_decompress_dctx(dctx, b, cap, src, n);
    if (xc_is_error(ra) != xc_is_error(rb)) __builtin_trap();
    if (!xc_is_error(ra) && (ra > cap || ra != rb || memcmp(a, b, ra) != 0)) __builtin_trap();

    /* Streaming with the ddict, all at once. */
    xc_in_buffer in = {src, n, 0};
    xc_out_buffer out = {b, cap, 0};
    size_t r = 1;
    for (int calls = 0; calls < 64 && r != 0 && !xc_is_error(r); calls++)
        r = xc_zstd_decompress_stream(dctx, &out, &in);
    if (!xc_is_error(ra) && n > 0 && xc_is_error(r) &&
        xc_error_code(r) != XC_ERROR_WINDOW_TOO_LARGE)
        __builtin_trap();
    if (!xc_is_error(ra) && r == 0 && in.pos == n && (out.pos != ra || memcmp(a, b, ra) != 0))
        __builtin_trap();
done:
    xc_zstd_dctx_reset(dctx);
    xc_zstd_ddict_free(ddict);
    if (a != big_a) free(a);
    if (b != big_b) free(b);
    return 0;
}
