/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The differential tests' shared part (compat_diff.h): the two function
 * tables, the proof that the normally linked ZSTD_* live outside the
 * compat folder and the dlopen()ed ones inside it next to xcodec's own
 * xc_version_string (so that no test can pass comparing a library with
 * itself), and the inputs.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "compat_diff.h"

int failures;

static void system_api(api *a)
{
    a->name = "libzstd";
#define SYS(f) a->f = ZSTD_##f;
    FIELDS(SYS)
#undef SYS
}

static int compat_api(api *a, void *h)
{
    a->name = "xcodec";
    int ok = 1;
#define OURS(f)                                                                             \
    *(void **)&a->f = dlsym(h, "ZSTD_" #f);                                                 \
    if (!a->f) {                                                                            \
        fprintf(stderr, "missing ZSTD_%s\n", #f);                                           \
        ok = 0;                                                                             \
    }
    FIELDS(OURS)
#undef OURS
    return ok;
}

uint64_t rng = 0x9E3779B97F4A7C15ull;
uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* Text-like bytes with repeats at every distance, or random bytes. */
void fill(uint8_t *p, size_t n, int random)
{
    static const char *words[] = {"zstd ", "frame ", "block ", "xcodec ", "window ", "\n",
                                  "libzstd ", "sequence ", "literal ", "offset "};
    size_t i = 0;
    while (i < n) {
        if (random) {
            p[i++] = (uint8_t)rnd();
        } else if (i > 64 && rnd() % 4 == 0) {
            size_t const back = 1 + rnd() % (i < 60000 ? i : 60000);
            size_t len = 4 + rnd() % 40;
            for (; len && i < n; len--, i++) p[i] = p[i - back];
        } else {
            const char *w = words[rnd() % 10];
            for (; *w && i < n; w++) p[i++] = (uint8_t)*w;
        }
    }
}

void same_size(const char *what, size_t a, size_t b, const api *A, const api *B)
{
    if (A->isError(a) || B->isError(b)) {
        CHECK(A->isError(a) && B->isError(b) && A->getErrorCode(a) == B->getErrorCode(b),
              "%s: %s gives %s (%d), %s gives %s (%d)", what, A->name,
              A->isError(a) ? A->getErrorName(a) : "a size", A->getErrorCode(a), B->name,
              B->isError(b) ? B->getErrorName(b) : "a size", B->getErrorCode(b));
    } else {
        CHECK(a == b, "%s: %s gives %zu, %s gives %zu", what, A->name, a, B->name, b);
    }
}

/* Which file a function of a loaded library lives in. */
static const char *file_of(void *fn)
{
    Dl_info info;
    if (!fn || !dladdr(fn, &info) || !info.dli_fname) return "";
    return info.dli_fname;
}

int cd_open(int argc, char **argv, api *sys, api *ours)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s path/to/compat/libzstd.so.1\n", argv[0]);
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!h) {
        fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    system_api(sys);
    if (!compat_api(ours, h)) return 1;
    /* Proof of identity. */
    const char *sys_file = file_of((void *)sys->versionNumber);
    const char *our_file = file_of((void *)ours->versionNumber);
    const char *(*our_xc)(void);
    *(void **)&our_xc = dlsym(h, "xc_version_string");
    printf("libzstd: %s (%u)\nxcodec:  %s (%u, xcodec %s)\n", sys_file, sys->versionNumber(),
           our_file, ours->versionNumber(), our_xc ? our_xc() : "?");
    if (strstr(sys_file, "/compat/") || !strstr(our_file, "/compat/") || !our_xc ||
        strcmp(sys_file, our_file) == 0) {
        fprintf(stderr, "the two libraries are not libzstd and ours\n");
        return 1;
    }
    CHECK(sys->versionNumber() == ours->versionNumber(), "versions %u vs %u", sys->versionNumber(),
          ours->versionNumber());
    return 0;
}
