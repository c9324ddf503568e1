/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compression parameters as libzstd keeps them: ZSTD_CCtx_params, their
 * bounds, and how they reach an xcodec context.
 *
 * A parameter has a slot, a range and a rule for what is stored: the
 * level is clamped to its range, the cParams (window, hash, chain, search,
 * min match, target length, strategy) and the long-distance matcher's
 * accept 0 ("from the level") or a value in range, the frame flags store
 * value != 0, and the settings of features a single-threaded libzstd
 * lacks (workers, job size, overlap, rsyncable) accept only 0, failing
 * with parameter_unsupported as such a libzstd does.  Setting a parameter
 * returns the value stored, as libzstd's functions do.
 *
 * Experimental parameters that only steer how libzstd works inside
 * (attach or copy a dictionary, row match finder, prefetching, stable
 * buffers...) are stored and reported but change nothing here: xcodec
 * chooses for itself.  The one that changes the format, magicless frames
 * (ZSTD_c_format = ZSTD_f_zstd1_magicless), goes to XC_ZSTD_C_FORMAT.
 *
 * What it may call: the public API (xcodec.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compat/compat_internal.h"

/* Store rules. */
enum { R_CLAMP, R_ZERO_OR_RANGE, R_RANGE, R_FLAG, R_ONLY_ZERO };

typedef struct {
    int param;
    int lo, hi;
    int rule;
    int def;
} zc_pdesc;

/* By slot (compat_internal.h). */
static const zc_pdesc pdesc[ZC_P_COUNT] = {
    [ZC_P_LEVEL] = {ZSTD_c_compressionLevel, -(1 << 17), 22, R_CLAMP, ZSTD_CLEVEL_DEFAULT},
    [ZC_P_WLOG] = {ZSTD_c_windowLog, ZSTD_WINDOWLOG_MIN, ZSTD_WINDOWLOG_MAX, R_ZERO_OR_RANGE, 0},
    [ZC_P_HLOG] = {ZSTD_c_hashLog, ZSTD_HASHLOG_MIN, ZSTD_HASHLOG_MAX, R_ZERO_OR_RANGE, 0},
    [ZC_P_CLOG] = {ZSTD_c_chainLog, ZSTD_CHAINLOG_MIN, ZSTD_CHAINLOG_MAX, R_ZERO_OR_RANGE, 0},
    [ZC_P_SLOG] = {ZSTD_c_searchLog, ZSTD_SEARCHLOG_MIN, ZSTD_SEARCHLOG_MAX, R_ZERO_OR_RANGE, 0},
    [ZC_P_MML] = {ZSTD_c_minMatch, ZSTD_MINMATCH_MIN, ZSTD_MINMATCH_MAX, R_ZERO_OR_RANGE, 0},
    [ZC_P_TLEN] = {ZSTD_c_targetLength, 0, ZSTD_TARGETLENGTH_MAX, R_RANGE, 0},
    [ZC_P_STRAT] = {ZSTD_c_strategy, ZSTD_STRATEGY_MIN, ZSTD_STRATEGY_MAX, R_ZERO_OR_RANGE, 0},
    [ZC_P_TCBS] = {ZSTD_c_targetCBlockSize, ZSTD_TARGETCBLOCKSIZE_MIN, ZSTD_TARGETCBLOCKSIZE_MAX,
                   R_ZERO_OR_RANGE, 0},
    [ZC_P_LDM] = {ZSTD_c_enableLongDistanceMatching, 0, 2, R_RANGE, 0},
    [ZC_P_LDM_HLOG] = {ZSTD_c_ldmHashLog, ZSTD_LDM_HASHLOG_MIN, ZSTD_LDM_HASHLOG_MAX,
                       R_ZERO_OR_RANGE, 0},
    [ZC_P_LDM_MML] = {ZSTD_c_ldmMinMatch, ZSTD_LDM_MINMATCH_MIN, ZSTD_LDM_MINMATCH_MAX,
                      R_ZERO_OR_RANGE, 0},
    [ZC_P_LDM_BLOG] = {ZSTD_c_ldmBucketSizeLog, ZSTD_LDM_BUCKETSIZELOG_MIN,
                       ZSTD_LDM_BUCKETSIZELOG_MAX, R_ZERO_OR_RANGE, 0},
    [ZC_P_LDM_HRLOG] = {ZSTD_c_ldmHashRateLog, ZSTD_LDM_HASHRATELOG_MIN, ZSTD_LDM_HASHRATELOG_MAX,
                        R_ZERO_OR_RANGE, 0},
    [ZC_P_CSIZE] = {ZSTD_c_contentSizeFlag, 0, 1, R_FLAG, 1},
    [ZC_P_CHECKSUM] = {ZSTD_c_checksumFlag, 0, 1, R_FLAG, 0},
    [ZC_P_DICTID] = {ZSTD_c_dictIDFlag, 0, 1, R_FLAG, 1},
    /* The library's workers, with a multithreaded libzstd's bounds (64-bit). */
    [ZC_P_WORKERS] = {ZSTD_c_nbWorkers, 0, 256, R_CLAMP, 0},
    [ZC_P_JOBSIZE] = {ZSTD_c_jobSize, 0, 1 << 30, R_CLAMP, 0},
    [ZC_P_OVERLAP] = {ZSTD_c_overlapLog, 0, 9, R_CLAMP, 0},
    [ZC_P_RSYNC] = {ZSTD_c_rsyncable, 0, 0, R_ONLY_ZERO, 0},
    [ZC_P_FORMAT] = {ZSTD_c_format, ZSTD_f_zstd1, ZSTD_f_zstd1_magicless, R_RANGE, 0},
    [ZC_P_FORCEMAXW] = {ZSTD_c_forceMaxWindow, 0, 1, R_FLAG, 0},
    [ZC_P_ATTACH] = {ZSTD_c_forceAttachDict, 0, 3, R_RANGE, 0},
    [ZC_P_LITMODE] = {ZSTD_c_literalCompressionMode, 0, 2, R_RANGE, 0},
    [ZC_P_SRCHINT] = {ZSTD_c_srcSizeHint, 0, INT_MAX, R_RANGE, 0},
    [ZC_P_DDS] = {ZSTD_c_enableDedicatedDictSearch, 0, 1, R_FLAG, 0},
    [ZC_P_STABLE_IN] = {ZSTD_c_stableInBuffer, 0, 1, R_FLAG, 0},
    [ZC_P_STABLE_OUT] = {ZSTD_c_stableOutBuffer, 0, 1, R_FLAG, 0},
    [ZC_P_DELIM] = {ZSTD_c_blockDelimiters, 0, 1, R_FLAG, 0},
    [ZC_P_VALIDATE] = {ZSTD_c_validateSequences, 0, 1, R_FLAG, 0},
    [ZC_P_SPLIT] = {ZSTD_c_useBlockSplitter, 0, 2, R_RANGE, 0},
    [ZC_P_ROWMF] = {ZSTD_c_useRowMatchFinder, 0, 2, R_RANGE, 0},
    [ZC_P_DETPREFIX] = {ZSTD_c_deterministicRefPrefix, 0, 1, R_FLAG, 0},
    [ZC_P_PREFETCH] = {ZSTD_c_prefetchCDictTables, 0, 2, R_RANGE, 0},
    [ZC_P_SEQFALLBACK] = {ZSTD_c_enableSeqProducerFallback, 0, 1, R_FLAG, 0},
    [ZC_P_MAXBLOCK] = {ZSTD_c_maxBlockSize, ZSTD_BLOCKSIZE_MAX_MIN, ZSTD_BLOCKSIZE_MAX,
                       R_ZERO_OR_RANGE, 0},
    [ZC_P_EXTREP] = {ZSTD_c_searchForExternalRepcodes, 0, 2, R_RANGE, 0},
};

/* libzstd 1.5.4 numbered targetCBlockSize among the experimental ones. */
#define ZC_TCBS_OLD 1003

int zc_param_slot(ZSTD_cParameter param)
{
    if ((int)param == ZC_TCBS_OLD) return ZC_P_TCBS;
    for (int i = 0; i < ZC_P_COUNT; i++)
        if (pdesc[i].param == (int)param) return i;
    return -1;
}

void zc_params_defaults(ZSTD_CCtx_params *p)
{
    for (int i = 0; i < ZC_P_COUNT; i++) p->v[i] = pdesc[i].def;
}

size_t zc_param_set(ZSTD_CCtx_params *p, ZSTD_cParameter param, int value)
{
    int const s = zc_param_slot(param);
    if (s < 0) return ZC_ERROR(parameter_unsupported);
    const zc_pdesc *d = &pdesc[s];
    switch (d->rule) {
    case R_CLAMP:
        if (value == 0) value = d->def;
        if (value < d->lo) value = d->lo;
        if (value > d->hi) value = d->hi;
        break;
    case R_ZERO_OR_RANGE:
        if (value != 0 && (value < d->lo || value > d->hi)) return ZC_ERROR(parameter_outOfBound);
        break;
    case R_RANGE:
        if (value < d->lo || value > d->hi) return ZC_ERROR(parameter_outOfBound);
        break;
    case R_FLAG: value = value != 0; break;
    default:
        if (value != 0) return ZC_ERROR(parameter_unsupported);
        break;
    }
    p->v[s] = value;
    /* A negative value (a fast level) cannot be returned in a size_t:
     * libzstd returns 0 for it. */
    return value < 0 ? 0 : (size_t)value;
}

ZSTD_bounds ZSTD_cParam_getBounds(ZSTD_cParameter param)
{
    ZSTD_bounds b = {0, 0, 0};
    int const s = zc_param_slot(param);
    if (s < 0) {
        b.error = ZC_ERROR(parameter_unsupported);
        return b;
    }
    b.lowerBound = pdesc[s].rule == R_ZERO_OR_RANGE ? pdesc[s].lo : pdesc[s].lo;
    b.upperBound = pdesc[s].hi;
    return b;
}

/* ---- ZSTD_CCtx_params ------------------------------------------------------------ */

ZSTD_CCtx_params *ZSTD_createCCtxParams(void)
{
    ZSTD_CCtx_params *p = (ZSTD_CCtx_params *)malloc(sizeof *p);
    if (p) zc_params_defaults(p);
    return p;
}

size_t ZSTD_freeCCtxParams(ZSTD_CCtx_params *p)
{
    free(p);
    return 0;
}

size_t ZSTD_CCtxParams_reset(ZSTD_CCtx_params *p)
{
    if (!p) return ZC_ERROR(GENERIC);
    zc_params_defaults(p);
    return 0;
}

size_t ZSTD_CCtxParams_init(ZSTD_CCtx_params *p, int level)
{
    if (!p) return ZC_ERROR(GENERIC);
    zc_params_defaults(p);
    p->v[ZC_P_LEVEL] = level;
    return 0;
}

size_t ZSTD_CCtxParams_setParameter(ZSTD_CCtx_params *p, ZSTD_cParameter param, int value)
{
    if (!p) return ZC_ERROR(GENERIC);
    return zc_param_set(p, param, value);
}

size_t ZSTD_CCtxParams_getParameter(const ZSTD_CCtx_params *p, ZSTD_cParameter param, int *value)
{
    int const s = zc_param_slot(param);
    if (s < 0) return ZC_ERROR(parameter_unsupported);
    if (!p || !value) return ZC_ERROR(GENERIC);
    *value = p->v[s];
    return 0;
}

/* ---- to an xcodec context ----------------------------------------------------------- */

int zc_params_plain(const ZSTD_CCtx_params *p)
{
    for (int i = 0; i < ZC_P_COUNT; i++)
        if (i != ZC_P_LEVEL && p->v[i] != pdesc[i].def) return 0;
    return 1;
}

size_t zc_params_apply(xc_zstd_cctx *x, const ZSTD_CCtx_params *p)
{
    /* The numbers of these xcodec parameters are libzstd's. */
    static const struct {
        int slot;
        xc_zstd_cparam xp;
    } map[] = {
        {ZC_P_WLOG, XC_ZSTD_C_WINDOW_LOG},   {ZC_P_HLOG, XC_ZSTD_C_HASH_LOG},
        {ZC_P_CLOG, XC_ZSTD_C_CHAIN_LOG},    {ZC_P_SLOG, XC_ZSTD_C_SEARCH_LOG},
        {ZC_P_MML, XC_ZSTD_C_MIN_MATCH},     {ZC_P_TLEN, XC_ZSTD_C_TARGET_LENGTH},
        {ZC_P_STRAT, XC_ZSTD_C_STRATEGY},    {ZC_P_CSIZE, XC_ZSTD_C_CONTENT_SIZE},
        {ZC_P_CHECKSUM, XC_ZSTD_C_CHECKSUM}, {ZC_P_DICTID, XC_ZSTD_C_DICT_ID},
        {ZC_P_LDM, XC_ZSTD_C_LONG_DISTANCE}, {ZC_P_LDM_HLOG, XC_ZSTD_C_LDM_HASH_LOG},
        {ZC_P_LDM_MML, XC_ZSTD_C_LDM_MIN_MATCH}, {ZC_P_LDM_BLOG, XC_ZSTD_C_LDM_BUCKET_LOG},
        {ZC_P_LDM_HRLOG, XC_ZSTD_C_LDM_HASH_RATE_LOG}, {ZC_P_SPLIT, XC_ZSTD_C_BLOCK_SPLITTER},
        {ZC_P_WORKERS, XC_ZSTD_C_NB_WORKERS}, {ZC_P_JOBSIZE, XC_ZSTD_C_JOB_SIZE},
        {ZC_P_OVERLAP, XC_ZSTD_C_OVERLAP_LOG}, {ZC_P_FORMAT, XC_ZSTD_C_FORMAT},
    };
    size_t r = xc_zstd_cctx_set(x, XC_ZSTD_C_LEVEL, zc_level(p->v[ZC_P_LEVEL]));
    if (xc_is_error(r)) return zc_err(r);
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        r = xc_zstd_cctx_set(x, map[i].xp, p->v[map[i].slot]);
        if (xc_is_error(r)) return zc_err(r);
    }
    return 0;
}
