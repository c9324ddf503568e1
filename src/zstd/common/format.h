/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd format (RFC 8878) as the encoder and the decoder both use it:
 * the sizes of the frame's fixed parts and the block types, the sequence
 * symbol types and table modes, the codes of literal lengths, match lengths
 * and offsets with their baselines and extra bits, the predefined
 * distributions, the repeat offsets and how a sequence changes them, and
 * the content checksum at the end of a frame.  Each of these rules is
 * written here once; an encoder that wrote a code differently from the way
 * the decoder reads it would produce frames that decode to something else,
 * so both sides take them from this file.
 *
 * This header includes xc_internal.h only and calls nothing but its
 * helpers: it sits below every layer of the codec.  The lookups that the
 * hot loops use (the sequence encoder, the optimal parser's prices, the
 * decoder's table builder) are force-inlined, and their tables are static
 * inside those functions, so a file that does not use a table carries no
 * copy of it.
 *
 * What it may call: the library's helpers (xc_internal.h).
 */
#ifndef XC_ZSTD_FORMAT_H
#define XC_ZSTD_FORMAT_H

#include "xc_internal.h"

/* ---- frames and blocks (RFC 8878 §3.1.1) ----------------------------------------- */

/* The largest frame header: magic 4, descriptor 1, window 1, dictionary ID
 * 4 and content size 8 (§3.1.1.1); a skippable frame's header is its magic
 * and its 4-byte size (§3.1.2). */
#define XC_ZSTD_FRAME_HEADER_MAX 18
#define XC_ZSTD_SKIPPABLE_HEADER 8

/* A block header is 3 bytes, little-endian: Last_Block in bit 0,
 * Block_Type in bits 1-2, Block_Size above (§3.1.1.2). */
#define XC_ZSTD_BLOCK_HEADER 3
enum {
    XC_ZSTD_BLOCK_RAW = 0,
    XC_ZSTD_BLOCK_RLE = 1,        /* one byte, repeated Block_Size times */
    XC_ZSTD_BLOCK_COMPRESSED = 2,
    XC_ZSTD_BLOCK_RESERVED = 3    /* corrupt */
};

/* The header of a block (to write with xc_write_le24), and its fields. */
static inline uint32_t xc_zstd_block_header(int last, unsigned type, uint32_t size)
{
    return (uint32_t)(last != 0) | ((uint32_t)type << 1) | (size << 3);
}

static inline int xc_zstd_block_is_last(uint32_t bh) { return (int)(bh & 1); }
static inline unsigned xc_zstd_block_type(uint32_t bh) { return (bh >> 1) & 3; }
static inline uint32_t xc_zstd_block_size(uint32_t bh) { return bh >> 3; }

/* The sizes of the frame header's optional fields by their codes in the
 * descriptor (§3.1.1.1.1): Dictionary_ID_Flag, and Frame_Content_Size_Flag
 * (whose code 0 means one byte in a single-segment frame, else none). */
static inline unsigned xc_zstd_did_field_size(unsigned code)
{
    static const uint8_t size[4] = {0, 1, 2, 4};
    return size[code];
}

static inline unsigned xc_zstd_fcs_field_size(unsigned code)
{
    static const uint8_t size[4] = {0, 2, 4, 8};
    return size[code];
}

/* ---- the content checksum (§3.1.1) ------------------------------------------------- */

/* Content_Checksum: the low 32 bits of XXH64 (seed 0) of the decoded
 * content, little-endian, after the last block.  Both sides hash with
 * common/xxh64.h and hand the digest here. */
#define XC_ZSTD_CHECKSUM_SIZE 4

/* Writes the checksum of digest at dst[0..cap).  Returns its size or
 * XC_ERROR(DST_TOO_SMALL). */
static inline size_t xc_zstd_write_checksum(uint8_t *dst, size_t cap, uint64_t digest)
{
    RETURN_ERROR_IF(cap < XC_ZSTD_CHECKSUM_SIZE, DST_TOO_SMALL);
    xc_write_le32(dst, (uint32_t)digest);
    return XC_ZSTD_CHECKSUM_SIZE;
}

/* Whether the checksum at src (XC_ZSTD_CHECKSUM_SIZE bytes) is digest's. */
static inline int xc_zstd_checksum_matches(const uint8_t *src, uint64_t digest)
{
    return xc_read_le32(src) == (uint32_t)digest;
}

/* ---- the sequences section header (§3.1.1.3.2.1) ----------------------------------- */

/* The three symbol types, in the order the tables follow one another in
 * the section header (and index every per-type array). */
enum { XC_SEQ_LL = 0, XC_SEQ_OF = 1, XC_SEQ_ML = 2 };

/* The compression mode of a type's table (§3.1.1.3.2.1.1). */
enum {
    XC_SEQ_MODE_PREDEFINED = 0, /* the distribution below, no description */
    XC_SEQ_MODE_RLE = 1,        /* one symbol, in one byte */
    XC_SEQ_MODE_COMPRESSED = 2, /* an FSE description follows */
    XC_SEQ_MODE_REPEAT = 3      /* the previous block's table */
};

/* The modes byte holds the literal-length mode in bits 7-6, the offset
 * mode in bits 5-4 and the match-length mode in bits 3-2; bits 1-0 are
 * reserved and must be 0. */
#define XC_SEQ_MODE_SHIFT(type) (6 - 2 * (type))

/* Number_of_Sequences: one byte below 128, two below this, else the byte
 * 255 and this much less, in two bytes. */
#define XC_ZSTD_NBSEQ_LONG 0x7F00

/* Largest codes of the three types, and the largest accuracy logs their
 * FSE descriptions may have (§3.1.1.3.2.2). */
#define XC_ZSTD_LL_MAX 35
#define XC_ZSTD_ML_MAX 52
#define XC_ZSTD_OF_MAX 31
#define XC_ZSTD_LL_LOG_MAX 9
#define XC_ZSTD_ML_LOG_MAX 9
#define XC_ZSTD_OF_LOG_MAX 8

static inline unsigned xc_zstd_seq_max_code(unsigned type)
{
    return type == XC_SEQ_LL ? XC_ZSTD_LL_MAX : type == XC_SEQ_ML ? XC_ZSTD_ML_MAX : XC_ZSTD_OF_MAX;
}

static inline unsigned xc_zstd_seq_log_max(unsigned type)
{
    return type == XC_SEQ_LL   ? XC_ZSTD_LL_LOG_MAX
           : type == XC_SEQ_ML ? XC_ZSTD_ML_LOG_MAX
                               : XC_ZSTD_OF_LOG_MAX;
}

/* ---- codes, baselines and extra bits (§3.1.1.3.2.1.1) ------------------------------ */

/* A literal length is its code's baseline plus as many extra bits as the
 * code says.  Codes 0-15 are the lengths themselves; then codes cover
 * ranges of 2, 4, 8 and 16 lengths, and from 64 each code a power of two.
 * Every baseline is a multiple of its range, so the extra bits are the low
 * bits of the length. */
XC_FORCE_INLINE unsigned xc_zstd_ll_bits(unsigned code)
{
    static const uint8_t bits[XC_ZSTD_LL_MAX + 1] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  0,  1,  1,
        1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    return bits[code];
}

XC_FORCE_INLINE uint32_t xc_zstd_ll_base(unsigned code)
{
    static const uint32_t base[XC_ZSTD_LL_MAX + 1] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,   10,  11,  12,  13,   14,   15,   16,   18,
        20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768,
        65536};
    return base[code];
}

/* The code of a literal length: a table below 64, above it the position
 * of the top bit (2^k is the baseline of code k + 19). */
XC_FORCE_INLINE unsigned xc_zstd_ll_code(uint32_t ll)
{
    static const uint8_t small[64] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
        16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 20, 20, 21, 21, 21, 21,
        22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 23, 23, 23, 23, 23,
        24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24};
    return ll < 64 ? small[ll] : xc_highbit32(ll) + 19;
}

/* Match lengths are at least 3, and their codes work on the length minus
 * 3: codes 0-31 are those values themselves, then ranges of 2, 4, 8 and
 * 16 values and one of 32, and from 128 each code a power of two.  As for
 * literal lengths, the extra bits are the low bits of length - 3. */
XC_FORCE_INLINE unsigned xc_zstd_ml_bits(unsigned code)
{
    static const uint8_t bits[XC_ZSTD_ML_MAX + 1] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,  1,  1,  1,
        2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    return bits[code];
}

/* The baseline of a match-length code, as a match length (3 and up). */
XC_FORCE_INLINE uint32_t xc_zstd_ml_base(unsigned code)
{
    static const uint32_t base[XC_ZSTD_ML_MAX + 1] = {
        3,  4,  5,  6,  7,  8,  9,  10, 11,  12,  13,  14,   15,   16,   17,   18,    19,
        20, 21, 22, 23, 24, 25, 26, 27, 28,  29,  30,  31,   32,   33,   34,   35,    37,
        39, 41, 43, 47, 51, 59, 67, 83, 99,  131, 259, 515, 1027, 2051, 4099, 8195, 16387,
        32771, 65539};
    return base[code];
}

/* The code of match length - 3 (mlb): a table below 128, above it the
 * position of the top bit (2^k is the base of code k + 36). */
XC_FORCE_INLINE unsigned xc_zstd_ml_code(uint32_t mlb)
{
    static const uint8_t small[128] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
        22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 36, 36,
        37, 37, 37, 37, 38, 38, 38, 38, 38, 38, 38, 38, 39, 39, 39, 39, 39, 39, 39, 39, 40, 40,
        40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 41, 41, 41, 41, 41, 41, 41, 41,
        41, 41, 41, 41, 41, 41, 41, 41, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42,
        42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42};
    return mlb < 128 ? small[mlb] : xc_highbit32(mlb) + 36;
}

/* The code of an Offset_Value (§3.1.1.3.2.1.1: Offset_Value =
 * 2^code + the code's extra bits, so it has as many extra bits as its code
 * and is the low bits of the value). */
XC_FORCE_INLINE unsigned xc_zstd_of_code(uint32_t off_value)
{
    return xc_highbit32(off_value);
}

/* ---- repeat offsets (§3.1.1.5, §3.1.2.5) ------------------------------------------ */

/* Every frame (and a dictionary without others) starts with these. */
static inline void xc_zstd_rep_init(uint32_t rep[3])
{
    rep[0] = 1;
    rep[1] = 4;
    rep[2] = 8;
}

/* The offset that repeat index k names among the repeat offsets r0, r1,
 * r2: 0..2 the offsets themselves, 3 the first minus one.  A sequence's
 * index is its repeat code (Offset_Value 1..3) minus 1, plus 1 when its
 * literal length is 0: with no literals the repeat codes shift by one,
 * since repeating the previous offset right after its own match would
 * just have extended that match. */
XC_FORCE_INLINE uint32_t xc_zstd_rep_offset(uint32_t r0, uint32_t r1, uint32_t r2, unsigned k)
{
    return k == 0 ? r0 : k == 3 ? r0 - 1 : k == 1 ? r1 : r2;
}

/* The repeat offsets out[] after a sequence with Offset_Value off_value,
 * ll0 when it has no literals, from in[] before it (out may be in).
 * Returns the sequence's offset.  A new offset (off_value > 3 stands for
 * off_value - 3) and a repeat other than the first both move to the front
 * and push the others back; index 1 swaps with the first only, so the
 * third stays; index 0 changes nothing.  The decoder applies this rule
 * with selects fused into its bit reads (decompress_sequences.c), the
 * encoder's parsers through this function. */
XC_FORCE_INLINE uint32_t xc_zstd_rep_next(uint32_t out[3], const uint32_t in[3], uint32_t off_value,
                                          int ll0)
{
    uint32_t const r0 = in[0], r1 = in[1], r2 = in[2];
    if (off_value > 3) {
        out[0] = off_value - 3;
        out[1] = r0;
        out[2] = r1;
        return off_value - 3;
    }
    unsigned const k = off_value - 1 + (unsigned)(ll0 != 0);
    if (k == 0) {
        out[0] = r0;
        out[1] = r1;
        out[2] = r2;
        return r0;
    }
    uint32_t const off = xc_zstd_rep_offset(r0, r1, r2, k);
    out[0] = off;
    out[1] = r0;
    out[2] = k == 1 ? r2 : r1;
    return off;
}

/* The inverse: the Offset_Value a sequence (ll0 when it has no literals)
 * at offset off gets after rep[]: the first repeat code that names off,
 * else off + 3.  Passing it to xc_zstd_rep_next() moves rep[] as the
 * decoder will. */
static inline uint32_t xc_zstd_rep_code(const uint32_t rep[3], uint32_t off, int ll0)
{
    for (unsigned code = 1; code <= 3; code++)
        if (off == xc_zstd_rep_offset(rep[0], rep[1], rep[2], code - 1 + (unsigned)(ll0 != 0)))
            return code;
    return off + 3;
}

/* ---- predefined distributions (§3.1.1.3.2.2) -------------------------------------- */

/* The offset distribution stops at code 28: frames that need longer
 * offsets must describe a table of their own. */
#define XC_ZSTD_OF_DEFAULT_MAX 28
#define XC_ZSTD_LL_DEFAULT_LOG 6
#define XC_ZSTD_ML_DEFAULT_LOG 6
#define XC_ZSTD_OF_DEFAULT_LOG 5

/* The normalized counts of a type's predefined distribution (-1 is a
 * "less than 1" probability), with its largest symbol and accuracy log. */
typedef struct {
    const int16_t *norm;
    unsigned max_symbol;
    unsigned log;
} xc_seq_default;

static inline xc_seq_default xc_zstd_seq_default(unsigned type)
{
    static const int16_t ll[XC_ZSTD_LL_MAX + 1] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                                                   2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2,
                                                   2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
    static const int16_t ml[XC_ZSTD_ML_MAX + 1] = {
        1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
    static const int16_t of[XC_ZSTD_OF_DEFAULT_MAX + 1] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1,
                                                           1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                           1, 1, 1, 1, -1, -1, -1, -1, -1};
    xc_seq_default d;
    if (type == XC_SEQ_LL) {
        d.norm = ll, d.max_symbol = XC_ZSTD_LL_MAX, d.log = XC_ZSTD_LL_DEFAULT_LOG;
    } else if (type == XC_SEQ_ML) {
        d.norm = ml, d.max_symbol = XC_ZSTD_ML_MAX, d.log = XC_ZSTD_ML_DEFAULT_LOG;
    } else {
        d.norm = of, d.max_symbol = XC_ZSTD_OF_DEFAULT_MAX, d.log = XC_ZSTD_OF_DEFAULT_LOG;
    }
    return d;
}

#endif /* XC_ZSTD_FORMAT_H */
