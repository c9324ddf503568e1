/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The experimental calls that are other spellings of what the shim
 * already does: the *_simpleArgs streaming forms, contexts with custom
 * allocators (accepted, not used), the size estimates by parameters, and
 * the initialisers that take parameters.
 *
 * What it may call: the shim's other files, through the ZSTD_* API.
 */
#include <string.h>

#include "compat/compat_internal.h"

size_t ZSTD_compressStream2_simpleArgs(ZSTD_CCtx *c, void *dst, size_t cap, size_t *dst_pos,
                                       const void *src, size_t n, size_t *src_pos,
                                       ZSTD_EndDirective op)
{
    ZSTD_outBuffer out = {dst, cap, *dst_pos};
    ZSTD_inBuffer in = {src, n, *src_pos};
    size_t const r = ZSTD_compressStream2(c, &out, &in, op);
    *dst_pos = out.pos;
    *src_pos = in.pos;
    return r;
}

size_t ZSTD_decompressStream_simpleArgs(ZSTD_DCtx *d, void *dst, size_t cap, size_t *dst_pos,
                                        const void *src, size_t n, size_t *src_pos)
{
    ZSTD_outBuffer out = {dst, cap, *dst_pos};
    ZSTD_inBuffer in = {src, n, *src_pos};
    size_t const r = ZSTD_decompressStream(d, &out, &in);
    *dst_pos = out.pos;
    *src_pos = in.pos;
    return r;
}

ZSTD_CCtx *ZSTD_createCCtx_advanced(ZSTD_customMem mem)
{
    (void)mem;
    return ZSTD_createCCtx();
}
ZSTD_DCtx *ZSTD_createDCtx_advanced(ZSTD_customMem mem)
{
    (void)mem;
    return ZSTD_createDCtx();
}
ZSTD_CStream *ZSTD_createCStream_advanced(ZSTD_customMem mem) { return ZSTD_createCCtx_advanced(mem); }
ZSTD_DStream *ZSTD_createDStream_advanced(ZSTD_customMem mem) { return ZSTD_createDCtx_advanced(mem); }

/* A single-threaded library has nothing in flight between calls. */
size_t ZSTD_toFlushNow(ZSTD_CCtx *c)
{
    (void)c;
    return 0;
}

size_t ZSTD_estimateCCtxSize_usingCParams(ZSTD_compressionParameters cp)
{
    return ZSTD_estimateCCtxSize(zc_level_for(cp, 0));
}

size_t ZSTD_estimateCStreamSize_usingCParams(ZSTD_compressionParameters cp)
{
    return ZSTD_estimateCStreamSize(zc_level_for(cp, 0));
}

size_t ZSTD_estimateCStreamSize_usingCCtxParams(const ZSTD_CCtx_params *p)
{
    if (!p) return ZC_ERROR(GENERIC);
    return ZSTD_estimateCStreamSize(p->v[ZC_P_LEVEL]);
}

size_t ZSTD_estimateCDictSize(size_t size, int level)
{
    /* The copy, and tables of about what a context has for the level. */
    size_t const c = ZSTD_estimateCCtxSize(level);
    return ZSTD_isError(c) ? c : size + c / 2;
}

size_t ZSTD_estimateDDictSize(size_t size, ZSTD_dictLoadMethod_e how)
{
    (void)how;
    return size + 32768;
}

size_t ZSTD_CCtx_setCParams(ZSTD_CCtx *c, ZSTD_compressionParameters cp)
{
    size_t r = ZSTD_checkCParams(cp);
    if (ZSTD_isError(r)) return r;
    static const ZSTD_cParameter order[7] = {ZSTD_c_windowLog, ZSTD_c_chainLog, ZSTD_c_hashLog,
                                             ZSTD_c_searchLog, ZSTD_c_minMatch,
                                             ZSTD_c_targetLength, ZSTD_c_strategy};
    unsigned const v[7] = {cp.windowLog, cp.chainLog, cp.hashLog, cp.searchLog,
                           cp.minMatch, cp.targetLength, (unsigned)cp.strategy};
    for (int i = 0; i < 7; i++) {
        r = ZSTD_CCtx_setParameter(c, order[i], (int)v[i]);
        if (ZSTD_isError(r)) return r;
    }
    return 0;
}

size_t ZSTD_CCtxParams_init_advanced(ZSTD_CCtx_params *p, ZSTD_parameters params)
{
    size_t r = ZSTD_checkCParams(params.cParams);
    if (ZSTD_isError(r)) return r;
    if (!p) return ZC_ERROR(GENERIC);
    zc_params_defaults(p);
    p->v[ZC_P_WLOG] = (int)params.cParams.windowLog;
    p->v[ZC_P_CLOG] = (int)params.cParams.chainLog;
    p->v[ZC_P_HLOG] = (int)params.cParams.hashLog;
    p->v[ZC_P_SLOG] = (int)params.cParams.searchLog;
    p->v[ZC_P_MML] = (int)params.cParams.minMatch;
    p->v[ZC_P_TLEN] = (int)params.cParams.targetLength;
    p->v[ZC_P_STRAT] = (int)params.cParams.strategy;
    p->v[ZC_P_CSIZE] = params.fParams.contentSizeFlag != 0;
    p->v[ZC_P_CHECKSUM] = params.fParams.checksumFlag != 0;
    p->v[ZC_P_DICTID] = params.fParams.noDictIDFlag == 0;
    return 0;
}

size_t ZSTD_initCStream_advanced(ZSTD_CStream *c, const void *dict, size_t size,
                                 ZSTD_parameters params, unsigned long long pss)
{
    ZSTD_CCtx_params p;
    size_t r = ZSTD_CCtxParams_init_advanced(&p, params);
    if (ZSTD_isError(r)) return r;
    r = ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    /* This older call takes 0 for "unknown" unless the header says sizes. */
    if (pss == 0 && !params.fParams.contentSizeFlag) pss = ZSTD_CONTENTSIZE_UNKNOWN;
    r = ZSTD_CCtx_setParametersUsingCCtxParams(c, &p);
    if (ZSTD_isError(r)) return r;
    r = ZSTD_CCtx_setPledgedSrcSize(c, pss);
    if (ZSTD_isError(r)) return r;
    return ZSTD_CCtx_loadDictionary(c, dict, size);
}

size_t ZSTD_initCStream_usingCDict_advanced(ZSTD_CStream *c, const ZSTD_CDict *cd,
                                            ZSTD_frameParameters fp, unsigned long long pss)
{
    size_t r = ZSTD_CCtx_reset(c, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, fp.contentSizeFlag);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, fp.checksumFlag);
    ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, !fp.noDictIDFlag);
    r = ZSTD_CCtx_setPledgedSrcSize(c, pss);
    if (ZSTD_isError(r)) return r;
    return ZSTD_CCtx_refCDict(c, cd);
}
