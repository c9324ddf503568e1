/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Differential test of the libzstd-compatible library, second part: the
 * formats and the block level.  Magicless frames (ZSTD_c_format,
 * ZSTD_d_format = ZSTD_f_zstd1_magicless) made by each library decode on
 * both, one-shot and streamed, with the same return codes, header fields
 * and errors.  Blocks (ZSTD_compressBegin*, ZSTD_compressBlock,
 * ZSTD_decompressBegin*, ZSTD_decompressBlock, ZSTD_insertBlock) made by
 * each library decode on both with history across blocks, raw blocks
 * inserted, with and without a dictionary; sizes, stages and hostile
 * bodies give the same results.  The same call sequences on Debian's
 * libzstd and on ours (compat_diff.h).
 */
#include <stdlib.h>
#include <string.h>

#include "compat_diff.h"

/* ---- magicless frames -------------------------------------------------------------- */

static void format_parameters(const api *S, const api *X)
{
    static const int values[] = {0, 1, 2, -1};
    ZSTD_CCtx *cs = S->createCCtx(), *cx = X->createCCtx();
    ZSTD_DCtx *ds = S->createDCtx(), *dx = X->createDCtx();
    for (size_t i = 0; i < 4; i++) {
        char what[64];
        snprintf(what, sizeof what, "format %d", values[i]);
        same_size(what, S->CCtx_setParameter(cs, ZSTD_c_format, values[i]),
                  X->CCtx_setParameter(cx, ZSTD_c_format, values[i]), S, X);
        int vs = -1, vx = -2;
        S->CCtx_getParameter(cs, ZSTD_c_format, &vs);
        X->CCtx_getParameter(cx, ZSTD_c_format, &vx);
        CHECK(vs == vx, "%s: c getParameter %d vs %d", what, vs, vx);
        same_size(what, S->DCtx_setParameter(ds, ZSTD_d_format, values[i]),
                  X->DCtx_setParameter(dx, ZSTD_d_format, values[i]), S, X);
    }
    ZSTD_bounds const a = S->cParam_getBounds(ZSTD_c_format), b = X->cParam_getBounds(ZSTD_c_format);
    CHECK(a.lowerBound == b.lowerBound && a.upperBound == b.upperBound && !X->isError(b.error),
          "c bounds [%d, %d] vs [%d, %d]", a.lowerBound, a.upperBound, b.lowerBound, b.upperBound);
    ZSTD_bounds const c = S->dParam_getBounds(ZSTD_d_format), d = X->dParam_getBounds(ZSTD_d_format);
    CHECK(c.lowerBound == d.lowerBound && c.upperBound == d.upperBound && !X->isError(d.error),
          "d bounds [%d, %d] vs [%d, %d]", c.lowerBound, c.upperBound, d.lowerBound, d.upperBound);
    /* The stream's first request: the descriptor alone. */
    S->DCtx_setParameter(ds, ZSTD_d_format, 1);
    X->DCtx_setParameter(dx, ZSTD_d_format, 1);
    same_size("initDStream", S->initDStream(ds), X->initDStream(dx), S, X);
    /* A parameter reset goes back to the normal format. */
    S->DCtx_reset(ds, ZSTD_reset_parameters);
    X->DCtx_reset(dx, ZSTD_reset_parameters);
    same_size("initDStream after reset", S->initDStream(ds), X->initDStream(dx), S, X);
    S->freeCCtx(cs);
    X->freeCCtx(cx);
    S->freeDCtx(ds);
    X->freeDCtx(dx);
}

static ZSTD_DCtx *magicless_dctx(const api *D)
{
    ZSTD_DCtx *d = D->createDCtx();
    CHECK(D->DCtx_setParameter(d, ZSTD_d_format, ZSTD_f_zstd1_magicless) == 0, "%s d_format",
          D->name);
    return d;
}

/* Streams frame[0..n) through d in random pieces; returns the decoded size
 * or the error, and where the frame ended in *end. */
static size_t stream_all(const api *D, ZSTD_DCtx *d, uint8_t *dst, size_t cap, const uint8_t *f,
                         size_t n, size_t *end)
{
    ZSTD_inBuffer in = {f, 0, 0};
    ZSTD_outBuffer out = {dst, 0, 0};
    *end = 0;
    for (int guard = 0; guard < 100000; guard++) {
        in.size = in.pos + 1 + rnd() % 700;
        if (in.size > n) in.size = n;
        out.size = out.pos + 1 + rnd() % 3000;
        if (out.size > cap) out.size = cap;
        size_t const r = D->decompressStream(d, &out, &in);
        if (D->isError(r)) return r;
        if (r == 0) {
            *end = in.pos;
            return out.pos;
        }
        if (in.pos == n && out.pos == cap) break;
    }
    return out.pos;
}

static void magicless_frames(const api *S, const api *X)
{
    static const size_t sizes[] = {0, 1, 1000, 70000, 300000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t const n = sizes[si];
        uint8_t *src = malloc(n + 1), *back = malloc(n + 1);
        fill(src, n, 0);
        size_t const cap = S->compressBound(n) + 16;
        uint8_t *f[2] = {malloc(cap), malloc(cap)}, *normal = malloc(cap);
        size_t z[2];
        for (int k = 0; k < 2; k++) {
            const api *C = k ? X : S;
            ZSTD_CCtx *c = C->createCCtx();
            C->CCtx_setParameter(c, ZSTD_c_checksumFlag, (int)(si & 1));
            z[k] = C->compress2(c, normal, cap, src, n);
            C->CCtx_setParameter(c, ZSTD_c_format, ZSTD_f_zstd1_magicless);
            size_t const m = C->compress2(c, f[k], cap, src, n);
            CHECK(!C->isError(m) && m + 4 == z[k], "%s magicless %zu vs normal %zu", C->name, m,
                  z[k]);
            /* The simple API keeps to the normal format. */
            size_t const plain = C->compressCCtx(c, normal, cap, src, n, 3);
            CHECK(!C->isError(plain) && C->getFrameContentSize(normal, plain) == n,
                  "%s compressCCtx after magicless", C->name);
            z[k] = m;
            C->freeCCtx(c);
        }
        for (int k = 0; k < 2; k++) {
            size_t rs[2], ends[2];
            for (int dec = 0; dec < 2; dec++) {
                const api *D = dec ? X : S;
                ZSTD_DCtx *d = magicless_dctx(D);
                memset(back, 0xA5, n + 1);
                size_t const r = D->decompressDCtx(d, back, n, f[k], z[k]);
                CHECK(r == n && memcmp(back, src, n) == 0, "%s decoding %s's magicless frame (%zu)",
                      D->name, k ? "xcodec" : "libzstd", n);
                D->initDStream(d);
                uint64_t const save = rng;
                rs[dec] = stream_all(D, d, back, n, f[k], z[k], &ends[dec]);
                rng = save;
                CHECK(rs[dec] == n && memcmp(back, src, n) == 0, "%s streaming %s's frame (%zu)",
                      D->name, k ? "xcodec" : "libzstd", n);
                D->freeDCtx(d);
            }
            CHECK(ends[0] == ends[1] && ends[0] == z[k], "frame ends at %zu / %zu of %zu", ends[0],
                  ends[1], z[k]);
            /* Errors, one-shot: truncated, a byte short of room, garbage
             * after it, and the normal decoder on the magicless frame. */
            ZSTD_DCtx *ds = magicless_dctx(S), *dx = magicless_dctx(X);
            if (n > 0) {
                same_size("truncated", S->decompressDCtx(ds, back, n, f[k], z[k] - 1),
                          X->decompressDCtx(dx, back, n, f[k], z[k] - 1), S, X);
                same_size("dst short", S->decompressDCtx(ds, back, n - 1, f[k], z[k]),
                          X->decompressDCtx(dx, back, n - 1, f[k], z[k]), S, X);
            }
            for (size_t cut = 1; cut < 6 && cut < z[k]; cut++)
                same_size("short input", S->decompressDCtx(ds, back, n, f[k], cut),
                          X->decompressDCtx(dx, back, n, f[k], cut), S, X);
            same_size("normal decoder", S->decompress(back, n, f[k], z[k]),
                      X->decompress(back, n, f[k], z[k]), S, X);
            /* Header inspection with and without the format. */
            for (size_t cut = 0; cut <= 16 && cut <= z[k]; cut++) {
                ZSTD_frameHeader hs, hx;
                memset(&hs, 0, sizeof hs);
                memset(&hx, 0, sizeof hx);
                size_t const a = S->getFrameHeader_advanced(&hs, f[k], cut, ZSTD_f_zstd1_magicless);
                size_t const b = X->getFrameHeader_advanced(&hx, f[k], cut, ZSTD_f_zstd1_magicless);
                same_size("getFrameHeader_advanced", a, b, S, X);
                if (a == 0 && b == 0)
                    CHECK(hs.frameContentSize == hx.frameContentSize &&
                              hs.windowSize == hx.windowSize && hs.blockSizeMax == hx.blockSizeMax &&
                              hs.headerSize == hx.headerSize && hs.checksumFlag == hx.checksumFlag &&
                              hs.dictID == hx.dictID && hs.frameType == hx.frameType,
                          "magicless header fields (n %zu cut %zu)", n, cut);
                same_size("getFrameHeader", S->getFrameHeader(&hs, f[k], cut),
                          X->getFrameHeader(&hx, f[k], cut), S, X);
                same_size("frameHeaderSize", S->frameHeaderSize(f[k], cut),
                          X->frameHeaderSize(f[k], cut), S, X);
            }
            S->freeDCtx(ds);
            X->freeDCtx(dx);
        }
        /* A normal frame on the magicless decoder. */
        size_t const zn = S->compress(normal, cap, src, n, 3);
        ZSTD_DCtx *ds = magicless_dctx(S), *dx = magicless_dctx(X);
        same_size("normal frame, magicless decoder", S->decompressDCtx(ds, back, n, normal, zn),
                  X->decompressDCtx(dx, back, n, normal, zn), S, X);
        S->freeDCtx(ds);
        X->freeDCtx(dx);
        free(src);
        free(back);
        free(f[0]);
        free(f[1]);
        free(normal);
    }
}

/* ---- blocks ------------------------------------------------------------------------- */

enum { BN = 700000, BMAX = 256 };

/* A series of blocks from one library: each block's place, size and body
 * (body_size 0: stored raw). */
typedef struct {
    size_t nb, at[BMAX], size[BMAX], body_size[BMAX];
    uint8_t *body[BMAX];
} series;

static void make_series(const api *C, series *s, const uint8_t *src, const uint8_t *dict,
                        size_t dict_size, int level)
{
    ZSTD_CCtx *c = C->createCCtx();
    size_t const r = dict ? C->compressBegin_usingDict(c, dict, dict_size, level)
                          : C->compressBegin(c, level);
    CHECK(r == 0, "%s compressBegin: %s", C->name, C->getErrorName(r));
    size_t const bmax = C->getBlockSize(c);
    CHECK(bmax == ZSTD_BLOCKSIZE_MAX, "%s block size %zu", C->name, bmax);
    size_t at = 0;
    s->nb = 0;
    while (at < BN && s->nb < BMAX) {
        size_t len = rnd() % 3 ? 1 + rnd() % bmax : bmax;
        if (len > BN - at) len = BN - at;
        s->body[s->nb] = malloc(bmax + 1000);
        size_t const z = C->compressBlock(c, s->body[s->nb], bmax + 1000, src + at, len);
        CHECK(!C->isError(z) && z < len, "%s compressBlock(%zu): %zu", C->name, len, z);
        s->at[s->nb] = at;
        s->size[s->nb] = len;
        s->body_size[s->nb++] = C->isError(z) ? 0 : z;
        at += len;
    }
    /* Too large a block; a block after a one-shot frame's reset. */
    same_size("oversized", C->compressBlock(c, s->body[0], bmax, src, bmax + 1),
              (size_t)-ZSTD_error_srcSize_wrong, C, C);
    C->freeCCtx(c);
}

static void series_free(series *s)
{
    for (size_t i = 0; i < s->nb; i++) free(s->body[i]);
}

/* Both decoders through the series side by side, out[0] and out[1] laid
 * out as the source, blocks from `split` on in a second segment. */
static void decode_both(const api *S, const api *X, const series *s, const uint8_t *src,
                        const uint8_t *dict, size_t dict_size, size_t split, const char *what)
{
    const api *D[2] = {S, X};
    ZSTD_DCtx *d[2];
    uint8_t *out[2][2];
    for (int k = 0; k < 2; k++) {
        d[k] = D[k]->createDCtx();
        size_t const r = dict ? D[k]->decompressBegin_usingDict(d[k], dict, dict_size)
                              : D[k]->decompressBegin(d[k]);
        CHECK(r == 0, "%s decompressBegin", D[k]->name);
        out[k][0] = malloc(BN);
        out[k][1] = malloc(BN);
    }
    for (size_t i = 0; i < s->nb; i++) {
        size_t r[2];
        for (int k = 0; k < 2; k++) {
            uint8_t *o = i < split ? out[k][0] + s->at[i] : out[k][1] + s->at[i] - s->at[split];
            if (s->body_size[i] == 0) {
                memcpy(o, src + s->at[i], s->size[i]);
                r[k] = D[k]->insertBlock(d[k], o, s->size[i]);
            } else {
                r[k] = D[k]->decompressBlock(d[k], o, s->size[i], s->body[i], s->body_size[i]);
            }
            CHECK(r[k] == s->size[i] && memcmp(o, src + s->at[i], s->size[i]) == 0,
                  "%s: %s block %zu of %zu bytes gives %zu", what, D[k]->name, i, s->size[i],
                  r[k]);
        }
        same_size(what, r[0], r[1], S, X);
    }
    /* Hostile: a body cut short, one too large, and a block whose history
     * is missing (a fresh series). */
    for (size_t i = 0; i < s->nb; i++) {
        if (s->body_size[i] < 2) continue;
        size_t r[2], q[2];
        for (int k = 0; k < 2; k++) {
            r[k] = D[k]->decompressBlock(d[k], out[k][0], s->size[i], s->body[i],
                                         s->body_size[i] / 2);
            q[k] = D[k]->decompressBlock(d[k], out[k][0], BN, s->body[i],
                                         ZSTD_BLOCKSIZE_MAX + 1);
        }
        CHECK(D[0]->isError(r[0]) && D[1]->isError(r[1]), "%s: half a body accepted", what);
        same_size("oversized body", q[0], q[1], S, X);
        break;
    }
    for (int k = 0; k < 2; k++) {
        D[k]->freeDCtx(d[k]);
        free(out[k][0]);
        free(out[k][1]);
    }
}

static void blocks(const api *S, const api *X)
{
    uint8_t *src = malloc(BN), *dict = malloc(20000);
    fill(src, BN, 0);
    fill(src + BN / 3, BN / 3, 1);
    fill(dict, 20000, 0);
    memcpy(src, dict + 3000, 15000);
    /* Fresh contexts: no block size, no series. */
    ZSTD_CCtx *cs = S->createCCtx(), *cx = X->createCCtx();
    same_size("fresh block size", S->getBlockSize(cs), X->getBlockSize(cx), S, X);
    uint8_t tmp[64];
    same_size("fresh compressBlock", S->compressBlock(cs, tmp, 64, src, 10),
              X->compressBlock(cx, tmp, 64, src, 10), S, X);
    same_size("fresh empty block", S->compressBlock(cs, tmp, 64, src, 0),
              X->compressBlock(cx, tmp, 64, src, 0), S, X);
    S->freeCCtx(cs);
    X->freeCCtx(cx);
    static const int levels[] = {1, 3, 9};
    for (size_t li = 0; li < 3; li++) {
        for (int withdict = 0; withdict < 2; withdict++) {
            for (int k = 0; k < 2; k++) {
                const api *C = k ? X : S;
                series s;
                make_series(C, &s, src, withdict ? dict : NULL, 20000, levels[li]);
                size_t raw = 0;
                for (size_t i = 0; i < s.nb; i++) raw += s.body_size[i] == 0;
                CHECK(raw > 0 && raw < s.nb, "%s: %zu raw blocks of %zu", C->name, raw, s.nb);
                char what[80];
                snprintf(what, sizeof what, "%s's blocks, level %d%s", C->name, levels[li],
                         withdict ? ", dictionary" : "");
                decode_both(S, X, &s, src, withdict ? dict : NULL, 20000, s.nb, what);
                /* Two segments: the first run of blocks, then the rest (with a
                 * dictionary that would be three, one more than libzstd keeps). */
                if (!withdict)
                    decode_both(S, X, &s, src, NULL, 0, s.nb / 2, what);
                series_free(&s);
            }
        }
    }
    free(src);
    free(dict);
}

int main(int argc, char **argv)
{
    api S, X;
    int const bad = cd_open(argc, argv, &S, &X);
    if (bad) return bad;
    format_parameters(&S, &X);
    magicless_frames(&S, &X);
    blocks(&S, &X);
    printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
