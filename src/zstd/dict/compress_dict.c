/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Frames compressed with a dictionary: loading and referencing, the
 * parameters of such a frame, placing the dictionary in front of it, and
 * the table fills of the fast and dfast strategies.
 *
 * Layout.  The frame is compressed from the window buffer, in which the
 * dictionary's content sits right before the input: content byte k has
 * index 1 + k and the frame's first byte index 1 + content size, so
 * ms->start (the lowest valid index) is the content's first byte and every
 * finder may match into the content and take repeat offsets reaching into
 * it, as a decoder holding the dictionary allows (RFC 8878 §5: the content
 * is history before the frame).  The tables come from the prepared
 * dictionary, whose indices are the same.
 *
 * Small one-shot frames of the fast to btlazy2 strategies do not use this
 * layout: they search the dictionary's tables in place (match_fast_dict.c,
 * match_lazy_dict.c), up to libzstd's size cut-offs for that (attach_finder
 * below).
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
 * What it may call: the prepared dictionaries (dict/), the encoder
 * (compress/) and the match state and searches (compress/match/).
 */
#include <stdlib.h>

#include "zstd/dict/cdict.h"
#include "zstd/compress/compress_kernels.h"
#include "zstd/compress/match/match_search_bt.h"

/* ---- table fills ------------------------------------------------------------- */

/* The searching strategies restore their tables after a frame of up to
 * 1/RESTORE_SEARCH_RATIO of the tables' words, and copy them otherwise. */
#define RESTORE_SEARCH_RATIO 16

/* Positions p in [from, to) are inserted as the finder would insert them;
 * with `restore`, the same cells are copied from it instead (a prepared
 * dictionary's tables, which have the same size). */
static void fast_cells(xc_zmatch_state *ms, uint32_t from, uint32_t to, const uint32_t *restore)
{
    uint32_t *const ht = ms->hash_table;
    unsigned const hlog = ms->p.hash_log;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
    for (uint32_t p = from; p < to; p++) {
        size_t const h = xc_zhash(ms->base + p, hlog, mls);
        ht[h] = restore ? restore[h] : p;
    }
}

static void dfast_cells(xc_zmatch_state *ms, uint32_t from, uint32_t to,
                        const uint32_t *restore_long, const uint32_t *restore_short)
{
    uint32_t *const hl = ms->hash_table;
    uint32_t *const hs = ms->chain_table;
    unsigned const llog = ms->p.hash_log, slog = ms->p.chain_log;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
    for (uint32_t p = from; p < to; p++) {
        size_t const a = xc_zhash(ms->base + p, llog, 8);
        size_t const b = xc_zhash(ms->base + p, slog, mls);
        hl[a] = restore_long ? restore_long[a] : p;
        hs[b] = restore_short ? restore_short[b] : p;
    }
}

/* The searching strategies over rows (match_search_row.h).  A frame inserts
 * positions [from, to) at most, each into the row its hash names (the
 * finder's hash: xc_zsearch_open gives its width), writing a cell, its tag
 * and the row's head and nothing else.  So the rows those positions hash
 * to are copied back whole, once each: a row's head, which only ever holds
 * a cell number below 64, is marked with bit 7 when its row has been
 * copied, and the heads are put back in a second pass.  (Counting the
 * insertions per row to restore only the cells written costs more: it
 * takes a third pass and a dependent head update per position, while a row
 * is one to four cache lines read in order.)  Positions the finder stepped
 * over (inside long matches) cost a row copy that changes nothing. */
static void restore_rows(xc_zmatch_state *ms, uint32_t from, uint32_t to,
                         const xc_zmatch_state *dms)
{
    xc_zsearch s;
    xc_zsearch_open(&s, ms);
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    size_t const cells = (size_t)1 << s.row_log;
    const uint8_t *const dheads = dms->row_heads;
    for (uint32_t p = from; p < to; p++) {
        uint32_t const row = (uint32_t)xc_zhash(s.base + p, s.hash_bits, mls) >> 8;
        if (s.heads[row] & 0x80) continue;
        size_t const first = (size_t)row << s.row_log;
        /* 16 cells and their tags at a time, in fixed-size copies the
         * compiler expands in place (a row has 16, 32 or 64 cells). */
        for (size_t k = 0; k < cells; k += 16) {
            memcpy(s.table + first + k, dms->hash_table + first + k, 16 * sizeof(uint32_t));
            memcpy(s.tags + first + k, dms->tag_table + first + k, 16);
        }
        s.heads[row] = 0x80;
    }
    for (uint32_t p = from; p < to; p++) {
        uint32_t const row = (uint32_t)xc_zhash(s.base + p, s.hash_bits, mls) >> 8;
        s.heads[row] = dheads[row];
    }
}

/* The last position whose hash input (8 bytes) ends by iend, plus one. */
static uint32_t fill_end(const xc_zmatch_state *ms, const uint8_t *iend)
{
    size_t const n = (size_t)(iend - ms->base);
    return n >= XC_ZSTD_HASH_READ ? (uint32_t)(n - XC_ZSTD_HASH_READ + 1) : 0;
}

/* Every third position first, then the others only into cells still
 * empty: as libzstd fills a dictionary's fast table.  With every position
 * in order, the last of many similar records in the content would own most
 * cells; this spreads the candidates over the whole content, which gives
 * the smaller frames (about 1% at level 1 on JSON records). */
void xc_zstd_fill_fast(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const end = fill_end(ms, iend);
    uint32_t *const ht = ms->hash_table;
    unsigned const hlog = ms->p.hash_log;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
    for (uint32_t p = ms->next_to_update; p < end; p += 3) {
        ht[xc_zhash(ms->base + p, hlog, mls)] = p;
        for (uint32_t q = p + 1; q < p + 3 && q < end; q++) {
            size_t const h = xc_zhash(ms->base + q, hlog, mls);
            if (ht[h] < ms->start) ht[h] = q;
        }
    }
    if (ms->next_to_update < end) ms->next_to_update = end;
}

/* The same for dfast: every third position into both tables, the others
 * only into empty cells of the long one. */
void xc_zstd_fill_dfast(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const end = fill_end(ms, iend);
    uint32_t *const hl = ms->hash_table;
    uint32_t *const hs = ms->chain_table;
    unsigned const llog = ms->p.hash_log, slog = ms->p.chain_log;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 7u);
    for (uint32_t p = ms->next_to_update; p < end; p += 3) {
        hl[xc_zhash(ms->base + p, llog, 8)] = p;
        hs[xc_zhash(ms->base + p, slog, mls)] = p;
        for (uint32_t q = p + 1; q < p + 3 && q < end; q++) {
            size_t const h = xc_zhash(ms->base + q, llog, 8);
            if (hl[h] < ms->start) hl[h] = q;
        }
    }
    if (ms->next_to_update < end) ms->next_to_update = end;
}

/* btlazy2: every position sorted into its bucket's tree, as the finder
 * inserts the position it searches.  The finder's own fill (bt_update)
 * only pushes positions onto their buckets' chains, to be sorted by the
 * first search that reaches them: for a dictionary, whose tables every
 * frame starts from afresh, that sorting would be redone by every frame
 * (and, past 2^search_log positions in a bucket, the older ones would drop
 * out of the tree each time). */
static void fill_bt_sorted(xc_zmatch_state *ms, const uint8_t *iend)
{
    uint32_t const stop = fill_end(ms, iend);
    if (stop <= ms->next_to_update) return;
    unsigned const mls = XC_MIN(XC_MAX(ms->p.min_match, 4u), 6u);
    xc_zsearch s;
    xc_zsearch_open(&s, ms);
    uint32_t const mask = (s.chain_size >> 1) - 1;
    for (uint32_t idx = s.next; idx < stop; idx++) {
        uint32_t const h = (uint32_t)xc_zhash(s.base + idx, s.hash_bits, mls);
        /* As in bt_update: the first index of the history is never a node
         * (its index is the mark of unsorted nodes). */
        if (idx <= s.start) continue;
        uint32_t const bt_low = idx > mask ? idx - mask : 0;
        uint32_t const low = idx - s.start > s.window ? idx - s.window : s.start;
        uint32_t const root = s.table[h];
        uint32_t unused_off, unused_end = 0;
        s.table[h] = idx;
        bt_walk(&s, idx, root, iend, s.attempts, low, bt_low, 0, &unused_off, &unused_end);
    }
    s.next = stop;
    xc_zsearch_close(&s, ms);
}

xc_zstd_fill_fn xc_zstd_fill_fn_for(unsigned strategy)
{
    switch (strategy) {
    case XC_ZSTRAT_FAST: return xc_zstd_fill_fast;
    case XC_ZSTRAT_DFAST: return xc_zstd_fill_dfast;
    case XC_ZSTRAT_GREEDY:
    case XC_ZSTRAT_LAZY:
    case XC_ZSTRAT_LAZY2: return xc_zstd_fill_search;
    case XC_ZSTRAT_BTLAZY2: return fill_bt_sorted;
    case XC_ZSTRAT_BTOPT:
    case XC_ZSTRAT_BTULTRA:
    case XC_ZSTRAT_BTULTRA2: return xc_zstd_fill_bt_opt;
    default: return NULL;
    }
}

/* ---- loading ---------------------------------------------------------------------- */

/* The parameters a dictionary loaded into c is prepared with: the level's
 * for the dictionary, with the context's explicit settings on top. */
static xc_zstd_cparams own_params(const xc_zstd_cctx *c, size_t size)
{
    xc_zstd_cparams const p = xc_zstd_cdict_params(c->level, size);
    return xc_zstd_adapt_params(xc_zstd_override_params(p, &c->req), (uint64_t)size + 513);
}

size_t xc_zstd_cctx_load_dictionary(xc_zstd_cctx *c, const void *dict, size_t size)
{
    RETURN_ERROR_IF(!c || (!dict && size), BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_IDLE, STAGE_WRONG);
    xc_zstd_cdict *cd = NULL;
    if (size) {
        xc_zstd_cparams const p = own_params(c, size);
        FORWARD_IF_ERROR(xc_zstd_cdict_build(&cd, dict, size, &p, c->level));
    }
    xc_zstd_cdict_free(c->own_cdict);
    c->own_cdict = cd;
    c->cdict = cd;
    return 0;
}

size_t xc_zstd_cctx_ref_cdict(xc_zstd_cctx *c, const xc_zstd_cdict *cd)
{
    RETURN_ERROR_IF(!c, BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_IDLE, STAGE_WRONG);
    xc_zstd_cdict_free(c->own_cdict);
    c->own_cdict = NULL;
    c->cdict = cd;
    return 0;
}

void xc_zstd_dict_release(xc_zstd_cctx *c)
{
    xc_zstd_cdict_free(c->own_cdict);
    c->own_cdict = NULL;
    c->cdict = NULL;
}

size_t xc_zstd_dict_prepare(xc_zstd_cctx *c)
{
    xc_zstd_cdict *own = c->own_cdict;
    if (!own || c->cdict != own) return 0;
    /* The level or a parameter changed since loading: prepare again from
     * the bytes kept in the old one (its buffer holds the whole dictionary
     * up to the content's end). */
    size_t const size = (size_t)(own->content + own->content_size - own->buf);
    xc_zstd_cparams const p = own_params(c, size);
    if (own->level == c->level && memcmp(&p, &own->asked, sizeof p) == 0) return 0;
    xc_zstd_cdict *cd;
    FORWARD_IF_ERROR(xc_zstd_cdict_build(&cd, own->buf, size, &p, c->level));
    xc_zstd_cdict_free(own);
    c->own_cdict = cd;
    c->cdict = cd;
    return 0;
}

/* ---- frames ---------------------------------------------------------------------------- */

/* Inputs of at least 128 KiB and 6 times the content, when their size is
 * known, get the level's parameters for their size, and the content goes
 * into fresh tables at the start of the frame (xc_zstd_dict_frame_begin):
 * the dictionary's tables are planned for small inputs (a short minimum
 * match, small hash tables), which cost ratio on large ones, and there the
 * fill costs at most a sixth of the input.  libzstd draws the same line. */
#define LOAD_MIN_INPUT ((uint64_t)128 << 10)
#define LOAD_MIN_TIMES_CONTENT 6

static int loads_content(const xc_zstd_cdict *cd, uint64_t src_size)
{
    return src_size != XC_ZSTD_SIZE_UNKNOWN && src_size >= LOAD_MIN_INPUT &&
           src_size / LOAD_MIN_TIMES_CONTENT >= cd->content_size;
}

xc_zstd_cparams xc_zstd_dict_frame_params(const xc_zstd_cctx *c, uint64_t src_size)
{
    const xc_zstd_cdict *cd = c->cdict;
    if (loads_content(cd, src_size)) {
        uint64_t const span = src_size + cd->content_size;
        xc_zstd_cparams const p = xc_zstd_level_params(cd->level, span);
        return xc_zstd_adapt_params(xc_zstd_override_params(p, &c->req), span);
    }
    xc_zstd_cparams p = cd->p;
    if (c->req.window_log) {
        /* As asked, unless that would change the table layout (row search
         * and the 3-byte hash depend on the window; see cdict_build): then
         * the dictionary's window. */
        p.window_log = c->req.window_log;
        if (xc_zstd_row_log(&p) != xc_zstd_row_log(&cd->p) ||
            xc_zstd_hash3_log(&p) != xc_zstd_hash3_log(&cd->p))
            p.window_log = cd->p.window_log;
        return p;
    }
    /* The tables are the dictionary's; the window must reach from the end
     * of the input back to the start of the content, but no further than
     * the level would go for this input.  (Small inputs fit already.) */
    if (src_size != XC_ZSTD_SIZE_UNKNOWN &&
        (uint64_t)cd->content_size + src_size <= ((uint64_t)1 << p.window_log))
        return p;
    unsigned w = xc_zstd_level_params(cd->level, src_size).window_log;
    if (src_size != XC_ZSTD_SIZE_UNKNOWN) {
        uint64_t const span = (uint64_t)cd->content_size + src_size;
        unsigned need = XC_ZSTD_WINDOW_LOG_MIN;
        while (need < XC_ZSTD_WINDOW_LOG_MAX && ((uint64_t)1 << need) < span) need++;
        w = XC_MIN(w, need);
    }
    p.window_log = XC_MAX(p.window_log, w);
    return p;
}

size_t xc_zstd_dict_history(const xc_zstd_cctx *c)
{
    return c->cdict ? c->cdict->content_size : 0;
}

/* Whether the state the previous frame left is that of cd. */
static int still_held(const xc_zstd_cctx *c, uint64_t key, uint64_t frame, const xc_zstd_cdict *cd)
{
    return key == cd->key && frame + 1 == c->frame_no;
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
    const xc_zstd_cdict *cd = c->cdict;
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

size_t xc_zstd_dict_frame_begin(xc_zstd_cctx *c)
{
    const xc_zstd_cdict *cd = c->cdict;
    if (!cd) {
        c->held_content_key = 0; /* this frame fills the window buffer */
        return 0;
    }
    size_t const n = cd->content_size;
    if (!still_held(c, c->held_content_key, c->held_content_frame, cd) ||
        c->held_content_cap != c->in_cap)
        memcpy(c->in_buf, cd->content, n);
    /* Long-distance matching keeps its own view of the frame's indices,
     * which the content before the input changes: frames with a dictionary
     * go without. */
    c->ldm_on = 0;
    c->ms.dict = NULL;
    /* The frame copies the dictionary's tables when it has their parameters
     * (xc_zstd_dict_frame_params; xc_zstd_cdict_build keeps the layout
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
        return n;
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
    return n;
}

void xc_zstd_dict_frame_end(xc_zstd_cctx *c)
{
    const xc_zstd_cdict *cd = c->cdict;
    if (!cd) return;
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
    uint32_t to = fill_end(&c->ms, c->in_buf + n + c->consumed);
    if (s == XC_ZSTRAT_FAST || s == XC_ZSTRAT_DFAST) {
        if (c->consumed > cd->table_words) return;
        uint32_t const from = (uint32_t)n + 1;
        if (from < to) {
            if (s == XC_ZSTRAT_FAST) fast_cells(&c->ms, from, to, cd->tables);
            else dfast_cells(&c->ms, from, to, cd->tables, cd->tables + cd->ms.hash_size);
        }
    } else if (s >= XC_ZSTRAT_GREEDY && s <= XC_ZSTRAT_LAZY2 && c->ms.row_log) {
        /* (Hash chains, which xc_zstd_cdict_build rules out, would be copied.) */
        if (c->consumed > cd->table_words / RESTORE_SEARCH_RATIO) return;
        /* The finder inserted positions from where the dictionary's fill
         * stopped up to its next_to_update, never past the last position
         * with 8 bytes to hash. */
        uint32_t const from = cd->ms.next_to_update;
        if (c->ms.next_to_update < to) to = c->ms.next_to_update;
        if (from < to) restore_rows(&c->ms, from, to, &cd->ms);
    } else {
        return;
    }
    c->held_tables_key = cd->key;
    c->held_tables_frame = c->frame_no;
    c->held_tables_at = c->tables;
}

/* Inputs up to these sizes are compressed with the dictionary's tables
 * attached rather than copied (libzstd's cut-offs as well). */
#define ATTACH_FAST_MAX ((size_t)8 << 10)
#define ATTACH_DFAST_MAX ((size_t)16 << 10)
#define ATTACH_LAZY_MAX ((size_t)32 << 10)
/* The fewest rows an attached frame of greedy, lazy or lazy2 gets: 2^4. */
#define FRAME_ROWS_MIN_LOG 4

/* The finder that searches cd's tables in place for an input of n bytes,
 * or NULL when the frame should place the content before the input. */
static xc_zstd_block_fn attach_finder(const xc_zstd_cctx *c, const xc_zstd_cdict *cd, size_t n)
{
    unsigned const s = cd->p.strategy;
    int attach = 0;
    if (s == XC_ZSTRAT_FAST) attach = cd->p.target_length == 0 && n <= ATTACH_FAST_MAX;
    else if (s == XC_ZSTRAT_DFAST) attach = n <= ATTACH_DFAST_MAX;
    /* Rows only (the dictionary's build guarantees them for these). */
    else if (s >= XC_ZSTRAT_GREEDY && s <= XC_ZSTRAT_LAZY2) attach = cd->ms.row_log && n <= ATTACH_LAZY_MAX;
    else if (s == XC_ZSTRAT_BTLAZY2) attach = n <= ATTACH_LAZY_MAX;
    return attach ? c->kern->attached[s] : NULL;
}

/* A one-shot frame with the dictionary attached (match_fast_dict.c,
 * match_lazy_dict.c): straight from src, no copy of anything but the
 * entropy tables. */
static size_t compress_attached(xc_zstd_cctx *c, uint8_t *dst, size_t cap, const uint8_t *src,
                                size_t n, xc_zstd_block_fn finder)
{
    const xc_zstd_cdict *cd = c->cdict;
    xc_zstd_cparams p = xc_zstd_cframe_params(c, n);
    unsigned const s = cd->p.strategy;
    /* The searching strategies' frames keep tables of their own. */
    int const own_tables = s >= XC_ZSTRAT_GREEDY;
    if (s >= XC_ZSTRAT_GREEDY && s <= XC_ZSTRAT_LAZY2) {
        /* The frame's rows only hold its own positions: about two cells
         * per position (as libzstd sizes a frame's hash for its input),
         * never fewer than 2^FRAME_ROWS_MIN_LOG rows. */
        unsigned log = FRAME_ROWS_MIN_LOG + cd->ms.row_log;
        while (log < p.hash_log && ((size_t)1 << log) < 2 * n) log++;
        p.hash_log = log;
    } else if (s == XC_ZSTRAT_BTLAZY2) {
        /* Two buckets per position, and a tree whose links no position of
         * the frame outlives (two words per position, match_search_bt.h). */
        unsigned log = 6;
        while (((size_t)1 << log) < n) log++;
        p.hash_log = XC_MIN(p.hash_log, log + 1);
        p.chain_log = XC_MIN(p.chain_log, log + 2);
    } else {
        /* fast, dfast: two cells per position in each of the frame's
         * tables, indexed by the top bits of the dictionary's hashes
         * (match_fast_dict.c); the dictionary's sizes (up to 384 KiB at
         * level 3) would cost a cache miss per position. */
        unsigned log = 6;
        while (((size_t)1 << log) < n) log++;
        p.hash_log = XC_MIN(p.hash_log, log + 1);
        p.chain_log = XC_MIN(p.chain_log, log + 1);
    }
    FORWARD_IF_ERROR(xc_zstd_cframe_begin(c, &p, src, n));
    /* See the caller; the window only ever grows from the dictionary's,
     * which keeps the table layout (xc_zstd_cdict_build).  The rows
     * searched in place must be as wide as the frame's. */
    RETURN_ERROR_IF(n > c->block_max || c->ms.row_log != cd->ms.row_log ||
                        (!own_tables && c->ms.hash_size > cd->ms.hash_size),
                    GENERIC);
    c->ldm_on = 0; /* as in xc_zstd_dict_frame_begin */
    c->ms.dict = cd;
    c->finder = finder;
    install_entropy(c, cd);
    size_t const h = xc_zstd_write_frame_header(c, dst, cap, n);
    FORWARD_IF_ERROR(h);
    /* n <= ATTACH_LAZY_MAX fits one block. */
    size_t const b = xc_zstd_compress_block(c, dst + h, cap - h, src, n, 1);
    FORWARD_IF_ERROR(b);
    entropy_end(c);
    size_t total = h + b;
    if (c->checksum) {
        size_t const k = xc_zstd_write_checksum(dst + total, cap - total, xc_xxh64(src, n, 0));
        FORWARD_IF_ERROR(k);
        total += k;
    }
    return total;
}

/* Other one-shot frames with a dictionary go through the window buffer:
 * one copy of the input, which small inputs do not notice, and large ones
 * get the bounded memory of streaming. */
size_t xc_zstd_compress_with_dict(xc_zstd_cctx *c, void *dst, size_t dst_cap, const void *src,
                                  size_t src_size)
{
    FORWARD_IF_ERROR(xc_zstd_dict_prepare(c));
    const xc_zstd_cdict *cd = c->cdict;
    xc_zstd_block_fn const finder = attach_finder(c, cd, src_size);
    if (finder && cd->content_size >= XC_ZSTD_HASH_READ && !c->req.window_log &&
        ((uint64_t)1 << xc_zstd_cframe_params(c, src_size).window_log) >= src_size)
        return compress_attached(c, (uint8_t *)dst, dst_cap, (const uint8_t *)src, src_size,
                                 finder);
    xc_out_buffer out = {dst, dst_cap, 0};
    xc_in_buffer in = {src, src_size, 0};
    c->pledged = src_size;
    c->pledged_set = 1;
    size_t const r = xc_zstd_compress_stream(c, &out, &in, XC_ZSTD_E_END);
    if (r != 0) {
        xc_zstd_cctx_reset(c);
        return xc_iserr(r) ? r : XC_ERROR(DST_TOO_SMALL);
    }
    return out.pos;
}
