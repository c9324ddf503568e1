/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: dictionary decoding.  The input is a 2-byte
 * little-endian dictionary length, the dictionary, then the frames.  The
 * dictionary is used loaded into a context and as a prepared ddict; both
 * must accept or refuse it together and decode the frames the same way.
 * Streaming with the ddict, in pieces whose sizes follow from the input,
 * must agree with one-shot decoding: the same output when that succeeds,
 * never a completed stream when it fails.  The seeds include frames with
 * windows far smaller than their dictionary, whose sequences reach into it
 * beyond the window (RFC 8878 §5, dictionary content), so the streaming
 * window buffer is exercised with the dictionary as its older history.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xcodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP_MAX ((size_t)1 << 22)

/* Piece sizes: up to 2^max_log bytes, from a generator seeded by the
 * input, so that a crash replays from its input alone. */
static size_t piece(uint32_t *s, unsigned max_log, size_t left)
{
    *s = *s * 1103515245u + 12345u;
    size_t const n = 1 + (*s >> 8) % ((size_t)1 << max_log);
    return n < left ? n : left;
}

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

    /* Streaming with the ddict: all at once when the seed's low bits are
     * 0, else in pieces of up to 1..2^15 bytes in and out. */
    uint32_t seed = (uint32_t)size * 2654435761u ^ (n ? src[n - 1] : 0);
    unsigned const in_log = seed % 16, out_log = (seed >> 4) % 16;
    int const whole = (seed & 0xFF) == 0;
    xc_in_buffer in = {src, whole ? n : 0, 0};
    xc_out_buffer out = {b, whole ? cap : 0, 0};
    size_t r = 1;
    int complete = 0;
    unsigned idle = 0;
    while (idle < 8) {
        size_t const in_before = in.pos, out_before = out.pos;
        if (!whole) {
            in.size = in.pos + piece(&seed, in_log, n - in.pos);
            out.size = out.pos + piece(&seed, out_log, cap - out.pos);
        }
        r = xc_zstd_decompress_stream(dctx, &out, &in);
        if (xc_is_error(r)) break;
        if (r == 0 && in.pos == n) {
            complete = 1;
            break;
        }
        idle = in.pos == in_before && out.pos == out_before ? idle + 1 : 0;
    }
    if (!xc_is_error(ra) && n > 0 && xc_is_error(r) &&
        xc_error_code(r) != XC_ERROR_WINDOW_TOO_LARGE)
        __builtin_trap();
    if (!xc_is_error(ra) && complete && (out.pos != ra || memcmp(a, b, ra) != 0))
        __builtin_trap();
    /* What one-shot decoding refuses, streaming never completes (except
     * where only the destination was short). */
    if (xc_is_error(ra) && complete && xc_error_code(ra) != XC_ERROR_DST_TOO_SMALL)
        __builtin_trap();
done:
    xc_zstd_dctx_reset(dctx);
    xc_zstd_ddict_free(ddict);
    if (a != big_a) free(a);
    if (b != big_b) free(b);
    return 0;
}
