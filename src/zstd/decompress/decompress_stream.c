/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Streaming decompression: input and output in pieces of any size.
 *
 * The decoder walks a small state machine (frame header, block header,
 * block content, flush, checksum) and keeps what it needs between calls:
 * header bytes, the content of a block that arrived in pieces (a block is
 * decoded only once all of it is there, straight from the caller's input
 * when it is), and the window.
 *
 * The window buffer.  Blocks decode into one buffer of
 *
 *     S = window + block_max + 2 * W        (W = XC_ZSTD_WILDCOPY)
 *
 * bytes, each right after the previous one; decoded bytes are then copied
 * out as the caller's output allows.  When the next block might not fit
 * (wpos + block_max + W > S), decoding wraps to the buffer's start: the
 * bytes before the old position become the history extension
 * [wbuf, old wpos), the prefix starts again at wbuf.  At that point
 * old wpos > S - block_max - W = window + W.  A match at distance
 * d <= window that reaches back past the prefix reads the extension at
 * old wpos - (d - (op - wbuf)) >= op + (old wpos - window) > op + W, so it
 * always lies beyond everything the block has written so far, wildcopy
 * margins included: the extension is overwritten only once it has gone out
 * of the window.
 *
 * A corrupt frame may use longer offsets, and the executor must not read
 * the extension where the current segment has already written: at a match
 * starting at op, the bytes of [wbuf, op + W) hold new output (or wildcopy
 * overshoot), so only [op + W, old wpos) is still history, and a match may
 * reach back at most old wpos - W bytes in all, whatever op is.  The wrap
 * therefore leaves the first W bytes out of the extension and marks it as
 * overlapped (ext_overlap), which makes xc_zstd_ext_in_reach() bound the
 * offset by what remains, (op - wbuf) + back <= old wpos - W; a longer
 * offset is corrupt (libzstd's streaming decoder rejects offsets beyond its
 * buffer's content too).  Every offset up to the window passes, since
 * old wpos - W > window.  One-shot decoding keeps the whole frame's output
 * and still accepts offsets beyond Window_Size that stay within it, as
 * libzstd's one-shot decoder does.
 *
 * A dictionary's content is the extension until the first wrap, and the
 * prefix starts at the frame's first byte until then, so the decoder applies
 * the same rule as one-shot decoding (xc_zstd_ext_in_reach()): a match may
 * read the dictionary while the frame's output is at most the window, however
 * far back into the dictionary it reaches.  The first wrap comes only once
 * the output exceeds window + W (old wpos > window + W above), after the
 * dictionary has gone out of reach, so no window is too small for it; the
 * buffer stays window + block_max + 2 * W bytes, and the dictionary is read
 * where the caller or the ddict keeps it.
 *
 * When the frame announces its content size, the buffer never needs more
 * than that plus the margin, and no block can make the frame larger than
 * announced, so small frames get small buffers and never wrap.
 *
 * What it may call: the decoder (decompress/).
 */
#include <stdlib.h>

#include "zstd/decompress/decompress_internal.h"

/* Moves up to `want` bytes from the input to dst; returns how many. */
static size_t take_input(xc_in_buffer *in, uint8_t *dst, size_t want)
{
    size_t const n = XC_MIN(want, in->size - in->pos);

    if (n) memcpy(dst, (const uint8_t *)in->src + in->pos, n);
    in->pos += n;
    return n;
}

static size_t stream_frame_begin(xc_zstd_dctx *d, const xc_zstd_frame_header *fh)
{
    size_t need;

    RETURN_ERROR_IF(fh->window_size > ((uint64_t)1 << d->window_log_max), WINDOW_TOO_LARGE);
    FORWARD_IF_ERROR(xc_zstd_frame_begin(d, fh));
    need = (size_t)fh->window_size + fh->block_max + 2 * XC_ZSTD_WILDCOPY;
    if (fh->content_size != XC_ZSTD_CONTENTSIZE_UNKNOWN &&
        fh->content_size < need - XC_ZSTD_WILDCOPY)
        need = (size_t)fh->content_size + XC_ZSTD_WILDCOPY;
    if (need > d->wcap) {
        uint8_t *p = (uint8_t *)malloc(need);
        RETURN_ERROR_IF(!p, OUT_OF_MEMORY);
        free(d->wbuf);
        d->wbuf = p;
        d->wcap = need;
    }
    if (fh->block_max + XC_ZSTD_WILDCOPY > d->icap) {
        /* Zeroed for the same reason as the literals buffer: raw literals
         * used in place are read past their end by wildcopies. */
        uint8_t *p = (uint8_t *)calloc(1, (size_t)fh->block_max + XC_ZSTD_WILDCOPY);
        RETURN_ERROR_IF(!p, OUT_OF_MEMORY);
        free(d->ibuf);
        d->ibuf = p;
        d->icap = (size_t)fh->block_max + XC_ZSTD_WILDCOPY;
    }
    d->wsize = need;
    d->wpos = 0;
    d->lit_room = NULL;
    d->lit_room_size = 0;
    d->prefix = d->wbuf;
    d->oend_error = XC_ERROR(CORRUPT);
    return 0;
}

/* Decodes the block whose content is src[0..size) (readable up to
 * src_limit) into the window; leaves the new bytes to flush. */
static size_t stream_block(xc_zstd_dctx *d, const uint8_t *src, size_t size,
                           const uint8_t *src_limit)
{
    size_t limit = d->fh.block_max, n;
    uint8_t *op;

    if (d->fh.content_size != XC_ZSTD_CONTENTSIZE_UNKNOWN)
        limit = (size_t)XC_MIN((uint64_t)limit, d->fh.content_size - d->produced);
    if (d->wpos + limit + XC_ZSTD_WILDCOPY > d->wsize) {
        /* The extension loses its first W bytes to the first wildcopy
         * margin, and one more byte for each the prefix grows (see the
         * top of this file). */
        d->ext_start = d->wbuf + XC_MIN(d->wpos, (size_t)XC_ZSTD_WILDCOPY);
        d->ext_end = d->wbuf + d->wpos;
        d->ext_reach = SIZE_MAX;
        d->ext_overlap = 1;
        d->wpos = 0;
    }
    op = d->wbuf + d->wpos;
    switch (d->block_type) {
    case XC_ZSTD_BLOCK_RAW:
        RETURN_ERROR_IF(size > limit, CORRUPT);
        if (size) memcpy(op, src, size);
        n = size;
        break;
    case XC_ZSTD_BLOCK_RLE:
        RETURN_ERROR_IF(d->block_size > limit, CORRUPT);
        if (d->block_size) memset(op, src[0], d->block_size);
        n = d->block_size;
        break;
    default:
        n = xc_zstd_decode_block(d, op, op + limit + XC_ZSTD_WILDCOPY, src, size, src_limit);
        FORWARD_IF_ERROR(n);
        RETURN_ERROR_IF(n > limit, CORRUPT);
        break;
    }
    if (d->fh.checksum) xc_xxh64_update(&d->xxh, op, n);
    d->produced += n;
    d->flush_pos = d->wpos;
    d->flush_end = d->wpos + n;
    d->wpos += n;
    return 0;
}

/* What the decoder would like to read next, for the return value. */
static size_t input_hint(const xc_zstd_dctx *d)
{
    switch (d->stage) {
    case XC_STREAM_HEADER: {
        /* The magic number and the descriptor, which says the rest. */
        size_t const first = d->magicless ? 1 : 5;
        return d->ifill < first ? first - d->ifill : 1;
    }
    case XC_STREAM_SKIP:
        return d->skip_left < 1 ? 1 : (size_t)XC_MIN(d->skip_left, (uint64_t)1 << 20);
    case XC_STREAM_BLOCK_HEADER: return XC_ZSTD_BLOCK_HEADER - d->ifill;
    case XC_STREAM_BLOCK: return d->ineed - d->ifill + (d->block_last ? 0 : XC_ZSTD_BLOCK_HEADER);
    case XC_STREAM_CHECKSUM: return XC_ZSTD_CHECKSUM_SIZE - d->ifill;
    default:
        return d->block_last ? (d->fh.checksum ? XC_ZSTD_CHECKSUM_SIZE : 1) : XC_ZSTD_BLOCK_HEADER;
    }
}

static size_t stream_step(xc_zstd_dctx *d, xc_out_buffer *out, xc_in_buffer *in, int *done)
{
    size_t const avail = in->size - in->pos;

    switch (d->stage) {
    case XC_STREAM_HEADER: {
        xc_zstd_frame_header fh;
        size_t r = xc_zstd_read_frame_header(&fh, d->hdr, d->ifill, d->magicless);
        FORWARD_IF_ERROR(r);
        if (r != 0) {
            d->ifill += take_input(in, d->hdr + d->ifill, r - d->ifill);
            return d->ifill < r ? 1 : 0;
        }
        d->ifill = 0;
        if (fh.skippable) {
            d->skip_left = fh.skip_size;
            d->stage = XC_STREAM_SKIP;
            return 0;
        }
        FORWARD_IF_ERROR(stream_frame_begin(d, &fh));
        d->stage = XC_STREAM_BLOCK_HEADER;
        return 0;
    }
    case XC_STREAM_SKIP: {
        size_t const n = (size_t)XC_MIN((uint64_t)avail, d->skip_left);
        in->pos += n;
        d->skip_left -= n;
        if (d->skip_left) return 1;
        d->stage = XC_STREAM_HEADER;
        *done = 1;
        return 0;
    }
    case XC_STREAM_BLOCK_HEADER: {
        uint32_t bh, bsize;
        d->ifill += take_input(in, d->hdr + d->ifill, XC_ZSTD_BLOCK_HEADER - d->ifill);
        if (d->ifill < XC_ZSTD_BLOCK_HEADER) return 1;
        d->ifill = 0;
        bh = xc_read_le24(d->hdr);
        bsize = xc_zstd_block_size(bh);
        d->block_last = (uint8_t)xc_zstd_block_is_last(bh);
        d->block_type = (uint8_t)xc_zstd_block_type(bh);
        d->block_size = bsize;
        RETURN_ERROR_IF(d->block_type == XC_ZSTD_BLOCK_RESERVED, CORRUPT);
        RETURN_ERROR_IF(bsize > d->fh.block_max, CORRUPT);
        d->ineed = d->block_type == XC_ZSTD_BLOCK_RLE ? 1 : bsize;
        d->stage = XC_STREAM_BLOCK;
        return 0;
    }
    case XC_STREAM_BLOCK:
        if (d->ifill == 0 && avail >= d->ineed && d->ineed > 0) {
            /* The whole block is in the caller's input: decode it there.
             * (An empty block goes the other way, which never forms a
             * pointer from an input that may be NULL.) */
            const uint8_t *src = (const uint8_t *)in->src + in->pos;
            FORWARD_IF_ERROR(stream_block(d, src, d->ineed, (const uint8_t *)in->src + in->size));
            in->pos += d->ineed;
        } else {
            d->ifill += take_input(in, d->ibuf + d->ifill, d->ineed - d->ifill);
            if (d->ifill < d->ineed) return 1;
            FORWARD_IF_ERROR(stream_block(d, d->ibuf, d->ineed, d->ibuf + d->icap));
            d->ifill = 0;
        }
        d->stage = XC_STREAM_FLUSH;
        return 0;
    case XC_STREAM_FLUSH: {
        size_t const n = XC_MIN(d->flush_end - d->flush_pos, out->size - out->pos);
        if (n) {
            memcpy((uint8_t *)out->dst + out->pos, d->wbuf + d->flush_pos, n);
            out->pos += n;
            d->flush_pos += n;
        }
        if (d->flush_pos < d->flush_end) return 1;
        if (!d->block_last) {
            d->stage = XC_STREAM_BLOCK_HEADER;
            return 0;
        }
        if (d->fh.content_size != XC_ZSTD_CONTENTSIZE_UNKNOWN)
            RETURN_ERROR_IF(d->produced != d->fh.content_size, CORRUPT);
        if (d->fh.checksum) {
            d->stage = XC_STREAM_CHECKSUM;
            return 0;
        }
        d->stage = XC_STREAM_HEADER;
        *done = 1;
        return 0;
    }
    case XC_STREAM_CHECKSUM:
        d->ifill += take_input(in, d->hdr + d->ifill, XC_ZSTD_CHECKSUM_SIZE - d->ifill);
        if (d->ifill < XC_ZSTD_CHECKSUM_SIZE) return 1;
        d->ifill = 0;
        RETURN_ERROR_IF(!xc_zstd_checksum_matches(d->hdr, xc_xxh64_digest(&d->xxh)), CHECKSUM);
        d->stage = XC_STREAM_HEADER;
        *done = 1;
        return 0;
    default:
        return XC_ERROR(STAGE_WRONG);
    }
}

size_t xc_zstd_decompress_stream(xc_zstd_dctx *d, xc_out_buffer *out, xc_in_buffer *in)
{
    RETURN_ERROR_IF(!d || !out || !in, BAD_PARAMETER);
    RETURN_ERROR_IF(in->pos > in->size || out->pos > out->size, BAD_PARAMETER);
    RETURN_ERROR_IF((!in->src && in->size) || (!out->dst && out->size), BAD_PARAMETER);
    RETURN_ERROR_IF(d->stage == XC_STREAM_ERROR, STAGE_WRONG);
    d->blocks = 0; /* streaming ends a series of blocks */

    for (;;) {
        int done = 0;
        size_t const r = stream_step(d, out, in, &done);
        if (xc_iserr(r)) {
            d->stage = XC_STREAM_ERROR;
            return r;
        }
        if (done) return 0;
        /* 1: the step waits for more input or more output room. */
        if (r) return input_hint(d);
    }
}
