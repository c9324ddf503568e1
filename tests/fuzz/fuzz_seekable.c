/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the seekable reader over arbitrary bytes.  The input is
 * opened as a buffer (exactly its size, so ASan sees any read past it) and
 * through a read-at callback that traps on any request outside it; both
 * must agree on the table.  When it opens, a few ranges picked from the
 * input's first bytes are read both ways and must agree, and the whole
 * content (when small) is decoded serially and on two workers, with the
 * same result as the reads.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xcodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CONTENT_MAX ((unsigned long long)1 << 22)

typedef struct {
    const uint8_t *p;
    size_t size;
} src_t;

static int read_at(void *opaque, void *buf, size_t len, unsigned long long off)
{
    const src_t *s = (const src_t *)opaque;
    if (off > s->size || len > s->size - off) __builtin_trap();
    memcpy(buf, s->p + off, len);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xc_zstd_seekable *a, *b;
    if (!a && !(a = xc_zstd_seekable_new())) return 0;
    if (!b && !(b = xc_zstd_seekable_new())) return 0;
    uint8_t *copy = (uint8_t *)malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    src_t s = {copy, size};

    size_t const ea = xc_zstd_seekable_open_buffer(a, copy, size);
    size_t const eb = xc_zstd_seekable_open_callback(b, read_at, &s, size);
    if (ea != eb) __builtin_trap();
    if (xc_is_error(ea)) goto done;
    unsigned long long const total = xc_zstd_seekable_content_size(a);
    if (total != xc_zstd_seekable_content_size(b)) __builtin_trap();
    unsigned const n = xc_zstd_seekable_frames(a);
    for (unsigned i = 0; i < n; i++)
        if (xc_zstd_seekable_frame_c_offset(a, i) + xc_zstd_seekable_frame_c_size(a, i) > size)
            __builtin_trap();
    if (total > CONTENT_MAX) goto done;

    size_t const cap = (size_t)total;
    uint8_t *x = (uint8_t *)malloc(cap + 1), *y = (uint8_t *)malloc(cap + 1);
    if (!x || !y) goto free_xy;
    for (unsigned t = 0; t < 4 && size >= 4 * t + 4; t++) {
        unsigned long long const off = cap ? (data[4 * t] | (data[4 * t + 1] << 8)) % (cap + 1) : 0;
        size_t const len = (size_t)(data[4 * t + 2] | (data[4 * t + 3] << 8)) % (cap - off + 1);
        size_t const ra = xc_zstd_seekable_read(a, x, len, off);
        size_t const rb = xc_zstd_seekable_read(b, y, len, off);
        if (ra != rb) __builtin_trap();
        if (!xc_is_error(ra) && (ra != len || memcmp(x, y, ra) != 0)) __builtin_trap();
    }
    size_t const s1 = xc_zstd_seekable_decompress_all(a, x, cap, 1);
    size_t const s2 = xc_zstd_seekable_decompress_all(b, y, cap, 2);
    if (s1 != s2) __builtin_trap();
    if (!xc_is_error(s1)) {
        if (s1 != cap || memcmp(x, y, cap) != 0) __builtin_trap();
        size_t const r = xc_zstd_seekable_read(a, y, cap, 0);
        if (r != cap || memcmp(x, y, cap) != 0) __builtin_trap();
    }
free_xy:
    free(x);
    free(y);
done:
    free(copy);
    return 0;
}
