/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shim's plain functions: version, errors and their names, levels,
 * bounds, and the parameters a level implies (ZSTD_getCParams).
 *
 * ZSTD_versionNumber() reports the libzstd release the library stands in
 * for (XC_COMPAT_ZSTD_VERSION and its string, a build setting: by default
 * the system libzstd's at configure time), because programs compare it
 * with the version they were built against; Debian's python3-zstandard
 * refuses to load on any other number.
 *
 * What it may call: the public API (xcodec.h) and the level tables
 * (zstd/compress/compress_params.h), which are data.
 */
#include <string.h>

#include "compat/compat_internal.h"
#include "xc_internal.h"
#include "zstd/compress/compress_params.h"

#ifndef XC_COMPAT_ZSTD_VERSION
#  define XC_COMPAT_ZSTD_VERSION 10506
#  define XC_COMPAT_ZSTD_VERSION_STRING "1.5.6"
#endif

unsigned ZSTD_versionNumber(void) { return XC_COMPAT_ZSTD_VERSION; }
const char *ZSTD_versionString(void) { return XC_COMPAT_ZSTD_VERSION_STRING; }

/* ---- errors ---------------------------------------------------------------- */

size_t zc_err(size_t r)
{
    if (!xc_is_error(r)) return r;
    switch (xc_error_code(r)) {
    case XC_ERROR_CORRUPT: return ZC_ERROR(corruption_detected);
    case XC_ERROR_TRUNCATED: return ZC_ERROR(srcSize_wrong);
    case XC_ERROR_DST_TOO_SMALL: return ZC_ERROR(dstSize_tooSmall);
    case XC_ERROR_CHECKSUM: return ZC_ERROR(checksum_wrong);
    case XC_ERROR_WINDOW_TOO_LARGE: return ZC_ERROR(frameParameter_windowTooLarge);
    case XC_ERROR_DICT_MISMATCH:
    case XC_ERROR_DICT_MISSING: return ZC_ERROR(dictionary_wrong);
    case XC_ERROR_DICT_CORRUPT: return ZC_ERROR(dictionary_corrupted);
    case XC_ERROR_UNKNOWN_MAGIC: return ZC_ERROR(prefix_unknown);
    case XC_ERROR_BAD_PARAMETER: return ZC_ERROR(parameter_outOfBound);
    case XC_ERROR_OUT_OF_MEMORY: return ZC_ERROR(memory_allocation);
    case XC_ERROR_UNSUPPORTED: return ZC_ERROR(parameter_unsupported);
    case XC_ERROR_STAGE_WRONG: return ZC_ERROR(stage_wrong);
    case XC_ERROR_SRC_SIZE_WRONG: return ZC_ERROR(srcSize_wrong);
    case XC_ERROR_TOO_FEW_SAMPLES:
    case XC_ERROR_SAMPLES_TOO_SMALL: return ZC_ERROR(dictionaryCreation_failed);
    case XC_ERROR_FRAME_HEADER: return ZC_ERROR(frameParameter_unsupported);
    default: return ZC_ERROR(GENERIC);
    }
}

unsigned ZSTD_isError(size_t code) { return code > ZC_ERROR(maxCode); }

ZSTD_ErrorCode ZSTD_getErrorCode(size_t code)
{
    return ZSTD_isError(code) ? (ZSTD_ErrorCode)(0 - code) : ZSTD_error_no_error;
}

const char *ZSTD_getErrorString(ZSTD_ErrorCode code)
{
    switch (code) {
    case ZSTD_error_no_error: return "No error";
    case ZSTD_error_GENERIC: return "Generic error";
    case ZSTD_error_prefix_unknown: return "Unknown frame magic number";
    case ZSTD_error_version_unsupported: return "Unsupported format version";
    case ZSTD_error_frameParameter_unsupported: return "Frame header uses an unsupported parameter";
    case ZSTD_error_frameParameter_windowTooLarge: return "Frame window is larger than the decoder accepts";
    case ZSTD_error_corruption_detected: return "Corrupted data";
    case ZSTD_error_checksum_wrong: return "Content checksum mismatch";
    case ZSTD_error_literals_headerWrong: return "Invalid literals section header";
    case ZSTD_error_dictionary_corrupted: return "Corrupted dictionary";
    case ZSTD_error_dictionary_wrong: return "Wrong or missing dictionary";
    case ZSTD_error_dictionaryCreation_failed: return "Dictionary training failed on these samples";
    case ZSTD_error_parameter_unsupported: return "Parameter not supported";
    case ZSTD_error_parameter_combination_unsupported: return "Parameter combination not supported";
    case ZSTD_error_parameter_outOfBound: return "Parameter value out of range";
    case ZSTD_error_tableLog_tooLarge: return "Table log too large";
    case ZSTD_error_maxSymbolValue_tooLarge: return "Maximum symbol value too large";
    case ZSTD_error_maxSymbolValue_tooSmall: return "Maximum symbol value too small";
    case ZSTD_error_stabilityCondition_notRespected: return "Buffer stability promise broken";
    case ZSTD_error_stage_wrong: return "Call not allowed at this stage";
    case ZSTD_error_init_missing: return "Context not initialised";
    case ZSTD_error_memory_allocation: return "Out of memory";
    case ZSTD_error_workSpace_tooSmall: return "Workspace too small";
    case ZSTD_error_dstSize_tooSmall: return "Destination too small";
    case ZSTD_error_srcSize_wrong: return "Source size wrong";
    case ZSTD_error_dstBuffer_null: return "NULL destination buffer";
    case ZSTD_error_noForwardProgress_destFull: return "No progress: output buffer full";
    case ZSTD_error_noForwardProgress_inputEmpty: return "No progress: input empty";
    case ZSTD_error_frameIndex_tooLarge: return "Frame index too large";
    case ZSTD_error_seekableIO: return "Seekable I/O error";
    case ZSTD_error_dstBuffer_wrong: return "Destination buffer changed";
    case ZSTD_error_srcBuffer_wrong: return "Source buffer changed";
    case ZSTD_error_sequenceProducer_failed: return "External sequence producer failed";
    case ZSTD_error_externalSequences_invalid: return "Invalid external sequences";
    default: return "Unknown error code";
    }
}

const char *ZSTD_getErrorName(size_t code) { return ZSTD_getErrorString(ZSTD_getErrorCode(code)); }

/* ---- levels and bounds --------------------------------------------------------- */

/* libzstd's lowest level: -(1 << 17). */
#define ZC_LEVEL_MIN (-(1 << 17))

int ZSTD_minCLevel(void) { return ZC_LEVEL_MIN; }
int ZSTD_maxCLevel(void) { return xc_zstd_max_level(); }
int ZSTD_defaultCLevel(void) { return ZSTD_CLEVEL_DEFAULT; }

int zc_level(int level)
{
    if (level == 0) return xc_zstd_default_level();
    if (level < xc_zstd_min_level()) return xc_zstd_min_level();
    if (level > xc_zstd_max_level()) return xc_zstd_max_level();
    return level;
}

size_t ZSTD_compressBound(size_t srcSize)
{
    if ((unsigned long long)srcSize >= ZSTD_MAX_INPUT_SIZE) return ZC_ERROR(srcSize_wrong);
    return ZSTD_COMPRESSBOUND(srcSize);
}

size_t ZSTD_CStreamInSize(void) { return ZSTD_BLOCKSIZE_MAX; }
/* One block, compressed at worst, with its header and room for a checksum. */
size_t ZSTD_CStreamOutSize(void) { return ZSTD_compressBound(ZSTD_BLOCKSIZE_MAX) + 3 + 4; }
/* A block and its header: what the decoder needs to make progress. */
size_t ZSTD_DStreamInSize(void) { return ZSTD_BLOCKSIZE_MAX + 3; }
size_t ZSTD_DStreamOutSize(void) { return ZSTD_BLOCKSIZE_MAX; }

/* ---- the parameters of a level ---------------------------------------------------- */

ZSTD_compressionParameters ZSTD_getCParams(int level, unsigned long long size, size_t dict_size)
{
    /* libzstd: 0 means "unknown" here; a dictionary adds to the span. */
    uint64_t span = size == 0 ? XC_ZSTD_SIZE_UNKNOWN : size;
    if (size == 0 && dict_size) span = (uint64_t)dict_size + 513;
    else if (span != XC_ZSTD_SIZE_UNKNOWN) span += dict_size;
    xc_zstd_cparams const p = xc_zstd_level_params(zc_level(level), span);
    ZSTD_compressionParameters z;
    z.windowLog = p.window_log;
    z.chainLog = p.chain_log;
    z.hashLog = p.hash_log;
    z.searchLog = p.search_log;
    z.minMatch = p.min_match;
    z.targetLength = p.target_length;
    z.strategy = (ZSTD_strategy)p.strategy;
    return z;
}

ZSTD_parameters ZSTD_getParams(int level, unsigned long long size, size_t dict_size)
{
    ZSTD_parameters p;
    memset(&p, 0, sizeof p);
    p.cParams = ZSTD_getCParams(level, size, dict_size);
    p.fParams.contentSizeFlag = 1;
    return p;
}

static int in_range(unsigned v, unsigned lo, unsigned hi) { return v >= lo && v <= hi; }

size_t ZSTD_checkCParams(ZSTD_compressionParameters c)
{
    if (!in_range(c.windowLog, ZSTD_WINDOWLOG_MIN, ZSTD_WINDOWLOG_MAX) ||
        !in_range(c.chainLog, ZSTD_CHAINLOG_MIN, ZSTD_CHAINLOG_MAX) ||
        !in_range(c.hashLog, ZSTD_HASHLOG_MIN, ZSTD_HASHLOG_MAX) ||
        !in_range(c.searchLog, ZSTD_SEARCHLOG_MIN, ZSTD_SEARCHLOG_MAX) ||
        !in_range(c.minMatch, ZSTD_MINMATCH_MIN, ZSTD_MINMATCH_MAX) ||
        c.targetLength > ZSTD_TARGETLENGTH_MAX ||
        !in_range((unsigned)c.strategy, ZSTD_STRATEGY_MIN, ZSTD_STRATEGY_MAX))
        return ZC_ERROR(parameter_outOfBound);
    return 0;
}

ZSTD_compressionParameters ZSTD_adjustCParams(ZSTD_compressionParameters c,
                                              unsigned long long size, size_t dict_size)
{
    /* Shrink the window (and the tables with it) to what the input and the
     * dictionary span, as libzstd does; nothing below the minimum. */
    if (size == 0) size = ZSTD_CONTENTSIZE_UNKNOWN;
    if (size != ZSTD_CONTENTSIZE_UNKNOWN || dict_size) {
        unsigned long long const span =
            (size == ZSTD_CONTENTSIZE_UNKNOWN ? 0 : size) + dict_size;
        unsigned need = ZSTD_WINDOWLOG_MIN;
        while (need < 31 && (1ULL << need) < span) need++;
        if (size != ZSTD_CONTENTSIZE_UNKNOWN && c.windowLog > need) c.windowLog = need;
        if (c.hashLog > c.windowLog + 1) c.hashLog = c.windowLog + 1;
        unsigned const cycle = c.chainLog - (c.strategy >= ZSTD_btlazy2);
        if (cycle > c.windowLog) c.chainLog -= cycle - c.windowLog;
    }
    return c;
}
