/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the differential tests of the libzstd-compatible library share
 * (compat_diff_common.c): the table of ZSTD_* functions, one for Debian's
 * libzstd (linked the normal way, -lzstd) and one for ours (dlopen()ed
 * from the compat build folder), the proof of which is which, the check
 * macro, and seeded inputs.
 */
#ifndef XC_COMPAT_DIFF_H
#define XC_COMPAT_DIFF_H

#define ZSTD_STATIC_LINKING_ONLY
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zstd.h>
#include <zstd_errors.h>

extern int failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);                     \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

/* The functions compared, one table per library. */
typedef struct {
    const char *name;
    unsigned (*versionNumber)(void);
    size_t (*compress)(void *, size_t, const void *, size_t, int);
    size_t (*decompress)(void *, size_t, const void *, size_t);
    unsigned (*isError)(size_t);
    ZSTD_ErrorCode (*getErrorCode)(size_t);
    const char *(*getErrorName)(size_t);
    unsigned long long (*getFrameContentSize)(const void *, size_t);
    size_t (*findFrameCompressedSize)(const void *, size_t);
    size_t (*compressBound)(size_t);
    int (*maxCLevel)(void);
    int (*minCLevel)(void);
    ZSTD_CCtx *(*createCCtx)(void);
    size_t (*freeCCtx)(ZSTD_CCtx *);
    size_t (*compressCCtx)(ZSTD_CCtx *, void *, size_t, const void *, size_t, int);
    size_t (*compress2)(ZSTD_CCtx *, void *, size_t, const void *, size_t);
    size_t (*CCtx_setParameter)(ZSTD_CCtx *, ZSTD_cParameter, int);
    size_t (*CCtx_getParameter)(const ZSTD_CCtx *, ZSTD_cParameter, int *);
    size_t (*CCtx_setPledgedSrcSize)(ZSTD_CCtx *, unsigned long long);
    size_t (*CCtx_reset)(ZSTD_CCtx *, ZSTD_ResetDirective);
    size_t (*CCtx_refPrefix)(ZSTD_CCtx *, const void *, size_t);
    size_t (*CCtx_loadDictionary)(ZSTD_CCtx *, const void *, size_t);
    size_t (*compressStream2)(ZSTD_CCtx *, ZSTD_outBuffer *, ZSTD_inBuffer *, ZSTD_EndDirective);
    size_t (*initCStream)(ZSTD_CStream *, int);
    size_t (*compressStream)(ZSTD_CStream *, ZSTD_outBuffer *, ZSTD_inBuffer *);
    size_t (*endStream)(ZSTD_CStream *, ZSTD_outBuffer *);
    ZSTD_DCtx *(*createDCtx)(void);
    size_t (*freeDCtx)(ZSTD_DCtx *);
    size_t (*decompressDCtx)(ZSTD_DCtx *, void *, size_t, const void *, size_t);
    size_t (*DCtx_reset)(ZSTD_DCtx *, ZSTD_ResetDirective);
    size_t (*DCtx_setParameter)(ZSTD_DCtx *, ZSTD_dParameter, int);
    size_t (*DCtx_refPrefix)(ZSTD_DCtx *, const void *, size_t);
    size_t (*DCtx_loadDictionary)(ZSTD_DCtx *, const void *, size_t);
    size_t (*initDStream)(ZSTD_DStream *);
    size_t (*decompressStream)(ZSTD_DStream *, ZSTD_outBuffer *, ZSTD_inBuffer *);
    ZSTD_bounds (*cParam_getBounds)(ZSTD_cParameter);
    ZSTD_bounds (*dParam_getBounds)(ZSTD_dParameter);
    size_t (*getFrameHeader)(ZSTD_frameHeader *, const void *, size_t);
    size_t (*frameHeaderSize)(const void *, size_t);
    unsigned (*getDictID_fromFrame)(const void *, size_t);
    unsigned (*getDictID_fromDict)(const void *, size_t);
    size_t (*CStreamInSize)(void);
    size_t (*DStreamOutSize)(void);
    size_t (*DStreamInSize)(void);
    ZSTD_frameProgression (*getFrameProgression)(const ZSTD_CCtx *);
    size_t (*getFrameHeader_advanced)(ZSTD_frameHeader *, const void *, size_t, ZSTD_format_e);
    size_t (*compressBegin)(ZSTD_CCtx *, int);
    size_t (*compressBegin_usingDict)(ZSTD_CCtx *, const void *, size_t, int);
    size_t (*getBlockSize)(const ZSTD_CCtx *);
    size_t (*compressBlock)(ZSTD_CCtx *, void *, size_t, const void *, size_t);
    size_t (*decompressBegin)(ZSTD_DCtx *);
    size_t (*decompressBegin_usingDict)(ZSTD_DCtx *, const void *, size_t);
    size_t (*decompressBlock)(ZSTD_DCtx *, void *, size_t, const void *, size_t);
    size_t (*insertBlock)(ZSTD_DCtx *, const void *, size_t);
} api;

#define FIELDS(X)                                                                           \
    X(versionNumber) X(compress) X(decompress) X(isError) X(getErrorCode) X(getErrorName)   \
    X(getFrameContentSize) X(findFrameCompressedSize) X(compressBound) X(maxCLevel)         \
    X(minCLevel) X(createCCtx) X(freeCCtx) X(compressCCtx) X(compress2) X(CCtx_setParameter) \
    X(CCtx_getParameter) X(CCtx_setPledgedSrcSize) X(CCtx_reset) X(CCtx_refPrefix)          \
    X(CCtx_loadDictionary) X(compressStream2) X(initCStream) X(compressStream) X(endStream)  \
    X(createDCtx) X(freeDCtx) X(decompressDCtx) X(DCtx_reset) X(DCtx_setParameter)          \
    X(DCtx_refPrefix) X(DCtx_loadDictionary) X(initDStream) X(decompressStream)             \
    X(cParam_getBounds) X(dParam_getBounds) X(getFrameHeader) X(frameHeaderSize)            \
    X(getDictID_fromFrame) X(getDictID_fromDict) X(CStreamInSize) X(DStreamOutSize)         \
    X(DStreamInSize) X(getFrameProgression) X(getFrameHeader_advanced) X(compressBegin)      \
    X(compressBegin_usingDict) X(getBlockSize) X(compressBlock) X(decompressBegin)          \
    X(decompressBegin_usingDict) X(decompressBlock) X(insertBlock)

/* Fills *sys with the linked libzstd and *ours with the library at
 * argv[1], and proves that they are Debian's and ours.  Returns 0, or the
 * exit status to give (usage, a missing function, the wrong libraries). */
int cd_open(int argc, char **argv, api *sys, api *ours);

/* A seeded generator, and text-like bytes with repeats at every distance
 * (or random bytes). */
extern uint64_t rng; /* the generator's state, which a test may save and restore */
uint32_t rnd(void);
void fill(uint8_t *p, size_t n, int random);

/* Checks that two results are the same size, or the same error. */
void same_size(const char *what, size_t a, size_t b, const api *A, const api *B);

#endif
