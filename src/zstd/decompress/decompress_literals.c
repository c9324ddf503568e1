/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The literals section of a compressed block (RFC 8878 §3.1.1.3.1): its
 * header, then raw bytes, one byte to repeat, or Huffman-coded streams
 * that the entropy layer (entropy_decode.h) decodes.
 *
 * Header layouts, little-endian, type in bits 1-0 of the first byte and
 * Size_Format in bits 3-2:
 *
 *   raw / RLE         Size_Format x0: 1 byte,  size in 5 bits
 *                     Size_Format 01: 2 bytes, size in 12 bits
 *                     Size_Format 11: 3 bytes, size in 20 bits
 *   compressed /      Size_Format 00: 3 bytes, 10-bit sizes, 1 stream
 *   treeless          Size_Format 01: 3 bytes, 10-bit sizes, 4 streams
 *                     Size_Format 10: 4 bytes, 14-bit sizes, 4 streams
 *                     Size_Format 11: 5 bytes, 18-bit sizes, 4 streams
 *
 * Where the literals go: the sequence executor reads them with 16-byte
 * blocks that may run XC_ZSTD_WILDCOPY bytes past the last one.  Raw
 * literals are therefore used in place when the input has that margin
 * after them (it nearly always does: the sequences follow).  Otherwise
 * they go to the room the caller found in the destination (d->lit_room)
 * or to the context's literals buffer, each with the margin after them.
 *
 * What it may call: the decoder (decompress/).
 */
#include "zstd/decompress/decompress_internal.h"

/* The buffer n literals are decoded into.  A block whose sequences
 * section (at `next`, right after the literals section) starts with a
 * count of 0 consists of its literals alone: they go straight to the
 * output, which saves copying them there afterwards. */
static uint8_t *literals_buffer(const xc_zstd_dctx *d, size_t n, const uint8_t *next,
                                const uint8_t *block_end)
{
    if (next < block_end && *next == 0 && n <= d->out_room) return d->out;
    if (d->lit_room && n + XC_ZSTD_WILDCOPY <= d->lit_room_size) return d->lit_room;
    return d->lit_buf;
}

size_t xc_zstd_decode_literals(xc_zstd_dctx *d, const uint8_t *src, size_t size,
                               const uint8_t *src_limit)
{
    const uint8_t *const block_end = src + size;
    unsigned const type = src[0] & 3, sf = (src[0] >> 2) & 3;
    size_t hsize, lsize;

    if (type < 2) {
        switch (sf) {
        case 1: hsize = 2; break;
        case 3: hsize = 3; break;
        default: hsize = 1; break;
        }
        RETURN_ERROR_IF(size < hsize, CORRUPT);
        lsize = hsize == 1 ? (size_t)(src[0] >> 3)
              : hsize == 2 ? (size_t)(xc_read_le16(src) >> 4)
                           : (size_t)(xc_read_le24(src) >> 4);
        RETURN_ERROR_IF(lsize > d->fh.block_max, CORRUPT);
        d->lit_size = lsize;
        if (type == 0) {
            RETURN_ERROR_IF(lsize > size - hsize, CORRUPT);
            if ((size_t)(src_limit - (src + hsize + lsize)) >= XC_ZSTD_WILDCOPY) {
                d->lit = src + hsize;
            } else {
                uint8_t *buf = literals_buffer(d, lsize, src + hsize + lsize, block_end);
                memcpy(buf, src + hsize, lsize);
                d->lit = buf;
            }
            return hsize + lsize;
        }
        RETURN_ERROR_IF(size - hsize < 1, CORRUPT);
        {
            uint8_t *buf = literals_buffer(d, lsize, src + hsize + 1, block_end);
            memset(buf, src[hsize], lsize);
            d->lit = buf;
        }
        return hsize + 1;
    }

    {
        size_t csize, tsize = 0, r;
        int const four = sf != 0;
        uint32_t h;

        hsize = sf < 2 ? 3 : sf + 2u;
        RETURN_ERROR_IF(size < hsize, CORRUPT);
        h = xc_read_le24(src);
        switch (sf) {
        case 0:
        case 1:
            lsize = (h >> 4) & 0x3FF;
            csize = (h >> 14) & 0x3FF;
            break;
        case 2:
            h |= (uint32_t)src[3] << 24;
            lsize = (h >> 4) & 0x3FFF;
            csize = h >> 18;
            break;
        default:
            h |= (uint32_t)src[3] << 24;
            lsize = (h >> 4) & 0x3FFFF;
            csize = (h >> 22) | ((size_t)src[4] << 10);
            break;
        }
        RETURN_ERROR_IF(lsize > d->fh.block_max, CORRUPT);
        RETURN_ERROR_IF(csize > size - hsize, CORRUPT);
        src += hsize;
        if (type == 2) {
            tsize = xc_huf_read_table(&d->huf_own, src, csize, lsize);
            RETURN_ERROR_IF(xc_iserr(tsize), CORRUPT);
            d->huf = &d->huf_own;
        } else {
            /* A treeless block reuses the last table of the frame (or the
             * dictionary's); without one it is corrupt. */
            RETURN_ERROR_IF(d->huf == NULL, CORRUPT);
        }
        {
            uint8_t *buf = literals_buffer(d, lsize, src + csize, block_end);
            r = d->kern->huf_decode(buf, lsize, src + tsize, csize - tsize, four, d->huf);
            RETURN_ERROR_IF(xc_iserr(r), CORRUPT);
            d->lit = buf;
        }
        d->lit_size = lsize;
        return hsize + csize;
    }
}
