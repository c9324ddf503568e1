/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prefixes on the encoder's side: the caller's bytes as history for one
 * frame (libzstd's ZSTD_CCtx_refPrefix), and the progress of a streamed
 * frame.
 *
 * A prefix is placed history (compress_history.c) without prepared
 * tables: a record shaped like a prepared dictionary whose content points
 * at the caller's bytes, with no ID, no entropy tables and no match
 * tables, so that the frame driver copies the content before the input
 * and enters its positions into the frame's own tables, the path it takes
 * for a dictionary prepared with other parameters.  The record's key is 0,
 * which tells the driver that nothing of it may be assumed to stay in the
 * window buffer after the frame (the caller may change the bytes).  The
 * frame's parameters are those of the prefix and the input together, as
 * for a one-shot input of that size, so its window reaches back over the
 * prefix where the level lets it.
 *
 * What it may call: the parameters (compress/compress_levels.c); it fills
 * a record of the prepared dictionary's type (dict/cdict.h), which is data.
 */
#include <stdlib.h>

#include "zstd/dict/cdict.h"

/* The largest prefix, as for dictionaries. */
#define PREFIX_MAX ((size_t)768 << 20)

size_t xc_zstd_cctx_ref_prefix(xc_zstd_cctx *c, const void *prefix, size_t size)
{
    RETURN_ERROR_IF(!c || (!prefix && size) || size >= PREFIX_MAX, BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_IDLE, STAGE_WRONG);
    if (size && !c->prefix_cd) {
        c->prefix_cd = (xc_zstd_cdict *)calloc(1, sizeof *c->prefix_cd);
        RETURN_ERROR_IF(!c->prefix_cd, OUT_OF_MEMORY);
    }
    /* As in libzstd, a prefix replaces the dictionary for good. */
    xc_zstd_cdict_free(c->own_cdict);
    c->own_cdict = NULL;
    c->cdict = NULL;
    c->prefix = (const uint8_t *)prefix;
    c->prefix_size = size;
    return 0;
}

void xc_zstd_prefix_release(xc_zstd_cctx *c)
{
    free(c->prefix_cd);
    c->prefix_cd = NULL;
    c->prefix = NULL;
    c->prefix_size = 0;
}

size_t xc_zstd_plan_prefix(xc_zstd_cctx *c, uint64_t src_size, xc_zhistory *h)
{
    xc_zstd_cdict *cd = c->prefix_cd;
    uint64_t const span =
        src_size == XC_ZSTD_SIZE_UNKNOWN ? XC_ZSTD_SIZE_UNKNOWN : src_size + c->prefix_size;
    h->p = xc_zstd_cframe_params(c, span);
    /* Bytes beyond the window's reach from the frame's first byte could
     * never be referenced: only the last window of the prefix is placed. */
    size_t n = c->prefix_size;
    uint64_t const window = (uint64_t)1 << h->p.window_log;
    if (n > window) n = (size_t)window;
    memset(cd, 0, sizeof *cd);
    cd->level = c->level;
    cd->p = h->p;
    cd->asked = h->p;
    cd->content = c->prefix + (c->prefix_size - n);
    cd->content_size = n;
    h->mode = XC_ZHIST_PLACED;
    h->cd = cd;
    h->content = n;
    return 0;
}

size_t xc_zstd_cctx_progress(const xc_zstd_cctx *c, xc_zstd_progress *pr)
{
    RETURN_ERROR_IF(!c || !pr, BAD_PARAMETER);
    memset(pr, 0, sizeof *pr);
    if (!c->prog_live) return 0;
    pr->ingested = c->consumed;
    pr->consumed = c->consumed;
    if (c->stage == XC_ZSTAGE_STREAM) pr->consumed -= c->in_fill - c->in_done;
    pr->flushed = c->prog_flushed;
    pr->produced = c->prog_flushed + (c->out_end - c->out_pos);
    return 0;
}
