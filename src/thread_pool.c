/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A fixed set of threads that run queued tasks, for the zstd encoder's
 * workers (src/zstd/compress/compress_mt.c) and anything later that splits
 * work the same way.
 *
 * One mutex guards a singly linked queue of task nodes (thread_pool.h);
 * idle threads sleep on one condition variable.  Tasks are coarse (a job is
 * at least 512 KiB of input, milliseconds of work), so one lock for the
 * whole pool is never contended enough to matter, and the queue's order is
 * the submission order, which keeps a context's jobs flowing oldest first
 * even when several contexts share the pool.
 *
 * The pool knows nothing of what a task does or how its submitter learns
 * that it finished: each task signals its own completion.  Freeing the pool
 * lets every queued task run first, then joins the threads.
 *
 * What it may call: pthreads and the C library.
 */
#include <stdlib.h>

#include "thread_pool.h"

#if XC_HAVE_THREADS

struct xc_thread_pool_s {
    pthread_mutex_t lock;
    pthread_cond_t wake;     /* a task was queued, or the pool is stopping */
    xc_pool_task *head, *tail;
    int stopping;
    unsigned threads;        /* started */
    pthread_t *tid;
};

static void *pool_main(void *arg)
{
    xc_thread_pool *const pool = (xc_thread_pool *)arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->head && !pool->stopping) pthread_cond_wait(&pool->wake, &pool->lock);
        xc_pool_task *const t = pool->head;
        if (!t) break; /* stopping, and nothing left to run */
        pool->head = t->next;
        if (!pool->head) pool->tail = NULL;
        pthread_mutex_unlock(&pool->lock);
        t->fn(t->arg);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static void pool_stop(xc_thread_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < pool->threads; i++) pthread_join(pool->tid[i], NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    free(pool->tid);
    free(pool);
}

xc_thread_pool *xc_thread_pool_new(unsigned threads)
{
    if (threads == 0 || threads > XC_THREAD_POOL_MAX) return NULL;
    xc_thread_pool *pool = (xc_thread_pool *)calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->tid = (pthread_t *)calloc(threads, sizeof *pool->tid);
    if (!pool->tid) {
        free(pool);
        return NULL;
    }
    if (pthread_mutex_init(&pool->lock, NULL)) {
        free(pool->tid);
        free(pool);
        return NULL;
    }
    if (pthread_cond_init(&pool->wake, NULL)) {
        pthread_mutex_destroy(&pool->lock);
        free(pool->tid);
        free(pool);
        return NULL;
    }
    for (unsigned i = 0; i < threads; i++) {
        if (pthread_create(&pool->tid[i], NULL, pool_main, pool)) {
            pool_stop(pool); /* joins the ones started */
            return NULL;
        }
        pool->threads = i + 1;
    }
    return pool;
}

void xc_thread_pool_free(xc_thread_pool *pool)
{
    if (pool) pool_stop(pool);
}

void xc_pool_submit(xc_thread_pool *pool, xc_pool_task *t)
{
    t->next = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->tail) pool->tail->next = t;
    else pool->head = t;
    pool->tail = t;
    pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
}

int xc_pool_withdraw(xc_thread_pool *pool, xc_pool_task *t)
{
    int found = 0;
    pthread_mutex_lock(&pool->lock);
    xc_pool_task *prev = NULL;
    for (xc_pool_task *q = pool->head; q; prev = q, q = q->next) {
        if (q != t) continue;
        if (prev) prev->next = q->next;
        else pool->head = q->next;
        if (pool->tail == q) pool->tail = prev;
        found = 1;
        break;
    }
    pthread_mutex_unlock(&pool->lock);
    return found;
}

unsigned xc_pool_threads(const xc_thread_pool *pool) { return pool->threads; }

#else /* !XC_HAVE_THREADS */

xc_thread_pool *xc_thread_pool_new(unsigned threads)
{
    (void)threads;
    return NULL;
}

void xc_thread_pool_free(xc_thread_pool *pool) { (void)pool; }

void xc_pool_submit(xc_thread_pool *pool, xc_pool_task *t)
{
    (void)pool;
    t->fn(t->arg);
}

int xc_pool_withdraw(xc_thread_pool *pool, xc_pool_task *t)
{
    (void)pool;
    (void)t;
    return 0;
}

unsigned xc_pool_threads(const xc_thread_pool *pool)
{
    (void)pool;
    return 0;
}

#endif
