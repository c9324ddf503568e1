/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: zstd compression under every parameter.  The first 12
 * bytes choose the level, strategy, window, hash, chain and search logs,
 * minimum match, target length, long-distance matching and its settings,
 * the checksum and content-size flags, one-shot or streaming, a pledged
 * size, and the seed of the streaming piece sizes and flushes; the rest
 * (at most 128 KiB, so that slow levels stay quick) is the content.  Logs
 * stay at 20 or below so that a run needs tens of megabytes, not
 * gigabytes.  One-shot frames go into a buffer of exactly the bound.  The frame must decode back to the content with our decoder
 * and, when present, with libzstd.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_zstd_util.h"
#include "xcodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEADER 12
#define CONTENT_MAX ((size_t)128 << 10)

/* 0 (the default) for about a quarter of the byte values, else a value in
 * [lo, hi]. */
static int pick(uint8_t b, int lo, int hi)
{
    if (b < 64) return 0;
    return lo + (int)(b - 64) % (hi - lo + 1);
}

static void set(xc_zstd_cctx *c, xc_zstd_cparam p, int v)
{
    if (xc_zstd_cctx_set(c, p, v) != 0) __builtin_trap();
}

static size_t stream(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *src, size_t n,
                     uint32_t seed, int flushes)
{
    xc_in_buffer in = {src, 0, 0};
    xc_out_buffer out = {dst, 0, 0};
    unsigned idle = 0;
    for (;;) {
        size_t step_in = 1 + lcg_next(&seed) % (seed & 0x100 ? 100 : 40000);
        size_t step_out = 1 + lcg_next(&seed) % (seed & 0x200 ? 50 : 40000);
        in.size = in.pos + (step_in < n - in.pos ? step_in : n - in.pos);
        out.size = out.pos + (step_out < cap - out.pos ? step_out : cap - out.pos);
        xc_zstd_end_op op = in.size == n                          ? XC_ZSTD_E_END
                            : flushes && lcg_next(&seed) % 8 == 0 ? XC_ZSTD_E_FLUSH
                                                                  : XC_ZSTD_E_CONTINUE;
        size_t before = in.pos + out.pos;
        size_t r = xc_zstd_compress_stream(c, &out, &in, op);
        if (xc_is_error(r)) __builtin_trap();
        if (op == XC_ZSTD_E_END && r == 0) break;
        if (in.pos + out.pos == before && ++idle > 1000) __builtin_trap();
    }
    return out.pos;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xc_zstd_cctx *cctx;
    if (size < HEADER) return 0;
    if (!cctx && !(cctx = xc_zstd_cctx_new())) return 0;
    const uint8_t *h = data;
    const uint8_t *src = data + HEADER;
    size_t const n = size - HEADER < CONTENT_MAX ? size - HEADER : CONTENT_MAX;
    unsigned const flags = h[8];

    if (xc_zstd_cctx_reset(cctx) != 0) __builtin_trap();
    int const span = xc_zstd_max_level() - xc_zstd_min_level() + 1;
    set(cctx, XC_ZSTD_C_LEVEL, xc_zstd_min_level() + h[0] % span);
    set(cctx, XC_ZSTD_C_STRATEGY, pick(h[1], 1, 9));
    /* A frame of unknown size keeps the level's window and tables (up to
     * 2^27 and 2^27 entries): cap them at 2^20 then. */
    int const unknown = (flags & 0x30) == 0x10;
    int const wlog = pick(h[2], 10, 20), hlog = pick(h[3], 6, 20), clog = pick(h[4], 6, 20);
    set(cctx, XC_ZSTD_C_WINDOW_LOG, wlog || !unknown ? wlog : 20);
    set(cctx, XC_ZSTD_C_HASH_LOG, hlog || !unknown ? hlog : 20);
    set(cctx, XC_ZSTD_C_CHAIN_LOG, clog || !unknown ? clog : 20);
    set(cctx, XC_ZSTD_C_SEARCH_LOG, pick(h[5], 1, 10));
    set(cctx, XC_ZSTD_C_MIN_MATCH, pick(h[6], 3, 7));
    set(cctx, XC_ZSTD_C_TARGET_LENGTH, h[7] < 64 ? 0 : h[7] < 192 ? h[7] - 63 : (h[7] - 191) * 2048);
    /* Long-distance matching: auto, on or off; its settings from h[9..11],
     * small tables and samples so that short inputs exercise it. */
    set(cctx, XC_ZSTD_C_LONG_DISTANCE, (int)(flags % 3));
    set(cctx, XC_ZSTD_C_LDM_HASH_LOG, pick(h[9], 6, 20));
    set(cctx, XC_ZSTD_C_LDM_MIN_MATCH, h[10] < 64 ? 0 : h[10] < 224 ? 4 + (h[10] - 64) / 4 : 4096);
    set(cctx, XC_ZSTD_C_LDM_BUCKET_LOG, (h[11] & 0x1F) == 0 ? 0 : 1 + (h[11] & 0x1F) % 8);
    set(cctx, XC_ZSTD_C_LDM_HASH_RATE_LOG, (h[11] >> 5) == 0 ? 0 : (h[11] >> 5) - 1);
    set(cctx, XC_ZSTD_C_CHECKSUM, (flags >> 2) & 1);
    set(cctx, XC_ZSTD_C_CONTENT_SIZE, (flags >> 3) & 1);

    size_t const bound = xc_zstd_compress_bound(n);
    size_t const cap = 2 * bound + 64; /* flushes add block headers */
    uint8_t *frame = malloc(cap);
    if (!frame) return 0;
    size_t fsize;
    if (flags & 0x10) {
        if (flags & 0x20 && xc_zstd_cctx_set_pledged_size(cctx, n) != 0) __builtin_trap();
        uint32_t const seed = (uint32_t)h[0] << 24 | (uint32_t)h[7] << 16 | h[9] << 8 | h[11];
        fsize = stream(cctx, frame, cap, src, n, seed, (flags & 0x40) != 0);
    } else {
        fsize = xc_zstd_compress_cctx(cctx, frame, bound, src, n);
        if (xc_is_error(fsize)) __builtin_trap();
    }
    check_frame(frame, fsize, src, n);
    free(frame);
    return 0;
}
