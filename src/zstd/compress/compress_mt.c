/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compression on several threads: one frame, its input cut into jobs that
 * workers compress at the same time, their blocks written out in order.
 *
 * Jobs.  The input is cut every job_size bytes (XC_ZSTD_C_JOB_SIZE, by
 * default 4 windows and at least 1 MiB, libzstd's rule), and, when
 * streaming, wherever the caller flushes; nothing else decides where a job
 * ends, so the frame is the same for any number of workers.  Each job is
 * compressed by a context of its own (a worker context, kept with its job
 * slot) as a "frame without header" (xc_zstd_cframe_job, compress_frame.c):
 * the first job with the frame's plan (a dictionary placed or none), every
 * later one with the last `overlap` bytes of the input before it as history
 * (XC_ZHIST_PREFIX, compress_history.c).  A job after the first starts with
 * fresh entropy tables and with repeat offsets the finders never take, as
 * libzstd's workers do, because the decoder's offsets at that point come out
 * of the job before, which is being compressed at the same time.  So jobs
 * depend on the input alone, never on each other's output.
 *
 * Independent frames (XC_ZSTD_C_JOB_FRAMES).  The same cuts, but each job
 * is a whole frame (xc_zstd_cframe_whole): planned for its own size as the
 * serial one-shot path plans it (plan_job_frame), with its own header and
 * checksum, and no overlap; the calling thread then writes no header and
 * computes no checksum, it only copies the frames out in order.
 *
 * The calling thread.  It plans the frame, writes the header, cuts the
 * input and copies each job's blocks into the output in job order.  The
 * content checksum (XXH64 over the whole input, serial by nature) is, when
 * streaming, the caller's as the input comes; one-shot, a task queued
 * behind the last job, so that it runs on a worker that has no job left.
 *
 * Slots and contexts.  Streaming, jobs sit in a ring of nb_workers + 1
 * slots, each with a worker context that holds the job's input: the
 * workers' jobs and the one the caller fills; a new job waits for the
 * oldest to be written out, so memory is bounded by the slots.  One-shot,
 * the input is read where it lies, and the ring has 2 * nb_workers + 1
 * slots that hold only output; a job borrows one of nb_workers + 1
 * contexts as it starts and gives it back as it ends.  So a slow job holds
 * back the output after it but not the workers, and a worker that
 * finishes finds the next job queued even when the calling thread, which
 * shares the cores with the workers, has not yet run.
 *
 * Threads.  Jobs go to the pool the context references, or to a pool of
 * nb_workers threads the context starts at its first frame with workers
 * (thread_pool.c); a job signals its slot's completion under the context's
 * mutex.  Without a pool (it could not be started) the jobs run in the
 * calling thread, and the frame is the same.  Abandoning a frame (reset,
 * free, an error) withdraws the jobs not started and waits for the others.
 *
 * What it may call: the thread pool (src/thread_pool.h), the frame plan
 * (dict/compress_dict.c), the frame driver's jobs and header
 * (compress_frame.c), the serial API (compress.c, compress_stream.c),
 * XXH64 (common/).
 */
#include <stdlib.h>

#include "thread_pool.h"
#include "zstd/compress/compress_frames.h"
#include "zstd/compress/compress_internal.h"
#include "zstd/compress/match/match_ldm.h"
#include "zstd/dict/cdict.h"

/* libzstd's bounds (zstdmt_compress.h, zstd.h). */
#define MT_WORKERS_MAX ((int)(sizeof(void *) == 4 ? 64 : 256)) /* ZSTDMT_NBWORKERS_MAX */
#define MT_JOB_SIZE_MIN ((size_t)512 << 10)
#define MT_JOB_LOG_MAX (sizeof(size_t) == 4 ? 29u : 30u)
#define MT_JOB_SIZE_MAX ((size_t)1 << MT_JOB_LOG_MAX)
#define MT_OVERLAP_LOG_MAX 9

enum { JOB_FREE = 0, JOB_FILLING, JOB_QUEUED, JOB_DONE };

typedef struct {
    xc_pool_task task;
    struct xc_zmt_s *mt;
    xc_zstd_cctx *w;          /* the worker context: streaming, the slot's own;
                                 one-shot, lent to the job while it runs */
    xc_zhistory h;            /* the job's history */
    const uint8_t *buf;       /* indices start here */
    size_t span;
    int placed;               /* one-shot: copy the input after the placed history */
    uint8_t *in_at;           /* the job's input (in w->in_buf when streaming) */
    const uint8_t *src;
    size_t size;
    int first, last;
    uint8_t *out;             /* the job's blocks */
    size_t out_cap;
    size_t result;            /* bytes in out, or an error, once done */
    size_t flushed;           /* of them, written to the caller */
    int state;                /* JOB_*, changed under mt->lock once queued */
} xc_zjob;

struct xc_zmt_s {
#if XC_HAVE_THREADS
    pthread_mutex_t lock;
    pthread_cond_t done;      /* a job finished */
#endif
    xc_thread_pool *own_pool; /* started by the context */
    unsigned own_threads;
    xc_thread_pool *pool;     /* the frame's pool; NULL: jobs run in the caller */
    xc_zjob *jobs;
    unsigned nb_slots;        /* in use: streaming nb_workers + 1, one-shot 2 * nb_workers + 1 */
    int frames;               /* each job is a frame of its own (XC_ZSTD_C_JOB_FRAMES) */
    unsigned slots_cap;       /* allocated */
    xc_zstd_cctx **ctx;       /* the worker contexts: nb_workers + 1 in use */
    unsigned char *lent;      /* one-shot: ctx[i] is with a running job */
    unsigned nb_ctx, ctx_cap;
    int lending;              /* one-shot: a job borrows a context as it starts */
    xc_pool_task sum_task;    /* one-shot: the content checksum, on the pool */
    const void *sum_src;
    size_t sum_size;
    uint64_t sum;
    int sum_state;            /* JOB_QUEUED, then JOB_DONE (under lock) */

    /* ---- the streamed frame ---- */
    xc_zhistory plan;
    size_t job_size, overlap;
    unsigned head, count;     /* the oldest job not written out, and jobs from it */
    uint64_t job_no;          /* jobs begun */
    unsigned prev;            /* slot of the last job begun */
    int ended;                /* the last job is submitted */
    int checksum_staged;
    uint8_t stage[XC_ZSTD_FRAME_HEADER_MAX + XC_ZSTD_CHECKSUM_SIZE];
    size_t stage_pos, stage_end;
};

/* ---- settings ------------------------------------------------------------------ */

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

size_t xc_zstd_mt_set(xc_zstd_cctx *c, int param, int value)
{
    RETURN_ERROR_IF(!XC_HAVE_THREADS && value != 0 && param != XC_ZSTD_C_JOB_FRAMES, UNSUPPORTED);
    switch (param) {
    case XC_ZSTD_C_NB_WORKERS: c->nb_workers = clamp(value, 0, MT_WORKERS_MAX); return 0;
    case XC_ZSTD_C_JOB_SIZE:
        if (value > 0 && (size_t)value < MT_JOB_SIZE_MIN) value = (int)MT_JOB_SIZE_MIN;
        c->job_size = value < 0 ? 0 : (size_t)value > MT_JOB_SIZE_MAX ? (int)MT_JOB_SIZE_MAX
                                                                        : value;
        return 0;
    case XC_ZSTD_C_OVERLAP_LOG: c->overlap_log = clamp(value, 0, MT_OVERLAP_LOG_MAX); return 0;
    case XC_ZSTD_C_JOB_FRAMES:
        RETURN_ERROR_IF(value != 0 && value != 1, BAD_PARAMETER);
        c->job_frames = value;
        return 0;
    default: return XC_ERROR(BAD_PARAMETER);
    }
}

size_t xc_zstd_cctx_ref_thread_pool(xc_zstd_cctx *c, xc_thread_pool *pool)
{
    RETURN_ERROR_IF(!c, BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_IDLE, STAGE_WRONG);
    RETURN_ERROR_IF(!XC_HAVE_THREADS && pool, UNSUPPORTED);
    c->pool_ref = pool;
    return 0;
}

/* libzstd's job log: 4 windows, at least 1 MiB; with long-distance
 * matching, whose windows are oversized, 8 cycles of the search tables
 * (the chain log, minus one for binary trees), at least 2 MiB. */
static unsigned default_job_log(const xc_zstd_cparams *p, int ldm)
{
    unsigned log;
    if (ldm) {
        unsigned const cycle = p->chain_log - (p->strategy >= XC_ZSTRAT_BTLAZY2);
        log = XC_MAX(21u, cycle + 3);
    } else {
        log = XC_MAX(20u, p->window_log + 2);
    }
    return XC_MIN(log, MT_JOB_LOG_MAX);
}

static int ldm_for(const xc_zstd_cctx *c, const xc_zstd_cparams *p)
{
    return xc_zldm_params_for(c, p).on;
}

size_t xc_zstd_mt_overlap(const xc_zstd_cctx *c, const xc_zstd_cparams *p)
{
    /* OVERLAP_LOG n keeps 2^(n - 9) of the window: 9 all of it, 1 none; by
     * default more for the strategies that search harder, whose matches
     * across a job's start matter more. */
    int ovl = c ? c->overlap_log : 0;
    if (ovl == 0) {
        unsigned const s = p->strategy;
        ovl = s == XC_ZSTRAT_BTULTRA2                              ? 9
              : s == XC_ZSTRAT_BTOPT || s == XC_ZSTRAT_BTULTRA     ? 8
              : s == XC_ZSTRAT_LAZY2 || s == XC_ZSTRAT_BTLAZY2     ? 7
                                                                   : 6;
    }
    int const rlog = 9 - ovl;
    int log = rlog >= 8 ? 0 : (int)p->window_log - rlog;
    if (ldm_for(c, p))
        log = (int)XC_MIN(p->window_log, default_job_log(p, 1) - 2) - rlog;
    return log <= 0 ? 0 : (size_t)1 << log;
}

/* The default job of a frame whose content size is known: about a
 * sixteenth of it (an eighth for fast and dfast), so that workers
 * finishing at different times leave little idle at the end, but never
 * under two windows (each boundary costs the matches it cuts) nor under
 * eight overlaps (each job hashes its overlap again), and never over
 * libzstd's size.  fast and dfast jobs take about the same time each, and
 * the overlaps and table resets of more jobs cost more than the tail: 64
 * MiB of silesia on 2 workers at level 3, 8 jobs 81-84 ms against 16 jobs
 * 87-89 ms (and 0.9998x the size). */
static size_t content_job(size_t base, size_t window, size_t overlap, uint64_t content,
                          unsigned strategy)
{
    if (content == XC_ZSTD_SIZE_UNKNOWN) return base;
    size_t const floor = XC_MAX(XC_MAX((size_t)1 << 20, window * 2), overlap * 8);
    uint64_t const want = content / (strategy <= XC_ZSTRAT_DFAST ? 8 : 16);
    if (want >= base || floor >= base) return base;
    return want <= floor ? floor : (size_t)want;
}

size_t xc_zstd_mt_job_size(const xc_zstd_cctx *c, const xc_zstd_cparams *p, uint64_t content)
{
    size_t const ov = xc_zstd_mt_overlap(c, p);
    size_t job;
    if (c && c->job_size) {
        job = (size_t)c->job_size;
    } else {
        int const ldm = ldm_for(c, p);
        job = (size_t)1 << default_job_log(p, ldm);
        if (!ldm) job = content_job(job, (size_t)1 << p->window_log, ov, content, p->strategy);
    }
    /* A job holds at least the overlap the next one takes from it; an
     * independent frame takes none. */
    if (c && c->job_frames) return job;
    return XC_MAX(job, ov);
}

/* The overlap of jobs of `job` bytes: xc_zstd_mt_overlap(), doubled for
 * lazy2 when the default overlap meets a job the content size made
 * smaller than libzstd's.  lazy2's matches reach the furthest of the
 * hashing strategies, whose fills are cheap: at level 9 on 64 MiB of
 * silesia, 8 jobs of 8 MiB with a quarter window of overlap were 1.0003x
 * libzstd's size (with its 4 jobs), with half a window 0.9994x, for about
 * 3% more time. */
static size_t job_overlap(const xc_zstd_cctx *c, const xc_zstd_cparams *p, size_t job)
{
    size_t const ov = xc_zstd_mt_overlap(c, p);
    int const defaults = !c || (c->overlap_log == 0 && c->job_size == 0);
    if (!defaults || p->strategy != XC_ZSTRAT_LAZY2 || ldm_for(c, p)) return ov;
    if (job >= (size_t)1 << default_job_log(p, 0)) return ov;
    return XC_MIN(ov * 2, job);
}

/* ---- locking ------------------------------------------------------------------- */

#if XC_HAVE_THREADS
static void mt_lock(struct xc_zmt_s *mt) { pthread_mutex_lock(&mt->lock); }
static void mt_unlock(struct xc_zmt_s *mt) { pthread_mutex_unlock(&mt->lock); }
static void mt_wait(struct xc_zmt_s *mt) { pthread_cond_wait(&mt->done, &mt->lock); }
static void mt_signal(struct xc_zmt_s *mt) { pthread_cond_broadcast(&mt->done); }
#else
static void mt_lock(struct xc_zmt_s *mt) { (void)mt; }
static void mt_unlock(struct xc_zmt_s *mt) { (void)mt; }
static void mt_wait(struct xc_zmt_s *mt) { (void)mt; }
static void mt_signal(struct xc_zmt_s *mt) { (void)mt; }
#endif

static int job_state(xc_zjob *j)
{
    mt_lock(j->mt);
    int const s = j->state;
    mt_unlock(j->mt);
    return s;
}

static void job_wait(xc_zjob *j)
{
    mt_lock(j->mt);
    while (j->state == JOB_QUEUED) mt_wait(j->mt);
    mt_unlock(j->mt);
}

/* ---- jobs ------------------------------------------------------------------------ */

/* One-shot: a free context, waiting while every one is lent (only a
 * shared pool with more threads than nb_workers runs that many jobs). */
static unsigned borrow(struct xc_zmt_s *mt)
{
    mt_lock(mt);
    for (;;) {
        for (unsigned i = 0; i < mt->nb_ctx; i++) {
            if (!mt->lent[i]) {
                mt->lent[i] = 1;
                mt_unlock(mt);
                return i;
            }
        }
        mt_wait(mt);
    }
}

static size_t grow(uint8_t **buf, size_t *cap, size_t need);

/* A one-shot first job after a placed dictionary or prefix: its input
 * goes after that history in the worker's window buffer. */
static size_t place_input(xc_zjob *j)
{
    xc_zstd_cctx *const w = j->w;
    size_t const room = j->h.content + j->size;
    FORWARD_IF_ERROR(grow(&w->in_buf, &w->in_cap, room));
    memcpy(w->in_buf + j->h.content, j->src, j->size);
    w->in_size = room;
    j->buf = w->in_buf;
    j->span = room;
    j->src = w->in_buf + j->h.content;
    return 0;
}

static size_t run_job(xc_zjob *j)
{
    if (j->mt->frames) {
        /* A frame of its own; an empty last job after others adds none. */
        return j->size == 0 && !j->first ? 0
                                         : xc_zstd_cframe_whole(j->w, &j->h, j->buf, j->span,
                                                                j->src, j->size, j->out,
                                                                j->out_cap);
    }
    if (j->size == 0) {
        /* Only a frame's last job is empty: an empty raw block, last. */
        RETURN_ERROR_IF(j->out_cap < XC_ZSTD_BLOCK_HEADER, DST_TOO_SMALL);
        j->out[0] = 1;
        j->out[1] = j->out[2] = 0;
        return XC_ZSTD_BLOCK_HEADER;
    }
    return xc_zstd_cframe_job(j->w, &j->h, j->buf, j->span, j->src, j->size, j->first, j->last,
                              j->out, j->out_cap);
}

/* On a worker thread (or the caller's, without a pool). */
static void job_main(void *arg)
{
    xc_zjob *const j = (xc_zjob *)arg;
    struct xc_zmt_s *const mt = j->mt;
    unsigned const k = mt->lending ? borrow(mt) : 0;
    size_t r = 0;
    if (mt->lending) {
        j->w = mt->ctx[k];
        if (j->placed) r = place_input(j);
    }
    if (!xc_iserr(r)) r = run_job(j);
    mt_lock(mt);
    if (mt->lending) {
        mt->lent[k] = 0;
        j->w = NULL;
    }
    j->result = r;
    j->state = JOB_DONE;
    mt_signal(mt);
    mt_unlock(mt);
}

static void job_submit(struct xc_zmt_s *mt, xc_zjob *j)
{
    mt_lock(mt);
    j->state = JOB_QUEUED;
    mt_unlock(mt);
    j->task.fn = job_main;
    j->task.arg = j;
    if (mt->pool) xc_pool_submit(mt->pool, &j->task);
    else job_main(j);
}

/* The settings a worker context compresses with: the parent's, without the
 * checksum when the parent writes it (one frame of jobs). */
static void copy_settings(xc_zstd_cctx *w, const xc_zstd_cctx *c, int frames)
{
    w->level = c->level;
    w->req = c->req;
    w->checksum = frames ? c->checksum : 0;
    w->content_size_flag = c->content_size_flag;
    w->dict_id_flag = c->dict_id_flag;
    w->ldm_enable = c->ldm_enable;
    w->ldm_hash_log = c->ldm_hash_log;
    w->ldm_min_match = c->ldm_min_match;
    w->ldm_bucket_log = c->ldm_bucket_log;
    w->ldm_rate_log = c->ldm_rate_log;
    w->block_split = c->block_split;
    w->kern = c->kern;
}

static size_t grow(uint8_t **buf, size_t *cap, size_t need)
{
    if (*buf && *cap >= need) return 0;
    free(*buf);
    *cap = 0;
    *buf = (uint8_t *)malloc(need ? need : 1);
    RETURN_ERROR_IF(!*buf, OUT_OF_MEMORY);
    *cap = need;
    return 0;
}

static struct xc_zmt_s *mt_get(xc_zstd_cctx *c)
{
    if (c->mt) return c->mt;
    struct xc_zmt_s *mt = (struct xc_zmt_s *)calloc(1, sizeof *mt);
    if (!mt) return NULL;
#if XC_HAVE_THREADS
    if (xc_lock_pair_init(&mt->lock, &mt->done)) {
        free(mt);
        return NULL;
    }
#endif
    c->mt = mt;
    return mt;
}

/* Readies the pool, the contexts, the slots and their buffers for a frame
 * planned as *h, cut into jobs of job_size bytes, each a frame of its own
 * when `frames`; `in_room` is the input each slot holds when streaming, 0
 * for one-shot, whose jobs borrow their contexts and whose slots get
 * their output room when they take a job. */
static size_t mt_prepare(xc_zstd_cctx *c, const xc_zhistory *h, size_t in_room, size_t job_size,
                         int frames)
{
    struct xc_zmt_s *const mt = mt_get(c);
    RETURN_ERROR_IF(!mt, OUT_OF_MEMORY);
    unsigned const workers = (unsigned)c->nb_workers;
    if (c->pool_ref) {
        mt->pool = c->pool_ref;
    } else {
        if (mt->own_threads != workers) {
            xc_thread_pool_free(mt->own_pool);
            mt->own_pool = xc_thread_pool_new(workers);
            mt->own_threads = mt->own_pool ? workers : 0;
        }
        mt->pool = mt->own_pool;
    }
    int const lending = in_room == 0;
    unsigned const nctx = workers + 1;
    unsigned const slots = lending ? 2 * workers + 1 : workers + 1;
    if (mt->slots_cap < slots) {
        xc_zjob *const jobs = (xc_zjob *)realloc(mt->jobs, slots * sizeof *jobs);
        RETURN_ERROR_IF(!jobs, OUT_OF_MEMORY);
        memset(jobs + mt->slots_cap, 0, (slots - mt->slots_cap) * sizeof *jobs);
        mt->jobs = jobs;
        mt->slots_cap = slots;
    }
    if (mt->ctx_cap < nctx) {
        xc_zstd_cctx **const ctx = (xc_zstd_cctx **)realloc(mt->ctx, nctx * sizeof *ctx);
        RETURN_ERROR_IF(!ctx, OUT_OF_MEMORY);
        memset(ctx + mt->ctx_cap, 0, (nctx - mt->ctx_cap) * sizeof *ctx);
        mt->ctx = ctx;
        unsigned char *const lent = (unsigned char *)realloc(mt->lent, nctx);
        RETURN_ERROR_IF(!lent, OUT_OF_MEMORY);
        mt->lent = lent;
        mt->ctx_cap = nctx;
    }
    mt->nb_slots = slots;
    mt->nb_ctx = nctx;
    mt->lending = lending;
    mt->frames = frames;
    mt->job_size = job_size;
    mt->overlap = mt->frames ? 0 : job_overlap(c, &h->p, job_size);
    size_t const out_cap = xc_zstd_compress_bound(mt->job_size);
    FORWARD_IF_ERROR(out_cap);
    for (unsigned i = 0; i < nctx; i++) {
        if (!mt->ctx[i]) {
            mt->ctx[i] = xc_zstd_cctx_new();
            RETURN_ERROR_IF(!mt->ctx[i], OUT_OF_MEMORY);
        }
        copy_settings(mt->ctx[i], c, frames);
        mt->lent[i] = 0;
        if (in_room) FORWARD_IF_ERROR(grow(&mt->ctx[i]->in_buf, &mt->ctx[i]->in_cap, in_room));
    }
    for (unsigned i = 0; i < slots; i++) {
        xc_zjob *const j = &mt->jobs[i];
        j->mt = mt;
        j->state = JOB_FREE;
        j->w = lending ? NULL : mt->ctx[i];
        j->placed = 0;
        if (!lending) FORWARD_IF_ERROR(grow(&j->out, &j->out_cap, out_cap));
    }
    mt->plan = *h;
    mt->head = mt->count = 0;
    mt->job_no = 0;
    mt->ended = mt->checksum_staged = 0;
    mt->stage_pos = mt->stage_end = 0;
    /* The header: the frame's window and dictionary ID. */
    c->p = h->p;
    c->frame_dict_id = h->cd && c->dict_id_flag ? h->cd->id : 0;
    return 0;
}

void xc_zstd_mt_abort(xc_zstd_cctx *c)
{
    struct xc_zmt_s *const mt = c->mt;
    if (!mt) return;
    for (unsigned i = 0; i < mt->nb_slots; i++) {
        xc_zjob *const j = &mt->jobs[i];
        if (job_state(j) == JOB_QUEUED) {
            if (mt->pool && xc_pool_withdraw(mt->pool, &j->task)) {
                mt_lock(mt);
                j->state = JOB_FREE;
                mt_unlock(mt);
            }
            job_wait(j);
        }
        j->state = JOB_FREE;
    }
    mt->head = mt->count = 0;
    mt->ended = 0;
}

void xc_zstd_mt_free(xc_zstd_cctx *c)
{
    struct xc_zmt_s *const mt = c->mt;
    if (!mt) return;
    xc_zstd_mt_abort(c);
    xc_thread_pool_free(mt->own_pool);
    for (unsigned i = 0; i < mt->ctx_cap; i++) xc_zstd_cctx_free(mt->ctx[i]);
    for (unsigned i = 0; i < mt->slots_cap; i++) free(mt->jobs[i].out);
    free(mt->ctx);
    free(mt->lent);
    free(mt->jobs);
#if XC_HAVE_THREADS
    pthread_cond_destroy(&mt->done);
    pthread_mutex_destroy(&mt->lock);
#endif
    free(mt);
    c->mt = NULL;
}

size_t xc_zstd_mt_held(const xc_zstd_cctx *c)
{
    const struct xc_zmt_s *const mt = c->mt;
    if (!mt) return 0;
    size_t n = sizeof *mt + mt->slots_cap * sizeof(xc_zjob) + mt->ctx_cap * (sizeof(void *) + 1);
    for (unsigned i = 0; i < mt->ctx_cap; i++)
        if (mt->ctx[i]) n += xc_zstd_cctx_mem_held(mt->ctx[i]);
    for (unsigned i = 0; i < mt->slots_cap; i++) n += mt->jobs[i].out_cap;
    return n;
}

size_t xc_zstd_estimate_cctx_size_workers(int level, int nb_workers)
{
    size_t const one = xc_zstd_estimate_cctx_size(level);
    FORWARD_IF_ERROR(one);
    if (nb_workers <= 0) return one;
    RETURN_ERROR_IF(!XC_HAVE_THREADS, UNSUPPORTED);
    xc_zstd_cparams const p = xc_zstd_level_params(level, XC_ZSTD_SIZE_UNKNOWN);
    size_t const job = xc_zstd_mt_job_size(NULL, &p, XC_ZSTD_SIZE_UNKNOWN);
    size_t const ov = xc_zstd_mt_overlap(NULL, &p);
    size_t const w = (size_t)XC_MIN(nb_workers, MT_WORKERS_MAX);
    size_t const out = xc_zstd_compress_bound(job);
    /* nb_workers + 1 worker contexts, each like a context of its own;
     * streaming, as many slots, each with its input, the overlap and the
     * job's bound of output; one-shot, 2 * nb_workers + 1 slots with the
     * bound of output only. */
    size_t const slot_mem = XC_MAX((w + 1) * (ov + job + out), (2 * w + 1) * out);
    return one + sizeof(struct xc_zmt_s) + (w + 1) * (one + sizeof(void *) + 1) +
           (2 * w + 1) * sizeof(xc_zjob) + slot_mem;
}

/* ---- independent frames ------------------------------------------------------------ */

/* The plan of job k as a frame of its own of `size` bytes, all of them in
 * one buffer: as the serial one-shot path plans that input alone, except
 * that a prefix is history for the first frame only. */
static size_t plan_job_frame(xc_zstd_cctx *c, size_t size, int first, xc_zhistory *h)
{
    size_t const prefix = c->prefix_size;
    if (!first) c->prefix_size = 0;
    size_t const r = xc_zstd_plan_frame(c, size, 1, h);
    c->prefix_size = prefix;
    return r;
}

/* ---- one-shot --------------------------------------------------------------------- */

/* Job k of a one-shot input: read where it lies, with the overlap just
 * before it; the first job with a placed dictionary goes after the content
 * in the worker's window buffer (place_input). */
static size_t oneshot_job(xc_zstd_cctx *c, struct xc_zmt_s *mt, xc_zjob *j, const uint8_t *src,
                          size_t n, uint64_t k)
{
    size_t const off = (size_t)k * mt->job_size;
    j->size = XC_MIN(mt->job_size, n - off);
    j->first = k == 0;
    j->last = off + j->size == n;
    j->flushed = 0;
    if (mt->frames) {
        FORWARD_IF_ERROR(plan_job_frame(c, j->size, j->first, &j->h));
        src += off;
    }
    j->placed = 0;
    if (j->first || mt->frames) {
        if (!mt->frames) j->h = mt->plan;
        /* After a placed history the job copies its input behind it, in
         * the context it borrows (place_input). */
        j->placed = j->h.mode == XC_ZHIST_PLACED;
        j->buf = j->src = src;
        j->span = j->size;
    } else {
        size_t const ov = XC_MIN(mt->overlap, off);
        j->h.mode = XC_ZHIST_PREFIX;
        j->h.cd = NULL;
        j->h.p = mt->plan.p;
        j->h.content = ov;
        j->buf = src + off - ov;
        j->span = ov + j->size;
        j->src = src + off;
    }
    job_submit(mt, j);
    return 0;
}

static void sum_main(void *arg)
{
    struct xc_zmt_s *const mt = (struct xc_zmt_s *)arg;
    uint64_t const h = xc_xxh64(mt->sum_src, mt->sum_size, 0);
    mt_lock(mt);
    mt->sum = h;
    mt->sum_state = JOB_DONE;
    mt_signal(mt);
    mt_unlock(mt);
}

/* The content checksum of a one-shot input as a task queued behind every
 * job: a worker computes it when no job is left to start, while the last
 * ones run, where its core would otherwise idle (in the calling thread it
 * took a core from the workers as they started). */
static void sum_submit(struct xc_zmt_s *mt, const void *src, size_t n)
{
    mt->sum_src = src;
    mt->sum_size = n;
    mt->sum_state = JOB_QUEUED;
    mt->sum_task.fn = sum_main;
    mt->sum_task.arg = mt;
    if (mt->pool) xc_pool_submit(mt->pool, &mt->sum_task);
    else sum_main(mt);
}

static uint64_t sum_wait(struct xc_zmt_s *mt)
{
    mt_lock(mt);
    while (mt->sum_state != JOB_DONE) mt_wait(mt);
    uint64_t const h = mt->sum;
    mt_unlock(mt);
    return h;
}

/* The jobs of a one-shot input on the prepared slots, written out in order;
 * sizes[k], when given, gets job k's output size.  With 2 * nb_workers + 1
 * slots and the contexts lent only to running jobs, a slow job holds back
 * the output after it but seldom the workers, and a worker that finishes
 * finds the next job queued even when the calling thread is slow to run. */
static size_t run_oneshot(xc_zstd_cctx *c, void *dst, size_t dst_cap, const void *src,
                          size_t src_size, uint32_t *sizes)
{
    struct xc_zmt_s *const mt = c->mt;
    uint8_t *const ostart = (uint8_t *)dst;
    uint8_t *op = ostart;
    uint8_t *const oend = ostart + dst_cap;
    if (!mt->frames) {
        size_t const hsize = xc_zstd_write_frame_header(c, op, dst_cap, src_size);
        FORWARD_IF_ERROR(hsize);
        op += hsize;
    }

    size_t const out_cap = xc_zstd_compress_bound(mt->job_size);
    uint64_t const jobs = (src_size + mt->job_size - 1) / mt->job_size;
    uint64_t submitted = 0, written = 0;
    size_t err = 0;
    int const summing = c->checksum && !mt->frames;
    int sum_queued = 0;
    for (;;) {
        if (!err && submitted < jobs && submitted - written < mt->nb_slots) {
            xc_zjob *const j = &mt->jobs[submitted % mt->nb_slots];
            size_t r = grow(&j->out, &j->out_cap, out_cap);
            if (!xc_iserr(r)) r = oneshot_job(c, mt, j, (const uint8_t *)src, src_size, submitted);
            if (xc_iserr(r)) err = r;
            else submitted++;
            continue;
        }
        if (summing && !sum_queued && !err && submitted == jobs) {
            /* Every job is queued: the checksum goes behind them. */
            sum_submit(mt, src, src_size);
            sum_queued = 1;
        }
        if (written == submitted) break;
        xc_zjob *const j = &mt->jobs[written % mt->nb_slots];
        job_wait(j);
        if (!err) {
            if (xc_iserr(j->result)) err = j->result;
            else if (j->result > (size_t)(oend - op)) err = XC_ERROR(DST_TOO_SMALL);
            else {
                memcpy(op, j->out, j->result);
                op += j->result;
                if (sizes) sizes[written] = (uint32_t)j->result;
            }
        }
        j->state = JOB_FREE;
        written++;
    }
    /* The task reads the input and lives in mt: wait for it, even after
     * an error. */
    uint64_t const sum = sum_queued ? sum_wait(mt) : 0;
    FORWARD_IF_ERROR(err);
    if (summing) {
        size_t const k = xc_zstd_write_checksum(op, (size_t)(oend - op), sum);
        FORWARD_IF_ERROR(k);
        op += k;
    }
    return (size_t)(op - ostart);
}

/* A prefix is history for one frame (or one output of frames): spent once
 * the jobs have used it. */
static void spend_prefix(xc_zstd_cctx *c, const xc_zhistory *h)
{
    if (h->mode == XC_ZHIST_PLACED && h->cd && h->cd == c->prefix_cd) c->prefix_size = 0;
}

size_t xc_zstd_mt_compress(xc_zstd_cctx *c, const xc_zhistory *h, void *dst, size_t dst_cap,
                           const void *src, size_t src_size)
{
    FORWARD_IF_ERROR(
        mt_prepare(c, h, 0, xc_zstd_mt_job_size(c, &h->p, src_size), c->job_frames));
    size_t const r = run_oneshot(c, dst, dst_cap, src, src_size, NULL);
    spend_prefix(c, h);
    return r;
}

int xc_zstd_cctx_workers(const xc_zstd_cctx *c) { return c->nb_workers; }

size_t xc_zstd_mt_frames(xc_zstd_cctx *c, const void *src, size_t n, size_t frame, void *dst,
                         size_t dst_cap, uint32_t *c_sizes)
{
    RETURN_ERROR_IF(!c->nb_workers || !frame || !n || !src, BAD_PARAMETER);
    RETURN_ERROR_IF(c->stage != XC_ZSTAGE_IDLE, STAGE_WRONG);
    xc_zhistory h;
    FORWARD_IF_ERROR(xc_zstd_plan_frame(c, XC_MIN(frame, n), 1, &h));
    FORWARD_IF_ERROR(mt_prepare(c, &h, 0, frame, 1));
    size_t const r = run_oneshot(c, dst, dst_cap, src, n, c_sizes);
    spend_prefix(c, &h);
    return r;
}

/* ---- streaming ------------------------------------------------------------------- */

static xc_zjob *slot(struct xc_zmt_s *mt, unsigned k) { return &mt->jobs[k % mt->nb_slots]; }

/* The job being filled, or NULL. */
static xc_zjob *filling(struct xc_zmt_s *mt)
{
    if (!mt->count) return NULL;
    xc_zjob *const j = slot(mt, mt->head + mt->count - 1);
    return job_state(j) == JOB_FILLING ? j : NULL;
}

/* Begins a job in the next free slot (there is one): its history first,
 * the frame's plan for the first job, else the tail of the input before. */
static xc_zjob *begin_job(struct xc_zmt_s *mt)
{
    unsigned const k = (mt->head + mt->count) % mt->nb_slots;
    xc_zjob *const j = &mt->jobs[k];
    xc_zstd_cctx *const w = j->w;
    mt->count++;
    j->first = mt->job_no++ == 0;
    j->last = 0;
    j->size = 0;
    j->flushed = 0;
    size_t hist;
    if (j->first || mt->frames) {
        /* Independent frames are planned when their size is known; room is
         * kept for the frame's placed dictionary or prefix. */
        j->h = mt->plan;
        hist = j->h.mode == XC_ZHIST_PLACED ? j->h.content : 0;
    } else {
        const xc_zjob *const p = &mt->jobs[mt->prev];
        /* The input the previous job holds: its own, and its overlap. */
        size_t const have = p->size + (p->first ? 0 : p->h.content);
        hist = XC_MIN(mt->overlap, have);
        memcpy(w->in_buf, p->in_at + p->size - hist, hist);
        j->h.mode = XC_ZHIST_PREFIX;
        j->h.cd = NULL;
        j->h.p = mt->plan.p;
        j->h.content = hist;
    }
    j->buf = w->in_buf;
    j->in_at = w->in_buf + hist;
    j->src = j->in_at;
    j->state = JOB_FILLING;
    mt->prev = k;
    return j;
}

static size_t submit_filled(xc_zstd_cctx *c, struct xc_zmt_s *mt, xc_zjob *j, int last)
{
    j->last = last;
    if (mt->frames) {
        size_t const room = (size_t)(j->in_at - j->buf);
        FORWARD_IF_ERROR(plan_job_frame(c, j->size, j->first, &j->h));
        size_t const hist = j->h.mode == XC_ZHIST_PLACED ? j->h.content : 0;
        if (hist != room) {
            /* A prefix shortened to the window of this frame's size. */
            memmove(j->w->in_buf + hist, j->in_at, j->size);
            j->in_at = j->w->in_buf + hist;
            j->src = j->in_at;
        }
        if (j->h.mode == XC_ZHIST_PLACED) {
            j->w->in_size = hist + j->size;
            j->span = j->w->in_size;
        } else {
            j->buf = j->src;
            j->span = j->size;
        }
        job_submit(mt, j);
        return 0;
    }
    if (j->h.mode == XC_ZHIST_PLACED) {
        j->w->in_size = j->h.content + mt->job_size;
        j->span = j->w->in_size;
    } else {
        j->span = (size_t)(j->in_at - j->buf) + j->size;
    }
    job_submit(mt, j);
    return 0;
}

/* Writes staged bytes, then finished jobs in order, as far as out has room.
 * Returns 0 or a job's error. */
static size_t write_out(struct xc_zmt_s *mt, xc_out_buffer *out)
{
    size_t n = XC_MIN(mt->stage_end - mt->stage_pos, out->size - out->pos);
    memcpy((uint8_t *)out->dst + out->pos, mt->stage + mt->stage_pos, n);
    mt->stage_pos += n;
    out->pos += n;
    if (mt->stage_pos < mt->stage_end) return 0;
    mt->stage_pos = mt->stage_end = 0;
    while (mt->count) {
        xc_zjob *const j = slot(mt, mt->head);
        if (job_state(j) != JOB_DONE) return 0;
        FORWARD_IF_ERROR(j->result);
        n = XC_MIN(j->result - j->flushed, out->size - out->pos);
        memcpy((uint8_t *)out->dst + out->pos, j->out + j->flushed, n);
        j->flushed += n;
        out->pos += n;
        if (j->flushed < j->result) return 0;
        j->state = JOB_FREE;
        mt->head = (mt->head + 1) % mt->nb_slots;
        mt->count--;
    }
    return 0;
}

/* Waits for the oldest job when that lets output go on: returns 0 when out
 * is full and the oldest job is done already (the caller must drain). */
static int wait_head(struct xc_zmt_s *mt, const xc_out_buffer *out)
{
    xc_zjob *const j = slot(mt, mt->head);
    if (job_state(j) == JOB_FILLING || out->pos == out->size) return 0;
    job_wait(j);
    return 1;
}

static size_t pending(struct xc_zmt_s *mt, xc_zstd_end_op op)
{
    size_t n = mt->stage_end - mt->stage_pos;
    for (unsigned k = 0; k < mt->count; k++) {
        xc_zjob *const j = slot(mt, mt->head + k);
        int const state = job_state(j);
        if (state == JOB_FILLING) continue;
        if (state == JOB_DONE) n += xc_iserr(j->result) ? 0 : j->result - j->flushed;
        else if (op != XC_ZSTD_E_CONTINUE && n == 0) n = 1;
    }
    if (op == XC_ZSTD_E_END && n == 0) n = 1; /* the epilogue is to come */
    return n;
}

/* Starts a streamed frame.  Returns 1 when it was written whole, 0 when
 * streaming goes on, or an error. */
static size_t mt_begin(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in, xc_zstd_end_op op)
{
    size_t const avail = in->size - in->pos;
    uint64_t content = c->pledged_set ? c->pledged : XC_ZSTD_SIZE_UNKNOWN;
    if (!c->pledged_set && op == XC_ZSTD_E_END) content = avail;
    RETURN_ERROR_IF(content != XC_ZSTD_SIZE_UNKNOWN && avail > content, SRC_SIZE_WRONG);
    xc_zhistory plan;
    FORWARD_IF_ERROR(xc_zstd_plan_frame(c, content, 0, &plan));

    if (op == XC_ZSTD_E_END && content == avail) {
        /* All of it is here: one-shot, when the output surely fits. */
        size_t const bound = xc_zstd_compress_bound(avail);
        if (!xc_iserr(bound) && out->size - out->pos >= bound) {
            const uint8_t *const src = (const uint8_t *)in->src + in->pos;
            uint8_t *const dst = (uint8_t *)out->dst + out->pos;
            size_t r;
            if (avail > xc_zstd_mt_job_size(c, &plan.p, content)) {
                r = xc_zstd_mt_compress(c, &plan, dst, out->size - out->pos, src, avail);
            } else if (plan.mode != XC_ZHIST_PLACED) {
                r = xc_zstd_cframe_oneshot(c, &plan, dst, out->size - out->pos, src, avail);
            } else {
                xc_out_buffer o = {dst, out->size - out->pos, 0};
                xc_in_buffer i = {src, avail, 0};
                c->pledged = avail;
                c->pledged_set = 1;
                r = xc_zstd_stream_serial(c, &o, &i, XC_ZSTD_E_END);
                if (r != 0) {
                    xc_zstd_stream_reset(c);
                    r = xc_iserr(r) ? r : XC_ERROR(DST_TOO_SMALL);
                } else {
                    r = o.pos;
                }
            }
            FORWARD_IF_ERROR(r);
            out->pos += r;
            in->pos = in->size;
            xc_zstd_stream_reset(c);
            return 1;
        }
    }

    size_t const hist_room = plan.mode == XC_ZHIST_PLACED ? plan.content : 0;
    {
        xc_zstd_cparams const *p = &plan.p;
        size_t const job = xc_zstd_mt_job_size(c, p, content);
        size_t const ov = job_overlap(c, p, job);
        FORWARD_IF_ERROR(mt_prepare(c, &plan, XC_MAX(hist_room, ov) + job, job, c->job_frames));
    }
    struct xc_zmt_s *const mt = c->mt;
    if (!mt->frames) {
        size_t const h = xc_zstd_write_frame_header(c, mt->stage, sizeof mt->stage, content);
        FORWARD_IF_ERROR(h);
        mt->stage_end = h;
    }
    c->pledged = content;
    c->consumed = 0;
    xc_xxh64_reset(&c->xxh, 0);
    c->stage = XC_ZSTAGE_STREAM;
    return 0;
}

static size_t mt_run(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in, xc_zstd_end_op op)
{
    struct xc_zmt_s *const mt = c->mt;
    for (;;) {
        FORWARD_IF_ERROR(write_out(mt, out));
        if (mt->ended && mt->count == 0) {
            if (!mt->checksum_staged) {
                mt->checksum_staged = 1;
                if (c->checksum && !mt->frames) {
                    size_t const k = xc_zstd_write_checksum(mt->stage, sizeof mt->stage,
                                                            xc_xxh64_digest(&c->xxh));
                    FORWARD_IF_ERROR(k);
                    mt->stage_pos = 0;
                    mt->stage_end = k;
                }
                continue;
            }
            if (mt->stage_pos < mt->stage_end) break;
            mt->ended = 0;
            spend_prefix(c, &mt->plan);
            xc_zstd_stream_reset(c);
            return 0;
        }

        size_t const avail = in->size - in->pos;
        if (avail && !mt->ended) {
            RETURN_ERROR_IF(c->pledged != XC_ZSTD_SIZE_UNKNOWN && avail > c->pledged - c->consumed,
                            SRC_SIZE_WRONG);
            xc_zjob *j = filling(mt);
            if (!j) {
                if (mt->count == mt->nb_slots) {
                    if (!wait_head(mt, out)) break;
                    continue;
                }
                j = begin_job(mt);
            }
            size_t const n = XC_MIN(avail, mt->job_size - j->size);
            const uint8_t *const ip = (const uint8_t *)in->src + in->pos;
            memcpy(j->in_at + j->size, ip, n);
            if (c->checksum && !mt->frames) xc_xxh64_update(&c->xxh, ip, n);
            j->size += n;
            c->consumed += n;
            in->pos += n;
        }

        int const all_in = in->pos == in->size;
        xc_zjob *const j = filling(mt);
        /* A full job goes out when more input follows; otherwise it waits
         * for the flush or the end that may make it the last. */
        if (j && j->size == mt->job_size && !all_in) {
            FORWARD_IF_ERROR(submit_filled(c, mt, j, 0));
            continue;
        }
        if (!all_in) continue;
        if (op == XC_ZSTD_E_CONTINUE) break;
        if (op == XC_ZSTD_E_END && !mt->ended) {
            RETURN_ERROR_IF(c->pledged != XC_ZSTD_SIZE_UNKNOWN && c->consumed != c->pledged,
                            SRC_SIZE_WRONG);
            xc_zjob *last = j;
            if (!last) {
                if (mt->count == mt->nb_slots) {
                    if (!wait_head(mt, out)) break;
                    continue;
                }
                last = begin_job(mt);
            }
            FORWARD_IF_ERROR(submit_filled(c, mt, last, 1));
            mt->ended = 1;
            continue;
        }
        if (op == XC_ZSTD_E_FLUSH && j) {
            FORWARD_IF_ERROR(submit_filled(c, mt, j, 0));
            continue;
        }
        if (mt->count == 0 || !wait_head(mt, out)) break;
    }
    return pending(mt, op);
}

size_t xc_zstd_mt_stream(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in,
                         xc_zstd_end_op op)
{
    if (c->stage == XC_ZSTAGE_IDLE) {
        size_t const r = mt_begin(c, out, in, op);
        FORWARD_IF_ERROR(r);
        if (r == 1) return 0;
    }
    return mt_run(c, out, in, op);
}
