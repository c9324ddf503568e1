/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The optimal parsers: btopt (levels 16..17), btultra (18) and btultra2
 * (19..22).  Instead of taking matches as they come, they price whole
 * paths through the input and keep the cheapest.
 *
 * Shortest path.  From a position ip where a match exists, a window of up
 * to XC_ZOPT_NUM positions is priced left to right: node[k] holds the
 * cheapest known way to reach ip + k, either with a literal after node[k-1]
 * or with a match ending there.  Reaching a position finalizes it (every
 * way in comes from the left), so the finder then runs there with that
 * path's repeat offsets, and each match it returns, at every length from
 * the previous match's length + 1 up to its own, offers a way to a
 * position further right.  The window closes when no priced position lies
 * ahead, or when a match longer than the target length (or reaching past
 * the window) turns up, which is taken at once: such matches leave little
 * to choose.  The cheapest path is then read back from the last position
 * and its sequences emitted.
 *
 * Costs (match_opt_price.h): a node's price counts the literals, the
 * literal-length code of the run still open after its path (to be
 * adjusted as the run grows), and the offset and match-length codes of
 * every match.  Literals pending before ip are common to every path and
 * only enter through their run's length.
 *
 * Repeat offsets.  Each node keeps the three repeat offsets its path
 * leaves, computed as RFC 8878 §3.1.2.5 has the decoder do it (with the
 * shift when a sequence has no literals), and the finder's repeat
 * candidates come from them, so every Offset_Value emitted means to the
 * decoder exactly the offset that was priced.
 *
 * The variants.  btopt prices in whole bits and skips positions whose
 * literal path is already nearly as cheap as the next one; btultra prices
 * in fractions of a bit and tries every position; btultra2 parses a
 * frame's first block twice, the first time only to learn statistics, as
 * a first block otherwise starts from priors.
 *
 * This file is a template: every ISA variant of the encoder includes it
 * (after match_tmpl.h has set the variant's target and SIMD flag) and so
 * compiles its own copy of these finders; the entry points are static and
 * reach the rest of the encoder through the variant's kernel table
 * (compress_kernels.h).  It may call the match state and sequence store of
 * compress_internal.h and the search headers of this folder, nothing above
 * them.
 */
#ifndef XC_ZSTD_MATCH_OPT_TMPL_H
#define XC_ZSTD_MATCH_OPT_TMPL_H
#include "zstd/compress/compress_internal.h"
#include "zstd/compress/match/match_opt_price.h"
#include "zstd/compress/match/match_search_bt_opt.h"

/* Literals between the last match and node k on its path: 0 after a
 * match. */
XC_FORCE_INLINE uint32_t node_lits(const xc_zopt_node *n) { return n->mlen ? 0 : n->litlen; }

XC_FORCE_INLINE size_t opt_body(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                const uint8_t *const src, size_t const size, unsigned const mls,
                                int const ultra, int const dict)
{
    struct xc_zopt_s *const o = ms->opt;
    const uint8_t *const base = ms->base;
    const uint8_t *const iend = src + size;
    const uint8_t *const ilimit = iend - XC_ZSTD_HASH_READ;
    const uint8_t *anchor = src;
    /* A frame's first byte has nothing before it to match, unless a
     * dictionary is attached. */
    const uint8_t *ip = src + (!dict && src == base + ms->start);
    unsigned const min_match = mls == 3 ? 3 : 4;
    xc_zopt_node *const node = o->node;
    xc_zopt_match *const matches = o->match;
    uint32_t r[3] = {rep[0], rep[1], rep[2]};
    xc_zcursor out = xc_zcursor_open(ss);
    xc_zbt s;
    bt_open(&s, ms);
    uint32_t const sufficient = s.sufficient;
    xc_zopt_stats_begin(o, src, size);

    while (ip < ilimit) {
        uint32_t last_pos, cur;
        xc_zopt_match last = {0, 0}; /* a match taken at once at cur, or none */
        {
            uint32_t const litlen = (uint32_t)(ip - anchor);
            uint32_t const nb = bt_get_all(&s, matches, ip, iend, r, litlen == 0, mls, dict);
            if (!nb) {
                ip++;
                continue;
            }
            node[0].price = (int32_t)xc_zopt_ll_price(o, litlen);
            node[0].mlen = 0;
            node[0].off_value = 0;
            node[0].litlen = litlen;
            memcpy(node[0].rep, r, sizeof r);
            if (matches[nb - 1].len > sufficient) {
                last = matches[nb - 1];
                cur = 0;
                last_pos = 0;
                goto emit;
            }
            uint32_t const base_price = (uint32_t)node[0].price + xc_zopt_ll_price(o, 0);
            uint32_t pos = 1;
            for (; pos < min_match; pos++) node[pos].price = XC_ZPRICE_MAX;
            for (uint32_t i = 0; i < nb; i++) {
                uint32_t const ov = matches[i].off_value;
                uint32_t const op = base_price + xc_zopt_off_price(o, ov) + o->ml_base;
                for (; pos <= matches[i].len; pos++) {
                    node[pos].price = (int32_t)(op + xc_zopt_ml_part(o, pos));
                    node[pos].off_value = ov;
                    node[pos].mlen = pos;
                    node[pos].litlen = litlen;
                }
            }
            last_pos = pos - 1;
        }

        for (cur = 1; cur <= last_pos; cur++) {
            const uint8_t *const inr = ip + cur;
            xc_zopt_node *const n = &node[cur];
            /* A literal after the previous position, if no dearer. */
            {
                const xc_zopt_node *const p = &node[cur - 1];
                uint32_t const ll = node_lits(p) + 1;
                int32_t const price = p->price + (int32_t)xc_zopt_lit_price(o, inr[-1]) +
                                      (int32_t)xc_zopt_ll_step(o, ll);
                if (price <= n->price) {
                    n->price = price;
                    n->mlen = 0;
                    n->off_value = 0;
                    n->litlen = ll;
                }
            }
            if (n->mlen)
                xc_zstd_rep_next(n->rep, node[cur - n->mlen].rep, n->off_value, n->litlen == 0);
            else
                memcpy(n->rep, node[cur - 1].rep, sizeof n->rep);

            if (inr > ilimit) continue;
            if (cur == last_pos) break;
            /* btopt: a position the literal path reaches at about the
             * price of this one rarely starts a better match. */
            if (!ultra && node[cur + 1].price <= n->price + (int32_t)(XC_ZPRICE_ONE / 2)) continue;

            uint32_t const lits = node_lits(n);
            uint32_t const nb = bt_get_all(&s, matches, inr, iend, n->rep, lits == 0, mls, dict);
            if (!nb) continue;
            if (matches[nb - 1].len > sufficient || cur + matches[nb - 1].len >= XC_ZOPT_NUM) {
                last = matches[nb - 1];
                goto emit;
            }
            uint32_t const base_price = (uint32_t)n->price + xc_zopt_ll_price(o, 0);
            for (uint32_t i = 0; i < nb; i++) {
                uint32_t const ov = matches[i].off_value;
                uint32_t const op = base_price + xc_zopt_off_price(o, ov) + o->ml_base;
                uint32_t const first = i ? matches[i - 1].len + 1 : min_match;
                /* Longest first: once a shorter length fails to improve a
                 * position, btopt assumes the shorter ones will too. */
                for (uint32_t ml = matches[i].len; ml >= first; ml--) {
                    uint32_t const pos = cur + ml;
                    int32_t const price = (int32_t)(op + xc_zopt_ml_part(o, ml));
                    if (pos > last_pos || price < node[pos].price) {
                        while (last_pos < pos) node[++last_pos].price = XC_ZPRICE_MAX;
                        node[pos].price = price;
                        node[pos].off_value = ov;
                        node[pos].mlen = ml;
                        node[pos].litlen = lits;
                    } else if (!ultra) {
                        break;
                    }
                }
            }
        }
        cur = last_pos;

    emit:
        /* Read the path to cur back into o->path (last match first). */
        {
            uint32_t np = 0;
            uint32_t pos = cur;
            while (pos > 0) {
                const xc_zopt_node *const n = &node[pos];
                if (n->mlen == 0) {
                    pos = n->litlen >= pos ? 0 : pos - n->litlen;
                    continue;
                }
                o->path[np].pos = pos - n->mlen;
                o->path[np].off_value = n->off_value;
                o->path[np].len = n->mlen;
                np++;
                pos -= n->mlen;
            }
            while (np > 0) {
                const xc_zopt_step *const st = &o->path[--np];
                const uint8_t *const mstart = ip + st->pos;
                uint32_t const ll = (uint32_t)(mstart - anchor);
                xc_zput_seq(&out, ll, anchor, iend, st->off_value, st->len);
                xc_zopt_stats_add(o, anchor, ll, st->off_value, st->len);
                anchor = mstart + st->len;
            }
            if (last.len) {
                const uint8_t *const mstart = ip + cur;
                uint32_t const ll = (uint32_t)(mstart - anchor);
                xc_zput_seq(&out, ll, anchor, iend, last.off_value, last.len);
                xc_zopt_stats_add(o, anchor, ll, last.off_value, last.len);
                xc_zstd_rep_next(r, node[cur].rep, last.off_value, ll == 0);
                anchor = mstart + last.len;
                ip = anchor;
            } else {
                memcpy(r, node[cur].rep, sizeof r);
                ip += cur;
            }
        }
        xc_zopt_set_base_prices(o);
    }

    ms->next_to_update = s.next;
    xc_zcursor_close(ss, out);
    rep[0] = r[0];
    rep[1] = r[1];
    rep[2] = r[2];
    return (size_t)(iend - anchor);
}

/* One copy per parser, min_match and mode: [dict][ultra][min_match - 3];
 * dict is the attached mode (a prepared dictionary searched where it
 * lies, ms->dict; see bt_dict_walk). */
#define OPT_COPIES(name, ultra, dict)                                                       \
    XC_ZFINDER(name##_3, opt_body(ms, ss, rep, src, size, 3, ultra, dict))                  \
    XC_ZFINDER(name##_4, opt_body(ms, ss, rep, src, size, 4, ultra, dict))                  \
    XC_ZFINDER(name##_5, opt_body(ms, ss, rep, src, size, 5, ultra, dict))                  \
    XC_ZFINDER(name##_6, opt_body(ms, ss, rep, src, size, 6, ultra, dict))
OPT_COPIES(btopt, 0, 0)
OPT_COPIES(btultra, 1, 0)
OPT_COPIES(btopt_dict, 0, 1)
OPT_COPIES(btultra_dict, 1, 1)
#undef OPT_COPIES

static size_t opt_dispatch(XC_ZFINDER_ARGS, int ultra)
{
    static const xc_zstd_block_fn copies[2][2][4] = {
        {{btopt_3, btopt_4, btopt_5, btopt_6}, {btultra_3, btultra_4, btultra_5, btultra_6}},
        {{btopt_dict_3, btopt_dict_4, btopt_dict_5, btopt_dict_6},
         {btultra_dict_3, btultra_dict_4, btultra_dict_5, btultra_dict_6}},
    };
    XC_ZFINDER_RUN(copies[ms->dict != NULL][ultra != 0], 3u, 6u);
}

static size_t finder_btopt(XC_ZFINDER_ARGS) { return opt_dispatch(ms, ss, rep, src, size, 0); }

static size_t finder_btultra(XC_ZFINDER_ARGS) { return opt_dispatch(ms, ss, rep, src, size, 1); }
/* Forgets the positions [from, to) a first pass inserted: their hash
 * heads are cleared (0 is below every valid index), which leaves every
 * tree node of theirs unreachable; cells are rewritten when a position is
 * inserted again. */
static void forget_positions(xc_zmatch_state *ms, uint32_t from, uint32_t to)
{
    unsigned const key = bt_key_bytes(XC_MIN(XC_MAX(ms->p.min_match, 3u), 6u));
    for (uint32_t i = from; i < to; i++) {
        ms->hash_table[xc_zhash(ms->base + i, ms->p.hash_log, key)] = 0;
        if (ms->hash3_size) ms->hash3_table[xc_zhash(ms->base + i, ms->hash3_log, 3)] = 0;
    }
    ms->next_to_update = from;
}

static size_t finder_btultra2(XC_ZFINDER_ARGS)
{
    uint32_t const cur = (uint32_t)(src - ms->base);
    /* Only a frame's first block with nothing before it (no dictionary)
     * can be parsed twice: the first pass's tree entries must all be
     * forgotten afterwards, and there is no earlier history to keep.  An
     * attached dictionary's frames (small inputs, one block) are parsed
     * once, as libzstd does: the content supplies most of their matches,
     * and a second pass would double their cost. */
    if (!ms->dict && ms->opt->fresh && cur == ms->start && ms->next_to_update == cur &&
        size >= XC_ZSTD_HASH_READ + 4) {
        uint32_t tmp[3] = {rep[0], rep[1], rep[2]};
        xc_zseqstore const before = *ss;
        opt_dispatch(ms, ss, tmp, src, size, 1);
        *ss = before;
        forget_positions(ms, cur, (uint32_t)(cur + size - XC_ZSTD_HASH_READ + 1));
    }
    return opt_dispatch(ms, ss, rep, src, size, 1);
}

#endif
