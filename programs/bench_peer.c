/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The libzstd peer of `xcodec bench` (bench_peer.h): the linked library's
 * functions, or those of the file XC_BENCH_LIBZSTD names.
 *
 * The file is loaded with RTLD_DEEPBIND: the linked libzstd is in the
 * process already, and without it a call inside the loaded library to one
 * of its own exported functions (ZSTD_compress() calls
 * ZSTD_compressCCtx(), for one) could bind to the linked library's copy,
 * and the benchmark would measure a mix of two releases.  Sanitizer
 * runtimes abort on RTLD_DEEPBIND, so sanitized builds (the test suite's)
 * load without it: their numbers are not measurements anyway, and the
 * loading and its errors are what they test.
 */
#define _GNU_SOURCE
#include "bench_peer.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define PEER_DEEPBIND 0
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
      __has_feature(memory_sanitizer)
#    define PEER_DEEPBIND 0
#  endif
#endif
#ifndef PEER_DEEPBIND
#  define PEER_DEEPBIND RTLD_DEEPBIND
#endif

#ifdef XC_HAVE_LIBZSTD
#  include <dlfcn.h>
#  include <stdio.h>
#  include <stdlib.h>
#  include <string.h>

int xc_zpeer_open(struct xc_zpeer *p)
{
    memset(p, 0, sizeof *p);
    const char *path = getenv("XC_BENCH_LIBZSTD");
    if (!path || !*path) {
#  define XC_ZPEER_LINK(f) p->f = ZSTD_##f;
        XC_ZPEER_FUNCTIONS(XC_ZPEER_LINK)
#  undef XC_ZPEER_LINK
        p->version = ZSTD_versionString();
        return 0;
    }
    p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | PEER_DEEPBIND);
    if (!p->handle) {
        fprintf(stderr, "xcodec bench: XC_BENCH_LIBZSTD: %s\n", dlerror());
        return -1;
    }
    p->path = path;
    /* POSIX lets a data pointer from dlsym() hold a function's address;
     * memcpy() moves it into the typed member without a cast ISO C lacks. */
#  define XC_ZPEER_LOAD(f)                                                                      \
    {                                                                                          \
        void *sym = dlsym(p->handle, "ZSTD_" #f);                                              \
        if (!sym) {                                                                            \
            fprintf(stderr, "xcodec bench: %s has no ZSTD_" #f "\n", path);                    \
            xc_zpeer_close(p);                                                                 \
            return -1;                                                                         \
        }                                                                                      \
        memcpy(&p->f, &sym, sizeof p->f);                                                      \
    }
    XC_ZPEER_FUNCTIONS(XC_ZPEER_LOAD)
#  undef XC_ZPEER_LOAD
    p->version = p->versionString();
    return 0;
}

void xc_zpeer_close(struct xc_zpeer *p)
{
    if (p->handle) dlclose(p->handle);
    memset(p, 0, sizeof *p);
}
#endif
