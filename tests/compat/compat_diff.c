/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Differential test of the libzstd-compatible library: the same call
 * sequences against Debian's libzstd (linked the normal way, -lzstd) and
 * against ours (dlopen()ed from the compat build folder, given as argv[1]),
 * comparing return values, error codes, streaming progress and decoded
 * bytes.  Compressed bytes may differ; what they decode to may not, and
 * each library must decode the other's frames.
 *
 * It first proves which library is which: the normally linked ZSTD_*
 * must live outside the compat folder, the dlopen()ed ones inside it and
 * next to xcodec's own xc_version_string, so that the test cannot pass
 * comparing a library with itself.
 */
#define _GNU_SOURCE
#define ZSTD_STATIC_LINKING_ONLY
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

static int failures;

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
    X(DStreamInSize) X(getFrameProgression)

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

/* ---- inputs ------------------------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* Text-like bytes with repeats at every distance, or random bytes. */
static void fill(uint8_t *p, size_t n, int random)
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

/* ---- sequences ------------------------------------------------------------------------ */

static void same_size(const char *what, size_t a, size_t b, const api *A, const api *B)
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

/* One-shot both ways at several levels, and each decoding the other's. */
static void oneshot(const api *S, const api *X)
{
    static const size_t sizes[] = {0, 1, 7, 100, 1000, 4096, 20000, 131072, 131073, 700000};
    static const int levels[] = {-5, 1, 3, 7, 12, 19};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t const n = sizes[si];
        uint8_t *src = malloc(n + 1), *back = malloc(n + 1);
        fill(src, n, si == 3);
        size_t const cap = S->compressBound(n);
        CHECK(cap == X->compressBound(n), "compressBound(%zu)", n);
        uint8_t *fs = malloc(cap), *fx = malloc(cap);
        for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
            if (n > 200000 && levels[li] > 12) continue;
            size_t const zs = S->compress(fs, cap, src, n, levels[li]);
            size_t const zx = X->compress(fx, cap, src, n, levels[li]);
            CHECK(!S->isError(zs) && !X->isError(zx), "compress(%zu, level %d)", n, levels[li]);
            /* Within the encoder targets: never much larger than libzstd's. */
            CHECK(zx <= zs + zs / 8 + 16, "size %zu vs %zu (n %zu level %d)", zx, zs, n,
                  levels[li]);
            same_size("content size", (size_t)S->getFrameContentSize(fx, zx),
                      (size_t)X->getFrameContentSize(fx, zx), S, X);
            same_size("frame size", S->findFrameCompressedSize(fx, zx),
                      X->findFrameCompressedSize(fx, zx), S, X);
            const uint8_t *frames[2] = {fs, fx};
            size_t fsz[2] = {zs, zx};
            for (int k = 0; k < 2; k++) {
                for (int dec = 0; dec < 2; dec++) {
                    const api *D = dec ? X : S;
                    memset(back, 0xA5, n + 1);
                    size_t const r = D->decompress(back, n, frames[k], fsz[k]);
                    CHECK(r == n && memcmp(back, src, n) == 0, "%s decoding %s's frame (n %zu)",
                          D->name, k ? "xcodec" : "libzstd", n);
                }
                if (n > 0) {
                    /* Errors: a destination one byte short, truncated input, a
                     * corrupted byte, trailing garbage. */
                    same_size("dst short", S->decompress(back, n - 1, frames[k], fsz[k]),
                              X->decompress(back, n - 1, frames[k], fsz[k]), S, X);
                    same_size("truncated", S->decompress(back, n, frames[k], fsz[k] - 1),
                              X->decompress(back, n, frames[k], fsz[k] - 1), S, X);
                    uint8_t *g = malloc(fsz[k] + 16);
                    memcpy(g, frames[k], fsz[k]);
                    memcpy(g + fsz[k], "garbage-garbage!", 16);
                    same_size("garbage after", S->decompress(back, n, g, fsz[k] + 16),
                              X->decompress(back, n, g, fsz[k] + 16), S, X);
                    free(g);
                }
            }
        }
        same_size("dst too small", S->compress(fs, 5, src, n, 3), X->compress(fx, 5, src, n, 3),
                  S, X);
        free(src);
        free(back);
        free(fs);
        free(fx);
    }
    uint8_t buf[64];
    static const char *junk[] = {"", "a", "hello", "hello world", "not a zstd frame at all, no"};
    for (size_t j = 0; j < 5; j++) {
        size_t const n = strlen(junk[j]);
        same_size(junk[j], S->decompress(buf, sizeof buf, junk[j], n),
                  X->decompress(buf, sizeof buf, junk[j], n), S, X);
        same_size(junk[j], (size_t)S->getFrameContentSize(junk[j], n),
                  (size_t)X->getFrameContentSize(junk[j], n), S, X);
        same_size(junk[j], S->findFrameCompressedSize(junk[j], n),
                  X->findFrameCompressedSize(junk[j], n), S, X);
    }
}

static void parameters(const api *S, const api *X)
{
    static const struct {
        ZSTD_cParameter p;
        int v;
    } sets[] = {
        {ZSTD_c_compressionLevel, 5}, {ZSTD_c_compressionLevel, 0},
        {ZSTD_c_compressionLevel, 99}, {ZSTD_c_compressionLevel, -200000},
        {ZSTD_c_windowLog, 20}, {ZSTD_c_windowLog, 0}, {ZSTD_c_windowLog, 9},
        {ZSTD_c_windowLog, 32}, {ZSTD_c_hashLog, 5}, {ZSTD_c_hashLog, 18},
        {ZSTD_c_chainLog, 31}, {ZSTD_c_searchLog, 3}, {ZSTD_c_minMatch, 2},
        {ZSTD_c_minMatch, 8}, {ZSTD_c_minMatch, 4}, {ZSTD_c_targetLength, 200000},
        {ZSTD_c_strategy, 0}, {ZSTD_c_strategy, 10}, {ZSTD_c_strategy, 4},
        {ZSTD_c_contentSizeFlag, 0}, {ZSTD_c_contentSizeFlag, 7}, {ZSTD_c_checksumFlag, 1},
        {ZSTD_c_dictIDFlag, 0}, {ZSTD_c_enableLongDistanceMatching, 1},
        {ZSTD_c_enableLongDistanceMatching, 3}, {ZSTD_c_ldmHashLog, 20},
        {ZSTD_c_ldmMinMatch, 3}, {ZSTD_c_nbWorkers, 0}, {ZSTD_c_nbWorkers, 2},
        {ZSTD_c_nbWorkers, 500}, {ZSTD_c_overlapLog, 12}, {ZSTD_c_overlapLog, 6},
        {ZSTD_c_jobSize, 1 << 21}, {(ZSTD_cParameter)999, 1},
        {(ZSTD_cParameter)0, 0},
    };
    ZSTD_CCtx *cs = S->createCCtx(), *cx = X->createCCtx();
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "setParameter(%d, %d)", (int)sets[i].p, sets[i].v);
        same_size(what, S->CCtx_setParameter(cs, sets[i].p, sets[i].v),
                  X->CCtx_setParameter(cx, sets[i].p, sets[i].v), S, X);
        int vs = -1, vx = -1;
        same_size(what, S->CCtx_getParameter(cs, sets[i].p, &vs),
                  X->CCtx_getParameter(cx, sets[i].p, &vx), S, X);
        CHECK(vs == vx, "%s then getParameter: %d vs %d", what, vs, vx);
        ZSTD_bounds const bs = S->cParam_getBounds(sets[i].p), bx = X->cParam_getBounds(sets[i].p);
        /* Bounds: the workers' as Debian's (multithreaded) libzstd's. */
        CHECK(S->isError(bs.error) == X->isError(bx.error) && bs.lowerBound == bx.lowerBound &&
                      bs.upperBound == bx.upperBound,
                  "bounds of %d: [%d, %d] vs [%d, %d]", (int)sets[i].p, bs.lowerBound,
                  bs.upperBound, bx.lowerBound, bx.upperBound);
    }
    same_size("reset", S->CCtx_reset(cs, ZSTD_reset_session_and_parameters),
              X->CCtx_reset(cx, ZSTD_reset_session_and_parameters), S, X);
    int vs, vx;
    S->CCtx_getParameter(cs, ZSTD_c_compressionLevel, &vs);
    X->CCtx_getParameter(cx, ZSTD_c_compressionLevel, &vx);
    CHECK(vs == vx, "level after reset %d vs %d", vs, vx);
    ZSTD_DCtx *ds = S->createDCtx(), *dx = X->createDCtx();
    static const int wl[] = {9, 10, 27, 31, 32};
    for (size_t i = 0; i < 5; i++)
        same_size("windowLogMax", S->DCtx_setParameter(ds, ZSTD_d_windowLogMax, wl[i]),
                  X->DCtx_setParameter(dx, ZSTD_d_windowLogMax, wl[i]), S, X);
    same_size("unknown dparam", S->DCtx_setParameter(ds, (ZSTD_dParameter)77, 1),
              X->DCtx_setParameter(dx, (ZSTD_dParameter)77, 1), S, X);
    CHECK(S->CStreamInSize() == X->CStreamInSize() && S->DStreamOutSize() == X->DStreamOutSize() &&
              S->DStreamInSize() == X->DStreamInSize(),
          "stream sizes");
    CHECK(S->maxCLevel() == X->maxCLevel() && S->minCLevel() == X->minCLevel(), "levels");
    S->freeCCtx(cs);
    X->freeCCtx(cx);
    S->freeDCtx(ds);
    X->freeDCtx(dx);
}

/* Frame header details of frames made with chosen flags, by either library. */
static void headers(const api *S, const api *X)
{
    uint8_t src[5000], f[6000];
    fill(src, sizeof src, 0);
    for (int k = 0; k < 2; k++) {
        const api *C = k ? X : S;
        for (int flags = 0; flags < 8; flags++) {
            ZSTD_CCtx *c = C->createCCtx();
            C->CCtx_setParameter(c, ZSTD_c_checksumFlag, flags & 1);
            C->CCtx_setParameter(c, ZSTD_c_contentSizeFlag, (flags >> 1) & 1);
            if (flags & 4) C->CCtx_setParameter(c, ZSTD_c_windowLog, 17);
            size_t const n = C->compress2(c, f, sizeof f, src, sizeof src);
            CHECK(!C->isError(n), "compress2");
            for (size_t cut = 0; cut <= 20 && cut <= n; cut++) {
                ZSTD_frameHeader hs, hx;
                memset(&hs, 0, sizeof hs);
                memset(&hx, 0, sizeof hx);
                size_t const rs = S->getFrameHeader(&hs, f, cut), rx = X->getFrameHeader(&hx, f, cut);
                same_size("getFrameHeader", rs, rx, S, X);
                if (rs == 0 && rx == 0)
                    CHECK(hs.frameContentSize == hx.frameContentSize &&
                              hs.windowSize == hx.windowSize && hs.blockSizeMax == hx.blockSizeMax &&
                              hs.headerSize == hx.headerSize && hs.checksumFlag == hx.checksumFlag &&
                              hs.dictID == hx.dictID && hs.frameType == hx.frameType,
                          "header fields (flags %d cut %zu)", flags, cut);
                same_size("frameHeaderSize", S->frameHeaderSize(f, cut), X->frameHeaderSize(f, cut),
                          S, X);
            }
            C->freeCCtx(c);
        }
    }
    /* A skippable frame. */
    static const uint8_t skip[12] = {0x5E, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 9, 9, 9, 9};
    ZSTD_frameHeader hs, hx;
    same_size("skippable header", S->getFrameHeader(&hs, skip, 12), X->getFrameHeader(&hx, skip, 12),
              S, X);
    CHECK(hs.frameType == hx.frameType && hs.dictID == hx.dictID &&
              hs.frameContentSize == hx.frameContentSize && hs.headerSize == hx.headerSize,
          "skippable fields");
    same_size("skippable size", S->findFrameCompressedSize(skip, 12),
              X->findFrameCompressedSize(skip, 12), S, X);
}

/* Streaming compression in the legacy and the new API, then streaming
 * decompression of both frames in pieces of varied sizes, libzstd's and
 * ours side by side: same decoded bytes, frames ending at the same input
 * position, same errors. */
static void streaming(const api *S, const api *X)
{
    enum { N = 600000 };
    uint8_t *src = malloc(N), *out[2], *frame[2];
    size_t fsize[2];
    fill(src, N, 0);
    for (int k = 0; k < 2; k++) {
        const api *C = k ? X : S;
        frame[k] = malloc(N + 1000);
        out[k] = malloc(N);
        ZSTD_CStream *c = C->createCCtx();
        CHECK(C->initCStream(c, 4) == 0, "initCStream");
        ZSTD_outBuffer o = {frame[k], 0, 0};
        size_t fed = 0;
        while (fed < N) {
            size_t const step = 1 + rnd() % 70000;
            ZSTD_inBuffer in = {src, fed + step < N ? fed + step : N, fed};
            while (in.pos < in.size) {
                o.size = o.pos + 1 + rnd() % 20000;
                if (o.size > N + 1000) o.size = N + 1000;
                size_t const r = C->compressStream(c, &o, &in);
                CHECK(!C->isError(r) && r > 0, "%s compressStream hint %zu", C->name, r);
            }
            fed = in.size;
        }
        ZSTD_frameProgression const fp = C->getFrameProgression(c);
        CHECK(fp.ingested == N, "%s ingested %llu", C->name, fp.ingested);
        size_t r;
        do {
            o.size = o.pos + 1 + rnd() % 5000;
            if (o.size > N + 1000) o.size = N + 1000;
            r = C->endStream(c, &o);
            CHECK(!C->isError(r), "endStream");
        } while (r != 0);
        fsize[k] = o.pos;
        CHECK(S->getFrameContentSize(frame[k], fsize[k]) == ZSTD_CONTENTSIZE_UNKNOWN,
              "streamed frame has no size");
        C->freeCCtx(c);
    }
    /* compressStream2 with flushes: every flush completes (returns 0). */
    for (int k = 0; k < 2; k++) {
        const api *C = k ? X : S;
        ZSTD_CCtx *c = C->createCCtx();
        C->CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
        C->CCtx_setPledgedSrcSize(c, N);
        uint8_t *f = malloc(N + 1000);
        ZSTD_outBuffer o = {f, N + 1000, 0};
        size_t fed = 0;
        while (fed < N) {
            size_t const step = 1 + rnd() % 100000;
            ZSTD_inBuffer in = {src, fed + step < N ? fed + step : N, fed};
            ZSTD_EndDirective const op = in.size == N ? ZSTD_e_end : ZSTD_e_flush;
            size_t const r = C->compressStream2(c, &o, &in, op);
            CHECK(r == 0 && in.pos == in.size, "%s compressStream2 op %d gives %zu", C->name, op, r);
            fed = in.size;
        }
        ZSTD_frameProgression const fp = C->getFrameProgression(c);
        /* (libzstd leaves the checksum out of produced and flushed.) */
        CHECK(fp.ingested == N && fp.consumed == N && fp.flushed <= o.pos &&
                  fp.flushed + 4 >= o.pos && fp.produced == fp.flushed,
              "%s progress %llu %llu %llu %llu (out %zu)", C->name, fp.ingested, fp.consumed,
              fp.produced, fp.flushed, o.pos);
        CHECK(S->getFrameContentSize(f, o.pos) == N, "pledged size in the header");
        size_t const d = S->decompress(out[0], N, f, o.pos);
        CHECK(d == N && memcmp(out[0], src, N) == 0, "flushed frame of %s", C->name);
        /* Pledged size not met. */
        C->CCtx_reset(c, ZSTD_reset_session_only);
        C->CCtx_setPledgedSrcSize(c, 100);
        ZSTD_inBuffer in = {src, 99, 0};
        o.pos = 0;
        size_t const r = C->compressStream2(c, &o, &in, ZSTD_e_end);
        /* libzstd notices only where it checks; ours at once. */
        if (C == X)
            CHECK(C->isError(r) && C->getErrorCode(r) == ZSTD_error_srcSize_wrong,
                  "%s pledged mismatch gives %s", C->name, C->getErrorName(r));
        free(f);
        C->freeCCtx(c);
    }
    /* Decoding, the two libraries side by side, each frame in two frames'
     * worth (the second after the first). */
    for (int k = 0; k < 2; k++) {
        size_t const n2 = 2 * fsize[k];
        uint8_t *two = malloc(n2);
        memcpy(two, frame[k], fsize[k]);
        memcpy(two + fsize[k], frame[k], fsize[k]);
        for (int trial = 0; trial < 3; trial++) {
            size_t done_at[2][2] = {{0, 0}, {0, 0}}, total[2] = {0, 0};
            for (int dec = 0; dec < 2; dec++) {
                const api *D = dec ? X : S;
                ZSTD_DStream *d = D->createDCtx();
                D->initDStream(d);
                uint64_t const save = rng;
                size_t frames = 0;
                ZSTD_inBuffer in = {two, 0, 0};
                uint8_t *o = out[dec];
                for (int guard = 0; guard < 1000000 && frames < 2; guard++) {
                    size_t const step = trial == 0 ? 1 + rnd() % 3 : 1 + rnd() % 50000;
                    in.size = in.pos + step < n2 ? in.pos + step : n2;
                    size_t const room = trial == 2 ? 1 + rnd() % 10 : 1 + rnd() % 200000;
                    ZSTD_outBuffer ob = {o, room, 0};
                    size_t const r = D->decompressStream(d, &ob, &in);
                    if (D->isError(r)) {
                        CHECK(0, "%s decompressStream: %s", D->name, D->getErrorName(r));
                        break;
                    }
                    /* The frame's bytes, checked against the source as they come. */
                    size_t const at = total[dec] % N;
                    CHECK(memcmp(o, src + at, ob.pos) == 0, "%s decoded bytes at %zu", D->name, at);
                    total[dec] += ob.pos;
                    if (r == 0) done_at[dec][frames++] = in.pos;
                    if (trial == 2 && guard > 200000) break;
                }
                rng = save;
                if (trial < 2) CHECK(frames == 2 && total[dec] == 2 * (size_t)N, "%s frames %zu total %zu", D->name, frames, total[dec]);
                D->freeDCtx(d);
            }
            CHECK(done_at[0][0] == done_at[1][0] && done_at[0][1] == done_at[1][1],
                  "frame ends at %zu, %zu (libzstd) and %zu, %zu (xcodec)", done_at[0][0],
                  done_at[0][1], done_at[1][0], done_at[1][1]);
        }
        /* A corrupted frame: both fail (where they notice may differ). */
        two[fsize[k] / 2] ^= 0x55;
        for (int dec = 0; dec < 2; dec++) {
            const api *D = dec ? X : S;
            ZSTD_DStream *d = D->createDCtx();
            ZSTD_inBuffer in = {two, fsize[k], 0};
            ZSTD_outBuffer ob = {out[dec], N, 0};
            size_t r = D->decompressStream(d, &ob, &in);
            int failed = D->isError(r) || memcmp(out[dec], src, ob.pos) != 0 || r != 0;
            CHECK(failed, "%s accepted a corrupted frame", D->name);
            D->freeDCtx(d);
        }
        free(two);
    }
    free(src);
    for (int k = 0; k < 2; k++) {
        free(frame[k]);
        free(out[k]);
    }
}

/* Prefixes and raw dictionaries, across the two libraries. */
static void prefixes(const api *S, const api *X)
{
    enum { P = 30000, N = 20000 };
    uint8_t *prefix = malloc(P), *src = malloc(N), *f = malloc(N + 1000), *back = malloc(N);
    fill(prefix, P, 0);
    memcpy(src, prefix + 5000, N);
    for (int k = 0; k < 2; k++) {
        const api *C = k ? X : S, *D = k ? S : X;
        ZSTD_CCtx *c = C->createCCtx();
        C->CCtx_refPrefix(c, prefix, P);
        size_t const n = C->compress2(c, f, N + 1000, src, N);
        CHECK(!C->isError(n) && n < 200, "%s prefixed frame of %zu bytes", C->name, n);
        ZSTD_DCtx *d = D->createDCtx();
        D->DCtx_refPrefix(d, prefix, P);
        size_t const r = D->decompressDCtx(d, back, N, f, n);
        CHECK(r == N && memcmp(back, src, N) == 0, "%s decoding %s's prefixed frame", D->name,
              C->name);
        /* The prefix was for one frame only: both fail the same way now. */
        same_size("prefix used up", S->decompress(back, N, f, n), X->decompress(back, N, f, n), S, X);
        /* (Level 6: at levels 1 to 4 xcodec's dictionary frames of this
         * size find fewer matches than libzstd's; see the README.) */
        C->CCtx_setParameter(c, ZSTD_c_compressionLevel, 6);
        C->CCtx_loadDictionary(c, prefix, P);
        size_t const m = C->compress2(c, f, N + 1000, src, N);
        CHECK(!C->isError(m) && m < 200, "%s raw dictionary: %zu", C->name, m);
        D->DCtx_loadDictionary(d, prefix, P);
        CHECK(D->decompressDCtx(d, back, N, f, m) == N && memcmp(back, src, N) == 0,
              "raw dictionary decode");
        CHECK(D->decompressDCtx(d, back, N, f, m) == N, "the dictionary stays");
        D->DCtx_reset(d, ZSTD_reset_session_only);
        CHECK(D->decompressDCtx(d, back, N, f, m) == N, "and survives a session reset");
        C->freeCCtx(c);
        D->freeDCtx(d);
    }
    free(prefix);
    free(src);
    free(f);
    free(back);
}

/* Which file a function of a loaded library lives in. */
static const char *file_of(void *fn)
{
    Dl_info info;
    if (!fn || !dladdr(fn, &info) || !info.dli_fname) return "";
    return info.dli_fname;
}

int main(int argc, char **argv)
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
    api S, X;
    system_api(&S);
    if (!compat_api(&X, h)) return 1;
    /* Proof of identity. */
    const char *sys_file = file_of((void *)S.versionNumber);
    const char *our_file = file_of((void *)X.versionNumber);
    const char *(*our_xc)(void);
    *(void **)&our_xc = dlsym(h, "xc_version_string");
    printf("libzstd: %s (%u)\nxcodec:  %s (%u, xcodec %s)\n", sys_file, S.versionNumber(),
           our_file, X.versionNumber(), our_xc ? our_xc() : "?");
    if (strstr(sys_file, "/compat/") || !strstr(our_file, "/compat/") || !our_xc ||
        strcmp(sys_file, our_file) == 0) {
        fprintf(stderr, "the two libraries are not libzstd and ours\n");
        return 1;
    }
    CHECK(S.versionNumber() == X.versionNumber(), "versions %u vs %u", S.versionNumber(),
          X.versionNumber());
    oneshot(&S, &X);
    parameters(&S, &X);
    headers(&S, &X);
    streaming(&S, &X);
    prefixes(&S, &X);
    printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
