/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The XXH64 wrappers declared in xxh64.h.  XXH_INLINE_ALL makes every
 * xxHash function static to this translation unit, so the library neither
 * exports nor depends on libxxhash's symbols.
 *
 * What it may call: the shared format (common/) and Debian's xxhash.h.
 */
#include "zstd/common/xxh64.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

_Static_assert(sizeof(XXH64_state_t) <= sizeof(xc_xxh64_state),
               "xc_xxh64_state is too small for XXH64_state_t");
_Static_assert(_Alignof(XXH64_state_t) <= _Alignof(xc_xxh64_state),
               "xc_xxh64_state is not aligned enough for XXH64_state_t");

/* Outside this file the words are never read or written; here they are
 * only ever touched as an XXH64_state_t. */
static XXH64_state_t *as_state(xc_xxh64_state *st) { return (XXH64_state_t *)(void *)st; }
static const XXH64_state_t *as_cstate(const xc_xxh64_state *st)
{
    return (const XXH64_state_t *)(const void *)st;
}

uint64_t xc_xxh64(const void *data, size_t len, uint64_t seed)
{
    return XXH64(data, len, seed);
}

void xc_xxh64_reset(xc_xxh64_state *st, uint64_t seed)
{
    (void)XXH64_reset(as_state(st), seed);
}

void xc_xxh64_update(xc_xxh64_state *st, const void *data, size_t len)
{
    /* xxHash accepts (NULL, 0); a zero-length update is simply a no-op. */
    if (len) (void)XXH64_update(as_state(st), data, len);
}

uint64_t xc_xxh64_digest(const xc_xxh64_state *st)
{
    return XXH64_digest(as_cstate(st));
}
