/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zdict.h for xcodec's libzstd-compatible library: dictionary training and
 * inspection with libzstd's names, types and values (1.5.6).  Training
 * runs xcodec's trainer (xc_zstd_train_dictionary): the cover parameters
 * k and d are honoured as segment and d-mer sizes where they mean something
 * for it, the others are accepted and reported back as given.
 */
#ifndef ZSTD_ZDICT_H
#define ZSTD_ZDICT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ZDICTLIB_API
#  if defined(__GNUC__) && __GNUC__ >= 4
#    define ZDICTLIB_API __attribute__((visibility("default")))
#  else
#    define ZDICTLIB_API
#  endif
#endif
#ifndef ZDICTLIB_STATIC_API
#  define ZDICTLIB_STATIC_API ZDICTLIB_API
#endif

/* Trains a dictionary of at most dictBufferCapacity bytes from nbSamples
 * samples laid end to end in samplesBuffer; returns its size or an error
 * (ZDICT_isError). */
ZDICTLIB_API size_t ZDICT_trainFromBuffer(void *dictBuffer, size_t dictBufferCapacity,
                                          const void *samplesBuffer, const size_t *samplesSizes,
                                          unsigned nbSamples);

typedef struct {
    int compressionLevel;        /* 0: the default level */
    unsigned notificationLevel;  /* accepted; the library never prints */
    unsigned dictID;             /* 0: derived from the content */
} ZDICT_params_t;

/* Turns content (the most useful bytes first... last) into a formatted
 * dictionary: header, entropy tables fitted to the samples, content. */
ZDICTLIB_API size_t ZDICT_finalizeDictionary(void *dstDictBuffer, size_t maxDictSize,
                                             const void *dictContent, size_t dictContentSize,
                                             const void *samplesBuffer,
                                             const size_t *samplesSizes, unsigned nbSamples,
                                             ZDICT_params_t parameters);

ZDICTLIB_API unsigned ZDICT_getDictID(const void *dictBuffer, size_t dictSize);
ZDICTLIB_API size_t ZDICT_getDictHeaderSize(const void *dictBuffer, size_t dictSize);
ZDICTLIB_API unsigned ZDICT_isError(size_t errorCode);
ZDICTLIB_API const char *ZDICT_getErrorName(size_t errorCode);

#ifdef __cplusplus
}
#endif
#endif /* ZSTD_ZDICT_H */

#if defined(ZDICT_STATIC_LINKING_ONLY) && !defined(ZSTD_ZDICT_H_STATIC)
#define ZSTD_ZDICT_H_STATIC

#ifdef __cplusplus
extern "C" {
#endif

#define ZDICT_DICTSIZE_MIN 256
#define ZDICT_CONTENTSIZE_MIN 128

typedef struct {
    unsigned k;
    unsigned d;
    unsigned steps;
    unsigned nbThreads;
    double splitPoint;
    unsigned shrinkDict;
    unsigned shrinkDictMaxRegression;
    ZDICT_params_t zParams;
} ZDICT_cover_params_t;

typedef struct {
    unsigned k;
    unsigned d;
    unsigned f;
    unsigned steps;
    unsigned nbThreads;
    double splitPoint;
    unsigned accel;
    unsigned shrinkDict;
    unsigned shrinkDictMaxRegression;
    ZDICT_params_t zParams;
} ZDICT_fastCover_params_t;

typedef struct {
    unsigned selectivityLevel;
    ZDICT_params_t zParams;
} ZDICT_legacy_params_t;

ZDICTLIB_STATIC_API size_t ZDICT_trainFromBuffer_cover(void *dictBuffer, size_t dictBufferCapacity,
                                                       const void *samplesBuffer,
                                                       const size_t *samplesSizes,
                                                       unsigned nbSamples,
                                                       ZDICT_cover_params_t parameters);
ZDICTLIB_STATIC_API size_t ZDICT_optimizeTrainFromBuffer_cover(void *dictBuffer,
                                                               size_t dictBufferCapacity,
                                                               const void *samplesBuffer,
                                                               const size_t *samplesSizes,
                                                               unsigned nbSamples,
                                                               ZDICT_cover_params_t *parameters);
ZDICTLIB_STATIC_API size_t ZDICT_trainFromBuffer_fastCover(void *dictBuffer,
                                                           size_t dictBufferCapacity,
                                                           const void *samplesBuffer,
                                                           const size_t *samplesSizes,
                                                           unsigned nbSamples,
                                                           ZDICT_fastCover_params_t parameters);
ZDICTLIB_STATIC_API size_t ZDICT_optimizeTrainFromBuffer_fastCover(void *dictBuffer,
                                                                   size_t dictBufferCapacity,
                                                                   const void *samplesBuffer,
                                                                   const size_t *samplesSizes,
                                                                   unsigned nbSamples,
                                                                   ZDICT_fastCover_params_t *parameters);

#ifdef __cplusplus
}
#endif
#endif /* ZDICT_STATIC_LINKING_ONLY */
