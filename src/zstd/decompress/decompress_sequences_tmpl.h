/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sequence decoding and execution (RFC 8878 §3.1.1.3.2.2 and §3.1.1.4):
 * the loop that reads (literal length, offset, match length) triples from
 * one backward bit stream, with the tables decompress_seq_tables.c built, and
 * turns them into output.
 *
 * Bit budget per sequence.  After a reload the reader holds at least 57
 * bits.  An offset takes at most 31 extra bits (windows up to 2^31) and a
 * match length 16, together 47.  The literal length (up to 16) and the
 * three state updates (9 + 9 + 8) need 42 more, so one extra reload is
 * needed only when the three extra-bit counts add up to more than
 * 57 - 26 = 31, which is rare.  A 64-bit container therefore reads even
 * the longest offsets (31 bits) in one go, with no special long-offset
 * path.
 *
 * Execution.  The fast path copies literals and matches with 16-byte
 * wildcopies that may write up to XC_ZSTD_WILDCOPY bytes past the end of
 * the sequence, so it only runs when that margin is left before oend;
 * sequences near the end, and any sequence that fails a check, go to an
 * out-of-line exact path.  Matches whose offset is below 16 are copied so
 * that each block copied lies entirely behind the write position (see
 * copy_match_short()).
 *
 * Decoding and executing are interleaved, one sequence at a time: decoding
 * is a chain of dependent loads and shifts, copying is independent work,
 * and the processor overlaps the two.  (Decoding a batch first and then
 * executing it was measured 25% slower for exactly that reason.)  When
 * matches reach megabytes back, a second loop decodes XC_ZSEQ_AHEAD sequences
 * ahead and prefetches their matches (decompress_sequences.c chooses).
 *
 * This is a template of force-inlined bodies, included by the decoder's
 * variant files (src/portable/zstd_decode_portable.c,
 * src/x64/zstd_decode_bmi2.c), each of which instantiates
 * xc_zseq_exec_body() with its constant flags under its own target
 * attribute.  It may call the bit reader and the decoder's internal
 * header, nothing above them.
 */
#include "zstd/decompress/decompress_internal.h"
#ifndef XC_ZSTD_DECOMPRESS_SEQUENCES_TMPL_H
#define XC_ZSTD_DECOMPRESS_SEQUENCES_TMPL_H

#include "zstd/decompress/decompress_internal.h"
#include "zstd/common/bitstream_read.h"

/* ---- copies ------------------------------------------------------------------ */

static inline void copy8(uint8_t *d, const uint8_t *s) { memcpy(d, s, 8); }
static inline void copy16(uint8_t *d, const uint8_t *s) { memcpy(d, s, 16); }

/* Copies len bytes, writing and reading up to XC_ZSTD_WILDCOPY - 1 bytes
 * past the end.  d must be at least 16 bytes after s (or anywhere before
 * it): each 16-byte block is then read before any store could change it. */
XC_FORCE_INLINE void wildcopy(uint8_t *d, const uint8_t *s, size_t len)
{
    uint8_t *const end = d + len;

    copy16(d, s);
    if (len <= 16) return;
    d += 16;
    s += 16;
    do {
        copy16(d, s);
        copy16(d + 16, s + 16);
        d += 32;
        s += 32;
    } while (d < end);
}

/* A match whose offset (1..15) is shorter than a 16-byte block.  The
 * output is periodic with period `of`, so a byte equals the one any
 * multiple of `of` before it.  The first 8 bytes are copied one by one (a
 * byte copy follows the overlap exactly); after that the source is moved
 * back to the nearest multiple of `of` that is at least 8, then at least
 * 16, so that 8- and then 16-byte blocks never read what they write.
 * Writes up to 31 bytes past op + ml (within XC_ZSTD_WILDCOPY). */
/* Matches longer than this past their first 16 bytes copy from a pattern
 * buffer (below). */
#define SHORT_PATTERN_FROM 48

XC_FORCE_INLINE void copy_match_short(uint8_t *op, size_t of, size_t ml)
{
    static const uint8_t spread8[8] = {0, 8, 8, 9, 8, 10, 12, 14};
    static const uint8_t spread16[16] = {0,  16, 16, 18, 16, 20, 18, 21,
                                         16, 18, 20, 22, 24, 26, 28, 30};
    uint8_t *const end = op + ml;
    const uint8_t *m = op - of;

    if (of < 8) {
        op[0] = m[0];
        op[1] = m[1];
        op[2] = m[2];
        op[3] = m[3];
        op[4] = m[4];
        op[5] = m[5];
        op[6] = m[6];
        op[7] = m[7];
        m = op + 8 - spread8[of];
    } else {
        copy8(op, m);
        m += 8;
    }
    op += 8;
    copy8(op, m);
    op += 8;
    if (op >= end) return;
    m = op - spread16[of];
    if (end - op <= SHORT_PATTERN_FROM) {
        do {
            copy16(op, m);
            op += 16;
            m += 16;
        } while (op < end);
        return;
    }
    /* A long run of a short period (runs of one byte, repeated small
     * records): copying from the output itself would load, 16 bytes on,
     * what the store before just wrote, and every block would wait for it.
     * The period is spread once into a small buffer instead, and each
     * block is copied from there at its phase: a load from a buffer that
     * no store is pending for, then a store.  pat[i] = pat[i - of].  32
     * bytes a step, so that the phase's update (a compare on the critical
     * path) is paid once per two stores; the last step may write up to 31
     * bytes past the match, within XC_ZSTD_WILDCOPY. */
    uint8_t pat[64];
    copy16(pat, m);
    for (size_t i = 16; i < sizeof pat; i++) pat[i] = pat[i - of];
    size_t const step = 32 % of;
    size_t phase = 0;
    do {
        copy16(op, pat + phase);
        copy16(op + 16, pat + phase + 16);
        op += 32;
        phase += step;
        if (phase >= of) phase -= of;
    } while (op < end);
}

/* Exact copy of a match of n bytes at distance `of` behind op, overlap
 * allowed.  Each memcpy copies the whole period-aligned stretch written so
 * far, so the number of calls grows with log2(n / of), not with n. */
static void copy_match_exact(uint8_t *op, size_t of, size_t n)
{
    const uint8_t *const m = op - of;

    while (n) {
        size_t const c = XC_MIN(n, (size_t)(op - m));
        memcpy(op, m, c);
        op += c;
        n -= c;
    }
}

/* ---- execution ---------------------------------------------------------- */

/* The exact path: sequences that end within XC_ZSTD_WILDCOPY bytes of
 * oend or that break a rule.  Returns the bytes written (ll + ml) or an
 * error.  Everything comes by value so that the hot loop's variables stay
 * in registers. */
static XC_NOINLINE size_t exec_slow(uint8_t *op, uint8_t *oend, size_t ll, size_t ml, size_t of,
                                    const uint8_t *lit, const uint8_t *lit_end,
                                    const uint8_t *prefix, const uint8_t *ext_end,
                                    size_t ext_size, size_t ext_reach, int ext_overlap,
                                    size_t oend_error)
{
    size_t const total = ll + ml;

    RETURN_ERROR_IF(ll > (size_t)(lit_end - lit), CORRUPT);
    if (total > (size_t)(oend - op)) return oend_error;
    memcpy(op, lit, ll);
    op += ll;
    if (of > (size_t)(op - prefix)) {
        size_t const back = of - (size_t)(op - prefix);
        size_t n;
        RETURN_ERROR_IF(
            !xc_zstd_ext_in_reach(back, (size_t)(op - prefix), ext_size, ext_reach, ext_overlap),
            CORRUPT);
        n = XC_MIN(back, ml);
        memmove(op, ext_end - back, n);
        op += n;
        ml -= n;
    }
    copy_match_exact(op, of, ml);
    return total;
}

/* Reads n bits (0 <= n <= 31) for the sequence loop.  With BMI2 the
 * form "shift right, keep the low n bits" maps onto SHRX and BZHI, one
 * instruction each; the portable form is the bit reader's own.  Both read
 * the same bits and give 0 for n == 0. */
XC_FORCE_INLINE size_t seq_bits(xc_bits *br, unsigned n, int bmi2)
{
    uint64_t v;

    if (bmi2)
        v = (br->bits >> ((64u - br->consumed - n) & 63)) & (((uint64_t)1 << n) - 1);
    else
        v = xc_bits_look(br, n);
    br->consumed += n;
    return (size_t)v;
}

/* Refills the bit container between sequences.  While at least 8 bytes
 * precede ptr the refill is a plain step back and load: the bit budget
 * (top of file) guarantees that at most 64 bits were consumed since the
 * last refill, so the step stays within the stream.  Near the start of the
 * stream the bit reader's own refill takes over and tracks the end. */
XC_FORCE_INLINE void seq_reload(xc_bits *br, const uint8_t *limit)
{
    if (XC_LIKELY(br->ptr >= limit)) {
        br->ptr -= br->consumed >> 3;
        br->consumed &= 7;
        br->bits = xc_read_le64(br->ptr);
    } else {
        xc_bits_reload(br);
    }
}

typedef struct {
    size_t ll, ml, of;
} seq_t;

/* The decoder's state: bit reader, the current cell of each table, the
 * repeat offsets.  Lives in registers: the functions below are always
 * inlined and its address never escapes. */
typedef struct {
    xc_bits br;
    const uint8_t *limit;
    const xc_seq_cell *pll, *pml, *pof;
    size_t rep0, rep1, rep2;
} seq_dec;

/* Decodes one sequence; `update` is 0 for the last sequence of a block,
 * which moves no state.  An offset of 0 (corrupt) comes out as SIZE_MAX. */
XC_FORCE_INLINE void decode_seq(seq_dec *s, seq_t *q, int update, int bmi2)
{
    const xc_seq_cell *const cl = s->pll, *const cm = s->pml, *const co = s->pof;
    unsigned const of_extra = co->extra;
    size_t ll = cl->base, ml = cm->base, of;

    /* Offset first, then match length, then literal length. */
    if (of_extra > 1) {
        of = co->base + seq_bits(&s->br, of_extra, bmi2);
        s->rep2 = s->rep1;
        s->rep1 = s->rep0;
        s->rep0 = of;
    } else if (XC_LIKELY(of_extra == 0)) {
        /* Repeat code 1: the first offset, or the second when the literal
         * length is 0 (RFC 8878 §3.1.1.5: with no literals the repeat
         * codes shift by one).  Only the code-0 form of a literal length
         * has base 0, so ll == 0 is known before its extra bits are read.
         * Written as selects: which case occurs depends on the data and
         * would mispredict as a branch (gcc turned the ?: form into one:
         * 4% of the mispredicts on logs at -1).  The mask swaps the two
         * when ll == 0. */
        size_t const swap = ((size_t)0 - (size_t)(ll == 0)) & (s->rep0 ^ s->rep1);
        of = s->rep0 ^ swap;
        s->rep1 ^= swap;
        s->rep0 = of;
    } else {
        /* Repeat codes 2 and 3: with the shift, idx 1..3 picks the second
         * offset, the third, or the first minus one; the latter two push
         * the others down. */
        size_t const idx = 1 + (ll == 0) + seq_bits(&s->br, 1, bmi2);
        of = idx == 1 ? s->rep1 : idx == 2 ? s->rep2 : s->rep0 - 1;
        /* An offset of 0 (the first offset was 1) is corrupt: it becomes
         * one that no history reaches, which execution refuses, so the
         * loop needs no test of its own for it. */
        of |= (size_t)0 - (size_t)(of == 0);
        s->rep2 = idx == 1 ? s->rep2 : s->rep1;
        s->rep1 = s->rep0;
        s->rep0 = of;
    }
    ml += seq_bits(&s->br, cm->extra, bmi2);
    if (XC_UNLIKELY(of_extra + cm->extra + cl->extra > 31)) seq_reload(&s->br, s->limit);
    ll += seq_bits(&s->br, cl->extra, bmi2);

    if (XC_LIKELY(update)) {
        /* State updates: literal lengths, match lengths, offsets. */
        s->pll = cl + cl->step + (ptrdiff_t)seq_bits(&s->br, cl->nbits, bmi2);
        s->pml = cm + cm->step + (ptrdiff_t)seq_bits(&s->br, cm->nbits, bmi2);
        s->pof = co + co->step + (ptrdiff_t)seq_bits(&s->br, co->nbits, bmi2);
        seq_reload(&s->br, s->limit);
    }
    q->ll = ll;
    q->ml = ml;
    q->of = of;
}

/* What execution needs besides the sequence: the literals, the history
 * segments and the output limits. */
typedef struct {
    const uint8_t *lit;
    const uint8_t *lit_end;
    const uint8_t *prefix;
    const uint8_t *ext_end;
    size_t ext_size;
    size_t ext_reach;
    int ext_overlap;
    int ext_wild; /* a match wholly in the older segment may be wildcopied */
    uint8_t *oend;
    uintptr_t oend_w; /* sequences ending here or before may wildcopy */
    size_t oend_error;
} seq_exec;

/* Executes one sequence at op.  Returns the bytes written or an error. */
XC_FORCE_INLINE size_t exec_seq(uint8_t *op, seq_exec *x, seq_t q)
{
    size_t ll = q.ll, ml = q.ml, of = q.of;
    size_t const total = ll + ml;
    const uint8_t *const lit = x->lit;

    if (XC_UNLIKELY((uintptr_t)op + total > x->oend_w ||
                    (uintptr_t)lit + ll > (uintptr_t)x->lit_end)) {
        size_t const r = exec_slow(op, x->oend, ll, ml, of, lit, x->lit_end, x->prefix,
                                   x->ext_end, x->ext_size, x->ext_reach, x->ext_overlap,
                                   x->oend_error);
        if (!xc_iserr(r)) x->lit = lit + ll;
        return r;
    }
    copy16(op, lit);
    if (XC_UNLIKELY(ll > 16)) wildcopy(op + 16, lit + 16, ll - 16);
    op += ll;
    x->lit = lit + ll;
    if (XC_UNLIKELY(of > (size_t)(op - x->prefix))) {
        /* The match starts in the older history segment and may run on
         * into the prefix at the same distance. */
        size_t const back = of - (size_t)(op - x->prefix);
        RETURN_ERROR_IF(
            !xc_zstd_ext_in_reach(back, (size_t)(op - x->prefix), x->ext_size, x->ext_reach,
                                  x->ext_overlap),
            CORRUPT);
        if (ml <= back) {
            /* All of it in the older segment.  With a wildcopy's overshoot
             * still inside it, it is copied as a match in the prefix is
             * (records decoded with a dictionary take most of their matches
             * from it); otherwise exactly. */
            if (XC_LIKELY(x->ext_wild && back - ml >= XC_ZSTD_WILDCOPY))
                wildcopy(op, x->ext_end - back, ml);
            else
                memmove(op, x->ext_end - back, ml);
            return total;
        }
        memmove(op, x->ext_end - back, back);
        op += back;
        ml -= back;
    }
    if (XC_LIKELY(of >= 16))
        wildcopy(op, op - of, ml);
    else
        copy_match_short(op, of, ml);
    return total;
}


/* Hints the cache about the match of sequence q, which starts *ppos
 * (an address as an integer) and advances *ppos past it.  The address may
 * be anything when the data is corrupt: prefetching never faults. */
XC_FORCE_INLINE void prefetch_match(uintptr_t *ppos, const seq_exec *x, seq_t q)
{
    uintptr_t const at = *ppos + q.ll, prefix = (uintptr_t)x->prefix;
    uintptr_t m = at - q.of;

    if (q.of > at - prefix) m = (uintptr_t)x->ext_end - (q.of - (at - prefix));
    XC_PREFETCH((const void *)m);
    XC_PREFETCH((const void *)(m + 63));
    *ppos = at + q.ml;
}

XC_FORCE_INLINE size_t xc_zseq_exec_body(xc_zstd_dctx *d, uint8_t *const ostart, uint8_t *const oend,
                                 const uint8_t *src, size_t size, int nb_seq, int prefetch,
                                 int bmi2)
{
    seq_dec s;
    seq_exec x;
    uint8_t *op = ostart;

    x.lit = d->lit;
    x.lit_end = d->lit + d->lit_size;
    x.prefix = d->prefix;
    x.ext_end = d->ext_end;
    x.ext_size = (size_t)(d->ext_end - d->ext_start);
    x.ext_reach = d->ext_reach;
    x.ext_overlap = d->ext_overlap;
    /* Whether a match wholly in the older segment, with 32 bytes of it
     * after the match, may be copied 16 bytes at a time with a wildcopy's
     * overshoot: when the segment is the window buffer's older part, whose
     * bytes in reach lie at least XC_ZSTD_WILDCOPY after the write position
     * (xc_zstd_ext_in_reach(); the stream decoder keeps that margin), or a
     * dictionary's content in memory the block's output and its margin do
     * not reach. */
    x.ext_wild = d->ext_overlap || (uintptr_t)d->ext_end <= (uintptr_t)ostart ||
                 (uintptr_t)d->ext_start >= (uintptr_t)oend + XC_ZSTD_WILDCOPY;
    x.oend = oend;
    /* As an integer, so that no pointer is formed outside the buffer. */
    x.oend_w = (size_t)(oend - ostart) > XC_ZSTD_WILDCOPY ? (uintptr_t)oend - XC_ZSTD_WILDCOPY : 0;
    x.oend_error = d->oend_error;

    RETURN_ERROR_IF(xc_iserr(xc_bits_init(&s.br, src, size)), CORRUPT);
    s.limit = s.br.start + 8;
    /* Initial states, in the order literal lengths, offsets, match
     * lengths. */
    s.pll = d->ll + seq_bits(&s.br, d->ll_log, bmi2);
    s.pof = d->of + seq_bits(&s.br, d->of_log, bmi2);
    s.pml = d->ml + seq_bits(&s.br, d->ml_log, bmi2);
    xc_bits_reload(&s.br);
    s.rep0 = d->rep[0];
    s.rep1 = d->rep[1];
    s.rep2 = d->rep[2];

    if (!prefetch) {
        /* Every sequence but the last moves the states; the last one is
         * decoded after the loop, so the loop has no test for it. */
        seq_t q;
        size_t r;
        for (int left = nb_seq - 1; left > 0; left--) {
            decode_seq(&s, &q, 1, bmi2);
            r = exec_seq(op, &x, q);
            FORWARD_IF_ERROR(r);
            op += r;
        }
        decode_seq(&s, &q, 0, bmi2);
        r = exec_seq(op, &x, q);
        FORWARD_IF_ERROR(r);
        op += r;
    } else {
        /* Decode XC_ZSEQ_AHEAD sequences ahead of execution, prefetching each
         * match as soon as its address is known. */
        seq_t ring[XC_ZSEQ_AHEAD];
        uintptr_t ppos = (uintptr_t)op;
        int const ahead = nb_seq < XC_ZSEQ_AHEAD ? nb_seq : XC_ZSEQ_AHEAD;
        int i, left = nb_seq;

        for (i = 0; i < ahead; i++) {
            decode_seq(&s, &ring[i], --left > 0, bmi2);
            prefetch_match(&ppos, &x, ring[i]);
        }
        for (i = 0; left > 0; i++) {
            seq_t q;
            size_t r;
            decode_seq(&s, &q, --left > 0, bmi2);
            prefetch_match(&ppos, &x, q);
            r = exec_seq(op, &x, ring[i & (XC_ZSEQ_AHEAD - 1)]);
            FORWARD_IF_ERROR(r);
            op += r;
            ring[i & (XC_ZSEQ_AHEAD - 1)] = q;
        }
        for (int k = 0; k < ahead; k++, i++) {
            size_t const r = exec_seq(op, &x, ring[i & (XC_ZSEQ_AHEAD - 1)]);
            FORWARD_IF_ERROR(r);
            op += r;
        }
    }

    RETURN_ERROR_IF(!xc_bits_completed(&s.br), CORRUPT);
    d->rep[0] = (uint32_t)s.rep0;
    d->rep[1] = (uint32_t)s.rep1;
    d->rep[2] = (uint32_t)s.rep2;

    /* The literals no sequence took end the block. */
    {
        size_t const n = (size_t)(x.lit_end - x.lit);
        if (n > (size_t)(oend - op)) return d->oend_error;
        memcpy(op, x.lit, n);
        op += n;
    }
    return (size_t)(op - ostart);
}

#endif
