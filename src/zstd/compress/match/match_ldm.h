/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Long-distance matching (match_ldm.c): a second match finder that looks
 * for long repeats anywhere in a large window, cheaply, by remembering only
 * a sample of the positions, and hands the stretches between its matches
 * to the strategy's ordinary finder.
 *
 * What it may call: the encoder (compress/).
 */
#ifndef XC_ZSTD_LDM_H
#define XC_ZSTD_LDM_H

#include "zstd/compress/compress_internal.h"

/* The window a frame gets when long-distance matching is switched on and
 * no window is set (as libzstd's --long). */
#define XC_ZLDM_WINDOW_LOG 27

/* Ranges of the settings (libzstd's). */
#define XC_ZLDM_HASH_LOG_MIN 6
#define XC_ZLDM_HASH_LOG_MAX 30
#define XC_ZLDM_MIN_MATCH_MIN 4
#define XC_ZLDM_MIN_MATCH_MAX 4096
#define XC_ZLDM_BUCKET_LOG_MIN 1
#define XC_ZLDM_BUCKET_LOG_MAX 8
#define XC_ZLDM_RATE_LOG_MAX (XC_ZSTD_WINDOW_LOG_MAX - XC_ZLDM_HASH_LOG_MIN)

/* The settings in force for a frame. */
typedef struct {
    int on;
    unsigned hash_log;   /* log2 of the table's entries */
    unsigned bucket_log; /* log2 of the entries per bucket */
    unsigned min_match;  /* bytes hashed per sampled position, and the shortest match */
    unsigned rate_log;   /* about one position in 2^rate_log is sampled */
} xc_zldm_params;

typedef struct xc_zldm_s xc_zldm;

/* The settings a frame with parameters p gets from the context's requests:
 * on when asked for, or (when left to the default) for the optimal
 * strategies with windows of 2^27 and more, as libzstd decides; the sizes
 * follow the window unless set.  c may be NULL: every setting at its
 * default. */
XC_HIDDEN xc_zldm_params xc_zldm_params_for(const xc_zstd_cctx *c, const xc_zstd_cparams *p);

/* Bytes the state for lp takes (0 when off). */
XC_HIDDEN size_t xc_zldm_bytes(const xc_zldm_params *lp);

/* Bytes c->ldm holds. */
XC_HIDDEN size_t xc_zldm_held(const xc_zldm *l);

/* Validates and records one of the XC_ZSTD_C_LONG_DISTANCE / XC_ZSTD_C_LDM_*
 * settings.  Returns 0 or XC_ERROR(BAD_PARAMETER). */
XC_HIDDEN size_t xc_zldm_set(xc_zstd_cctx *c, int param, int value);

/* Readies long-distance matching for a frame with parameters p whose first
 * byte is buf[0]: sets c->ldm_on and, when on, allocates the state (kept
 * between frames).  The frame's history is taken to start at c->ms.start
 * as it is at the first block.  Returns 0 or XC_ERROR(OUT_OF_MEMORY). */
XC_HIDDEN size_t xc_zldm_frame_begin(xc_zstd_cctx *c, const xc_zstd_cparams *p,
                                     const uint8_t *buf);

/* The match finder when long-distance matching is on: the block's long
 * matches, the strategy's finder c->finder on the stretches between them.
 * Same contract as xc_zstd_block_fn. */
XC_HIDDEN size_t xc_zldm_block(xc_zstd_cctx *c, uint32_t rep[3], const uint8_t *src,
                               size_t size);

/* Lowers every index the state holds by shift, with xc_zstd_ms_rebase(). */
XC_HIDDEN void xc_zldm_rebase(xc_zldm *l, uint32_t shift);

XC_HIDDEN void xc_zldm_free(xc_zldm *l);

#endif /* XC_ZSTD_LDM_H */
