/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The checksums of include/xcodec_inline.h as `xcodec bench` times them:
 * compiled into the caller's loop, with lengths the compiler knows.  When
 * DPDK is there, this file is compiled with the flags its peer gets
 * (programs/peer_dpdk.c: -O3 -march=native), so that both inline sums are
 * built the same way and the header may use the vector unit the flags
 * allow, as it does in a program built like a DPDK application.
 */
#include <stdint.h>

#include "bench.h"
#include "xcodec_inline.h"

#define XC_INLINE_OP(name, expr)                                                            \
    int name(void *c)                                                                       \
    {                                                                                       \
        struct xc_sum_ctx *s = c;                                                           \
        uint32_t acc = 0;                                                                   \
        for (int i = 0; i < XC_SUM_BATCH; i++) {                                            \
            const uint8_t *q = s->p;                                                        \
            XC_BENCH_OPAQUE(q);                                                             \
            acc += (expr);                                                                  \
        }                                                                                   \
        s->sink = acc;                                                                      \
        return 0;                                                                           \
    }

XC_INLINE_OP(xc_bench_op_inline20, xc_inline_ipv4_checksum(q))
XC_INLINE_OP(xc_bench_op_inline40, xc_inline_inet_checksum40(q))
XC_INLINE_OP(xc_bench_op_inline64, xc_inline_inet_checksum(q, 64))
XC_INLINE_OP(xc_bench_op_inline128, xc_inline_inet_checksum(q, 128))
