/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The timer of `xcodec bench` and the JSON string writer.  It depends on
 * nothing but the C library, so that bench/installed can build it, with
 * bench_sums.c, into programs that link the installed xcodec.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "bench.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The median of n values, which it sorts (n is a few rounds). */
static double median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define XC_MAX_OPS 8
#define XC_MAX_ROUNDS 64

void xc_bench_run(const struct xc_bench_cfg *cfg, size_t n, const xc_bench_op *ops,
                  void *const *ctxs, double *times)
{
    double per_round[XC_MAX_OPS][XC_MAX_ROUNDS];
    int rounds = 0;
    if (n > XC_MAX_OPS) n = XC_MAX_OPS;
    for (size_t e = 0; e < n; e++) times[e] = 1e30;
    /* The thread's CPU time when asked for: on a machine that other jobs
     * share, the time they take the core is then charged to neither
     * engine.  The round limit stays in real time. */
    const clockid_t id = cfg->cpu_time ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    double start = clock_s(CLOCK_MONOTONIC);
    for (int r = 0; r < cfg->rounds && r < XC_MAX_ROUNDS; r++) {
        for (size_t e = 0; e < n; e++) {
            per_round[e][r] = 0;
            if (!ops[e] || times[e] < 0) continue;
            /* Calls go in batches between clock reads, the batch doubling
             * while it is short, so that reading the clock (tens of
             * nanoseconds) does not weigh on a 64-byte checksum. */
            long iters = 0, batch = 1;
            double t0 = clock_s(id), t;
            do {
                for (long k = 0; k < batch; k++) {
                    if (ops[e](ctxs[e]) != 0) {
                        times[e] = -1;
                        break;
                    }
                }
                iters += batch;
                t = clock_s(id) - t0;
                if (t < cfg->round_s / 16) batch *= 2;
            } while (t < cfg->round_s && times[e] >= 0);
            per_round[e][r] = t / (double)iters;
            if (times[e] >= 0 && t / (double)iters < times[e]) times[e] = t / (double)iters;
        }
        rounds = r + 1;
        /* Slow operations (libzstd's level 19 takes a second per megabyte
         * or so) get fewer rounds, so the whole run stays short. */
        if (clock_s(CLOCK_MONOTONIC) - start > cfg->max_pair_s) break;
    }
    for (size_t e = 0; e < n; e++) {
        if (!ops[e]) times[e] = 0;
        else if (cfg->median && times[e] >= 0) times[e] = median(per_round[e], rounds);
    }
}

void xc_bench_pair(const struct xc_bench_cfg *cfg, xc_bench_op a, void *ca, xc_bench_op b,
                   void *cb, double *ta, double *tb)
{
    const xc_bench_op ops[2] = {a, b};
    void *const ctxs[2] = {ca, cb};
    double t[2];
    xc_bench_run(cfg, 2, ops, ctxs, t);
    *ta = t[0];
    *tb = t[1];
}

const char *xc_bench_codec(const struct xc_bench_cfg *cfg, const xc_bench_op ops[4], void *ctx,
                           struct xc_codec_times *t)
{
    xc_bench_pair(cfg, ops[0], ctx, ops[1], ops[1] ? ctx : NULL, &t->xc_comp, &t->zs_comp);
    xc_bench_pair(cfg, ops[2], ctx, ops[3], ops[3] ? ctx : NULL, &t->xc_dec, &t->zs_dec);
    if (t->xc_comp < 0 || t->xc_dec < 0 || t->zs_comp < 0 || t->zs_dec < 0)
        return "an engine failed while being timed";
    return NULL;
}

void xc_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}
