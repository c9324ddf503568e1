/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the block level (xc_zstd_block_*).  The input is an
 * option byte (level from its low 3 bits, block size from the next 3)
 * then content.  The content goes through a series of blocks and back,
 * raw blocks inserted, and must come back whole; then the same bytes are
 * handed to a fresh decoder as hostile block bodies, one after another,
 * decoded into one buffer whose end ASan guards: a named error or output
 * within the room, nothing else.  It shares the
 * roundtrip seeds (three option bytes then content).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xcodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xc_zstd_cctx *c;
    static xc_zstd_dctx *d;
    if (size < 1) return 0;
    if (!c && !(c = xc_zstd_cctx_new())) return 0;
    if (!d && !(d = xc_zstd_dctx_new())) return 0;
    static const int levels[8] = {-3, 1, 2, 3, 5, 7, 12, 16};
    unsigned const opt = data[0];
    const uint8_t *src = data + 1;
    size_t const n = size - 1;
    unsigned const log = 6 + ((opt >> 3) & 7) * 2;
    size_t const block = (size_t)1 << (log > 17 ? 17 : log);
    xc_zstd_cctx_reset(c);
    if (xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, levels[opt & 7]) != 0) __builtin_trap();
    uint8_t *out = malloc(n ? n : 1), *body = malloc(block + 64);
    if (!out || !body) goto done;

    if (xc_zstd_block_compress_begin(c) != 0) goto done;
    if (xc_zstd_block_decompress_begin(d) != 0) __builtin_trap();
    for (size_t at = 0; at < n;) {
        size_t const len = n - at < block ? n - at : block;
        size_t const z = xc_zstd_block_compress(c, body, block + 64, src + at, len);
        if (xc_is_error(z) || z >= len + (len == 0)) __builtin_trap();
        if (z == 0) {
            memcpy(out + at, src + at, len);
            if (xc_zstd_block_insert(d, out + at, len) != len) __builtin_trap();
        } else if (xc_zstd_block_decompress(d, out + at, len, body, z) != len) {
            __builtin_trap();
        }
        at += len;
    }
    if (n && memcmp(out, src, n) != 0) __builtin_trap();

    /* Hostile: the content as bodies of up to `block` bytes, decoded one
     * after another into the rest of `out` (whose end ASan guards), so
     * history builds up behind them. */
    if (xc_zstd_block_decompress_begin(d) != 0) __builtin_trap();
    for (size_t at = 0, o = 0; at < n && o < n;) {
        size_t const len = n - at < block ? n - at : block;
        size_t const r = xc_zstd_block_decompress(d, out + o, n - o, src + at, len);
        if (xc_is_error(r)) {
            enum xc_error const e = xc_error_code(r);
            if (e != XC_ERROR_CORRUPT && e != XC_ERROR_DST_TOO_SMALL) __builtin_trap();
            break;
        }
        if (r > n - o) __builtin_trap();
        o += r;
        at += len;
    }
done:
    free(out);
    free(body);
    return 0;
}
