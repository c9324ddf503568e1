/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The benchmark corpus: the binary classes.  Machine code, database pages,
 * random bytes, zlib streams, runs of one byte, short periods with noise,
 * and a mix of text and binary whose repeats lie more than 1 MiB back.
 * They are the inputs where a codec's fast paths and its worst cases
 * show: incompressible data (the search should give up cheaply), runs and
 * periods (matches of offset 1 to 64 that the decoder must copy at full
 * store bandwidth), far repeats (cache misses on the match copy), and
 * structured binary (small offsets, literals with skewed statistics).
 *
 * Multi-byte fields are written by shifts in the byte order of their
 * format (little-endian x86 immediates, big-endian database headers), see
 * corpus_gen_internal.h.
 */
#include <stdlib.h>

#include "corpus_gen_internal.h"

#ifdef XC_HAVE_ZLIB
#  include <zlib.h>
#endif

static void fill(struct xc_sink *s, unsigned byte, size_t len)
{
    if (len > s->n - s->pos) len = s->n - s->pos;
    memset(s->d + s->pos, (int)byte, len);
    s->pos += len;
}

/* ---- x86-like machine code ------------------------------------------------ */

/* A register, the low ones (eax, ecx, edx, ebx) much more often. */
static unsigned reg(struct xc_rng *r)
{
    return xc_rng_skewed(r, 8);
}

static void instruction(struct xc_rng *r, struct xc_sink *s, const size_t *starts, size_t nstarts)
{
    const uint64_t base = 0x401000; /* the address of the first byte */
    uint64_t pc = base + s->pos;
    switch (xc_rng_skewed(r, 14)) {
    case 0: /* mov r64, r64 */
        xc_sink_u8(s, 0x48);
        xc_sink_u8(s, 0x89);
        xc_sink_u8(s, 0xC0 | reg(r) << 3 | reg(r));
        break;
    case 1: /* mov r64, [rbp - 8k] */
        xc_sink_u8(s, 0x48);
        xc_sink_u8(s, 0x8B);
        xc_sink_u8(s, 0x45 | reg(r) << 3);
        xc_sink_u8(s, 0x100 - 8 * (1 + xc_rng_skewed(r, 16)));
        break;
    case 2: /* mov [rbp - 8k], r64 */
        xc_sink_u8(s, 0x48);
        xc_sink_u8(s, 0x89);
        xc_sink_u8(s, 0x45 | reg(r) << 3);
        xc_sink_u8(s, 0x100 - 8 * (1 + xc_rng_skewed(r, 16)));
        break;
    case 3: { /* call rel32: a function emitted before, or the PLT below */
        uint64_t target = nstarts && xc_rng_below(r, 3) ? base + starts[xc_rng_skewed(r, (uint32_t)nstarts)]
                                                        : base - 0x1000 + 16 * xc_rng_skewed(r, 200);
        xc_sink_u8(s, 0xE8);
        xc_sink_le(s, target - (pc + 5), 4);
        break;
    }
    case 4: /* mov r32, imm32 */
        xc_sink_u8(s, 0xB8 + reg(r));
        xc_sink_le(s, xc_rng_below(r, 4) ? xc_rng_skewed(r, 256) : xc_rng_next(r), 4);
        break;
    case 5: { /* add/sub/xor/cmp/and/or r32, r32 */
        static const uint8_t ops[] = {0x01, 0x29, 0x31, 0x39, 0x21, 0x09};
        xc_sink_u8(s, ops[xc_rng_below(r, 6)]);
        xc_sink_u8(s, 0xC0 | reg(r) << 3 | reg(r));
        break;
    }
    case 6: /* jcc rel8 */
        xc_sink_u8(s, 0x70 + xc_rng_below(r, 16));
        xc_sink_u8(s, xc_rng_below(r, 2) ? xc_rng_skewed(r, 64) : 0x100 - xc_rng_skewed(r, 64));
        break;
    case 7: /* test r32, r32 */
        xc_sink_u8(s, 0x85);
        xc_sink_u8(s, 0xC0 | (reg(r) * 9));
        break;
    case 8: /* add/cmp r64, imm8 */
        xc_sink_u8(s, 0x48);
        xc_sink_u8(s, 0x83);
        xc_sink_u8(s, 0xC0 | (xc_rng_below(r, 2) ? 7u : 0u) << 3 | reg(r));
        xc_sink_u8(s, xc_rng_skewed(r, 128));
        break;
    case 9: /* lea r64, [rip + disp32] into the data section */
        xc_sink_u8(s, 0x48);
        xc_sink_u8(s, 0x8D);
        xc_sink_u8(s, 0x05 | reg(r) << 3);
        xc_sink_le(s, base + 0x200000 + 8 * xc_rng_skewed(r, 4096) - (pc + 7), 4);
        break;
    case 10: /* movzx r32, byte [r64 + disp8] */
        xc_sink_u8(s, 0x0F);
        xc_sink_u8(s, 0xB6);
        xc_sink_u8(s, 0x40 | reg(r) << 3 | reg(r));
        xc_sink_u8(s, xc_rng_skewed(r, 64));
        break;
    case 11: /* jmp rel32 */
        xc_sink_u8(s, 0xE9);
        xc_sink_le(s, (uint64_t)(int64_t)(xc_rng_skewed(r, 2000) - 1000), 4);
        break;
    case 12: /* mov r64, [r64 + 8k] */
        xc_sink_u8(s, 0x48 | (xc_rng_below(r, 4) == 0 ? 4 : 0));
        xc_sink_u8(s, 0x8B);
        xc_sink_u8(s, 0x40 | reg(r) << 3 | reg(r));
        xc_sink_u8(s, 8 * xc_rng_skewed(r, 16));
        break;
    default: /* xor eax, eax */
        xc_sink_u8(s, 0x31);
        xc_sink_u8(s, 0xC0);
        break;
    }
}

/* Functions with a frame-pointer prologue and epilogue, a body of common
 * instructions, calls whose rel32 differ for one target (as relocated
 * code has), and int3 padding to 16 bytes. */
void xc_gen_exec(struct xc_rng *r, struct xc_sink *s)
{
    size_t starts[512], nstarts = 0;
    while (!xc_sink_full(s)) {
        if (nstarts < 512) starts[nstarts++] = s->pos;
        else starts[xc_rng_below(r, 512)] = s->pos;
        xc_sink_u8(s, 0x55);
        xc_sink_str(s, "\x48\x89\xE5");
        unsigned saved = xc_rng_below(r, 3);
        for (unsigned k = 0; k < saved; k++) xc_sink_str(s, k ? "\x41\x54" : "\x53");
        if (xc_rng_below(r, 2)) {
            xc_sink_str(s, "\x48\x83\xEC");
            xc_sink_u8(s, 16 * (1 + xc_rng_below(r, 8)));
        }
        unsigned body = 4 + xc_rng_skewed(r, 120);
        for (unsigned k = 0; k < body; k++) instruction(r, s, starts, nstarts);
        for (unsigned k = saved; k-- > 0;) xc_sink_str(s, k ? "\x41\x5C" : "\x5B");
        xc_sink_str(s, xc_rng_below(r, 2) ? "\xC9\xC3" : "\x5D\xC3");
        fill(s, 0xCC, (16 - s->pos % 16) % 16);
    }
}

/* ---- database pages ---------------------------------------------------------- */

#define PAGE 4096

/* A big-endian variable-length integer, 7 bits a byte, as SQLite's. */
static size_t varint(uint8_t *p, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        tmp[n++] = (uint8_t)(v & 0x7F);
        v >>= 7;
    } while (v);
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(tmp[n - 1 - i] | (i + 1 < n ? 0x80 : 0));
    return n;
}

static size_t put_be(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    return bytes;
}

/* One table record (rowid, then a header of field types and the fields:
 * id, name, e-mail, time, amount, flag) into p; returns its size. */
static size_t record(struct xc_rng *r, uint8_t *p, uint64_t rowid, uint64_t t)
{
    char name[80], mail[80];
    size_t nl = xc_gen_word(r, name);
    name[nl++] = ' ';
    nl += xc_gen_word(r, name + nl);
    size_t ml = xc_gen_word(r, mail);
    memcpy(mail + ml, "@example.org", 12);
    ml += 12;
    uint8_t types[16], body[256];
    size_t t_n = 0, b = 0;
    types[t_n++] = 4;                          /* a 32-bit integer */
    t_n += varint(types + t_n, 13 + 2 * nl);   /* text of nl bytes */
    t_n += varint(types + t_n, 13 + 2 * ml);
    types[t_n++] = 4;
    types[t_n++] = 2;
    types[t_n++] = xc_rng_below(r, 2) ? 8 : 9; /* the constants 0 and 1 */
    body[b++] = (uint8_t)(1 + t_n);            /* the header's size, itself included */
    memcpy(body + b, types, t_n);
    b += t_n;
    b += put_be(body + b, rowid * 7 + 1000, 4);
    memcpy(body + b, name, nl);
    b += nl;
    memcpy(body + b, mail, ml);
    b += ml;
    b += put_be(body + b, 1700000000u + t, 4);
    b += put_be(body + b, xc_rng_skewed(r, 60000), 2);
    size_t n = varint(p, b);
    n += varint(p + n, rowid);
    memcpy(p + n, body, b);
    return n + b;
}

/* Pages of 4 KiB: table leaves filled to a varying degree (free space
 * zero, or holding deleted records), interior pages of sorted keys and
 * child numbers, and empty pages, each with a header, big-endian as
 * SQLite writes them. */
void xc_gen_database(struct xc_rng *r, struct xc_sink *s)
{
    uint8_t page[PAGE], old[PAGE];
    uint64_t rowid = 1 + xc_rng_below(r, 1u << 16), t = 0;
    uint32_t pgno = 1 + xc_rng_below(r, 1u << 10);
    memset(old, 0, sizeof old);
    while (!xc_sink_full(s)) {
        uint32_t kind = xc_rng_below(r, 16);
        memset(page, 0, sizeof page);
        if (kind == 0) {
            /* A free page: all zero but for the trunk link. */
            put_be(page, pgno + 1 + xc_rng_below(r, 64), 4);
        } else if (kind < 3) {
            /* An interior page: 12-byte header, cell pointers, and cells of
             * a child page number and a key, keys ascending. */
            unsigned cells = 100 + xc_rng_below(r, 200);
            uint64_t key = rowid;
            size_t top = PAGE;
            page[0] = 0x05;
            put_be(page + 3, cells, 2);
            put_be(page + 8, pgno + cells + 1, 4);
            for (unsigned c = 0; c < cells; c++) {
                uint8_t cell[16];
                size_t n = put_be(cell, pgno + 1 + c, 4);
                key += 1 + xc_rng_skewed(r, 40);
                n += varint(cell + n, key);
                top -= n;
                memcpy(page + top, cell, n);
                put_be(page + 12 + 2 * c, top, 2);
            }
            put_be(page + 5, top, 2);
        } else {
            /* A table leaf filled to 40..100%; a quarter of them keep
             * deleted records in their free space. */
            size_t target = PAGE - PAGE * xc_rng_below(r, 60) / 100;
            size_t top = PAGE, cells = 0;
            page[0] = 0x0D;
            for (;;) {
                uint8_t rec[400];
                size_t n = record(r, rec, rowid, t);
                if (8 + 2 * (cells + 1) + (PAGE - top) + n > target) break;
                top -= n;
                memcpy(page + top, rec, n);
                put_be(page + 8 + 2 * cells, top, 2);
                cells++;
                rowid++;
                t += xc_rng_skewed(r, 600);
            }
            put_be(page + 3, cells, 2);
            put_be(page + 5, top, 2);
            if (kind < 7) {
                size_t from = 8 + 2 * cells;
                memcpy(page + from, old + from, top - from);
            }
            memcpy(old, page, sizeof page);
        }
        xc_sink_bytes(s, page, PAGE);
        pgno++;
    }
}

/* ---- incompressible ------------------------------------------------------------ */

void xc_gen_random(struct xc_rng *r, struct xc_sink *s)
{
    while (!xc_sink_full(s)) xc_sink_le(s, xc_rng_next(r), 8);
}

int xc_gen_zlib_available(void)
{
#ifdef XC_HAVE_ZLIB
    return 1;
#else
    return 0;
#endif
}

/* zlib streams (level 6, as gzip and PNG writers default to) of 1 MiB of
 * the text-like classes each, one after another, cut at n bytes: data that
 * is already compressed, whose only structure is zlib's headers. */
int xc_gen_zlib(struct xc_rng *r, uint8_t *dst, size_t n)
{
#ifdef XC_HAVE_ZLIB
    static const xc_corpus_gen_fn kinds[] = {xc_gen_text, xc_gen_logs, xc_gen_json, xc_gen_csv,
                                             xc_gen_source};
    enum { CHUNK = 64 << 10, CHUNKS_PER_STREAM = 16 };
    uint8_t *chunk = malloc(CHUNK);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!chunk || deflateInit2(&z, 6, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(chunk);
        return -1;
    }
    size_t out = 0;
    int rc = 0;
    for (unsigned k = 0; out < n; k++) {
        struct xc_rng sub = {xc_rng_next(r)};
        struct xc_sink s = {chunk, CHUNK, 0};
        kinds[xc_rng_below(r, 5)](&sub, &s);
        int last = k % CHUNKS_PER_STREAM == CHUNKS_PER_STREAM - 1;
        z.next_in = chunk;
        z.avail_in = CHUNK;
        int zr;
        do {
            /* zlib counts in uInt: feed the output in pieces of at most 1 GiB. */
            size_t room = n - out < ((size_t)1 << 30) ? n - out : (size_t)1 << 30;
            z.next_out = dst + out;
            z.avail_out = (uInt)room;
            zr = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
            out += room - z.avail_out;
        } while (out < n && (z.avail_in > 0 || (last && zr != Z_STREAM_END)) && zr != Z_STREAM_ERROR);
        if (zr == Z_STREAM_ERROR) {
            rc = -1;
            break;
        }
        if (last && zr == Z_STREAM_END) deflateReset(&z);
    }
    deflateEnd(&z);
    free(chunk);
    return rc;
#else
    (void)r;
    (void)dst;
    (void)n;
    return -1;
#endif
}

/* ---- runs and periods ------------------------------------------------------------ */

/* Runs of one byte, 1 B to 64 KiB long, uniform in the logarithm of the
 * length: zero most often, then 0xFF, space and any byte; a few literal
 * bytes between some runs, as in sparse files and bitmaps. */
void xc_gen_runs(struct xc_rng *r, struct xc_sink *s)
{
    while (!xc_sink_full(s)) {
        uint32_t p = xc_rng_below(r, 100);
        unsigned byte = p < 45 ? 0 : p < 60 ? 0xFF : p < 70 ? ' ' : xc_rng_below(r, 256);
        fill(s, byte, xc_rng_loglen(r, 1, 65536));
        if (xc_rng_below(r, 4) == 0) {
            unsigned lits = 1 + xc_rng_below(r, 16);
            for (unsigned k = 0; k < lits; k++) xc_sink_u8(s, xc_rng_below(r, 256));
        }
    }
}

/* Segments of 256 B to 64 KiB, each repeating a pattern of 2 to 64 bytes
 * (letters or any bytes), with a byte changed now and then: none, one in
 * about 4096, 256 or 32. */
void xc_gen_periods(struct xc_rng *r, struct xc_sink *s)
{
    static const uint32_t spacing[] = {0, 4096, 256, 32};
    while (!xc_sink_full(s)) {
        uint8_t pattern[64];
        unsigned period = 2 + xc_rng_below(r, 63);
        uint32_t letters = xc_rng_below(r, 2);
        for (unsigned k = 0; k < period; k++)
            pattern[k] = (uint8_t)(letters ? 'a' + xc_rng_below(r, 26) : xc_rng_below(r, 256));
        size_t len = xc_rng_loglen(r, 256, 65536);
        uint32_t gap = spacing[xc_rng_below(r, 4)];
        size_t noise = gap ? 1 + xc_rng_below(r, 2 * gap) : (size_t)-1;
        for (size_t i = 0; i < len && !xc_sink_full(s); i++) {
            unsigned b = pattern[i % period];
            if (i == noise) {
                b = xc_rng_below(r, 256);
                noise += 1 + xc_rng_below(r, 2 * gap);
            }
            xc_sink_u8(s, b);
        }
    }
}

/* ---- mixed, with far repeats --------------------------------------------------------- */

#define FAR_BACK ((size_t)1 << 20)

/* Segments of text, logs, machine code, database pages and random bytes,
 * and, once more than 1 MiB is written, copies (4 to 256 KiB, with a byte
 * changed every few KiB) of what lies 1 MiB or more back: a backup or an
 * archive where files recur.  Below 1 MiB of output there is nothing that
 * far back, and no copies. */
void xc_gen_mixed(struct xc_rng *r, struct xc_sink *s)
{
    static const xc_corpus_gen_fn kinds[] = {xc_gen_text,     xc_gen_logs,   xc_gen_exec,
                                             xc_gen_database, xc_gen_random, xc_gen_json};
    while (!xc_sink_full(s)) {
        uint32_t p = xc_rng_below(r, 10);
        if (p < 3 && s->pos >= FAR_BACK + 4096) {
            size_t len = xc_rng_loglen(r, 4096, 262144);
            size_t dist = FAR_BACK + (size_t)(xc_rng_next(r) % (s->pos - FAR_BACK + 1));
            if (len > s->n - s->pos) len = s->n - s->pos;
            memcpy(s->d + s->pos, s->d + s->pos - dist, len);
            for (size_t e = xc_rng_loglen(r, 256, 4096); e < len; e += xc_rng_loglen(r, 256, 4096))
                s->d[s->pos + e] ^= (uint8_t)(1 + xc_rng_below(r, 255));
            s->pos += len;
        } else {
            size_t len = xc_rng_loglen(r, 1024, 65536);
            if (len > s->n - s->pos) len = s->n - s->pos;
            struct xc_rng sub = {xc_rng_next(r)};
            struct xc_sink part = {s->d + s->pos, len, 0};
            kinds[xc_rng_skewed(r, 6)](&sub, &part);
            s->pos += len;
        }
    }
}
