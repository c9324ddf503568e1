/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd compression: frames, blocks and the one-shot and context API.
 *
 * A frame (RFC 8878 §3.1.1) is the magic number, a header, blocks of at
 * most min(window, 128 KiB) bytes of content each, and optionally the low
 * 32 bits of the content's XXH64.  The header records the content size
 * when it is known (one-shot, or a streamed frame with a pledged size) and
 * then uses the single-segment form whenever the window covers the whole
 * content, which saves the window byte and lets decoders size one buffer.
 *
 * Each block is parsed by the strategy's match finder into sequences, then
 * encoded; it goes out as whichever is smallest of the compressed form, the
 * raw bytes, or (for a block of one repeated byte) an RLE block.  The state
 * a decoder keeps between blocks (repeat offsets, the Huffman tree and the
 * three FSE tables that may be repeated) only changes when a compressed
 * block goes out: a raw or RLE block leaves the decoder's state alone, so
 * the encoder rolls its own back too.
 *
 * Every write is checked against the destination's end: a destination that
 * is too small yields XC_ERROR_DST_TOO_SMALL and nothing past dst + cap is
 * ever touched.
 *
 * What it may call: the dispatch table (cpucap.h), the encoder (compress/)
 * and the match state and searches (compress/match/).
 */
#include <stdint.h>
#include <stdlib.h>

#include "cpucap.h"
#include "zstd/compress/compress_kernels.h"
#include "zstd/compress/match/match_ldm.h"

int xc_zstd_min_level(void) { return XC_ZSTD_LEVEL_MIN; }
int xc_zstd_max_level(void) { return XC_ZSTD_LEVEL_MAX; }
int xc_zstd_default_level(void) { return XC_ZSTD_LEVEL_DEFAULT; }

size_t xc_zstd_compress_bound(size_t n)
{
    /* Raw blocks cost 3 bytes per 128 KiB and the frame at most 22 bytes
     * of header and checksum; the formula (libzstd's, so buffers sized for
     * either library suit both) leaves more than that at every size. */
    RETURN_ERROR_IF(n > SIZE_MAX / 2, BAD_PARAMETER);
    size_t const small = (size_t)128 << 10;
    return n + (n >> 8) + (n < small ? (small - n) >> 11 : 0);
}

/* ---- parameters --------------------------------------------------------------- */

xc_zstd_cparams xc_zstd_cframe_params(const xc_zstd_cctx *c, uint64_t src_size)
{
    if (c->cdict) return xc_zstd_dict_frame_params(c, src_size);
    xc_zstd_cparams p = xc_zstd_level_params(c->level, src_size);
    if (c->ldm_enable == 1) p.window_log = XC_ZLDM_WINDOW_LOG;
    return xc_zstd_adapt_params(xc_zstd_override_params(p, &c->req), src_size);
}

/* ---- match state ------------------------------------------------------------------ */

static void rebase_table(uint32_t *t, size_t n, uint32_t shift)
{
    for (size_t i = 0; i < n; i++) t[i] = t[i] > shift ? t[i] - shift : 0;
}

/* btlazy2's trees mark a position not yet sorted in with the value 1 in
 * its second link (match_search_bt.h); the mark is not an index and stays. */
static void rebase_bt_marked(uint32_t *t, size_t n, uint32_t shift)
{
    for (size_t i = 0; i < n; i++)
        t[i] = (i & 1) && t[i] == 1 ? 1 : t[i] > shift ? t[i] - shift : 0;
}

static void reverse_words(uint32_t *t, size_t n)
{
    for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
        uint32_t const x = t[i];
        t[i] = t[j - 1];
        t[j - 1] = x;
    }
}

/* Hash chains and binary trees keep the entry of index i at slot
 * i % cycle (cycle entries of `unit` words): after indices drop by shift,
 * that entry must move to slot (i - shift) % cycle, a rotation of the whole
 * table by shift % cycle slots towards the front (three reversals). */
static void rotate_positional(uint32_t *t, size_t size, size_t unit, uint32_t shift)
{
    size_t const k = (shift & (size / unit - 1)) * unit;
    if (k == 0) return;
    reverse_words(t, k);
    reverse_words(t + k, size - k);
    reverse_words(t, size);
}

void xc_zstd_ms_rebase(xc_zmatch_state *ms, uint32_t shift)
{
    rebase_table(ms->hash_table, ms->hash_size, shift);
    if (ms->chain_size) {
        if (ms->p.strategy == XC_ZSTRAT_BTLAZY2)
            rebase_bt_marked(ms->chain_table, ms->chain_size, shift);
        else
            rebase_table(ms->chain_table, ms->chain_size, shift);
    }
    if (ms->hash3_size) rebase_table(ms->hash3_table, ms->hash3_size, shift);
    /* Greedy and lazy without rows: chains; btlazy2 and the optimal
     * parsers: trees, two words per position (match_search_hc.h,
     * match_search_bt.h, match_search_bt_opt.h). */
    if (ms->chain_size && !ms->row_log && ms->p.strategy >= XC_ZSTRAT_GREEDY)
        rotate_positional(ms->chain_table, ms->chain_size,
                          ms->p.strategy >= XC_ZSTRAT_BTLAZY2 ? 2 : 1, shift);
    ms->next_to_update = ms->next_to_update > shift ? ms->next_to_update - shift : 0;
    if (ms->next_to_update < ms->start) ms->next_to_update = ms->start;
}

/* Where the literal buffer starts within a page.  Literals are copied in
 * from the input and out to the destination or the staging buffer; when
 * the two sides of a copy sit at nearly the same offset within their pages
 * (large allocations all start 16 bytes into a page), each load aliases
 * the store just before it in the bits the CPU uses to forward stores to
 * loads ("4K aliasing") and the copy slows several times.  A third of a
 * page away from the usual offset avoids that; the stream's staging buffer
 * takes two thirds (compress_stream.c). */
#define LIT_PAGE_OFFSET 1376

static size_t reserve_block_memory(xc_zstd_cctx *c, size_t block)
{
    if (c->seq_mem && c->seq_mem_block >= block) goto carve;
    free(c->seq_mem);
    c->seq_mem_block = 0;
    {
        c->seq_mem = malloc(xc_zstd_block_mem_bytes(block));
        RETURN_ERROR_IF(!c->seq_mem, OUT_OF_MEMORY);
        c->seq_mem_block = block;
    }
carve:;
    size_t const max_seq = c->seq_mem_block / 3 + 2;
    uint8_t *p = (uint8_t *)c->seq_mem;
    c->ss.seq = (xc_zseq *)(void *)p;
    p += max_seq * sizeof(xc_zseq);
    c->ss.ll_code = p;
    c->ss.ml_code = p + max_seq;
    c->ss.of_code = p + 2 * max_seq;
    p += 3 * max_seq;
    p += (LIT_PAGE_OFFSET - ((uintptr_t)p & 4095)) & 4095;
    c->ss.lit = p;
    c->lit_scratch = c->ss.lit + c->seq_mem_block + XC_ZSTD_LIT_SLACK;
    return 0;
}

size_t xc_zstd_cframe_begin(xc_zstd_cctx *c, const xc_zstd_cparams *p, const uint8_t *buf,
                            size_t span)
{
    c->p = *p;
    c->finder = c->kern->finder[p->strategy];
    c->block_max = XC_MIN((size_t)XC_ZSTD_BLOCK_SIZE_MAX, (size_t)1 << p->window_log);

    /* The match tables, one allocation laid out by xc_zstd_table_layout()
     * and xc_zstd_ms_place_tables() (compress_mem.c). */
    unsigned const row_log = xc_zstd_row_log(p);
    xc_ztable_layout const layout = xc_zstd_table_layout(p);
    size_t const hsize = layout.hash;
    size_t const csize = layout.chain;
    size_t const need = layout.total;
    if (c->tables_cap < need) {
        free(c->tables);
        c->tables_cap = c->tables_clean = 0;
        /* Aligned to a cache line, so that a row of cells (match_search_row.h)
         * spans as few lines as it can. */
        c->tables = (uint32_t *)aligned_alloc(64, (need * sizeof(uint32_t) + 63) & ~(size_t)63);
        RETURN_ERROR_IF(!c->tables, OUT_OF_MEMORY);
        /* Zeroed once, so that tag bytes are never read uninitialised. */
        memset(c->tables, 0, need * sizeof(uint32_t));
        c->tables_cap = c->tables_clean = need;
    }
    /* Start after the previous frame's indices, so its entries are all
     * invalid without clearing them; start over at 1 (clearing everything)
     * when the indices would run out.  tables_clean counts the leading
     * words that hold nothing but such old indices (or zeros): every word a
     * finder reads as an index must be among them, while tag and head bytes
     * may hold anything. */
    uint32_t start = c->next_start;
    if (start == 0 || (uint64_t)start + span >= XC_ZSTD_INDEX_LIMIT ||
        (uintptr_t)buf < start) {
        start = 1;
        c->tables_clean = 0;
    }
    size_t const index_words = hsize + csize + layout.hash3;
    if (c->tables_clean < index_words) {
        memset(c->tables + c->tables_clean, 0, (index_words - c->tables_clean) * sizeof(uint32_t));
        c->tables_clean = index_words;
    }
    if (row_log) c->tables_clean = hsize; /* the tags and heads follow */
    /* Every index this frame writes stays below start + span + 1, even
     * after a rebase (which only lowers them). */
    c->next_start = span < XC_ZSTD_INDEX_LIMIT ? start + (uint32_t)span + 1 : 0;

    c->ms.base = buf - start;
    c->ms.start = start;
    xc_zstd_ms_place_tables(&c->ms, c->tables, p);
    c->ms.next_to_update = start;
    if (p->strategy >= XC_ZSTRAT_BTOPT) FORWARD_IF_ERROR(xc_zstd_opt_reserve(&c->ms, &c->ent));
    FORWARD_IF_ERROR(reserve_block_memory(c, c->block_max));
    FORWARD_IF_ERROR(xc_zldm_frame_begin(c, p, buf));

    /* RFC 8878 §3.1.2.5: every frame starts with these repeat offsets. */
    xc_zstd_rep_init(c->rep);
    xc_zstd_entropy_reset(&c->ent);
    c->frame_no++;
    c->frame_dict_id = 0;
    c->first_block = 1;
    c->consumed = 0;
    xc_xxh64_reset(&c->xxh, 0);
    return 0;
}

/* ---- frame header ------------------------------------------------------------------- */

size_t xc_zstd_write_frame_header(const xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                  uint64_t content_size)
{
    unsigned const wlog = c->p.window_log;
    int const has_size = content_size != XC_ZSTD_SIZE_UNKNOWN && c->content_size_flag;
    int const single = has_size && ((uint64_t)1 << wlog) >= content_size;
    unsigned const fcs = has_size ? (unsigned)(content_size >= 256) +
                                        (content_size >= 65536 + 256) +
                                        (content_size >= 0xFFFFFFFFull)
                                  : 0;
    size_t const size_bytes = fcs == 0 && single ? 1 : xc_zstd_fcs_field_size(fcs);
    uint32_t const did = c->frame_dict_id;
    unsigned const did_code = did == 0 ? 0 : did < 256 ? 1 : did < 65536 ? 2 : 3;
    size_t const total = 4 + 1 + !single + xc_zstd_did_field_size(did_code) + size_bytes;
    RETURN_ERROR_IF(cap < total, DST_TOO_SMALL);

    uint8_t *op = dst;
    xc_write_le32(op, XC_ZSTD_MAGIC);
    op += 4;
    /* Frame_Header_Descriptor: content size field code, single segment,
     * checksum flag, dictionary ID field code (the smallest that holds it). */
    *op++ = (uint8_t)((fcs << 6) | ((unsigned)single << 5) | ((unsigned)!!c->checksum << 2) |
                      did_code);
    if (!single) *op++ = (uint8_t)((wlog - XC_ZSTD_WINDOW_LOG_MIN) << 3);
    switch (did_code) {
    case 1: *op++ = (uint8_t)did; break;
    case 2: xc_write_le16(op, (uint16_t)did); op += 2; break;
    case 3: xc_write_le32(op, did); op += 4; break;
    default: break;
    }
    switch (size_bytes) {
    case 1: *op++ = (uint8_t)content_size; break;
    case 2: xc_write_le16(op, (uint16_t)(content_size - 256)); op += 2; break;
    case 4: xc_write_le32(op, (uint32_t)content_size); op += 4; break;
    case 8: xc_write_le64(op, content_size); op += 8; break;
    default: break;
    }
    return (size_t)(op - dst);
}

/* ---- blocks -------------------------------------------------------------------------- */

size_t xc_zstd_compress_block(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *src,
                              size_t size, int last)
{
    uint32_t rep[3] = {c->rep[0], c->rep[1], c->rep[2]};
    if (size >= XC_ZSTD_MIN_COMPRESSED_BLOCK) {
        xc_zseqstore *const ss = &c->ss;
        ss->nb_seq = 0;
        ss->lit_end = ss->lit;
        size_t const tail = c->ldm_on ? xc_zldm_block(c, rep, src, size)
                                      : c->finder(&c->ms, ss, rep, src, size);
        xc_zstore_last_literals(ss, src + size - tail, tail);
        if (xc_zstd_split_active(c)) return xc_zstd_split_emit(c, dst, cap, src, size, last, rep);
    }
    return xc_zstd_emit_block(c, dst, cap, src, size, last, rep);
}

/* ---- contexts -------------------------------------------------------------------------- */

xc_zstd_cctx *xc_zstd_cctx_new(void)
{
    xc_zstd_cctx *c = (xc_zstd_cctx *)calloc(1, sizeof *c);
    if (!c) return NULL;
    xc_cpucap_init();
    c->kern = xc_kernels.zstd_encode;
    c->level = XC_ZSTD_LEVEL_DEFAULT;
    c->content_size_flag = 1;
    c->dict_id_flag = 1;
    xc_zstd_stream_reset(c);
    if (xc_iserr(xc_zstd_entropy_init_defaults(&c->ent))) {
        free(c);
        return NULL;
    }
    return c;
}

void xc_zstd_cctx_free(xc_zstd_cctx *c)
{
    if (!c) return;
    free(c->tables);
    free(c->seq_mem);
    xc_zstd_opt_free(&c->ms);
    xc_zldm_free(c->ldm);
    xc_zstd_dict_release(c);
    free(c->in_buf);
    free(c->out_alloc);
    free(c);
}

size_t xc_zstd_cctx_reset(xc_zstd_cctx *c)
{
    RETURN_ERROR_IF(!c, BAD_PARAMETER);
    xc_zstd_stream_reset(c);
    return 0;
}

/* 0 keeps "follow the level"; anything else must be within [lo, hi]. */
static size_t set_log(unsigned *field, int value, int lo, int hi)
{
    RETURN_ERROR_IF(value != 0 && (value < lo || value > hi), BAD_PARAMETER);
    *field = (unsigned)value;
    return 0;
}

size_t xc_zstd_cctx_set(xc_zstd_cctx *c, xc_zstd_cparam param, int value)
{
    RETURN_ERROR_IF(!c, BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_IDLE, STAGE_WRONG);
    switch (param) {
    case XC_ZSTD_C_LEVEL:
        RETURN_ERROR_IF(value < XC_ZSTD_LEVEL_MIN || value > XC_ZSTD_LEVEL_MAX, BAD_PARAMETER);
        c->level = value == 0 ? XC_ZSTD_LEVEL_DEFAULT : value;
        return 0;
    case XC_ZSTD_C_WINDOW_LOG:
        return set_log(&c->req.window_log, value, XC_ZSTD_WINDOW_LOG_MIN, XC_ZSTD_WINDOW_LOG_MAX);
    case XC_ZSTD_C_HASH_LOG:
        return set_log(&c->req.hash_log, value, XC_ZSTD_HASHLOG_MIN, XC_ZSTD_HASHLOG_MAX);
    case XC_ZSTD_C_CHAIN_LOG:
        return set_log(&c->req.chain_log, value, XC_ZSTD_CHAINLOG_MIN, XC_ZSTD_CHAINLOG_MAX);
    case XC_ZSTD_C_SEARCH_LOG:
        return set_log(&c->req.search_log, value, XC_ZSTD_SEARCHLOG_MIN, XC_ZSTD_SEARCHLOG_MAX);
    case XC_ZSTD_C_MIN_MATCH:
        return set_log(&c->req.min_match, value, XC_ZSTD_MINMATCH_MIN, XC_ZSTD_MINMATCH_MAX);
    case XC_ZSTD_C_TARGET_LENGTH:
        return set_log(&c->req.target_length, value, 0, XC_ZSTD_TARGETLEN_MAX);
    case XC_ZSTD_C_STRATEGY:
        return set_log(&c->req.strategy, value, XC_ZSTRAT_FAST, XC_ZSTRAT_MAX);
    case XC_ZSTD_C_CONTENT_SIZE:
        RETURN_ERROR_IF(value != 0 && value != 1, BAD_PARAMETER);
        c->content_size_flag = value;
        return 0;
    case XC_ZSTD_C_CHECKSUM:
        RETURN_ERROR_IF(value != 0 && value != 1, BAD_PARAMETER);
        c->checksum = value;
        return 0;
    case XC_ZSTD_C_DICT_ID:
        RETURN_ERROR_IF(value != 0 && value != 1, BAD_PARAMETER);
        c->dict_id_flag = value;
        return 0;
    case XC_ZSTD_C_BLOCK_SPLITTER:
        RETURN_ERROR_IF(value < 0 || value > 2, BAD_PARAMETER);
        c->block_split = value;
        return 0;
    case XC_ZSTD_C_LONG_DISTANCE:
    case XC_ZSTD_C_LDM_HASH_LOG:
    case XC_ZSTD_C_LDM_MIN_MATCH:
    case XC_ZSTD_C_LDM_BUCKET_LOG:
    case XC_ZSTD_C_LDM_HASH_RATE_LOG:
        return xc_zldm_set(c, (int)param, value);
    default:
        return XC_ERROR(BAD_PARAMETER);
    }
}

size_t xc_zstd_cctx_set_pledged_size(xc_zstd_cctx *c, unsigned long long size)
{
    RETURN_ERROR_IF(!c, BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_IDLE, STAGE_WRONG);
    /* The all-ones value is the header's "unknown": pledging it withdraws
     * the pledge. */
    c->pledged = size;
    c->pledged_set = size != XC_ZSTD_SIZE_UNKNOWN;
    return 0;
}

/* ---- one-shot ----------------------------------------------------------------------------- */

size_t xc_zstd_compress_cctx(xc_zstd_cctx *c, void *dst, size_t dst_cap, const void *src,
                             size_t src_size)
{
    RETURN_ERROR_IF(!c || (!dst && dst_cap) || (!src && src_size), BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_IDLE, STAGE_WRONG);
    if (c->cdict) return xc_zstd_compress_with_dict(c, dst, dst_cap, src, src_size);
    const uint8_t *ip = (const uint8_t *)src;
    uint8_t *const ostart = (uint8_t *)dst;
    uint8_t *op = ostart;
    uint8_t *const oend = ostart + dst_cap;

    xc_zstd_cparams const p = xc_zstd_cframe_params(c, src_size);
    FORWARD_IF_ERROR(xc_zstd_cframe_begin(c, &p, ip, src_size));
    size_t const h = xc_zstd_write_frame_header(c, op, dst_cap, src_size);
    FORWARD_IF_ERROR(h);
    op += h;

    size_t left = src_size;
    do {
        size_t const n = XC_MIN(left, c->block_max);
        uint32_t const idx = (uint32_t)(ip - c->ms.base);
        if ((uint64_t)idx + n > XC_ZSTD_INDEX_LIMIT) {
            /* Only frames that started at index 1 get here (see
             * xc_zstd_cframe_begin), more than a window ago.  Keep one
             * window of history below the block at indices >= 1; what the
             * rebase flattens to 0 was out of the window already, so the
             * parse does not change. */
            uint32_t const shift = idx - ((uint32_t)1 << p.window_log) - 1;
            xc_zstd_ms_rebase(&c->ms, shift);
            if (c->ldm_on) xc_zldm_rebase(c->ldm, shift);
            c->ms.base += shift;
            c->ms.start = 1;
        }
        size_t const b = xc_zstd_compress_block(c, op, (size_t)(oend - op), ip, n, n == left);
        FORWARD_IF_ERROR(b);
        op += b;
        ip += n;
        left -= n;
    } while (left);

    if (c->checksum) {
        size_t const k =
            xc_zstd_write_checksum(op, (size_t)(oend - op), xc_xxh64(src, src_size, 0));
        FORWARD_IF_ERROR(k);
        op += k;
    }
    return (size_t)(op - ostart);
}

size_t xc_zstd_compress(void *dst, size_t dst_cap, const void *src, size_t src_size, int level)
{
    RETURN_ERROR_IF(level < XC_ZSTD_LEVEL_MIN || level > XC_ZSTD_LEVEL_MAX, BAD_PARAMETER);
    xc_zstd_cctx *c = xc_zstd_cctx_new();
    RETURN_ERROR_IF(!c, OUT_OF_MEMORY);
    size_t r = xc_zstd_cctx_set(c, XC_ZSTD_C_LEVEL, level);
    if (!xc_iserr(r)) r = xc_zstd_compress_cctx(c, dst, dst_cap, src, src_size);
    xc_zstd_cctx_free(c);
    return r;
}
