/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Huffman tree descriptions (RFC 8878 §4.2.1) and the decoding tables built
 * from them.
 *
 * Weights to codes: a symbol of weight w > 0 has a code of
 * max_bits + 1 - w bits, and the weights satisfy sum(2^(w-1)) = 2^max_bits
 * (a complete prefix code).  Codes are canonical: symbols sorted by weight,
 * then by value, receive consecutive codes in ascending order, the longest
 * codes (weight 1) first.
 *
 * Lookup tables: a decoder looks at the next T = 11 bits of the stream and
 * indexes a table of 2^T cells.  With canonical codes, the cells of a
 * symbol of length l form one run of 2^(T - l) cells, and the runs follow
 * one another in the sorted order from cell 0: the table is a sequence of
 * runs, no code values needed.  Both table forms use T = 11 whatever the
 * longest code, so the decoding loops shift by a constant; the one
 * exception, the 12-bit trees of libzstd's dictionaries, gets an X1 table
 * with T = 12 and the careful decoding paths.
 *
 * X1 cells hold one symbol and its length.  X2 cells may hold two: after a
 * first code of l1 bits, the r = T - l1 remaining bits of the lookup still
 * determine a second symbol whenever its code has at most r bits.  Within
 * the run of the first symbol, the sub-index (the next r bits) is laid out
 * exactly like a table of 2^r cells, in which a second symbol of length
 * l2 <= r occupies the cells [pos(s2) >> l1, ... + 2^(r - l2)), pos(s2)
 * being its first cell in the T-bit table.  Codes longer than r sort first,
 * so they take the bottom of the sub-range, and those cells keep a single
 * symbol.
 *
 * What it may call: the entropy coders (entropy/).
 */
#include "zstd/entropy/entropy_decode.h"

#define TLOG XC_HUF_TABLELOG_MAX   /* bits per lookup, for codes up to 11 bits */
#define MAXB XC_HUF_MAX_BITS          /* longest code accepted: 12 */

/* Symbols in canonical order.  The symbols of weight w are
 * sorted[wstart[w] .. wstart[w + 1]), and their runs of cells, all of one
 * length, start at cell wpos[w]. */
typedef struct {
    unsigned nsorted;                  /* symbols with a non-zero weight */
    unsigned max_bits;
    unsigned max_weight;
    unsigned tlog;                     /* bits per lookup: 11, or 12 for 12-bit codes */
    unsigned wstart[MAXB + 2];
    unsigned wpos[MAXB + 2];
    uint8_t sorted[XC_HUF_SYMBOL_MAX + 1];
} canon;

/* Validates the weights and sorts the symbols.  With implied_last, only
 * the first nsym - 1 weights are given (a tree description) and the last
 * one is derived and stored at weights[nsym - 1]: the weight that completes
 * the sum of 2^(w-1) to the next power of two, itself a power of two.
 *
 * Counting sort, done on the four quarters of the alphabet side by side:
 * with a single cursor per weight, runs of equal weights (absent symbols
 * come in long runs) would chain every increment on the store of the one
 * before; four quarters give four independent chains, and the quarters
 * still land in symbol order because quarter q's cursor starts where
 * quarter q - 1's symbols of that weight end.  Nothing branches per
 * symbol, since weights are close to random. */
static size_t make_canon(canon *c, uint8_t *weights, unsigned nsym, int implied_last)
{
    uint8_t wt[XC_HUF_SYMBOL_MAX + 4];
    unsigned hist[4][16] = {{0}};
    unsigned fill[4][MAXB + 1];
    unsigned count[MAXB + 2];
    uint32_t total = 0;
    unsigned s, q, w, next, maxw = 0;
    unsigned const nlisted = nsym - (implied_last ? 1 : 0);
    unsigned const qlen = (nsym + 3) / 4;

    RETURN_ERROR_IF(nsym < 2 || nsym > XC_HUF_SYMBOL_MAX + 1, CORRUPT);
    memcpy(wt, weights, nlisted);
    memset(wt + nlisted, 0, 4 * qlen - nlisted);
    for (s = 0; s < qlen; s++) {
        unsigned const v0 = wt[s], v1 = wt[qlen + s], v2 = wt[2 * qlen + s], v3 = wt[3 * qlen + s];
        maxw |= v0 | v1 | v2 | v3;
        hist[0][v0 & 15]++;
        hist[1][v1 & 15]++;
        hist[2][v2 & 15]++;
        hist[3][v3 & 15]++;
        total += ((1u << (v0 & 15)) >> 1) + ((1u << (v1 & 15)) >> 1) + ((1u << (v2 & 15)) >> 1) +
                 ((1u << (v3 & 15)) >> 1);
    }
    RETURN_ERROR_IF(maxw > 15, CORRUPT);
    if (implied_last) {
        uint32_t rest;
        unsigned last;
        RETURN_ERROR_IF(total == 0 || total >= 1u << MAXB, CORRUPT);
        rest = (2u << xc_highbit32(total)) - total;
        RETURN_ERROR_IF((rest & (rest - 1)) != 0, CORRUPT);
        last = xc_highbit32(rest) + 1;
        total += rest;
        weights[nsym - 1] = wt[nsym - 1] = (uint8_t)last;
        /* The zero counted for it moves to its weight. */
        q = (nsym - 1) / qlen;
        hist[q][0]--;
        hist[q][last]++;
    }
    for (w = 0; w < 16; w++) {
        unsigned const n = hist[0][w] + hist[1][w] + hist[2][w] + hist[3][w];
        if (w <= MAXB) count[w] = n;
        else RETURN_ERROR_IF(n != 0, CORRUPT);
    }
    /* A complete tree sums to a power of two, at most 2^12 (see
     * XC_HUF_MAX_BITS).  Weight 1 (the longest codes) must be present, and
     * then comes in pairs, which also guarantees at least two symbols. */
    RETURN_ERROR_IF(total == 0 || (total & (total - 1)) != 0 || total > 1u << MAXB, CORRUPT);
    RETURN_ERROR_IF(count[1] < 2 || (count[1] & 1) != 0, CORRUPT);

    c->max_bits = xc_highbit32(total);
    c->tlog = XC_MAX(TLOG, c->max_bits);
    for (w = MAXB; count[w] == 0; w--) {}
    c->max_weight = w;
    next = 0;
    for (w = 1; w <= MAXB + 1; w++) {
        c->wstart[w] = next;
        if (w <= MAXB) next += count[w];
    }
    c->nsorted = next;
    {
        /* Absent symbols are sorted too, after the others, so that the
         * loop needs no test. */
        for (w = 0; w <= MAXB; w++) {
            unsigned at = w ? c->wstart[w] : next;
            for (q = 0; q < 4; q++) {
                fill[q][w] = at;
                at += hist[q][w];
            }
        }
        for (s = 0; s < qlen; s++) {
            c->sorted[fill[0][wt[s]]++] = (uint8_t)s;
            c->sorted[fill[1][wt[qlen + s]]++] = (uint8_t)(qlen + s);
            c->sorted[fill[2][wt[2 * qlen + s]]++] = (uint8_t)(2 * qlen + s);
            c->sorted[fill[3][wt[3 * qlen + s]]++] = (uint8_t)(3 * qlen + s);
        }
    }
    {
        /* A weight-w symbol has 2^(w-1) cells in a 2^max_bits table, so
         * 2^(w-1+T-max_bits) in ours. */
        unsigned const scale = c->tlog - c->max_bits;
        unsigned p = 0;
        for (w = 1; w <= MAXB + 1; w++) {
            c->wpos[w] = p;
            if (w <= MAXB) p += count[w] << (w - 1 + scale);
        }
    }
    return 0;
}

/* The runs of one weight all have the same length, so each is written by
 * a loop specialised for that length: cells one by one for short runs, 16
 * bytes at a time (one vector store where the target has them) for long
 * ones, as building the table costs about as much as decoding a few KiB.
 * Run i holds cells for syms[i]. */
static void fill_x1(xc_huf_x1 *d, unsigned nbits, const uint8_t *syms, unsigned count,
                    unsigned len)
{
    unsigned i, k;
    if (len < 8) {
        for (i = 0; i < count; i++) {
            xc_huf_x1 const c = (xc_huf_x1)(nbits | (unsigned)syms[i] << 8);
            for (k = 0; k < len; k++) *d++ = c;
        }
    } else {
        for (i = 0; i < count; i++) {
            xc_huf_x1 p[8];
            xc_huf_x1 const c = (xc_huf_x1)(nbits | (unsigned)syms[i] << 8);
            for (k = 0; k < 8; k++) p[k] = c;
            for (k = 0; k < len; k += 8) memcpy(d + k, p, 16);
            d += len;
        }
    }
}

/* An X2 cell as the 32-bit value whose memory image is the struct's bytes
 * {nbits, sym[0], sym[1], length}, on either byte order, so that cells are
 * assembled with shifts and stored whole. */
#define X2_SHIFT(k) (XC_BIG_ENDIAN ? 24 - 8 * (k) : 8 * (k))
#define X2_CELL(nbits, s0, s1, len)                                            \
    ((uint32_t)(nbits) << X2_SHIFT(0) | (uint32_t)(s0) << X2_SHIFT(1) |        \
     (uint32_t)(s1) << X2_SHIFT(2) | (uint32_t)(len) << X2_SHIFT(3))

/* X2 runs of len cells (a power of two, or any count when exact): run i
 * holds base | syms[i] << shift. */
XC_FORCE_INLINE void fill_x2(xc_huf_x2 *dst, uint32_t base, unsigned shift, const uint8_t *syms,
                             unsigned count, unsigned len, int exact)
{
    uint8_t *d = (uint8_t *)dst;
    unsigned i, k;
    if (exact || len < 4) {
        for (i = 0; i < count; i++) {
            uint32_t const c = base | (uint32_t)syms[i] << shift;
            for (k = 0; k < len; k++, d += 4) memcpy(d, &c, 4);
        }
    } else {
        for (i = 0; i < count; i++) {
            uint32_t const c = base | (uint32_t)syms[i] << shift;
            uint32_t p[4] = {c, c, c, c};
            for (k = 0; k < len; k += 4, d += 16) memcpy(d, p, 16);
        }
    }
}

static void build_x1(xc_huf_dtable *dt, const canon *c)
{
    unsigned const scale = c->tlog - c->max_bits;
    unsigned w;

    for (w = 1; w <= c->max_weight; w++) {
        unsigned const first = c->wstart[w], n = c->wstart[w + 1] - first;
        unsigned const len = 1u << (w - 1 + scale);
        unsigned const nbits = c->max_bits + 1 - w;
        fill_x1(&dt->u.x1[c->wpos[w]], nbits, c->sorted + first, n, len);
    }
}

static void build_x2(xc_huf_dtable *dt, const canon *c)
{
    unsigned const min_bits = c->max_bits + 1 - c->max_weight;
    unsigned w1;

    for (w1 = 1; w1 <= c->max_weight; w1++) {
        unsigned const l1 = c->max_bits + 1 - w1;
        unsigned const r = TLOG - l1;
        unsigned const first1 = c->wstart[w1], end1 = c->wstart[w1 + 1];
        unsigned i;
        if (first1 == end1) continue;
        if (r < min_bits) {
            /* No second code fits after a code this long. */
            fill_x2(&dt->u.x2[c->wpos[w1]], X2_CELL(l1, 0, 0, 1), X2_SHIFT(1),
                    c->sorted + first1, end1 - first1, 1u << r, 0);
            continue;
        }
        for (i = first1; i < end1; i++) {
            unsigned const s1 = c->sorted[i];
            xc_huf_x2 *const run = &dt->u.x2[c->wpos[w1] + ((i - first1) << r)];
            /* Second symbols of length <= r: weights from max_bits + 1 - r
             * up, a tail of the sorted list; the cells below the first of
             * them keep s1 alone. */
            unsigned const wmin = r >= c->max_bits ? 1 : c->max_bits + 1 - r;
            unsigned const skip = c->wpos[wmin] >> l1;
            unsigned w2;
            fill_x2(run, X2_CELL(l1, 0, 0, 1), X2_SHIFT(1), c->sorted + i, 1, skip, 1);
            for (w2 = wmin; w2 <= c->max_weight; w2++) {
                unsigned const first = c->wstart[w2], n = c->wstart[w2 + 1] - first;
                unsigned const l2 = c->max_bits + 1 - w2;
                fill_x2(run + (c->wpos[w2] >> l1), X2_CELL(l1 + l2, s1, 0, 2), X2_SHIFT(2),
                        c->sorted + first, n, 1u << (r - l2), 0);
            }
        }
    }
}

#undef X2_CELL
#undef X2_SHIFT

static size_t build(xc_huf_dtable *dt, uint8_t *weights, unsigned nsym, int kind,
                    int implied_last)
{
    canon c;
    unsigned s;

    xc_huf_dtable_clear(dt);
    RETURN_ERROR_IF(kind != XC_HUF_X1 && kind != XC_HUF_X2, CORRUPT);
    FORWARD_IF_ERROR(make_canon(&c, weights, nsym, implied_last));
    /* 12-bit codes (dictionaries trained by libzstd) take a 12-bit X1
     * table, which fits the same storage as an 11-bit X2 one. */
    if (c.tlog > TLOG) kind = XC_HUF_X1;
    if (kind == XC_HUF_X1) {
        build_x1(dt, &c);
    } else {
        /* Only X2 needs the code lengths, for the last symbol of a
         * stream. */
        memset(dt->sym_bits, 0, sizeof dt->sym_bits);
        for (s = 0; s < nsym; s++)
            dt->sym_bits[s] = (uint8_t)(weights[s] ? c.max_bits + 1 - weights[s] : 0);
        build_x2(dt, &c);
    }
    dt->table_log = (uint8_t)c.tlog;
    dt->max_bits = (uint8_t)c.max_bits;
    dt->kind = (uint8_t)kind;
    return 0;
}

size_t xc_huf_build_table(xc_huf_dtable *dt, const uint8_t *weights, unsigned nsym, int kind)
{
    uint8_t w[XC_HUF_SYMBOL_MAX + 1];
    xc_huf_dtable_clear(dt);
    RETURN_ERROR_IF(nsym > XC_HUF_SYMBOL_MAX + 1, CORRUPT);
    memcpy(w, weights, nsym);
    return build(dt, w, nsym, kind, 0);
}

/* Which table to build for a block of regen_size literals compressed into
 * comp_size bytes (tree included).  X2 costs more to build (twice the
 * table, and pairs to enumerate: about 800 ns more here) and pays it back
 * by emitting two symbols per lookup, which only happens often when codes
 * are short.  Timing both forms on text, XML, binaries, images and
 * databases cut into blocks of 1 KiB to 128 KiB gave, with Q = 16 * comp /
 * regen (twice the bits per literal):
 *   - X2 saves about 0.26 ns per literal up to Q = 10, then less and less
 *     (long codes rarely pair within 11 bits), about nothing near Q = 14;
 *   - so X2 wins from about 3 KiB of literals up to Q = 10, from about
 *     1.5 KiB below Q = 6, and from ever larger blocks between 10 and 14.
 * Between 12 and 14 the data decides more than Q does: 16-bit samples
 * (x-ray) pair badly and lose ~5% with X2 on large blocks, executables and
 * databases gain 2-15%; the rule favours the latter, as libzstd's own
 * selector does.  In integers, with q4 = 16 * Q. */
static int choose_kind(size_t regen_size, size_t comp_size)
{
    size_t q4;
    if (regen_size == 0) return XC_HUF_X2;
    if (regen_size < 1536) return XC_HUF_X1;
    q4 = comp_size * 256 / regen_size;
    if (q4 <= 96) return XC_HUF_X2;
    if (q4 >= 224) return XC_HUF_X1;
    if (q4 <= 160) return regen_size >= 3072 ? XC_HUF_X2 : XC_HUF_X1;
    return regen_size * (224 - q4) > 196608 ? XC_HUF_X2 : XC_HUF_X1;
}

size_t xc_huf_read_table(xc_huf_dtable *dt, const uint8_t *src, size_t src_size,
                         size_t regen_size)
{
    uint8_t weights[XC_HUF_SYMBOL_MAX + 2];
    size_t n, used;
    unsigned hb, i;

    xc_huf_dtable_clear(dt);
    RETURN_ERROR_IF(src_size < 1, TRUNCATED);
    hb = src[0];
    if (hb >= 128) {
        /* Direct representation: hb - 127 weights, 4 bits each, the first
         * of a pair in the high nibble. */
        n = hb - 127;
        used = 1 + (n + 1) / 2;
        RETURN_ERROR_IF(used > src_size, TRUNCATED);
        for (i = 0; i < n; i += 2) {
            weights[i] = src[1 + i / 2] >> 4;
            weights[i + 1] = src[1 + i / 2] & 15;
        }
    } else {
        used = 1 + (size_t)hb;
        RETURN_ERROR_IF(hb == 0, CORRUPT);
        RETURN_ERROR_IF(used > src_size, TRUNCATED);
        n = xc_fse_decode_weights(weights, XC_HUF_SYMBOL_MAX, src + 1, hb);
        FORWARD_IF_ERROR(n);
    }

    /* The last symbol's weight is implied by the others. */
    FORWARD_IF_ERROR(build(dt, weights, (unsigned)n + 1, choose_kind(regen_size, src_size), 1));
    return used;
}
