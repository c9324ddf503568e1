/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prefixes on the decoder's side (libzstd's ZSTD_DCtx_refPrefix): the
 * caller's bytes as the history of the next frame.  The context keeps a
 * record shaped like a prepared dictionary of raw content that points at
 * the caller's bytes; the frame begins with it as its dictionary and the
 * decoder then forgets it (xc_zstd_frame_begin), so it serves one frame.
 *
 * What it may call: the decoder's context (decompress/decompress_internal.h),
 * which it only fills.
 */
#include <stdlib.h>

#include "zstd/decompress/decompress_internal.h"

size_t xc_zstd_dctx_ref_prefix(xc_zstd_dctx *d, const void *prefix, size_t size)
{
    RETURN_ERROR_IF(!d || (!prefix && size), BAD_PARAMETER);
    RETURN_ERROR_IF(d->stage != XC_STREAM_HEADER || d->ifill != 0, STAGE_WRONG);
    if (size && !d->prefix_dd) {
        d->prefix_dd = (xc_zstd_ddict *)calloc(1, sizeof *d->prefix_dd);
        RETURN_ERROR_IF(!d->prefix_dd, OUT_OF_MEMORY);
    }
    xc_zstd_ddict_free(d->own_ddict);
    d->own_ddict = NULL;
    d->ddict = NULL;
    if (!size) return 0;
    xc_zstd_ddict *dd = d->prefix_dd;
    dd->buf = NULL;
    dd->content = (const uint8_t *)prefix;
    dd->content_size = size;
    dd->id = 0;
    dd->has_entropy = 0;
    d->ddict = dd;
    return 0;
}
