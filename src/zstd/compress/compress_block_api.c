/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The block level of the encoder (xcodec.h, "blocks without frames"):
 * compressed block bodies one after another with no frame around them, as
 * libzstd's ZSTD_compressBegin and ZSTD_compressBlock make them.
 *
 * A series is a streamed frame that writes no header, no block headers and
 * no checksum: it is planned as a frame of unknown size (the context's
 * level, parameters and dictionary), and each block is copied into the
 * window buffer behind the history, where the finder sees the previous
 * blocks as one contiguous buffer and the buffer slides as in streaming.
 * The copy costs one memcpy per block; in exchange the caller's blocks may
 * lie anywhere and be reused at once, and the finders need no second
 * history segment.
 *
 * A block goes out compressed or not at all: its body when it is smaller
 * than the block by the encoder's minimum gain, else 0, and the caller
 * stores the bytes raw.  No RLE (a block body cannot say it), no
 * splitting (one body per call).  The repeat offsets and entropy tables
 * change only with a body that goes out, which is what the decoder sees.
 *
 * What it may call: the frame plan (dict/compress_dict.c), the window
 * buffer (compress_stream.c), the block parser and body encoder
 * (compress_frame.c, compress_block.c).
 */
#include "zstd/compress/compress_internal.h"

size_t xc_zstd_block_compress_begin(xc_zstd_cctx *c)
{
    RETURN_ERROR_IF(!c, BAD_PARAMETER);
    xc_zstd_cctx_reset(c);
    xc_zhistory plan;
    size_t r = xc_zstd_plan_frame(c, XC_ZSTD_SIZE_UNKNOWN, 0, &plan);
    if (!xc_iserr(r)) r = xc_zstd_stream_open(c, &plan, XC_ZSTD_SIZE_UNKNOWN);
    if (xc_iserr(r)) {
        c->stage = XC_ZSTAGE_ERROR;
        return r;
    }
    c->stage = XC_ZSTAGE_BLOCKS;
    return 0;
}

size_t xc_zstd_block_max(const xc_zstd_cctx *c)
{
    return c ? c->block_max : 0;
}

size_t xc_zstd_block_compress(xc_zstd_cctx *c, void *dst, size_t dst_cap, const void *src,
                              size_t size)
{
    RETURN_ERROR_IF(!c || (!dst && dst_cap) || (!src && size), BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_BLOCKS, STAGE_WRONG);
    RETURN_ERROR_IF(size > c->block_max, SRC_SIZE_WRONG);
    if (size == 0) return 0;
    /* The buffer holds a window and at least a block more: one slide
     * always makes room. */
    if (c->in_size - c->in_fill < size) xc_zstd_stream_slide(c);
    const uint8_t *const ip = c->in_buf + c->in_fill;
    memcpy(c->in_buf + c->in_fill, src, size);
    c->in_fill += size;
    c->in_done += size;
    c->consumed += size;
    if (size < XC_ZSTD_MIN_COMPRESSED_BLOCK) return 0;

    uint32_t rep[3] = {c->rep[0], c->rep[1], c->rep[2]};
    xc_zstd_parse_block(c, rep, ip, size, 0);
    unsigned commit = 0;
    size_t const body = xc_zstd_encode_block_body(c, (uint8_t *)dst, dst_cap, ip, size, &commit);
    if (xc_iserr(body)) {
        /* libzstd's rule: too little room for the body, but room for the
         * bytes as they are, is a block to store raw. */
        return size <= dst_cap ? 0 : body;
    }
    if (body == 0) return 0;
    xc_zstd_entropy_commit(&c->ent, commit);
    memcpy(c->rep, rep, sizeof rep);
    c->first_block = 0;
    return body;
}
