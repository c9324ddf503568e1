/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd compression, the context and one-shot API: contexts, their
 * parameters, and one-shot frames.
 *
 * A one-shot frame is planned first (xc_zstd_plan_frame: its parameters and
 * the history it starts from), then handed to the frame driver
 * (compress_frame.c), or, when a dictionary's content must sit before the
 * input, to the streaming code, whose window buffer holds both, or, with
 * workers and more than one job of input, to the workers (compress_mt.c).
 *
 * What it may call: the dispatch table (cpucap.h), the frame plan
 * (dict/compress_dict.c), the frame driver, streaming and workers (compress/), and
 * the long-distance matcher's settings and memory (compress/match/).
 */
#include <stdint.h>
#include <stdlib.h>

#include "cpucap.h"
#include "zstd/compress/compress_kernels.h"
#include "zstd/compress/match/match_ldm.h"

int xc_zstd_min_level(void) { return XC_ZSTD_LEVEL_MIN; }
int xc_zstd_max_level(void) { return XC_ZSTD_LEVEL_MAX; }
int xc_zstd_default_level(void) { return XC_ZSTD_LEVEL_DEFAULT; }

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
    free(c->split_saved);
    xc_zstd_opt_free(&c->ms);
    xc_zldm_free(c->ldm);
    xc_zstd_mt_free(c);
    xc_zstd_dict_release(c);
    free(c->in_buf);
    free(c->out_alloc);
    free(c);
}

size_t xc_zstd_cctx_reset(xc_zstd_cctx *c)
{
    RETURN_ERROR_IF(!c, BAD_PARAMETER);
    xc_zstd_mt_abort(c);
    xc_zstd_stream_reset(c);
    c->prog_live = 0;
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
    case XC_ZSTD_C_FORMAT:
        RETURN_ERROR_IF(value != XC_ZSTD_FORMAT_ZSTD1 && value != XC_ZSTD_FORMAT_MAGICLESS,
                        BAD_PARAMETER);
        c->magicless = value == XC_ZSTD_FORMAT_MAGICLESS;
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
    case XC_ZSTD_C_NB_WORKERS:
    case XC_ZSTD_C_JOB_SIZE:
    case XC_ZSTD_C_OVERLAP_LOG:
    case XC_ZSTD_C_JOB_FRAMES:
        return xc_zstd_mt_set(c, (int)param, value);
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
    xc_zhistory h;
    FORWARD_IF_ERROR(xc_zstd_plan_frame(c, src_size, 1, &h));
    /* With workers, an input of more than one job goes to them; one job is
     * the frame of the calling thread (compress_mt.c). */
    if (c->nb_workers && src_size > xc_zstd_mt_job_size(c, &h.p, src_size))
        return xc_zstd_mt_compress(c, &h, dst, dst_cap, src, src_size);
    if (h.mode != XC_ZHIST_PLACED)
        return xc_zstd_cframe_oneshot(c, &h, dst, dst_cap, src, src_size);
    /* A dictionary placed before the input: through the window buffer, one
     * copy of the input, which small inputs do not notice, and large ones
     * get the bounded memory of streaming. */
    xc_out_buffer out = {dst, dst_cap, 0};
    xc_in_buffer in = {src, src_size, 0};
    c->pledged = src_size;
    c->pledged_set = 1;
    size_t const r = xc_zstd_stream_serial(c, &out, &in, XC_ZSTD_E_END);
    if (r != 0) {
        xc_zstd_stream_reset(c);
        return xc_iserr(r) ? r : XC_ERROR(DST_TOO_SMALL);
    }
    return out.pos;
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
