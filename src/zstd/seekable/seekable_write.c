/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The seekable writer: input gathered into frames of max_frame_size bytes
 * of content, each compressed on its own by the borrowed cctx (one-shot,
 * so its header records the content size, which readers check against the
 * seek table), then the seek table as the file's last skippable frame.
 *
 * A frame is cut at a fixed content size, never where a call happens to
 * end, so the output depends on the bytes alone.  With workers on the
 * cctx (XC_ZSTD_C_NB_WORKERS >= 1) the writer gathers nb_workers + 1
 * frames of input and hands them to the cctx's workers at once, a whole
 * frame to each (xc_zstd_mt_frames), each the frame the cctx writes
 * without workers: the file is the same for every number of workers, 0
 * included.
 *
 * What it may call: the public compression entry (xc_zstd_compress_cctx),
 * the workers' independent frames (compress/compress_frames.h), XXH64
 * (zstd/common/xxh64.h).
 */
#include <stdlib.h>

#include "zstd/common/xxh64.h"
#include "zstd/compress/compress_frames.h"
#include "zstd/seekable/seekable_internal.h"

typedef struct {
    uint32_t c_size, d_size, sum;
} sk_entry;

enum { W_WRITING, W_DONE, W_FAILED };

struct xc_zstd_seekable_writer_s {
    xc_zstd_cctx *cctx;
    size_t max;
    int checksums;
    int stage;
    int table_queued;
    unsigned batch;     /* frames gathered before they are compressed: 1, or
                           nb_workers + 1 with workers */
    uint8_t *buf;       /* the frames being gathered, batch * max bytes */
    size_t fill;
    uint32_t *c_sizes;  /* with workers: the batch's compressed sizes */
    uint8_t *pend;      /* output not yet handed out */
    size_t pend_cap, pend_size, pend_pos;
    sk_entry *entries;
    size_t n, entries_cap;
};

xc_zstd_seekable_writer *xc_zstd_seekable_writer_new(xc_zstd_cctx *cctx, unsigned max_frame_size,
                                                     int checksums)
{
    if (!cctx || max_frame_size > XC_ZSTD_SEEKABLE_FRAME_SIZE_MAX) return NULL;
    if (!max_frame_size) max_frame_size = XC_ZSTD_SEEKABLE_FRAME_SIZE_DEFAULT;
    size_t const bound = xc_zstd_compress_bound(max_frame_size);
    if (xc_iserr(bound)) return NULL;
    xc_zstd_seekable_writer *w = (xc_zstd_seekable_writer *)calloc(1, sizeof *w);
    if (!w) return NULL;
    w->cctx = cctx;
    w->max = max_frame_size;
    w->checksums = checksums != 0;
    int const workers = xc_zstd_cctx_workers(cctx);
    w->batch = workers > 0 ? (unsigned)workers + 1 : 1;
    /* A batch's input and output must be addressable. */
    if (w->batch > 1 && (SIZE_MAX / w->batch < bound || SIZE_MAX / w->batch < w->max)) {
        free(w);
        return NULL;
    }
    w->buf = (uint8_t *)malloc(w->batch * w->max);
    w->pend = (uint8_t *)malloc(w->batch * bound);
    w->pend_cap = w->batch * bound;
    if (w->batch > 1) w->c_sizes = (uint32_t *)malloc(w->batch * sizeof *w->c_sizes);
    if (!w->buf || !w->pend || (w->batch > 1 && !w->c_sizes)) {
        xc_zstd_seekable_writer_free(w);
        return NULL;
    }
    return w;
}

void xc_zstd_seekable_writer_free(xc_zstd_seekable_writer *w)
{
    if (!w) return;
    free(w->buf);
    free(w->c_sizes);
    free(w->pend);
    free(w->entries);
    free(w);
}

static size_t drain(xc_zstd_seekable_writer *w, xc_out_buffer *out)
{
    size_t const k = XC_MIN(w->pend_size - w->pend_pos, out->size - out->pos);
    if (k) memcpy((uint8_t *)out->dst + out->pos, w->pend + w->pend_pos, k);
    out->pos += k;
    w->pend_pos += k;
    return w->pend_size - w->pend_pos;
}

static size_t fail(xc_zstd_seekable_writer *w, size_t err)
{
    w->stage = W_FAILED;
    return err;
}

static size_t add_entry(xc_zstd_seekable_writer *w, size_t c_size, const uint8_t *content,
                        size_t d_size)
{
    if (w->n == w->entries_cap) {
        size_t const cap = w->entries_cap ? 2 * w->entries_cap : 64;
        sk_entry *const e = (sk_entry *)realloc(w->entries, cap * sizeof *e);
        if (!e) return fail(w, XC_ERROR(OUT_OF_MEMORY));
        w->entries = e;
        w->entries_cap = cap;
    }
    if (w->n >= SK_FRAMES_MAX) return fail(w, XC_ERROR(UNSUPPORTED));
    sk_entry *const e = &w->entries[w->n++];
    e->c_size = (uint32_t)c_size; /* at most compress_bound(1 GiB) */
    e->d_size = (uint32_t)d_size;
    e->sum = w->checksums ? (uint32_t)xc_xxh64(content, d_size, 0) : 0;
    return 0;
}

/* Compresses the gathered content (1 to batch frames) into pend, which is
 * empty, and records the entries. */
static size_t emit_frames(xc_zstd_seekable_writer *w)
{
    size_t c;
    if (w->batch == 1) {
        c = xc_zstd_compress_cctx(w->cctx, w->pend, w->pend_cap, w->buf, w->fill);
        if (xc_iserr(c)) return fail(w, c);
        FORWARD_IF_ERROR(add_entry(w, c, w->buf, w->fill));
    } else {
        c = xc_zstd_mt_frames(w->cctx, w->buf, w->fill, w->max, w->pend, w->pend_cap,
                              w->c_sizes);
        if (xc_iserr(c)) return fail(w, c);
        for (size_t k = 0, off = 0; off < w->fill; k++, off += w->max)
            FORWARD_IF_ERROR(add_entry(w, w->c_sizes[k], w->buf + off,
                                       XC_MIN(w->max, w->fill - off)));
    }
    w->pend_size = c;
    w->pend_pos = 0;
    w->fill = 0;
    return 0;
}

static size_t queue_table(xc_zstd_seekable_writer *w)
{
    size_t const es = w->checksums ? SK_ENTRY_SIZE_CHECKSUM : SK_ENTRY_SIZE;
    size_t const body = w->n * es + SK_FOOTER_SIZE;
    size_t const total = SK_HEADER_SIZE + body;
    if (total > w->pend_cap) {
        uint8_t *const p = (uint8_t *)realloc(w->pend, total);
        if (!p) return fail(w, XC_ERROR(OUT_OF_MEMORY));
        w->pend = p;
        w->pend_cap = total;
    }
    uint8_t *p = w->pend;
    xc_write_le32(p, XC_ZSTD_SEEKABLE_TABLE_MAGIC);
    xc_write_le32(p + 4, (uint32_t)body);
    p += SK_HEADER_SIZE;
    for (size_t i = 0; i < w->n; i++, p += es) {
        xc_write_le32(p, w->entries[i].c_size);
        xc_write_le32(p + 4, w->entries[i].d_size);
        if (w->checksums) xc_write_le32(p + 8, w->entries[i].sum);
    }
    xc_write_le32(p, (uint32_t)w->n);
    p[4] = w->checksums ? SK_DESC_CHECKSUM : 0;
    xc_write_le32(p + 5, XC_ZSTD_SEEKABLE_MAGIC);
    w->pend_size = total;
    w->pend_pos = 0;
    w->table_queued = 1;
    return 0;
}

static int out_ok(const xc_out_buffer *out)
{
    return out && out->pos <= out->size && (out->dst || out->size == 0);
}

size_t xc_zstd_seekable_write(xc_zstd_seekable_writer *w, xc_out_buffer *out, xc_in_buffer *in)
{
    RETURN_ERROR_IF(!w || !out_ok(out) || !in || in->pos > in->size || (!in->src && in->size),
                    BAD_PARAMETER);
    RETURN_ERROR_IF(w->stage != W_WRITING || w->table_queued, STAGE_WRONG);
    for (;;) {
        size_t const rem = drain(w, out);
        if (rem) return rem;
        if (w->fill == w->batch * w->max) {
            FORWARD_IF_ERROR(emit_frames(w));
            continue;
        }
        if (in->pos == in->size) return 0;
        size_t const k = XC_MIN(in->size - in->pos, w->batch * w->max - w->fill);
        memcpy(w->buf + w->fill, (const uint8_t *)in->src + in->pos, k);
        w->fill += k;
        in->pos += k;
    }
}

size_t xc_zstd_seekable_finish(xc_zstd_seekable_writer *w, xc_out_buffer *out)
{
    RETURN_ERROR_IF(!w || !out_ok(out), BAD_PARAMETER);
    if (w->stage == W_DONE) return 0;
    RETURN_ERROR_IF(w->stage != W_WRITING, STAGE_WRONG);
    for (;;) {
        size_t const rem = drain(w, out);
        if (rem) return rem;
        if (w->fill) {
            FORWARD_IF_ERROR(emit_frames(w));
        } else if (!w->table_queued) {
            FORWARD_IF_ERROR(queue_table(w));
        } else {
            w->stage = W_DONE;
            return 0;
        }
    }
}
