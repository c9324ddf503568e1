/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The body of a compressed block: the literals section (in
 * compress_literals.c) followed by the sequences section (RFC 8878
 * §3.1.1.3.2), and the entropy state carried from block to block.
 *
 * Sequences section.  Each sequence becomes three codes (literal length,
 * match length, offset), each code type gets its own FSE table, and the
 * extra bits that refine each code follow in the same bitstream.  For each
 * type the table is sent in one of four modes, chosen by estimated size in
 * bits of that type's symbols (the extra bits are the same in every mode):
 *   - predefined: the distribution of §3.1.1.3.2.2, no description;
 *   - RLE: one symbol only, one byte, no bits per symbol;
 *   - compressed: a new distribution fitted to this block, whose
 *     description costs bytes up front;
 *   - repeat: the table of the previous compressed block, if it can code
 *     every symbol present.
 * Ties go to the cheaper-to-decode mode in that order.
 *
 * Bitstream.  The decoder reads the stream backwards: initial states, then
 * for each sequence its offset, match-length and literal-length extra bits
 * and (except after the last) the state updates for literal length, match
 * length and offset.  So the encoder walks the sequences from the last to
 * the first and writes everything in the mirror order.
 *
 * What it may call: the encoder (compress/) and the shared format (common/).
 */
#include "zstd/compress/compress_kernels.h"
#include "zstd/common/format.h"

/* Largest FSE description of a sequence table: 53 symbols at accuracy 9
 * take at most 4 + 53 * 10 bits plus zero-run flags, well under 96 bytes. */
#define XC_ZSTD_NCOUNT_MAX 96

/* ---- entropy state ------------------------------------------------------------- */

void xc_zstd_entropy_reset(xc_zentropy *e)
{
    e->huf_valid = 0;
    for (unsigned t = 0; t < 3; t++) e->fse_valid[t] = 0;
}

size_t xc_zstd_entropy_init_defaults(xc_zentropy *e)
{
    for (unsigned t = 0; t < 3; t++)
    {
        xc_seq_default const d = xc_zstd_seq_default(t);
        FORWARD_IF_ERROR(xc_fse_build_ctable(&e->def[t], d.norm, d.max_symbol, d.log));
    }
    xc_zstd_entropy_reset(e);
    return 0;
}

void xc_zstd_entropy_commit(xc_zentropy *e, unsigned commit)
{
    if (commit & XC_ZCOMMIT_HUF) {
        e->huf_cur ^= 1;
        e->huf_valid = 1;
    }
    for (unsigned t = 0; t < 3; t++) {
        if (commit & (XC_ZCOMMIT_FSE_NEW << t)) {
            e->fse_cur[t] ^= 1;
            e->fse_valid[t] = 1;
        } else if (commit & (XC_ZCOMMIT_FSE_DROP << t)) {
            /* Predefined or RLE: libzstd never repeats those either (a
             * repeated RLE table is legal but gains nothing). */
            e->fse_valid[t] = 0;
        }
    }
}

/* ---- mode choice ------------------------------------------------------------------ */

/* log2(x) in 1/256 bits for x >= 1: the exponent, plus the fraction read
 * from the 5 bits below the top one (accurate to about 1/50 bit, plenty to
 * rank modes).  frac[m] = log2(1 + m/32) * 256, rounded. */
static unsigned log2_q8(uint32_t x)
{
    static const uint8_t frac[32] = {0,   11,  22,  33,  44,  54,  63,  73,  82,  92,  100,
                                     109, 118, 126, 134, 142, 150, 157, 165, 172, 179, 186,
                                     193, 200, 207, 213, 220, 226, 232, 238, 244, 250};
    unsigned const hb = xc_highbit32(x);
    /* In 64 bits x << 5 cannot overflow, so one shift serves either side
     * of hb = 5 without a branch. */
    uint32_t const m = (uint32_t)((((uint64_t)x << 5) >> hb) & 31);
    return (hb << 8) + frac[m];
}

/* The bits a distribution norm[0..norm_max] (accuracy log) spends on the
 * histogram count[0..max]: a symbol with p cells of 2^log costs
 * log - log2(p) bits, and a "less than 1" symbol as much as one cell.
 * SIZE_MAX when the distribution cannot code a symbol present. */
static size_t norm_cost_bits(const int16_t *norm, unsigned norm_max, unsigned log,
                             const unsigned *count, unsigned max)
{
    uint64_t q8 = 0;
    unsigned missing = 0;
    if (max > norm_max) return SIZE_MAX;
    /* Without a branch on the count: small blocks have a few sequences
     * whose codes are scattered over the alphabet, and a test per symbol
     * mispredicted about once per code present (40-50 times a frame of
     * 256-byte records). */
    for (unsigned s = 0; s <= max; s++) {
        uint32_t const p = norm[s] > 0 ? (uint32_t)norm[s] : 1;
        missing |= (count[s] != 0) & (norm[s] == 0);
        q8 += (uint64_t)count[s] * ((log << 8) - log2_q8(p));
    }
    return missing ? SIZE_MAX : (size_t)(q8 >> 8);
}

/* norm_cost_bits() for a histogram given as its symbols, codes[0..nb):
 * the same sum (the same symbols the same number of times), in nb steps
 * instead of one per symbol of the alphabet, which is cheaper for the few
 * sequences of a small block. */
static size_t norm_cost_bits_codes(const int16_t *norm, unsigned norm_max, unsigned log,
                                   const uint8_t *codes, size_t nb)
{
    uint64_t q8 = 0;
    unsigned missing = 0;
    for (size_t i = 0; i < nb; i++) {
        unsigned const s = codes[i];
        if (s > norm_max) return SIZE_MAX;
        uint32_t const p = norm[s] > 0 ? (uint32_t)norm[s] : 1;
        missing |= norm[s] == 0;
        q8 += (log << 8) - log2_q8(p);
    }
    return missing ? SIZE_MAX : (size_t)(q8 >> 8);
}

/* The bits of the histogram count[0..max] of codes[0..nb) under a
 * distribution, by whichever of the two loops is shorter. */
static size_t hist_cost_bits(const int16_t *norm, unsigned norm_max, unsigned log,
                             const unsigned *count, unsigned max, const uint8_t *codes, size_t nb)
{
    if (nb <= max) return norm_cost_bits_codes(norm, norm_max, log, codes, nb);
    return norm_cost_bits(norm, norm_max, log, count, max);
}

/* Below this many sequences a new table rarely pays for its description,
 * so the fast strategies do not even price it (libzstd's rule: the
 * predefined table's size times (10 - strategy) / 8). */
static size_t min_seq_for_new_table(unsigned t, unsigned strategy)
{
    return ((size_t)1 << xc_zstd_seq_default(t).log) * (10 - strategy) >> 3;
}

/* Picks the mode of one symbol type, writes its description at dst (for
 * the compressed mode) and points *ct at the table to encode with.
 * Returns the description's size (0, 1 for RLE, or the FSE description),
 * or an error; *mode and the commit flags are set.  How much room dst has
 * never changes the choice, only whether it fits. */
static size_t choose_table(xc_zstd_cctx *c, unsigned t, const uint8_t *codes, unsigned *count,
                           size_t nb, uint8_t *dst, size_t cap, unsigned *mode,
                           const xc_fse_ctable **ct, unsigned *commit)
{
    xc_zentropy *const e = &c->ent;
    xc_seq_default const def = xc_zstd_seq_default(t);
    unsigned max = xc_zstd_seq_max_code(t), most = 0;
    if (nb < max) {
        /* Few sequences: the largest code and count from the codes. */
        max = 0;
        for (size_t i = 0; i < nb; i++) {
            max = XC_MAX(max, (unsigned)codes[i]);
            most = XC_MAX(most, count[codes[i]]);
        }
    } else {
        while (max > 0 && count[max] == 0) max--;
        for (unsigned s = 0; s <= max; s++) most = XC_MAX(most, count[s]);
    }
    int const default_ok = max <= def.max_symbol;
    xc_fse_ctable *const scratch = &e->fse[t][e->fse_cur[t] ^ 1];

    if (most == nb) {
        /* One symbol.  With one or two sequences the predefined table costs
         * a few bits against RLE's byte. */
        if (default_ok && nb <= 2) {
            *mode = XC_SEQ_MODE_PREDEFINED;
            *ct = &e->def[t];
            *commit |= XC_ZCOMMIT_FSE_DROP << t;
            return 0;
        }
        RETURN_ERROR_IF(cap < 1, DST_TOO_SMALL);
        dst[0] = codes[0];
        xc_fse_build_ctable_rle(scratch, codes[0]);
        *mode = XC_SEQ_MODE_RLE;
        *ct = scratch;
        *commit |= XC_ZCOMMIT_FSE_DROP << t;
        return 1;
    }

    /* Every mode is priced from its distribution, the same way, so that
     * the comparison is fair; the tables are only built for the winner. */
    size_t best = SIZE_MAX;
    unsigned best_mode = XC_SEQ_MODE_COMPRESSED;
    unsigned const cur = e->fse_cur[t];
    if (default_ok) {
        best = hist_cost_bits(def.norm, def.max_symbol, def.log, count, max, codes, nb);
        best_mode = XC_SEQ_MODE_PREDEFINED;
    }
    if (e->fse_valid[t]) {
        size_t const bits = hist_cost_bits(e->norm[t][cur], e->norm_max[t][cur],
                                           e->norm_log[t][cur], count, max, codes, nb);
        if (bits < best) best = bits, best_mode = XC_SEQ_MODE_REPEAT;
    }

    /* A new table, priced from its distribution before it is built.  The
     * fast strategies skip it for few sequences, and (as libzstd does) keep
     * a repeatable table for blocks of fewer than 1000.  The last
     * sequence's code only sets the initial state and costs no bits of its
     * own, so it is left out of the statistics when that leaves something
     * to count.  The description goes to a scratch buffer first. */
    int16_t *const norm = e->norm[t][cur ^ 1];
    uint8_t desc_buf[XC_ZSTD_NCOUNT_MAX];
    size_t desc = 0;
    unsigned log = 0;
    int const fast = c->p.strategy < XC_ZSTRAT_LAZY;
    int const priced = best == SIZE_MAX ||
                       !fast || (nb >= min_seq_for_new_table(t, c->p.strategy) &&
                                 !(best_mode == XC_SEQ_MODE_REPEAT && nb < 1000));
    if (priced) {
        size_t total = nb;
        unsigned const last = codes[nb - 1];
        if (count[last] > 1) {
            count[last]--;
            total--;
        }
        log = xc_fse_optimal_table_log(xc_zstd_seq_log_max(t), total, max);
        size_t const r = xc_fse_normalize(norm, log, count, total, max, total >= 2048);
        FORWARD_IF_ERROR(r);
        if (total != nb) count[last]++;
        if (r != 0) {
            desc = xc_fse_write_ncount(desc_buf, sizeof desc_buf, norm, max, log);
            FORWARD_IF_ERROR(desc);
            size_t const bits = hist_cost_bits(norm, max, log, count, max, codes, nb) + 8 * desc;
            if (bits < best) best = bits, best_mode = XC_SEQ_MODE_COMPRESSED;
        }
    }
    RETURN_ERROR_IF(best == SIZE_MAX, GENERIC);

    *mode = best_mode;
    switch (best_mode) {
    case XC_SEQ_MODE_PREDEFINED:
        *ct = &e->def[t];
        *commit |= XC_ZCOMMIT_FSE_DROP << t;
        return 0;
    case XC_SEQ_MODE_REPEAT:
        *ct = &e->fse[t][cur];
        return 0;
    default:
        RETURN_ERROR_IF(desc > cap, DST_TOO_SMALL);
        FORWARD_IF_ERROR(xc_fse_build_ctable(scratch, norm, max, log));
        e->norm_log[t][cur ^ 1] = (uint8_t)log;
        e->norm_max[t][cur ^ 1] = (uint8_t)max;
        memcpy(dst, desc_buf, desc);
        *ct = scratch;
        *commit |= XC_ZCOMMIT_FSE_NEW << t;
        return desc;
    }
}

/* The codes of the store's long sequence (compress_seqstore.h), which the
 * code loops derived from its low 16 bits; hist, when not NULL, is moved
 * from the wrong code to the right one. */
static void xc_zstd_long_code(xc_zseqstore *ss, unsigned hist[3][64])
{
    if (!ss->long_seq) return;
    size_t const i = (size_t)(ss->long_seq - ss->seq);
    if (i >= ss->nb_seq) return;
    unsigned const t = ss->long_ml ? XC_SEQ_ML : XC_SEQ_LL;
    uint8_t *const code = ss->long_ml ? &ss->ml_code[i] : &ss->ll_code[i];
    unsigned const right = ss->long_ml ? xc_zstd_ml_code(xc_zseq_match_len(ss, ss->long_seq) - 3)
                                       : xc_zstd_ll_code(xc_zseq_lit_len(ss, ss->long_seq));
    if (hist) {
        hist[t][*code]--;
        hist[t][right]++;
    }
    *code = (uint8_t)right;
}

/* Blocks of at least this many sequences count their codes into two sets
 * of counters (see encode_sequences). */
#define SPLIT_HIST_MIN_SEQ 64

static size_t encode_sequences(xc_zstd_cctx *c, uint8_t *dst, size_t cap, unsigned *commit)
{
    xc_zseqstore *const ss = &c->ss;
    size_t const nb = ss->nb_seq;
    uint8_t *op = dst;
    uint8_t *const oend = dst + cap;

    /* Number_of_Sequences (§3.1.1.3.2.1): 1 byte below 128, 2 below
     * XC_ZSTD_NBSEQ_LONG, else 3. */
    RETURN_ERROR_IF(cap < 4, DST_TOO_SMALL);
    if (nb < 128) {
        *op++ = (uint8_t)nb;
    } else if (nb < XC_ZSTD_NBSEQ_LONG) {
        op[0] = (uint8_t)((nb >> 8) + 0x80);
        op[1] = (uint8_t)nb;
        op += 2;
    } else {
        op[0] = 0xFF;
        xc_write_le16(op + 1, (uint16_t)(nb - XC_ZSTD_NBSEQ_LONG));
        op += 3;
    }
    if (nb == 0) return (size_t)(op - dst);

    /* The codes and their histograms in one pass.  Two sets of counters,
     * for even and odd sequences, so that runs of the same code do not
     * chain every increment to the previous one through memory; a block
     * of few sequences (small records) has no such runs to speak of, and
     * there clearing and merging the second set would cost more than the
     * counting: one set. */
    unsigned hist[2][3][64];
    {
        const xc_zseq *const seq = ss->seq;
        uint8_t *const llc = ss->ll_code, *const mlc = ss->ml_code, *const ofc = ss->of_code;
        size_t i = 0;
        if (nb >= SPLIT_HIST_MIN_SEQ) {
            memset(hist, 0, sizeof hist);
            for (; i + 1 < nb; i += 2) {
                unsigned const l0 = xc_zstd_ll_code(seq[i].lit_len);
                unsigned const l1 = xc_zstd_ll_code(seq[i + 1].lit_len);
                unsigned const m0 = xc_zstd_ml_code(seq[i].ml_base);
                unsigned const m1 = xc_zstd_ml_code(seq[i + 1].ml_base);
                unsigned const o0 = xc_zstd_of_code(seq[i].off_value);
                unsigned const o1 = xc_zstd_of_code(seq[i + 1].off_value);
                llc[i] = (uint8_t)l0, llc[i + 1] = (uint8_t)l1;
                mlc[i] = (uint8_t)m0, mlc[i + 1] = (uint8_t)m1;
                ofc[i] = (uint8_t)o0, ofc[i + 1] = (uint8_t)o1;
                hist[0][XC_SEQ_LL][l0]++, hist[1][XC_SEQ_LL][l1]++;
                hist[0][XC_SEQ_ML][m0]++, hist[1][XC_SEQ_ML][m1]++;
                hist[0][XC_SEQ_OF][o0]++, hist[1][XC_SEQ_OF][o1]++;
            }
            for (unsigned t = 0; t < 3; t++)
                for (unsigned k = 0; k < 64; k++) hist[0][t][k] += hist[1][t][k];
        } else {
            memset(hist[0], 0, sizeof hist[0]);
        }
        for (; i < nb; i++) {
            unsigned const l0 = xc_zstd_ll_code(seq[i].lit_len);
            unsigned const m0 = xc_zstd_ml_code(seq[i].ml_base);
            unsigned const o0 = xc_zstd_of_code(seq[i].off_value);
            llc[i] = (uint8_t)l0, mlc[i] = (uint8_t)m0, ofc[i] = (uint8_t)o0;
            hist[0][XC_SEQ_LL][l0]++, hist[0][XC_SEQ_ML][m0]++, hist[0][XC_SEQ_OF][o0]++;
        }
    }
    xc_zstd_long_code(ss, hist[0]);

    uint8_t *const modes = op++;
    const uint8_t *codes[3] = {ss->ll_code, ss->of_code, ss->ml_code};
    const xc_fse_ctable *ct[3];
    unsigned mode[3];
    size_t last_desc = 0; /* size of the last compressed-mode description */
    for (unsigned t = 0; t < 3; t++) {
        size_t const d = choose_table(c, t, codes[t], hist[0][t], nb, op, (size_t)(oend - op),
                                      &mode[t], &ct[t], commit);
        FORWARD_IF_ERROR(d);
        if (mode[t] == XC_SEQ_MODE_COMPRESSED) last_desc = d;
        op += d;
    }
    *modes = (uint8_t)((mode[XC_SEQ_LL] << XC_SEQ_MODE_SHIFT(XC_SEQ_LL)) |
                       (mode[XC_SEQ_OF] << XC_SEQ_MODE_SHIFT(XC_SEQ_OF)) |
                       (mode[XC_SEQ_ML] << XC_SEQ_MODE_SHIFT(XC_SEQ_ML)));

    size_t const bits = c->kern->seq_bitstream(&c->ss, op, (size_t)(oend - op), ct[XC_SEQ_LL],
                                               ct[XC_SEQ_OF], ct[XC_SEQ_ML]);
    FORWARD_IF_ERROR(bits);
    /* zstd 1.3.4 and older reject a block whose last FSE description
     * starts fewer than 4 bytes before its end (decompressor_errata.md,
     * "Tiny FSE Table & Block"); such a block is a few bytes of input, so
     * sending it raw costs nothing. */
    if (last_desc && last_desc + bits < 4) return 0;
    op += bits;
    return (size_t)(op - dst);
}

size_t xc_zstd_encode_block_body(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *src,
                                 size_t src_size, unsigned *commit)
{
    xc_zseqstore *const ss = &c->ss;
    unsigned lit_commit = 0, seq_commit = 0;
    /* Without sequences the literals are the block itself, read from src
     * (the caller may not have copied them into ss->lit).  Such a block
     * gains nothing with raw literals (their section is larger than the
     * block): then it goes out raw, and they are not copied at all. */
    int const alone = ss->nb_seq == 0;
    const uint8_t *const lit = alone ? src : ss->lit;
    size_t const nlit = alone ? src_size : (size_t)(ss->lit_end - ss->lit);
    size_t const lsize = xc_zstd_encode_literals(c, dst, cap, lit, nlit, alone, &lit_commit);
    FORWARD_IF_ERROR(lsize);
    if (lsize == 0) return 0;
    size_t const ssize = encode_sequences(c, dst + lsize, cap - lsize, &seq_commit);
    FORWARD_IF_ERROR(ssize);
    if (ssize == 0) return 0;
    size_t const total = lsize + ssize;
    /* A compressed block must be smaller than its content (§3.1.1.2.3) and
     * should gain enough to be worth decoding. */
    if (total + xc_zstd_min_gain(src_size, c->p.strategy) >= src_size) return 0;
    *commit = lit_commit | seq_commit;
    return total;
}

/* ---- estimates for the block splitter ------------------------------------------------- */

void xc_zstd_seq_codes(xc_zseqstore *ss)
{
    for (size_t i = 0; i < ss->nb_seq; i++) {
        ss->ll_code[i] = (uint8_t)xc_zstd_ll_code(ss->seq[i].lit_len);
        ss->ml_code[i] = (uint8_t)xc_zstd_ml_code(ss->seq[i].ml_base);
        ss->of_code[i] = (uint8_t)xc_zstd_of_code(ss->seq[i].off_value);
    }
    xc_zstd_long_code(ss, NULL);
}

/* The same choice as choose_table(), priced only: the cheapest of the
 * predefined, repeat and new tables (a new one with its description), or
 * RLE's byte, plus the extra bits, which no mode changes. */
size_t xc_zstd_estimate_seq_bits(const xc_zstd_cctx *c, unsigned count[3][64], size_t nb)
{
    const xc_zentropy *const e = &c->ent;
    size_t bits = 8 * (size_t)(nb < 128 ? 1 : nb < XC_ZSTD_NBSEQ_LONG ? 2 : 3);
    if (nb == 0) return bits;
    bits += 8; /* the modes byte */
    for (unsigned t = 0; t < 3; t++) {
        const unsigned *const cnt = count[t];
        xc_seq_default const def = xc_zstd_seq_default(t);
        unsigned max = xc_zstd_seq_max_code(t), most = 0;
        while (max > 0 && cnt[max] == 0) max--;
        for (unsigned s = 0; s <= max; s++) {
            unsigned const extra = t == XC_SEQ_LL   ? xc_zstd_ll_bits(s)
                                   : t == XC_SEQ_ML ? xc_zstd_ml_bits(s)
                                                    : s;
            bits += (size_t)cnt[s] * extra;
            most = XC_MAX(most, cnt[s]);
        }
        int const default_ok = max <= def.max_symbol;
        if (most == nb) {
            bits += default_ok && nb <= 2 ? 0 : 8;
            continue;
        }
        size_t best = SIZE_MAX;
        if (default_ok)
            best = norm_cost_bits(def.norm, def.max_symbol, def.log, cnt, max);
        if (e->fse_valid[t]) {
            unsigned const cur = e->fse_cur[t];
            best = XC_MIN(best, norm_cost_bits(e->norm[t][cur], e->norm_max[t][cur],
                                               e->norm_log[t][cur], cnt, max));
        }
        int16_t norm[64];
        uint8_t desc[XC_ZSTD_NCOUNT_MAX];
        unsigned const log = xc_fse_optimal_table_log(xc_zstd_seq_log_max(t), nb, max);
        size_t const r = xc_fse_normalize(norm, log, cnt, nb, max, nb >= 2048);
        if (!xc_iserr(r) && r != 0) {
            size_t const d = xc_fse_write_ncount(desc, sizeof desc, norm, max, log);
            if (!xc_iserr(d)) best = XC_MIN(best, norm_cost_bits(norm, max, log, cnt, max) + 8 * d);
        }
        /* Unreachable with a valid histogram (a new table codes anything);
         * a flat price keeps the estimate finite regardless. */
        bits += best != SIZE_MAX ? best : nb * xc_zstd_seq_log_max(t);
    }
    return bits;
}

size_t xc_zstd_entropy_bits(const unsigned *count, unsigned max, size_t total)
{
    if (total == 0) return 0;
    uint64_t q8 = 0;
    unsigned const whole = log2_q8((uint32_t)total);
    for (unsigned s = 0; s <= max; s++)
        if (count[s]) q8 += (uint64_t)count[s] * (whole - log2_q8(count[s]));
    return (size_t)(q8 >> 8);
}

/* ---- one block out: compressed, RLE or raw ------------------------------------------- */

/* A block whose compressed form is smaller than this is checked for a
 * single repeated byte, which an RLE block says in 4 bytes (such a block
 * always compresses to a handful of bytes, so larger ones need no scan). */
#define RLE_CHECK_BELOW 25

static int is_rle(const uint8_t *p, size_t n)
{
    uint64_t const v = 0x0101010101010101ull * p[0];
    size_t i = 1;
    for (; i + 8 <= n; i += 8)
        if (xc_read64(p + i) != v) return 0;
    for (; i < n; i++)
        if (p[i] != p[0]) return 0;
    return 1;
}

size_t xc_zstd_emit_block(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *src,
                          size_t size, int last, const uint32_t rep[3])
{
    if (size >= XC_ZSTD_MIN_COMPRESSED_BLOCK) {
        unsigned commit = 0;
        size_t csize = 0;

        if (cap > XC_ZSTD_BLOCK_HEADER) {
            csize = xc_zstd_encode_block_body(c, dst + XC_ZSTD_BLOCK_HEADER,
                                              cap - XC_ZSTD_BLOCK_HEADER, src, size, &commit);
        } else {
            csize = XC_ERROR(DST_TOO_SMALL);
        }
        /* A first block is never RLE: the zstd 1.4.3 command line and
         * older reject that (decompressor_errata.md).  Otherwise a block of
         * one repeated byte always goes out RLE, in 4 bytes; the scan only
         * runs when the compressed form is tiny (as it always is for such a
         * block) or did not fit, so that the choice never depends on the
         * room in dst. */
        int const no_room = csize == XC_ERROR(DST_TOO_SMALL);
        if (!c->first_block && (no_room || csize < RLE_CHECK_BELOW) && is_rle(src, size)) {
            RETURN_ERROR_IF(cap < XC_ZSTD_BLOCK_HEADER + 1, DST_TOO_SMALL);
            xc_write_le24(dst, xc_zstd_block_header(last, XC_ZSTD_BLOCK_RLE, (uint32_t)size));
            dst[XC_ZSTD_BLOCK_HEADER] = src[0];
            return XC_ZSTD_BLOCK_HEADER + 1;
        }
        /* Out of room for the compressed form: the raw form is larger, but
         * try it (it is also what a block that does not compress gets). */
        if (no_room) csize = 0;
        FORWARD_IF_ERROR(csize);
        if (csize > 0) {
            xc_write_le24(dst,
                          xc_zstd_block_header(last, XC_ZSTD_BLOCK_COMPRESSED, (uint32_t)csize));
            xc_zstd_entropy_commit(&c->ent, commit);
            c->rep[0] = rep[0];
            c->rep[1] = rep[1];
            c->rep[2] = rep[2];
            c->first_block = 0;
            return XC_ZSTD_BLOCK_HEADER + csize;
        }
    }
    RETURN_ERROR_IF(cap < XC_ZSTD_BLOCK_HEADER + size, DST_TOO_SMALL);
    xc_write_le24(dst, xc_zstd_block_header(last, XC_ZSTD_BLOCK_RAW, (uint32_t)size));
    if (size) memcpy(dst + XC_ZSTD_BLOCK_HEADER, src, size);
    c->first_block = 0;
    return XC_ZSTD_BLOCK_HEADER + size;
}
