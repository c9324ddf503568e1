/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The entropy layer of the zstd decoder: FSE table descriptions, the FSE
 * decoding cells shared by the Huffman-weight and sequence decoders, and
 * Huffman literal decoding.  Everything here is internal (hidden).  The bit
 * reader these build on is in bitstream_read.h.
 *
 * Errors are size_t values tested with xc_iserr(): XC_ERROR(CORRUPT) for
 * data that breaks a rule of the format, XC_ERROR(TRUNCATED) when a
 * description runs past the bytes given.  No function reads outside
 * [src, src + src_size) or writes outside its output, whatever the input.
 *
 * ---- FSE (RFC 8878 §4.1) ------------------------------------------------
 *
 * size_t xc_fse_read_ncount(int16_t *norm, unsigned *max_symbol,
 *                           unsigned *table_log,
 *                           const uint8_t *src, size_t src_size);
 *     Reads an FSE table description (§4.1.1).  norm must hold
 *     *max_symbol + 1 entries.  On input *max_symbol is the largest symbol
 *     the caller allows (at most 255); on output, the largest symbol
 *     present (norm[0..*max_symbol] are written, a probability of "less
 *     than 1" being -1).  *table_log receives the accuracy log, which may be
 *     anything from 5 to XC_FSE_TABLELOG_ABSMAX: the caller compares it with
 *     its own limit (9 for literal and match lengths, 8 for offsets, 6
 *     for Huffman weights) and rejects larger ones itself.
 *     Returns the number of bytes the description occupies (whole bytes,
 *     the last one possibly part-used), XC_ERROR(CORRUPT) (probabilities
 *     that do not add up, a symbol above the limit, too many zero repeats,
 *     an accuracy log above XC_FSE_TABLELOG_ABSMAX) or XC_ERROR(TRUNCATED).
 *
 * void xc_fse_spread_symbols(uint8_t *symbols, const int16_t *norm,
 *                            unsigned max_symbol, unsigned table_log);
 *     Places each symbol in the 1 << table_log cells of a decoding table
 *     as §4.1.1 prescribes ("less than 1" symbols at the top, the others
 *     with the step (size >> 1) + (size >> 3) + 3).  norm must come from
 *     xc_fse_read_ncount() (or a predefined distribution) and sum to
 *     1 << table_log.
 *
 * void xc_fse_build_cells(xc_fse_cell *cells, const int16_t *norm,
 *                         unsigned max_symbol, unsigned table_log);
 *     Builds the complete decoding table: for each state, its symbol, the
 *     number of bits to read, and the base of the next state (next state =
 *     next_base + those bits).  The sequence decoder may use it and then
 *     attach its baselines per symbol.  Same preconditions as above.
 *
 * ---- Huffman (RFC 8878 §4.2) --------------------------------------------
 *
 * xc_huf_dtable: a decoding table for codes of up to XC_HUF_MAX_BITS (12)
 *     bits, in one of two forms: X1 (one symbol per lookup) or X2 (one or
 *     two symbols per lookup; for codes of up to 11 bits).  Fixed size, plain data: it may be
 *     embedded in a context, copied with memcpy (e.g. from a prepared
 *     dictionary) and must be kept between blocks because a treeless
 *     literals block reuses the previous table.  Before first use call
 *     xc_huf_dtable_clear(); decoding with a cleared table fails with
 *     XC_ERROR(CORRUPT) (a treeless block with no previous table).
 *
 * size_t xc_huf_read_table(xc_huf_dtable *dt, const uint8_t *src,
 *                          size_t src_size, size_t regen_size);
 *     Reads a Huffman tree description (§4.2.1: a header byte, then 4-bit
 *     weights or FSE-compressed weights) from the start of src and builds
 *     dt.  src/src_size are the whole compressed literals (tree followed by
 *     the streams): the ratio of regen_size to src_size chooses between X1
 *     and X2 the way the decoding cost suggests.  regen_size == 0 means "no
 *     block in view" (a dictionary's table) and builds X2, which suits any
 *     later block.  Returns the size of the tree description (the streams
 *     start at src + result), XC_ERROR(CORRUPT) or XC_ERROR(TRUNCATED).  On
 *     error dt is left cleared.
 *
 * xc_huf_decode_fn: size_t (uint8_t *dst, size_t regen_size,
 *                              const uint8_t *src, size_t src_size,
 *                              int four_streams, const xc_huf_dtable *dt);
 *     The Huffman stream decoder, one function per ISA variant
 *     (xc_huf_decode_portable(), xc_huf_decode_x64_bmi2(): the bodies are
 *     in huf_decode_tmpl.h); the decoder calls the one in its dkernels.
 *     Decodes exactly regen_size bytes from the Huffman streams at src
 *     (after the tree description, or the whole compressed literals of a
 *     treeless block).  With four_streams, src starts with the 6-byte jump
 *     table and the streams regenerate (regen_size + 3) / 4 bytes each, the
 *     last one the rest (§3.1.1.3.1.6).  Returns regen_size,
 *     or XC_ERROR(CORRUPT) for streams that do not decode to exactly the
 *     announced sizes, a cleared table, and four streams with fewer than 6
 *     literals or 10 bytes (as libzstd).  Writes only dst[0..regen_size).  dt is only read:
 *     threads may share one table.
 *
 * Also exported for tests and special callers:
 *
 * size_t xc_huf_build_table(xc_huf_dtable *dt, const uint8_t *weights,
 *                           unsigned nsym, int kind);
 *     Builds dt from weights[0..nsym) (all weights given: the implied last
 *     weight already appended; kind XC_HUF_X1 or XC_HUF_X2, and X1 anyway
 *     for 12-bit codes).  Returns 0 or XC_ERROR(CORRUPT) when the weights
 *     do not describe a complete tree of at most 12 bits.
 */
#ifndef XC_ZSTD_ENTROPY_H
#define XC_ZSTD_ENTROPY_H

#include "xc_internal.h"

/* ---- FSE ---------------------------------------------------------------- */

/* A description can announce an accuracy log up to 5 + 15.  This reader
 * stops at 14, where every count (at most 2^14) still fits the 16-bit norm
 * entries; that is far above the 9 the format allows anywhere. */
#define XC_FSE_TABLELOG_ABSMAX 14
#define XC_FSE_MAX_SYMBOL 255

typedef struct {
    uint16_t next_base;  /* next state = next_base + read(nbits) */
    uint8_t symbol;
    uint8_t nbits;
} xc_fse_cell;

XC_HIDDEN size_t xc_fse_read_ncount(int16_t *norm, unsigned *max_symbol, unsigned *table_log,
                                    const uint8_t *src, size_t src_size);
XC_HIDDEN void xc_fse_spread_symbols(uint8_t *symbols, const int16_t *norm, unsigned max_symbol,
                                     unsigned table_log);
XC_HIDDEN void xc_fse_build_cells(xc_fse_cell *cells, const int16_t *norm, unsigned max_symbol,
                                  unsigned table_log);

/* Decodes the FSE-compressed Huffman weights of §4.2.1.2 (the header byte
 * already read): src/src_size is the compressed series (table description
 * then bit stream).  Writes at most out_cap weights (255 per the format) and
 * returns how many, or an error.  Used by huf_decode_table.c. */
XC_HIDDEN size_t xc_fse_decode_weights(uint8_t *out, size_t out_cap, const uint8_t *src,
                                       size_t src_size);

/* ---- Huffman ------------------------------------------------------------ */

/* Codes are at most 11 bits in frames (RFC 8878 §4.2.1), but libzstd's
 * dictionary trainer writes trees 12 bits deep, and libzstd reuses them for
 * treeless literals; so 12 is accepted everywhere, as libzstd does.  Tables
 * look up 11 bits, or 12 for such a tree (X1 only, then). */
#define XC_HUF_TABLELOG_MAX 11
#define XC_HUF_MAX_BITS 12
#define XC_HUF_SYMBOL_MAX 255

enum { XC_HUF_NONE = 0, XC_HUF_X1 = 1, XC_HUF_X2 = 2 };

/* X1 cell: a 16-bit integer, bits 0-7 the code length, bits 8-15 the
 * symbol.  One load serves a lookup, and a shift by the whole cell masked
 * with 63 (which x86 and Arm shifters do for free) consumes the bits.
 *
 * X2 cell: 4 bytes, the total length of the one or two codes, the two
 * symbols (the second meaningful when two were decoded; both are written,
 * and the output advances by the count), and the count, 1 or 2.  Byte
 * loads of the fields measured faster here than one load and shifts.
 *
 * Use the accessors rather than the layouts. */
typedef uint16_t xc_huf_x1;
typedef struct {
    uint8_t nbits;
    uint8_t sym[2];
    uint8_t length;
} xc_huf_x2;

static inline unsigned xc_huf_x1_nbits(xc_huf_x1 c) { return c & 0xFFu; }
static inline unsigned xc_huf_x1_symbol(xc_huf_x1 c) { return (unsigned)c >> 8; }
static inline unsigned xc_huf_x2_nbits(xc_huf_x2 c) { return c.nbits; }
static inline unsigned xc_huf_x2_sym0(xc_huf_x2 c) { return c.sym[0]; }
static inline unsigned xc_huf_x2_sym1(xc_huf_x2 c) { return c.sym[1]; }
static inline unsigned xc_huf_x2_length(xc_huf_x2 c) { return c.length; }

/* About 8.5 KiB.  The cells come first, so that they start on the
 * alignment of the table itself. */
typedef struct {
    union {
        xc_huf_x1 x1[1u << XC_HUF_MAX_BITS];
        xc_huf_x2 x2[1u << XC_HUF_TABLELOG_MAX];
    } u;
    /* X2 only: the code length of each symbol (0: absent), for the very
     * last symbol of a stream, where a two-symbol cell must be cut short
     * and only the first code's bits consumed. */
    uint8_t sym_bits[XC_HUF_SYMBOL_MAX + 1];
    uint8_t kind;        /* XC_HUF_NONE, XC_HUF_X1 or XC_HUF_X2 */
    uint8_t table_log;   /* bits looked up per step: 11, or 12 for 12-bit codes */
    uint8_t max_bits;    /* longest code length */
} xc_huf_dtable;

static inline void xc_huf_dtable_clear(xc_huf_dtable *dt)
{
    dt->kind = XC_HUF_NONE;
    dt->table_log = 0;
    dt->max_bits = 0;
}

XC_HIDDEN size_t xc_huf_read_table(xc_huf_dtable *dt, const uint8_t *src, size_t src_size,
                                   size_t regen_size);
typedef size_t (*xc_huf_decode_fn)(uint8_t *dst, size_t regen_size, const uint8_t *src,
                                   size_t src_size, int four_streams, const xc_huf_dtable *dt);
XC_HIDDEN size_t xc_huf_build_table(xc_huf_dtable *dt, const uint8_t *weights, unsigned nsym,
                                    int kind);

#endif /* XC_ZSTD_ENTROPY_H */
