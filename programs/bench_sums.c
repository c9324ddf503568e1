/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xcodec bench`, the timer and the checksums.  CRC32C runs beside ISA-L's
 * crc32_iscsi() when ISA-L was found at build time, the Internet checksum
 * beside the textbook loop of RFC 1071 section 4.1 (what most code that
 * does not use a library still runs), at sizes from a small packet to a
 * megabyte, on data in cache.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "xcodec.h"

#ifdef XC_HAVE_ISAL
#  include <isa-l/crc.h>
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void xc_bench_pair(const struct xc_bench_cfg *cfg, xc_bench_op a, void *ca, xc_bench_op b,
                   void *cb, double *ta, double *tb)
{
    double best[2] = {1e30, 1e30};
    xc_bench_op fns[2] = {a, b};
    void *ctxs[2] = {ca, cb};
    double start = now_s();
    for (int r = 0; r < cfg->rounds; r++) {
        for (int e = 0; e < 2; e++) {
            if (!fns[e] || best[e] < 0) continue;
            /* Calls go in batches between clock reads, the batch doubling
             * while it is short, so that reading the clock (tens of
             * nanoseconds) does not weigh on a 64-byte checksum. */
            long iters = 0, batch = 1;
            double t0 = now_s(), t;
            do {
                for (long k = 0; k < batch; k++) {
                    if (fns[e](ctxs[e]) != 0) {
                        best[e] = -1;
                        break;
                    }
                }
                iters += batch;
                t = now_s() - t0;
                if (t < cfg->round_s / 16) batch *= 2;
            } while (t < cfg->round_s && best[e] >= 0);
            if (best[e] >= 0 && t / (double)iters < best[e]) best[e] = t / (double)iters;
        }
        /* Slow operations (libzstd's level 19 takes a second per megabyte
         * or so) get fewer rounds, so the whole run stays short. */
        if (now_s() - start > cfg->max_pair_s) break;
    }
    *ta = best[0];
    *tb = fns[1] ? best[1] : 0;
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

static int op_crc_xc(void *c)
{
    struct xc_sum_ctx *s = c;
    s->sink = xc_crc32c(s->sink, s->p, s->n);
    return 0;
}

#ifdef XC_HAVE_ISAL
static int op_crc_isal(void *c)
{
    struct xc_sum_ctx *s = c;
    /* ISA-L takes a non-const pointer and an int length; it reads only. */
    s->sink = crc32_iscsi((unsigned char *)(uintptr_t)s->p, (int)s->n, s->sink);
    return 0;
}
#  define XC_CRC_PEER op_crc_isal
#  define XC_CRC_HAVE_PEER 1
#else
#  define XC_CRC_PEER NULL
#  define XC_CRC_HAVE_PEER 0
#endif

/* The value of a checksum field, as the peers below compute it. */
static int op_inet_xc(void *c)
{
    struct xc_sum_ctx *s = c;
    uint32_t acc = 0;
    for (int i = 0; i < XC_INET_BATCH; i++) {
        const uint8_t *p = s->p;
        XC_BENCH_OPAQUE(p);
        acc += xc_inet_checksum(p, s->n);
    }
    s->sink = acc;
    return 0;
}

#if !defined(XC_HAVE_DPDK)
/* RFC 1071 section 4.1: big-endian 16-bit words into a 32-bit sum, the
 * odd byte padded, carries folded at the end. */
static int op_inet_plain(void *c)
{
    struct xc_sum_ctx *s = c;
    uint32_t acc = 0;
    for (int k = 0; k < XC_INET_BATCH; k++) {
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
#endif

#if defined(XC_HAVE_DPDK)
#  define XC_INET_PEER xc_bench_op_inet_dpdk
#  define XC_INET_PEER_NAME "DPDK"
#else
#  define XC_INET_PEER op_inet_plain
#  define XC_INET_PEER_NAME "plain loop"
#endif

static void one_table(const struct xc_bench_cfg *cfg, const char *key, const char *title,
                      const char *peer_name, xc_bench_op mine, xc_bench_op peer,
                      const uint8_t *buf, int calls)
{
    static const size_t sizes[] = {64, 1500, 4096, 65536, 1 << 20};
    const size_t count = sizeof sizes / sizeof sizes[0];
    if (cfg->json) {
        printf("  ");
        xc_json_string(stdout, key);
        printf(": [\n");
    } else {
        printf("\n%s, GB/s (data in cache)\n", title);
        printf("%10s %12s %12s %9s\n", "bytes", "xcodec", peer_name, "speedup");
    }
    for (size_t k = 0; k < count; k++) {
        struct xc_sum_ctx a = {buf, sizes[k], 0}, b = {buf, sizes[k], 0};
        double ta, tb;
        xc_bench_pair(cfg, mine, &a, peer, &b, &ta, &tb);
        ta /= calls;
        tb /= calls;
        double ga = (double)sizes[k] / ta * 1e-9;
        double gb = tb > 0 ? (double)sizes[k] / tb * 1e-9 : 0;
        if (cfg->json) {
            printf("    {\"bytes\": %zu, \"xcodec_gbps\": %.3f, ", sizes[k], ga);
            if (tb > 0)
                printf("\"peer_gbps\": %.3f, \"speedup\": %.3f}", gb, tb / ta);
            else
                printf("\"peer_gbps\": null, \"speedup\": null}");
            printf("%s\n", k + 1 < count ? "," : "");
        } else if (tb > 0) {
            printf("%10zu %12.2f %12.2f %8.2fx\n", sizes[k], ga, gb, tb / ta);
        } else {
            printf("%10zu %12.2f %12s %9s\n", sizes[k], ga, "n/a", "");
        }
        fflush(stdout);
    }
    if (cfg->json) printf("  ]");
}

int xc_bench_sums(const struct xc_bench_cfg *cfg)
{
    const size_t len = (1 << 20) + 64;
    uint8_t *buf = malloc(len);
    if (!buf) return -1;
    for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)(i * 131 + (i >> 7));
    if (cfg->json) printf("  \"crc32c_peer\": \"%s\",\n", XC_CRC_HAVE_PEER ? "ISA-L" : "none");
    one_table(cfg, "crc32c", "CRC32C", "ISA-L", op_crc_xc, XC_CRC_PEER, buf, 1);
    if (cfg->json) printf(",\n  \"inet_peer\": \"%s\",\n", XC_INET_PEER_NAME);
    one_table(cfg, "inet", "Internet checksum", XC_INET_PEER_NAME, op_inet_xc, XC_INET_PEER, buf,
              XC_INET_BATCH);
    if (cfg->json) printf(",\n");
    free(buf);
    return 0;
}
