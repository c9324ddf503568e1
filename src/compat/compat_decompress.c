/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decompression contexts of the shim (ZSTD_DCtx around an xc_zstd_dctx)
 * and frame inspection.
 *
 * The sticky dictionary (loaded, referenced, or a prefix for one frame)
 * is kept here as well as in the xcodec context, because xcodec's reset
 * forgets it and libzstd's session reset does not: after a reset, or a
 * call that used another dictionary for itself (decompress_usingDict),
 * the shim hands it back.
 *
 * Errors of one-shot decoding follow libzstd's rules where they differ
 * from xcodec's codes: input that ends in bytes too short for a frame, or
 * has garbage after complete frames, is srcSize_wrong (libzstd's reading:
 * more input was announced than the frames hold), not prefix_unknown.
 *
 * What it may call: the public API (xcodec.h).
 */
#include <stdlib.h>
#include <string.h>

#include "compat/compat_internal.h"

ZSTD_DCtx *ZSTD_createDCtx(void)
{
    ZSTD_DCtx *d = (ZSTD_DCtx *)calloc(1, sizeof *d);
    if (!d) return NULL;
    d->x = xc_zstd_dctx_new();
    if (!d->x) {
        free(d);
        return NULL;
    }
    return d;
}

size_t ZSTD_freeDCtx(ZSTD_DCtx *d)
{
    if (!d) return 0;
    xc_zstd_dctx_free(d->x);
    xc_zstd_ddict_free(d->own);
    free(d);
    return 0;
}

ZSTD_DStream *ZSTD_createDStream(void) { return ZSTD_createDCtx(); }
size_t ZSTD_freeDStream(ZSTD_DStream *d) { return ZSTD_freeDCtx(d); }

size_t ZSTD_sizeof_DCtx(const ZSTD_DCtx *d)
{
    if (!d) return 0;
    return sizeof *d + xc_zstd_dctx_mem_held(d->x) + xc_zstd_ddict_mem_held(d->own);
}
size_t ZSTD_sizeof_DStream(const ZSTD_DStream *d) { return ZSTD_sizeof_DCtx(d); }

size_t ZSTD_estimateDCtxSize(void)
{
    /* A fresh context and the literals buffer of one block. */
    xc_zstd_dctx *x = xc_zstd_dctx_new();
    size_t const n = sizeof(ZSTD_DCtx) + xc_zstd_dctx_mem_held(x) + ZSTD_BLOCKSIZE_MAX;
    xc_zstd_dctx_free(x);
    return n;
}

size_t ZSTD_estimateDStreamSize(size_t window)
{
    return ZSTD_estimateDCtxSize() + window + 2 * ZSTD_BLOCKSIZE_MAX + ZSTD_DStreamInSize();
}

/* Hands the sticky dictionary to the xcodec context. */
static size_t restore_dict(ZSTD_DCtx *d)
{
    size_t r;
    switch (d->dict_kind) {
    case ZC_DICT_LOADED: r = xc_zstd_dctx_ref_ddict(d->x, d->own); break;
    case ZC_DICT_CDICT: r = xc_zstd_dctx_ref_ddict(d->x, d->ddict); break;
    case ZC_DICT_PREFIX: r = xc_zstd_dctx_ref_prefix(d->x, d->prefix, d->prefix_size); break;
    default: r = xc_zstd_dctx_ref_ddict(d->x, NULL); break;
    }
    return zc_err(r);
}

static void drop_dict(ZSTD_DCtx *d)
{
    xc_zstd_ddict_free(d->own);
    d->own = NULL;
    d->ddict = NULL;
    d->prefix = NULL;
    d->prefix_size = 0;
    d->dict_kind = ZC_DICT_NONE;
}

static int magicless(const ZSTD_DCtx *d)
{
    return d->dparam[ZSTD_d_format - ZSTD_d_experimentalParam1] == ZSTD_f_zstd1_magicless;
}

static int mid_frame(const ZSTD_DCtx *d)
{
    /* xcodec answers STAGE_WRONG to a dictionary change in a frame. */
    return xc_is_error(xc_zstd_dctx_set(d->x, XC_ZSTD_D_WINDOW_LOG_MAX, d->wlog_max));
}

size_t ZSTD_DCtx_reset(ZSTD_DCtx *d, ZSTD_ResetDirective how)
{
    if (!d) return ZC_ERROR(GENERIC);
    if (how != ZSTD_reset_session_only && how != ZSTD_reset_parameters &&
        how != ZSTD_reset_session_and_parameters)
        return ZC_ERROR(parameter_outOfBound);
    if (how & ZSTD_reset_session_only) {
        xc_zstd_dctx_reset(d->x);
        d->hostage = 0;
    }
    if (how & ZSTD_reset_parameters) {
        if (mid_frame(d)) return ZC_ERROR(stage_wrong);
        drop_dict(d);
        d->wlog_max = 0;
        memset(d->dparam, 0, sizeof d->dparam);
        xc_zstd_dctx_set(d->x, XC_ZSTD_D_WINDOW_LOG_MAX, 0);
        xc_zstd_dctx_set(d->x, XC_ZSTD_D_FORMAT, XC_ZSTD_FORMAT_ZSTD1);
    }
    return restore_dict(d);
}

/* ---- parameters ------------------------------------------------------------------------ */

ZSTD_bounds ZSTD_dParam_getBounds(ZSTD_dParameter p)
{
    ZSTD_bounds b = {0, 0, 0};
    switch ((int)p) {
    case ZSTD_d_windowLogMax:
        b.lowerBound = ZSTD_WINDOWLOG_MIN;
        b.upperBound = ZSTD_WINDOWLOG_MAX;
        break;
    case ZSTD_d_format:
        b.lowerBound = ZSTD_f_zstd1;
        b.upperBound = ZSTD_f_zstd1_magicless;
        break;
    case ZSTD_d_stableOutBuffer:
    case ZSTD_d_forceIgnoreChecksum:
    case ZSTD_d_refMultipleDDicts:
    case ZSTD_d_disableHuffmanAssembly: b.upperBound = 1; break;
    case ZSTD_d_maxBlockSize:
        b.lowerBound = ZSTD_BLOCKSIZE_MAX_MIN;
        b.upperBound = ZSTD_BLOCKSIZE_MAX;
        break;
    default: b.error = ZC_ERROR(parameter_unsupported); break;
    }
    return b;
}

size_t ZSTD_DCtx_setParameter(ZSTD_DCtx *d, ZSTD_dParameter p, int value)
{
    if (!d) return ZC_ERROR(GENERIC);
    ZSTD_bounds const b = ZSTD_dParam_getBounds(p);
    if (ZSTD_isError(b.error)) return b.error;
    if (mid_frame(d)) return ZC_ERROR(stage_wrong);
    if (value != 0 && (value < b.lowerBound || value > b.upperBound))
        return ZC_ERROR(parameter_outOfBound);
    if ((int)p == ZSTD_d_format) {
        size_t const r = xc_zstd_dctx_set(d->x, XC_ZSTD_D_FORMAT, value);
        if (xc_is_error(r)) return zc_err(r);
    }
    if ((int)p == ZSTD_d_windowLogMax) {
        size_t const r = xc_zstd_dctx_set(d->x, XC_ZSTD_D_WINDOW_LOG_MAX, value);
        if (xc_is_error(r)) return zc_err(r);
        d->wlog_max = value;
        return 0;
    }
    d->dparam[(int)p - ZSTD_d_experimentalParam1] = value;
    return 0;
}

size_t ZSTD_DCtx_getParameter(ZSTD_DCtx *d, ZSTD_dParameter p, int *value)
{
    if (!d || !value) return ZC_ERROR(GENERIC);
    ZSTD_bounds const b = ZSTD_dParam_getBounds(p);
    if (ZSTD_isError(b.error)) return b.error;
    if ((int)p == ZSTD_d_windowLogMax) *value = d->wlog_max ? d->wlog_max : ZSTD_WINDOWLOG_LIMIT_DEFAULT;
    else *value = d->dparam[(int)p - ZSTD_d_experimentalParam1];
    return 0;
}

size_t ZSTD_DCtx_setMaxWindowSize(ZSTD_DCtx *d, size_t max)
{
    if (!d) return ZC_ERROR(GENERIC);
    if (max < ((size_t)1 << ZSTD_WINDOWLOG_MIN) ||
        max > ((size_t)1 << ZSTD_WINDOWLOG_MAX))
        return ZC_ERROR(parameter_outOfBound);
    /* xcodec takes a log: the largest power of two within max. */
    int log = ZSTD_WINDOWLOG_MIN;
    while (log < ZSTD_WINDOWLOG_MAX && ((size_t)1 << (log + 1)) <= max) log++;
    return ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, log);
}

size_t ZSTD_DCtx_setFormat(ZSTD_DCtx *d, ZSTD_format_e f)
{
    return ZSTD_DCtx_setParameter(d, ZSTD_d_format, (int)f);
}

/* ---- dictionaries ------------------------------------------------------------------------ */

size_t ZSTD_DCtx_loadDictionary_advanced(ZSTD_DCtx *d, const void *dict, size_t size,
                                         ZSTD_dictLoadMethod_e how, ZSTD_dictContentType_e type)
{
    (void)how; /* xcodec always keeps a copy */
    if (!d) return ZC_ERROR(GENERIC);
    if (mid_frame(d)) return ZC_ERROR(stage_wrong);
    drop_dict(d);
    if (dict && size) {
        int const formatted = size >= 8 && ((const unsigned char *)dict)[0] == 0x37 &&
                              ((const unsigned char *)dict)[1] == 0xA4 &&
                              ((const unsigned char *)dict)[2] == 0x30 &&
                              ((const unsigned char *)dict)[3] == 0xEC;
        if (type == ZSTD_dct_fullDict && !formatted) return ZC_ERROR(dictionary_corrupted);
        d->own = xc_zstd_ddict_new(dict, size);
        if (!d->own) return ZC_ERROR(dictionary_corrupted);
        d->dict_kind = ZC_DICT_LOADED;
    }
    return restore_dict(d);
}

size_t ZSTD_DCtx_loadDictionary(ZSTD_DCtx *d, const void *dict, size_t size)
{
    return ZSTD_DCtx_loadDictionary_advanced(d, dict, size, ZSTD_dlm_byCopy, ZSTD_dct_auto);
}

size_t ZSTD_DCtx_loadDictionary_byReference(ZSTD_DCtx *d, const void *dict, size_t size)
{
    return ZSTD_DCtx_loadDictionary_advanced(d, dict, size, ZSTD_dlm_byRef, ZSTD_dct_auto);
}

size_t ZSTD_DCtx_refDDict(ZSTD_DCtx *d, const ZSTD_DDict *dd)
{
    if (!d) return ZC_ERROR(GENERIC);
    if (mid_frame(d)) return ZC_ERROR(stage_wrong);
    drop_dict(d);
    if (dd) {
        d->ddict = (const xc_zstd_ddict *)dd;
        d->dict_kind = ZC_DICT_CDICT;
    }
    return restore_dict(d);
}

size_t ZSTD_DCtx_refPrefix_advanced(ZSTD_DCtx *d, const void *prefix, size_t size,
                                    ZSTD_dictContentType_e type)
{
    if (!d) return ZC_ERROR(GENERIC);
    if (mid_frame(d)) return ZC_ERROR(stage_wrong);
    if (type == ZSTD_dct_fullDict)
        return ZSTD_DCtx_loadDictionary_advanced(d, prefix, size, ZSTD_dlm_byRef, type);
    drop_dict(d);
    if (prefix && size) {
        d->prefix = prefix;
        d->prefix_size = size;
        d->dict_kind = ZC_DICT_PREFIX;
    }
    return restore_dict(d);
}

size_t ZSTD_DCtx_refPrefix(ZSTD_DCtx *d, const void *prefix, size_t size)
{
    return ZSTD_DCtx_refPrefix_advanced(d, prefix, size, ZSTD_dct_rawContent);
}

/* ---- one-shot ---------------------------------------------------------------------------- */

/* libzstd's reading of input that does not start with a frame where one
 * was expected, at offset `at` of src (see the top of this file). */
static size_t garbage_error(const void *src, size_t n, size_t r)
{
    if (xc_error_code(r) != XC_ERROR_UNKNOWN_MAGIC) return zc_err(r);
    const unsigned char *p = (const unsigned char *)src;
    size_t at = 0;
    /* Walk the complete frames first. */
    while (at < n) {
        size_t const f = xc_zstd_find_frame_compressed_size(p + at, n - at);
        if (xc_is_error(f)) break;
        at += f;
    }
    if (at > 0) return ZC_ERROR(srcSize_wrong);
    /* No frame at all: fewer than 5 bytes, or fewer than the header its
     * descriptor byte would announce plus a block header, read as a size
     * error. */
    if (n - at < 5) return ZC_ERROR(srcSize_wrong);
    unsigned const fhd = p[at + 4], single = (fhd >> 5) & 1, fcs = fhd >> 6, did = fhd & 3;
    static const unsigned did_bytes[4] = {0, 1, 2, 4}, fcs_bytes[4] = {0, 2, 4, 8};
    size_t const hs = 5 + !single + did_bytes[did] + fcs_bytes[fcs] + (fcs == 0 && single);
    if (n - at < hs + 3) return ZC_ERROR(srcSize_wrong);
    return ZC_ERROR(prefix_unknown);
}

static xc_zstd_format format_of(const ZSTD_DCtx *d)
{
    return magicless(d) ? XC_ZSTD_FORMAT_MAGICLESS : XC_ZSTD_FORMAT_ZSTD1;
}

/* Whether src[0..n) ends inside the content checksum of its last frame,
 * which libzstd's one-shot decoder calls checksum_wrong, not srcSize_wrong
 * (an error path only: it copies the last frame). */
static int ends_in_checksum(const unsigned char *p, size_t n, xc_zstd_format fmt)
{
    size_t at = 0;
    for (;;) {
        size_t const f = xc_zstd_find_frame_compressed_size_format(p + at, n - at, fmt);
        if (xc_is_error(f)) break;
        at += f;
    }
    xc_zstd_frame_info fi;
    if (at >= n || xc_zstd_get_frame_info_format(&fi, p + at, n - at, fmt) != 0 || !fi.checksum)
        return 0;
    /* With 4 more bytes the frame would be whole if only its checksum is
     * short: then its blocks end within the input. */
    size_t const left = n - at;
    unsigned char *t = (unsigned char *)malloc(left + 4);
    if (!t) return 0;
    memcpy(t, p + at, left);
    memset(t + left, 0, 4);
    size_t const f = xc_zstd_find_frame_compressed_size_format(t, left + 4, fmt);
    free(t);
    return !xc_is_error(f) && f > left && f - 4 <= left;
}

static size_t decompress_x(ZSTD_DCtx *d, void *dst, size_t cap, const void *src, size_t n)
{
    if (n > 0 && n < 5) return ZC_ERROR(srcSize_wrong);
    size_t const r = xc_zstd_decompress_dctx(d->x, dst, cap, src, n);
    if (!xc_is_error(r)) return r;
    if (xc_error_code(r) == XC_ERROR_TRUNCATED &&
        ends_in_checksum((const unsigned char *)src, n, format_of(d)))
        return ZC_ERROR(checksum_wrong);
    return garbage_error(src, n, r);
}

size_t ZSTD_decompressDCtx(ZSTD_DCtx *d, void *dst, size_t cap, const void *src, size_t n)
{
    if (!d) return ZC_ERROR(GENERIC);
    size_t const r = decompress_x(d, dst, cap, src, n);
    if (d->dict_kind == ZC_DICT_PREFIX) drop_dict(d); /* used once */
    return r;
}

size_t ZSTD_decompress(void *dst, size_t cap, const void *src, size_t n)
{
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (!d) return ZC_ERROR(memory_allocation);
    size_t const r = decompress_x(d, dst, cap, src, n);
    ZSTD_freeDCtx(d);
    return r;
}

size_t ZSTD_decompress_usingDict(ZSTD_DCtx *d, void *dst, size_t cap, const void *src, size_t n,
                                 const void *dict, size_t size)
{
    if (!d) return ZC_ERROR(GENERIC);
    xc_zstd_dctx_reset(d->x);
    size_t r = xc_zstd_dctx_load_dictionary(d->x, dict, dict && size >= 8 ? size : 0);
    if (xc_is_error(r)) return zc_err(r);
    r = decompress_x(d, dst, cap, src, n);
    size_t const s = restore_dict(d);
    return ZSTD_isError(r) ? r : ZSTD_isError(s) ? s : r;
}

size_t ZSTD_decompress_usingDDict(ZSTD_DCtx *d, void *dst, size_t cap, const void *src, size_t n,
                                  const ZSTD_DDict *dd)
{
    if (!d) return ZC_ERROR(GENERIC);
    xc_zstd_dctx_reset(d->x);
    size_t r = xc_zstd_dctx_ref_ddict(d->x, (const xc_zstd_ddict *)dd);
    if (xc_is_error(r)) return zc_err(r);
    r = decompress_x(d, dst, cap, src, n);
    size_t const s = restore_dict(d);
    return ZSTD_isError(r) ? r : ZSTD_isError(s) ? s : r;
}

/* ---- streaming ----------------------------------------------------------------------------- */

/* What the init calls return, libzstd's ZSTD_startingInputLength(): the
 * bytes that say a header's size, magic number and descriptor or the
 * descriptor alone. */
static size_t starting_input(const ZSTD_DCtx *d)
{
    return magicless(d) ? 1 : 5;
}

size_t ZSTD_initDStream(ZSTD_DStream *d)
{
    size_t const r = ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    ZSTD_DCtx_refDDict(d, NULL);
    return starting_input(d);
}

size_t ZSTD_initDStream_usingDict(ZSTD_DStream *d, const void *dict, size_t size)
{
    size_t const r = ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    size_t const s = ZSTD_DCtx_loadDictionary(d, dict, size);
    return ZSTD_isError(s) ? s : starting_input(d);
}

size_t ZSTD_initDStream_usingDDict(ZSTD_DStream *d, const ZSTD_DDict *dd)
{
    size_t const r = ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    if (ZSTD_isError(r)) return r;
    size_t const s = ZSTD_DCtx_refDDict(d, dd);
    return ZSTD_isError(s) ? s : starting_input(d);
}

size_t ZSTD_resetDStream(ZSTD_DStream *d)
{
    size_t const r = ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    return ZSTD_isError(r) ? r : starting_input(d);
}

size_t ZSTD_decompressStream(ZSTD_DStream *d, ZSTD_outBuffer *out, ZSTD_inBuffer *in)
{
    if (!d || !out || !in) return ZC_ERROR(GENERIC);
    if (in->pos > in->size) return ZC_ERROR(srcSize_wrong);
    if (out->pos > out->size) return ZC_ERROR(dstSize_tooSmall);
    /* libzstd never ends a call having taken all the input while decoded
     * bytes wait for output room: it reports the last byte as not taken
     * (its "hostage") until they are out, so that the caller calls again
     * even when its input has run dry (libarchive stops reading
     * otherwise).  The byte is skipped when the caller offers it again. */
    if (d->hostage) {
        if (in->pos == in->size) {
            if (d->hostage == 2) return 1;
        } else {
            in->pos++;
            int const ended = d->hostage == 2;
            d->hostage = 0;
            if (ended) return 0;
        }
    }
    size_t const in_start = in->pos;
    /* A whole frame of known size in the input, and room for all of it:
     * decoded in one pass straight into the output, as libzstd does, with
     * no window buffer in between. */
    if (!d->hostage && !magicless(d) && in->size - in->pos >= 6 &&
        xc_zstd_dctx_between_frames(d->x)) {
        const unsigned char *ip = (const unsigned char *)in->src + in->pos;
        size_t const avail = in->size - in->pos;
        unsigned long long const fcs = xc_zstd_frame_content_size(ip, avail);
        if (fcs < ZSTD_CONTENTSIZE_ERROR && fcs <= out->size - out->pos &&
            ip[0] == 0x28 && ip[3] == 0xFD) {
            size_t const f = xc_zstd_find_frame_compressed_size(ip, avail);
            if (!xc_is_error(f)) {
                size_t const n = xc_zstd_decompress_dctx(d->x, (unsigned char *)out->dst + out->pos,
                                                         (size_t)fcs, ip, f);
                if (xc_is_error(n)) return zc_err(n);
                out->pos += n;
                in->pos += f;
                if (d->dict_kind == ZC_DICT_PREFIX) drop_dict(d);
                return 0;
            }
        }
    }
    size_t const r = xc_zstd_decompress_stream(d->x, (xc_out_buffer *)out, (xc_in_buffer *)in);
    if (xc_is_error(r)) {
        d->hostage = 0;
        return zc_err(r);
    }
    if (d->hostage) {
        /* Still held: the frame may have ended behind it. */
        if (r == 0) d->hostage = 2;
        return 1;
    }
    if (r != 0 && in->pos == in->size && in->pos > in_start && xc_zstd_dctx_pending(d->x)) {
        in->pos--;
        d->hostage = 1;
    }
    /* A prefix serves the frame that began. */
    if (d->dict_kind == ZC_DICT_PREFIX && in->pos > in_start) drop_dict(d);
    return r;
}

/* ---- frames -------------------------------------------------------------------------------- */

unsigned long long ZSTD_getFrameContentSize(const void *src, size_t n)
{
    return xc_zstd_frame_content_size(src, n);
}

unsigned long long ZSTD_getDecompressedSize(const void *src, size_t n)
{
    unsigned long long const r = xc_zstd_frame_content_size(src, n);
    return r >= ZSTD_CONTENTSIZE_ERROR ? 0 : r;
}

static int prefix_of_magic(const unsigned char *p, size_t n);

size_t ZSTD_findFrameCompressedSize(const void *src, size_t n)
{
    /* Too short for a header: libzstd names bytes that cannot begin a
     * frame as such. */
    if (src && n > 0 && n < 5 && !prefix_of_magic((const unsigned char *)src, n < 4 ? n : 4))
        return ZC_ERROR(prefix_unknown);
    return zc_err(xc_zstd_find_frame_compressed_size(src, n));
}

unsigned long long ZSTD_findDecompressedSize(const void *src, size_t n)
{
    const unsigned char *p = (const unsigned char *)src;
    unsigned long long total = 0;
    while (n > 0) {
        unsigned long long const fcs = xc_zstd_frame_content_size(p, n);
        if (fcs >= ZSTD_CONTENTSIZE_ERROR) return fcs;
        size_t const f = xc_zstd_find_frame_compressed_size(p, n);
        if (xc_is_error(f)) return ZSTD_CONTENTSIZE_ERROR;
        if (total + fcs < total) return ZSTD_CONTENTSIZE_ERROR;
        total += fcs;
        p += f;
        n -= f;
    }
    return total;
}

unsigned long long ZSTD_decompressBound(const void *src, size_t n)
{
    const unsigned char *p = (const unsigned char *)src;
    unsigned long long total = 0;
    while (n > 0) {
        xc_zstd_frame_info fi;
        size_t const f = xc_zstd_find_frame_compressed_size(p, n);
        if (xc_is_error(f) || xc_zstd_get_frame_info(&fi, p, n) != 0) return ZSTD_CONTENTSIZE_ERROR;
        if (!fi.skippable) {
            if (fi.content_size != ZSTD_CONTENTSIZE_UNKNOWN) {
                total += fi.content_size;
            } else {
                /* Blocks of at most block_max each, one per 3 bytes at least. */
                total += (unsigned long long)(f / 3 + 1) * fi.block_max;
            }
        }
        p += f;
        n -= f;
    }
    return total;
}

static int prefix_of_magic(const unsigned char *p, size_t n)
{
    static const unsigned char zm[4] = {0x28, 0xB5, 0x2F, 0xFD};
    static const unsigned char sm[4] = {0x50, 0x2A, 0x4D, 0x18};
    if (memcmp(p, zm, n) == 0) return 1;
    /* A skippable magic's first byte is 0x50..0x5F. */
    if ((p[0] & 0xF0) == 0x50 && memcmp(p + 1, sm + 1, n - 1) == 0) return 1;
    return 0;
}

size_t ZSTD_getFrameHeader_advanced(ZSTD_frameHeader *h, const void *src, size_t n,
                                    ZSTD_format_e format)
{
    if (!h || (!src && n)) return ZC_ERROR(GENERIC);
    if (format != ZSTD_f_zstd1 && format != ZSTD_f_zstd1_magicless)
        return ZC_ERROR(parameter_unsupported);
    if (format == ZSTD_f_zstd1 && n < 5) {
        if (n > 0 && !prefix_of_magic((const unsigned char *)src, n < 4 ? n : 4))
            return ZC_ERROR(prefix_unknown);
        if (n < 4 || ((const unsigned char *)src)[3] != 0x18) return 5;
    }
    /* Magicless: the descriptor alone says the header's size. */
    if (n == 0) return 1;
    xc_zstd_frame_info fi;
    size_t const r = xc_zstd_get_frame_info_format(
        &fi, src, n, format == ZSTD_f_zstd1 ? XC_ZSTD_FORMAT_ZSTD1 : XC_ZSTD_FORMAT_MAGICLESS);
    if (xc_is_error(r)) return zc_err(r);
    if (r != 0) return r;
    memset(h, 0, sizeof *h);
    h->headerSize = fi.header_size;
    if (fi.skippable) {
        h->frameType = ZSTD_skippableFrame;
        h->frameContentSize = fi.content_size;
#if XC_COMPAT_ZSTD_VERSION >= 10506
        /* Since 1.5.6 the magic's variant and the header's size are set;
         * programs built for earlier releases see the zeros they expect. */
        h->dictID = fi.skippable_magic_low;
        h->headerSize = fi.header_size;
#else
        h->headerSize = 0;
#endif
        return 0;
    }
    h->frameType = ZSTD_frame;
    h->frameContentSize = fi.content_size;
    h->windowSize = fi.window_size;
    h->blockSizeMax = fi.block_max;
    h->dictID = fi.dict_id;
    h->checksumFlag = (unsigned)fi.checksum;
    return 0;
}

size_t ZSTD_getFrameHeader(ZSTD_frameHeader *h, const void *src, size_t n)
{
    return ZSTD_getFrameHeader_advanced(h, src, n, ZSTD_f_zstd1);
}

size_t ZSTD_frameHeaderSize(const void *src, size_t n)
{
    /* libzstd reads the descriptor at byte 4 without looking at the magic
     * number (for a skippable frame too, or a magicless one). */
    if (!src || n < 5) return ZC_ERROR(srcSize_wrong);
    return 4 + xc_zstd_frame_header_size_format((const unsigned char *)src + 4, n - 4,
                                                XC_ZSTD_FORMAT_MAGICLESS);
}

unsigned ZSTD_getDictID_fromFrame(const void *src, size_t n)
{
    return xc_zstd_frame_dict_id(src, n);
}

unsigned ZSTD_isFrame(const void *buf, size_t n)
{
    if (n < 4) return 0;
    const unsigned char *p = (const unsigned char *)buf;
    unsigned long const m = p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
                            (unsigned long)p[3] << 24;
    return m == ZSTD_MAGICNUMBER || (m & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START;
}

unsigned ZSTD_isSkippableFrame(const void *buf, size_t n)
{
    return ZSTD_isFrame(buf, n) && ((const unsigned char *)buf)[3] == 0x18;
}

size_t ZSTD_writeSkippableFrame(void *dst, size_t cap, const void *src, size_t n,
                                unsigned variant)
{
    if (cap < n + ZSTD_SKIPPABLEHEADERSIZE) return ZC_ERROR(dstSize_tooSmall);
    if (n > 0xFFFFFFFFu) return ZC_ERROR(srcSize_wrong);
    if (variant > 15) return ZC_ERROR(parameter_outOfBound);
    unsigned char *o = (unsigned char *)dst;
    unsigned long const m = ZSTD_MAGIC_SKIPPABLE_START + variant;
    for (int i = 0; i < 4; i++) o[i] = (unsigned char)(m >> (8 * i));
    for (int i = 0; i < 4; i++) o[4 + i] = (unsigned char)((unsigned long)n >> (8 * i));
    if (n) memcpy(o + 8, src, n);
    return n + ZSTD_SKIPPABLEHEADERSIZE;
}

size_t ZSTD_readSkippableFrame(void *dst, size_t cap, unsigned *variant, const void *src,
                               size_t n)
{
    ZSTD_frameHeader h;
    if (n < ZSTD_SKIPPABLEHEADERSIZE || !ZSTD_isSkippableFrame(src, n))
        return ZC_ERROR(frameParameter_unsupported);
    size_t const r = ZSTD_getFrameHeader(&h, src, n);
    if (ZSTD_isError(r)) return r;
    size_t const len = (size_t)h.frameContentSize;
    if (len > n - ZSTD_SKIPPABLEHEADERSIZE) return ZC_ERROR(srcSize_wrong);
    if (len > cap) return ZC_ERROR(dstSize_tooSmall);
    if (len) memcpy(dst, (const unsigned char *)src + ZSTD_SKIPPABLEHEADERSIZE, len);
    if (variant) *variant = h.dictID;
    return len;
}

/* ---- blocks without frames ------------------------------------------------------------- */

/* A series of blocks with dict[0..size) or dd as history (not the sticky
 * dictionary, which comes back for the frames after it). */
static size_t begin_blocks(ZSTD_DCtx *d, const void *dict, size_t size, const ZSTD_DDict *dd)
{
    if (!d) return ZC_ERROR(GENERIC);
    xc_zstd_dctx_reset(d->x);
    d->hostage = 0;
    size_t r = dd ? xc_zstd_dctx_ref_ddict(d->x, (const xc_zstd_ddict *)dd)
                  : xc_zstd_dctx_load_dictionary(d->x, dict, dict && size >= 8 ? size : 0);
    if (xc_is_error(r)) return ZC_ERROR(dictionary_corrupted);
    r = xc_zstd_block_decompress_begin(d->x);
    if (xc_is_error(r)) return zc_err(r);
    /* The series is set up; the sticky dictionary waits for the next frame. */
    return restore_dict(d);
}

size_t ZSTD_decompressBegin(ZSTD_DCtx *d) { return begin_blocks(d, NULL, 0, NULL); }

size_t ZSTD_decompressBegin_usingDict(ZSTD_DCtx *d, const void *dict, size_t size)
{
    return begin_blocks(d, dict, size, NULL);
}

size_t ZSTD_decompressBegin_usingDDict(ZSTD_DCtx *d, const ZSTD_DDict *dd)
{
    return begin_blocks(d, NULL, 0, dd);
}

size_t ZSTD_decompressBlock(ZSTD_DCtx *d, void *dst, size_t cap, const void *src, size_t n)
{
    if (!d) return ZC_ERROR(GENERIC);
    return zc_err(xc_zstd_block_decompress(d->x, dst, cap, src, n));
}

size_t ZSTD_insertBlock(ZSTD_DCtx *d, const void *block, size_t size)
{
    if (!d) return ZC_ERROR(GENERIC);
    return zc_err(xc_zstd_block_insert(d->x, block, size));
}
