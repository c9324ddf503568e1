/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decompression contexts and one-shot decompression: frames one after
 * another (RFC 8878 §3.1), their blocks (§3.1.1.2) and the checks that
 * close a frame (content size, content checksum).
 *
 * One-shot decoding writes every block straight into the caller's buffer,
 * so the whole frame is its own history: the prefix starts at the frame's
 * first output byte and a dictionary's content, if any, is the extension
 * before it.  With workers, inputs of several frames of known sizes go to
 * decompress_mt.c.  The block executor may use the caller's buffer up to its very
 * end for wildcopies, since later blocks overwrite whatever a wildcopy left
 * past a block's end.
 */
#include <stdlib.h>

#include "cpucap.h"
#include "zstd/decompress/decompress_internal.h"

/* ---- contexts ------------------------------------------------------------ */

xc_zstd_dctx *xc_zstd_dctx_new(void)
{
    xc_zstd_dctx *d = (xc_zstd_dctx *)calloc(1, sizeof *d);

    if (!d) return NULL;
    xc_cpucap_init();
    d->kern = xc_kernels.zstd_decode;
    d->window_log_max = XC_ZSTD_WINDOW_LOG_LIMIT_DEFAULT;
    xc_zstd_build_default_tables(d->def_ll, d->def_ml, d->def_of);
    xc_huf_dtable_clear(&d->huf_own);
    d->stage = XC_STREAM_HEADER;
    return d;
}

void xc_zstd_dctx_free(xc_zstd_dctx *d)
{
    if (!d) return;
    xc_zstd_dmt_free(d);
    xc_zstd_ddict_free(d->own_ddict);
    xc_zstd_ddict_free(d->series_dd);
    free(d->prefix_dd);
    free(d->lit_buf);
    free(d->wbuf);
    free(d->ibuf);
    free(d);
}

size_t xc_zstd_dctx_reset(xc_zstd_dctx *d)
{
    RETURN_ERROR_IF(!d, BAD_PARAMETER);
    xc_zstd_ddict_free(d->own_ddict);
    d->own_ddict = NULL;
    d->ddict = NULL;
    d->stage = XC_STREAM_HEADER;
    d->ifill = 0;
    d->flush_pos = d->flush_end = 0;
    return 0;
}

size_t xc_zstd_dctx_set(xc_zstd_dctx *d, xc_zstd_dparam param, int value)
{
    RETURN_ERROR_IF(!d, BAD_PARAMETER);
    switch (param) {
    case XC_ZSTD_D_WINDOW_LOG_MAX:
        RETURN_ERROR_IF(d->stage != XC_STREAM_HEADER || d->ifill != 0, STAGE_WRONG);
        if (value == 0) value = XC_ZSTD_WINDOW_LOG_LIMIT_DEFAULT;
        RETURN_ERROR_IF(value < XC_ZSTD_WINDOW_LOG_MIN || value > XC_ZSTD_WINDOW_LOG_MAX,
                        BAD_PARAMETER);
        d->window_log_max = (unsigned)value;
        return 0;
    case XC_ZSTD_D_FORMAT:
        RETURN_ERROR_IF(d->stage != XC_STREAM_HEADER || d->ifill != 0, STAGE_WRONG);
        RETURN_ERROR_IF(value != XC_ZSTD_FORMAT_ZSTD1 && value != XC_ZSTD_FORMAT_MAGICLESS,
                        BAD_PARAMETER);
        d->magicless = value == XC_ZSTD_FORMAT_MAGICLESS;
        return 0;
    case XC_ZSTD_D_NB_WORKERS:
        return xc_zstd_dmt_set(d, value);
    default:
        return XC_ERROR(BAD_PARAMETER);
    }
}

size_t xc_zstd_reserve_literals(xc_zstd_dctx *d, size_t n)
{
    size_t const need = n + XC_ZSTD_WILDCOPY;

    if (need > d->lit_cap) {
        /* calloc, not malloc: the margin past the literals is read (and
         * copied into output that is overwritten later) by wildcopies, and
         * zeroed memory keeps such reads well defined for every tool. */
        uint8_t *p = (uint8_t *)calloc(1, need);
        RETURN_ERROR_IF(!p, OUT_OF_MEMORY);
        free(d->lit_buf);
        d->lit_buf = p;
        d->lit_cap = need;
    }
    return 0;
}

/* ---- frames and blocks ----------------------------------------------------- */

/* An empty history extension still needs a valid address, so that
 * ext_end - ext_start is well defined. */
static const uint8_t no_extension[1];

size_t xc_zstd_frame_begin(xc_zstd_dctx *d, const xc_zstd_frame_header *fh)
{
    const xc_zstd_ddict *dd = d->ddict;

    /* A frame that names a dictionary needs that one; a frame that names
     * none may use whatever dictionary the caller supplied. */
    if (fh->dict_id) {
        RETURN_ERROR_IF(!dd, DICT_MISSING);
        RETURN_ERROR_IF(dd->id != fh->dict_id, DICT_MISMATCH);
    }
    FORWARD_IF_ERROR(xc_zstd_reserve_literals(d, fh->block_max));
    d->fh = *fh;
    d->produced = 0;
    if (fh->checksum) xc_xxh64_reset(&d->xxh, 0);

    if (dd && dd->has_entropy) {
        d->ll = dd->seq.ll;
        d->ml = dd->seq.ml;
        d->of = dd->seq.of;
        d->ll_log = dd->ll_log;
        d->ml_log = dd->ml_log;
        d->of_log = dd->of_log;
        d->huf = &dd->huf;
        memcpy(d->rep, dd->rep, sizeof d->rep);
    } else {
        d->ll = d->ml = d->of = NULL;
        d->huf = NULL;
        xc_zstd_rep_init(d->rep);
    }
    if (dd) {
        d->ext_start = dd->content;
        d->ext_end = dd->content + dd->content_size;
        /* A prefix serves one frame (xc_zstd_dctx_ref_prefix). */
        if (dd == d->prefix_dd) d->ddict = NULL;
    } else {
        d->ext_start = d->ext_end = no_extension;
    }
    /* The dictionary stays in reach while the frame's output has not
     * outgrown its window (RFC 8878 §5, dictionary content); the prefix of
     * both decoders starts at the frame's first byte for as long as the
     * extension is the dictionary. */
    d->ext_reach = (size_t)XC_MIN(fh->window_size, (uint64_t)SIZE_MAX);
    d->ext_overlap = 0;
    return 0;
}

size_t xc_zstd_decode_block(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend, const uint8_t *src,
                            size_t size, const uint8_t *src_limit)
{
    size_t lsize, hsize;
    int nb_seq;

    /* The smallest compressed block is a 1-byte literals header and a
     * 1-byte sequence count. */
    RETURN_ERROR_IF(size < 2, CORRUPT);
    d->out = op;
    d->out_room = (size_t)(oend - op);
    lsize = xc_zstd_decode_literals(d, src, size, src_limit);
    FORWARD_IF_ERROR(lsize);
    if (d->lit == d->lit_room) {
        /* Literals in the destination: the block must not write into
         * them, and reaching them means it outgrew Block_Maximum_Size. */
        oend = d->lit_room;
        d->oend_error = XC_ERROR(CORRUPT);
    }
    src += lsize;
    size -= lsize;
    hsize = xc_zstd_read_seq_header(d, &nb_seq, src, size);
    FORWARD_IF_ERROR(hsize);
    if (nb_seq == 0) {
        /* The block is its literals, which may already be in place. */
        if (d->lit == op) return d->lit_size;
        if (d->lit_size > (size_t)(oend - op)) return d->oend_error;
        memcpy(op, d->lit, d->lit_size);
        return d->lit_size;
    }
    return xc_zstd_exec_sequences(d, op, oend, src + hsize, size - hsize, nb_seq);
}

/* Decodes the blocks and the checksum of one frame whose header was read
 * into d->fh, from src[0..size) into [op, oend).  Returns the input bytes
 * it used, with *produced set, or an error. */
static size_t decode_frame_body(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend, const uint8_t *src,
                                size_t size, size_t *produced)
{
    const uint8_t *const start = src, *const iend = src + size;
    uint8_t *const ostart = op;
    uint32_t const block_max = d->fh.block_max;

    d->prefix = op;
    d->oend_error = XC_ERROR(DST_TOO_SMALL);
    for (;;) {
        uint32_t bh, bsize, btype;
        size_t n;

        RETURN_ERROR_IF(iend - src < XC_ZSTD_BLOCK_HEADER, TRUNCATED);
        bh = xc_read_le24(src);
        src += XC_ZSTD_BLOCK_HEADER;
        btype = xc_zstd_block_type(bh);
        bsize = xc_zstd_block_size(bh);
        RETURN_ERROR_IF(bsize > block_max, CORRUPT);
        switch (btype) {
        case XC_ZSTD_BLOCK_RAW:
            RETURN_ERROR_IF(bsize > (size_t)(iend - src), TRUNCATED);
            RETURN_ERROR_IF(bsize > (size_t)(oend - op), DST_TOO_SMALL);
            if (bsize) memcpy(op, src, bsize);
            src += bsize;
            n = bsize;
            break;
        case XC_ZSTD_BLOCK_RLE:
            RETURN_ERROR_IF(src == iend, TRUNCATED);
            RETURN_ERROR_IF(bsize > (size_t)(oend - op), DST_TOO_SMALL);
            if (bsize) memset(op, *src, bsize);
            src += 1;
            n = bsize;
            break;
        case XC_ZSTD_BLOCK_COMPRESSED:
            RETURN_ERROR_IF(bsize > (size_t)(iend - src), TRUNCATED);
            /* Room for the literals past the furthest this block can write
             * (a block's output plus a wildcopy margin)? */
            d->lit_room = NULL;
            d->lit_room_size = 0;
            d->oend_error = XC_ERROR(DST_TOO_SMALL);
            if ((size_t)(oend - op) > (size_t)block_max + 3 * XC_ZSTD_WILDCOPY) {
                d->lit_room = op + block_max + XC_ZSTD_WILDCOPY;
                d->lit_room_size = (size_t)(oend - d->lit_room);
            }
            n = xc_zstd_decode_block(d, op, oend, src, bsize, iend);
            FORWARD_IF_ERROR(n);
            /* Block_Maximum_Size bounds the decoded size too. */
            RETURN_ERROR_IF(n > block_max, CORRUPT);
            src += bsize;
            break;
        default:
            return XC_ERROR(CORRUPT);
        }
        if (d->fh.checksum) xc_xxh64_update(&d->xxh, op, n);
        op += n;
        if (xc_zstd_block_is_last(bh)) break;
    }

    *produced = (size_t)(op - ostart);
    if (d->fh.content_size != XC_ZSTD_CONTENTSIZE_UNKNOWN)
        RETURN_ERROR_IF(*produced != d->fh.content_size, CORRUPT);
    if (d->fh.checksum) {
        RETURN_ERROR_IF(iend - src < XC_ZSTD_CHECKSUM_SIZE, TRUNCATED);
        RETURN_ERROR_IF(!xc_zstd_checksum_matches(src, xc_xxh64_digest(&d->xxh)), CHECKSUM);
        src += XC_ZSTD_CHECKSUM_SIZE;
    }
    return (size_t)(src - start);
}

size_t xc_zstd_decompress_dctx(xc_zstd_dctx *d, void *dst, size_t dst_cap, const void *src_,
                               size_t src_size)
{
    const uint8_t *src = (const uint8_t *)src_;
    uint8_t empty;
    /* Pointer arithmetic on NULL is undefined even with 0; an empty
     * destination gets a stand-in that is never written. */
    uint8_t *const ostart = dst ? (uint8_t *)dst : &empty;
    uint8_t *op = ostart;
    uint8_t *const oend = ostart + (dst ? dst_cap : 0);

    RETURN_ERROR_IF(!d, BAD_PARAMETER);
    RETURN_ERROR_IF((!src && src_size) || (!dst && dst_cap), BAD_PARAMETER);
    /* A one-shot call abandons any streamed frame or series of blocks. */
    d->blocks = 0;
    d->stage = XC_STREAM_HEADER;
    d->ifill = 0;
    d->flush_pos = d->flush_end = 0;
    /* (The workers walk frames by their magic numbers.) */
    if (d->nb_workers && !d->magicless) {
        int taken;
        size_t const r = xc_zstd_dmt_decompress(d, dst, dst_cap, src, src_size, &taken);
        if (taken || xc_iserr(r)) return r;
    }

    while (src_size) {
        xc_zstd_frame_header fh;
        size_t r = xc_zstd_read_frame_header(&fh, src, src_size, d->magicless);
        size_t used, produced;

        if (xc_iserr(r)) return r;
        RETURN_ERROR_IF(r != 0, TRUNCATED);
        if (fh.skippable) {
            RETURN_ERROR_IF(fh.skip_size > src_size - XC_ZSTD_SKIPPABLE_HEADER, TRUNCATED);
            src += XC_ZSTD_SKIPPABLE_HEADER + (size_t)fh.skip_size;
            src_size -= XC_ZSTD_SKIPPABLE_HEADER + (size_t)fh.skip_size;
            continue;
        }
        /* A frame that announces more content than fits fails now, before
         * any work. */
        RETURN_ERROR_IF(fh.content_size != XC_ZSTD_CONTENTSIZE_UNKNOWN &&
                            fh.content_size > (uint64_t)(oend - op),
                        DST_TOO_SMALL);
        FORWARD_IF_ERROR(xc_zstd_frame_begin(d, &fh));
        src += fh.header_size;
        src_size -= fh.header_size;
        used = decode_frame_body(d, op, oend, src, src_size, &produced);
        FORWARD_IF_ERROR(used);
        src += used;
        src_size -= used;
        op += produced;
    }
    return (size_t)(op - ostart);
}

size_t xc_zstd_decompress(void *dst, size_t dst_cap, const void *src, size_t src_size)
{
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    size_t r;

    RETURN_ERROR_IF(!d, OUT_OF_MEMORY);
    r = xc_zstd_decompress_dctx(d, dst, dst_cap, src, src_size);
    xc_zstd_dctx_free(d);
    return r;
}
