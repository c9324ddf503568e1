/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compression dictionaries: the prepared form (xc_zstd_cdict) and what the
 * encoder does with it at the start and end of each frame.
 *
 * A prepared dictionary is the state a context would be in after reading
 * the dictionary's content as if it were the start of a frame: match tables
 * filled with the content's positions (content byte k has index 1 + k, the
 * index a frame's history starts at), the entropy tables in force and the
 * repeat offsets of a formatted dictionary.  It is never written after
 * creation, so any number of contexts in any number of threads may read it.
 *
 * Small one-shot frames of the fast to btlazy2 strategies search the
 * dictionary's tables in place (match_fast_dict_tmpl.h, match_lazy_tmpl.h in its dictionary mode).
 * Other frames are
 * compressed from the context's window buffer with the content placed
 * right before the input, so every match finder sees one contiguous
 * history and needs no dictionary-aware variant; the frame uses the
 * dictionary's table sizes, so its tables start as a copy of the
 * dictionary's.  The costs per frame that would dominate small inputs
 * are avoided by remembering what the context already holds:
 *   - the content stays in the window buffer from frame to frame (it is
 *     only copied again when the buffer was reallocated, slid, or used by
 *     another frame);
 *   - after a frame, the fast and dfast strategies put back the table cells
 *     the frame's positions hash to, and greedy, lazy and lazy2 the rows
 *     they hash to (these strategies always search rows with a dictionary:
 *     see xc_zstd_cdict_build), so the tables equal the dictionary's again
 *     and the next frame copies nothing (a frame of n bytes costs n cell
 *     or row restores instead of a copy of the whole tables), unless the
 *     frame was large enough that the copy costs less;
 *   - the entropy tables in force stay the dictionary's while no block
 *     replaced them, and are then not copied again.
 * The tree strategies copy the tables at each frame: an insertion rewrites
 * links of older nodes along its path, which only a comparison of the
 * whole tree could find again.
 *
 * What it may call: the encoder (compress/).
 */
#ifndef XC_ZSTD_CDICT_H
#define XC_ZSTD_CDICT_H

#include "zstd/compress/compress_internal.h"

struct xc_zstd_cdict_s {
    uint64_t key;             /* identifies content and parameters (see cdict_key) */
    uint32_t id;              /* dictionary ID, 0 for raw content */
    int level;
    xc_zstd_cparams p;        /* parameters the tables were built for */
    xc_zstd_cparams asked;    /* what xc_zstd_cdict_build() was given */
    uint8_t *buf;             /* private copy of the dictionary */
    const uint8_t *content;   /* the history part, inside buf */
    size_t content_size;
    /* Match tables laid out as xc_zstd_cframe_begin() lays out a context's,
     * and the match state that filled them (base = content - 1, start 1). */
    uint32_t *tables;
    size_t table_words;
    /* fast and dfast: each cell of the hash table (and of dfast's short
     * table after it) again, as its position times 256 plus 8 more bits of
     * that position's hash (the tag), so that a frame searching the tables
     * in place (match_fast_dict_tmpl.h) skips most wrong candidates without
     * reading the content, with one load; NULL for other strategies, and
     * for contents whose positions do not fit in 24 bits (those never
     * attach). */
    uint32_t *packed;
    xc_zmatch_state ms;
    /* Formatted dictionaries: the tables and offsets the first block may
     * repeat. */
    int has_entropy;
    uint32_t rep[3];
    xc_huf_ctable huf;
    xc_fse_ctable fse[3];     /* by XC_SEQ_* */
    int16_t norm[3][64];
    uint8_t norm_log[3];
    uint8_t norm_max[3];
};

/* Builds a prepared dictionary with parameters p into *out.  Returns 0,
 * XC_ERROR(DICT_CORRUPT), XC_ERROR(OUT_OF_MEMORY) or
 * XC_ERROR(BAD_PARAMETER). */
XC_HIDDEN size_t xc_zstd_cdict_build(xc_zstd_cdict **out, const void *dict, size_t size,
                                     const xc_zstd_cparams *p, int level);

/* Parameters for the tables of a dictionary of `size` bytes at a level,
 * as libzstd chooses them for a prepared dictionary: those of a source
 * of the dictionary's size plus a small input. */
XC_HIDDEN xc_zstd_cparams xc_zstd_cdict_params(int level, size_t size);

/* The tag of a hash computed with 8 more bits than the table's log: its
 * top bits are the cell (xc_zhash with the table's log), the low 8 the tag. */
static inline uint8_t xc_zdict_tag(size_t hash_plus8) { return (uint8_t)hash_plus8; }

/* The position in cell hash_plus8 >> 8 of a packed dictionary table, or 0
 * (empty) when its tag is not hash_plus8's.  Decided with a mask, not a
 * branch: in text-like records whether a cell carries the tag is as good
 * as random. */
static inline uint32_t xc_zdict_cell(const uint32_t *packed, size_t hash_plus8)
{
    uint32_t const e = packed[hash_plus8 >> 8];
    return (e >> 8) & ((uint32_t)0 - (uint32_t)((uint8_t)e == xc_zdict_tag(hash_plus8)));
}

/* Positions a packed cell holds: below 2^24. */
#define XC_ZDICT_PACKED_LIMIT ((uint32_t)1 << 24)

/* The finders for a frame whose ms->dict is set are each ISA variant's
 * `attached` table (compress_kernels.h): fast and dfast with the
 * dictionary's min_match and tables no larger than the dictionary's
 * (match_fast_dict_tmpl.h); greedy, lazy and lazy2 over rows as wide as
 * the dictionary's, and btlazy2 (match_lazy_tmpl.h, dictionary mode). */

#endif /* XC_ZSTD_CDICT_H */
