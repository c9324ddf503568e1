/* SPDX-License-Identifier: BSD-2-Clause */
/* What the parts of `xcodec bench` share: the timer, the JSON writer and the
 * checksum operations (which bench/installed builds into programs of its
 * own, linked with the installed library). */
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
    const char *sums_only; /* the checksum part: "crc32c" or "inet" alone (NULL: both) */
    size_t sums_max;       /* the checksum part: sizes up to this many bytes (0: all) */
    int median;            /* the median of the rounds instead of the best */
    int cpu_time;          /* time in the thread's CPU time, not real time */
};

/* Seconds per call of each of the n operations ops[i](ctxs[i]) (an op may be
 * NULL: its time is then 0; n at most 8), the best of the configured rounds
 * (their median with cfg->median; at most 64 rounds), taking the
 * operations in turn within every round so that a noisy neighbour slows all
 * of them alike.  A failed operation gives -1. */
void xc_bench_run(const struct xc_bench_cfg *cfg, size_t n, const xc_bench_op *ops,
                  void *const *ctxs, double *times);

/* xc_bench_run() of two operations, a and b (b may be NULL: *tb is then 0). */
void xc_bench_pair(const struct xc_bench_cfg *cfg, xc_bench_op a, void *ca, xc_bench_op b,
                   void *cb, double *ta, double *tb);

/* One zstd measurement: compression and decompression by xcodec and by
 * libzstd, in seconds per timed operation (0 for an engine not run). */
struct xc_codec_times {
    double xc_comp, zs_comp, xc_dec, zs_dec;
};

/* Times ops[0] (xcodec) beside ops[1] (libzstd) compressing, then ops[2]
 * beside ops[3] decompressing, all on ctx, into *t (the libzstd ones may be
 * NULL).  Returns NULL, or an error message when an engine failed. */
const char *xc_bench_codec(const struct xc_bench_cfg *cfg, const xc_bench_op ops[4], void *ctx,
                           struct xc_codec_times *t);

/* The initialiser of such ops: the libzstd ones only where it is linked
 * (elsewhere their names need not exist). */
#ifdef XC_HAVE_LIBZSTD
#  define XC_BENCH_CODEC_OPS(xc_comp, zs_comp, xc_dec, zs_dec) {xc_comp, zs_comp, xc_dec, zs_dec}
#else
#  define XC_BENCH_CODEC_OPS(xc_comp, zs_comp, xc_dec, zs_dec) {xc_comp, NULL, xc_dec, NULL}
#endif

/* What the checksum operations work on: n bytes at p, the function under
 * test for the operations that call through a pointer, and a sink that
 * keeps the compiler from dropping the result. */
struct xc_sum_ctx {
    const uint8_t *p;
    size_t n;
    volatile uint32_t sink;
    uint32_t (*crc32c)(uint32_t crc, const void *data, size_t len);
    uint16_t (*inet)(const void *data, size_t len);
};

/* Every checksum operation makes this many calls, so that the call through
 * the operation pointer weighs little on a 16-byte checksum: DPDK's sum is
 * inlined into its loop, xcodec's is a call into the library, as in an
 * application. */
#define XC_SUM_BATCH 32

/* Hides a value from the compiler: a checksum of the same bytes is computed
 * again on every pass of a loop instead of once, and a length or a function
 * pointer so hidden cannot be specialised for. */
#define XC_BENCH_OPAQUE(p) __asm__ volatile("" : "+r"(p))

#if defined(XC_HAVE_DPDK)
/* XC_SUM_BATCH calls of DPDK's rte_raw_cksum() on ctx, a struct xc_sum_ctx
 * (programs/peer_dpdk.c). */
int xc_bench_op_inet_dpdk(void *ctx);
#endif

/* XC_SUM_BATCH checksums from xcodec_inline.h on ctx, compiled into the
 * loop as DPDK's is (programs/bench_sums_inline.c): xc_inline_ipv4_checksum,
 * xc_inline_inet_checksum40, and xc_inline_inet_checksum with the constant
 * lengths 64 and 128. */
int xc_bench_op_inline20(void *ctx);
int xc_bench_op_inline40(void *ctx);
int xc_bench_op_inline64(void *ctx);
int xc_bench_op_inline128(void *ctx);

/* The class part (bench_classes.c), `xcodec bench --classes`: the
 * generated corpus by class beside libzstd (bench_peer.h). */
struct xc_zpeer;
struct xc_classes_opts {
    const unsigned char *selected; /* per class (corpus_gen.h): 1 to run; NULL: all */
    int whole;                     /* the whole inputs, --size bytes each */
    size_t size;                   /* 0: 1 MiB, and 4 MiB for the mixed class */
    const size_t *records;         /* record sizes of the many-frames mode */
    size_t nrecords;
    int dict;                      /* the records again with a dictionary */
    const int *levels;
    size_t nlevels;
    const char *data_dir;          /* the shared data folder, or NULL */
};

/* Tables (or the JSON members "classes" and "classes_worst") of every
 * class, mode and level; returns 0, or -1 when a cell failed. */
int xc_bench_classes(const struct xc_bench_cfg *cfg, const struct xc_zpeer *zp,
                     const struct xc_classes_opts *o);

/* Prints s as a JSON string, quotes included. */
void xc_json_string(FILE *f, const char *s);

/* The checksum part: CRC32C beside ISA-L's and the Internet checksum
 * beside DPDK's (the plain loop without DPDK), from 16 bytes to 1 MiB,
 * aligned and misaligned by 1, printed as tables, or as the JSON members
 * "crc32c_peer", "crc32c": [...], "inet_peer", "inet": [...], "inline":
 * [...] (xcodec_inline.h at 20 and 40 bytes) when cfg->json.  Returns 0,
 * or -1 when memory runs out. */
int xc_bench_sums(const struct xc_bench_cfg *cfg);

#endif
