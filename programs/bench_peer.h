/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libzstd as the peer of `xcodec bench`: the library linked at build time,
 * or any other one named by XC_BENCH_LIBZSTD=/path/to/libzstd.so.1, loaded
 * with dlopen(), so that one build measures xcodec against libzstd 1.5.4
 * (Debian's) and against a newer release in turn.  Every call of the
 * benchmark goes through this table.
 */
#ifndef XC_PROGRAMS_BENCH_PEER_H
#define XC_PROGRAMS_BENCH_PEER_H

#ifdef XC_HAVE_LIBZSTD
/* ZSTD_estimateCCtxSize() is in the "static linking only" part of zstd.h,
 * though the shared library exports it. */
#  define ZSTD_STATIC_LINKING_ONLY
#  include <zstd.h>

/* The functions used, by their names without the ZSTD_ prefix. */
#  define XC_ZPEER_FUNCTIONS(X)                                                                 \
    X(versionString) X(isError) X(getErrorName) X(compressBound) X(createCCtx) X(freeCCtx)      \
    X(createDCtx) X(freeDCtx) X(compressCCtx) X(decompressDCtx) X(estimateCCtxSize)              \
    X(createCDict) X(freeCDict) X(compress_usingCDict) X(createDDict) X(freeDDict)               \
    X(decompress_usingDDict)

struct xc_zpeer {
    const char *version; /* ZSTD_versionString() of the library measured */
    const char *path;    /* the file loaded, or NULL for the linked library */
    void *handle;
#  define XC_ZPEER_MEMBER(f) __typeof__(&ZSTD_##f) f;
    XC_ZPEER_FUNCTIONS(XC_ZPEER_MEMBER)
#  undef XC_ZPEER_MEMBER
};

/* Fills *p with the library XC_BENCH_LIBZSTD names when it is set and not
 * empty, else with the linked one.  Returns 0, or -1 after printing why
 * (the file does not load, or lacks one of the functions).  Release with
 * xc_zpeer_close(). */
int xc_zpeer_open(struct xc_zpeer *p);
void xc_zpeer_close(struct xc_zpeer *p);
#else
/* Without libzstd at build time there is no peer: version stays NULL. */
struct xc_zpeer {
    const char *version, *path;
};
#endif

#endif
