/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The backward bit reader of zstd's entropy-coded streams (Huffman literal
 * streams, FSE-compressed Huffman weights and the sequences section).
 *
 * Format (RFC 8878 §4.1 and §4.2.2): the encoder writes bits forward, from
 * the lowest bit of the first byte upwards, then closes the stream with a
 * single 1 bit and pads the last byte with zeros.  The decoder therefore
 * starts at the last byte, skips the zero padding and the 1 (the "end
 * mark"), and reads bits in the reverse order in which they were written,
 * walking towards the first byte.  A last byte of 0 has no end mark and is
 * corrupt.
 *
 * Representation: `bits` holds 8 bytes loaded little-endian from `ptr`, so
 * the byte at ptr[7] is the top byte and the next bit to read is bit
 * (63 - consumed).  Reading n bits takes them from the top and adds n to
 * `consumed`; nothing in the container moves, which keeps a read to one
 * shift pair and one add.  A reload moves `ptr` back by consumed/8 whole
 * bytes and loads again, so that after a reload at most 7 bits are spent:
 * 57 bits can be read before the next reload.  Near the start of the buffer
 * the reader never loads before `start`; it keeps the bytes it has and lets
 * `consumed` describe what is left.
 *
 * A stream shorter than 8 bytes is loaded once into the low bytes of the
 * container, the missing high bytes counting as already consumed; in every
 * case the whole stream is exactly read when ptr == start and
 * consumed == 64, and consumed > 64 means the decoder read bits that do not
 * exist (an over-read of the bit stream, never of memory: reads past the
 * end of the data return garbage bits, without undefined behaviour).
 *
 * API (all static inline; br is an xc_bits *):
 *   size_t xc_bits_init(br, src, size)
 *       Starts reading src[0..size).  Returns 0, or XC_ERROR(CORRUPT) when
 *       size is 0 or the last byte is 0 (no end mark).  Reads only inside
 *       [src, src + size).
 *   uint64_t xc_bits_look(br, n)       the next n bits, 0 <= n <= 57, not consumed
 *   uint64_t xc_bits_look_fast(br, n)  same, for 1 <= n <= 57 (one shift less)
 *   void     xc_bits_skip(br, n)       consumes n bits
 *   uint64_t xc_bits_read(br, n)       look + skip, 0 <= n <= 57
 *   uint64_t xc_bits_read_fast(br, n)  look_fast + skip, 1 <= n <= 57
 *       n is bounded by what the container still holds: after a reload that
 *       returned XC_BITS_UNFINISHED, 57 bits may be read in total before
 *       the next reload; in general 64 - consumed.
 *   xc_bits_status xc_bits_reload(br)
 *       Refills the container and tells where the stream stands:
 *       XC_BITS_UNFINISHED  more bits remain and the container again holds
 *                           at least 57 unread bits (fast loops continue
 *                           while they see this value);
 *       XC_BITS_END         the first byte of the stream is loaded: the
 *                           container holds all the remaining bits, fewer
 *                           than 57 may be left, 64 - consumed exactly;
 *       XC_BITS_COMPLETED   every bit was read, none more;
 *       XC_BITS_OVERFLOW    more bits were read than the stream holds:
 *                           the data is corrupt.
 *       The values are ordered, so `st <= XC_BITS_END` means "not finished,
 *       not broken" and `st > XC_BITS_COMPLETED` means corruption.
 *   int xc_bits_completed(br)   1 when exactly every bit has been read
 *                               (what the end of a sequences section or
 *                               of a Huffman stream must satisfy).
 *   int xc_bits_overflowed(br)  1 when more bits were read than exist.
 *
 * The fields are public so that hand-written loops (e.g. the four
 * interleaved Huffman streams) may keep them in registers, but code
 * outside the entropy layer should go through the functions.
 *
 * What it may call: the library's helpers (xc_internal.h).
 */
#ifndef XC_ZSTD_BITS_H
#define XC_ZSTD_BITS_H

#include "xc_internal.h"

typedef struct {
    uint64_t bits;          /* 8 bytes loaded little-endian from ptr */
    unsigned consumed;      /* bits already read from the top of `bits` */
    const uint8_t *ptr;     /* where `bits` was loaded from */
    const uint8_t *start;   /* the first byte of the stream */
} xc_bits;

typedef enum {
    XC_BITS_UNFINISHED = 0,
    XC_BITS_END = 1,
    XC_BITS_COMPLETED = 2,
    XC_BITS_OVERFLOW = 3
} xc_bits_status;

/* Loads the bytes of a stream shorter than 8 bytes into the low end of a
 * word, byte k at bits 8k..8k+7, exactly as an 8-byte little-endian load
 * would place them; reads nothing beyond src + size. */
static inline uint64_t xc_bits_load_short(const uint8_t *src, size_t size)
{
    uint64_t v = 0;
    size_t i;
    for (i = 0; i < size; i++) v |= (uint64_t)src[i] << (8 * i);
    return v;
}

static inline size_t xc_bits_init(xc_bits *br, const uint8_t *src, size_t size)
{
    br->start = src;
    if (XC_UNLIKELY(size == 0)) {
        /* An empty stream has no end mark; mark it over-read as well so
         * that a caller ignoring the error still stops. */
        br->ptr = src;
        br->bits = 0;
        br->consumed = 65;
        return XC_ERROR(CORRUPT);
    }
    if (size >= 8) {
        br->ptr = src + size - 8;
        br->bits = xc_read_le64(br->ptr);
    } else {
        br->ptr = src;
        br->bits = xc_bits_load_short(src, size);
    }
    if (XC_UNLIKELY(src[size - 1] == 0)) {
        br->consumed = 65;
        return XC_ERROR(CORRUPT);
    }
    /* The top set bit of the container is the end mark, whether the stream
     * filled the word or left zero bytes above it; skip it and everything
     * above it. */
    br->consumed = xc_clz64(br->bits) + 1;
    return 0;
}

/* The shift pair `<< consumed >> 1 >> (63 - n)` takes the top n bits of what
 * is left and yields 0 for n == 0, without a shift by 64 (undefined in C).
 * Masking with 63 keeps the shifts defined even after an over-read, when
 * consumed may exceed 64; the result is then garbage that the caller
 * detects through xc_bits_reload() or xc_bits_completed(). */
static inline uint64_t xc_bits_look(const xc_bits *br, unsigned n)
{
    return ((br->bits << (br->consumed & 63)) >> 1) >> ((63 - n) & 63);
}

static inline uint64_t xc_bits_look_fast(const xc_bits *br, unsigned n)
{
    return (br->bits << (br->consumed & 63)) >> ((64 - n) & 63);
}

static inline void xc_bits_skip(xc_bits *br, unsigned n)
{
    br->consumed += n;
}

static inline uint64_t xc_bits_read(xc_bits *br, unsigned n)
{
    uint64_t v = xc_bits_look(br, n);
    xc_bits_skip(br, n);
    return v;
}

static inline uint64_t xc_bits_read_fast(xc_bits *br, unsigned n)
{
    uint64_t v = xc_bits_look_fast(br, n);
    xc_bits_skip(br, n);
    return v;
}

static inline xc_bits_status xc_bits_reload(xc_bits *br)
{
    size_t room, step;
    xc_bits_status st;

    if (XC_UNLIKELY(br->consumed > 64)) return XC_BITS_OVERFLOW;
    room = (size_t)(br->ptr - br->start);
    if (XC_LIKELY(room >= 8)) {
        /* consumed <= 64, so the step is at most 8 bytes and stays at or
         * after start. */
        br->ptr -= br->consumed >> 3;
        br->consumed &= 7;
        br->bits = xc_read_le64(br->ptr);
        return XC_BITS_UNFINISHED;
    }
    if (room == 0)
        return br->consumed == 64 ? XC_BITS_COMPLETED : XC_BITS_END;
    /* Between 1 and 7 bytes remain before ptr: move back as far as the
     * consumed bytes allow, but never before start.  The stream is at least
     * 8 bytes long here (shorter ones start with ptr == start), so the
     * 8-byte load at the new ptr stays inside it. */
    step = br->consumed >> 3;
    st = XC_BITS_UNFINISHED;
    if (step >= room) {
        step = room;
        st = XC_BITS_END;
    }
    br->ptr -= step;
    br->consumed -= (unsigned)step * 8;
    br->bits = xc_read_le64(br->ptr);
    return st;
}

static inline int xc_bits_completed(const xc_bits *br)
{
    return br->ptr == br->start && br->consumed == 64;
}

static inline int xc_bits_overflowed(const xc_bits *br)
{
    return br->consumed > 64;
}

#endif /* XC_ZSTD_BITS_H */
