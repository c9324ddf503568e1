/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compression contexts of the shim: ZSTD_CCtx around an xc_zstd_cctx.
 *
 * libzstd has two ways to drive a context.  The "advanced" API
 * (setParameter, loadDictionary/refCDict/refPrefix, compress2,
 * compressStream2 and the legacy stream calls built on it) uses sticky
 * parameters and dictionary; the "simple" calls (compressCCtx,
 * compress_usingDict, compress_usingCDict, compress_advanced) use the
 * level or parameters they are given and leave the sticky ones alone.  The
 * shim keeps the sticky state in the ZSTD_CCtx (req, dict_*) and hands it
 * to the xcodec context only when it changed or a simple call changed the
 * context in between (req_dirty, dict_dirty), between frames: a series of
 * calls of one kind costs no more than xcodec's own call.
 *
 * What it may call: the public API (xcodec.h) and the shim's parameters
 * (compat_params.c).
 */
#include <stdlib.h>
#include <string.h>

#include "compat/compat_internal.h"

/* ---- contexts ------------------------------------------------------------------------ */

ZSTD_CCtx *ZSTD_createCCtx(void)
{
    ZSTD_CCtx *c = (ZSTD_CCtx *)calloc(1, sizeof *c);
    if (!c) return NULL;
    c->x = xc_zstd_cctx_new();
    if (!c->x) {
        free(c);
        return NULL;
    }
    zc_params_defaults(&c->req);
    c->x_plain = 1;
    c->x_level = ZSTD_CLEVEL_DEFAULT;
    return c;
}

static void drop_dict(ZSTD_CCtx *c)
{
    free(c->dict_copy);
    c->dict_copy = NULL;
    c->dict = NULL;
    c->dict_size = 0;
    c->cdict = NULL;
    c->dict_kind = ZC_DICT_NONE;
    c->dict_dirty = 1;
}

size_t ZSTD_freeCCtx(ZSTD_CCtx *c)
{
    if (!c) return 0;
    xc_zstd_cctx_free(c->x);
    free(c->dict_copy);
    free(c);
    return 0;
}

ZSTD_CStream *ZSTD_createCStream(void) { return ZSTD_createCCtx(); }
size_t ZSTD_freeCStream(ZSTD_CStream *zcs) { return ZSTD_freeCCtx(zcs); }

size_t ZSTD_sizeof_CCtx(const ZSTD_CCtx *c)
{
    if (!c) return 0;
    return sizeof *c + xc_zstd_cctx_mem_held(c->x) + (c->dict_copy ? c->dict_size : 0);
}
size_t ZSTD_sizeof_CStream(const ZSTD_CStream *zcs) { return ZSTD_sizeof_CCtx(zcs); }

size_t ZSTD_estimateCCtxSize(int level)
{
    size_t const r = xc_zstd_estimate_cctx_size(zc_level(level));
    return xc_is_error(r) ? zc_err(r) : r + sizeof(ZSTD_CCtx);
}

size_t ZSTD_estimateCCtxSize_usingCCtxParams(const ZSTD_CCtx_params *p)
{
    if (!p) return ZC_ERROR(GENERIC);
    return ZSTD_estimateCCtxSize(p->v[ZC_P_LEVEL]);
}

size_t ZSTD_estimateCStreamSize(int level)
{
    ZSTD_compressionParameters const cp = ZSTD_getCParams(level, 0, 0);
    size_t const base = ZSTD_estimateCCtxSize(level);
    if (ZSTD_isError(base)) return base;
    size_t const window = (size_t)1 << cp.windowLog;
    size_t const fresh = window > ((size_t)2 << 20) ? window : (size_t)2 << 20;
    return base + window + fresh + ZSTD_CStreamOutSize();
}

/* ---- sticky parameters --------------------------------------------------------------------- */

/* The parameters libzstd lets change while a frame is streamed (they apply
 * to the next frame here, as they do in a single-threaded libzstd). */
static int updatable(ZSTD_cParameter p)
{
    return p == ZSTD_c_compressionLevel || (p >= ZSTD_c_hashLog && p <= ZSTD_c_strategy);
}

size_t ZSTD_CCtx_setParameter(ZSTD_CCtx *c, ZSTD_cParameter param, int value)
{
    if (!c) return ZC_ERROR(GENERIC);
    if (c->in_frame && !updatable(param)) return ZC_ERROR(stage_wrong);
    size_t const r = zc_param_set(&c->req, param, value);
    if (!ZSTD_isError(r)) c->req_dirty = 1;
    return r;
}

size_t ZSTD_CCtx_getParameter(const ZSTD_CCtx *c, ZSTD_cParameter param, int *value)
{
    if (!c) return ZC_ERROR(GENERIC);
    return ZSTD_CCtxParams_getParameter(&c->req, param, value);
}

size_t ZSTD_CCtx_setParametersUsingCCtxParams(ZSTD_CCtx *c, const ZSTD_CCtx_params *p)
{
    if (!c || !p) return ZC_ERROR(GENERIC);
    if (c->in_frame) return ZC_ERROR(stage_wrong);
    c->req = *p;
    c->req_dirty = 1;
    return 0;
}

size_t ZSTD_CCtx_setPledgedSrcSize(ZSTD_CCtx *c, unsigned long long size)
{
    if (!c) return ZC_ERROR(GENERIC);
    if (c->in_frame) return ZC_ERROR(stage_wrong);
    c->pledged = size;
    c->pledged_set = size != ZSTD_CONTENTSIZE_UNKNOWN;
    return 0;
}

size_t ZSTD_CCtx_reset(ZSTD_CCtx *c, ZSTD_ResetDirective how)
{
    if (!c) return ZC_ERROR(GENERIC);
    if (how != ZSTD_reset_session_only && how != ZSTD_reset_parameters &&
        how != ZSTD_reset_session_and_parameters)
        return ZC_ERROR(parameter_outOfBound);
    if (how & ZSTD_reset_session_only) {
        xc_zstd_cctx_reset(c->x);
        c->in_frame = 0;
        c->in_blocks = 0;
        c->pledged_set = 0;
    }
    if (how & ZSTD_reset_parameters) {
        if (c->in_frame) return ZC_ERROR(stage_wrong);
        drop_dict(c);
        zc_params_defaults(&c->req);
        c->req_dirty = 1;
    }
    return 0;
}

/* Hands the sticky state to the xcodec context before a frame of the
 * advanced API. */
static size_t sync_advanced(ZSTD_CCtx *c)
{
    if (c->req_dirty) {
        size_t const r = zc_params_apply(c->x, &c->req);
        if (ZSTD_isError(r)) return r;
        c->req_dirty = 0;
        c->x_plain = zc_params_plain(&c->req);
        c->x_level = c->req.v[ZC_P_LEVEL];
    }
    if (c->dict_dirty) {
        size_t r = 0;
        switch (c->dict_kind) {
        case ZC_DICT_LOADED:
            r = xc_zstd_cctx_load_dictionary(c->x, c->dict, c->dict_size);
            break;
        case ZC_DICT_CDICT:
            r = xc_zstd_cctx_ref_cdict(c->x, (const xc_zstd_cdict *)c->cdict);
            break;
        case ZC_DICT_PREFIX:
            r = xc_zstd_cctx_ref_prefix(c->x, c->dict, c->dict_size);
            break;
        default: r = xc_zstd_cctx_ref_cdict(c->x, NULL); break;
        }
        if (xc_is_error(r)) return zc_err(r);
        c->dict_dirty = 0;
    }
    /* A prefix serves the frame that begins now. */
    if (c->dict_kind == ZC_DICT_PREFIX) {
        c->dict_kind = ZC_DICT_NONE;
        c->dict = NULL;
        c->dict_size = 0;
    }
    return 0;
}

/* Readies the xcodec context for a simple-API frame at a level, with the
 * default parameters otherwise; the sticky state goes back before the
 * next advanced call. */
static size_t sync_simple(ZSTD_CCtx *c, int level)
{
    if (level == 0) level = ZSTD_CLEVEL_DEFAULT;
    if (!c->x_plain || c->x_level != level) {
        ZSTD_CCtx_params p;
        zc_params_defaults(&p);
        p.v[ZC_P_LEVEL] = level;
        size_t const r = zc_params_apply(c->x, &p);
        if (ZSTD_isError(r)) return r;
        c->x_plain = 1;
        c->x_level = level;
        c->req_dirty = 1;
    }
    return 0;
}

/* ---- one-shot --------------------------------------------------------------------------- */

/* A frame in progress (or a series of blocks) is abandoned by a one-shot
 * call, as in libzstd. */
static void end_session(ZSTD_CCtx *c)
{
    if (c->in_frame || c->in_blocks) xc_zstd_cctx_reset(c->x);
    c->in_frame = 0;
    c->in_blocks = 0;
    c->pledged_set = 0;
}

size_t ZSTD_compress2(ZSTD_CCtx *c, void *dst, size_t cap, const void *src, size_t n)
{
    if (!c) return ZC_ERROR(GENERIC);
    end_session(c);
    size_t const s = sync_advanced(c);
    if (ZSTD_isError(s)) return s;
    return zc_err(xc_zstd_compress_cctx(c->x, dst, cap, src, n));
}

size_t ZSTD_compressCCtx(ZSTD_CCtx *c, void *dst, size_t cap, const void *src, size_t n,
                         int level)
{
    return ZSTD_compress_usingDict(c, dst, cap, src, n, NULL, 0, level);
}

/* Readies the context for a simple-API frame (or series of blocks) at a
 * level with dict[0..dict_size) or none. */
static size_t simple_setup(ZSTD_CCtx *c, const void *dict, size_t dict_size, int level)
{
    end_session(c);
    size_t r = sync_simple(c, level);
    if (ZSTD_isError(r)) return r;
    /* No dictionary unless one is given (libzstd: also none below 8 bytes). */
    if (!dict || dict_size < 8) {
        if (c->dict_kind != ZC_DICT_NONE || c->dict_dirty) {
            r = xc_zstd_cctx_ref_cdict(c->x, NULL);
            if (xc_is_error(r)) return zc_err(r);
            c->dict_dirty = c->dict_kind != ZC_DICT_NONE;
        }
    } else {
        r = xc_zstd_cctx_load_dictionary(c->x, dict, dict_size);
        if (xc_is_error(r)) return zc_err(r);
        c->dict_dirty = 1;
    }
    return 0;
}

size_t ZSTD_compress_usingDict(ZSTD_CCtx *c, void *dst, size_t cap, const void *src, size_t n,
                               const void *dict, size_t dict_size, int level)
{
    if (!c) return ZC_ERROR(GENERIC);
    size_t const r = simple_setup(c, dict, dict_size, level);
    if (ZSTD_isError(r)) return r;
    return zc_err(xc_zstd_compress_cctx(c->x, dst, cap, src, n));
}

size_t ZSTD_compress(void *dst, size_t cap, const void *src, size_t n, int level)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    if (!c) return ZC_ERROR(memory_allocation);
    size_t const r = ZSTD_compressCCtx(c, dst, cap, src, n, level);
    ZSTD_freeCCtx(c);
    return r;
}

/* Readies the context for a frame (or series of blocks) with a prepared
 * dictionary at its level and the frame parameters fp. */
static size_t cdict_setup(ZSTD_CCtx *c, const ZSTD_CDict *cd, ZSTD_frameParameters fp)
{
    if (!cd) return ZC_ERROR(dictionary_wrong);
    end_session(c);
    ZSTD_CCtx_params p;
    zc_params_defaults(&p);
    p.v[ZC_P_LEVEL] = xc_zstd_cdict_level((const xc_zstd_cdict *)cd);
    p.v[ZC_P_CSIZE] = fp.contentSizeFlag != 0;
    p.v[ZC_P_CHECKSUM] = fp.checksumFlag != 0;
    p.v[ZC_P_DICTID] = fp.noDictIDFlag == 0;
    size_t r = zc_params_apply(c->x, &p);
    if (ZSTD_isError(r)) return r;
    c->x_plain = zc_params_plain(&p);
    c->x_level = p.v[ZC_P_LEVEL];
    c->req_dirty = 1;
    r = xc_zstd_cctx_ref_cdict(c->x, (const xc_zstd_cdict *)cd);
    if (xc_is_error(r)) return zc_err(r);
    c->dict_dirty = 1;
    return 0;
}

size_t ZSTD_compress_usingCDict_advanced(ZSTD_CCtx *c, void *dst, size_t cap, const void *src,
                                         size_t n, const ZSTD_CDict *cd,
                                         ZSTD_frameParameters fp)
{
    if (!c) return ZC_ERROR(GENERIC);
    size_t const r = cdict_setup(c, cd, fp);
    if (ZSTD_isError(r)) return r;
    return zc_err(xc_zstd_compress_cctx(c->x, dst, cap, src, n));
}

size_t ZSTD_compress_usingCDict(ZSTD_CCtx *c, void *dst, size_t cap, const void *src, size_t n,
                                const ZSTD_CDict *cd)
{
    ZSTD_frameParameters const fp = {1, 0, 0};
    return ZSTD_compress_usingCDict_advanced(c, dst, cap, src, n, cd, fp);
}

size_t ZSTD_compress_advanced(ZSTD_CCtx *c, void *dst, size_t cap, const void *src, size_t n,
                              const void *dict, size_t dict_size, ZSTD_parameters params)
{
    if (!c) return ZC_ERROR(GENERIC);
    size_t r = ZSTD_checkCParams(params.cParams);
    if (ZSTD_isError(r)) return r;
    end_session(c);
    ZSTD_CCtx_params p;
    zc_params_defaults(&p);
    p.v[ZC_P_WLOG] = (int)params.cParams.windowLog;
    p.v[ZC_P_HLOG] = (int)params.cParams.hashLog;
    p.v[ZC_P_CLOG] = (int)params.cParams.chainLog;
    p.v[ZC_P_SLOG] = (int)params.cParams.searchLog;
    p.v[ZC_P_MML] = (int)params.cParams.minMatch;
    p.v[ZC_P_TLEN] = (int)params.cParams.targetLength;
    p.v[ZC_P_STRAT] = (int)params.cParams.strategy;
    p.v[ZC_P_CSIZE] = params.fParams.contentSizeFlag != 0;
    p.v[ZC_P_CHECKSUM] = params.fParams.checksumFlag != 0;
    p.v[ZC_P_DICTID] = params.fParams.noDictIDFlag == 0;
    r = zc_params_apply(c->x, &p);
    if (ZSTD_isError(r)) return r;
    c->x_plain = 0;
    c->req_dirty = 1;
    r = xc_zstd_cctx_load_dictionary(c->x, dict, dict && dict_size >= 8 ? dict_size : 0);
    if (xc_is_error(r)) return zc_err(r);
    c->dict_dirty = 1;
    return zc_err(xc_zstd_compress_cctx(c->x, dst, cap, src, n));
}

/* ---- sticky dictionaries --------------------------------------------------------------------- */

size_t ZSTD_CCtx_loadDictionary_advanced(ZSTD_CCtx *c, const void *dict, size_t size,
                                         ZSTD_dictLoadMethod_e how, ZSTD_dictContentType_e type)
{
    if (!c) return ZC_ERROR(GENERIC);
    if (c->in_frame) return ZC_ERROR(stage_wrong);
    if (!dict && size) return ZC_ERROR(GENERIC);
    int const formatted = size >= 8 && ((const unsigned char *)dict)[0] == 0x37 &&
                          ((const unsigned char *)dict)[1] == 0xA4 &&
                          ((const unsigned char *)dict)[2] == 0x30 &&
                          ((const unsigned char *)dict)[3] == 0xEC;
    if (type == ZSTD_dct_fullDict && !formatted) return ZC_ERROR(dictionary_wrong);
    drop_dict(c);
    if (!dict || size == 0) return 0;
    if (how == ZSTD_dlm_byCopy) {
        c->dict_copy = malloc(size);
        if (!c->dict_copy) return ZC_ERROR(memory_allocation);
        memcpy(c->dict_copy, dict, size);
        c->dict = c->dict_copy;
    } else {
        c->dict = dict;
    }
    c->dict_size = size;
    /* Raw content that happens to start with the dictionary magic is a
     * prefix for xcodec only until the frame: libzstd keeps it for every
     * frame.  (Rare: see README, "what differs".) */
    c->dict_raw = type == ZSTD_dct_rawContent && formatted;
    c->dict_kind = ZC_DICT_LOADED;
    return 0;
}

size_t ZSTD_CCtx_loadDictionary(ZSTD_CCtx *c, const void *dict, size_t size)
{
    return ZSTD_CCtx_loadDictionary_advanced(c, dict, size, ZSTD_dlm_byCopy, ZSTD_dct_auto);
}

size_t ZSTD_CCtx_loadDictionary_byReference(ZSTD_CCtx *c, const void *dict, size_t size)
{
    return ZSTD_CCtx_loadDictionary_advanced(c, dict, size, ZSTD_dlm_byRef, ZSTD_dct_auto);
}

size_t ZSTD_CCtx_refCDict(ZSTD_CCtx *c, const ZSTD_CDict *cd)
{
    if (!c) return ZC_ERROR(GENERIC);
    if (c->in_frame) return ZC_ERROR(stage_wrong);
    drop_dict(c);
    if (cd) {
        c->cdict = cd;
        c->dict_kind = ZC_DICT_CDICT;
    }
    return 0;
}

size_t ZSTD_CCtx_refPrefix_advanced(ZSTD_CCtx *c, const void *prefix, size_t size,
                                    ZSTD_dictContentType_e type)
{
    if (!c) return ZC_ERROR(GENERIC);
    if (c->in_frame) return ZC_ERROR(stage_wrong);
    drop_dict(c);
    if (!prefix || size == 0) return 0;
    if (type == ZSTD_dct_fullDict) {
        /* A formatted dictionary for one frame: as loaded, by reference. */
        return ZSTD_CCtx_loadDictionary_advanced(c, prefix, size, ZSTD_dlm_byRef, type);
    }
    c->dict = prefix;
    c->dict_size = size;
    c->dict_kind = ZC_DICT_PREFIX;
    return 0;
}

size_t ZSTD_CCtx_refPrefix(ZSTD_CCtx *c, const void *prefix, size_t size)
{
    return ZSTD_CCtx_refPrefix_advanced(c, prefix, size, ZSTD_dct_rawContent);
}

/* ---- streaming ------------------------------------------------------------------------------ */

size_t ZSTD_compressStream2(ZSTD_CCtx *c, ZSTD_outBuffer *out, ZSTD_inBuffer *in,
                            ZSTD_EndDirective op)
{
    if (!c || !out || !in) return ZC_ERROR(GENERIC);
    if ((unsigned)op > (unsigned)ZSTD_e_end) return ZC_ERROR(parameter_outOfBound);
    if (out->pos > out->size) return ZC_ERROR(dstSize_tooSmall);
    if (in->pos > in->size) return ZC_ERROR(srcSize_wrong);
    if (!c->in_frame) {
        if (c->in_blocks) end_session(c);
        size_t r = sync_advanced(c);
        if (ZSTD_isError(r)) return r;
        r = xc_zstd_cctx_set_pledged_size(c->x, c->pledged_set ? c->pledged
                                                               : XC_ZSTD_CONTENTSIZE_UNKNOWN);
        if (xc_is_error(r)) return zc_err(r);
        c->in_frame = 1;
    }
    /* ZSTD_inBuffer and ZSTD_outBuffer have xc_in_buffer's and
     * xc_out_buffer's layout. */
    size_t const r = xc_zstd_compress_stream(c->x, (xc_out_buffer *)out, (xc_in_buffer *)in,
                                             (xc_zstd_end_op)op);
    if (xc_is_error(r)) return zc_err(r);
    if (r == 0 && op == ZSTD_e_end) {
        c->in_frame = 0;
        c->pledged_set = 0;
    }
    return r;
}

size_t ZSTD_initCStream(ZSTD_CStream *c, int level)
{
    size_t r = ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    r = ZSTD_CCtx_refCDict(c, NULL);
    if (ZSTD_isError(r)) return r;
    r = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    return ZSTD_isError(r) ? r : 0;
}

size_t ZSTD_initCStream_srcSize(ZSTD_CStream *c, int level, unsigned long long pss)
{
    size_t const r = ZSTD_initCStream(c, level);
    if (ZSTD_isError(r)) return r;
    /* This older call takes 0 for "unknown". */
    return ZSTD_CCtx_setPledgedSrcSize(c, pss == 0 ? ZSTD_CONTENTSIZE_UNKNOWN : pss);
}

size_t ZSTD_initCStream_usingDict(ZSTD_CStream *c, const void *dict, size_t size, int level)
{
    size_t r = ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    r = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    if (ZSTD_isError(r)) return r;
    return ZSTD_CCtx_loadDictionary(c, dict, size);
}

size_t ZSTD_initCStream_usingCDict(ZSTD_CStream *c, const ZSTD_CDict *cd)
{
    size_t const r = ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    return ZSTD_CCtx_refCDict(c, cd);
}

size_t ZSTD_resetCStream(ZSTD_CStream *c, unsigned long long pss)
{
    size_t const r = ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    return ZSTD_CCtx_setPledgedSrcSize(c, pss == 0 ? ZSTD_CONTENTSIZE_UNKNOWN : pss);
}

size_t ZSTD_compressStream(ZSTD_CStream *c, ZSTD_outBuffer *out, ZSTD_inBuffer *in)
{
    size_t const r = ZSTD_compressStream2(c, out, in, ZSTD_e_continue);
    if (ZSTD_isError(r)) return r;
    /* The hint: what completes the block being gathered. */
    xc_zstd_progress p;
    xc_zstd_cctx_progress(c->x, &p);
    size_t const pending = (size_t)((p.ingested - p.consumed) % ZSTD_BLOCKSIZE_MAX);
    return ZSTD_BLOCKSIZE_MAX - pending;
}

size_t ZSTD_flushStream(ZSTD_CStream *c, ZSTD_outBuffer *out)
{
    ZSTD_inBuffer in = {NULL, 0, 0};
    return ZSTD_compressStream2(c, out, &in, ZSTD_e_flush);
}

size_t ZSTD_endStream(ZSTD_CStream *c, ZSTD_outBuffer *out)
{
    ZSTD_inBuffer in = {NULL, 0, 0};
    return ZSTD_compressStream2(c, out, &in, ZSTD_e_end);
}

ZSTD_frameProgression ZSTD_getFrameProgression(const ZSTD_CCtx *c)
{
    ZSTD_frameProgression fp;
    memset(&fp, 0, sizeof fp);
    xc_zstd_progress p;
    if (c && xc_zstd_cctx_progress(c->x, &p) == 0) {
        fp.ingested = p.ingested;
        fp.consumed = p.consumed;
        fp.produced = p.produced;
        fp.flushed = p.flushed;
    }
    return fp;
}

/* ---- blocks without frames ------------------------------------------------------------- */

/* libzstd's series of blocks is a simple-API session: the level or the
 * cdict given, the sticky state left alone. */
static size_t begin_blocks(ZSTD_CCtx *c, size_t setup)
{
    if (ZSTD_isError(setup)) return setup;
    size_t const r = xc_zstd_block_compress_begin(c->x);
    if (xc_is_error(r)) return zc_err(r);
    c->in_blocks = 1;
    return 0;
}

size_t ZSTD_compressBegin_usingDict(ZSTD_CCtx *c, const void *dict, size_t dict_size, int level)
{
    if (!c) return ZC_ERROR(GENERIC);
    return begin_blocks(c, simple_setup(c, dict, dict_size, level));
}

size_t ZSTD_compressBegin(ZSTD_CCtx *c, int level)
{
    return ZSTD_compressBegin_usingDict(c, NULL, 0, level);
}

size_t ZSTD_compressBegin_usingCDict(ZSTD_CCtx *c, const ZSTD_CDict *cd)
{
    if (!c) return ZC_ERROR(GENERIC);
    ZSTD_frameParameters const fp = {0, 0, 0};
    return begin_blocks(c, cdict_setup(c, cd, fp));
}

size_t ZSTD_getBlockSize(const ZSTD_CCtx *c)
{
    return c ? xc_zstd_block_max(c->x) : 0;
}

size_t ZSTD_compressBlock(ZSTD_CCtx *c, void *dst, size_t cap, const void *src, size_t n)
{
    if (!c) return ZC_ERROR(GENERIC);
    /* libzstd checks the size first, against the last parameters applied. */
    if (n > xc_zstd_block_max(c->x)) return ZC_ERROR(srcSize_wrong);
    if (!c->in_blocks) return ZC_ERROR(stage_wrong);
    return zc_err(xc_zstd_block_compress(c->x, dst, cap, src, n));
}
