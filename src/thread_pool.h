/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The library's thread pool (thread_pool.c), internal interface: tasks are
 * nodes the caller owns, queued without allocating, so a submission cannot
 * fail; the pool runs them in submission order on its threads.
 *
 * A build without threads (XCODEC_THREADS=OFF, XC_NO_THREADS) keeps the
 * type and the public functions, which then create nothing.
 */
#ifndef XC_THREAD_POOL_H
#define XC_THREAD_POOL_H

#include "xc_internal.h"

#ifndef XC_NO_THREADS
#  include <pthread.h>
#  define XC_HAVE_THREADS 1
#else
#  define XC_HAVE_THREADS 0
#endif

/* One unit of work: fn(arg) on one of the pool's threads.  The node lives
 * in the caller's memory until the task has run (or was withdrawn). */
typedef struct xc_pool_task_s {
    void (*fn)(void *arg);
    void *arg;
    struct xc_pool_task_s *next;
} xc_pool_task;

/* Queues t; it runs once, on some thread of the pool, after every task
 * submitted before it has started.  Never fails. */
XC_HIDDEN void xc_pool_submit(xc_thread_pool *pool, xc_pool_task *t);

/* Takes t out of the queue if it has not started yet; returns 1 when it
 * was withdrawn (it will never run), 0 when it is running or has run. */
XC_HIDDEN int xc_pool_withdraw(xc_thread_pool *pool, xc_pool_task *t);

/* The number of threads the pool runs. */
XC_HIDDEN unsigned xc_pool_threads(const xc_thread_pool *pool);

#if XC_HAVE_THREADS
/* A mutex and a condition variable set up together, for the workers'
 * bookkeeping of the encoder and the decoder: 0, or -1 with neither left
 * initialised. */
static inline int xc_lock_pair_init(pthread_mutex_t *m, pthread_cond_t *c)
{
    if (pthread_mutex_init(m, NULL)) return -1;
    if (pthread_cond_init(c, NULL)) {
        pthread_mutex_destroy(m);
        return -1;
    }
    return 0;
}
#endif

#endif /* XC_THREAD_POOL_H */
