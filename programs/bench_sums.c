/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The checksums of `xcodec bench`: xc_crc32c() beside ISA-L's crc32_iscsi()
 * when ISA-L was found at build time, xc_inet_checksum() beside DPDK's
 * rte_raw_cksum() (programs/peer_dpdk.c), or beside the textbook loop of
 * RFC 1071 section 4.1 without DPDK, from 16 bytes to a megabyte, on a
 * buffer aligned to 64 bytes and on one misaligned by 1, data in cache.
 * bench/installed builds this file into two programs of its own that link
 * the installed library, shared and static, to measure the calls as an
 * application makes them.
 *
 * How xcodec is called.  Two ways, each XC_SUM_BATCH times per operation:
 * through a function pointer that the compiler cannot see through
 * ("xcodec"), and by name, through the PLT of a shared library ("direct").
 * Either way the length is hidden from the compiler on every call, so
 * nothing can be specialised for a size or hoisted out of the loop.  The
 * peers get their best case: DPDK's sum is inlined, compiled -O3
 * -march=native, with a length that stays the same across its loop, and
 * ISA-L is called directly.  Speedups are the peer's time over xcodec's.
 *
 * A last table has xcodec_inline.h's checksums at 20, 40, 64 and 128 bytes,
 * lengths the compiler knows, beside the same DPDK loop
 * (programs/bench_sums_inline.c, compiled with DPDK's flags when DPDK is
 * there).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "xcodec.h"

#ifdef XC_HAVE_ISAL
#  include <isa-l/crc.h>
#endif

static const size_t g_sizes[] = {16,   20,   40,    64,     128,     256,
                                 576,  1500, 4096,  65536, 1 << 19, 1 << 20};
static const size_t g_aligns[] = {0, 1};
#define XC_SUMS_BUFFER (((size_t)1 << 20) + 128)

/* An operation that calls xcodec: XC_SUM_BATCH calls of `call` on q and k,
 * the buffer and its length, both opaque to the compiler so that no call
 * is hoisted or specialised; `setup` runs once before the loop. */
#define XC_SUM_OP(name, setup, call)                                                        \
    static int name(void *c)                                                                \
    {                                                                                       \
        struct xc_sum_ctx *s = c;                                                           \
        const uint8_t *p = s->p;                                                            \
        size_t n = s->n;                                                                    \
        uint32_t acc = 0;                                                                   \
        setup;                                                                              \
        for (int i = 0; i < XC_SUM_BATCH; i++) {                                            \
            const uint8_t *q = p;                                                           \
            size_t k = n;                                                                   \
            XC_BENCH_OPAQUE(q);                                                             \
            XC_BENCH_OPAQUE(k);                                                             \
            acc += (call);                                                                  \
        }                                                                                   \
        s->sink = acc;                                                                      \
        return 0;                                                                           \
    }

typedef uint32_t (*xc_sum_crc_fn)(uint32_t, const void *, size_t);
typedef uint16_t (*xc_sum_inet_fn)(const void *, size_t);

XC_SUM_OP(op_crc_pointer, xc_sum_crc_fn fn = s->crc32c; XC_BENCH_OPAQUE(fn), fn(0, q, k))
XC_SUM_OP(op_crc_direct, (void)0, xc_crc32c(0, q, k))

#ifdef XC_HAVE_ISAL
/* ISA-L runs the register from its init argument and returns it without
 * the final inversion: ~crc32_iscsi(p, n, ~0) is the CRC32C of p. */
static int op_crc_isal(void *c)
{
    struct xc_sum_ctx *s = c;
    const uint8_t *p = s->p;
    size_t n = s->n;
    uint32_t acc = 0;
    for (int i = 0; i < XC_SUM_BATCH; i++) {
        const uint8_t *q = p;
        XC_BENCH_OPAQUE(q);
        /* ISA-L takes a non-const pointer and an int length; it reads only. */
        acc += ~crc32_iscsi((unsigned char *)(uintptr_t)q, (int)n, ~0u);
    }
    s->sink = acc;
    return 0;
}
#  define XC_CRC_PEER op_crc_isal
#  define XC_CRC_PEER_NAME "ISA-L"
#else
#  define XC_CRC_PEER NULL
#  define XC_CRC_PEER_NAME "none"
#endif

/* The value of a checksum field, as the peers below compute it. */
XC_SUM_OP(op_inet_pointer, xc_sum_inet_fn fn = s->inet; XC_BENCH_OPAQUE(fn), fn(q, k))
XC_SUM_OP(op_inet_direct, (void)0, xc_inet_checksum(q, k))

#if defined(XC_HAVE_DPDK)
#  define XC_INET_PEER xc_bench_op_inet_dpdk
#  define XC_INET_PEER_NAME "DPDK"
#else
/* RFC 1071 section 4.1: big-endian 16-bit words into a 32-bit sum, the
 * odd byte padded, carries folded at the end. */
static int op_inet_plain(void *c)
{
    struct xc_sum_ctx *s = c;
    uint32_t acc = 0;
    for (int k = 0; k < XC_SUM_BATCH; k++) {
        const uint8_t *p = s->p;
        XC_BENCH_OPAQUE(p);
        uint32_t sum = 0;
        size_t i = 0;
        for (; i + 1 < s->n; i += 2) sum += (uint32_t)(p[i] << 8 | p[i + 1]);
        if (i < s->n) sum += (uint32_t)p[i] << 8;
        while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
        acc += (uint16_t)~sum;
    }
    s->sink = acc;
    return 0;
}
#  define XC_INET_PEER op_inet_plain
#  define XC_INET_PEER_NAME "plain loop"
#endif

static void json_number(double v)
{
    if (v > 0) printf("%.3f", v);
    else printf("null");
}

/* One table: every size and alignment, xcodec through its pointer, by name,
 * and the peer, timed in turn within each round. */
static void one_table(const struct xc_bench_cfg *cfg, const char *key, const char *title,
                      const char *peer_name, const xc_bench_op ops[3], uint8_t *buf)
{
    const size_t nsizes = sizeof g_sizes / sizeof g_sizes[0];
    const size_t naligns = sizeof g_aligns / sizeof g_aligns[0];
    if (cfg->json) {
        printf("  ");
        xc_json_string(stdout, key);
        printf(": [\n");
    } else {
        printf("\n%s, GB/s (data in cache; speedup: %s's time over xcodec's)\n", title,
               peer_name);
        printf("%9s %5s %9s %9s %9s %8s %8s\n", "bytes", "align", "xcodec", "direct", peer_name,
               "speedup", "direct");
    }
    for (size_t k = 0; k < nsizes; k++) {
        if (cfg->sums_max && g_sizes[k] > cfg->sums_max) break;
        for (size_t a = 0; a < naligns; a++) {
            struct xc_sum_ctx ctx[3];
            void *ctxs[3];
            double t[3];
            for (int e = 0; e < 3; e++) {
                memset(&ctx[e], 0, sizeof ctx[e]);
                ctx[e].p = buf + g_aligns[a];
                ctx[e].n = g_sizes[k];
                ctx[e].crc32c = xc_crc32c;
                ctx[e].inet = xc_inet_checksum;
                ctxs[e] = &ctx[e];
            }
            xc_bench_run(cfg, 3, ops, ctxs, t);
            const double n = (double)g_sizes[k] * XC_SUM_BATCH;
            double g[3];
            for (int e = 0; e < 3; e++) g[e] = t[e] > 0 ? n / t[e] * 1e-9 : 0;
            if (cfg->json) {
                printf("    {\"bytes\": %zu, \"align\": %zu, \"xcodec_gbps\": ", g_sizes[k],
                       g_aligns[a]);
                json_number(g[0]);
                printf(", \"direct_gbps\": ");
                json_number(g[1]);
                printf(", \"peer_gbps\": ");
                json_number(g[2]);
                printf(", \"speedup\": ");
                json_number(t[2] > 0 && t[0] > 0 ? t[2] / t[0] : 0);
                printf(", \"direct_speedup\": ");
                json_number(t[2] > 0 && t[1] > 0 ? t[2] / t[1] : 0);
                int last = a + 1 == naligns &&
                           (k + 1 == nsizes || (cfg->sums_max && g_sizes[k + 1] > cfg->sums_max));
                printf("}%s\n", last ? "" : ",");
            } else if (t[2] > 0) {
                printf("%9zu %5zu %9.2f %9.2f %9.2f %7.2fx %7.2fx\n", g_sizes[k], g_aligns[a],
                       g[0], g[1], g[2], t[2] / t[0], t[2] / t[1]);
            } else {
                printf("%9zu %5zu %9.2f %9.2f %9s\n", g_sizes[k], g_aligns[a], g[0], g[1], "n/a");
            }
            fflush(stdout);
        }
    }
    if (cfg->json) printf("  ]");
}

/* The inline checksums of fixed length beside the peer at that length. */
static void inline_table(const struct xc_bench_cfg *cfg, uint8_t *buf)
{
    static const size_t lens[] = {20, 40, 64, 128};
    const xc_bench_op mine[] = {xc_bench_op_inline20, xc_bench_op_inline40,
                                xc_bench_op_inline64, xc_bench_op_inline128};
    const size_t nlens = sizeof lens / sizeof lens[0];
    if (cfg->json) {
        printf("  \"inline\": [\n");
    } else {
        printf("\nInternet checksum, xcodec_inline.h (lengths known to the compiler), GB/s\n");
        printf("%9s %5s %9s %9s %8s\n", "bytes", "align", "inline", XC_INET_PEER_NAME, "speedup");
    }
    for (size_t k = 0; k < nlens; k++) {
        for (size_t a = 0; a < 2; a++) {
            struct xc_sum_ctx x, y;
            memset(&x, 0, sizeof x);
            x.p = buf + a;
            x.n = lens[k];
            y = x;
            double tx, ty;
            xc_bench_pair(cfg, mine[k], &x, XC_INET_PEER, &y, &tx, &ty);
            const double n = (double)lens[k] * XC_SUM_BATCH;
            double gx = n / tx * 1e-9, gy = n / ty * 1e-9;
            if (cfg->json)
                printf("    {\"bytes\": %zu, \"align\": %zu, \"xcodec_gbps\": %.3f, "
                       "\"peer_gbps\": %.3f, \"speedup\": %.3f}%s\n",
                       lens[k], a, gx, gy, ty / tx, k == nlens - 1 && a == 1 ? "" : ",");
            else
                printf("%9zu %5zu %9.2f %9.2f %7.2fx\n", lens[k], a, gx, gy, ty / tx);
            fflush(stdout);
        }
    }
    if (cfg->json) printf("  ]");
}

int xc_bench_sums(const struct xc_bench_cfg *cfg)
{
    uint8_t *buf = aligned_alloc(64, XC_SUMS_BUFFER);
    if (!buf) return -1;
    for (size_t i = 0; i < XC_SUMS_BUFFER; i++) buf[i] = (uint8_t)(i * 131 + (i >> 7));
    /* The checksums are short calls: rounds of a fifth of the configured
     * length keep the 44 rows of each table within seconds. */
    struct xc_bench_cfg c = *cfg;
    c.round_s = cfg->round_s / 5;
    const xc_bench_op crc_ops[3] = {op_crc_pointer, op_crc_direct, XC_CRC_PEER};
    const xc_bench_op inet_ops[3] = {op_inet_pointer, op_inet_direct, XC_INET_PEER};
    const char *only = cfg->sums_only;
    if (cfg->json) printf("  \"sum_batch\": %d,\n", XC_SUM_BATCH);
    if (!only || strcmp(only, "crc32c") == 0) {
        if (cfg->json) printf("  \"crc32c_peer\": \"%s\",\n", XC_CRC_PEER_NAME);
        one_table(&c, "crc32c", "CRC32C", XC_CRC_PEER_NAME, crc_ops, buf);
        if (cfg->json) printf(",\n");
    }
    if (!only || strcmp(only, "inet") == 0) {
        if (cfg->json) printf("  \"inet_peer\": \"%s\",\n", XC_INET_PEER_NAME);
        one_table(&c, "inet", "Internet checksum", XC_INET_PEER_NAME, inet_ops, buf);
        if (cfg->json) printf(",\n");
        inline_table(&c, buf);
        if (cfg->json) printf(",\n");
    }
    free(buf);
    return 0;
}
