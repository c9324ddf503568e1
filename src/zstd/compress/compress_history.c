/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a frame does with the history it was planned with (xc_zhistory,
 * compress_internal.h): at its start, put a prepared dictionary's content,
 * tables, entropy tables and repeat offsets in place; at its end, note what
 * the context still holds of them, or put back what the frame changed, so
 * that the next frame with the same dictionary pays only for its own bytes.
 *
 * Placed history (XC_ZHIST_PLACED).  The frame is compressed from the
 * window buffer, in which the dictionary's content sits right before the
 * input: content byte k has index 1 + k and the frame's first byte index
 * 1 + content size, so ms->start (the lowest valid index) is the content's
 * first byte and every finder may match into the content and take repeat
 * offsets reaching into it, as a decoder holding the dictionary allows
 * (RFC 8878 §5: the content is history before the frame).  The tables come
 * from the prepared dictionary, whose indices are the same, or are filled
 * from the content when the frame's parameters differ from the
 * dictionary's.
 *
 * Attached history (XC_ZHIST_ATTACHED).  Small one-shot frames of the fast
 * to btlazy2 strategies search the dictionary's tables where they lie
 * (match_fast_dict_tmpl.h, match_lazy_tmpl.h in its dictionary mode): the frame only gets
 * the finder, the entropy tables and the repeat offsets.
 *
 * Prefix (XC_ZHIST_PREFIX).  A worker's job after the frame's first
 * (compress_mt.c) starts with the last bytes of the input before it at the
 * start of its buffer; they go into the tables as a placed dictionary's
 * content would, and that is all: no entropy tables, no repeat offsets
 * (the job clears them), nothing to note at the end.
 *
 * What a frame costs.  The window buffer keeps the content between frames,
 * and for the fast and searching strategies the tables are put back to the
 * dictionary's state at the end of a frame by rewriting the cells (fast,
 * dfast) or rows (greedy, lazy, lazy2) the frame's positions hash to: they
 * are the only ones the finder wrote.  So a series of small frames with
 * one dictionary pays per frame only for its own bytes and the entropy
 * tables (a few KiB copied).  Whether the buffer and tables still
 * hold a dictionary is known from its key and the number of the frame that
 * left them so; anything else in between (a frame without the dictionary,
 * a slide of the window buffer, an error) makes the next frame copy again.
 *
 * What it may call: the match state and its fills and restores
 * (compress/match/); it reads the prepared dictionary (dict/cdict.h), which
 * is data, and calls nothing of dict/.
 */
#include "zstd/compress/compress_kernels.h"
#include "zstd/dict/cdict.h"

/* The searching strategies restore their tables after a frame of up to
 * 1/RESTORE_SEARCH_RATIO of the tables' words, and copy them otherwise. */
#define RESTORE_SEARCH_RATIO 16

/* Whether the state the previous frame left is that of cd. */
static int still_held(const xc_zstd_cctx *c, uint64_t key, uint64_t frame, const xc_zstd_cdict *cd)
{
    /* A prefix (key 0) is the caller's bytes, which may change between
     * frames: never held. */
    return cd->key != 0 && key == cd->key && frame + 1 == c->frame_no;
}

/* Which slot of each table is in force.  A block that sends a new table
 * writes it into the other slot and makes that one current, so while these
 * stay the same, the slots in force hold what was installed. */
static uint32_t entropy_slots(const xc_zentropy *e)
{
    return (uint32_t)e->huf_cur | (uint32_t)e->fse_cur[0] << 1 | (uint32_t)e->fse_cur[1] << 2 |
           (uint32_t)e->fse_cur[2] << 3;
}

/* At the end of a frame: whether the tables installed are still in force.
 * Only a frame of one block can tell (two blocks sending new tables would
 * flip a slot back), which every small input is. */
static void entropy_end(xc_zstd_cctx *c)
{
    const xc_zstd_cdict *cd = c->hist.cd;
    if (!cd->has_entropy || entropy_slots(&c->ent) != c->held_entropy_slots ||
        c->consumed > c->block_max)
        return;
    c->held_entropy_key = cd->key;
    c->held_entropy_frame = c->frame_no;
}

/* The repeat offsets and entropy tables a formatted dictionary starts
 * frames with, and the ID the header carries. */
static void install_entropy(xc_zstd_cctx *c, const xc_zstd_cdict *cd)
{
    if (cd->has_entropy) {
        xc_zentropy *const e = &c->ent;
        uint32_t const slots = entropy_slots(e);
        if (still_held(c, c->held_entropy_key, c->held_entropy_frame, cd) &&
            slots == c->held_entropy_slots) {
            /* The slots in force still hold the dictionary's tables (see
             * entropy_end): only make them repeatable. */
            e->huf_valid = (uint8_t)(cd->has_entropy & 1);
            for (unsigned t = 0; t < 3; t++) e->fse_valid[t] = 1;
            memcpy(c->rep, cd->rep, sizeof c->rep);
            c->held_entropy_key = 0;
            c->held_entropy_slots = slots;
            c->frame_dict_id = c->dict_id_flag ? cd->id : 0;
            return;
        }
        c->held_entropy_key = 0;
        c->held_entropy_slots = slots;
        if (cd->has_entropy & 1) {
            e->huf[e->huf_cur] = cd->huf;
            e->huf_valid = 1;
        }
        for (unsigned t = 0; t < 3; t++) {
            unsigned const cur = e->fse_cur[t];
            e->fse[t][cur] = cd->fse[t];
            memcpy(e->norm[t][cur], cd->norm[t], sizeof cd->norm[t]);
            e->norm_log[t][cur] = cd->norm_log[t];
            e->norm_max[t][cur] = cd->norm_max[t];
            e->fse_valid[t] = 1;
        }
        memcpy(c->rep, cd->rep, sizeof c->rep);
    }
    c->frame_dict_id = c->dict_id_flag ? cd->id : 0;
}

static size_t placed_begin(xc_zstd_cctx *c)
{
    const xc_zstd_cdict *cd = c->hist.cd;
    size_t const n = cd->content_size;
    if (!still_held(c, c->held_content_key, c->held_content_frame, cd) ||
        c->held_content_cap != c->in_cap)
        memcpy(c->in_buf, cd->content, n);
    /* Long-distance matching stays on: its first block enters the content's
     * samples into its table (match_ldm.c), as libzstd loads dictionary
     * content into the LDM table, so a large prefix (--patch-from) is
     * reachable. */
    c->ms.dict = NULL;
    /* The frame copies the dictionary's tables when it has their parameters
     * (xc_zstd_plan_frame; xc_zstd_cdict_build keeps the layout
     * stable as the window grows); otherwise it fills its own from the
     * content, at the indices xc_zstd_cframe_begin chose. */
    c->dict_tables_copied =
        c->p.strategy == cd->p.strategy && c->p.hash_log == cd->p.hash_log &&
        c->p.chain_log == cd->p.chain_log && c->p.search_log == cd->p.search_log &&
        c->p.min_match == cd->p.min_match && c->ms.hash_size == cd->ms.hash_size &&
        c->ms.chain_size == cd->ms.chain_size && c->ms.row_log == cd->ms.row_log &&
        c->ms.hash3_size == cd->ms.hash3_size && c->tables_cap >= cd->table_words;
    if (c->dict_tables_copied && (!still_held(c, c->held_tables_key, c->held_tables_frame, cd) ||
                                  c->held_tables_at != c->tables))
        memcpy(c->tables, cd->tables, cd->table_words * sizeof(uint32_t));
    /* Until the frame ends well, neither is known to hold the dictionary. */
    c->held_content_key = 0;
    c->held_tables_key = 0;
    if (!c->dict_tables_copied) {
        xc_zstd_fill_fn const fill = xc_zstd_fill_fn_for(c->p.strategy);
        RETURN_ERROR_IF(!fill, GENERIC);
        fill(&c->ms, c->in_buf + n);
        install_entropy(c, cd);
        return 0;
    }
    /* Every index word of the tables is now below the next frame's start. */
    c->tables_clean =
        cd->ms.row_log ? cd->ms.hash_size
                       : cd->ms.hash_size + cd->ms.chain_size + cd->ms.hash3_size;
    c->next_start = (uint32_t)c->in_size + 2;
    c->ms.base = c->in_buf - 1;
    c->ms.start = 1;
    c->ms.next_to_update = cd->ms.next_to_update;
    memcpy(c->ms.hash_cache, cd->ms.hash_cache, sizeof c->ms.hash_cache);

    install_entropy(c, cd);
    return 0;
}

static void placed_end(xc_zstd_cctx *c)
{
    const xc_zstd_cdict *cd = c->hist.cd;
    entropy_end(c);
    size_t const n = cd->content_size;
    /* A slide moved the content and rebased the tables. */
    if ((uint64_t)n + c->consumed > c->in_size) return;
    c->held_content_key = cd->key;
    c->held_content_frame = c->frame_no;
    c->held_content_cap = c->in_cap;
    if (!c->dict_tables_copied) return;

    /* Putting the cells back costs two hashes per input byte (fast and
     * dfast), or two hashes and up to a row (rows); past the tables' size,
     * or a sixteenth of it for rows, a copy is cheaper.  The tree of
     * btlazy2 is copied (see cdict.h). */
    unsigned const s = c->p.strategy;
    uint32_t to = xc_zstd_hash_end(&c->ms, c->in_buf + n + c->consumed);
    if (s == XC_ZSTRAT_FAST || s == XC_ZSTRAT_DFAST) {
        if (c->consumed > cd->table_words) return;
        uint32_t const from = (uint32_t)n + 1;
        if (from < to) {
            if (s == XC_ZSTRAT_FAST) xc_zstd_restore_fast(&c->ms, from, to, cd->tables);
            else xc_zstd_restore_dfast(&c->ms, from, to, cd->tables, cd->tables + cd->ms.hash_size);
        }
    } else if (s >= XC_ZSTRAT_GREEDY && s <= XC_ZSTRAT_LAZY2 && c->ms.row_log) {
        /* (Hash chains, which xc_zstd_cdict_build rules out, would be copied.) */
        if (c->consumed > cd->table_words / RESTORE_SEARCH_RATIO) return;
        /* The finder inserted positions from where the dictionary's fill
         * stopped up to its next_to_update, never past the last position
         * with 8 bytes to hash. */
        uint32_t const from = cd->ms.next_to_update;
        if (c->ms.next_to_update < to) to = c->ms.next_to_update;
        if (from < to) xc_zstd_restore_rows(&c->ms, from, to, &cd->ms);
    } else {
        return;
    }
    c->held_tables_key = cd->key;
    c->held_tables_frame = c->frame_no;
    c->held_tables_at = c->tables;
}

/* An attached frame (one block, straight from the caller's buffer): the
 * frame's tables were sized for it by xc_zstd_plan_frame, and the rows
 * searched in place must be as wide as the frame's. */
static size_t attached_begin(xc_zstd_cctx *c, size_t n)
{
    const xc_zstd_cdict *cd = c->hist.cd;
    unsigned const s = cd->p.strategy;
    /* The searching strategies' frames keep tables of their own. */
    int const own_tables = s >= XC_ZSTRAT_GREEDY;
    RETURN_ERROR_IF(n > c->block_max || c->ms.row_log != cd->ms.row_log ||
                        (!own_tables && c->ms.hash_size > cd->ms.hash_size) ||
                        !c->kern->attached[s],
                    GENERIC);
    c->ldm_on = 0; /* as for placed history */
    c->ms.dict = cd;
    c->finder = c->kern->attached[s];
    install_entropy(c, cd);
    return 0;
}

/* Input before the frame's first byte (a worker's job after the first,
 * compress_mt.c): it sits at the start of the frame's buffer, where the
 * indices begin, and only needs to be in the tables.  No dictionary:
 * no entropy tables, no ID. */
static size_t prefix_begin(xc_zstd_cctx *c)
{
    c->held_content_key = 0; /* the buffer may be the window buffer */
    c->ms.dict = NULL;
    if (!c->hist.content) return 0;
    xc_zstd_fill_fn const fill = xc_zstd_fill_fn_for(c->p.strategy);
    RETURN_ERROR_IF(!fill, GENERIC);
    fill(&c->ms, c->ms.base + c->ms.start + c->hist.content);
    return 0;
}

size_t xc_zstd_history_begin(xc_zstd_cctx *c, size_t span)
{
    switch (c->hist.mode) {
    case XC_ZHIST_PLACED:
        /* A prefix serves one frame: its bytes are in the window buffer now. */
        if (c->hist.cd == c->prefix_cd) c->prefix_size = 0;
        return placed_begin(c);
    case XC_ZHIST_ATTACHED: return attached_begin(c, span);
    case XC_ZHIST_PREFIX: return prefix_begin(c);
    default:
        c->held_content_key = 0; /* a frame in the window buffer overwrites the content */
        c->ms.dict = NULL;
        return 0;
    }
}

void xc_zstd_history_end(xc_zstd_cctx *c)
{
    if (c->hist.mode == XC_ZHIST_PLACED) placed_end(c);
    else if (c->hist.mode == XC_ZHIST_ATTACHED) entropy_end(c);
}
