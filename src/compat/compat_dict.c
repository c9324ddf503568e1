/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dictionaries of the shim: ZSTD_CDict is an xc_zstd_cdict and ZSTD_DDict
 * an xc_zstd_ddict (the handles are the same objects, so referencing one
 * costs nothing), and the ZDICT_* trainer and inspection functions.
 *
 * A CDict made from compression parameters (ZSTD_createCDict_advanced)
 * needs a level for xcodec: the level whose parameters for the
 * dictionary's size are the ones given, else the lowest level of the
 * same strategy.  Custom allocators are accepted and not used.
 *
 * What it may call: the public API (xcodec.h).
 */
#include <string.h>

#include "compat/compat_internal.h"

static int is_formatted(const void *dict, size_t size)
{
    const unsigned char *p = (const unsigned char *)dict;
    return size >= 8 && p[0] == 0x37 && p[1] == 0xA4 && p[2] == 0x30 && p[3] == 0xEC;
}

/* ---- CDict ---------------------------------------------------------------------------- */

ZSTD_CDict *ZSTD_createCDict(const void *dict, size_t size, int level)
{
    return (ZSTD_CDict *)xc_zstd_cdict_new(dict, size, zc_level(level));
}

ZSTD_CDict *ZSTD_createCDict_byReference(const void *dict, size_t size, int level)
{
    return ZSTD_createCDict(dict, size, level);
}

int zc_level_for(ZSTD_compressionParameters cp, size_t dict_size)
{
    int same_strategy = 0;
    for (int l = 1; l <= xc_zstd_max_level(); l++) {
        ZSTD_compressionParameters const q = ZSTD_getCParams(l, 0, dict_size);
        if (memcmp(&q, &cp, sizeof q) == 0) return l;
        if (!same_strategy && q.strategy == cp.strategy) same_strategy = l;
    }
    return same_strategy ? same_strategy : ZSTD_CLEVEL_DEFAULT;
}

/* What the _advanced constructors check of their extra arguments, as
 * libzstd does: a full dictionary must be one; the load method and the
 * allocator change nothing here (xcodec always copies, with malloc). */
static int advanced_ok(const void *dict, size_t size, ZSTD_dictContentType_e type)
{
    return type != ZSTD_dct_fullDict || is_formatted(dict, size);
}

ZSTD_CDict *ZSTD_createCDict_advanced(const void *dict, size_t size, ZSTD_dictLoadMethod_e how,
                                      ZSTD_dictContentType_e type, ZSTD_compressionParameters cp,
                                      ZSTD_customMem mem)
{
    (void)how;
    (void)mem;
    if (!advanced_ok(dict, size, type)) return NULL;
    int const level = cp.strategy == 0 ? ZSTD_CLEVEL_DEFAULT : zc_level_for(cp, size);
    return (ZSTD_CDict *)xc_zstd_cdict_new(dict, size, level);
}

size_t ZSTD_freeCDict(ZSTD_CDict *cd)
{
    xc_zstd_cdict_free((xc_zstd_cdict *)cd);
    return 0;
}

size_t ZSTD_sizeof_CDict(const ZSTD_CDict *cd)
{
    return xc_zstd_cdict_mem_held((const xc_zstd_cdict *)cd);
}

unsigned ZSTD_getDictID_fromCDict(const ZSTD_CDict *cd)
{
    return cd ? xc_zstd_cdict_id((const xc_zstd_cdict *)cd) : 0;
}

/* ---- DDict ------------------------------------------------------------------------------ */

ZSTD_DDict *ZSTD_createDDict(const void *dict, size_t size)
{
    return (ZSTD_DDict *)xc_zstd_ddict_new(dict, size);
}

ZSTD_DDict *ZSTD_createDDict_byReference(const void *dict, size_t size)
{
    return ZSTD_createDDict(dict, size);
}

ZSTD_DDict *ZSTD_createDDict_advanced(const void *dict, size_t size, ZSTD_dictLoadMethod_e how,
                                      ZSTD_dictContentType_e type, ZSTD_customMem mem)
{
    (void)how;
    (void)mem;
    return advanced_ok(dict, size, type) ? ZSTD_createDDict(dict, size) : NULL;
}

size_t ZSTD_freeDDict(ZSTD_DDict *dd)
{
    xc_zstd_ddict_free((xc_zstd_ddict *)dd);
    return 0;
}

size_t ZSTD_sizeof_DDict(const ZSTD_DDict *dd)
{
    return xc_zstd_ddict_mem_held((const xc_zstd_ddict *)dd);
}

unsigned ZSTD_getDictID_fromDDict(const ZSTD_DDict *dd)
{
    return dd ? xc_zstd_ddict_id((const xc_zstd_ddict *)dd) : 0;
}

unsigned ZSTD_getDictID_fromDict(const void *dict, size_t size)
{
    if (!is_formatted(dict, size)) return 0;
    const unsigned char *p = (const unsigned char *)dict + 4;
    return (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16 | (unsigned)p[3] << 24;
}

/* ---- ZDICT ------------------------------------------------------------------------------- */

unsigned ZDICT_isError(size_t code) { return ZSTD_isError(code); }
const char *ZDICT_getErrorName(size_t code) { return ZSTD_getErrorName(code); }
unsigned ZDICT_getDictID(const void *dict, size_t size) { return ZSTD_getDictID_fromDict(dict, size); }

size_t ZDICT_getDictHeaderSize(const void *dict, size_t size)
{
    if (!is_formatted(dict, size)) return ZC_ERROR(dictionary_corrupted);
    size_t const r = xc_zstd_dict_header_size(dict, size);
    return xc_is_error(r) ? ZC_ERROR(dictionary_corrupted) : r;
}

/* Puts a requested ID into a trained dictionary (bytes 4..7). */
static void set_id(void *dict, size_t size, unsigned id)
{
    if (!id || size < 8) return;
    unsigned char *p = (unsigned char *)dict + 4;
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(id >> (8 * i));
}

static size_t train(void *dict, size_t cap, const void *samples, const size_t *sizes,
                    unsigned nb, unsigned id)
{
    size_t const r = xc_zstd_train_dictionary(dict, cap, samples, sizes, nb);
    if (xc_is_error(r)) {
        /* libzstd reports every training failure as one code. */
        return xc_error_code(r) == XC_ERROR_OUT_OF_MEMORY ? ZC_ERROR(memory_allocation)
               : xc_error_code(r) == XC_ERROR_DST_TOO_SMALL ? ZC_ERROR(dstSize_tooSmall)
                                                           : ZC_ERROR(dictionaryCreation_failed);
    }
    set_id(dict, r, id);
    return r;
}

size_t ZDICT_trainFromBuffer(void *dict, size_t cap, const void *samples, const size_t *sizes,
                             unsigned nb)
{
    return train(dict, cap, samples, sizes, nb, 0);
}

size_t ZDICT_trainFromBuffer_cover(void *dict, size_t cap, const void *samples,
                                   const size_t *sizes, unsigned nb, ZDICT_cover_params_t p)
{
    return train(dict, cap, samples, sizes, nb, p.zParams.dictID);
}

size_t ZDICT_optimizeTrainFromBuffer_cover(void *dict, size_t cap, const void *samples,
                                           const size_t *sizes, unsigned nb,
                                           ZDICT_cover_params_t *p)
{
    if (!p) return ZC_ERROR(GENERIC);
    size_t const r = train(dict, cap, samples, sizes, nb, p->zParams.dictID);
    /* Report parameters, as the optimiser does: xcodec's trainer picks its
     * segment size itself; d is its d-mer. */
    if (!p->k) p->k = 1024;
    if (!p->d) p->d = 8;
    if (!p->steps) p->steps = 4;
    return r;
}

size_t ZDICT_trainFromBuffer_fastCover(void *dict, size_t cap, const void *samples,
                                       const size_t *sizes, unsigned nb,
                                       ZDICT_fastCover_params_t p)
{
    return train(dict, cap, samples, sizes, nb, p.zParams.dictID);
}

size_t ZDICT_optimizeTrainFromBuffer_fastCover(void *dict, size_t cap, const void *samples,
                                               const size_t *sizes, unsigned nb,
                                               ZDICT_fastCover_params_t *p)
{
    if (!p) return ZC_ERROR(GENERIC);
    size_t const r = train(dict, cap, samples, sizes, nb, p->zParams.dictID);
    if (!p->k) p->k = 1024;
    if (!p->d) p->d = 8;
    if (!p->f) p->f = 20;
    if (!p->steps) p->steps = 4;
    if (!p->accel) p->accel = 1;
    return r;
}

size_t ZDICT_finalizeDictionary(void *dst, size_t cap, const void *content, size_t content_size,
                                const void *samples, const size_t *sizes, unsigned nb,
                                ZDICT_params_t p)
{
    /* libzstd's limits first: a dictionary of at least 256 bytes, content
     * of at least 128. */
    if (cap < ZDICT_DICTSIZE_MIN) return ZC_ERROR(dstSize_tooSmall);
    if (content_size < ZDICT_CONTENTSIZE_MIN) return ZC_ERROR(dictionaryCreation_failed);
    size_t const r =
        xc_zstd_finalize_dictionary(dst, cap, content, content_size, samples, sizes, nb, p.dictID);
    if (!xc_is_error(r)) return r;
    return xc_error_code(r) == XC_ERROR_DST_TOO_SMALL ? ZC_ERROR(dstSize_tooSmall)
                                                     : ZC_ERROR(dictionaryCreation_failed);
}
