/* SPDX-License-Identifier: BSD-2-Clause */
/* What the parts of `xcodec bench` share: the timer and the JSON writer. */
#ifndef XC_PROGRAMS_BENCH_H
#define XC_PROGRAMS_BENCH_H

#include <stddef.h>
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

/* Prints s as a JSON string, quotes included. */
void xc_json_string(FILE *f, const char *s);

/* The checksum part: CRC32C beside ISA-L's and the Internet checksum
 * beside the plain loop, at a few sizes, printed as tables, or as the JSON
 * members "crc32c": [...], "inet": [...] when cfg->json.  Returns 0, or -1
 * when memory runs out. */
int xc_bench_sums(const struct xc_bench_cfg *cfg);

#endif
