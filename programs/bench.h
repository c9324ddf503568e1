/* SPDX-License-Identifier: BSD-2-Clause */
/* What the parts of `xcodec bench` share: the timer and the JSON writer. */
#ifndef XC_PROGRAMS_BENCH_H
#define XC_PROGRAMS_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An operation to time; returns 0, or non-zero when it failed. */
typedef int (*xc_bench_op)(void *ctx);

struct xc_bench_cfg {
    int rounds;         /* best of this many rounds */
    double round_s;     /* each round repeats an operation for at least this long */
    double max_pair_s;  /* but a pair stops after its first round past this */
    int json;
};

/* Seconds per call of a and of b (b may be NULL: *tb is then 0), the best of
 * the configured rounds, alternating the two round by round so that a noisy
 * neighbour slows both alike.  A failed operation gives -1. */
void xc_bench_pair(const struct xc_bench_cfg *cfg, xc_bench_op a, void *ca, xc_bench_op b,
                   void *cb, double *ta, double *tb);

/* What the checksum operations work on: n bytes at p, and a sink that keeps
 * the compiler from dropping the result. */
struct xc_sum_ctx {
    const uint8_t *p;
    size_t n;
    volatile uint32_t sink;
};

/* The Internet checksum operations make this many calls each, so that the
 * call through the operation pointer does not weigh on a 64-byte checksum:
 * DPDK's is inlined into its loop, xcodec's is a call through the library's
 * dispatch table, as in an application. */
#define XC_INET_BATCH 32

/* Hides p's value from the compiler, so that a checksum of the same bytes
 * is computed again on every pass of a loop instead of once. */
#define XC_BENCH_OPAQUE(p) __asm__ volatile("" : "+r"(p))

#if defined(XC_HAVE_DPDK)
/* XC_INET_BATCH calls of DPDK's rte_raw_cksum() on ctx, a struct
 * xc_sum_ctx (programs/peer_dpdk.c). */
int xc_bench_op_inet_dpdk(void *ctx);
#endif

/* Prints s as a JSON string, quotes included. */
void xc_json_string(FILE *f, const char *s);

/* The checksum part: CRC32C beside ISA-L's and the Internet checksum
 * beside DPDK's (the plain loop without DPDK), at a few sizes, printed as tables, or as the JSON
 * members "crc32c": [...], "inet": [...] when cfg->json.  Returns 0, or -1
 * when memory runs out. */
int xc_bench_sums(const struct xc_bench_cfg *cfg);

#endif
