/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The seekable reader: the seek table read from the end of the input into
 * two arrays of offsets, then ranges served frame by frame.
 *
 * Trust: the table is checked as a whole when it is opened (the footer,
 * the reserved descriptor bits, a skippable header that frames exactly the
 * entries, compressed sizes that add up to exactly the bytes before the
 * table), so every frame lies inside the input; a frame is checked when it
 * is decoded (exactly one frame filling its compressed size, whose content
 * is exactly its decompressed size and matches its checksum).  Sizes come
 * from the table, so a destination is never written past what the table
 * promises and the decoder is told that bound.
 *
 * What it may call: the public one-shot decoder and frame inspection,
 * XXH64 (zstd/common/xxh64.h).
 */
#include <stdlib.h>

#include "zstd/common/xxh64.h"
#include "zstd/seekable/seekable_internal.h"

xc_zstd_seekable *xc_zstd_seekable_new(void)
{
    return (xc_zstd_seekable *)calloc(1, sizeof(xc_zstd_seekable));
}

static void drop_input(xc_zstd_seekable *r)
{
    free(r->c_off);
    free(r->d_off);
    free(r->sum);
    r->c_off = r->d_off = NULL;
    r->sum = NULL;
    r->buf = NULL;
    r->read_at = NULL;
    r->opaque = NULL;
    r->size = 0;
    r->n = 0;
    r->open = 0;
    r->cached = 0;
}

void xc_zstd_seekable_free(xc_zstd_seekable *r)
{
    if (!r) return;
    drop_input(r);
    xc_zstd_dctx_free(r->dctx);
    free(r->src);
    free(r->cache);
    free(r);
}

static size_t read_input(const xc_zstd_seekable *r, void *dst, size_t len, uint64_t off)
{
    if (r->buf) {
        memcpy(dst, r->buf + off, len);
        return 0;
    }
    RETURN_ERROR_IF(r->read_at(r->opaque, dst, len, off) != 0, TRUNCATED);
    return 0;
}

/* Reads the table; the input fields are set, the table ones not yet. */
static size_t parse_table(xc_zstd_seekable *r)
{
    uint8_t foot[SK_FOOTER_SIZE];
    RETURN_ERROR_IF(r->size < SK_HEADER_SIZE + SK_FOOTER_SIZE, SEEK_TABLE_MISSING);
    FORWARD_IF_ERROR(read_input(r, foot, SK_FOOTER_SIZE, r->size - SK_FOOTER_SIZE));
    RETURN_ERROR_IF(xc_read_le32(foot + 5) != XC_ZSTD_SEEKABLE_MAGIC, SEEK_TABLE_MISSING);
    uint32_t const n = xc_read_le32(foot);
    uint8_t const desc = foot[4];
    RETURN_ERROR_IF(desc & SK_DESC_RESERVED, SEEK_TABLE_CORRUPT);
    int const sums = (desc & SK_DESC_CHECKSUM) != 0;
    uint64_t const es = sums ? SK_ENTRY_SIZE_CHECKSUM : SK_ENTRY_SIZE;
    uint64_t const body = (uint64_t)n * es + SK_FOOTER_SIZE;
    RETURN_ERROR_IF(body > r->size - SK_HEADER_SIZE, SEEK_TABLE_CORRUPT);
    uint64_t const table_at = r->size - SK_HEADER_SIZE - body;
    uint8_t head[SK_HEADER_SIZE];
    FORWARD_IF_ERROR(read_input(r, head, SK_HEADER_SIZE, table_at));
    RETURN_ERROR_IF(xc_read_le32(head) != XC_ZSTD_SEEKABLE_TABLE_MAGIC ||
                        xc_read_le32(head + 4) != body,
                    SEEK_TABLE_CORRUPT);

    /* The entries, read in pieces so a callback input needs no buffer of
     * the whole table. */
    r->c_off = (uint64_t *)malloc(((size_t)n + 1) * sizeof *r->c_off);
    r->d_off = (uint64_t *)malloc(((size_t)n + 1) * sizeof *r->d_off);
    r->sum = sums ? (uint32_t *)malloc((n ? (size_t)n : 1) * sizeof *r->sum) : NULL;
    RETURN_ERROR_IF(!r->c_off || !r->d_off || (sums && !r->sum), OUT_OF_MEMORY);
    uint8_t chunk[SK_ENTRY_SIZE_CHECKSUM * 256];
    uint64_t c = 0, d = 0, cmax = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t const k = XC_MIN(n - i, 256u);
        FORWARD_IF_ERROR(
            read_input(r, chunk, (size_t)(k * es), table_at + SK_HEADER_SIZE + i * es));
        for (uint32_t j = 0; j < k; j++, i++) {
            const uint8_t *const e = chunk + j * es;
            uint32_t const cs = xc_read_le32(e);
            r->c_off[i] = c;
            r->d_off[i] = d;
            c += cs;
            d += xc_read_le32(e + 4);
            if (cs > cmax) cmax = cs;
            if (sums) r->sum[i] = xc_read_le32(e + 8);
        }
        /* c grows by less than 2^32 per entry: it cannot wrap before it
         * passes the input size. */
        RETURN_ERROR_IF(c > table_at, SEEK_TABLE_CORRUPT);
    }
    RETURN_ERROR_IF(c != table_at, SEEK_TABLE_CORRUPT);
    r->c_off[n] = c;
    r->d_off[n] = d;
    r->n = n;
    r->c_max = cmax;
    r->checksums = sums;
    r->cached = n;
    r->open = 1;
    return 0;
}

static size_t open_common(xc_zstd_seekable *r)
{
    size_t const e = parse_table(r);
    if (xc_iserr(e)) drop_input(r);
    return e;
}

size_t xc_zstd_seekable_open_buffer(xc_zstd_seekable *r, const void *src, size_t size)
{
    RETURN_ERROR_IF(!r || (!src && size), BAD_PARAMETER);
    drop_input(r);
    static const uint8_t empty[1];
    r->buf = src ? (const uint8_t *)src : empty;
    r->size = size;
    return open_common(r);
}

size_t xc_zstd_seekable_open_callback(xc_zstd_seekable *r, xc_read_at_fn read_at, void *opaque,
                                      unsigned long long size)
{
    RETURN_ERROR_IF(!r || !read_at, BAD_PARAMETER);
    drop_input(r);
    r->read_at = read_at;
    r->opaque = opaque;
    r->size = size;
    return open_common(r);
}

unsigned xc_zstd_seekable_frames(const xc_zstd_seekable *r) { return r && r->open ? r->n : 0; }

unsigned long long xc_zstd_seekable_content_size(const xc_zstd_seekable *r)
{
    return r && r->open ? r->d_off[r->n] : 0;
}

int xc_zstd_seekable_has_checksums(const xc_zstd_seekable *r)
{
    return r && r->open ? r->checksums : 0;
}

#define FRAME_FIELD(name, expr)                                                            \
    unsigned long long xc_zstd_seekable_frame_##name(const xc_zstd_seekable *r, unsigned i) \
    {                                                                                       \
        if (!r || !r->open || i >= r->n) return 0;                                          \
        return (expr);                                                                      \
    }
FRAME_FIELD(c_offset, r->c_off[i])
FRAME_FIELD(c_size, r->c_off[i + 1] - r->c_off[i])
FRAME_FIELD(d_offset, r->d_off[i])
FRAME_FIELD(d_size, r->d_off[i + 1] - r->d_off[i])
#undef FRAME_FIELD

unsigned xc_zstd_seekable_frame_of(const xc_zstd_seekable *r, unsigned long long offset)
{
    if (!r || !r->open || offset >= r->d_off[r->n]) return r && r->open ? r->n : 0;
    /* The last frame whose start is at or before offset and which is not
     * empty: d_off[lo] <= offset < d_off[hi]. */
    uint32_t lo = 0, hi = r->n;
    while (hi - lo > 1) {
        uint32_t const mid = lo + (hi - lo) / 2;
        if (r->d_off[mid] <= offset) lo = mid;
        else hi = mid;
    }
    return lo;
}

int xc_sk_plausible(const xc_zstd_seekable *r, uint32_t i)
{
    uint64_t const cs = r->c_off[i + 1] - r->c_off[i];
    uint64_t const ds = r->d_off[i + 1] - r->d_off[i];
    return ds / SK_EXPANSION_MAX <= cs;
}

size_t xc_sk_decode_frame(const xc_zstd_seekable *r, uint32_t i, uint8_t *dst,
                          xc_zstd_dctx *dctx, uint8_t **src, size_t *src_cap, int verify)
{
    uint64_t const cs = r->c_off[i + 1] - r->c_off[i];
    uint64_t const ds = r->d_off[i + 1] - r->d_off[i];
    RETURN_ERROR_IF(!xc_sk_plausible(r, i), SEEK_TABLE_MISMATCH);
    const uint8_t *in;
    if (r->buf) {
        in = r->buf + r->c_off[i];
    } else {
        if (*src_cap < cs) {
            uint8_t *const p = (uint8_t *)realloc(*src, (size_t)cs);
            RETURN_ERROR_IF(!p, OUT_OF_MEMORY);
            *src = p;
            *src_cap = (size_t)cs;
        }
        FORWARD_IF_ERROR(read_input(r, *src, (size_t)cs, r->c_off[i]));
        in = *src;
    }
    /* Exactly one frame, announcing (when it does) the entry's size. */
    size_t const fsize = xc_zstd_find_frame_compressed_size(in, (size_t)cs);
    RETURN_ERROR_IF(xc_iserr(fsize) || fsize != cs, SEEK_TABLE_MISMATCH);
    unsigned long long const fcs = xc_zstd_frame_content_size(in, (size_t)cs);
    RETURN_ERROR_IF(fcs != XC_ZSTD_CONTENTSIZE_UNKNOWN && fcs != ds, SEEK_TABLE_MISMATCH);
    size_t const got = xc_zstd_decompress_dctx(dctx, dst, (size_t)ds, in, (size_t)cs);
    if (xc_error_code(got) == XC_ERROR_DST_TOO_SMALL) return XC_ERROR(SEEK_TABLE_MISMATCH);
    FORWARD_IF_ERROR(got);
    RETURN_ERROR_IF(got != ds, SEEK_TABLE_MISMATCH);
    if (verify && r->sum)
        RETURN_ERROR_IF(!xc_sk_checksum_ok(r, i, xc_xxh64(dst, (size_t)ds, 0)), CHECKSUM);
    return 0;
}

static size_t ensure_dctx(xc_zstd_seekable *r)
{
    if (!r->dctx) r->dctx = xc_zstd_dctx_new();
    RETURN_ERROR_IF(!r->dctx, OUT_OF_MEMORY);
    return 0;
}

/* Puts frame i's content into the cache. */
static size_t load_cache(xc_zstd_seekable *r, uint32_t i)
{
    if (r->cached == i) return 0;
    uint64_t const ds = r->d_off[i + 1] - r->d_off[i];
    RETURN_ERROR_IF(!xc_sk_plausible(r, i), SEEK_TABLE_MISMATCH);
    RETURN_ERROR_IF(ds > SIZE_MAX, OUT_OF_MEMORY);
    if (r->cache_cap < ds) {
        free(r->cache);
        r->cache_cap = 0;
        r->cache = (uint8_t *)malloc((size_t)ds);
        RETURN_ERROR_IF(!r->cache, OUT_OF_MEMORY);
        r->cache_cap = (size_t)ds;
    }
    r->cached = r->n;
    FORWARD_IF_ERROR(xc_sk_decode_frame(r, i, r->cache, r->dctx, &r->src, &r->src_cap, 1));
    r->cached = i;
    return 0;
}

size_t xc_zstd_seekable_read(xc_zstd_seekable *r, void *dst, size_t len, unsigned long long offset)
{
    RETURN_ERROR_IF(!r, BAD_PARAMETER);
    RETURN_ERROR_IF(!r->open, STAGE_WRONG);
    RETURN_ERROR_IF(!dst && len, BAD_PARAMETER);
    uint64_t const total = r->d_off[r->n];
    RETURN_ERROR_IF(offset > total, OUT_OF_RANGE);
    if (len > total - offset) len = (size_t)(total - offset);
    if (!len) return 0;
    FORWARD_IF_ERROR(ensure_dctx(r));
    uint8_t *out = (uint8_t *)dst;
    size_t done = 0;
    uint32_t i = xc_zstd_seekable_frame_of(r, offset);
    while (done < len) {
        uint64_t const pos = offset + done;
        while (r->d_off[i + 1] <= pos) i++; /* empty frames hold no range */
        uint64_t const start = r->d_off[i], ds = r->d_off[i + 1] - start;
        size_t const skip = (size_t)(pos - start);
        size_t const k = (size_t)XC_MIN((uint64_t)(len - done), ds - skip);
        if (skip == 0 && k == ds && r->cached != i) {
            /* The whole frame is wanted: straight into place. */
            FORWARD_IF_ERROR(
                xc_sk_decode_frame(r, i, out + done, r->dctx, &r->src, &r->src_cap, 1));
        } else {
            FORWARD_IF_ERROR(load_cache(r, i));
            memcpy(out + done, r->cache + skip, k);
        }
        done += k;
        i++;
    }
    return done;
}
