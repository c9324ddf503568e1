/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: streaming zstd decompression with input and output
 * pieces whose sizes come from the first four bytes of the input.  The
 * stream must agree with one-shot decoding of the same bytes: same output
 * when one-shot succeeds, never a completed stream when it fails.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xcodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP_MAX ((size_t)1 << 22)
#define WINDOW_LOG_MAX 23

/* A small generator for the piece sizes, seeded by the input. */
static uint32_t next(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

static size_t piece(uint32_t *s, unsigned max_log, size_t left)
{
    size_t n = 1 + next(s) % ((size_t)1 << (next(s) % (max_log + 1)));
    return n < left ? n : left;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xc_zstd_dctx *dctx;
    static uint8_t *whole, *got;
    if (size < 4) return 0;
    if (!dctx) {
        if (!(dctx = xc_zstd_dctx_new())) return 0;
        if (!(whole = malloc(CAP_MAX)) || !(got = malloc(CAP_MAX))) __builtin_trap();
        if (xc_zstd_dctx_set(dctx, XC_ZSTD_D_WINDOW_LOG_MAX, WINDOW_LOG_MAX) != 0) __builtin_trap();
    }
    /* Byte 0 and 1: largest input and output piece (log2); bytes 2..3 seed
     * the sizes in between. */
    unsigned in_log = data[0] % 18, out_log = data[1] % 18;
    uint32_t seed = (uint32_t)data[2] << 8 | data[3];
    const uint8_t *src = data + 4;
    size_t n = size - 4;
    /* Tiny output pieces cost a call per byte or two: less output then. */
    const size_t cap = out_log < 6 ? CAP_MAX / 16 : CAP_MAX;

    size_t ra = xc_zstd_decompress(whole, cap, src, n);

    xc_in_buffer in = {src, 0, 0};
    xc_out_buffer out = {got, 0, 0};
    size_t r = 1;
    int complete = 0;
    unsigned idle = 0;
    while (idle < 8) {
        in.size = in.pos + piece(&seed, in_log, n - in.pos);
        out.size = out.pos + piece(&seed, out_log, cap - out.pos);
        size_t in_before = in.pos, out_before = out.pos;
        r = xc_zstd_decompress_stream(dctx, &out, &in);
        if (xc_is_error(r)) break;
        if (in.pos > in.size || out.pos > out.size) __builtin_trap();
        if (r == 0 && in.pos == n) {
            complete = 1;
            break;
        }
        idle = in.pos == in_before && out.pos == out_before ? idle + 1 : 0;
    }
    if (xc_is_error(r)) {
        /* A window the one-shot decoder does not mind. */
        if (xc_error_code(r) != XC_ERROR_WINDOW_TOO_LARGE && !xc_is_error(ra)) __builtin_trap();
    } else if (!xc_is_error(ra)) {
        /* All input consumed and room left: the stream must be done. */
        if (n > 0 && !complete && out.pos < cap) __builtin_trap();
        if (complete && (out.pos != ra || memcmp(whole, got, ra) != 0)) __builtin_trap();
    } else if (complete && xc_error_code(ra) != XC_ERROR_DST_TOO_SMALL) {
        __builtin_trap();
    }
    xc_zstd_dctx_reset(dctx);
    return 0;
}
