/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sequence store: what a match finder writes for one block and the
 * block encoder reads back, and the cursor through which finders append
 * to it.
 *
 * Sequences.  A sequence is stored as the decoder will read it: literal
 * length, match length, and the Offset_Value of RFC 8878 §3.1.1.3.2.1 (1..3
 * a repeat offset, as interpreted with the literal length: when it is 0 the
 * repeat codes shift by one, §3.1.2.5; otherwise offset + 3).  Match finders
 * keep their repeat offsets exactly as the decoder will, so the block
 * encoder never reinterprets anything.
 *
 * It may include the common helpers only: finders and the block encoder
 * both build on it.
 */
#ifndef XC_ZSTD_COMPRESS_SEQSTORE_H
#define XC_ZSTD_COMPRESS_SEQSTORE_H

#include "xc_internal.h"

/* ---- sequences --------------------------------------------------------------- */

typedef struct {
    uint32_t off_value; /* Offset_Value: 1..3 repeat codes, offset + 3 otherwise */
    uint16_t lit_len;   /* the literal length's low 16 bits */
    uint16_t ml_base;   /* the match length minus 3, its low 16 bits */
} xc_zseq;

/* Eight bytes a sequence, as libzstd's: a block holds at most 128 KiB, so
 * at most one of its sequences has a literal length or a match length - 3
 * above 65535 (two would cover more than the block).  The store names that
 * sequence (long_seq) and which of its lengths it is.  Its codes are then
 * the largest, 35 (literals from 65536) and 52 (matches from 65539), each
 * with 16 extra bits, which are exactly the 16 low bits kept here, so the
 * bitstream writer needs no correction; code tables and sums do
 * (xc_zseq_lit_len, xc_zseq_match_len). */

/* Literals are copied 16 bytes at a time and may spill this far past the
 * last one; the literal buffer has that much room to spare. */
#define XC_ZSTD_LIT_SLACK 32

typedef struct {
    xc_zseq *seq;      /* the sequences of the block so far */
    size_t nb_seq;
    uint8_t *lit;      /* literals of the block, in order */
    uint8_t *lit_end;  /* where the next literal goes */
    /* The three code streams, filled by the block encoder. */
    uint8_t *ll_code;
    uint8_t *ml_code;
    uint8_t *of_code;
    /* The sequence with a length above 65535, or NULL; long_ml says it is
     * the match length (else the literal length). */
    xc_zseq *long_seq;
    int long_ml;
} xc_zseqstore;

/* The whole lengths of a stored sequence. */
static inline uint32_t xc_zseq_lit_len(const xc_zseqstore *ss, const xc_zseq *q)
{
    return q->lit_len + (q == ss->long_seq && !ss->long_ml ? 0x10000u : 0);
}

static inline uint32_t xc_zseq_match_len(const xc_zseqstore *ss, const xc_zseq *q)
{
    return q->ml_base + 3u + (q == ss->long_seq && ss->long_ml ? 0x10000u : 0);
}

/* Empties the store for the next block. */
static inline void xc_zseqstore_clear(xc_zseqstore *ss)
{
    ss->nb_seq = 0;
    ss->lit_end = ss->lit;
    ss->long_seq = NULL;
}

/* How far ahead of a position match finders read to hash it: they stop
 * that many bytes before the end of the block and leave the rest as
 * literals, so that 8-byte loads never leave the input. */
#define XC_ZSTD_HASH_READ 8

static inline void xc_zwildcopy16(uint8_t *dst, const uint8_t *src, size_t n)
{
    uint8_t *const end = dst + n;
    do {
        memcpy(dst, src, 16);
        dst += 16;
        src += 16;
    } while (dst < end);
}

/* Finders append through a cursor held in local variables (so that the
 * compiler keeps it in registers instead of reloading the store's fields
 * after every literal copy, which may alias them), opened at the start of a
 * block and closed at the end. */
typedef struct {
    xc_zseq *seq;
    uint8_t *lit;
    xc_zseq *long_seq;
    int long_ml;
} xc_zcursor;

static inline xc_zcursor xc_zcursor_open(const xc_zseqstore *ss)
{
    xc_zcursor c;
    c.seq = ss->seq + ss->nb_seq;
    c.lit = ss->lit_end;
    c.long_seq = ss->long_seq;
    c.long_ml = ss->long_ml;
    return c;
}

static inline void xc_zcursor_close(xc_zseqstore *ss, xc_zcursor c)
{
    ss->nb_seq = (size_t)(c.seq - ss->seq);
    ss->lit_end = c.lit;
    ss->long_seq = c.long_seq;
    ss->long_ml = c.long_ml;
}

/* Appends a sequence and its literals lits[0..lit_len).  lit_limit is the
 * end of the readable input: literals that end at least 16 bytes before it
 * are copied in 16-byte blocks, which may read past them but never past
 * lit_limit, and may write past them into the buffer's slack. */
XC_FORCE_INLINE void xc_zput_seq(xc_zcursor *c, size_t lit_len, const uint8_t *lits,
                                 const uint8_t *lit_limit, uint32_t off_value, size_t match_len)
{
    uint8_t *const op = c->lit;
    if (XC_LIKELY(lits + lit_len + 16 <= lit_limit)) {
        memcpy(op, lits, 16);
        if (XC_UNLIKELY(lit_len > 16)) xc_zwildcopy16(op + 16, lits + 16, lit_len - 16);
    } else {
        memcpy(op, lits, lit_len);
    }
    c->lit = op + lit_len;
    c->seq->off_value = off_value;
    c->seq->lit_len = (uint16_t)lit_len;
    c->seq->ml_base = (uint16_t)(match_len - 3);
    if (XC_UNLIKELY((lit_len | (match_len - 3)) > 0xFFFF)) {
        c->long_seq = c->seq;
        c->long_ml = lit_len <= 0xFFFF;
    }
    c->seq++;
}

static inline void xc_zstore_last_literals(xc_zseqstore *ss, const uint8_t *lits, size_t n)
{
    memcpy(ss->lit_end, lits, n);
    ss->lit_end += n;
}

#endif
