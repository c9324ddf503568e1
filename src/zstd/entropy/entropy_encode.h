/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The entropy layer of the zstd encoder: a forward bit writer, byte
 * histograms, FSE (normalisation, table descriptions, encoding tables and
 * the per-symbol encoder) and Huffman (depth-limited code construction,
 * tree descriptions, 1- and 4-stream literal encoding).  It is the mirror
 * image of bitstream_read.h and entropy_decode.h: every stream written here is
 * read backwards by the decoder.  Everything is internal (hidden).
 *
 * Return conventions.  Functions that write return a size_t tested with
 * xc_iserr(): the number of bytes written, XC_ERROR(DST_TOO_SMALL) when the
 * output does not fit (nothing is ever written at or past dst + cap, even
 * then; bytes before it may have been scribbled on), or
 * XC_ERROR(BAD_PARAMETER) for arguments outside the documented range.
 * A result of 0 has a meaning stated per function ("use RLE instead",
 * "cannot be encoded"); it is never an error.
 *
 * The output depends only on the arguments: the same input gives the same
 * bytes on every ISA, tier and byte order (plain integer arithmetic, no
 * floating point, no ISA-dependent choices), which the frame-level promise
 * of identical frames everywhere relies on.
 *
 * Thread safety: no global mutable state.  Tables are plain data that may
 * be copied with memcpy and shared read-only between threads.
 *
 * ---- Bit writer ----------------------------------------------------------
 *
 * zstd's entropy streams (RFC 8878 §4.1, §4.2.2) are written forwards,
 * starting at the lowest bit of the first byte, and read backwards: the
 * decoder starts at the last byte, skips the zero padding and the single 1
 * bit above the data (the end mark), and reads fields in the reverse order
 * of writing.  So whatever must be decoded first is written last.
 *
 * xc_bitw keeps up to 63 pending bits in a 64-bit container (the oldest at
 * bit 0).  xc_bitw_add*() appends a field; xc_bitw_flush() moves the whole
 * bytes to memory, leaving at most 7 bits pending.  Between two flushes at
 * most 56 bits may be added (7 + 56 = 63).  A flush stores 8 bytes at once
 * while at least 8 bytes of room remain and falls back to single bytes near
 * the end; when the room runs out it sets `overflow`, drops the bits and
 * keeps going harmlessly, and xc_bitw_close() reports DST_TOO_SMALL.  So a
 * stream that fits exactly in cap succeeds, and nothing is written past it.
 *
 *   void   xc_bitw_init(w, dst, cap)
 *   void   xc_bitw_add(w, value, n)        value < 2^n, 0 <= n <= 56
 *   void   xc_bitw_add_masked(w, value, n) only the low n bits of value are used
 *   void   xc_bitw_flush(w)
 *   size_t xc_bitw_close(w)   appends the end mark, flushes the last byte;
 *                             returns the stream size (>= 1) or
 *                             XC_ERROR(DST_TOO_SMALL)
 *
 * ---- Histograms ----------------------------------------------------------
 *
 * unsigned xc_hist_count(unsigned *count, unsigned *max_symbol,
 *                        const uint8_t *src, size_t n);
 *     Counts the bytes of src[0..n).  count must hold 256 entries; all 256
 *     are written.  *max_symbol receives the largest byte value present (0
 *     when n == 0).  Returns the largest count (0 when n == 0).  Large
 *     inputs are counted into four interleaved tables, which breaks the
 *     store-to-load dependency of repeated bytes.
 *
 * unsigned xc_hist_count_small(unsigned *count, unsigned *max_symbol,
 *                              const uint8_t *src, size_t n);
 *     The same for small alphabets (the sequence codes): on input
 *     *max_symbol (<= 255) is the largest value of interest and count holds
 *     *max_symbol + 1 entries, all written; bytes above it are not counted
 *     (and never written anywhere).  On output *max_symbol is the largest
 *     value present (0 when none is).  Returns the largest count.
 *
 * Both need n < 2^32 (a block is at most 128 KiB).
 *
 * ---- FSE (RFC 8878 §4.1) -------------------------------------------------
 *
 * unsigned xc_fse_optimal_table_log(unsigned max_log, size_t total,
 *                                   unsigned max_symbol);
 *     Chooses an accuracy log for `total` symbols with values up to
 *     max_symbol: no larger than max_log, no larger than the sample count
 *     justifies, but with room for every symbol value unless max_log
 *     forbids it (xc_fse_normalize() then refuses a log too small for the
 *     symbols actually present).  The result lies in
 *     [XC_FSE_ENC_TABLELOG_MIN, max_log], max_log being clamped to
 *     [XC_FSE_ENC_TABLELOG_MIN, XC_FSE_ENC_TABLELOG_MAX].
 *
 * size_t xc_fse_normalize(int16_t *norm, unsigned table_log,
 *                         const unsigned *count, size_t total,
 *                         unsigned max_symbol, int use_low_prob);
 *     Scales count[0..max_symbol] (whose sum is total) to probabilities
 *     norm[0..max_symbol] summing to 1 << table_log, with every symbol whose
 *     count is nonzero given a nonzero probability.  With use_low_prob, rare
 *     symbols may get the special probability -1 ("less than 1", one cell
 *     at the top of the table); without it they get 1.  (libzstd uses -1
 *     from 2048 sequences on; below that the difference does not pay.)
 *     table_log must be in [XC_FSE_ENC_TABLELOG_MIN, XC_FSE_ENC_TABLELOG_MAX]
 *     and large enough for the symbols present (xc_fse_optimal_table_log()
 *     gives such a value).  Returns table_log; 0 when a single symbol holds
 *     every count (use RLE: FSE needs two symbols); XC_ERROR(BAD_PARAMETER)
 *     for total == 0, max_symbol > XC_FSE_ENC_SYMBOL_MAX_NCOUNT, a table_log
 *     out of range or too small.
 *
 * size_t xc_fse_write_ncount(uint8_t *dst, size_t cap, const int16_t *norm,
 *                            unsigned max_symbol, unsigned table_log);
 *     Writes the table description (§4.1.1) of norm[0..max_symbol], which
 *     must come from xc_fse_normalize() (norm[max_symbol] nonzero).
 *     Returns its size in bytes, XC_ERROR(DST_TOO_SMALL) or
 *     XC_ERROR(BAD_PARAMETER) (table_log out of range, a distribution that
 *     does not sum to 1 << table_log).  xc_fse_ncount_bound() gives a cap
 *     that always suffices.
 *
 * xc_fse_ctable: an encoding table for table_log <= XC_FSE_ENC_TABLELOG_MAX
 *     and symbols <= XC_FSE_ENC_SYMBOL_MAX (enough for literal lengths,
 *     match lengths, offset codes and Huffman weights).  Plain data, about
 *     2 KiB; keep the previous block's tables for the repeat mode by copy
 *     or by swapping pointers.
 *
 * size_t xc_fse_build_ctable(xc_fse_ctable *ct, const int16_t *norm,
 *                            unsigned max_symbol, unsigned table_log);
 *     Builds the encoding table of a distribution (from xc_fse_normalize(),
 *     or a predefined distribution of §3.1.1.3.2.2).  It spreads symbols
 *     exactly as the decoder does, so the decoder's table for the same norm
 *     inverts this one.  Returns 0, or XC_ERROR(BAD_PARAMETER) (max_symbol
 *     above XC_FSE_ENC_SYMBOL_MAX, table_log out of range, a sum that is
 *     not 1 << table_log).
 *
 * void xc_fse_build_ctable_rle(xc_fse_ctable *ct, unsigned symbol);
 *     A table for the RLE mode: encoding `symbol` costs no bits, and
 *     flushing the state writes nothing.  With it, the sequence encoder
 *     runs the same code for every mode.  symbol <= XC_FSE_ENC_SYMBOL_MAX.
 *
 * size_t xc_fse_estimate_bits(const xc_fse_ctable *ct, const unsigned *count,
 *                             unsigned max_symbol);
 *     The approximate number of bits ct spends on a histogram
 *     count[0..max_symbol] (the symbols only, not the table description
 *     nor the extra bits): sum of count[s] * (table_log - log2(p[s])),
 *     accurate to a fraction of a bit per symbol.  Returns
 *     XC_ERROR(GENERIC) when ct cannot encode a symbol whose count is
 *     nonzero (absent from its distribution, or above its max_symbol), which
 *     rules the repeat mode out.
 *
 * size_t xc_fse_ncount_bound(unsigned max_symbol, unsigned table_log);
 *     An upper bound on xc_fse_write_ncount()'s output.
 *
 * Encoding a stream of symbols (inline, below).  The decoder reads symbols
 * in the reverse order of encoding.  Encode the LAST symbol first with
 * xc_fse_init_state() (it sets the state and writes no bits), then the
 * others going backwards with xc_fse_encode() (at most table_log bits
 * each), and end with xc_fse_flush_state() (exactly table_log bits: the
 * state the decoder starts from).  Several states may share one writer;
 * the decoder of the sequences section reads the initial states in the
 * reverse order of the flushes.  Flush the writer at least every 56 bits.
 *
 *   void xc_fse_init_state(xc_fse_cstate *st, const xc_fse_ctable *ct,
 *                          unsigned symbol)
 *   void xc_fse_encode(xc_bitw *w, xc_fse_cstate *st, unsigned symbol)
 *   void xc_fse_flush_state(xc_bitw *w, const xc_fse_cstate *st)
 *
 * ---- Huffman (RFC 8878 §4.2) ---------------------------------------------
 *
 * xc_huf_ctable: code lengths and codes for symbols 0..max_symbol, plus
 *     the tree depth.  Plain data (about 2 KiB); keep the previous block's
 *     table for treeless literals by copy.
 *
 * size_t xc_huf_build_ctable(xc_huf_ctable *ct, const unsigned *count,
 *                            unsigned max_symbol, unsigned max_bits);
 *     Builds a Huffman code for count[0..max_symbol] (max_symbol <= 255)
 *     whose codes are at most max_bits long (1..XC_HUF_ENC_MAXBITS; raised
 *     when too small for the number of symbols present).  Symbols with a
 *     zero count get no code.  Returns the tree depth (the longest code,
 *     which is the Max_Number_of_Bits the description conveys), or 0 when
 *     fewer than two symbols are present (a literals block then goes out
 *     RLE or raw); XC_ERROR(BAD_PARAMETER) for max_symbol > 255 or
 *     max_bits > XC_HUF_ENC_MAXBITS.  ct->max_symbol is set to the largest
 *     symbol present.
 *
 * unsigned xc_huf_assign_codes(xc_huf_ctable *ct, const uint8_t *len, unsigned nsym);
 *     Gives symbols 0..nsym-1 the canonical codes of the lengths len[]
 *     (0: no code; at most XC_HUF_ENC_MAXBITS; a complete code, as every
 *     tree the format describes is), and sets ct->max_symbol and ct->depth
 *     (the longest length, which it returns).  The one place where lengths
 *     become codes: for trees built here and for those read from a
 *     dictionary (cdict.c).
 *
 * size_t xc_huf_write_table(uint8_t *dst, size_t cap, const xc_huf_ctable *ct);
 *     Writes the tree description (§4.2.1) of a table from
 *     xc_huf_build_ctable(): FSE-compressed weights or 4-bit weights
 *     (possible when the largest symbol is <= 128), whichever is smaller.
 *     Returns its size (at most XC_HUF_TABLE_BOUND bytes), 0 when neither
 *     form can describe the table (symbols above 128 whose weights do not
 *     FSE-compress into 127 bytes, e.g. all 256 byte values with 8-bit
 *     codes, which Huffman cannot shrink anyway: send the literals raw),
 *     XC_ERROR(DST_TOO_SMALL) or XC_ERROR(BAD_PARAMETER) (an empty table).
 *
 * size_t xc_huf_write_lengths(uint8_t *dst, size_t cap, const uint8_t *len,
 *                             unsigned max_symbol, unsigned depth);
 *     The same description for code lengths len[0..max_symbol) (the last
 *     symbol's is implied) of a tree depth bits deep, before they are made
 *     codes: what xc_huf_build_smallest() weighs its candidates with.
 *
 * size_t xc_huf_build_smallest(xc_huf_ctable *ct, const unsigned *count,
 *                              unsigned max_symbol, uint8_t *table,
 *                              size_t cap, size_t *table_size);
 *     xc_huf_build_ctable() with the depth limit that makes description
 *     plus streams smallest, the description written to table (cap at
 *     least XC_HUF_TABLE_BOUND) and its size in *table_size (0 when no
 *     depth can be described).  Tries limits from the unlimited tree's
 *     depth (at most XC_HUF_ENC_MAXBITS) down, one bit at a time, while
 *     the total shrinks; the leaves are sorted and the unlimited tree is
 *     built once for all of them.  A shallower tree has fewer distinct
 *     weights and so often a shorter description, which decides sections
 *     of a few hundred literals.  Returns as xc_huf_build_ctable().
 *
 * size_t xc_huf_estimate_size(const xc_huf_ctable *ct, const unsigned *count,
 *                             unsigned max_symbol);
 *     The size in bytes (rounded down) of the Huffman streams for the
 *     histogram count[0..max_symbol] with ct, excluding the description,
 *     jump table and end marks.  ct must be able to encode every symbol
 *     present (xc_huf_valid_for()).
 *
 * size_t xc_huf_payload_floor(const unsigned *count, unsigned max_symbol,
 *                             size_t total);
 *     A lower bound, in bytes, on the payload of any prefix code for the
 *     histogram count[0..max_symbol] of total symbols: the empirical
 *     entropy (Gibbs' inequality), computed in integers from below, so
 *     every platform gets the same value.  Tells, before a tree is built,
 *     that no tree can make a section worth coding.
 *
 * int xc_huf_valid_for(const xc_huf_ctable *ct, const unsigned *count,
 *                      unsigned max_symbol);
 *     1 when every symbol with a nonzero count in count[0..max_symbol] has
 *     a code in ct (the condition for treeless literals), else 0.
 *
 * xc_huf_compress_fn: size_t (uint8_t *dst, size_t cap, const uint8_t *src,
 *                                size_t n, const xc_huf_ctable *ct);
 *     The stream encoders, one pair per ISA variant of the encoder (the
 *     huf_1x and huf_4x of its kernel table, compress_kernels.h; bodies in
 *     huf_encode_stream_tmpl.h); every variant writes the same bytes.
 *
 *   huf_1x: encodes src[0..n) as one stream.  Every byte of src must have
 *     a code in ct.  Returns the stream size, or XC_ERROR(DST_TOO_SMALL).
 *
 *   huf_4x:
 *     Encodes src[0..n) as the 6-byte jump table and four streams of
 *     (n + 3) / 4 symbols each, the last one the rest (§3.1.1.3.1.6).
 *     n must be at least XC_HUF_4X_MIN_SRC (the decoder rejects fewer;
 *     libzstd uses one stream below 256 literals, and so should callers).
 *     Returns the total size, XC_ERROR(DST_TOO_SMALL), or
 *     XC_ERROR(BAD_PARAMETER) when n is below the minimum or a stream would
 *     exceed the 65535 bytes a jump-table entry holds (impossible for a
 *     block's 128 KiB).
 *
 * What it may call: the library's helpers (xc_internal.h).
 */
#ifndef XC_ZSTD_ENC_ENTROPY_H
#define XC_ZSTD_ENC_ENTROPY_H

#include "xc_internal.h"

/* ---- bit writer ---------------------------------------------------------- */

typedef struct {
    uint64_t bits;   /* pending bits, the oldest at bit 0 */
    unsigned count;  /* number of pending bits, at most 63 */
    int overflow;    /* the destination ran out: the stream is lost */
    uint8_t *ptr;    /* where the next byte goes */
    uint8_t *start;
    uint8_t *end;    /* dst + cap: never written */
} xc_bitw;

static inline void xc_bitw_init(xc_bitw *w, uint8_t *dst, size_t cap)
{
    w->bits = 0;
    w->count = 0;
    w->overflow = 0;
    w->ptr = dst;
    w->start = dst;
    w->end = dst + cap;
}

static inline void xc_bitw_add(xc_bitw *w, uint64_t value, unsigned n)
{
    w->bits |= value << w->count;
    w->count += n;
}

static inline void xc_bitw_add_masked(xc_bitw *w, uint64_t value, unsigned n)
{
    /* The double shift keeps n == 0 defined (a shift by 64 is not). */
    xc_bitw_add(w, value & ((uint64_t)0xFFFFFFFFFFFFFFFFull >> 1 >> (63 - n)), n);
}

/* The slow half of a flush: byte by byte, stopping at the end. */
static inline void xc_bitw_flush_tail(xc_bitw *w)
{
    while (w->count >= 8) {
        if (w->ptr == w->end) {
            w->overflow = 1;
            w->count &= 7;
            w->bits = 0;
            return;
        }
        *w->ptr++ = (uint8_t)w->bits;
        w->bits >>= 8;
        w->count -= 8;
    }
}

static inline void xc_bitw_flush(xc_bitw *w)
{
    if (XC_LIKELY((size_t)(w->end - w->ptr) >= 8)) {
        /* Eight bytes are stored, count / 8 of them meaningful; the others
         * are overwritten by the next flush and stay inside the buffer. */
        unsigned nbytes = w->count >> 3;
        xc_write_le64(w->ptr, w->bits);
        w->ptr += nbytes;
        w->bits >>= nbytes * 8; /* at most 56: count <= 63 */
        w->count &= 7;
    } else {
        xc_bitw_flush_tail(w);
    }
}

static inline size_t xc_bitw_close(xc_bitw *w)
{
    xc_bitw_add(w, 1, 1);
    xc_bitw_flush(w);
    if (w->count > 0) {
        if (w->ptr == w->end) w->overflow = 1;
        else *w->ptr++ = (uint8_t)w->bits;
        w->bits = 0;
        w->count = 0;
    }
    if (w->overflow) return XC_ERROR(DST_TOO_SMALL);
    return (size_t)(w->ptr - w->start);
}

/* ---- histograms ---------------------------------------------------------- */

XC_HIDDEN unsigned xc_hist_count(unsigned *count, unsigned *max_symbol, const uint8_t *src,
                                 size_t n);
XC_HIDDEN unsigned xc_hist_count_small(unsigned *count, unsigned *max_symbol,
                                       const uint8_t *src, size_t n);

/* ---- FSE ----------------------------------------------------------------- */

/* The format's accuracy logs: 9 at most for sequences, 6 for Huffman
 * weights, 5 at least for any description. */
#define XC_FSE_ENC_TABLELOG_MIN 5
#define XC_FSE_ENC_TABLELOG_MAX 9
/* Offset codes stop at 31, match-length codes at 52, literal-length codes
 * at 35, Huffman weights at 11. */
#define XC_FSE_ENC_SYMBOL_MAX 63
/* normalize and write_ncount accept any byte-valued alphabet. */
#define XC_FSE_ENC_SYMBOL_MAX_NCOUNT 255

/* Per-symbol encoding transform (see fse_encode.c for the derivation):
 * the number of bits to emit from state x is (x + delta_nbits) >> 16, and
 * the next state is state[(x >> nbits) + delta_state]. */
typedef struct {
    uint32_t delta_nbits;
    int32_t delta_state;
} xc_fse_symtt;

typedef struct {
    unsigned table_log;
    unsigned max_symbol;
    uint16_t state[1u << XC_FSE_ENC_TABLELOG_MAX]; /* x in [size, 2 * size) */
    xc_fse_symtt sym[XC_FSE_ENC_SYMBOL_MAX + 1];
    uint16_t prob[XC_FSE_ENC_SYMBOL_MAX + 1];      /* cells per symbol, 0 = absent */
} xc_fse_ctable;

typedef struct {
    uint32_t value; /* encoder state x, in [1 << table_log, 2 << table_log) */
    unsigned table_log;
    const uint16_t *state;
    const xc_fse_symtt *sym;
} xc_fse_cstate;

XC_HIDDEN unsigned xc_fse_optimal_table_log(unsigned max_log, size_t total, unsigned max_symbol);
XC_HIDDEN size_t xc_fse_normalize(int16_t *norm, unsigned table_log, const unsigned *count,
                                  size_t total, unsigned max_symbol, int use_low_prob);
XC_HIDDEN size_t xc_fse_ncount_bound(unsigned max_symbol, unsigned table_log);
XC_HIDDEN size_t xc_fse_write_ncount(uint8_t *dst, size_t cap, const int16_t *norm,
                                     unsigned max_symbol, unsigned table_log);
XC_HIDDEN size_t xc_fse_build_ctable(xc_fse_ctable *ct, const int16_t *norm,
                                     unsigned max_symbol, unsigned table_log);
XC_HIDDEN void xc_fse_build_ctable_rle(xc_fse_ctable *ct, unsigned symbol);
XC_HIDDEN size_t xc_fse_estimate_bits(const xc_fse_ctable *ct, const unsigned *count,
                                      unsigned max_symbol);

static inline void xc_fse_init_state(xc_fse_cstate *st, const xc_fse_ctable *ct,
                                     unsigned symbol)
{
    /* The decoder ends on a cell of `symbol`; the lowest such state is
     * state[cumulative start of symbol], which is also the cheapest start
     * for the next encode (fewest bits out).  delta_state is that start
     * minus the symbol's probability, see fse_encode.c. */
    const xc_fse_symtt *tt = &ct->sym[symbol];
    unsigned p = ct->prob[symbol];
    st->table_log = ct->table_log;
    st->state = ct->state;
    st->sym = ct->sym;
    st->value = ct->state[(int32_t)p + tt->delta_state];
}

static inline void xc_fse_encode(xc_bitw *w, xc_fse_cstate *st, unsigned symbol)
{
    const xc_fse_symtt tt = st->sym[symbol];
    unsigned nbits = (st->value + tt.delta_nbits) >> 16;
    xc_bitw_add_masked(w, st->value, nbits);
    st->value = st->state[(int32_t)(st->value >> nbits) + tt.delta_state];
}

static inline void xc_fse_flush_state(xc_bitw *w, const xc_fse_cstate *st)
{
    xc_bitw_add_masked(w, st->value, st->table_log);
}

/* ---- Huffman ------------------------------------------------------------- */

#define XC_HUF_ENC_MAXBITS 11
#define XC_HUF_ENC_SYMBOL_MAX 255
#define XC_HUF_4X_MIN_SRC 6
/* Header byte plus 4-bit weights of up to 128 symbols, or at most 127
 * bytes of FSE-compressed weights. */
#define XC_HUF_TABLE_BOUND 129

typedef struct {
    /* For each symbol, its code in the top `length` bits and the length in
     * the low 8 bits: (code << (64 - length)) | length, the form the
     * stream loops insert with one shift and one or (huf_encode_stream.c);
     * 0 for a symbol without a code.  xc_huf_code_length() and
     * xc_huf_code() read it. */
    uint64_t elt[XC_HUF_ENC_SYMBOL_MAX + 1];
    unsigned max_symbol; /* largest symbol with a code */
    unsigned depth;      /* longest code length, Max_Number_of_Bits */
} xc_huf_ctable;

static inline unsigned xc_huf_code_length(const xc_huf_ctable *ct, unsigned symbol)
{
    return (unsigned)(ct->elt[symbol] & 0xFF);
}

static inline unsigned xc_huf_code(const xc_huf_ctable *ct, unsigned symbol)
{
    unsigned len = xc_huf_code_length(ct, symbol);
    return len ? (unsigned)(ct->elt[symbol] >> (64 - len)) : 0;
}

XC_HIDDEN size_t xc_huf_build_ctable(xc_huf_ctable *ct, const unsigned *count,
                                     unsigned max_symbol, unsigned max_bits);
XC_HIDDEN unsigned xc_huf_assign_codes(xc_huf_ctable *ct, const uint8_t *len, unsigned nsym);
XC_HIDDEN size_t xc_huf_write_table(uint8_t *dst, size_t cap, const xc_huf_ctable *ct);
XC_HIDDEN size_t xc_huf_write_lengths(uint8_t *dst, size_t cap, const uint8_t *len,
                                      unsigned max_symbol, unsigned depth);
XC_HIDDEN size_t xc_huf_build_smallest(xc_huf_ctable *ct, const unsigned *count,
                                       unsigned max_symbol, uint8_t *table, size_t cap,
                                       size_t *table_size);
XC_HIDDEN size_t xc_huf_estimate_size(const xc_huf_ctable *ct, const unsigned *count,
                                      unsigned max_symbol);
XC_HIDDEN size_t xc_huf_payload_floor(const unsigned *count, unsigned max_symbol, size_t total);
XC_HIDDEN int xc_huf_valid_for(const xc_huf_ctable *ct, const unsigned *count,
                               unsigned max_symbol);
typedef size_t (*xc_huf_compress_fn)(uint8_t *dst, size_t cap, const uint8_t *src, size_t n,
                                     const xc_huf_ctable *ct);

#endif /* XC_ZSTD_ENC_ENTROPY_H */
