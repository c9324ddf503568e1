/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: zstd compression of arbitrary bytes.  The first three
 * bytes choose the level (xc_zstd_min_level() to 22), the options (checksum,
 * content size, a small explicit window, streaming piece sizes, flushes);
 * the rest is the content.  The frame, one-shot into a buffer of exactly
 * the bound and streamed in pieces, must decode back to the content with
 * our decoder and, when present, with libzstd; one-shot into a buffer one
 * byte smaller than the frame must fail cleanly.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_zstd_util.h"
#include "xcodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xc_zstd_cctx *cctx;
    if (size < 3) return 0;
    if (!cctx && !(cctx = xc_zstd_cctx_new())) return 0;
    int const span = xc_zstd_max_level() - xc_zstd_min_level() + 1;
    int const level = xc_zstd_min_level() + data[0] % span;
    unsigned const opt = data[1];
    uint32_t seed = data[2] | (uint32_t)opt << 8;
    const uint8_t *src = data + 3;
    size_t const n = size - 3;

    if (xc_zstd_cctx_reset(cctx) != 0) __builtin_trap();
    if (xc_zstd_cctx_set(cctx, XC_ZSTD_C_LEVEL, level) != 0) __builtin_trap();
    if (xc_zstd_cctx_set(cctx, XC_ZSTD_C_CHECKSUM, opt & 1) != 0) __builtin_trap();
    if (xc_zstd_cctx_set(cctx, XC_ZSTD_C_CONTENT_SIZE, (opt >> 1) & 1) != 0) __builtin_trap();
    /* A window of 1 to 8 KiB now and then, so that short inputs slide. */
    int const wlog = opt & 4 ? 10 + (int)((opt >> 3) & 3) : 0;
    if (xc_zstd_cctx_set(cctx, XC_ZSTD_C_WINDOW_LOG, wlog) != 0) __builtin_trap();

    /* One-shot into exactly the bound. */
    size_t const bound = xc_zstd_compress_bound(n);
    uint8_t *frame = malloc(bound);
    if (!frame) return 0;
    size_t fsize = xc_zstd_compress_cctx(cctx, frame, bound, src, n);
    if (xc_is_error(fsize)) __builtin_trap();
    check_frame(frame, fsize, src, n);

    /* One byte short: a clean error, nothing written past the end. */
    uint8_t *small = malloc(fsize - 1 ? fsize - 1 : 1);
    if (small) {
        size_t r = xc_zstd_compress_cctx(cctx, small, fsize - 1, src, n);
        if (xc_error_code(r) != XC_ERROR_DST_TOO_SMALL) __builtin_trap();
        free(small);
    }

    /* Streamed in pieces, with flushes when asked. */
    size_t const cap = 2 * bound + 64;
    uint8_t *sframe = malloc(cap);
    if (sframe) {
        xc_in_buffer in = {src, 0, 0};
        xc_out_buffer out = {sframe, 0, 0};
        unsigned idle = 0;
        for (;;) {
            size_t step_in = 1 + lcg_next(&seed) % (opt & 0x40 ? 64 : 70000);
            size_t step_out = 1 + lcg_next(&seed) % (opt & 0x80 ? 32 : 70000);
            in.size = in.pos + (step_in < n - in.pos ? step_in : n - in.pos);
            out.size = out.pos + (step_out < cap - out.pos ? step_out : cap - out.pos);
            xc_zstd_end_op op = in.size == n                               ? XC_ZSTD_E_END
                                : (opt & 0x20) && lcg_next(&seed) % 4 == 0 ? XC_ZSTD_E_FLUSH
                                                                           : XC_ZSTD_E_CONTINUE;
            size_t before = in.pos + out.pos;
            size_t r = xc_zstd_compress_stream(cctx, &out, &in, op);
            if (xc_is_error(r)) __builtin_trap();
            if (op == XC_ZSTD_E_END && r == 0) break;
            if (in.pos + out.pos == before && ++idle > 1000) __builtin_trap();
        }
        check_frame(sframe, out.pos, src, n);
        free(sframe);
    }
    free(frame);
    return 0;
}
