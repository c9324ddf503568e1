/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Streaming compression: input and output in pieces of any size.
 *
 * Input is copied into the window buffer, where the match finder sees it
 * together with the history before it; whenever a full block is there it
 * is compressed.  When the buffer is full, its oldest part slides out: the
 * last window's worth of bytes before the next block moves to the front and
 * every index in the match tables drops by as much (xc_zstd_ms_rebase), so
 * the finders work on one contiguous buffer and need no second "old data"
 * segment in their hot loops.  The buffer holds the window plus another
 * window or 2 MiB, whichever is more (capped for the largest windows), so a
 * slide moves one window of bytes per window (or 2 MiB) of input: at most
 * one extra copy per byte, below the cost of matching it.  When the content
 * size is known and smaller, the buffer is just that big and never slides.
 *
 * Output goes straight into the caller's buffer when a whole block fits
 * there; otherwise it is staged in a buffer of one block and handed out as
 * room appears.  The return value is what is still staged.
 *
 * A call with XC_ZSTD_E_END on a fresh frame and room for the worst case
 * is simply one-shot compression, with the content size in the header.
 *
 * With workers (XC_ZSTD_C_NB_WORKERS) the frame goes to compress_mt.c,
 * which cuts the input into jobs instead of blocks.
 *
 * What it may call: the frame plan (dict/compress_dict.c), the frame driver
 * (compress_frame.c), the workers (compress_mt.c), the match state's rebase and the long-distance
 * matcher's (compress/match/), XXH64 (common/).
 */
#include <stdlib.h>

#include "zstd/compress/compress_internal.h"
#include "zstd/compress/match/match_ldm.h"

/* Room for new input after the window of history, at least: with small
 * windows (the fast levels) a buffer of just two windows would slide, that
 * is copy a window, every window of input, which costs as much as matching
 * at those speeds. */
#define STREAM_FRESH_MIN ((uint64_t)2 << 20)

/* Slack in the staging allocation for choosing where the area starts. */
#define STAGE_SHIFT_MAX 4096

/* The window buffer stays below the index limit, so indices into it never
 * need more than 32 bits. */
#define STREAM_BUFFER_MAX ((size_t)XC_ZSTD_INDEX_LIMIT - 2)

void xc_zstd_stream_reset(xc_zstd_cctx *c)
{
    c->stage = XC_ZSTAGE_IDLE;
    c->pledged = XC_ZSTD_SIZE_UNKNOWN;
    c->pledged_set = 0;
    c->in_fill = c->in_done = 0;
    c->out_pos = c->out_end = 0;
    c->frame_ended = 0;
}

static size_t grow(uint8_t **buf, size_t *cap, size_t need)
{
    /* Even an empty frame needs a buffer: indices are taken from it. */
    if (*buf && *cap >= need) return 0;
    free(*buf);
    *cap = 0;
    *buf = (uint8_t *)malloc(need ? need : 1);
    RETURN_ERROR_IF(!*buf, OUT_OF_MEMORY);
    *cap = need;
    return 0;
}

size_t xc_zstd_stream_open(xc_zstd_cctx *c, const xc_zhistory *plan, uint64_t content)
{
    uint64_t const window = (uint64_t)1 << plan->p.window_log;
    uint64_t want = window + XC_MAX(window, STREAM_FRESH_MIN);
    if (want > STREAM_BUFFER_MAX) want = STREAM_BUFFER_MAX;
    if (content < want) want = content;
    size_t const hist = plan->content;
    if (want > STREAM_BUFFER_MAX - hist) want = STREAM_BUFFER_MAX - hist;
    size_t const bsize = (size_t)want + hist;
    FORWARD_IF_ERROR(grow(&c->in_buf, &c->in_cap, bsize));
    c->in_size = bsize;
    FORWARD_IF_ERROR(xc_zstd_cframe_open(c, plan, c->in_buf, bsize));
    c->in_fill = c->in_done = hist;
    return 0;
}

/* Starts a frame.  Returns 1 when the whole frame was written one-shot,
 * 0 when streaming goes on, or an error. */
static size_t begin_frame(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in,
                          xc_zstd_end_op op)
{
    size_t const avail = in->size - in->pos;
    uint64_t content = c->pledged_set ? c->pledged : XC_ZSTD_SIZE_UNKNOWN;
    if (!c->pledged_set && op == XC_ZSTD_E_END) content = avail;
    RETURN_ERROR_IF(content != XC_ZSTD_SIZE_UNKNOWN && avail > content, SRC_SIZE_WRONG);
    xc_zhistory plan;
    FORWARD_IF_ERROR(xc_zstd_plan_frame(c, content, 0, &plan));

    /* (Frames with a dictionary always take the window buffer, where the
     * dictionary's content sits before them.) */
    if (op == XC_ZSTD_E_END && content == avail && plan.mode == XC_ZHIST_NONE) {
        size_t const bound = xc_zstd_compress_bound(avail);
        if (!xc_iserr(bound) && out->size - out->pos >= bound) {
            size_t const r = xc_zstd_cframe_oneshot(c, &plan, (uint8_t *)out->dst + out->pos,
                                                    out->size - out->pos,
                                                    (const uint8_t *)in->src + in->pos, avail);
            FORWARD_IF_ERROR(r);
            out->pos += r;
            in->pos = in->size;
            xc_zstd_stream_reset(c);
            return 1;
        }
    }

    FORWARD_IF_ERROR(xc_zstd_stream_open(c, &plan, content));
    size_t const ocap =
        c->block_max + XC_ZSTD_BLOCK_HEADER + XC_ZSTD_FRAME_HEADER_MAX + XC_ZSTD_CHECKSUM_SIZE;
    FORWARD_IF_ERROR(grow(&c->out_alloc, &c->out_alloc_cap, ocap + STAGE_SHIFT_MAX));
    /* A raw block is a copy from the window buffer to the staging buffer
     * 3 bytes on.  Two large allocations usually share their offset within
     * a page, which would put each store 3 bytes past the load 4 KiB
     * earlier in the address bits the CPU compares for store forwarding
     * ("4K aliasing"): every load would wait for the store before it, and
     * the copy would crawl.  So the staging area starts two thirds of a
     * page away from the window buffer's page offset (the literal buffer
     * sits at one third, see compress.c). */
    {
        uintptr_t const page_off = ((uintptr_t)c->in_buf + 2730 - XC_ZSTD_BLOCK_HEADER) & 4095;
        size_t const shift = (size_t)((page_off - ((uintptr_t)c->out_alloc & 4095)) & 4095);
        c->out_buf = c->out_alloc + shift;
        c->out_cap = c->out_alloc_cap - shift;
    }

    c->pledged = content;
    c->out_pos = 0;
    size_t const h = xc_zstd_write_frame_header(c, c->out_buf, c->out_cap, content);
    FORWARD_IF_ERROR(h);
    c->out_end = h;
    c->frame_ended = 0;
    c->stage = XC_ZSTAGE_STREAM;
    return 0;
}

/* Copies staged output into out; returns what is still staged. */
static size_t flush_staged(xc_zstd_cctx *c, xc_out_buffer *out)
{
    size_t const n = XC_MIN(c->out_end - c->out_pos, out->size - out->pos);
    if (n) {
        memcpy((uint8_t *)out->dst + out->pos, c->out_buf + c->out_pos, n);
        c->out_pos += n;
        out->pos += n;
    }
    if (c->out_pos == c->out_end) c->out_pos = c->out_end = 0;
    return c->out_end - c->out_pos;
}

void xc_zstd_stream_slide(xc_zstd_cctx *c)
{
    size_t const window = (size_t)1 << c->p.window_log;
    if (c->in_done <= window) return;
    size_t const shift = c->in_done - window;
    memmove(c->in_buf, c->in_buf + shift, c->in_fill - shift);
    xc_zstd_ms_rebase(&c->ms, (uint32_t)shift);
    if (c->ldm_on) xc_zldm_rebase(c->ldm, (uint32_t)shift);
    c->in_fill -= shift;
    c->in_done -= shift;
}

/* Compresses the next `size` buffered bytes as one block, into out when
 * it surely fits there (nothing staged, room for a raw block), else into
 * the staging buffer, which is empty whenever this is called. */
static size_t emit_block(xc_zstd_cctx *c, xc_out_buffer *out, size_t size, int last)
{
    const uint8_t *src = c->in_buf + c->in_done;
    size_t const room = out->size - out->pos;
    size_t r;
    if (c->out_end == 0 && room >= size + XC_ZSTD_BLOCK_HEADER) {
        r = xc_zstd_compress_block(c, (uint8_t *)out->dst + out->pos, room, src, size, last);
        FORWARD_IF_ERROR(r);
        out->pos += r;
    } else {
        r = xc_zstd_compress_block(c, c->out_buf + c->out_end, c->out_cap - c->out_end, src,
                                   size, last);
        FORWARD_IF_ERROR(r);
        c->out_end += r;
    }
    c->in_done += size;
    return 0;
}

static size_t run(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in, xc_zstd_end_op op)
{
    for (;;) {
        if (flush_staged(c, out)) break;
        if (c->frame_ended) {
            xc_zstd_stream_reset(c);
            return 0;
        }

        size_t const avail = in->size - in->pos;
        if (avail) {
            RETURN_ERROR_IF(c->pledged != XC_ZSTD_SIZE_UNKNOWN && avail > c->pledged - c->consumed,
                            SRC_SIZE_WRONG);
            if (c->in_fill == c->in_size) xc_zstd_stream_slide(c);
            size_t const n = XC_MIN(avail, c->in_size - c->in_fill);
            if (n) {
                const uint8_t *ip = (const uint8_t *)in->src + in->pos;
                memcpy(c->in_buf + c->in_fill, ip, n);
                if (c->checksum) xc_xxh64_update(&c->xxh, ip, n);
                c->in_fill += n;
                c->consumed += n;
                in->pos += n;
            }
        }

        int const all_in = in->pos == in->size;
        size_t const pending = c->in_fill - c->in_done;
        /* A full block goes out at once, except one that may turn out to be
         * the frame's last: that one waits to carry the last-block flag. */
        if (pending > c->block_max ||
            (pending == c->block_max && !(op == XC_ZSTD_E_END && all_in))) {
            FORWARD_IF_ERROR(emit_block(c, out, c->block_max, 0));
            continue;
        }
        if (!all_in) continue; /* the buffer had no room: a block or a slide makes some */
        if (op == XC_ZSTD_E_CONTINUE) break;
        if (op == XC_ZSTD_E_FLUSH) {
            if (pending == 0) break;
            FORWARD_IF_ERROR(emit_block(c, out, pending, 0));
            continue;
        }
        RETURN_ERROR_IF(c->pledged != XC_ZSTD_SIZE_UNKNOWN && c->consumed != c->pledged,
                        SRC_SIZE_WRONG);
        FORWARD_IF_ERROR(emit_block(c, out, pending, 1));
        if (c->checksum) {
            /* The staging buffer keeps room for it (begin_frame). */
            size_t const k = xc_zstd_write_checksum(c->out_buf + c->out_end,
                                                    c->out_cap - c->out_end,
                                                    xc_xxh64_digest(&c->xxh));
            FORWARD_IF_ERROR(k);
            c->out_end += k;
        }
        c->frame_ended = 1;
        xc_zstd_cframe_close(c);
    }
    return c->out_end - c->out_pos;
}

static int bad_args(const xc_zstd_cctx *c, const xc_out_buffer *out, const xc_in_buffer *in,
                    xc_zstd_end_op op)
{
    return !c || !out || !in || out->pos > out->size || in->pos > in->size ||
           (!out->dst && out->size) || (!in->src && in->size) ||
           (op != XC_ZSTD_E_CONTINUE && op != XC_ZSTD_E_FLUSH && op != XC_ZSTD_E_END);
}

size_t xc_zstd_stream_serial(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in,
                             xc_zstd_end_op op)
{
    RETURN_ERROR_IF(bad_args(c, out, in, op), BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage == XC_ZSTAGE_ERROR || c->stage == XC_ZSTAGE_BLOCKS, STAGE_WRONG);
    size_t r;
    size_t const out_start = out->pos, in_start = in->pos;
    if (c->stage == XC_ZSTAGE_IDLE) {
        c->prog_live = 1;
        c->prog_flushed = 0;
        c->consumed = 0;
        r = begin_frame(c, out, in, op);
        if (xc_iserr(r)) {
            c->stage = XC_ZSTAGE_ERROR;
            return r;
        }
        if (r == 1) {
            c->prog_flushed = out->pos - out_start;
            c->consumed = in->size - in_start;
            return 0;
        }
    }
    r = run(c, out, in, op);
    c->prog_flushed += out->pos - out_start;
    if (xc_iserr(r)) c->stage = XC_ZSTAGE_ERROR;
    return r;
}

size_t xc_zstd_compress_stream(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in,
                               xc_zstd_end_op op)
{
    RETURN_ERROR_IF(bad_args(c, out, in, op), BAD_PARAMETER);
    if (!c->nb_workers) return xc_zstd_stream_serial(c, out, in, op);
    RETURN_ERROR_IF(c->stage == XC_ZSTAGE_ERROR || c->stage == XC_ZSTAGE_BLOCKS, STAGE_WRONG);
    size_t const r = xc_zstd_mt_stream(c, out, in, op);
    if (xc_iserr(r)) {
        /* The frame is lost: its jobs stop now, not at the reset. */
        xc_zstd_mt_abort(c);
        c->stage = XC_ZSTAGE_ERROR;
    }
    return r;
}
