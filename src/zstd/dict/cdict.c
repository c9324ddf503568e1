/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prepared compression dictionaries: reading a dictionary for the encoder
 * and building the tables a context starts its frames from.
 *
 * The format (RFC 8878 §5) is the decoder's (ddict.c): magic, ID,
 * Huffman tree description, FSE descriptions of offsets, match lengths and
 * literal lengths, three repeat offsets, content; anything else is raw
 * content.  The decoder turns the descriptions into decoding tables; the
 * encoder needs the same distributions as encoding tables, and the exact
 * normalized counts to price the repeat mode against a new table, so it
 * reads them again here with the decoder's readers (which also validate
 * them exactly as a decoder will).
 *
 * What it may call: the prepared dictionaries (dict/), the entropy coders
 * (entropy/) and the shared format (common/).
 */
#include <stdlib.h>

#include "zstd/dict/cdict.h"
#include "zstd/entropy/entropy_decode.h"
#include "zstd/common/xxh64.h"

/* libzstd prepares a dictionary for a source it does not know yet as if
 * the source were this small (ZSTD_createCDict: the minimum source size it
 * plans for); choosing the same parameters gives the same table sizes and
 * hence comparable speed and ratio. */
#define CDICT_PLANNED_SOURCE 513

xc_zstd_cparams xc_zstd_cdict_params(int level, size_t size)
{
    uint64_t const n = (uint64_t)size + CDICT_PLANNED_SOURCE;
    xc_zstd_cparams p = xc_zstd_adapt_params(xc_zstd_level_params(level, n), n);
    /* min_match is the level's, as libzstd plans it.  Smaller ones (5 for
     * fast, 4 for dfast) were tried for frames that search a dictionary,
     * which are mostly small: on 256 B - 4 KiB records with a 16 KiB
     * dictionary, against libzstd in the same run, they made frames up to
     * 4% larger on source code, CSV, logs and UTF-16 (level 3: CSV 1.03x,
     * source 1.015x libzstd's size, against 0.996x and 0.997x with 5) and
     * cost 2-7% of the speed.  Large inputs do not use these tables: they
     * get the level's parameters for their size (xc_zstd_dict_frame_params). */
    return p;
}

/* The Huffman tree description at p (§4.2.1), validated by the decoder's
 * reader, as an encoding table: weight w > 0 means a code of
 * depth + 1 - w bits, and xc_huf_assign_codes() makes the codes.
 * Returns the description's size; *usable is 0 for a tree the encoder's
 * stream loops cannot take (12-bit codes, which libzstd's trainer may
 * write: the first block then sends its own tree). */
static size_t read_huf(xc_huf_ctable *ct, int *usable, const uint8_t *p, size_t n)
{
    uint8_t w[XC_HUF_SYMBOL_MAX + 2];
    size_t nw, used;
    xc_huf_dtable *dt = (xc_huf_dtable *)malloc(sizeof *dt);

    RETURN_ERROR_IF(!dt, OUT_OF_MEMORY);
    used = xc_huf_read_table(dt, p, n, 0);
    free(dt);
    RETURN_ERROR_IF(xc_iserr(used), DICT_CORRUPT);

    /* The reader accepted it, so the forms below are well formed. */
    if (p[0] >= 128) {
        nw = (size_t)p[0] - 127;
        for (size_t i = 0; i < nw; i += 2) {
            w[i] = p[1 + i / 2] >> 4;
            w[i + 1] = p[1 + i / 2] & 15;
        }
    } else {
        nw = xc_fse_decode_weights(w, XC_HUF_SYMBOL_MAX, p + 1, p[0]);
        RETURN_ERROR_IF(xc_iserr(nw), DICT_CORRUPT);
    }
    uint32_t total = 0;
    for (size_t i = 0; i < nw; i++)
        if (w[i]) total += (uint32_t)1 << (w[i] - 1);
    RETURN_ERROR_IF(total == 0, DICT_CORRUPT);
    unsigned const depth = xc_highbit32(total) + 1;
    uint32_t const rest = ((uint32_t)1 << depth) - total;
    w[nw] = (uint8_t)(xc_highbit32(rest) + 1); /* the implied last weight */
    nw++;

    memset(ct, 0, sizeof *ct);
    *usable = depth <= XC_HUF_ENC_MAXBITS;
    if (!*usable) return used;
    /* Weights to lengths, in place. */
    for (size_t s = 0; s < nw; s++)
        if (w[s]) w[s] = (uint8_t)(depth + 1 - w[s]);
    xc_huf_assign_codes(ct, w, (unsigned)nw);
    return used;
}

/* One FSE description (§4.1.1) of sequence type t, with the format's limits
 * on symbols and accuracy, into the dictionary's encoding table. */
static size_t read_fse(xc_zstd_cdict *cd, unsigned t, const uint8_t *p, size_t n)
{
    unsigned const max_code = xc_zstd_seq_max_code(t);
    int16_t norm[XC_FSE_MAX_SYMBOL + 1];
    unsigned maxs = max_code, log;
    size_t const r = xc_fse_read_ncount(norm, &maxs, &log, p, n);
    RETURN_ERROR_IF(xc_iserr(r) || log > xc_zstd_seq_log_max(t) || maxs > max_code,
                    DICT_CORRUPT);
    RETURN_ERROR_IF(xc_iserr(xc_fse_build_ctable(&cd->fse[t], norm, maxs, log)), DICT_CORRUPT);
    memset(cd->norm[t], 0, sizeof cd->norm[t]);
    memcpy(cd->norm[t], norm, (maxs + 1) * sizeof norm[0]);
    cd->norm_log[t] = (uint8_t)log;
    cd->norm_max[t] = (uint8_t)maxs;
    return r;
}

/* Splits buf[0..size) into entropy tables and content. */
static size_t parse(xc_zstd_cdict *cd, size_t size)
{
    const uint8_t *const end = cd->buf + size;
    const uint8_t *p = cd->buf + 8;
    int huf_ok = 0;
    size_t r;

    cd->content = cd->buf;
    cd->content_size = size;
    if (size < 8 || xc_read_le32(cd->buf) != XC_ZSTD_MAGIC_DICTIONARY) return 0;
    cd->id = xc_read_le32(cd->buf + 4);

    r = read_huf(&cd->huf, &huf_ok, p, (size_t)(end - p));
    FORWARD_IF_ERROR(r);
    p += r;
    /* In the dictionary: offsets, match lengths, literal lengths. */
    static const unsigned order[3] = {XC_SEQ_OF, XC_SEQ_ML, XC_SEQ_LL};
    for (unsigned i = 0; i < 3; i++) {
        r = read_fse(cd, order[i], p, (size_t)(end - p));
        FORWARD_IF_ERROR(r);
        p += r;
    }
    RETURN_ERROR_IF(end - p < 12, DICT_CORRUPT);
    cd->content = p + 12;
    cd->content_size = (size_t)(end - cd->content);
    for (unsigned i = 0; i < 3; i++) {
        uint32_t const rep = xc_read_le32(p + 4 * i);
        /* §5: a repeat offset must point inside the content. */
        RETURN_ERROR_IF(rep == 0 || rep > cd->content_size, DICT_CORRUPT);
        cd->rep[i] = rep;
    }
    cd->has_entropy = huf_ok ? 3 : 2; /* bit 0: the tree, bit 1: the rest */
    return 0;
}

/* A context that already holds a dictionary's content or tables compares
 * this key instead of the bytes: equal keys mean equal content and equal
 * tables (the tables are a function of the content and the parameters), so
 * a freed dictionary replaced by another at the same address is never
 * mistaken for it. */
static uint64_t cdict_key(const xc_zstd_cdict *cd)
{
    uint32_t const q[8] = {cd->p.window_log, cd->p.chain_log, cd->p.hash_log, cd->p.search_log,
                           cd->p.min_match, cd->p.target_length, cd->p.strategy,
                           (uint32_t)cd->has_entropy};
    uint64_t k = xc_xxh64(cd->buf, (size_t)(cd->content + cd->content_size - cd->buf),
                          (uint64_t)cd->content_size);
    k = xc_xxh64(q, sizeof q, k);
    return k ? k : 1; /* 0 means "nothing held" */
}

/* The packed cells of the tables the fill wrote (see
 * xc_zstd_cdict.packed); none when a position would not fit. */
static size_t make_packed(xc_zstd_cdict *cd)
{
    const xc_zmatch_state *ms = &cd->ms;
    if (cd->content_size >= XC_ZDICT_PACKED_LIMIT - 1) return 0;
    unsigned const mls = XC_MIN(XC_MAX(cd->p.min_match, 4u), 7u);
    int const dfast = cd->p.strategy == XC_ZSTRAT_DFAST;
    size_t const n = ms->hash_size + (dfast ? ms->chain_size : 0);
    cd->packed = (uint32_t *)calloc(n, sizeof *cd->packed);
    RETURN_ERROR_IF(!cd->packed, OUT_OF_MEMORY);
    for (size_t i = 0; i < n; i++) {
        uint32_t const v = cd->tables[i];
        if (!v) continue;
        int const is_long = i < ms->hash_size;
        unsigned const log = is_long ? cd->p.hash_log : cd->p.chain_log;
        unsigned const width = is_long && dfast ? 8 : mls;
        cd->packed[i] = (v << 8) | xc_zdict_tag(xc_zhash(ms->base + v, log + 8, width));
    }
    return 0;
}

static void cdict_free(xc_zstd_cdict *cd)
{
    if (!cd) return;
    free(cd->buf);
    free(cd->packed);
    free(cd->tables);
    free(cd);
}

size_t xc_zstd_cdict_build(xc_zstd_cdict **out, const void *dict, size_t size,
                           const xc_zstd_cparams *p, int level)
{
    *out = NULL;
    RETURN_ERROR_IF(!dict && size, BAD_PARAMETER);
    RETURN_ERROR_IF(size >= (size_t)XC_ZSTD_INDEX_LIMIT / 4, BAD_PARAMETER);
    xc_zstd_cdict *cd = (xc_zstd_cdict *)calloc(1, sizeof *cd);
    RETURN_ERROR_IF(!cd, OUT_OF_MEMORY);
    cd->buf = (uint8_t *)malloc(size + 1);
    if (!cd->buf) {
        cdict_free(cd);
        return XC_ERROR(OUT_OF_MEMORY);
    }
    if (size) memcpy(cd->buf, dict, size);
    size_t r = parse(cd, size);
    if (xc_iserr(r)) {
        cdict_free(cd);
        return r;
    }
    cd->p = *p;
    cd->asked = *p;
    /* Frames raise the window (never the table sizes) to reach their
     * input, and the table layout must not change with it: above a window
     * of 16 KiB the searching strategies switch to row tables, and the
     * optimal parsers' 3-byte hash grows with the window up to 2^17 heads
     * (xc_zstd_table_layout), so such dictionaries get those windows from
     * the start. */
    if (p->strategy >= XC_ZSTRAT_GREEDY && p->strategy <= XC_ZSTRAT_LAZY2)
        cd->p.window_log = XC_MAX(cd->p.window_log, 15u);
    if (xc_zstd_hash3_log(p)) cd->p.window_log = XC_MAX(cd->p.window_log, 17u);
    p = &cd->p;
    cd->level = level;
    /* Only the last window of content can ever be matched. */
    size_t const window = (size_t)1 << p->window_log;
    if (cd->content_size > window) {
        cd->content += cd->content_size - window;
        cd->content_size = window;
    }

    /* The tables as xc_zstd_cframe_begin() lays them out. */
    xc_ztable_layout const t = xc_zstd_table_layout(p);
    cd->table_words = t.total;
    /* Aligned to a cache line as a context's tables are, so that a row of
     * cells copied back after a frame (compress_history.c) spans as few
     * lines here as there. */
    size_t const bytes = (t.total * sizeof(uint32_t) + 63) & ~(size_t)63;
    cd->tables = (uint32_t *)aligned_alloc(64, bytes);
    if (!cd->tables) {
        cdict_free(cd);
        return XC_ERROR(OUT_OF_MEMORY);
    }
    memset(cd->tables, 0, bytes);
    xc_zmatch_state *ms = &cd->ms;
    ms->base = cd->content - 1;
    ms->start = 1;
    xc_zstd_ms_place_tables(ms, cd->tables, p);
    ms->next_to_update = 1;
    xc_zstd_fill_fn const fill = xc_zstd_fill_fn_for(p->strategy);
    if (fill && cd->content_size >= XC_ZSTD_HASH_READ) fill(ms, cd->content + cd->content_size);
    if (p->strategy == XC_ZSTRAT_FAST || p->strategy == XC_ZSTRAT_DFAST) {
        r = make_packed(cd);
        if (xc_iserr(r)) {
            cdict_free(cd);
            return r;
        }
    }
    cd->key = cdict_key(cd);
    *out = cd;
    return 0;
}

xc_zstd_cdict *xc_zstd_cdict_new(const void *dict, size_t size, int level)
{
    if (level < XC_ZSTD_LEVEL_MIN || level > XC_ZSTD_LEVEL_MAX) return NULL;
    if (level == 0) level = XC_ZSTD_LEVEL_DEFAULT;
    xc_zstd_cparams const p = xc_zstd_cdict_params(level, size);
    xc_zstd_cdict *cd;
    size_t const r = xc_zstd_cdict_build(&cd, dict, size, &p, level);
    return xc_iserr(r) ? NULL : cd;
}

void xc_zstd_cdict_free(xc_zstd_cdict *cd)
{
    cdict_free(cd);
}

unsigned xc_zstd_cdict_id(const xc_zstd_cdict *cd)
{
    return cd ? cd->id : 0;
}

/* ---- for the libzstd-compatible shim (src/compat/) ---- */

XC_HIDDEN size_t xc_zstd_cdict_mem_held(const xc_zstd_cdict *cd);
XC_HIDDEN int xc_zstd_cdict_level(const xc_zstd_cdict *cd);

size_t xc_zstd_cdict_mem_held(const xc_zstd_cdict *cd)
{
    if (!cd) return 0;
    return sizeof *cd + (size_t)(cd->content + cd->content_size - cd->buf) +
           cd->table_words * sizeof(uint32_t) +
           (cd->packed ? (cd->ms.hash_size + cd->ms.chain_size) * sizeof(uint32_t) : 0);
}

int xc_zstd_cdict_level(const xc_zstd_cdict *cd)
{
    return cd ? cd->level : 0;
}
