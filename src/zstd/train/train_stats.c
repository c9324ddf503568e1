/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the encoder makes of the samples with a dictionary's content in
 * front of them: the statistics behind the dictionary's entropy tables,
 * and an estimate of the compressed size to compare candidate contents.
 *
 * Each sample is parsed as the first block of a frame whose history is
 * the content and nothing else, with the double-fast finder of level 3
 * (the level the dictionary is tuned for, as libzstd's trainer is).  The
 * content is hashed once, every position into both of the finder's tables
 * (the latest occurrence wins, which is also the nearest and so the
 * cheapest offset), and a snapshot of the tables is kept.  Parsing a
 * sample adds entries for positions inside it only, at the hashes of
 * those positions; afterwards the same hashes are computed again and
 * those entries taken back from the snapshot, which costs as much as the
 * sample instead of as much as the tables.
 *
 * What it may call: the encoder (compress/) and the trainer (train/).
 */
#include <stdlib.h>

#include "zstd/compress/compress_internal.h"
#include "zstd/train/train_internal.h"

static void count_block(xc_train_stats *st, const xc_zseqstore *ss, const uint8_t *tail,
                        size_t tail_len)
{
    for (size_t i = 0; i < ss->nb_seq; i++) {
        const xc_zseq *q = &ss->seq[i];
        unsigned const llc = xc_zstd_ll_code(xc_zseq_lit_len(ss, q));
        unsigned const mlc = xc_zstd_ml_code(xc_zseq_match_len(ss, q) - 3);
        unsigned const ofc = xc_zstd_of_code(q->off_value);
        st->ll[llc]++;
        st->ml[mlc]++;
        st->of[ofc]++;
        st->extra_bits += (uint64_t)xc_zstd_ll_bits(llc) + xc_zstd_ml_bits(mlc) + ofc;
    }
    st->nb_seq += ss->nb_seq;
    for (const uint8_t *p = ss->lit; p < ss->lit_end; p++) st->lit[*p]++;
    for (size_t i = 0; i < tail_len; i++) st->lit[tail[i]]++;
    st->nb_lit += (uint64_t)(ss->lit_end - ss->lit) + tail_len;
}

size_t xc_train_stats_collect(xc_train_stats *st, const uint8_t *content, size_t size,
                              const xc_train_samples *s, unsigned first, unsigned count)
{
    size_t pos = 0, longest = 0, result = 0;
    xc_zstd_cparams p;
    xc_zstd_cctx *c;
    uint8_t *buf = NULL;
    uint32_t *saved = NULL;

    for (unsigned i = 0; i < first; i++) pos += s->sizes[i];
    for (unsigned i = first; i < first + count; i++) longest = XC_MAX(longest, s->sizes[i]);
    longest = XC_MIN(longest, (size_t)XC_ZSTD_BLOCK_SIZE_MAX);

    p = xc_zstd_level_params(3, (uint64_t)size + longest);
    p.strategy = XC_ZSTRAT_DFAST;
    c = xc_zstd_cctx_new();
    buf = (uint8_t *)malloc(size + longest + 16);
    if (!c || !buf) goto oom;
    memcpy(buf, content, size);
    if (xc_iserr(xc_zstd_cframe_begin(c, &p, buf, size + longest))) goto oom;

    {
        xc_zmatch_state *const ms = &c->ms;
        uint32_t *const hlong = ms->hash_table;
        uint32_t *const hshort = ms->chain_table;
        unsigned const llog = ms->p.hash_log, slog = ms->p.chain_log;
        unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
        size_t const words = ms->hash_size + ms->chain_size;

        for (size_t i = 0; i + 8 <= size; i++) {
            uint32_t const idx = ms->start + (uint32_t)i;
            hlong[xc_zhash(buf + i, llog, 8)] = idx;
            hshort[xc_zhash(buf + i, slog, mls)] = idx;
        }
        saved = (uint32_t *)malloc(words * sizeof *saved);
        if (!saved) goto oom;
        memcpy(saved, hlong, ms->hash_size * sizeof *saved);
        memcpy(saved + ms->hash_size, hshort, ms->chain_size * sizeof *saved);

        for (unsigned i = first; i < first + count; i++) {
            size_t const n = XC_MIN(s->sizes[i], longest);
            uint8_t *const src = buf + size;
            uint32_t rep[3];
            size_t last;
            xc_zstd_rep_init(rep);
            memcpy(src, s->data + pos, n);
            memset(src + n, 0, 8);
            pos += s->sizes[i];
            xc_zseqstore_clear(&c->ss);
            last = c->finder(ms, &c->ss, rep, src, n);
            count_block(st, &c->ss, src + n - last, last);
            for (size_t j = 0; j < n; j++) {
                size_t const hl = xc_zhash(src + j, llog, 8);
                size_t const hs = xc_zhash(src + j, slog, mls);
                hlong[hl] = saved[hl];
                hshort[hs] = saved[ms->hash_size + hs];
            }
        }
    }
    goto done;
oom:
    result = XC_ERROR(OUT_OF_MEMORY);
done:
    free(saved);
    free(buf);
    xc_zstd_cctx_free(c);
    return result;
}

/* log2(x) in 16.16 fixed point, x >= 1: the integer part is the top bit;
 * each squaring of the mantissa (a number in [1, 2)) doubles its
 * logarithm, and a result of 2 or more reveals the next fractional bit. */
static uint64_t log2_fixed(uint64_t x)
{
    unsigned const hb = 63u - (unsigned)__builtin_clzll(x);
    uint64_t m = hb >= 31 ? x >> (hb - 31) : x << (31 - hb);
    uint64_t r = (uint64_t)hb << 16;
    for (int i = 15; i >= 0; i--) {
        m = (m * m) >> 31;
        if (m >= ((uint64_t)1 << 32)) {
            m >>= 1;
            r |= (uint64_t)1 << i;
        }
    }
    return r;
}

static uint64_t entropy_bits(const unsigned *count, unsigned n)
{
    uint64_t total = 0, sum = 0;
    for (unsigned i = 0; i < n; i++) total += count[i];
    if (!total) return 0;
    uint64_t const lt = log2_fixed(total);
    for (unsigned i = 0; i < n; i++)
        if (count[i]) sum += (uint64_t)count[i] * (lt - log2_fixed(count[i]));
    return sum >> 16;
}

uint64_t xc_train_stats_cost(const xc_train_stats *st)
{
    return entropy_bits(st->lit, 256) + entropy_bits(st->ll, XC_ZSTD_LL_MAX + 1) +
           entropy_bits(st->ml, XC_ZSTD_ML_MAX + 1) + entropy_bits(st->of, XC_ZSTD_OF_MAX + 1) +
           st->extra_bits;
}
