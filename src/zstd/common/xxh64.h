/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * XXH64, the hash behind the zstd content checksum (RFC 8878 §3.1.1: the
 * low 32 bits of XXH64 of the decoded content, seed 0, stored little-endian).
 *
 * The implementation is Debian's header-only xxhash.h, compiled once into
 * xxh64.c with XXH_INLINE_ALL so that its symbols stay private to this
 * library.  Everything else sees only these wrappers and an opaque state of
 * fixed size, so no other file has to include xxhash.h.
 *
 * What it may call: the library's helpers (xc_internal.h).
 */
#ifndef XC_ZSTD_XXHASH_H
#define XC_ZSTD_XXHASH_H

#include "xc_internal.h"

/* Large and aligned enough for XXH64_state_t (88 bytes in xxHash 0.8); a
 * static assertion in xxh64.c keeps this honest. */
typedef struct {
    uint64_t opaque[12];
} xc_xxh64_state;

XC_HIDDEN uint64_t xc_xxh64(const void *data, size_t len, uint64_t seed);
XC_HIDDEN void xc_xxh64_reset(xc_xxh64_state *st, uint64_t seed);
XC_HIDDEN void xc_xxh64_update(xc_xxh64_state *st, const void *data, size_t len);
XC_HIDDEN uint64_t xc_xxh64_digest(const xc_xxh64_state *st);

/* XXH64 (seed 0) of count buffers at once, out[i] of the n[i] bytes at
 * p[i], XC_XXH64_WAYS at a time.  One XXH64 is a chain of
 * dependent multiplies, so a single hash runs at the latency of its
 * rounds; the rounds of several buffers are independent, and the seekable
 * reader verifies its frames in groups through this.  Written here from
 * the published algorithm (xxHash's XXH64 specification), with the
 * stripes of the buffers' common length run by the cpucap kernel
 * (xc_kernels.xxh64_stripes) and the rest per buffer; each result equals
 * xc_xxh64(p[i], n[i], 0). */
#define XC_XXH64_WAYS 4
XC_HIDDEN void xc_xxh64_many(const uint8_t *const p[], const size_t n[], unsigned count,
                             uint64_t out[]);

/* The kernel behind it: the four lanes of each of the first `ways` (2 to
 * XC_XXH64_WAYS) streams, acc[w], taken through `stripes` 32-byte stripes
 * from p[w] (each valid for that many bytes).  Every p[w] is valid; a
 * kernel may also run the ways past `ways` (a vector one does, at no
 * cost), whose results are then ignored. */
typedef void (*xc_xxh64_stripes_fn)(uint64_t acc[XC_XXH64_WAYS][4],
                                    const uint8_t *const p[XC_XXH64_WAYS], unsigned ways,
                                    size_t stripes);

#endif /* XC_ZSTD_XXHASH_H */
