/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dictionaries (RFC 8878 §5): raw content, or the format `zstd --train`
 * writes:
 *
 *   magic 0xEC30A437 (4) | ID (4) | Huffman table | FSE tables for
 *   offsets, match lengths, literal lengths | 3 repeat offsets (4 each) |
 *   content
 *
 * Anything shorter than 8 bytes or without the magic number is raw
 * content.  The entropy tables are what a frame's first block repeats
 * (treeless literals, Repeat_Mode sequences), the repeat offsets replace
 * {1, 4, 8}, and the content is history in front of the frame.
 *
 * A prepared dictionary (ddict) holds a private copy of the bytes and the
 * decoding tables built from them.  It is never written after
 * xc_zstd_ddict_new() returns, so any number of contexts in any number of
 * threads may use it at once: contexts point at its tables and content
 * instead of copying them, and write their own tables elsewhere.
 */
#include <stdlib.h>

#include "zstd/decompress/decompress_internal.h"

size_t xc_zstd_ddict_parse(xc_zstd_ddict *dd, size_t size)
{
    const uint8_t *const base = dd->buf;
    const uint8_t *const end = base + size;
    const uint8_t *p;
    size_t r;
    unsigned log;
    int i;

    dd->id = 0;
    dd->has_entropy = 0;
    dd->content = base;
    dd->content_size = size;
    xc_huf_dtable_clear(&dd->huf);
    if (size < 8 || xc_read_le32(base) != XC_ZSTD_MAGIC_DICTIONARY) return 0;

    dd->id = xc_read_le32(base + 4);
    p = base + 8;
    r = xc_huf_read_table(&dd->huf, p, (size_t)(end - p), 0);
    RETURN_ERROR_IF(xc_iserr(r), DICT_CORRUPT);
    p += r;
    /* The tables come as offsets, match lengths, literal lengths. */
    r = xc_zstd_read_fse_table(dd->seq.of, &log, XC_SEQ_OF, p, (size_t)(end - p));
    RETURN_ERROR_IF(xc_iserr(r), DICT_CORRUPT);
    dd->of_log = (uint8_t)log;
    p += r;
    r = xc_zstd_read_fse_table(dd->seq.ml, &log, XC_SEQ_ML, p, (size_t)(end - p));
    RETURN_ERROR_IF(xc_iserr(r), DICT_CORRUPT);
    dd->ml_log = (uint8_t)log;
    p += r;
    r = xc_zstd_read_fse_table(dd->seq.ll, &log, XC_SEQ_LL, p, (size_t)(end - p));
    RETURN_ERROR_IF(xc_iserr(r), DICT_CORRUPT);
    dd->ll_log = (uint8_t)log;
    p += r;

    RETURN_ERROR_IF(end - p < 12, DICT_CORRUPT);
    dd->content = p + 12;
    dd->content_size = (size_t)(end - dd->content);
    /* Each repeat offset must point inside the content (§5). */
    for (i = 0; i < 3; i++) {
        uint32_t const rep = xc_read_le32(p + 4 * i);
        RETURN_ERROR_IF(rep == 0 || rep > dd->content_size, DICT_CORRUPT);
        dd->rep[i] = rep;
    }
    dd->has_entropy = 1;
    return 0;
}

/* Creates a ddict; *err receives the reason when NULL is returned. */
static xc_zstd_ddict *ddict_create(const void *dict, size_t size, size_t *err)
{
    xc_zstd_ddict *dd;

    *err = 0;
    if (!dict && size) {
        *err = XC_ERROR(BAD_PARAMETER);
        return NULL;
    }
    dd = (xc_zstd_ddict *)calloc(1, sizeof *dd);
    /* One byte more than needed so that an empty dictionary still owns a
     * valid buffer. */
    if (dd) dd->buf = (uint8_t *)malloc(size + 1);
    if (!dd || !dd->buf) {
        xc_zstd_ddict_free(dd);
        *err = XC_ERROR(OUT_OF_MEMORY);
        return NULL;
    }
    if (size) memcpy(dd->buf, dict, size);
    *err = xc_zstd_ddict_parse(dd, size);
    if (*err) {
        xc_zstd_ddict_free(dd);
        return NULL;
    }
    return dd;
}

xc_zstd_ddict *xc_zstd_ddict_new(const void *dict, size_t size)
{
    size_t err;
    return ddict_create(dict, size, &err);
}

void xc_zstd_ddict_free(xc_zstd_ddict *dd)
{
    if (!dd) return;
    free(dd->buf);
    free(dd);
}

unsigned xc_zstd_ddict_id(const xc_zstd_ddict *dd)
{
    return dd ? dd->id : 0;
}

/* Dictionaries change between frames only: the frame being streamed
 * points into the current one. */
static int mid_frame(const xc_zstd_dctx *d)
{
    return d->stage != XC_STREAM_HEADER || d->ifill != 0;
}

size_t xc_zstd_dctx_load_dictionary(xc_zstd_dctx *d, const void *dict, size_t size)
{
    xc_zstd_ddict *dd = NULL;
    size_t err;

    RETURN_ERROR_IF(!d, BAD_PARAMETER);
    RETURN_ERROR_IF(mid_frame(d), STAGE_WRONG);
    if (size) {
        dd = ddict_create(dict, size, &err);
        if (!dd) return err;
    }
    xc_zstd_ddict_free(d->own_ddict);
    d->own_ddict = dd;
    d->ddict = dd;
    return 0;
}

size_t xc_zstd_dctx_ref_ddict(xc_zstd_dctx *d, const xc_zstd_ddict *dd)
{
    RETURN_ERROR_IF(!d, BAD_PARAMETER);
    RETURN_ERROR_IF(mid_frame(d), STAGE_WRONG);
    xc_zstd_ddict_free(d->own_ddict);
    d->own_ddict = NULL;
    d->ddict = dd;
    return 0;
}
