/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The encoder's compression parameters: strategies, the bounds of each
 * parameter, the parameter set of a frame, and the functions of
 * compress_levels.c that turn a level and a source size into one.  It
 * depends on nothing but the common helpers, so that every layer of the
 * encoder (frames, finders, dictionaries, the trainer) can include it.
 *
 * What it may call: the library's helpers (xc_internal.h) and the shared
 * format (common/).
 */
#ifndef XC_ZSTD_COMPRESS_PARAMS_H
#define XC_ZSTD_COMPRESS_PARAMS_H

#include "xc_internal.h"
#include "zstd/common/format.h"

/* ---- parameters ------------------------------------------------------------ */

enum {
    XC_ZSTRAT_FAST = 1,
    XC_ZSTRAT_DFAST = 2,
    XC_ZSTRAT_GREEDY = 3,
    XC_ZSTRAT_LAZY = 4,
    XC_ZSTRAT_LAZY2 = 5,
    XC_ZSTRAT_BTLAZY2 = 6,
    XC_ZSTRAT_BTOPT = 7,
    XC_ZSTRAT_BTULTRA = 8,
    XC_ZSTRAT_BTULTRA2 = 9,
    XC_ZSTRAT_MAX = 9
};

#define XC_ZSTD_LEVEL_MIN (-7)
#define XC_ZSTD_LEVEL_MAX 22
#define XC_ZSTD_LEVEL_DEFAULT 3

/* Ranges of the parameters a caller may set (xcodec.h). */
#define XC_ZSTD_HASHLOG_MIN 6
#define XC_ZSTD_HASHLOG_MAX 30
#define XC_ZSTD_CHAINLOG_MIN 6
#define XC_ZSTD_CHAINLOG_MAX 30
#define XC_ZSTD_SEARCHLOG_MIN 1
#define XC_ZSTD_SEARCHLOG_MAX 30
#define XC_ZSTD_MINMATCH_MIN 3
#define XC_ZSTD_MINMATCH_MAX 7
#define XC_ZSTD_TARGETLEN_MAX 131072

typedef struct {
    unsigned window_log;
    unsigned chain_log;
    unsigned hash_log;
    unsigned search_log;
    unsigned min_match;
    unsigned target_length; /* fast strategy: the acceleration of negative levels */
    unsigned strategy;
} xc_zstd_cparams;

/* "Unknown source size" for the parameter functions. */
#define XC_ZSTD_SIZE_UNKNOWN UINT64_MAX

/* compress_levels.c: the parameters of a level for a source of src_size bytes
 * (XC_ZSTD_SIZE_UNKNOWN when not known), already adapted to that size.
 * level is within [XC_ZSTD_LEVEL_MIN, XC_ZSTD_LEVEL_MAX]; 0 is the default. */
XC_HIDDEN xc_zstd_cparams xc_zstd_level_params(int level, uint64_t src_size);

/* compress_levels.c: shrinks the window to the source (never below 2^10) and
 * caps the hash and chain logs by the window, as a source of src_size bytes
 * needs no more; then replaces a strategy this build lacks by the nearest
 * one below it.  Unknown sizes leave the parameters as they are. */
XC_HIDDEN xc_zstd_cparams xc_zstd_adapt_params(xc_zstd_cparams p, uint64_t src_size);

/* p with every parameter the caller set explicitly in req (those not 0)
 * in place of its own: a context's settings on top of a level's. */
static inline xc_zstd_cparams xc_zstd_override_params(xc_zstd_cparams p,
                                                      const xc_zstd_cparams *req)
{
    if (req->window_log) p.window_log = req->window_log;
    if (req->chain_log) p.chain_log = req->chain_log;
    if (req->hash_log) p.hash_log = req->hash_log;
    if (req->search_log) p.search_log = req->search_log;
    if (req->min_match) p.min_match = req->min_match;
    if (req->target_length) p.target_length = req->target_length;
    if (req->strategy) p.strategy = req->strategy;
    return p;
}

#endif
