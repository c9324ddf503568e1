/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The block level of the decoder (xcodec.h, "blocks without frames"):
 * compressed block bodies decoded one after another into the caller's
 * memory, with no frame around them, as libzstd's ZSTD_decompressBegin,
 * ZSTD_decompressBlock and ZSTD_insertBlock do.
 *
 * History is where the caller put the earlier blocks, in the decoder's two
 * segments (decompress_internal.h): the prefix is the current run of
 * blocks written one right after another, [prefix, seg_end), and the
 * extension the run before the last break.  A block whose destination is
 * not seg_end breaks the run: the old run becomes the extension (the one
 * before it is forgotten) and the prefix starts at the destination.  At the
 * start the dictionary's content is the run, so a first block written
 * right after it (the dictionary and the output in one buffer) continues
 * it.  A dictionary the context loaded is moved to the series
 * (series_dd), so that loading or dropping one during the series frees
 * nothing it reads.  An offset may reach anywhere in the two segments (ext_reach is
 * unbounded: no window limits a series), never beyond: the sequence
 * executor checks each against what the segments hold.
 *
 * What it may call: the decoder (decompress/).
 */
#include "zstd/decompress/decompress_internal.h"

static const uint8_t no_history[1];

size_t xc_zstd_block_decompress_begin(xc_zstd_dctx *d)
{
    RETURN_ERROR_IF(!d, BAD_PARAMETER);
    d->stage = XC_STREAM_HEADER;
    d->ifill = 0;
    d->flush_pos = d->flush_end = 0;
    d->blocks = 0;
    /* A frame with no header fields but the largest blocks: the
     * dictionary's tables and repeat offsets, no checksum. */
    xc_zstd_frame_header fh;
    memset(&fh, 0, sizeof fh);
    fh.content_size = XC_ZSTD_CONTENTSIZE_UNKNOWN;
    fh.window_size = (uint64_t)1 << XC_ZSTD_WINDOW_LOG_MAX;
    fh.block_max = XC_ZSTD_BLOCK_SIZE_MAX;
    /* A loaded dictionary becomes the series' own: its content and tables
     * are history and tables of every block to come, whatever the context
     * loads or drops meanwhile.  The context still uses it for frames
     * until then. */
    if (d->series_dd && d->series_dd != d->ddict) {
        xc_zstd_ddict_free(d->series_dd);
        d->series_dd = NULL;
    }
    if (d->own_ddict && d->ddict == d->own_ddict) {
        d->series_dd = d->own_ddict;
        d->own_ddict = NULL;
    }
    const xc_zstd_ddict *const dd = d->ddict;
    FORWARD_IF_ERROR(xc_zstd_frame_begin(d, &fh));
    if (dd) {
        d->prefix = dd->content;
        d->seg_end = dd->content + dd->content_size;
    } else {
        d->prefix = d->seg_end = no_history;
    }
    d->ext_start = d->ext_end = no_history;
    d->ext_reach = SIZE_MAX;
    d->ext_overlap = 0;
    d->lit_room = NULL;
    d->lit_room_size = 0;
    d->oend_error = XC_ERROR(DST_TOO_SMALL);
    d->blocks = 1;
    return 0;
}

/* Makes dst the place the next bytes of history go (see the top). */
static void place(xc_zstd_dctx *d, const uint8_t *dst)
{
    if (dst == d->seg_end) return;
    d->ext_start = d->prefix;
    d->ext_end = d->seg_end;
    d->prefix = d->seg_end = dst;
}

size_t xc_zstd_block_decompress(xc_zstd_dctx *d, void *dst, size_t dst_cap, const void *src,
                                size_t size)
{
    RETURN_ERROR_IF(!d || !dst || (!src && size), BAD_PARAMETER);
    RETURN_ERROR_IF(!d->blocks, STAGE_WRONG);
    RETURN_ERROR_IF(size > XC_ZSTD_BLOCK_SIZE_MAX, SRC_SIZE_WRONG);
    uint8_t *const op = (uint8_t *)dst;
    place(d, op);
    size_t const n =
        xc_zstd_decode_block(d, op, op + dst_cap, (const uint8_t *)src, size,
                             (const uint8_t *)src + size);
    FORWARD_IF_ERROR(n);
    RETURN_ERROR_IF(n > XC_ZSTD_BLOCK_SIZE_MAX, CORRUPT);
    d->seg_end = op + n;
    return n;
}

size_t xc_zstd_block_insert(xc_zstd_dctx *d, const void *block, size_t size)
{
    RETURN_ERROR_IF(!d || (!block && size), BAD_PARAMETER);
    RETURN_ERROR_IF(!d->blocks, STAGE_WRONG);
    if (size == 0) return 0;
    place(d, (const uint8_t *)block);
    d->seg_end += size;
    return size;
}
