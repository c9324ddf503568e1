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

#endif /* XC_ZSTD_XXHASH_H */
