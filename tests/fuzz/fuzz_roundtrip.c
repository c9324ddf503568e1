/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target (built when libzstd is present): the input is content;
 * libzstd compresses it with parameters taken from its first three bytes
 * and xcodec must decode the frame to exactly the content, one-shot and
 * streaming in pieces.  Where the other targets find crashes on invalid
 * frames, this one finds wrong output on valid frames of odd content.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_c_targetCBlockSize */
#include <zstd.h>

#include "xcodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ZSTD_CCtx *cctx;
    static xc_zstd_dctx *dctx;
    if (size < 3) return 0;
    if (!cctx && !(cctx = ZSTD_createCCtx())) return 0;
    if (!dctx && !(dctx = xc_zstd_dctx_new())) return 0;
    /* Byte 0: level -7..19 (the slowest levels are left to the tests).
     * Byte 1: checksum, window log 10..17 or the level's, minimum match,
     * small compressed blocks.  Byte 2: piece size for streaming. */
    int level = (int)(data[0] % 27) - 7;
    unsigned flags = data[1];
    size_t step = 1 + data[2];
    const uint8_t *src = data + 3;
    size_t n = size - 3;

    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level ? level : 1);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, flags & 1);
    if (flags & 2) ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, 10 + (int)(flags >> 5));
    if (flags & 4) ZSTD_CCtx_setParameter(cctx, ZSTD_c_minMatch, 3 + (int)((flags >> 3) & 3));
    if (flags & 16) ZSTD_CCtx_setParameter(cctx, ZSTD_c_targetCBlockSize, 1340);
    size_t bound = ZSTD_compressBound(n);
    uint8_t *frame = malloc(bound), *out = malloc(n ? n : 1);
    if (!frame || !out) goto done;
    size_t fn = ZSTD_compress2(cctx, frame, bound, src, n);
    if (ZSTD_isError(fn)) goto done;

    /* The destination is exactly the content: ASan's redzone follows. */
    size_t r = xc_zstd_decompress(out, n, frame, fn);
    if (r != n || memcmp(out, src, n) != 0) __builtin_trap();

    xc_zstd_dctx_reset(dctx);
    xc_in_buffer in = {frame, 0, 0};
    xc_out_buffer o = {out, 0, 0};
    memset(out, 0, n);
    for (unsigned calls = 0;; calls++) {
        in.size = in.pos + (fn - in.pos < step ? fn - in.pos : step);
        o.size = o.pos + (n - o.pos < step ? n - o.pos : step);
        r = xc_zstd_decompress_stream(dctx, &o, &in);
        if (xc_is_error(r) || calls > 4 * (fn + n) + 64) __builtin_trap();
        if (r == 0 && in.pos == fn) break;
    }
    if (o.pos != n || memcmp(out, src, n) != 0) __builtin_trap();
done:
    free(frame);
    free(out);
    return 0;
}
