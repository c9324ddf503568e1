/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The block splitter: one parsed block sent as several compressed blocks
 * when its statistics change part way through.
 *
 * Why.  A compressed block carries one Huffman tree for its literals and
 * one FSE table per sequence code type.  When the first half of a block is
 * English text and the second half a table of binary numbers, one tree
 * fitted to both codes each half worse than its own would; sending the
 * halves as two blocks costs a second set of table descriptions and a
 * block header, and gains whenever the better fit saves more than that.
 * The parse itself does not change: the sequences of the block are only
 * cut into consecutive partitions, each written as its own block.
 *
 * Finding the cuts.  A range of sequences is priced as if it were a block
 * of its own (the literals at their entropy plus a tree description, or
 * under the tree in force; the sequence codes under the cheapest of the
 * four table modes; the extra bits; the headers; never more than its raw
 * bytes).  A range is cut in its middle when the two halves, priced the
 * same way, cost less than the whole (their second block header
 * included), and each half is considered again; ranges of fewer than
 * MIN_SEQ sequences are left whole, which bounds both the work (each
 * level of the recursion prices every sequence twice) and the number of
 * partitions.  Every range is priced against the tables in force before
 * the block, as the partitions will not know each other's tables when
 * the estimate is made.
 *
 * Checking the result.  Estimates can be wrong, so the block is first
 * written whole, then as partitions into at most one byte less than that;
 * if the partitions do not fit, the whole block is what goes out.  The
 * partitions are written after the whole block when the destination has
 * room for both (then moved down), otherwise over it, in which case a loss
 * means writing the whole block again.  The decoder state a block changes
 * (tables in force, repeat offsets) is saved before each attempt and put
 * back when the attempt is discarded.
 *
 * Repeat offsets across a raw partition.  The parser chose each repeat
 * code assuming the decoder saw every earlier sequence.  A partition that
 * goes out raw or RLE (it does not compress, or is one repeated byte)
 * carries no sequences, so the decoder's repeat offsets stop moving while
 * the parser's assumed ones went on.  Two histories are kept through the
 * partitions: the one the parser assumed (advanced by every sequence with
 * its original code) and the one the decoder will have (advanced only by
 * the sequences of compressed partitions, with the codes actually sent).
 * While they differ, a repeat code whose offset under the decoder's
 * history is not the one the parser meant is replaced by the offset itself
 * (RFC 8878 §3.1.2.5 gives both interpretations, including the shifted
 * one after a literal length of 0).  The original codes of replaced
 * sequences are kept, one byte per sequence, in the free part of the
 * literal buffer, so that a discarded attempt can be undone; that part is
 * large enough because every sequence takes at least 3 bytes of the block
 * and no literal byte.
 *
 * Dictionaries.  compress_history.c keeps a dictionary's tables across
 * frames when a frame of one block leaves the same table slots in force;
 * two partitions may flip a slot twice, so a split marks them as not held.
 *
 * What it may call: the encoder (compress/).
 */
#include "zstd/compress/compress_internal.h"

/* Ranges with fewer sequences are not cut: below a few hundred sequences
 * the new tables rarely pay for their descriptions. */
#define MIN_SEQ 300

/* At most this many partitions per block, so the cut list is small and
 * the header overhead bounded. */
#define MAX_PARTS 128

typedef struct {
    const xc_zstd_cctx *c;
    const xc_zseqstore *ss;
    size_t nb_seq;
    size_t lit_total; /* literals of the block, the trailing ones included */
    uint32_t cuts[MAX_PARTS + 1];
    unsigned nb_cuts;
} splitter;

/* ---- estimates ------------------------------------------------------------------ */

/* Bits of the literals section for lit[0..n), choosing among raw, RLE, the
 * tree in force and a new tree as compress_literals.c does (its
 * smaller thresholds approximated).  A new tree is priced without being
 * built, at the entropy of the histogram (Huffman codes come within a few
 * percent of it on literals, and the error is alike for a range and its
 * halves) plus a description of about 3 bits per weight (the weights of
 * symbols 0..max, FSE-compressed) or 4 bits when sent directly: building
 * trees was most of the splitter's cost. */
static size_t literal_bits(splitter *s, const uint8_t *lit, size_t n)
{
    const xc_zentropy *const e = &s->c->ent;
    unsigned const strategy = s->c->p.strategy;
    size_t const plain = 1 + (n >= 32) + (n >= 4096);
    size_t const raw = 8 * (plain + n);
    unsigned const shift = strategy >= XC_ZSTRAT_BTULTRA2 ? 0 : XC_MIN(9 - strategy, 3u);
    if (n < (e->huf_valid ? (size_t)6 : (size_t)8 << shift)) return raw;

    unsigned count[256], max;
    unsigned const largest = xc_hist_count(count, &max, lit, n);
    if (largest == n) return 8 * (plain + 1);
    if (largest <= (n >> 7) + 4) return raw;

    size_t const desc = max < 128 ? XC_MIN(6 + (max + 1) * 3 / 8, 1 + (max + 2) / 2)
                                  : 6 + (max + 1) * 3 / 8;
    size_t best = 8 * desc + xc_zstd_entropy_bits(count, max, n);
    const xc_huf_ctable *const prev = &e->huf[e->huf_cur];
    if (e->huf_valid && xc_huf_valid_for(prev, count, max))
        best = XC_MIN(best, 8 * xc_huf_estimate_size(prev, count, max));
    size_t const header = 3 + (n >= 1024) + (n >= 16384) + (n >= 256 ? 6 : 0);
    return XC_MIN(raw, 8 * header + best);
}

/* Bits of a block made of sequences [a, b) and the literals from offset
 * lit_a; *lit_b receives where the next range's literals start (after the
 * trailing literals when b is the last sequence).  A block that would not
 * compress goes out raw, so no range costs more than its bytes. */
static size_t range_bits(splitter *s, size_t a, size_t b, size_t lit_a, size_t *lit_b)
{
    const xc_zseqstore *const ss = s->ss;
    unsigned count[3][64];
    size_t lits = 0, matched = 0;
    memset(count, 0, sizeof count);
    for (size_t i = a; i < b; i++) {
        count[XC_SEQ_LL][ss->ll_code[i]]++;
        count[XC_SEQ_ML][ss->ml_code[i]]++;
        count[XC_SEQ_OF][ss->of_code[i]]++;
        lits += xc_zseq_lit_len(ss, &ss->seq[i]);
        matched += xc_zseq_match_len(ss, &ss->seq[i]);
    }
    size_t const end = b == s->nb_seq ? s->lit_total : lit_a + lits;
    *lit_b = end;
    size_t const coded = literal_bits(s, ss->lit + lit_a, end - lit_a) +
                         xc_zstd_estimate_seq_bits(s->c, count, b - a);
    return 8 * XC_ZSTD_BLOCK_HEADER + XC_MIN(coded, 8 * (end - lit_a + matched));
}

/* Cuts [a, b) (literals [lit_a, lit_b), priced `whole` bits) in its middle
 * when the halves cost less, and each half again; cuts are appended in
 * increasing order. */
static void derive_cuts(splitter *s, size_t a, size_t b, size_t lit_a, size_t lit_b,
                        size_t whole)
{
    if (b - a < MIN_SEQ || s->nb_cuts + 1 >= MAX_PARTS) return;
    size_t const mid = a + (b - a) / 2;
    size_t lit_mid, lit_end;
    size_t const left = range_bits(s, a, mid, lit_a, &lit_mid);
    size_t const right = range_bits(s, mid, b, lit_mid, &lit_end);
    if (left + right >= whole) return;
    derive_cuts(s, a, mid, lit_a, lit_mid, left);
    if (s->nb_cuts + 1 >= MAX_PARTS) return;
    s->cuts[s->nb_cuts++] = (uint32_t)mid;
    derive_cuts(s, mid, b, lit_mid, lit_b, right);
}

/* ---- saved decoder state -------------------------------------------------------- */

static void save_state(const xc_zstd_cctx *c, xc_zsplit_saved *sv)
{
    const xc_zentropy *const e = &c->ent;
    sv->huf = e->huf[e->huf_cur];
    sv->huf_cur = e->huf_cur;
    sv->huf_valid = e->huf_valid;
    for (unsigned t = 0; t < 3; t++) {
        unsigned const cur = e->fse_cur[t];
        sv->fse[t] = e->fse[t][cur];
        memcpy(sv->norm[t], e->norm[t][cur], sizeof sv->norm[t]);
        sv->norm_log[t] = e->norm_log[t][cur];
        sv->norm_max[t] = e->norm_max[t][cur];
        sv->fse_cur[t] = (uint8_t)cur;
        sv->fse_valid[t] = e->fse_valid[t];
    }
    memcpy(sv->rep, c->rep, sizeof sv->rep);
    sv->first_block = c->first_block;
}

static void restore_state(xc_zstd_cctx *c, const xc_zsplit_saved *sv)
{
    xc_zentropy *const e = &c->ent;
    e->huf_cur = sv->huf_cur;
    e->huf_valid = sv->huf_valid;
    e->huf[e->huf_cur] = sv->huf;
    for (unsigned t = 0; t < 3; t++) {
        unsigned const cur = sv->fse_cur[t];
        e->fse_cur[t] = (uint8_t)cur;
        e->fse_valid[t] = sv->fse_valid[t];
        e->fse[t][cur] = sv->fse[t];
        memcpy(e->norm[t][cur], sv->norm[t], sizeof sv->norm[t]);
        e->norm_log[t][cur] = sv->norm_log[t];
        e->norm_max[t][cur] = sv->norm_max[t];
    }
    memcpy(c->rep, sv->rep, sizeof c->rep);
    c->first_block = sv->first_block;
}

/* ---- repeat offsets (RFC 8878 §3.1.2.5) ------------------------------------------- */

/* The offset that off_value means after rep[], and rep[] updated, as the
 * decoder will (format.h). */
static uint32_t apply_offset(uint32_t rep[3], uint32_t off_value, uint32_t lit_len)
{
    return xc_zstd_rep_next(rep, rep, off_value, lit_len == 0);
}

/* The offset that off_value means after rep[], without changing it. */
static uint32_t peek_offset(const uint32_t rep[3], uint32_t off_value, uint32_t lit_len)
{
    uint32_t r[3] = {rep[0], rep[1], rep[2]};
    return apply_offset(r, off_value, lit_len);
}

/* ---- writing the partitions ------------------------------------------------------- */

typedef struct {
    uint8_t *orig;      /* original codes of replaced sequences (0: kept), or NULL */
    size_t orig_from;   /* first sequence orig covers */
} rewrites;

/* Writes the partitions between the cuts into dst[0..cap).  Returns the
 * bytes written or an error (DST_TOO_SMALL when they do not fit). */
static size_t write_parts(xc_zstd_cctx *c, const splitter *s, uint8_t *dst, size_t cap,
                          const uint8_t *src, int last, rewrites *rw)
{
    xc_zseqstore const whole = c->ss;
    uint32_t dec[3], par[3];
    memcpy(dec, c->rep, sizeof dec);
    memcpy(par, c->rep, sizeof par);
    size_t pos = 0, lit_pos = 0, src_pos = 0, result = 0;
    for (unsigned k = 0; k <= s->nb_cuts; k++) {
        size_t const a = k == 0 ? 0 : s->cuts[k - 1];
        size_t const b = k == s->nb_cuts ? s->nb_seq : s->cuts[k];
        int const final = k == s->nb_cuts;
        int const diverged = memcmp(dec, par, sizeof dec) != 0;
        if (diverged && !rw->orig) {
            rw->orig = whole.lit_end;
            rw->orig_from = a;
            memset(rw->orig, 0, s->nb_seq - a);
        }
        uint32_t next[3] = {dec[0], dec[1], dec[2]};
        size_t bytes = 0, lits = 0;
        for (size_t i = a; i < b; i++) {
            xc_zseq *const q = &whole.seq[i];
            uint32_t const ll = xc_zseq_lit_len(&whole, q);
            uint32_t const ml = xc_zseq_match_len(&whole, q);
            if (diverged && q->off_value <= 3) {
                uint32_t const meant = peek_offset(par, q->off_value, ll);
                if (peek_offset(next, q->off_value, ll) != meant) {
                    rw->orig[i - rw->orig_from] = (uint8_t)q->off_value;
                    apply_offset(par, q->off_value, ll);
                    q->off_value = meant + 3;
                    apply_offset(next, q->off_value, ll);
                    bytes += ll + ml;
                    lits += ll;
                    continue;
                }
            }
            apply_offset(par, q->off_value, ll);
            apply_offset(next, q->off_value, ll);
            bytes += ll + ml;
            lits += ll;
        }
        if (final) {
            size_t const tail = s->lit_total - lit_pos - lits;
            bytes += tail;
            lits += tail;
        }
        c->ss.seq = whole.seq + a;
        c->ss.nb_seq = b - a;
        c->ss.lit = whole.lit + lit_pos;
        c->ss.lit_end = c->ss.lit + lits;
        c->ss.ll_code = whole.ll_code + a;
        c->ss.ml_code = whole.ml_code + a;
        c->ss.of_code = whole.of_code + a;
        size_t const r = xc_zstd_emit_block(c, dst + pos, cap - pos, src + src_pos, bytes,
                                            last && final, next);
        c->ss = whole;
        if (xc_iserr(r)) {
            result = r;
            break;
        }
        /* Block_Type 2 is compressed: only then did the decoder see the
         * partition's sequences. */
        if (((dst[pos] >> 1) & 3) == 2) memcpy(dec, next, sizeof dec);
        pos += r;
        lit_pos += lits;
        src_pos += bytes;
    }
    return xc_iserr(result) ? result : pos;
}

static void undo_rewrites(xc_zstd_cctx *c, const splitter *s, const rewrites *rw)
{
    if (!rw->orig) return;
    for (size_t i = rw->orig_from; i < s->nb_seq; i++) {
        uint8_t const o = rw->orig[i - rw->orig_from];
        if (o) c->ss.seq[i].off_value = o;
    }
}

size_t xc_zstd_split_emit(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *src,
                          size_t size, int last, const uint32_t rep[3])
{
    xc_zseqstore *const ss = &c->ss;
    size_t const nb = ss->nb_seq;
    size_t const lit_room = c->seq_mem_block + XC_ZSTD_LIT_SLACK - (size_t)(ss->lit_end - ss->lit);
    if (nb < 2 * MIN_SEQ || lit_room < nb)
        return xc_zstd_emit_block(c, dst, cap, src, size, last, rep);

    splitter s;
    s.c = c;
    s.ss = ss;
    s.nb_seq = nb;
    s.lit_total = (size_t)(ss->lit_end - ss->lit);
    s.nb_cuts = 0;
    xc_zstd_seq_codes(ss);
    size_t lit_end;
    size_t const whole_bits = range_bits(&s, 0, nb, 0, &lit_end);
    derive_cuts(&s, 0, nb, 0, s.lit_total, whole_bits);
    if (s.nb_cuts == 0) return xc_zstd_emit_block(c, dst, cap, src, size, last, rep);

    /* The whole block first: its size is the bar.  (An RLE block, or one
     * that does not fit, is final.) */
    xc_zsplit_saved *const before = &c->split_saved[0];
    xc_zsplit_saved *const after = &c->split_saved[1];
    save_state(c, before);
    size_t const whole = xc_zstd_emit_block(c, dst, cap, src, size, last, rep);
    if (xc_iserr(whole) || whole <= XC_ZSTD_BLOCK_HEADER + 1) return whole;

    /* The partitions go past the whole block when there is room for both,
     * so that a loss costs nothing more.  They must take at most whole - 1
     * bytes; a partition that does not fit fails them all.  write_parts
     * follows the repeat offsets itself and leaves c->rep at the decoder's,
     * which equal rep unless the last partitions went out raw. */
    int const beside = cap - whole >= whole;
    uint8_t *const out = beside ? dst + whole : dst;
    if (beside) save_state(c, after);
    restore_state(c, before);
    rewrites rw = {NULL, 0};
    size_t const parts = write_parts(c, &s, out, whole - 1, src, last, &rw);
    if (!xc_iserr(parts)) {
        if (beside) memmove(dst, out, parts);
        /* See "Dictionaries" above: no slot pattern matches this. */
        c->held_entropy_slots = UINT32_MAX;
        return parts;
    }
    undo_rewrites(c, &s, &rw);
    if (beside) {
        restore_state(c, after);
        return whole;
    }
    restore_state(c, before);
    return xc_zstd_emit_block(c, dst, cap, src, size, last, rep);
}
