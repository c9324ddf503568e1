/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the class generators share (corpus_gen.c holds the text-like
 * classes and the class table, corpus_gen_binary.c the binary ones): the
 * random numbers and a writer that stops at the end of the output.
 *
 * Portability: everything is integer arithmetic on fixed-width types, and
 * every multi-byte value is written byte by byte in the byte order its
 * format has, never through memcpy() of a host integer, so that s390x
 * writes what x86 writes.  No floating point: a compiler that fuses a
 * multiply and an add (as GCC may on arm64 and s390x) would change a
 * rounding, and with it the bytes.
 */
#ifndef XC_PROGRAMS_CORPUS_GEN_INTERNAL_H
#define XC_PROGRAMS_CORPUS_GEN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* splitmix64: one 64-bit word of state, full period, and good enough
 * output for test data; its steps are the same on every machine. */
struct xc_rng {
    uint64_t s;
};

static inline uint64_t xc_rng_next(struct xc_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [0, n), n > 0 (the bias of the modulo is immaterial here). */
static inline uint32_t xc_rng_below(struct xc_rng *r, uint32_t n)
{
    return (uint32_t)((xc_rng_next(r) >> 32) % n);
}

/* An index in [0, n), small ones much more likely: n * u^3 for u uniform
 * in [0, 1), in 24-bit fixed point, which is skewed about as a Zipf law
 * over a vocabulary is. */
static inline uint32_t xc_rng_skewed(struct xc_rng *r, uint32_t n)
{
    uint64_t u = xc_rng_next(r) >> 40;
    uint64_t v = (((u * u) >> 24) * u) >> 24;
    return (uint32_t)((v * n) >> 24);
}

/* A length in [lo, hi], roughly uniform in its logarithm, lo >= 1. */
static inline size_t xc_rng_loglen(struct xc_rng *r, size_t lo, size_t hi)
{
    unsigned bits = 0;
    while (((size_t)2 << bits) <= hi / lo) bits++;
    size_t base = lo << xc_rng_below(r, bits + 1);
    size_t len = base + (size_t)(xc_rng_next(r) % base);
    return len > hi ? hi : len;
}

/* The output: n bytes at d, pos of them written; writes past the end are
 * dropped, so a generator writes whole items and stops when full. */
struct xc_sink {
    uint8_t *d;
    size_t n, pos;
};

static inline int xc_sink_full(const struct xc_sink *s)
{
    return s->pos >= s->n;
}

static inline void xc_sink_bytes(struct xc_sink *s, const void *p, size_t len)
{
    if (len > s->n - s->pos) len = s->n - s->pos;
    memcpy(s->d + s->pos, p, len);
    s->pos += len;
}

static inline void xc_sink_str(struct xc_sink *s, const char *str)
{
    xc_sink_bytes(s, str, strlen(str));
}

static inline void xc_sink_u8(struct xc_sink *s, unsigned v)
{
    if (s->pos < s->n) s->d[s->pos++] = (uint8_t)v;
}

static inline void xc_sink_le(struct xc_sink *s, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) xc_sink_u8(s, (unsigned)(v >> (8 * i)) & 0xFF);
}

static inline void xc_sink_be(struct xc_sink *s, uint64_t v, unsigned bytes)
{
    for (unsigned i = bytes; i-- > 0;) xc_sink_u8(s, (unsigned)(v >> (8 * i)) & 0xFF);
}

/* v in decimal, at least width digits (zero-padded). */
static inline void xc_sink_dec(struct xc_sink *s, uint64_t v, unsigned width)
{
    char buf[24];
    unsigned n = 0;
    do {
        buf[sizeof buf - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v || n < width);
    xc_sink_bytes(s, buf + sizeof buf - n, n);
}

/* The generators, each filling s from r until s is full. */
typedef void (*xc_corpus_gen_fn)(struct xc_rng *r, struct xc_sink *s);

void xc_gen_text(struct xc_rng *r, struct xc_sink *s);
void xc_gen_source(struct xc_rng *r, struct xc_sink *s);
void xc_gen_json(struct xc_rng *r, struct xc_sink *s);
void xc_gen_csv(struct xc_rng *r, struct xc_sink *s);
void xc_gen_logs(struct xc_rng *r, struct xc_sink *s);
void xc_gen_utf16(struct xc_rng *r, struct xc_sink *s);
void xc_gen_exec(struct xc_rng *r, struct xc_sink *s);
void xc_gen_database(struct xc_rng *r, struct xc_sink *s);
void xc_gen_random(struct xc_rng *r, struct xc_sink *s);
void xc_gen_runs(struct xc_rng *r, struct xc_sink *s);
void xc_gen_periods(struct xc_rng *r, struct xc_sink *s);
void xc_gen_mixed(struct xc_rng *r, struct xc_sink *s);

/* The zlib class: zlib streams of the text-like classes, n bytes of them
 * at dst; 0, or -1 when memory runs out or zlib was not built in
 * (xc_gen_zlib_available() is then 0). */
int xc_gen_zlib(struct xc_rng *r, uint8_t *dst, size_t n);
int xc_gen_zlib_available(void);

/* A word of the text model into buf (at least 32 bytes), NUL-terminated;
 * returns its length.  Shared by text, source, JSON, CSV, logs, UTF-16. */
size_t xc_gen_word(struct xc_rng *r, char *buf);

#endif
