/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Huffman-coded literal streams (RFC 8878 §4.2.2 and §3.1.1.3.1.6): one
 * stream, or four streams behind a 6-byte jump table, decoded with the X1
 * or X2 tables of huf_decode_table.c.
 *
 * Speed comes from the four-stream case, where the streams are independent
 * and their lookups interleave, so four table loads are in flight at once.
 * Its fast loop keeps each stream in a self-describing 64-bit word: the
 * unread bits sit at the top, and below them, one set bit (the "sentinel")
 * followed by zeros.  A lookup is then `word >> 53` and consuming n bits
 * is `word <<= n`; the number of bits consumed since the last load is the
 * sentinel's position, ctz(word), so no counter is kept.  A load takes the
 * 8 bytes at ip, sets bit 0 as the sentinel (that bit is never read as
 * data: the loop reloads before consuming 63 bits) and shifts out the bits
 * already consumed in the top byte.
 *
 * Each iteration decodes 5 lookups per stream: at most 5 * 11 = 55 bits, on
 * top of at most 7 left over from the load, so the sentinel never leaves
 * the word, and a reload moves ip back at most 7 bytes.  Before running, the
 * loop computes how many iterations are safe for every stream (input bytes
 * left / 7, output room / bytes per iteration), and then runs that many
 * with no test but a limit on one output pointer.  Then the streams go to
 * the careful reader (xc_bits): two at a time while both have symbols and
 * bits enough (the streams of X2 advance unevenly, so some are left with a
 * few hundred symbols when another ends), then each alone to its last
 * symbol, checking that it ends exactly where its bits do.
 *
 * This is a template: the bodies are force-inlined and every ISA variant
 * of the decoder instantiates xc_huf_decode_body() under its own target
 * attribute (src/portable/zstd_decode_portable.c, src/x64/zstd_decode_bmi2.c).
 * Compiled for BMI2 the variable shifts become SHLX/SHRX and ctz becomes
 * TZCNT, which need no flags register and so shorten the dependency chain
 * of each lookup.  It may call the bit reader and the entropy decoder's
 * tables, nothing above them.
 */
#ifndef XC_ZSTD_HUF_DECODE_TMPL_H
#define XC_ZSTD_HUF_DECODE_TMPL_H

#include "zstd/entropy/entropy_decode.h"
#include "zstd/common/bitstream_read.h"

#define TLOG XC_HUF_TABLELOG_MAX
#define LOOKUP_SHIFT (64 - TLOG)
/* Lookups per stream and iteration of the fast loop, and the input bytes
 * that many can consume at most (55 bits, plus 7 left from the load, make
 * at most 62 bits = 7 whole bytes moved back). */
#define FAST_LOOKUPS 5
#define FAST_IN_BYTES 7

/* ---- one stream with the careful reader -------------------------------- */

/* Decodes X1 symbols into [op, oend) from br, looking up tlog bits (11,
 * or 12 for a 12-bit tree; a constant at every call); returns 0 when the
 * stream ended exactly with the last symbol.  Safe whatever the bits say:
 * every write is checked against oend and the reader never loads outside
 * its stream.  A full container (57 bits) serves 5 lookups of 11 bits, or
 * 4 of 12. */
XC_FORCE_INLINE size_t x1_stream(uint8_t *op, uint8_t *const oend, xc_bits *br,
                                 const xc_huf_x1 *dt, unsigned tlog)
{
#define X1_ONE()                                                               \
    do {                                                                       \
        xc_huf_x1 const c_ = dt[xc_bits_look_fast(br, tlog)];                  \
        xc_bits_skip(br, xc_huf_x1_nbits(c_));                                 \
        *op++ = (uint8_t)xc_huf_x1_symbol(c_);                                 \
    } while (0)

    if (tlog == TLOG) {
        while (oend - op >= 5 && xc_bits_reload(br) == XC_BITS_UNFINISHED) {
            X1_ONE(); X1_ONE(); X1_ONE(); X1_ONE(); X1_ONE();
        }
    } else {
        while (oend - op >= 4 && xc_bits_reload(br) == XC_BITS_UNFINISHED) {
            X1_ONE(); X1_ONE(); X1_ONE(); X1_ONE();
        }
    }
    /* Fewer symbols left than a full container serves, or the container
     * holds all that remains: either way one reload now covers the rest of
     * a valid stream. */
    xc_bits_reload(br);
    while (op < oend) X1_ONE();
#undef X1_ONE
    return xc_bits_reload(br) == XC_BITS_COMPLETED ? 0 : XC_ERROR(CORRUPT);
}

XC_FORCE_INLINE size_t x2_stream(uint8_t *op, uint8_t *const oend, xc_bits *br,
                                 const xc_huf_dtable *table)
{
    const xc_huf_x2 *const dt = table->u.x2;
#define X2_ONE()                                                               \
    do {                                                                       \
        const xc_huf_x2 *const c_ = &dt[xc_bits_look_fast(br, TLOG)];          \
        memcpy(op, c_->sym, 2);                                                \
        xc_bits_skip(br, c_->nbits);                                           \
        op += c_->length;                                                      \
    } while (0)

    /* 5 lookups write at most 10 bytes, each of them 2 bytes at op. */
    while (oend - op >= 10 && xc_bits_reload(br) == XC_BITS_UNFINISHED) {
        X2_ONE(); X2_ONE(); X2_ONE(); X2_ONE(); X2_ONE();
    }
    while (oend - op >= 2) {
        xc_bits_reload(br);
        X2_ONE();
    }
#undef X2_ONE
    if (op < oend) {
        /* The last byte: a pair cell would decode a second symbol out of
         * the zeros past the end of the stream (or out of garbage), so take
         * only the first symbol and only its own bits. */
        unsigned sym;
        xc_bits_reload(br);
        sym = dt[xc_bits_look_fast(br, TLOG)].sym[0];
        *op = (uint8_t)sym;
        xc_bits_skip(br, table->sym_bits[sym]);
    }
    return xc_bits_reload(br) == XC_BITS_COMPLETED ? 0 : XC_ERROR(CORRUPT);
}

/* Two streams side by side while both have room and full containers:
 * the tails left by the four-stream loop are decoded two chains at a time
 * before each is finished alone.  Output pointers are updated. */
XC_FORCE_INLINE void x1_pair(uint8_t **opa, uint8_t *const ea, xc_bits *a, uint8_t **opb,
                             uint8_t *const eb, xc_bits *b, const xc_huf_x1 *dt, unsigned tlog)
{
    uint8_t *pa = *opa, *pb = *opb;
#define X1_AB()                                                                \
    do {                                                                       \
        xc_huf_x1 const ca_ = dt[xc_bits_look_fast(a, tlog)];                  \
        xc_huf_x1 const cb_ = dt[xc_bits_look_fast(b, tlog)];                  \
        xc_bits_skip(a, xc_huf_x1_nbits(ca_));                                 \
        xc_bits_skip(b, xc_huf_x1_nbits(cb_));                                 \
        *pa++ = (uint8_t)xc_huf_x1_symbol(ca_);                                \
        *pb++ = (uint8_t)xc_huf_x1_symbol(cb_);                                \
    } while (0)
    if (tlog == TLOG) {
        while (ea - pa >= 5 && eb - pb >= 5 &&
               (xc_bits_reload(a) | xc_bits_reload(b)) == XC_BITS_UNFINISHED) {
            X1_AB(); X1_AB(); X1_AB(); X1_AB(); X1_AB();
        }
    } else {
        while (ea - pa >= 4 && eb - pb >= 4 &&
               (xc_bits_reload(a) | xc_bits_reload(b)) == XC_BITS_UNFINISHED) {
            X1_AB(); X1_AB(); X1_AB(); X1_AB();
        }
    }
#undef X1_AB
    *opa = pa;
    *opb = pb;
}

XC_FORCE_INLINE void x2_pair(uint8_t **opa, uint8_t *const ea, xc_bits *a, uint8_t **opb,
                             uint8_t *const eb, xc_bits *b, const xc_huf_x2 *dt)
{
    uint8_t *pa = *opa, *pb = *opb;
#define X2_AB()                                                                \
    do {                                                                       \
        const xc_huf_x2 *const ca_ = &dt[xc_bits_look_fast(a, TLOG)];          \
        const xc_huf_x2 *const cb_ = &dt[xc_bits_look_fast(b, TLOG)];          \
        memcpy(pa, ca_->sym, 2);                                               \
        memcpy(pb, cb_->sym, 2);                                               \
        xc_bits_skip(a, ca_->nbits);                                           \
        xc_bits_skip(b, cb_->nbits);                                           \
        pa += ca_->length;                                                     \
        pb += cb_->length;                                                     \
    } while (0)
    while (ea - pa >= 10 && eb - pb >= 10 &&
           (xc_bits_reload(a) | xc_bits_reload(b)) == XC_BITS_UNFINISHED) {
        X2_AB(); X2_AB(); X2_AB(); X2_AB(); X2_AB();
    }
#undef X2_AB
    *opa = pa;
    *opb = pb;
}

XC_FORCE_INLINE size_t decode_1(uint8_t *dst, size_t n, const uint8_t *src, size_t src_size,
                                const xc_huf_dtable *dt)
{
    xc_bits br;
    FORWARD_IF_ERROR(xc_bits_init(&br, src, src_size));
    if (dt->kind == XC_HUF_X1 && dt->table_log == TLOG)
        FORWARD_IF_ERROR(x1_stream(dst, dst + n, &br, dt->u.x1, TLOG));
    else if (dt->kind == XC_HUF_X1)
        FORWARD_IF_ERROR(x1_stream(dst, dst + n, &br, dt->u.x1, XC_HUF_MAX_BITS));
    else
        FORWARD_IF_ERROR(x2_stream(dst, dst + n, &br, dt));
    return n;
}

/* ---- four streams ------------------------------------------------------ */

typedef struct {
    const uint8_t *start[4];   /* first byte of each stream */
    const uint8_t *end[4];     /* one past its last byte */
    uint8_t *op[4];            /* next output byte of each segment */
    uint8_t *oend[4];          /* end of each segment */
} quad;

static inline size_t quad_init(quad *q, uint8_t *dst, size_t n, const uint8_t *src,
                               size_t src_size)
{
    size_t len[4], seg;
    int i;

    /* The jump table, then at least one byte per stream; and the format
     * needs 6 literals or more to split them in four. */
    RETURN_ERROR_IF(src_size < 10 || n < 6, CORRUPT);
    len[0] = xc_read_le16(src);
    len[1] = xc_read_le16(src + 2);
    len[2] = xc_read_le16(src + 4);
    RETURN_ERROR_IF(len[0] + len[1] + len[2] + 6 >= src_size, CORRUPT);
    len[3] = src_size - 6 - len[0] - len[1] - len[2];
    seg = (n + 3) / 4;
    q->start[0] = src + 6;
    for (i = 0; i < 4; i++) {
        if (i) q->start[i] = q->end[i - 1];
        q->end[i] = q->start[i] + len[i];
        q->op[i] = dst + seg * (size_t)i;
        q->oend[i] = i == 3 ? dst + n : q->op[i] + seg;
    }
    return 0;
}

/* Starts stream i at its last 8 bytes (the caller checked there are 8),
 * with the end mark and the padding above it consumed.  0 when the last
 * byte is 0 (no end mark). */
static inline uint64_t fast_load_first(const uint8_t *ip)
{
    uint64_t const w = xc_read_le64(ip);
    if (ip[7] == 0) return 0;
    return (w | 1) << (xc_clz64(w) + 1);
}

/* Hands a fast stream over to the careful reader: the word loaded at ip,
 * with ctz(bits) bits already consumed from its top. */
static inline void fast_to_bits(xc_bits *br, uint64_t bits, const uint8_t *ip,
                                const uint8_t *start)
{
    br->bits = xc_read_le64(ip);
    br->consumed = xc_ctz64(bits);
    br->ptr = ip;
    br->start = start;
}

#define FAST_RELOAD(k)                                                         \
    do {                                                                       \
        unsigned const c_ = xc_ctz64(b##k);                                    \
        ip##k -= c_ >> 3;                                                      \
        b##k = (xc_read_le64(ip##k) | 1) << (c_ & 7);                          \
    } while (0)

/* X1: the four segments advance in lock step, so one pointer and the
 * segment size address all of them. */
#define X1_FAST(k, j)                                                          \
    do {                                                                       \
        xc_huf_x1 const c_ = dt[b##k >> LOOKUP_SHIFT];                         \
        b##k <<= c_ & 63;                                                      \
        op[(k) * seg + (j)] = (uint8_t)(c_ >> 8);                              \
    } while (0)

/* X2: the fields are loaded one by one, which beat one load and shifts
 * (fewer instructions per lookup); the two symbols go out in one 16-bit
 * store. */
#define X2_FAST(k)                                                             \
    do {                                                                       \
        const xc_huf_x2 *const c_ = &dt[b##k >> LOOKUP_SHIFT];                 \
        memcpy(op##k, c_->sym, 2);                                             \
        b##k <<= c_->nbits;                                                    \
        op##k += c_->length;                                                   \
    } while (0)

/* Fewest fast iterations any stream allows on the input side. */
#define IN_ITERS()                                                             \
    (XC_MIN(XC_MIN((size_t)(ip0 - q.start[0]), (size_t)(ip1 - q.start[1])),    \
            XC_MIN((size_t)(ip2 - q.start[2]), (size_t)(ip3 - q.start[3]))) /  \
     FAST_IN_BYTES)

XC_FORCE_INLINE size_t decode_4(uint8_t *dst, size_t n, const uint8_t *src, size_t src_size,
                                const xc_huf_dtable *table)
{
    quad q;
    /* 12-bit trees (rare: some dictionaries) skip the fast loop, which is
     * built around 11-bit lookups. */
    int const wide = table->table_log != TLOG;
    int i, fast = !wide;
    const uint8_t *ipv[4];
    uint64_t bv[4];

    FORWARD_IF_ERROR(quad_init(&q, dst, n, src, src_size));
    for (i = 0; fast && i < 4; i++) {
        if (q.end[i] - q.start[i] < 8) {
            fast = 0;
            break;
        }
        ipv[i] = q.end[i] - 8;
        bv[i] = fast_load_first(ipv[i]);
        RETURN_ERROR_IF(bv[i] == 0, CORRUPT);
    }

    if (fast) {
        const uint8_t *ip0 = ipv[0], *ip1 = ipv[1], *ip2 = ipv[2], *ip3 = ipv[3];
        uint64_t b0 = bv[0], b1 = bv[1], b2 = bv[2], b3 = bv[3];
        uint8_t *op0 = q.op[0], *op1 = q.op[1], *op2 = q.op[2], *op3 = q.op[3];

        if (table->kind == XC_HUF_X1) {
            const xc_huf_x1 *const dt = table->u.x1;
            size_t const seg = (size_t)(q.op[1] - q.op[0]);
            uint8_t *op = op0;
            /* The last segment is the shortest, so its room bounds all
             * four.  Each iteration moves op by exactly 5, hence the limit
             * pointer instead of a counter (one register less). */
            for (;;) {
                size_t const iters = XC_MIN(IN_ITERS(), (size_t)(q.oend[3] - op3) / FAST_LOOKUPS);
                uint8_t *const olimit = op + iters * FAST_LOOKUPS;
                if (iters == 0) break;
                do {
                    X1_FAST(0, 0); X1_FAST(1, 0); X1_FAST(2, 0); X1_FAST(3, 0);
                    X1_FAST(0, 1); X1_FAST(1, 1); X1_FAST(2, 1); X1_FAST(3, 1);
                    X1_FAST(0, 2); X1_FAST(1, 2); X1_FAST(2, 2); X1_FAST(3, 2);
                    X1_FAST(0, 3); X1_FAST(1, 3); X1_FAST(2, 3); X1_FAST(3, 3);
                    X1_FAST(0, 4); X1_FAST(1, 4); X1_FAST(2, 4); X1_FAST(3, 4);
                    op += FAST_LOOKUPS;
                    FAST_RELOAD(0); FAST_RELOAD(1); FAST_RELOAD(2); FAST_RELOAD(3);
                } while (op < olimit);
                op3 = op + 3 * seg;
            }
            op0 = op;
            op1 = op + seg;
            op2 = op + 2 * seg;
        } else {
            const xc_huf_x2 *const dt = table->u.x2;
            /* Here each segment advances at its own pace (1 or 2 bytes per
             * lookup), so every room counts; an iteration writes at most
             * 2 * 5 bytes, and moves the last segment at least 5 bytes, so
             * a limit on op3 again stands in for a counter. */
            for (;;) {
                size_t const out = XC_MIN(XC_MIN((size_t)(q.oend[0] - op0), (size_t)(q.oend[1] - op1)),
                                          XC_MIN((size_t)(q.oend[2] - op2), (size_t)(q.oend[3] - op3)));
                size_t const iters = XC_MIN(IN_ITERS(), out / (2 * FAST_LOOKUPS));
                uint8_t *const olimit = op3 + iters * FAST_LOOKUPS;
                if (iters == 0) break;
                do {
                    X2_FAST(0); X2_FAST(1); X2_FAST(2); X2_FAST(3);
                    X2_FAST(0); X2_FAST(1); X2_FAST(2); X2_FAST(3);
                    X2_FAST(0); X2_FAST(1); X2_FAST(2); X2_FAST(3);
                    X2_FAST(0); X2_FAST(1); X2_FAST(2); X2_FAST(3);
                    X2_FAST(0); X2_FAST(1); X2_FAST(2); X2_FAST(3);
                    FAST_RELOAD(0); FAST_RELOAD(1); FAST_RELOAD(2); FAST_RELOAD(3);
                } while (op3 < olimit);
            }
        }
        ipv[0] = ip0; ipv[1] = ip1; ipv[2] = ip2; ipv[3] = ip3;
        bv[0] = b0; bv[1] = b1; bv[2] = b2; bv[3] = b3;
        q.op[0] = op0; q.op[1] = op1; q.op[2] = op2; q.op[3] = op3;
    }

    /* The tails, and everything when a stream is under 8 bytes: two
     * streams at a time as long as both have symbols and bits enough, then
     * each to its exact end. */
    {
        xc_bits br[4];
        for (i = 0; i < 4; i++) {
            if (fast)
                fast_to_bits(&br[i], bv[i], ipv[i], q.start[i]);
            else
                FORWARD_IF_ERROR(xc_bits_init(&br[i], q.start[i], (size_t)(q.end[i] - q.start[i])));
        }
        for (i = 0; i < 4; i += 2) {
            if (table->kind == XC_HUF_X2)
                x2_pair(&q.op[i], q.oend[i], &br[i], &q.op[i + 1], q.oend[i + 1], &br[i + 1],
                        table->u.x2);
            else if (!wide)
                x1_pair(&q.op[i], q.oend[i], &br[i], &q.op[i + 1], q.oend[i + 1], &br[i + 1],
                        table->u.x1, TLOG);
            else
                x1_pair(&q.op[i], q.oend[i], &br[i], &q.op[i + 1], q.oend[i + 1], &br[i + 1],
                        table->u.x1, XC_HUF_MAX_BITS);
        }
        for (i = 0; i < 4; i++) {
            if (table->kind == XC_HUF_X2)
                FORWARD_IF_ERROR(x2_stream(q.op[i], q.oend[i], &br[i], table));
            else if (!wide)
                FORWARD_IF_ERROR(x1_stream(q.op[i], q.oend[i], &br[i], table->u.x1, TLOG));
            else
                FORWARD_IF_ERROR(x1_stream(q.op[i], q.oend[i], &br[i], table->u.x1, XC_HUF_MAX_BITS));
        }
    }
    return n;
}

#undef FAST_RELOAD
#undef X1_FAST
#undef X2_FAST
#undef IN_ITERS

/* ---- entry points ------------------------------------------------------ */

XC_FORCE_INLINE size_t xc_huf_decode_body(uint8_t *dst, size_t n, const uint8_t *src, size_t src_size,
                                   int four_streams, const xc_huf_dtable *dt)
{
    RETURN_ERROR_IF(dt->kind != XC_HUF_X1 && dt->kind != XC_HUF_X2, CORRUPT);
    if (four_streams) return decode_4(dst, n, src, src_size, dt);
    return decode_1(dst, n, src, src_size, dt);
}

#endif
