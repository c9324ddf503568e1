/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Independent frames on a context's workers, for layers above the codec
 * that cut their input into frames themselves (the seekable writer,
 * seekable/seekable_write.c).  The context stays opaque to them: this is
 * the whole of what they see of compress_mt.c.
 */
#ifndef XC_ZSTD_COMPRESS_FRAMES_H
#define XC_ZSTD_COMPRESS_FRAMES_H

#include "xc_internal.h"

/* The XC_ZSTD_C_NB_WORKERS of c (0: compress in the calling thread). */
XC_HIDDEN int xc_zstd_cctx_workers(const xc_zstd_cctx *c);

/* src[0..n) cut every `frame` bytes (n > 0; the last piece what remains),
 * each piece compressed on one of c's workers into a frame of its own,
 * exactly the frame xc_zstd_compress_cctx() with nb_workers = 0 writes for
 * that piece alone (a pending prefix is the history of the first frame
 * only, and is spent).  The frames go to dst one after the other and
 * c_sizes[k] gets frame k's size (at most xc_zstd_compress_bound(frame),
 * so frames of up to 1 GiB fit).  c must have nb_workers >= 1 and no frame
 * in progress.  Returns the bytes written, or XC_ERROR(BAD_PARAMETER),
 * XC_ERROR(STAGE_WRONG), XC_ERROR(DST_TOO_SMALL) or the compressor's
 * errors. */
XC_HIDDEN size_t xc_zstd_mt_frames(xc_zstd_cctx *c, const void *src, size_t n, size_t frame,
                                   void *dst, size_t dst_cap, uint32_t *c_sizes);

#endif /* XC_ZSTD_COMPRESS_FRAMES_H */
