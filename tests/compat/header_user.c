/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A program written for libzstd, built against our zstd.h, zdict.h and
 * zstd_errors.h (include/compat/) and linked with our libzstd.so.1: the
 * headers declare what the library exports, with libzstd's names, types
 * and values.  It checks that it runs on ours (xc_version_string is
 * there), then round-trips through the stable, the experimental and the
 * ZDICT API.
 */
#define ZSTD_STATIC_LINKING_ONLY
#define ZDICT_STATIC_LINKING_ONLY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zdict.h>
#include <zstd.h>
#include <zstd_errors.h>

/* xcodec's own, exported by the same library. */
const char *xc_version_string(void);

#define CHECK(c)                                                                            \
    do {                                                                                    \
        if (!(c)) {                                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c);                         \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

int main(void)
{
    printf("zstd %s (%u) on xcodec %s\n", ZSTD_versionString(), ZSTD_versionNumber(),
           xc_version_string());
    CHECK(ZSTD_versionNumber() / 100 == 105);
    enum { N = 100000, SAMPLES = 400 };
    static char src[N], dst[N + 1000], back[N];
    for (int i = 0; i < N; i++) src[i] = "header user of zstd "[(i * 7 + i / 100) % 20];
    size_t const n = ZSTD_compress(dst, sizeof dst, src, N, 5);
    CHECK(!ZSTD_isError(n) && n < N / 10);
    CHECK(ZSTD_getFrameContentSize(dst, n) == N);
    ZSTD_frameHeader h;
    CHECK(ZSTD_getFrameHeader(&h, dst, n) == 0 && h.frameType == ZSTD_frame);
    CHECK(ZSTD_decompress(back, N, dst, n) == N && memcmp(back, src, N) == 0);
    size_t const e = ZSTD_decompress(back, 10, dst, n);
    CHECK(ZSTD_isError(e) && ZSTD_getErrorCode(e) == ZSTD_error_dstSize_tooSmall);
    CHECK(strlen(ZSTD_getErrorString(ZSTD_error_dstSize_tooSmall)) > 0);

    /* Streaming with the experimental parameters' names. */
    ZSTD_CCtx *c = ZSTD_createCCtx();
    CHECK(!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)));
    CHECK(!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_forceMaxWindow, 1)));
    ZSTD_outBuffer out = {dst, sizeof dst, 0};
    ZSTD_inBuffer in = {src, N, 0};
    CHECK(ZSTD_compressStream2(c, &out, &in, ZSTD_e_end) == 0);
    ZSTD_frameProgression const fp = ZSTD_getFrameProgression(c);
    CHECK(fp.consumed == N);
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ZSTD_inBuffer din = {dst, out.pos, 0};
    ZSTD_outBuffer dout = {back, N, 0};
    CHECK(ZSTD_decompressStream(d, &dout, &din) == 0 && dout.pos == N);

    /* Dictionaries: trained, finalized, used. */
    static char samples[SAMPLES * 200];
    static size_t sizes[SAMPLES];
    size_t off = 0;
    for (int i = 0; i < SAMPLES; i++) {
        int const len = snprintf(samples + off, 200, "{\"id\": %d, \"name\": \"user%d\", \"ok\": %s}",
                                 i, i * 37 % 1000, i % 3 ? "true" : "false");
        sizes[i] = (size_t)len;
        off += (size_t)len;
    }
    static char dict[4096];
    size_t const ds = ZDICT_trainFromBuffer(dict, sizeof dict, samples, sizes, SAMPLES);
    CHECK(!ZDICT_isError(ds) && ZDICT_getDictID(dict, ds) != 0);
    ZDICT_params_t zp = {3, 0, 777};
    size_t const fs = ZDICT_finalizeDictionary(dict, sizeof dict, samples + off - 1500, 1500,
                                               samples, sizes, SAMPLES, zp);
    CHECK(!ZDICT_isError(fs) && ZDICT_getDictID(dict, fs) == 777);
    ZSTD_CDict *cd = ZSTD_createCDict(dict, fs, 3);
    ZSTD_DDict *dd = ZSTD_createDDict(dict, fs);
    CHECK(cd && dd && ZSTD_getDictID_fromDDict(dd) == 777);
    size_t const m = ZSTD_compress_usingCDict(c, dst, sizeof dst, samples, sizes[0], cd);
    CHECK(!ZSTD_isError(m) && ZSTD_getDictID_fromFrame(dst, m) == 777);
    CHECK(ZSTD_decompress_usingDDict(d, back, N, dst, m, dd) == sizes[0]);
    ZSTD_freeCDict(cd);
    ZSTD_freeDDict(dd);
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
    puts("ok");
    return 0;
}
