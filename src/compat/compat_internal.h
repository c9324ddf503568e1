/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The libzstd-compatible shim (libzstd.so.1 built on xcodec): the state a
 * ZSTD_CCtx or ZSTD_DCtx keeps around its xcodec context, and the helpers
 * the shim's files share.  The shim is thin: every ZSTD_* call checks and
 * records what libzstd's contract says, then calls the xc_zstd_* API.
 *
 * Error codes.  xcodec's results carry enum xc_error as (size_t)-code, in
 * -1..-99; libzstd's carry ZSTD_ErrorCode, in -1..-120.  The ranges overlap,
 * so no xcodec result ever leaves the shim unconverted (zc_err()).
 *
 * What it may call: the public API (xcodec.h) and, for memory accounting
 * and the level tables, the hidden helpers named in compat_internal.h.
 */
#ifndef XC_COMPAT_INTERNAL_H
#define XC_COMPAT_INTERNAL_H

#define ZSTD_STATIC_LINKING_ONLY
#define ZDICT_STATIC_LINKING_ONLY
#include "zdict.h"
#include "zstd.h"
#include "zstd_errors.h"

#include "xcodec.h"

#if defined(__GNUC__) && __GNUC__ >= 4
#  define ZC_HIDDEN __attribute__((visibility("hidden")))
#else
#  define ZC_HIDDEN
#endif

#define ZC_ERROR(name) ((size_t) - (ZSTD_error_##name))

/* An xcodec result as libzstd would report it. */
ZC_HIDDEN size_t zc_err(size_t xc_result);

/* The level xcodec runs for a libzstd level: 0 is the default, levels
 * below xcodec's fastest run its fastest. */
ZC_HIDDEN int zc_level(int level);

/* The level whose parameters (for a dictionary of dict_size bytes, 0 for
 * none) are cp, else the lowest one with cp's strategy, else the default:
 * xcodec takes a level where libzstd takes parameters (compat_dict.c). */
ZC_HIDDEN int zc_level_for(ZSTD_compressionParameters cp, size_t dict_size);

/* ---- parameters (compat_params.c) ---- */

/* The slots of ZSTD_CCtx_params, one per parameter. */
enum {
    ZC_P_LEVEL, ZC_P_WLOG, ZC_P_HLOG, ZC_P_CLOG, ZC_P_SLOG, ZC_P_MML, ZC_P_TLEN, ZC_P_STRAT,
    ZC_P_TCBS, ZC_P_LDM, ZC_P_LDM_HLOG, ZC_P_LDM_MML, ZC_P_LDM_BLOG, ZC_P_LDM_HRLOG,
    ZC_P_CSIZE, ZC_P_CHECKSUM, ZC_P_DICTID, ZC_P_WORKERS, ZC_P_JOBSIZE, ZC_P_OVERLAP,
    ZC_P_RSYNC, ZC_P_FORMAT, ZC_P_FORCEMAXW, ZC_P_ATTACH, ZC_P_LITMODE, ZC_P_SRCHINT,
    ZC_P_DDS, ZC_P_STABLE_IN, ZC_P_STABLE_OUT, ZC_P_DELIM, ZC_P_VALIDATE, ZC_P_SPLIT,
    ZC_P_ROWMF, ZC_P_DETPREFIX, ZC_P_PREFETCH, ZC_P_SEQFALLBACK, ZC_P_MAXBLOCK, ZC_P_EXTREP,
    ZC_P_COUNT
};

struct ZSTD_CCtx_params_s {
    int v[ZC_P_COUNT];
};

/* The slot of a parameter, or -1 when libzstd does not know it. */
ZC_HIDDEN int zc_param_slot(ZSTD_cParameter param);
/* Checks value for the slot as libzstd does and stores what libzstd would
 * store; returns that value or an error. */
ZC_HIDDEN size_t zc_param_set(ZSTD_CCtx_params *p, ZSTD_cParameter param, int value);
ZC_HIDDEN void zc_params_defaults(ZSTD_CCtx_params *p);
/* Hands the parameters to an xcodec context (between frames). */
ZC_HIDDEN size_t zc_params_apply(xc_zstd_cctx *x, const ZSTD_CCtx_params *p);
/* Whether p is the defaults but for the level. */
ZC_HIDDEN int zc_params_plain(const ZSTD_CCtx_params *p);

/* ---- compression contexts (compat_compress.c) ---- */

enum { ZC_DICT_NONE, ZC_DICT_LOADED, ZC_DICT_CDICT, ZC_DICT_PREFIX };

struct ZSTD_CCtx_s {
    xc_zstd_cctx *x;
    ZSTD_CCtx_params req;     /* as asked: what getParameter reports */
    int req_dirty;            /* req not handed to x yet */
    int x_plain;              /* x holds the defaults, but for the level */
    int x_level;              /* the libzstd level x was given */
    int in_frame;             /* a streamed frame has begun */
    int in_blocks;            /* x holds a series of blocks (ZSTD_compressBegin*) */
    int pledged_set;
    unsigned long long pledged;
    /* The dictionary as asked (loaded, referenced or a prefix), and
     * whether x holds something else (after a simple-API call). */
    int dict_kind;
    int dict_dirty;
    const ZSTD_CDict *cdict;
    void *dict_copy;          /* loaded by copy: the shim's copy */
    const void *dict;         /* loaded: the bytes (dict_copy or the caller's) */
    size_t dict_size;
    int dict_raw;             /* loaded as raw content */
};

/* ---- decompression contexts (compat_decompress.c) ---- */

struct ZSTD_DCtx_s {
    xc_zstd_dctx *x;
    int wlog_max;             /* ZSTD_d_windowLogMax as asked (0: default) */
    int dparam[6];            /* the experimental parameters, as asked */
    int dict_kind;
    const xc_zstd_ddict *ddict; /* referenced (ZC_DICT_CDICT's counterpart) */
    xc_zstd_ddict *own;       /* loaded */
    const void *prefix;
    size_t prefix_size;
    /* libzstd's hostage byte (see ZSTD_decompressStream): 1 while the
     * last input byte taken is reported as not taken, 2 when moreover
     * the frame has ended behind it. */
    int hostage;
};

/* ---- hidden helpers of the library (memory accounting, level tables) ---- */
ZC_HIDDEN size_t xc_zstd_cctx_mem_held(const xc_zstd_cctx *c);
ZC_HIDDEN size_t xc_zstd_dctx_mem_held(const xc_zstd_dctx *d);
ZC_HIDDEN size_t xc_zstd_dctx_pending(const xc_zstd_dctx *d);
ZC_HIDDEN int xc_zstd_dctx_between_frames(const xc_zstd_dctx *d);
ZC_HIDDEN size_t xc_zstd_ddict_mem_held(const xc_zstd_ddict *dd);
ZC_HIDDEN size_t xc_zstd_cdict_mem_held(const xc_zstd_cdict *cd);
ZC_HIDDEN int xc_zstd_cdict_level(const xc_zstd_cdict *cd);
/* The size of a formatted dictionary's header (everything before the
 * content), 0 for raw content, or an xcodec error. */
ZC_HIDDEN size_t xc_zstd_dict_header_size(const void *dict, size_t size);

#endif
