/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whole-content decoding of a seekable input on several threads.
 *
 * The seek table gives every frame's place in the input and in the content
 * before anything is decoded, so frames are handed out one at a time, in
 * order, to runners on a pool of nb_workers threads (src/thread_pool.h),
 * each with a decoding context and input scratch of its own, each frame
 * decoded straight into its place in the destination.  The first error in
 * frame order is the result, as a serial pass would report it; frames
 * after a failed one are not started.
 *
 * Checksums.  A runner checks its frames against the seek table's
 * checksums XC_XXH64_WAYS at a time, after decoding them, with
 * xc_xxh64_many(): one XXH64 is bound by the latency of its rounds (about
 * 24 GB/s on Zen 5, 2.7 ms of a 44 ms decode of 64 MiB), four side by side
 * run at about three times that.  A mismatch is reported for its own
 * frame, so a frame or three after it may have been decoded in vain.
 *
 * What it may call: the thread pool, the reader's frame decoder
 * (seekable_read.c).
 */
#include <stdlib.h>

#include "thread_pool.h"
#include "zstd/common/xxh64.h"
#include "zstd/seekable/seekable_internal.h"

typedef struct sk_job_s sk_job;

typedef struct {
    xc_pool_task task;
    sk_job *job;
    xc_zstd_dctx *dctx;
    uint8_t *src;
    size_t src_cap;
} sk_runner;

struct sk_job_s {
#if XC_HAVE_THREADS
    pthread_mutex_t lock;
#endif
    const xc_zstd_seekable *r;
    uint8_t *dst;
    uint32_t next;      /* the next frame to take */
    uint32_t err_frame; /* the first failed frame, n when none */
    size_t err;
};

#if XC_HAVE_THREADS
#  define JLOCK(j) pthread_mutex_lock(&(j)->lock)
#  define JUNLOCK(j) pthread_mutex_unlock(&(j)->lock)
#else
#  define JLOCK(j) ((void)(j))
#  define JUNLOCK(j) ((void)(j))
#endif

/* Records error e of frame k if no earlier frame has failed. */
static void job_fail(sk_job *j, uint32_t k, size_t e)
{
    JLOCK(j);
    if (k < j->err_frame) {
        j->err_frame = k;
        j->err = e;
    }
    JUNLOCK(j);
}

/* Frames a runner has decoded and not yet checked. */
typedef struct {
    uint32_t k[XC_XXH64_WAYS];
    unsigned n;
} sk_unchecked;

static void check_frames(sk_job *j, sk_unchecked *u)
{
    const xc_zstd_seekable *const r = j->r;
    const uint8_t *p[XC_XXH64_WAYS];
    size_t n[XC_XXH64_WAYS];
    uint64_t h[XC_XXH64_WAYS];
    for (unsigned i = 0; i < u->n; i++) {
        p[i] = j->dst + r->d_off[u->k[i]];
        n[i] = (size_t)(r->d_off[u->k[i] + 1] - r->d_off[u->k[i]]);
    }
    xc_xxh64_many(p, n, u->n, h);
    for (unsigned i = 0; i < u->n; i++)
        if (!xc_sk_checksum_ok(r, u->k[i], h[i])) job_fail(j, u->k[i], XC_ERROR(CHECKSUM));
    u->n = 0;
}

static void runner_main(void *arg)
{
    sk_runner *const w = (sk_runner *)arg;
    sk_job *const j = w->job;
    const xc_zstd_seekable *const r = j->r;
    sk_unchecked u;
    u.n = 0;
    for (;;) {
        JLOCK(j);
        uint32_t const k = j->next < j->err_frame ? j->next++ : r->n;
        JUNLOCK(j);
        if (k >= r->n) break;
        size_t const e = w->dctx ? xc_sk_decode_frame(r, k, j->dst + r->d_off[k], w->dctx,
                                                      &w->src, &w->src_cap, 0)
                                 : XC_ERROR(OUT_OF_MEMORY);
        if (xc_iserr(e)) {
            job_fail(j, k, e);
        } else if (r->sum) {
            u.k[u.n++] = k;
            if (u.n == XC_XXH64_WAYS) check_frames(j, &u);
        }
    }
    if (u.n) check_frames(j, &u);
}

size_t xc_zstd_seekable_decompress_all(xc_zstd_seekable *r, void *dst, size_t dst_cap,
                                       unsigned nb_workers)
{
    RETURN_ERROR_IF(!r, BAD_PARAMETER);
    RETURN_ERROR_IF(!r->open, STAGE_WRONG);
    uint64_t const total = r->d_off[r->n];
    RETURN_ERROR_IF(total > dst_cap, DST_TOO_SMALL);
    if (!total) return 0;
    RETURN_ERROR_IF(!dst, BAD_PARAMETER);

    unsigned workers = nb_workers;
    if (workers > XC_THREAD_POOL_MAX) workers = XC_THREAD_POOL_MAX;
    if (workers > r->n) workers = r->n;
    xc_thread_pool *pool = XC_HAVE_THREADS && workers > 1 ? xc_thread_pool_new(workers) : NULL;
    if (!pool) workers = 1;

    sk_job job;
    memset(&job, 0, sizeof job);
    job.r = r;
    job.dst = (uint8_t *)dst;
    job.err_frame = r->n;
#if XC_HAVE_THREADS
    if (pool && pthread_mutex_init(&job.lock, NULL)) {
        xc_thread_pool_free(pool);
        pool = NULL;
        workers = 1;
    }
#endif
    sk_runner one;
    sk_runner *const runners =
        workers > 1 ? (sk_runner *)calloc(workers, sizeof *runners) : &one;
    if (!runners) {
        xc_thread_pool_free(pool);
#if XC_HAVE_THREADS
        pthread_mutex_destroy(&job.lock);
#endif
        return XC_ERROR(OUT_OF_MEMORY);
    }
    memset(runners, 0, workers * sizeof *runners);
    for (unsigned i = 0; i < workers; i++) {
        runners[i].job = &job;
        runners[i].dctx = xc_zstd_dctx_new();
        runners[i].task.fn = runner_main;
        runners[i].task.arg = &runners[i];
    }
    if (pool) {
        for (unsigned i = 0; i < workers; i++) xc_pool_submit(pool, &runners[i].task);
        xc_thread_pool_free(pool); /* waits for the runners to finish */
#if XC_HAVE_THREADS
        pthread_mutex_destroy(&job.lock);
#endif
    } else {
        runner_main(&runners[0]);
    }
    for (unsigned i = 0; i < workers; i++) {
        xc_zstd_dctx_free(runners[i].dctx);
        free(runners[i].src);
    }
    if (runners != &one) free(runners);
    return job.err_frame < r->n ? job.err : (size_t)total;
}
