/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd frames: setting a context up for one, its header, its blocks, and
 * the one-shot frame from start to checksum.
 *
 * A frame (RFC 8878 §3.1.1) is the magic number, a header, blocks of at
 * most min(window, 128 KiB) bytes of content each, and optionally the low
 * 32 bits of the content's XXH64.  The header records the content size
 * when it is known (one-shot, or a streamed frame with a pledged size) and
 * then uses the single-segment form whenever the window covers the whole
 * content, which saves the window byte and lets decoders size one buffer.
 *
 * A frame is begun with the history it was planned with (xc_zhistory,
 * from xc_zstd_plan_frame): nothing, a dictionary placed before it in the
 * window buffer, or a dictionary searched where it lies; compress_history.c
 * puts that in place and takes it back at the end.  The frame driver does
 * not decide any of it.
 *
 * Each block is parsed by the strategy's match finder into sequences, then
 * encoded; it goes out as whichever is smallest of the compressed form, the
 * raw bytes, or (for a block of one repeated byte) an RLE block
 * (compress_block.c), or through the block splitter.  Every write is
 * checked against the destination's end: a destination that is too small
 * yields XC_ERROR_DST_TOO_SMALL and nothing past dst + cap is ever touched.
 *
 * What it may call: the frame's history (compress_history.c), blocks and
 * the splitter (compress_block*.c), memory layout (compress_mem.c), the
 * match state and long-distance matcher (compress/match/), XXH64
 * (common/).
 */
#include <stdint.h>
#include <stdlib.h>

#include "zstd/compress/compress_kernels.h"
#include "zstd/compress/match/match_ldm.h"

size_t xc_zstd_compress_bound(size_t n)
{
    /* Raw blocks cost 3 bytes per 128 KiB and the frame at most 22 bytes
     * of header and checksum; the formula (libzstd's, so buffers sized for
     * either library suit both) leaves more than that at every size. */
    RETURN_ERROR_IF(n > SIZE_MAX / 2, BAD_PARAMETER);
    size_t const small = (size_t)128 << 10;
    return n + (n >> 8) + (n < small ? (small - n) >> 11 : 0);
}

/* ---- setting up ---------------------------------------------------------------------- */

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
    size_t const want_seq = xc_zstd_max_seq(block, &c->p);
    if (c->seq_mem && c->seq_mem_block >= block && c->seq_mem_max_seq >= want_seq) goto carve;
    {
        /* The larger of what this frame and the last allocation needed, so
         * that a context alternating between two kinds of frames does not
         * allocate for each. */
        size_t const new_block = XC_MAX(block, c->seq_mem ? c->seq_mem_block : 0);
        size_t const max_seq = XC_MAX(want_seq, c->seq_mem ? c->seq_mem_max_seq : 0);
        free(c->seq_mem);
        c->seq_mem_block = c->seq_mem_max_seq = 0;
        c->seq_mem = malloc(xc_zstd_block_mem_bytes(new_block, max_seq));
        RETURN_ERROR_IF(!c->seq_mem, OUT_OF_MEMORY);
        c->seq_mem_block = new_block;
        c->seq_mem_max_seq = max_seq;
    }
carve:;
    size_t const max_seq = c->seq_mem_max_seq;
    uint8_t *p = (uint8_t *)c->seq_mem;
    c->ss.seq = (xc_zseq *)(void *)p;
    p += max_seq * sizeof(xc_zseq);
    c->ss.ll_code = p;
    c->ss.ml_code = p + max_seq;
    c->ss.of_code = p + 2 * max_seq;
    p += 3 * max_seq;
    p += (LIT_PAGE_OFFSET - ((uintptr_t)p & 4095)) & 4095;
    c->ss.lit = p;
    xc_zseqstore_clear(&c->ss);
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
    if (xc_zstd_split_active(c) && !c->split_saved) {
        c->split_saved = (xc_zsplit_saved *)malloc(2 * sizeof *c->split_saved);
        RETURN_ERROR_IF(!c->split_saved, OUT_OF_MEMORY);
    }
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

size_t xc_zstd_cframe_open(xc_zstd_cctx *c, const xc_zhistory *h, const uint8_t *buf, size_t span)
{
    FORWARD_IF_ERROR(xc_zstd_cframe_begin(c, &h->p, buf, span));
    c->hist = *h;
    return xc_zstd_history_begin(c, span);
}

void xc_zstd_cframe_close(xc_zstd_cctx *c) { xc_zstd_history_end(c); }

/* ---- one-shot ------------------------------------------------------------------------------ */

/* The blocks of src[0..size), whose bytes are at their indices in c->ms,
 * into op..oend; `last` puts the last-block flag on the final one, which
 * may be empty.  Returns the bytes written or an error. */
static size_t compress_blocks(xc_zstd_cctx *c, uint8_t *op, uint8_t *const oend,
                              const uint8_t *ip, size_t left, int last)
{
    uint8_t *const ostart = op;
    do {
        size_t const n = XC_MIN(left, c->block_max);
        uint32_t const idx = (uint32_t)(ip - c->ms.base);
        if ((uint64_t)idx + n > XC_ZSTD_INDEX_LIMIT) {
            /* Only frames that started at index 1 get here (see
             * xc_zstd_cframe_begin), more than a window ago.  Keep one
             * window of history below the block at indices >= 1; what the
             * rebase flattens to 0 was out of the window already, so the
             * parse does not change. */
            uint32_t const shift = idx - ((uint32_t)1 << c->p.window_log) - 1;
            xc_zstd_ms_rebase(&c->ms, shift);
            if (c->ldm_on) xc_zldm_rebase(c->ldm, shift);
            c->ms.base += shift;
            c->ms.start = 1;
        }
        size_t const b =
            xc_zstd_compress_block(c, op, (size_t)(oend - op), ip, n, last && n == left);
        FORWARD_IF_ERROR(b);
        op += b;
        ip += n;
        left -= n;
        c->consumed += n;
    } while (left);
    return (size_t)(op - ostart);
}

size_t xc_zstd_cframe_whole(xc_zstd_cctx *c, const xc_zhistory *plan, const uint8_t *buf,
                            size_t span, const uint8_t *src, size_t size, void *dst,
                            size_t dst_cap)
{
    uint8_t *const ostart = (uint8_t *)dst;
    uint8_t *op = ostart;
    uint8_t *const oend = ostart + dst_cap;

    FORWARD_IF_ERROR(xc_zstd_cframe_open(c, plan, buf, span));
    size_t const h = xc_zstd_write_frame_header(c, op, dst_cap, size);
    FORWARD_IF_ERROR(h);
    op += h;
    size_t const b = compress_blocks(c, op, oend, src, size, 1);
    FORWARD_IF_ERROR(b);
    op += b;
    xc_zstd_cframe_close(c);

    if (c->checksum) {
        size_t const k = xc_zstd_write_checksum(op, (size_t)(oend - op), xc_xxh64(src, size, 0));
        FORWARD_IF_ERROR(k);
        op += k;
    }
    return (size_t)(op - ostart);
}

size_t xc_zstd_cframe_oneshot(xc_zstd_cctx *c, const xc_zhistory *plan, void *dst,
                             size_t dst_cap, const void *src, size_t src_size)
{
    return xc_zstd_cframe_whole(c, plan, (const uint8_t *)src, src_size, (const uint8_t *)src,
                                src_size, dst, dst_cap);
}

/* ---- one job of a frame cut between workers ------------------------------------ */

size_t xc_zstd_cframe_job(xc_zstd_cctx *c, const xc_zhistory *plan, const uint8_t *buf,
                          size_t span, const uint8_t *src, size_t size, int first, int last,
                          uint8_t *dst, size_t dst_cap)
{
    FORWARD_IF_ERROR(xc_zstd_cframe_open(c, plan, buf, span));
    /* A job that is not the frame's first cannot know the repeat offsets
     * the decoder will hold when it gets there (they come out of the jobs
     * before, compressed at the same time): 0 is an offset no finder takes
     * (each treats a repeat offset reaching before its history as 0), and
     * the first real offset of the job fills the slots as the decoder's
     * fill.  The entropy tables were reset by the open. */
    if (!first) c->rep[0] = c->rep[1] = c->rep[2] = 0;
    size_t const b = compress_blocks(c, dst, dst + dst_cap, src, size, last);
    FORWARD_IF_ERROR(b);
    xc_zstd_cframe_close(c);
    return b;
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
    size_t const magic = c->magicless ? 0 : 4;
    size_t const total = magic + 1 + !single + xc_zstd_did_field_size(did_code) + size_bytes;
    RETURN_ERROR_IF(cap < total, DST_TOO_SMALL);

    uint8_t *op = dst;
    if (magic) {
        xc_write_le32(op, XC_ZSTD_MAGIC);
        op += 4;
    }
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

void xc_zstd_parse_block(xc_zstd_cctx *c, uint32_t rep[3], const uint8_t *src, size_t size,
                         int store_literals)
{
    xc_zseqstore *const ss = &c->ss;
    xc_zseqstore_clear(ss);
    size_t const tail = c->ldm_on ? xc_zldm_block(c, rep, src, size)
                                  : c->finder(&c->ms, ss, rep, src, size);
    /* A block of literals alone is encoded from src where it lies
     * (xc_zstd_encode_block_body): for incompressible data that saves
     * one of its two copies. */
    if (ss->nb_seq || store_literals) xc_zstore_last_literals(ss, src + size - tail, tail);
}

size_t xc_zstd_compress_block(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *src,
                              size_t size, int last)
{
    uint32_t rep[3] = {c->rep[0], c->rep[1], c->rep[2]};
    if (size >= XC_ZSTD_MIN_COMPRESSED_BLOCK) {
        /* The splitter counts ss->lit. */
        int const split = xc_zstd_split_active(c);
        xc_zstd_parse_block(c, rep, src, size, split);
        if (split) return xc_zstd_split_emit(c, dst, cap, src, size, last, rep);
    }
    return xc_zstd_emit_block(c, dst, cap, src, size, last, rep);
}
