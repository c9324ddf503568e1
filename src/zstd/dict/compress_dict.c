/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dictionaries on the encoder's side: loading and referencing them, and
 * planning each frame: its parameters and the history it starts from
 * (xc_zhistory, compress_internal.h), which the frame driver then consumes
 * (compress_frame.c, compress_history.c).
 *
 * Three plans.  Without a dictionary, the level's parameters for the
 * input.  Small one-shot inputs of every strategy search the dictionary's
 * tables where they lie (attached: match_fast_dict_tmpl.h, and
 * match_lazy_tmpl.h and match_opt_tmpl.h in their dictionary mode), up to
 * libzstd's size cut-offs for that, with
 * tables of their own sized for the input.  Every other frame is
 * compressed from the window buffer with the content placed before the
 * input (placed), and starts from a copy of the dictionary's tables when it
 * keeps the dictionary's parameters.
 *
 * What it may call: the prepared dictionaries (dict/cdict.c) and the
 * parameters (compress/compress_levels.c); nothing of the frame driver.
 */
#include <stdlib.h>

#include "zstd/dict/cdict.h"
#include "zstd/compress/compress_kernels.h"

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
    xc_zstd_prefix_release(c);
    xc_zstd_cdict_free(c->own_cdict);
    c->own_cdict = NULL;
    c->cdict = NULL;
}

/* Prepares a loaded dictionary again when the level or parameters
 * changed; 0 or an error of xc_zstd_cdict_build(). */
static size_t prepare_again(xc_zstd_cctx *c)
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
 * into fresh tables at the start of the frame (compress_history.c):
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

/* The smallest window log (at least the format's minimum, at most cap)
 * that holds span bytes. */
static unsigned window_log_for(uint64_t span, unsigned cap)
{
    unsigned w = XC_ZSTD_WINDOW_LOG_MIN;
    while (w < cap && ((uint64_t)1 << w) < span) w++;
    return w;
}

/* The parameters of a frame of src_size bytes with cd. */
static xc_zstd_cparams dict_frame_params(const xc_zstd_cctx *c, const xc_zstd_cdict *cd,
                                         uint64_t src_size)
{
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
     * the level would go for content and input together (as libzstd
     * adjusts its window to the source and dictionary sizes).  Small
     * inputs fit already.  The level's window for the input alone would
     * be too short: 20 KB after a 30 KB dictionary got a 32 KiB window at
     * levels 1-4, which lost every match into the content's first half. */
    if (src_size != XC_ZSTD_SIZE_UNKNOWN &&
        (uint64_t)cd->content_size + src_size <= ((uint64_t)1 << p.window_log))
        return p;
    unsigned w = xc_zstd_level_params(cd->level, XC_ZSTD_SIZE_UNKNOWN).window_log;
    if (src_size != XC_ZSTD_SIZE_UNKNOWN) {
        uint64_t const span = (uint64_t)cd->content_size + src_size;
        w = xc_zstd_level_params(cd->level, span).window_log;
        w = XC_MIN(w, window_log_for(span, XC_ZSTD_WINDOW_LOG_MAX));
    }
    p.window_log = XC_MAX(p.window_log, w);
    return p;
}

/* Inputs up to these sizes are compressed with the dictionary's tables
 * attached rather than copied (libzstd's cut-offs as well). */
#define ATTACH_FAST_MAX ((size_t)8 << 10)
#define ATTACH_DFAST_MAX ((size_t)16 << 10)
#define ATTACH_LAZY_MAX ((size_t)32 << 10)
#define ATTACH_BTOPT_MAX ((size_t)32 << 10)
#define ATTACH_BTULTRA_MAX ((size_t)8 << 10)
/* The fewest rows an attached frame of greedy, lazy or lazy2 gets: 2^4. */
#define FRAME_ROWS_MIN_LOG 4

/* Whether a one-shot input of n bytes searches cd's tables in place, and
 * then the frame's own tables (*p): sized for the input. */
static int attaches(const xc_zstd_cctx *c, const xc_zstd_cdict *cd, size_t n, xc_zstd_cparams *p)
{
    unsigned const s = cd->p.strategy;
    int attach = 0;
    if (s == XC_ZSTRAT_FAST) attach = cd->packed && n <= ATTACH_FAST_MAX;
    else if (s == XC_ZSTRAT_DFAST) attach = cd->packed && n <= ATTACH_DFAST_MAX;
    /* Rows only (the dictionary's build guarantees them for these). */
    else if (s >= XC_ZSTRAT_GREEDY && s <= XC_ZSTRAT_LAZY2)
        attach = cd->ms.row_log && n <= ATTACH_LAZY_MAX;
    else if (s == XC_ZSTRAT_BTLAZY2) attach = n <= ATTACH_LAZY_MAX;
    else if (s == XC_ZSTRAT_BTOPT) attach = n <= ATTACH_BTOPT_MAX;
    else if (s >= XC_ZSTRAT_BTULTRA) attach = n <= ATTACH_BTULTRA_MAX;
    /* The window only ever grows from the dictionary's, which keeps the
     * table layout (xc_zstd_cdict_build), and must hold the input. */
    if (!attach || !c->kern->attached[s] || cd->content_size < XC_ZSTD_HASH_READ ||
        c->req.window_log || ((uint64_t)1 << p->window_log) < n)
        return 0;
    if (s >= XC_ZSTRAT_GREEDY && s <= XC_ZSTRAT_LAZY2) {
        /* The frame's rows only hold its own positions: about two cells
         * per position (as libzstd sizes a frame's hash for its input),
         * never fewer than 2^FRAME_ROWS_MIN_LOG rows. */
        unsigned log = FRAME_ROWS_MIN_LOG + cd->ms.row_log;
        while (log < p->hash_log && ((size_t)1 << log) < 2 * n) log++;
        p->hash_log = log;
    } else if (s >= XC_ZSTRAT_BTLAZY2) {
        /* Two buckets per position, and a tree whose links no position of
         * the frame outlives (two words per position, match_search_bt.h
         * and match_search_bt_opt.h). */
        unsigned log = 6;
        while (((size_t)1 << log) < n) log++;
        p->hash_log = XC_MIN(p->hash_log, log + 1);
        p->chain_log = XC_MIN(p->chain_log, log + 2);
        if (s >= XC_ZSTRAT_BTOPT) {
            /* The window the optimal parsers' 3-byte hash is sized by
             * (xc_zstd_hash3_log): as libzstd's, what content and input
             * need, not the dictionary's (raised for its own layout). */
            p->window_log = window_log_for((uint64_t)cd->content_size + n, p->window_log);
        }
    } else {
        /* fast, dfast: two cells per position in each of the frame's
         * tables, indexed by the top bits of the dictionary's hashes
         * (match_fast_dict_tmpl.h); the dictionary's sizes (up to 384 KiB at
         * level 3) would cost a cache miss per position. */
        unsigned log = 6;
        while (((size_t)1 << log) < n) log++;
        p->hash_log = XC_MIN(p->hash_log, log + 1);
        p->chain_log = XC_MIN(p->chain_log, log + 1);
    }
    return 1;
}

size_t xc_zstd_plan_frame(xc_zstd_cctx *c, uint64_t src_size, int whole, xc_zhistory *h)
{
    if (c->prefix_size) return xc_zstd_plan_prefix(c, src_size, h);
    FORWARD_IF_ERROR(prepare_again(c));
    const xc_zstd_cdict *cd = c->cdict;
    h->cd = cd;
    h->content = 0;
    if (!cd) {
        h->mode = XC_ZHIST_NONE;
        h->p = xc_zstd_cframe_params(c, src_size);
        return 0;
    }
    h->p = dict_frame_params(c, cd, src_size);
    if (whole && attaches(c, cd, (size_t)src_size, &h->p)) {
        h->mode = XC_ZHIST_ATTACHED;
        return 0;
    }
    h->mode = XC_ZHIST_PLACED;
    h->content = cd->content_size;
    return 0;
}
