/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xc_zstd_train_dictionary(): a dictionary in the format of RFC 8878 §5,
 *
 *   magic 0xEC30A437 | ID | Huffman table for literals | FSE tables for
 *   offset codes, match length codes, literal length codes | repeat
 *   offsets 1, 4, 8 | content
 *
 * The content comes from the segment selection of train_cover.c.
 * Its segment size k matters (short segments pick many distinct phrases,
 * long ones keep long matches whole), so a few values are tried: each
 * selects a content from the first three quarters of the samples, which
 * is scored by the estimated compressed size of the last quarter, and the
 * best k then selects the content from all samples.
 *
 * The tables describe what the encoder produces for the samples with that
 * content in front (train_stats.c).  A frame's first block may reuse
 * them instead of sending its own (treeless literals, the repeat mode for
 * sequences), which matters most for records of a few hundred bytes,
 * where a table description can cost as much as the data.  Every symbol
 * gets a count of at least one, so the tables can code anything: an
 * encoder may then repeat them for any block.  The offset table covers
 * every offset code up to the content size plus a block (what libzstd
 * requires to repeat it without checking).
 *
 * The ID is a hash of the rest of the dictionary, moved into the range
 * §5 leaves to anyone: IDs below 32768 and from 2^31 up are reserved.
 *
 * What it may call: the encoder (compress/) and the trainer (train/).
 */
#include <stdlib.h>

#include "zstd/compress/compress_internal.h"
#include "zstd/train/train_internal.h"

#define DICT_HEADER_FIXED 20 /* magic, ID, three repeat offsets */
#define PIECE_LOG 20
#define PIECE_LEN 8

/* Maximal accuracy: the tables are sent once, in the dictionary. */
#define OF_LOG XC_ZSTD_OF_LOG_MAX
#define ML_LOG XC_ZSTD_ML_LOG_MAX
#define LL_LOG XC_ZSTD_LL_LOG_MAX

static size_t header_bound(void)
{
    return DICT_HEADER_FIXED + XC_HUF_TABLE_BOUND +
           xc_fse_ncount_bound(XC_ZSTD_OF_MAX, OF_LOG) +
           xc_fse_ncount_bound(XC_ZSTD_ML_MAX, ML_LOG) +
           xc_fse_ncount_bound(XC_ZSTD_LL_MAX, LL_LOG);
}

/* The Huffman table of the literals.  A description of 256 symbols must
 * FSE-compress its weights into 127 bytes (§4.2.1.1), which fails only for
 * nearly uniform literals, for which no table helps; they get a table with
 * two code lengths instead, which always fits. */
static size_t write_huffman(uint8_t *dst, size_t cap, const unsigned *lit)
{
    unsigned count[256];
    xc_huf_ctable ct;
    size_t r;
    for (unsigned s = 0; s < 256; s++) count[s] = lit[s] + 1;
    r = xc_huf_build_ctable(&ct, count, 255, XC_HUF_ENC_MAXBITS);
    if (xc_iserr(r)) return r;
    r = xc_huf_write_table(dst, cap, &ct);
    if (r) return r;
    for (unsigned s = 0; s < 256; s++) count[s] = s < 128 ? 64 : 1;
    r = xc_huf_build_ctable(&ct, count, 255, XC_HUF_ENC_MAXBITS);
    if (xc_iserr(r)) return r;
    r = xc_huf_write_table(dst, cap, &ct);
    return r ? r : XC_ERROR(GENERIC);
}

/* One FSE table description of counts[0..max] (each raised by one). */
static size_t write_fse(uint8_t *dst, size_t cap, const unsigned *counts, unsigned max,
                        unsigned log)
{
    unsigned count[64];
    int16_t norm[64];
    size_t total = 0, r;
    for (unsigned s = 0; s <= max; s++) {
        count[s] = counts[s] + 1;
        total += count[s];
    }
    r = xc_fse_normalize(norm, log, count, total, max, 1);
    if (xc_iserr(r)) return r;
    return xc_fse_write_ncount(dst, cap, norm, max, log);
}

/* The tables for content_size bytes of content, from *st.  Returns the
 * size written to head[0..cap) (after the 8 bytes of magic and ID, which
 * the caller writes), or an error. */
static size_t write_tables(uint8_t *head, size_t cap, const xc_train_stats *st,
                           size_t content_size)
{
    size_t pos = 0, r;
    uint64_t const reach = (uint64_t)content_size + XC_ZSTD_BLOCK_SIZE_MAX;
    unsigned const of_max =
        reach >= ((uint64_t)1 << XC_ZSTD_OF_MAX) ? XC_ZSTD_OF_MAX : xc_highbit32((uint32_t)reach);

    r = write_huffman(head, cap, st->lit);
    FORWARD_IF_ERROR(r);
    pos += r;
    r = write_fse(head + pos, cap - pos, st->of, of_max, OF_LOG);
    FORWARD_IF_ERROR(r);
    pos += r;
    r = write_fse(head + pos, cap - pos, st->ml, XC_ZSTD_ML_MAX, ML_LOG);
    FORWARD_IF_ERROR(r);
    pos += r;
    r = write_fse(head + pos, cap - pos, st->ll, XC_ZSTD_LL_MAX, LL_LOG);
    FORWARD_IF_ERROR(r);
    pos += r;
    RETURN_ERROR_IF(cap - pos < 12, GENERIC);
    /* RFC 8878 §3.1.2.5: the usual initial repeat offsets. */
    {
        uint32_t rep[3];
        xc_zstd_rep_init(rep);
        for (unsigned i = 0; i < 3; i++) xc_write_le32(head + pos + 4 * i, rep[i]);
    }
    return pos + 12;
}

/* The segment size: the candidate whose content, chosen from the first
 * `first` samples (with their counts), gives the others the smallest
 * estimated size.  Ties go to the earlier candidate. */
static size_t choose_k(unsigned *best_k, uint8_t *scratch, size_t cap, const xc_train_samples *s,
                       unsigned first, const uint32_t *counts)
{
    static const unsigned candidates[] = {256, 512, 1024, 2048};
    uint64_t best = UINT64_MAX;
    xc_train_samples train = *s;

    train.nb = first;
    train.total = 0;
    for (unsigned i = 0; i < first; i++) train.total += s->sizes[i];
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        xc_cover_params const p = {candidates[i], PIECE_LEN, PIECE_LOG};
        xc_train_stats st;
        size_t const n = xc_train_cover(scratch, cap, &train, &p, counts);
        FORWARD_IF_ERROR(n);
        memset(&st, 0, sizeof st);
        size_t const r = xc_train_stats_collect(&st, scratch + cap - n, n, s, first, s->nb - first);
        FORWARD_IF_ERROR(r);
        uint64_t const cost = xc_train_stats_cost(&st);
        if (cost < best) {
            best = cost;
            *best_k = candidates[i];
        }
    }
    return 0;
}

/* The content: the best k is chosen on the first three quarters of the
 * samples, then used on all of them.  The pieces' counts for the first
 * three quarters are completed for the rest, not counted again. */
static size_t select_content(uint8_t *content, size_t cap, const xc_train_samples *s)
{
    size_t const table = (size_t)1 << PIECE_LOG;
    unsigned const first = s->nb - s->nb / 4;
    xc_cover_params p = {1024, PIECE_LEN, PIECE_LOG};
    uint32_t *const counts = (uint32_t *)calloc(table, sizeof *counts);
    uint32_t *const seen = (uint32_t *)calloc(table, sizeof *seen);
    size_t r = XC_ERROR(OUT_OF_MEMORY);

    if (counts && seen) {
        xc_train_count(counts, seen, s, 0, first, PIECE_LEN, PIECE_LOG);
        r = choose_k(&p.k, content, cap, s, first, counts);
        if (!xc_iserr(r)) {
            xc_train_count(counts, seen, s, first, s->nb, PIECE_LEN, PIECE_LOG);
            r = xc_train_cover(content, cap, s, &p, counts);
        }
    }
    free(seen);
    free(counts);
    return r;
}

static size_t train(uint8_t *dict, size_t dict_cap, const xc_train_samples *s, uint8_t *content)
{
    size_t const bound = header_bound();
    uint8_t head[1024];
    xc_train_stats st;
    size_t n, stat_size, tables, hsize, keep, r;
    uint64_t h;

    /* XC_ZSTD_TRAIN_MIN_DICT leaves room for the largest tables. */
    RETURN_ERROR_IF(dict_cap < bound + 64, DST_TOO_SMALL);
    n = select_content(content, dict_cap, s);
    FORWARD_IF_ERROR(n);
    RETURN_ERROR_IF(n < 8, SAMPLES_TOO_SMALL);

    /* The statistics use the part of the content that is sure to fit
     * after the tables: the final content is at least that long, and it
     * ends the same way, so every offset found stays the same. */
    stat_size = XC_MIN(n, dict_cap - bound);
    memset(&st, 0, sizeof st);
    r = xc_train_stats_collect(&st, content + dict_cap - stat_size, stat_size, s, 0, s->nb);
    FORWARD_IF_ERROR(r);
    tables = write_tables(head + 8, sizeof head - 8, &st, n);
    FORWARD_IF_ERROR(tables);
    hsize = 8 + tables;
    keep = XC_MIN(n, dict_cap - hsize);

    xc_write_le32(head, XC_ZSTD_MAGIC_DICTIONARY);
    memcpy(dict, head, hsize);
    memcpy(dict + hsize, content + dict_cap - keep, keep);
    h = xc_xxh64(dict + 8, hsize - 8 + keep, 0);
    xc_write_le32(dict + 4, (uint32_t)(32768u + h % ((1u << 31) - 32768u)));
    return hsize + keep;
}

size_t xc_zstd_train_dictionary(void *dict, size_t dict_cap, const void *samples,
                                const size_t *sample_sizes, unsigned nb_samples)
{
    xc_train_samples s;
    uint8_t *content;
    size_t r;

    RETURN_ERROR_IF(!dict || (nb_samples && (!samples || !sample_sizes)), BAD_PARAMETER);
    RETURN_ERROR_IF(nb_samples < XC_ZSTD_TRAIN_MIN_SAMPLES, TOO_FEW_SAMPLES);
    s.data = (const uint8_t *)samples;
    s.sizes = sample_sizes;
    s.nb = nb_samples;
    s.total = 0;
    for (unsigned i = 0; i < nb_samples; i++) {
        RETURN_ERROR_IF(sample_sizes[i] > SIZE_MAX - s.total, BAD_PARAMETER);
        s.total += sample_sizes[i];
    }
    /* Sample numbers and positions within the parsed history are 32-bit. */
    RETURN_ERROR_IF((uint64_t)s.total >= ((uint64_t)1 << 32) - 1, BAD_PARAMETER);
    RETURN_ERROR_IF(s.total < XC_ZSTD_TRAIN_MIN_BYTES, SAMPLES_TOO_SMALL);
    RETURN_ERROR_IF(dict_cap < XC_ZSTD_TRAIN_MIN_DICT, DST_TOO_SMALL);

    content = (uint8_t *)malloc(dict_cap);
    RETURN_ERROR_IF(!content, OUT_OF_MEMORY);
    r = train((uint8_t *)dict, dict_cap, &s, content);
    free(content);
    return r;
}

/* ---- finalizing given content (libzstd's ZDICT_finalizeDictionary) ---------- */

size_t xc_zstd_finalize_dictionary(void *dict_, size_t dict_cap, const void *content_,
                                   size_t content_size, const void *samples,
                                   const size_t *sample_sizes, unsigned nb_samples,
                                   unsigned dict_id)
{
    uint8_t *const dict = (uint8_t *)dict_;
    const uint8_t *const content = (const uint8_t *)content_;
    size_t const bound = header_bound();
    xc_train_samples s;
    xc_train_stats st;
    uint8_t head[1024];

    RETURN_ERROR_IF(!dict || (!content && content_size) ||
                        (nb_samples && (!samples || !sample_sizes)),
                    BAD_PARAMETER);
    RETURN_ERROR_IF(nb_samples == 0, TOO_FEW_SAMPLES);
    RETURN_ERROR_IF(content_size < 8, SAMPLES_TOO_SMALL);
    RETURN_ERROR_IF(dict_cap < bound + 8, DST_TOO_SMALL);
    s.data = (const uint8_t *)samples;
    s.sizes = sample_sizes;
    s.nb = nb_samples;
    s.total = 0;
    for (unsigned i = 0; i < nb_samples; i++) {
        RETURN_ERROR_IF(sample_sizes[i] > SIZE_MAX - s.total, BAD_PARAMETER);
        s.total += sample_sizes[i];
    }
    RETURN_ERROR_IF((uint64_t)s.total >= ((uint64_t)1 << 32) - 1, BAD_PARAMETER);

    /* As in training: the statistics use the end of the content that is
     * sure to fit after the tables, and are taken before anything is
     * written, since the content may lie inside dict (at its end, where
     * libzstd's callers put it). */
    size_t const stat_size = XC_MIN(content_size, dict_cap - bound);
    memset(&st, 0, sizeof st);
    FORWARD_IF_ERROR(xc_train_stats_collect(&st, content + content_size - stat_size, stat_size,
                                            &s, 0, s.nb));
    size_t const tables = write_tables(head + 8, sizeof head - 8, &st, content_size);
    FORWARD_IF_ERROR(tables);
    size_t const hsize = 8 + tables;
    size_t const keep = XC_MIN(content_size, dict_cap - hsize);
    xc_write_le32(head, XC_ZSTD_MAGIC_DICTIONARY);
    memmove(dict + hsize, content + content_size - keep, keep);
    memcpy(dict, head, hsize);
    if (dict_id == 0) {
        uint64_t const h = xc_xxh64(dict + 8, hsize - 8 + keep, 0);
        dict_id = (uint32_t)(32768u + h % ((1u << 31) - 32768u));
    }
    xc_write_le32(dict + 4, dict_id);
    return hsize + keep;
}
