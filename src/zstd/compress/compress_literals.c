/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The literals section of a compressed block (RFC 8878 §3.1.1.3.1): raw,
 * RLE, or Huffman-coded in one or four streams, with a new tree or with
 * the previous block's ("treeless").
 *
 * Choices, cheapest test first:
 *   - Negative levels keep literals raw: skipping the histogram and the
 *     Huffman pass is most of what makes them faster than level 1.
 *   - Too few literals to pay for a tree stay raw; when the previous tree
 *     can be reused (no description to send) the bar is much lower.
 *   - One distinct byte is RLE: 1 byte of payload.
 *   - A flat histogram (no byte much above the average) will not gain the
 *     few percent a Huffman section must gain to be worth its header:
 *     raw, without building a tree.
 *   - Otherwise the previous tree is reused when it covers every byte
 *     present and codes them at most as well as a new tree plus its
 *     description; for small sections at the fast levels it is reused
 *     whenever it covers them, which saves building a tree for a gain that
 *     would be a few bytes.
 *   - The result must gain at least min_gain() over raw, else raw: a
 *     decoder decodes raw literals faster than Huffman ones.
 *
 * Four streams from 256 literals up (the decoder runs them interleaved);
 * below that, and for treeless sections that fit the 3-byte header, one.
 * The single-stream format only exists with 10-bit sizes, so a
 * single-stream section always uses the 3-byte header.
 *
 * What it may call: the encoder (compress/).
 */
#include "zstd/compress/compress_kernels.h"

enum { LIT_RAW = 0, LIT_RLE = 1, LIT_COMPRESSED = 2, LIT_TREELESS = 3 };

size_t xc_zstd_min_gain(size_t n, unsigned strategy)
{
    /* The strongest strategies accept smaller gains: their users pay for
     * every byte. */
    unsigned shift = strategy >= XC_ZSTRAT_BTULTRA ? strategy - 1 : 6;
    return (n >> shift) + 2;
}

/* Header of a raw or RLE section: 1, 2 or 3 bytes for sizes below 32,
 * 4096 and 2^20 (Size_Format 00/10, 01, 11). */
static size_t write_plain_header(uint8_t *dst, unsigned type, size_t n)
{
    if (n < 32) {
        dst[0] = (uint8_t)(type | (n << 3));
        return 1;
    }
    if (n < 4096) {
        xc_write_le16(dst, (uint16_t)(type | (1u << 2) | (n << 4)));
        return 2;
    }
    xc_write_le24(dst, (uint32_t)(type | (3u << 2) | (n << 4)));
    return 3;
}

static size_t plain_header_size(size_t n) { return 1 + (n >= 32) + (n >= 4096); }

size_t xc_zstd_literals_raw(uint8_t *dst, size_t cap, const uint8_t *lit, size_t n)
{
    size_t const h = plain_header_size(n);
    RETURN_ERROR_IF(h + n > cap, DST_TOO_SMALL);
    write_plain_header(dst, LIT_RAW, n);
    if (n) memcpy(dst + h, lit, n);
    return h + n;
}

static size_t literals_rle(uint8_t *dst, size_t cap, uint8_t byte, size_t n)
{
    size_t const h = plain_header_size(n);
    RETURN_ERROR_IF(h + 1 > cap, DST_TOO_SMALL);
    write_plain_header(dst, LIT_RLE, n);
    dst[h] = byte;
    return h + 1;
}

/* Smallest section worth a Huffman attempt: fewer literals than this stay
 * raw.  With a reusable tree there is no description to amortise. */
static size_t min_literals_to_compress(unsigned strategy, int can_repeat)
{
    unsigned shift = strategy >= 9 ? 0 : XC_MIN(9 - strategy, 3u);
    return can_repeat ? 6 : (size_t)8 << shift;
}

/* Whether ct has a code for each of lit[0..n); *bits gets the codes'
 * total length (meaningful when it has). */
static int codes_every_byte(const xc_huf_ctable *ct, const uint8_t *lit, size_t n, size_t *bits)
{
    unsigned missing = 0;
    size_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned const len = (unsigned)(ct->elt[lit[i]] & 0xFF);
        missing |= (lit[i] > ct->max_symbol) | (len == 0);
        sum += len;
    }
    *bits = sum;
    return !missing;
}

/* What a section that stays raw returns: the raw section, or 0 when the
 * caller has said it would be of no use (see xc_zstd_encode_literals). */
static size_t raw_section(int raw_useless, uint8_t *dst, size_t cap, const uint8_t *lit, size_t n)
{
    return raw_useless ? 0 : xc_zstd_literals_raw(dst, cap, lit, n);
}

/* Bytes of each end of a section that sample_looks_flat() counts, and the
 * smallest section it is tried on (10 times the sample). */
#define SAMPLE_BYTES 4096
#define SAMPLE_MIN_SECTION (10 * SAMPLE_BYTES)

/* Whether the first and last SAMPLE_BYTES of lit[0..n) look as flat as
 * random bytes: no byte much above the average in either, by the same
 * bound the whole section is held to below.  For a block that is nearly
 * all literals (incompressible data: compressed media, archives,
 * encrypted or random bytes), counting 8 KiB instead of up to 128 KiB
 * makes the section's cost a copy.  libzstd samples the same way. */
static int sample_looks_flat(const uint8_t *lit, size_t n)
{
    unsigned count[256];
    unsigned max_symbol;
    unsigned largest = xc_hist_count(count, &max_symbol, lit, SAMPLE_BYTES);
    largest += xc_hist_count(count, &max_symbol, lit + n - SAMPLE_BYTES, SAMPLE_BYTES);
    return largest <= ((2 * SAMPLE_BYTES) >> 7) + 4;
}

size_t xc_zstd_encode_literals(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *lit,
                               size_t n, int raw_useless, unsigned *commit)
{
    xc_zentropy *const e = &c->ent;
    unsigned const strategy = c->p.strategy;
    unsigned count[256];
    unsigned max_symbol;

    *commit = 0;
    if (strategy == XC_ZSTRAT_FAST && c->p.target_length > 0)
        return raw_section(raw_useless, dst, cap, lit, n);
    if (n < min_literals_to_compress(strategy, e->huf_valid))
        return raw_section(raw_useless, dst, cap, lit, n);

    size_t const lh = 3 + (n >= 1024) + (n >= 16384);
    const xc_huf_ctable *prev = &e->huf[e->huf_cur];
    const xc_huf_ctable *ct = prev;
    uint8_t table[XC_HUF_TABLE_BOUND];
    size_t table_size = 0;
    int treeless = 1;

    /* Every choice below depends on the literals alone, never on how much
     * room dst has: a smaller destination may only turn success into
     * XC_ERROR(DST_TOO_SMALL), not into different bytes.
     *
     * Small sections at the fast levels reuse the tree in force (a
     * dictionary's, typically) whenever it has a code for every byte they
     * hold, with no histogram: counting, and the choices it feeds, would
     * cost more than they could gain there (libzstd makes the same call for
     * a table it knows to be complete).  Checking the bytes against the
     * tree costs n lookups, less than clearing a histogram. */
    size_t prev_bits = 0;
    if (e->huf_valid && strategy < XC_ZSTRAT_LAZY && n <= 1024 &&
        codes_every_byte(prev, lit, n, &prev_bits)) {
        /* The streams take at least the codes' bits: when those miss
         * min_gain, the section ends raw whatever is tried (incompressible
         * records under a dictionary's tree), so it goes raw now. */
        if (prev_bits / 8 + xc_zstd_min_gain(n, strategy) >= n)
            return raw_section(raw_useless, dst, cap, lit, n);
    } else {
        /* Nearly all literals (one sequence per 20 literals or fewer) and
         * flat at both ends: raw without counting the rest. */
        size_t const nb_seq = c->ss.nb_seq;
        if (n >= SAMPLE_MIN_SECTION && (nb_seq == 0 || n / nb_seq >= 20) &&
            sample_looks_flat(lit, n))
            return raw_section(raw_useless, dst, cap, lit, n);
        unsigned const largest = xc_hist_count(count, &max_symbol, lit, n);
        if (largest == n) return literals_rle(dst, cap, lit[0], n);
        if (largest <= (n >> 7) + 4) return raw_section(raw_useless, dst, cap, lit, n);
        int const can_repeat = e->huf_valid && xc_huf_valid_for(prev, count, max_symbol);
        size_t const gain = xc_zstd_min_gain(n, strategy);
        size_t const prev_bytes = can_repeat ? xc_huf_estimate_size(prev, count, max_symbol) : 0;
        /* Each path's streams take at least a bound: the codes' bits of the
         * tree in force, and for a new tree the histogram's entropy (no
         * prefix code does better) plus a byte of description.  When every
         * path misses min_gain the section ends raw whatever is tried, so
         * it goes raw before any tree is built (incompressible records,
         * with or without a dictionary's tree); the same bytes come out.
         * Below 1 KiB the entropy of a few hundred bytes stays under what
         * the test needs (log2 of the distinct bytes would have to be
         * nearly 8), and computing it cost more than the tree it spared. */
        int const prev_misses = !can_repeat || prev_bytes + gain >= n;
        if (prev_misses && n >= 1024 &&
            xc_huf_payload_floor(count, max_symbol, n) + 1 + gain >= n)
            return raw_section(raw_useless, dst, cap, lit, n);
        xc_huf_ctable *const fresh = &e->huf[e->huf_cur ^ 1];
        /* The slow levels (btultra and up, libzstd's threshold too) take
         * the depth limit that makes description plus streams smallest:
         * 3-5% of 200-byte sections.  It also writes the description. */
        int const smallest = strategy >= XC_ZSTRAT_BTULTRA;
        size_t const depth =
            smallest ? xc_huf_build_smallest(fresh, count, max_symbol, table, sizeof table,
                                             &table_size)
                     : xc_huf_build_ctable(fresh, count, max_symbol, XC_HUF_ENC_MAXBITS);
        FORWARD_IF_ERROR(depth);
        if (depth == 0) return raw_section(raw_useless, dst, cap, lit, n);
        /* The streams take at least the codes' bits (fresh_bytes rounds
         * them down) and a new tree's description at least a byte: when
         * that alone misses min_gain, and so does the tree in force
         * (prev_misses), every path below ends raw, so the
         * description is not even written (incompressible small sections,
         * where writing it was a quarter of the block's time).  The same
         * bytes come out either way. */
        size_t const fresh_bytes = xc_huf_estimate_size(fresh, count, max_symbol);
        if (prev_misses && fresh_bytes + 1 + gain >= n)
            return raw_section(raw_useless, dst, cap, lit, n);
        if (!smallest) {
            table_size = xc_huf_write_table(table, sizeof table, fresh);
            FORWARD_IF_ERROR(table_size);
        }
        /* 0: the table cannot be described (all 256 symbols at 8 bits, or
         * weights that do not compress into 127 bytes); only the previous
         * table or raw literals remain. */
        if (table_size == 0 && !can_repeat) return raw_section(raw_useless, dst, cap, lit, n);
        size_t const new_size = fresh_bytes + table_size;
        if (can_repeat && (table_size == 0 ||
                           prev_bytes <= new_size ||
                           table_size + 12 >= n)) {
            ct = prev;
            treeless = 1;
            table_size = 0;
        } else {
            if (table_size + 12 >= n) return raw_section(raw_useless, dst, cap, lit, n);
            ct = fresh;
            treeless = 0;
        }
    }

    RETURN_ERROR_IF(cap < lh + 1, DST_TOO_SMALL);
    uint8_t *const body = dst + lh;
    size_t const body_cap = cap - lh;

    /* The streams go straight to dst, in at most `need` bytes: longer
     * ones are never worth it.  When dst is shorter than that, streams
     * that do not fit give the same result as if they had been written
     * elsewhere: they are longer than the room, so are the raw literals
     * (which take more still, or the streams would have been refused), and
     * raw_section() reports that dst is too small. */
    int const single = n < 256 || (treeless && lh == 3);
    size_t const need = table_size + n + 8 + (single ? 0 : 6);
    size_t const room = XC_MIN(need, body_cap);
    if (table_size > room) return raw_section(raw_useless, dst, cap, lit, n);
    if (table_size) memcpy(body, table, table_size);
    size_t const streams =
        single ? c->kern->huf_1x(body + table_size, room - table_size, lit, n, ct)
               : c->kern->huf_4x(body + table_size, room - table_size, lit, n, ct);
    if (streams == XC_ERROR(DST_TOO_SMALL)) return raw_section(raw_useless, dst, cap, lit, n);
    FORWARD_IF_ERROR(streams);
    size_t const csize = table_size + streams;
    if (csize + xc_zstd_min_gain(n, strategy) >= n) return raw_section(raw_useless, dst, cap, lit, n);

    uint32_t const type = treeless ? LIT_TREELESS : LIT_COMPRESSED;
    switch (lh) {
    case 3:
        xc_write_le24(dst, type | ((uint32_t)!single << 2) | ((uint32_t)n << 4) |
                               ((uint32_t)csize << 14));
        break;
    case 4:
        xc_write_le32(dst, type | (2u << 2) | ((uint32_t)n << 4) | ((uint32_t)csize << 18));
        break;
    default:
        xc_write_le32(dst, type | (3u << 2) | ((uint32_t)n << 4) | ((uint32_t)csize << 22));
        dst[4] = (uint8_t)(csize >> 10);
        break;
    }
    if (!treeless) *commit = XC_ZCOMMIT_HUF;
    return lh + csize;
}
