/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One-shot decompression of several frames on several threads
 * (XC_ZSTD_D_NB_WORKERS).
 *
 * A zstd frame cannot be split: each block may reach back into the whole
 * window before it.  Frames, though, are independent, and a frame whose
 * header records its content size says where the next frame's output
 * begins.  So an input of several frames (files concatenated, or a
 * producer that writes a frame per chunk) is walked once, header by header
 * and block header by block header (xc_zstd_find_frame_compressed_size,
 * cheap), into groups of consecutive frames of at least GROUP_MIN bytes of
 * output; `nb_workers` runners on threads of the context's pool take groups
 * in order and decode each into its place in the destination with a
 * decoding context of their own, which shares the caller's dictionary.
 * The first error in input order is the result, as the serial decoder
 * would report it, except that the destination's content is then undefined
 * beyond the serial decoder's too.
 *
 * Inputs it does not take (a single frame, a frame without its content
 * size, output that does not fit) go to the serial decoder unchanged.
 *
 * What it may call: the thread pool (src/thread_pool.h), the decoder's
 * one-shot entry and frame inspection (decompress.c, decompress_frame.c).
 */
#include <stdlib.h>

#include "thread_pool.h"
#include "zstd/decompress/decompress_internal.h"

/* A runner takes frames until it has this much output to write: small
 * frames are not worth a hand-off each. */
#define GROUP_MIN ((uint64_t)1 << 20)

typedef struct {
    const uint8_t *src; /* the group's first frame (or skippable frame) */
    size_t src_size;    /* its frames' bytes */
    uint64_t off;       /* where its output starts */
    uint64_t size;      /* its output */
    size_t result;      /* 0 or the first error */
} dgroup;

typedef struct {
    xc_pool_task task;
    struct xc_zdmt_s *mt;
    xc_zstd_dctx *d;
} drunner;

struct xc_zdmt_s {
#if XC_HAVE_THREADS
    pthread_mutex_t lock;
    pthread_cond_t done;
#endif
    xc_thread_pool *pool;
    unsigned threads;
    drunner *runners;
    unsigned nb_runners;
    /* The call in progress. */
    dgroup *groups;
    size_t nb_groups, groups_cap;
    size_t next;        /* the next group to take */
    unsigned running;   /* runners not finished */
    uint8_t *dst;
};

#if XC_HAVE_THREADS
#  define DLOCK(mt) pthread_mutex_lock(&(mt)->lock)
#  define DUNLOCK(mt) pthread_mutex_unlock(&(mt)->lock)
#else
#  define DLOCK(mt) ((void)(mt))
#  define DUNLOCK(mt) ((void)(mt))
#endif

size_t xc_zstd_dmt_set(xc_zstd_dctx *d, int value)
{
    RETURN_ERROR_IF(!XC_HAVE_THREADS && value != 0, UNSUPPORTED);
    d->nb_workers = value < 0 ? 0 : value > XC_THREAD_POOL_MAX ? XC_THREAD_POOL_MAX : value;
    return 0;
}

static void runner_main(void *arg)
{
    drunner *const r = (drunner *)arg;
    struct xc_zdmt_s *const mt = r->mt;
    for (;;) {
        DLOCK(mt);
        size_t const k = mt->next < mt->nb_groups ? mt->next++ : SIZE_MAX;
        DUNLOCK(mt);
        if (k == SIZE_MAX) break;
        dgroup *const g = &mt->groups[k];
        size_t const got = xc_zstd_decompress_dctx(r->d, mt->dst + g->off, (size_t)g->size,
                                                   g->src, g->src_size);
        g->result = xc_iserr(got) ? got : got != g->size ? XC_ERROR(CORRUPT) : 0;
    }
    DLOCK(mt);
    mt->running--;
#if XC_HAVE_THREADS
    pthread_cond_broadcast(&mt->done);
#endif
    DUNLOCK(mt);
}

static struct xc_zdmt_s *dmt_get(xc_zstd_dctx *d)
{
    if (d->mt) return d->mt;
    struct xc_zdmt_s *mt = (struct xc_zdmt_s *)calloc(1, sizeof *mt);
    if (!mt) return NULL;
#if XC_HAVE_THREADS
    if (xc_lock_pair_init(&mt->lock, &mt->done)) {
        free(mt);
        return NULL;
    }
#endif
    d->mt = mt;
    return mt;
}

void xc_zstd_dmt_free(xc_zstd_dctx *d)
{
    struct xc_zdmt_s *const mt = d->mt;
    if (!mt) return;
    xc_thread_pool_free(mt->pool);
    for (unsigned i = 0; i < mt->nb_runners; i++) xc_zstd_dctx_free(mt->runners[i].d);
    free(mt->runners);
    free(mt->groups);
#if XC_HAVE_THREADS
    pthread_cond_destroy(&mt->done);
    pthread_mutex_destroy(&mt->lock);
#endif
    free(mt);
    d->mt = NULL;
}

/* Cuts src into groups; returns 1 when it is worth decoding in parallel,
 * 0 when the serial decoder should take it, or an error of allocation. */
static size_t plan_groups(struct xc_zdmt_s *mt, const uint8_t *src, size_t n, size_t cap)
{
    mt->nb_groups = 0;
    uint64_t out = 0;
    dgroup *g = NULL;
    while (n) {
        size_t const fsize = xc_zstd_find_frame_compressed_size(src, n);
        if (xc_iserr(fsize)) return 0; /* the serial decoder reports it */
        unsigned long long const content = xc_zstd_frame_content_size(src, n);
        if (content == XC_ZSTD_CONTENTSIZE_ERROR || content == XC_ZSTD_CONTENTSIZE_UNKNOWN)
            return 0;
        if (content > cap - out) return 0;
        if (!g || g->size >= GROUP_MIN) {
            if (mt->nb_groups == mt->groups_cap) {
                size_t const cap2 = mt->groups_cap ? 2 * mt->groups_cap : 16;
                dgroup *const grown = (dgroup *)realloc(mt->groups, cap2 * sizeof *grown);
                RETURN_ERROR_IF(!grown, OUT_OF_MEMORY);
                mt->groups = grown;
                mt->groups_cap = cap2;
            }
            g = &mt->groups[mt->nb_groups++];
            g->src = src;
            g->src_size = 0;
            g->off = out;
            g->size = 0;
            g->result = 0;
        }
        g->src_size += fsize;
        g->size += content;
        out += content;
        src += fsize;
        n -= fsize;
    }
    return mt->nb_groups >= 2;
}

size_t xc_zstd_dmt_decompress(xc_zstd_dctx *d, void *dst, size_t dst_cap, const void *src,
                              size_t src_size, int *taken)
{
    *taken = 0;
    if (!XC_HAVE_THREADS || !d->nb_workers || !dst) return 0;
    struct xc_zdmt_s *const mt = dmt_get(d);
    RETURN_ERROR_IF(!mt, OUT_OF_MEMORY);
    size_t const plan = plan_groups(mt, (const uint8_t *)src, src_size, dst_cap);
    FORWARD_IF_ERROR(plan);
    if (!plan) return 0;
    *taken = 1;

    unsigned const workers = (unsigned)d->nb_workers;
    if (mt->threads != workers) {
        xc_thread_pool_free(mt->pool);
        mt->pool = xc_thread_pool_new(workers);
        mt->threads = mt->pool ? workers : 0;
    }
    if (mt->nb_runners < workers) {
        drunner *const r = (drunner *)realloc(mt->runners, workers * sizeof *r);
        RETURN_ERROR_IF(!r, OUT_OF_MEMORY);
        memset(r + mt->nb_runners, 0, (workers - mt->nb_runners) * sizeof *r);
        mt->runners = r;
        mt->nb_runners = workers;
    }
    unsigned const runners =
        (unsigned)XC_MIN((size_t)workers, mt->nb_groups);
    for (unsigned i = 0; i < runners; i++) {
        drunner *const r = &mt->runners[i];
        if (!r->d) {
            r->d = xc_zstd_dctx_new();
            RETURN_ERROR_IF(!r->d, OUT_OF_MEMORY);
        }
        r->mt = mt;
        r->d->ddict = d->ddict; /* shared, read-only */
        r->d->window_log_max = d->window_log_max;
        r->d->kern = d->kern;
    }
    mt->dst = (uint8_t *)dst;
    mt->next = 0;
    mt->running = runners;
    for (unsigned i = 0; i < runners; i++) {
        drunner *const r = &mt->runners[i];
        r->task.fn = runner_main;
        r->task.arg = r;
        if (mt->pool) xc_pool_submit(mt->pool, &r->task);
        else runner_main(r);
    }
    DLOCK(mt);
#if XC_HAVE_THREADS
    while (mt->running) pthread_cond_wait(&mt->done, &mt->lock);
#endif
    DUNLOCK(mt);
    uint64_t total = 0;
    for (size_t k = 0; k < mt->nb_groups; k++) {
        FORWARD_IF_ERROR(mt->groups[k].result);
        total += mt->groups[k].size;
    }
    return (size_t)total;
}
