/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * DPDK's Internet checksum, the peer of `xcodec bench` when libdpdk-dev is
 * installed.  rte_raw_cksum() is static inline in <rte_ip.h>, so this file
 * holds the timed operation itself and programs/CMakeLists.txt compiles it
 * alone with DPDK's flags, -O3 -march=native: DPDK's best case, as in
 * bench/peer_dpdk.cc.  Both operations write the value of a checksum
 * field, folded and complemented.
 */
#include <stdint.h>

#include <rte_ip.h>

#include "bench.h"

int xc_bench_op_inet_dpdk(void *c)
{
    struct xc_sum_ctx *s = c;
    uint32_t acc = 0;
    for (int i = 0; i < XC_SUM_BATCH; i++) {
        const uint8_t *p = s->p;
        XC_BENCH_OPAQUE(p);
        acc += (uint16_t)~rte_raw_cksum(p, s->n);
    }
    s->sink = acc;
    return 0;
}
