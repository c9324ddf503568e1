/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Frame headers (RFC 8878 §3.1.1.1), skippable frames (§3.1.2) and the
 * inspection functions that need nothing but headers: content size,
 * compressed size of a frame, dictionary ID.
 *
 * A frame header is a descriptor byte telling which fields follow, so the
 * header's size is known from its first 5 bytes:
 *
 *   magic (4) | descriptor (1) | [window (1)] | [dict id (0/1/2/4)] | [content size (0/1/2/4/8)]
 *
 * The magicless format (XC_ZSTD_FORMAT_MAGICLESS) is the same without the
 * magic number.
 *
 * Descriptor bits: 7-6 content-size field code, 5 single segment, 4 unused
 * (ignored), 3 reserved (must be 0), 2 checksum, 1-0 dictionary-ID code.
 *
 * What it may call: the decoder (decompress/).
 */
#include "zstd/decompress/decompress_internal.h"

size_t xc_zstd_read_frame_header(xc_zstd_frame_header *fh, const uint8_t *src, size_t size,
                                 int magicless)
{
    unsigned fhd, single, did_code, fcs_code, need, pos;
    /* The magic number's bytes: none in the magicless format (libzstd's
     * ZSTD_f_zstd1_magicless), where the descriptor comes first and no
     * frame is skippable.  One branch per frame, always the same way. */
    unsigned const m = magicless ? 0 : 4;

    memset(fh, 0, sizeof *fh);
    if (!magicless) {
        uint32_t magic;
        if (size < 4) return 4;
        magic = xc_read_le32(src);
        if ((magic & XC_ZSTD_MAGIC_SKIPPABLE_MASK) == XC_ZSTD_MAGIC_SKIPPABLE_START) {
            if (size < XC_ZSTD_SKIPPABLE_HEADER) return XC_ZSTD_SKIPPABLE_HEADER;
            fh->skippable = 1;
            fh->header_size = XC_ZSTD_SKIPPABLE_HEADER;
            fh->skip_size = xc_read_le32(src + 4);
            return 0;
        }
        RETURN_ERROR_IF(magic != XC_ZSTD_MAGIC, UNKNOWN_MAGIC);
    }
    if (size < m + 1) return m + 1;

    fhd = src[m];
    single = (fhd >> 5) & 1;
    did_code = fhd & 3;
    fcs_code = fhd >> 6;
    need = m + 1 + !single + xc_zstd_did_field_size(did_code) + xc_zstd_fcs_field_size(fcs_code) +
           (fcs_code == 0 && single);
    if (size < need) return need;
    /* The reserved bit announces a feature this version cannot know. */
    RETURN_ERROR_IF(fhd & 0x08, FRAME_HEADER);

    pos = m + 1;
    fh->header_size = need;
    fh->single_segment = (uint8_t)single;
    fh->checksum = (uint8_t)((fhd >> 2) & 1);
    if (!single) {
        unsigned wd = src[pos++];
        unsigned wlog = XC_ZSTD_WINDOW_LOG_MIN + (wd >> 3);
        /* 2^31 and its eighths are the largest windows a 64-bit decoder
         * handles, like libzstd's limit; an exponent above that is legal
         * but beyond what any encoder we interoperate with produces. */
        RETURN_ERROR_IF(wlog > XC_ZSTD_WINDOW_LOG_MAX, WINDOW_TOO_LARGE);
        fh->window_size = ((uint64_t)1 << wlog) + (((uint64_t)1 << wlog) >> 3) * (wd & 7);
    }
    switch (did_code) {
    case 1: fh->dict_id = src[pos]; break;
    case 2: fh->dict_id = xc_read_le16(src + pos); break;
    case 3: fh->dict_id = xc_read_le32(src + pos); break;
    default: break;
    }
    pos += xc_zstd_did_field_size(did_code);
    switch (fcs_code) {
    case 0: fh->content_size = single ? src[pos] : XC_ZSTD_CONTENTSIZE_UNKNOWN; break;
    /* The 2-byte form is offset by 256: sizes below 256 take 1 byte. */
    case 1: fh->content_size = 256u + xc_read_le16(src + pos); break;
    case 2: fh->content_size = xc_read_le32(src + pos); break;
    default: fh->content_size = xc_read_le64(src + pos); break;
    }
    /* A single-segment frame's window is its whole content. */
    if (single) fh->window_size = fh->content_size;
    fh->block_max = (uint32_t)XC_MIN(fh->window_size, (uint64_t)XC_ZSTD_BLOCK_SIZE_MAX);
    return 0;
}

unsigned long long xc_zstd_frame_content_size(const void *src, size_t size)
{
    xc_zstd_frame_header fh;
    size_t r;

    if (!src) return XC_ZSTD_CONTENTSIZE_ERROR;
    r = xc_zstd_read_frame_header(&fh, (const uint8_t *)src, size, 0);
    if (r != 0) return XC_ZSTD_CONTENTSIZE_ERROR;
    return fh.skippable ? 0 : fh.content_size;
}

unsigned xc_zstd_frame_dict_id(const void *src, size_t size)
{
    xc_zstd_frame_header fh;

    if (!src || xc_zstd_read_frame_header(&fh, (const uint8_t *)src, size, 0) != 0) return 0;
    return fh.dict_id;
}

size_t xc_zstd_find_frame_compressed_size_format(const void *src_, size_t size,
                                                 xc_zstd_format format)
{
    const uint8_t *src = (const uint8_t *)src_;
    xc_zstd_frame_header fh;
    size_t r, pos;

    RETURN_ERROR_IF(!src && size, BAD_PARAMETER);
    RETURN_ERROR_IF(format != XC_ZSTD_FORMAT_ZSTD1 && format != XC_ZSTD_FORMAT_MAGICLESS,
                    BAD_PARAMETER);
    r = xc_zstd_read_frame_header(&fh, src, size, format == XC_ZSTD_FORMAT_MAGICLESS);
    if (xc_iserr(r)) return r;
    RETURN_ERROR_IF(r != 0, TRUNCATED);
    if (fh.skippable) {
        RETURN_ERROR_IF(fh.skip_size > size - XC_ZSTD_SKIPPABLE_HEADER, TRUNCATED);
        return XC_ZSTD_SKIPPABLE_HEADER + (size_t)fh.skip_size;
    }
    pos = fh.header_size;
    for (;;) {
        uint32_t bh, bsize, btype;

        RETURN_ERROR_IF(size - pos < XC_ZSTD_BLOCK_HEADER, TRUNCATED);
        bh = xc_read_le24(src + pos);
        pos += XC_ZSTD_BLOCK_HEADER;
        btype = xc_zstd_block_type(bh);
        bsize = xc_zstd_block_size(bh);
        RETURN_ERROR_IF(btype == XC_ZSTD_BLOCK_RESERVED, CORRUPT);
        RETURN_ERROR_IF(bsize > fh.block_max, CORRUPT);
        /* An RLE block stores its byte once, whatever its size. */
        if (btype == XC_ZSTD_BLOCK_RLE) bsize = 1;
        RETURN_ERROR_IF(bsize > size - pos, TRUNCATED);
        pos += bsize;
        if (xc_zstd_block_is_last(bh)) break;
    }
    if (fh.checksum) {
        RETURN_ERROR_IF(size - pos < XC_ZSTD_CHECKSUM_SIZE, TRUNCATED);
        pos += XC_ZSTD_CHECKSUM_SIZE;
    }
    return pos;
}

size_t xc_zstd_find_frame_compressed_size(const void *src, size_t size)
{
    return xc_zstd_find_frame_compressed_size_format(src, size, XC_ZSTD_FORMAT_ZSTD1);
}
