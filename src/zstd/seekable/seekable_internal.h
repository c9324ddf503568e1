/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The seekable format's layout (zstd contrib/seekable_format, 0.1.0), shared
 * by the writer (seekable_write.c) and the reader (seekable_read.c,
 * seekable_mt.c), and the reader's state.
 *
 * The seek table is one skippable frame at the very end of the file:
 *   magic 0x184D2A5E (4) | Frame_Size (4) | entries | footer (9)
 * an entry is Compressed_Size (4) | Decompressed_Size (4) | [Checksum (4)],
 * the footer Number_Of_Frames (4) | Seek_Table_Descriptor (1) |
 * 0x8F92EAB1 (4), all little-endian.  Descriptor bit 7 says entries carry
 * checksums (low 32 bits of XXH64, seed 0, of the frame's content); bits
 * 6..2 are reserved and must be 0; bits 1..0 are unused and ignored.
 */
#ifndef XC_SEEKABLE_INTERNAL_H
#define XC_SEEKABLE_INTERNAL_H

#include "xc_internal.h"

#define SK_HEADER_SIZE 8u
#define SK_FOOTER_SIZE 9u
#define SK_ENTRY_SIZE 8u
#define SK_ENTRY_SIZE_CHECKSUM 12u
#define SK_DESC_CHECKSUM 0x80u
#define SK_DESC_RESERVED 0x7Cu

/* Frame_Size is 32 bits: the table of a file with more frames than this
 * (with checksums, the larger entries) cannot be written. */
#define SK_FRAMES_MAX ((0xFFFFFFFFu - SK_FOOTER_SIZE) / SK_ENTRY_SIZE_CHECKSUM)

struct xc_zstd_seekable_s {
    /* The input: a buffer, or a callback over `size` bytes. */
    const uint8_t *buf;
    xc_read_at_fn read_at;
    void *opaque;
    uint64_t size;
    int open;
    int checksums;
    /* The table: frame i is input [c_off[i], c_off[i+1]) and content
     * [d_off[i], d_off[i+1]); n + 1 offsets each. */
    uint32_t n;
    uint64_t *c_off;
    uint64_t *d_off;
    uint32_t *sum;     /* n checksums, or NULL */
    uint64_t c_max;    /* the largest compressed frame */
    /* Decoding in the calling thread. */
    xc_zstd_dctx *dctx;
    uint8_t *src;      /* compressed bytes read through read_at */
    size_t src_cap;
    uint8_t *cache;    /* the content of frame `cached` */
    size_t cache_cap;
    uint32_t cached;   /* n when the cache holds nothing */
};

/* No zstd frame expands more than this: a block of the most content
 * (128 KiB) costs at least 4 bytes (a 3-byte header and an RLE byte).  An
 * entry promising more content is rejected before anything is allocated
 * for it. */
#define SK_EXPANSION_MAX ((uint64_t)1 << 15)
XC_HIDDEN int xc_sk_plausible(const xc_zstd_seekable *r, uint32_t i);

/* Decodes frame i into dst (exactly its content size, from the table) with
 * dctx, reading its bytes into *src (grown as needed, callers' scratch)
 * when the input is a callback; checks it against its entry, its checksum
 * too when `verify` is set (a caller that clears it checks the content
 * with xc_sk_checksum_ok()).  Returns 0 or an error.  Safe to call from
 * several threads with their own dctx and scratch. */
XC_HIDDEN size_t xc_sk_decode_frame(const xc_zstd_seekable *r, uint32_t i, uint8_t *dst,
                                    xc_zstd_dctx *dctx, uint8_t **src, size_t *src_cap,
                                    int verify);

/* Whether XXH64 h of frame i's content agrees with the seek table (always,
 * when the table has no checksums). */
static inline int xc_sk_checksum_ok(const xc_zstd_seekable *r, uint32_t i, uint64_t h)
{
    return !r->sum || (uint32_t)h == r->sum[i];
}

#endif /* XC_SEEKABLE_INTERNAL_H */
