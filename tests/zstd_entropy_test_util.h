/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reference encoder shared by the tests of the zstd entropy decoders
 * (test_zstd_entropy.c: bit reader and FSE; test_zstd_entropy_huf.c:
 * Huffman): buffers fenced by forbidden pages, a forward bit writer, the
 * writer of FSE table descriptions (RFC 8878 §4.1.1) and an FSE encoder of
 * Huffman weights (§4.2.1.2) driven by the decoding table, so that every
 * stream a decoder sees was produced independently of it.  Static inline,
 * so that each program compiles without unused-function warnings.  The
 * including file defines _DEFAULT_SOURCE first (mmap, MAP_ANONYMOUS).
 */
#ifndef ZSTD_ENTROPY_TEST_UTIL_H
#define ZSTD_ENTROPY_TEST_UTIL_H

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xc_test.h"
#include "xc_internal.h"
#include "zstd/common/bitstream_read.h"
#include "zstd/entropy/entropy_decode.h"

/* ---- buffers fenced on both sides -------------------------------------- */

/* n bytes placed either right after a PROT_NONE page (front) or right
 * before one (back). */
typedef struct {
    uint8_t *p;
    uint8_t *base;
    size_t total;
} fenced;

static inline fenced fence_alloc(size_t n, int front)
{
    size_t const page = (size_t)sysconf(_SC_PAGESIZE);
    size_t const data = (n + page - 1) / page * page;
    fenced f;
    f.total = data + 2 * page;
    f.base = mmap(NULL, f.total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(f.base != MAP_FAILED);
    assert_int_equal(mprotect(f.base, page, PROT_NONE), 0);
    assert_int_equal(mprotect(f.base + page + data, page, PROT_NONE), 0);
    f.p = front ? f.base + page : f.base + page + data - n;
    return f;
}

static inline void fence_free(fenced *f) { munmap(f->base, f->total); }

/* Copies src into a fenced buffer (front or back in turn, by the caller's
 * choice). */
static inline fenced fence_copy(const void *src, size_t n, int front)
{
    fenced f = fence_alloc(n, front);
    if (n) memcpy(f.p, src, n);
    return f;
}

/* ---- reference forward bit writer --------------------------------------- */

typedef struct {
    uint8_t *buf;
    size_t cap, len;   /* len in bits */
} bitw;

static inline void bw_add(bitw *w, uint64_t v, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++, w->len++) {
        size_t const byte = w->len >> 3;
        assert_true(byte < w->cap);
        if ((w->len & 7) == 0) w->buf[byte] = 0;
        w->buf[byte] |= (uint8_t)(((v >> i) & 1) << (w->len & 7));
    }
}

/* Closes with the end mark; returns the size in bytes. */
static inline size_t bw_close(bitw *w)
{
    bw_add(w, 1, 1);
    return (w->len + 7) >> 3;
}

/* ---- FSE descriptions --------------------------------------------------- */

/* Reference writer of §4.1.1 descriptions. */
static inline size_t write_ncount(uint8_t *dst, size_t cap, const int16_t *norm,
                                  unsigned max_symbol, unsigned log)
{
    bitw w = {dst, cap, 0};
    int32_t remaining = (1 << log) + 1, threshold = 1 << log;
    unsigned nbits = log + 1, s = 0;

    bw_add(&w, log - 5, 4);
    while (remaining > 1) {
        int32_t const value = norm[s] + 1;
        int32_t const short_values = 2 * threshold - 1 - remaining;
        assert_true(s <= max_symbol);
        if (value < short_values)
            bw_add(&w, (uint64_t)value, nbits - 1);
        else if (value >= threshold)
            bw_add(&w, (uint64_t)(value + short_values), nbits);
        else
            bw_add(&w, (uint64_t)value, nbits);
        remaining -= norm[s] < 0 ? -norm[s] : norm[s];
        while (remaining < threshold) {
            nbits--;
            threshold >>= 1;
        }
        if (norm[s] == 0) {
            unsigned z = 0;
            while (s + 1 + z <= max_symbol && norm[s + 1 + z] == 0) z++;
            s += z;
            while (z >= 3) {
                bw_add(&w, 3, 2);
                z -= 3;
            }
            bw_add(&w, z, 2);
        }
        s++;
    }
    return (w.len + 7) >> 3;
}

/* ---- FSE-compressed Huffman weights ------------------------------------ */

/* Encodes w[0..n) (n >= 2) as §4.2.1.2 describes, with the given
 * distribution: description, then a stream whose two interleaved states
 * the decoder runs until a state update reads past the start.  The encoder
 * is driven by the decoding table: going backwards, the cell chosen for
 * weight k is the one of its symbol whose next-state range contains the
 * state already chosen for weight k + 2. */
static inline size_t encode_weights(uint8_t *dst, size_t cap, const uint8_t *wts, unsigned n,
                                    const int16_t *norm, unsigned max_symbol, unsigned log)
{
    xc_fse_cell cells[64];
    unsigned state[256], bits[256], nb[256];
    unsigned const size = 1u << log;
    unsigned k, u;
    size_t hdr = write_ncount(dst, cap, norm, max_symbol, log);
    bitw w = {dst + hdr, cap - hdr, 0};

    xc_fse_build_cells(cells, norm, max_symbol, log);
    /* The last two weights' states are free; the update after weight n - 2
     * must read at least one bit so that it runs past the start. */
    for (k = n - 2; k < n; k++) {
        for (u = 0; u < size; u++)
            if (cells[u].symbol == wts[k] && (k == n - 1 || cells[u].nbits > 0)) break;
        assert_true(u < size);
        state[k] = u;
    }
    for (k = n - 2; k-- > 0;) {
        unsigned const next = state[k + 2];
        for (u = 0; u < size; u++)
            if (cells[u].symbol == wts[k] && cells[u].next_base <= next &&
                next < cells[u].next_base + (1u << cells[u].nbits))
                break;
        assert_true(u < size);
        state[k] = u;
        bits[k] = next - cells[u].next_base;
        nb[k] = cells[u].nbits;
    }
    /* The reader sees: state 0, state 1, then the updates after weights
     * 0, 1, ..., n - 3; written in reverse. */
    for (k = n - 2; k-- > 0;) bw_add(&w, bits[k], nb[k]);
    bw_add(&w, state[1], log);
    bw_add(&w, state[0], log);
    return hdr + bw_close(&w);
}

#endif
