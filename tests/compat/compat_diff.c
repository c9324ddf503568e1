/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Differential test of the libzstd-compatible library: the same call
 * sequences against Debian's libzstd and ours (compat_diff.h), comparing
 * return values, error codes, streaming progress and decoded bytes.
 * Compressed bytes may differ; what they decode to may not, and each
 * library must decode the other's frames.
 */
#include <stdlib.h>
#include <string.h>

#include "compat_diff.h"

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

int main(int argc, char **argv)
{
    api S, X;
    int const bad = cd_open(argc, argv, &S, &X);
    if (bad) return bad;
    oneshot(&S, &X);
    parameters(&S, &X);
    headers(&S, &X);
    streaming(&S, &X);
    prefixes(&S, &X);
    printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
