/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The frame header as the public API describes it (xc_zstd_frame_info):
 * what the parser of decompress_frame.c reads, handed out field by field.
 *
 * What it may call: the header parser (decompress_frame.c).
 */
#include "zstd/decompress/decompress_internal.h"

size_t xc_zstd_get_frame_info_format(xc_zstd_frame_info *info, const void *src, size_t size,
                                     xc_zstd_format format)
{
    xc_zstd_frame_header fh;
    RETURN_ERROR_IF(!info || (!src && size), BAD_PARAMETER);
    RETURN_ERROR_IF(format != XC_ZSTD_FORMAT_ZSTD1 && format != XC_ZSTD_FORMAT_MAGICLESS,
                    BAD_PARAMETER);
    size_t const r = xc_zstd_read_frame_header(&fh, (const uint8_t *)src, size,
                                               format == XC_ZSTD_FORMAT_MAGICLESS);
    if (r != 0) return r; /* an error, or the bytes needed */
    memset(info, 0, sizeof *info);
    info->header_size = fh.header_size;
    if (fh.skippable) {
        info->skippable = 1;
        info->content_size = fh.skip_size;
        info->skippable_magic_low = xc_read_le32(src) & 15u;
        return 0;
    }
    info->content_size = fh.content_size;
    info->window_size = fh.window_size;
    info->block_max = fh.block_max;
    info->dict_id = fh.dict_id;
    info->checksum = fh.checksum;
    return 0;
}

size_t xc_zstd_get_frame_info(xc_zstd_frame_info *info, const void *src, size_t size)
{
    return xc_zstd_get_frame_info_format(info, src, size, XC_ZSTD_FORMAT_ZSTD1);
}

size_t xc_zstd_frame_header_size_format(const void *src, size_t size, xc_zstd_format format)
{
    RETURN_ERROR_IF(!src && size, BAD_PARAMETER);
    RETURN_ERROR_IF(format != XC_ZSTD_FORMAT_ZSTD1 && format != XC_ZSTD_FORMAT_MAGICLESS,
                    BAD_PARAMETER);
    const uint8_t *p = (const uint8_t *)src;
    size_t m = 0;
    if (format == XC_ZSTD_FORMAT_ZSTD1) {
        RETURN_ERROR_IF(size < 4, TRUNCATED);
        uint32_t const magic = xc_read_le32(p);
        if ((magic & XC_ZSTD_MAGIC_SKIPPABLE_MASK) == XC_ZSTD_MAGIC_SKIPPABLE_START)
            return XC_ZSTD_SKIPPABLE_HEADER;
        RETURN_ERROR_IF(magic != XC_ZSTD_MAGIC, UNKNOWN_MAGIC);
        m = 4;
    }
    RETURN_ERROR_IF(size < m + 1, TRUNCATED);
    unsigned const fhd = p[m], single = (fhd >> 5) & 1, fcs_code = fhd >> 6;
    return m + 1 + !single + xc_zstd_did_field_size(fhd & 3) + xc_zstd_fcs_field_size(fcs_code) +
           (fcs_code == 0 && single);
}

size_t xc_zstd_frame_header_size(const void *src, size_t size)
{
    return xc_zstd_frame_header_size_format(src, size, XC_ZSTD_FORMAT_ZSTD1);
}

/* ---- memory accounting for the libzstd-compatible shim (src/compat/) ---- */

XC_HIDDEN size_t xc_zstd_dctx_mem_held(const xc_zstd_dctx *d);
XC_HIDDEN size_t xc_zstd_ddict_mem_held(const xc_zstd_ddict *dd);
XC_HIDDEN size_t xc_zstd_dict_header_size(const void *dict, size_t size);

size_t xc_zstd_dctx_mem_held(const xc_zstd_dctx *d)
{
    if (!d) return 0;
    return sizeof *d + d->lit_cap + d->wcap + d->icap + (d->prefix_dd ? sizeof *d->prefix_dd : 0) +
           xc_zstd_ddict_mem_held(d->own_ddict) + xc_zstd_ddict_mem_held(d->series_dd);
}

size_t xc_zstd_ddict_mem_held(const xc_zstd_ddict *dd)
{
    if (!dd) return 0;
    return sizeof *dd + (size_t)(dd->content + dd->content_size - dd->buf) + 1;
}

size_t xc_zstd_dict_header_size(const void *dict, size_t size)
{
    RETURN_ERROR_IF(!dict && size, BAD_PARAMETER);
    if (size < 8 || xc_read_le32(dict) != XC_ZSTD_MAGIC_DICTIONARY) return 0;
    xc_zstd_ddict *dd = xc_zstd_ddict_new(dict, size);
    RETURN_ERROR_IF(!dd, DICT_CORRUPT);
    size_t const n = (size_t)(dd->content - dd->buf);
    xc_zstd_ddict_free(dd);
    return n;
}

/* Decoded bytes of the streamed frame that wait for output room (the
 * shim's libzstd-style "hostage byte" needs to know). */
XC_HIDDEN size_t xc_zstd_dctx_pending(const xc_zstd_dctx *d);

size_t xc_zstd_dctx_pending(const xc_zstd_dctx *d)
{
    return d->stage == XC_STREAM_FLUSH ? d->flush_end - d->flush_pos : 0;
}

/* Whether the streaming decoder stands between frames, nothing gathered. */
XC_HIDDEN int xc_zstd_dctx_between_frames(const xc_zstd_dctx *d);

int xc_zstd_dctx_between_frames(const xc_zstd_dctx *d)
{
    return d->stage == XC_STREAM_HEADER && d->ifill == 0;
}
