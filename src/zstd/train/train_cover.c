/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Choosing a dictionary's content: a cover-style segment selection, after
 * Liao, Petri, Moffat and Wirth, "Effective construction of relative
 * Lempel-Ziv dictionaries" (WWW 2016), the method behind `zstd --train`.
 *
 * The idea.  A dictionary helps a sample by the matches it offers, and a
 * match is made of short pieces: a piece of d bytes (6 to 8) that occurs
 * in many samples is worth having once in the dictionary, and worth
 * nothing the second time.  So:
 *
 *   - every piece gets a frequency: the number of samples it occurs in
 *     (counted once per sample, so that one long repetitive sample cannot
 *     outvote the others);
 *   - the content is built from segments of k bytes (a few hundred to a
 *     few thousand, long enough to give long matches).  A segment's score
 *     is the sum of the frequencies of the distinct pieces in it;
 *   - the best segment is taken, and the frequencies of its pieces drop to
 *     zero, so that nothing it already covers counts again; repeat until
 *     the dictionary is full.
 *
 * Pieces are identified by a hash of f bits (20: a 4 MiB table), which
 * merges a few unrelated pieces and costs little.  Scanning every sample
 * for every segment would be quadratic, so the samples are cut into
 * epochs, as many as there are segments to take (but each at least 10 k
 * bytes long), and each round takes the best segment of one epoch,
 * visiting the epochs in turn.  One segment per stretch of the samples
 * keeps the content varied; visiting each epoch several times for fewer,
 * longer epochs was tried and did no better on JSON records.  Within an
 * epoch a window of k bytes slides over the pieces, counting how many
 * times each hash is inside it, so that the score changes only when a hash
 * enters or leaves the window.  Pieces worth nothing at either edge of the
 * chosen window are cut off, leaving room for more segments.
 *
 * Order.  zstd codes an offset in about log2(offset) bits, and the
 * dictionary sits right in front of the data, so its last bytes are the
 * cheapest to refer to.  The segments are therefore laid out by their
 * score when chosen, the best at the end (ties: the earlier in the
 * samples goes nearer the end), rather than in the order the epochs gave
 * them; on JSON records that saves about 0.7% at 110 KiB.
 *
 * What it may call: the trainer (train/).
 */
#include <stdlib.h>

#include "zstd/train/train_internal.h"

#define PIECE_PRIME 0xCF1BBCDCB7A56463ull

/* The hash of the d bytes at data[pos] (pos + d <= total).  The bytes are
 * read little-endian and moved to the top of a 64-bit word before the
 * multiplication, so the hash is the same on every host. */
static inline uint32_t piece_hash(const xc_train_samples *s, size_t pos, unsigned d, unsigned f)
{
    uint64_t v;
    if (XC_LIKELY(pos + 8 <= s->total)) {
        v = xc_read_le64(s->data + pos);
    } else {
        uint8_t b[8] = {0};
        memcpy(b, s->data + pos, d);
        v = xc_read_le64(b);
    }
    v <<= 64 - 8 * d;
    return (uint32_t)((v * PIECE_PRIME) >> (64 - f));
}

void xc_train_count(uint32_t *counts, uint32_t *seen, const xc_train_samples *s, unsigned from,
                    unsigned to, unsigned d, unsigned f)
{
    size_t pos = 0;
    for (unsigned i = 0; i < from; i++) pos += s->sizes[i];
    for (unsigned i = from; i < to; i++) {
        size_t const n = s->sizes[i];
        for (size_t j = 0; j + d <= n; j++) {
            uint32_t const h = piece_hash(s, pos + j, d, f);
            if (seen[h] != i + 1) {
                seen[h] = i + 1;
                counts[h]++;
            }
        }
        pos += n;
    }
}

/* A window of pieces. */
typedef struct {
    size_t begin;   /* first piece */
    size_t end;     /* last piece (inclusive) */
    uint64_t score;
} segment;

/* A chosen segment: its bytes, and its score when it was chosen. */
typedef struct {
    size_t begin;
    size_t len;
    uint64_t score;
} chosen_segment;

/* The best window of `win` pieces among pieces [begin, end), end - begin
 * >= win.  Ties go to the earliest window. */
static segment best_segment(const xc_train_samples *s, const uint32_t *freq, uint16_t *inside,
                            size_t begin, size_t end, size_t win, unsigned d, unsigned f)
{
    segment best = {begin, begin + win - 1, 0};
    uint64_t score = 0;
    size_t i;
    for (i = begin; i < end; i++) {
        uint32_t const h = piece_hash(s, i, d, f);
        if (inside[h]++ == 0) score += freq[h];
        if (i >= begin + win) {
            uint32_t const out = piece_hash(s, i - win, d, f);
            if (--inside[out] == 0) score -= freq[out];
        }
        if (i + 1 >= begin + win && score > best.score) {
            best.begin = i + 1 - win;
            best.end = i;
            best.score = score;
        }
    }
    /* Empty the window's counts for the next search. */
    for (i = end - win; i < end; i++) inside[piece_hash(s, i, d, f)] = 0;
    return best;
}

/* Best first; the result depends on no qsort detail, as no two segments
 * begin at the same place. */
static int by_score(const void *a, const void *b)
{
    const chosen_segment *x = (const chosen_segment *)a, *y = (const chosen_segment *)b;
    if (x->score != y->score) return x->score < y->score ? 1 : -1;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

size_t xc_train_cover(uint8_t *out, size_t cap, const xc_train_samples *s,
                      const xc_cover_params *p, const uint32_t *counts)
{
    unsigned const d = p->d, f = p->f;
    size_t const nb_pieces = s->total >= d ? s->total - d + 1 : 0;
    size_t const win = XC_MIN((size_t)(p->k - d + 1), nb_pieces);
    size_t epochs, epoch_len, tail = cap, zero_run = 0, e;
    uint32_t *freq;
    uint16_t *inside;
    chosen_segment *chosen;
    size_t nb_chosen = 0;

    if (!nb_pieces || !cap) return 0;
    freq = (uint32_t *)malloc(((size_t)1 << f) * sizeof *freq);
    inside = (uint16_t *)calloc((size_t)1 << f, sizeof *inside);
    chosen = (chosen_segment *)malloc((cap / d + 2) * sizeof *chosen);
    if (!freq || !inside || !chosen) {
        free(chosen);
        free(freq);
        free(inside);
        return XC_ERROR(OUT_OF_MEMORY);
    }
    memcpy(freq, counts, ((size_t)1 << f) * sizeof *freq);

    epochs = XC_MAX(cap / p->k, (size_t)1);
    epoch_len = nb_pieces / epochs;
    if (epoch_len < (size_t)p->k * 10) {
        epochs = XC_MAX(nb_pieces / ((size_t)p->k * 10), (size_t)1);
        epoch_len = nb_pieces / epochs;
    }

    for (e = 0; tail > 0; e = (e + 1) % epochs) {
        size_t const begin = e * epoch_len;
        size_t const end = e + 1 == epochs ? nb_pieces : begin + epoch_len;
        segment seg;
        if (end - begin < win) {
            if (++zero_run >= epochs) break;
            continue;
        }
        seg = best_segment(s, freq, inside, begin, end, win, d, f);
        if (seg.score == 0) {
            /* Every epoch in a row came up empty: nothing is left that
             * occurs in any sample. */
            if (++zero_run >= epochs) break;
            continue;
        }
        zero_run = 0;
        /* Pieces at either edge that are worth nothing only take room. */
        while (freq[piece_hash(s, seg.begin, d, f)] == 0) seg.begin++;
        while (freq[piece_hash(s, seg.end, d, f)] == 0) seg.end--;
        for (size_t i = seg.begin; i <= seg.end; i++) freq[piece_hash(s, i, d, f)] = 0;
        {
            size_t const len = XC_MIN(seg.end - seg.begin + d, tail);
            tail -= len;
            chosen[nb_chosen].begin = seg.begin;
            chosen[nb_chosen].len = len;
            chosen[nb_chosen].score = seg.score;
            nb_chosen++;
        }
    }
    qsort(chosen, nb_chosen, sizeof *chosen, by_score);
    {
        size_t at = cap;
        for (size_t i = 0; i < nb_chosen; i++) {
            at -= chosen[i].len;
            memcpy(out + at, s->data + chosen[i].begin, chosen[i].len);
        }
    }
    free(chosen);
    free(freq);
    free(inside);
    return cap - tail;
}
