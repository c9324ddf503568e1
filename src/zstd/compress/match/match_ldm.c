/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Long-distance matching: repeats that lie further back than the ordinary
 * finders' tables reach (hundreds of megabytes), found in one pass with a
 * small table.
 *
 * Sampling.  A rolling "gear" hash runs over the input: h = 2h + G[byte],
 * with G a table of 256 pseudo-random 64-bit words.  Bit k of h depends on
 * the last k + 1 bytes only (older bytes have been shifted out above it),
 * so a test of bits [m - r, m) of h, m = min(min_match, 64), depends on the
 * last m bytes alone and passes about once every 2^r positions.  Where it
 * passes, the min_match bytes ending there are a sample.  The choice is a
 * property of the content, not of where it sits, so the two copies of a
 * repeated stretch are sampled at the same places, however far apart.
 *
 * The table.  A sample is stored under the XXH64 of its bytes: the low bits
 * choose a bucket of 2^bucket_log entries, each entry holds the sample's
 * index and the hash's high 32 bits as a checksum; a new sample replaces
 * the oldest entry of its bucket (entries of earlier frames are older than
 * any of this one, so they go first and need no clearing).  At each sample the entries of its bucket with the
 * same checksum, inside the window, are tried: the longest match forward
 * from the sample (at least min_match bytes) and backward from it (down to
 * the end of the previous long match) wins.  Stretches covered by a match
 * are neither sampled nor searched; when a match runs to the end of the
 * block, the next block first tries to continue it at the same offset,
 * since the next sample may be a hundred bytes in.
 *
 * Between the long matches, the strategy's finder parses the gaps as if
 * each were a block, so it also finds the short matches there and keeps
 * the repeat offsets; each long match is then stored after the literals
 * the finder left, coded as a repeat offset when it is one (RFC 8878
 * §3.1.2.5), so the offsets stay exactly what the decoder will compute.
 * This is how libzstd combines the two for its non-optimal strategies.
 *
 * Every step works on bytes and indices only, so the frames are the same
 * on every ISA and byte order.
 *
 * What it may call: the match state and searches (compress/match/).
 */
#include <stdlib.h>

#include "zstd/compress/match/match_ldm.h"

/* libzstd's defaults: samples of 64 bytes, buckets of 8 entries, a table
 * of 2^(window_log - 7) entries, about one sample in 2^(window_log -
 * hash_log) positions (so the table covers the window about once). */
#define LDM_MIN_MATCH_DEFAULT 64
#define LDM_BUCKET_LOG_DEFAULT 3
#define LDM_HASH_RLOG 7

/* Continuing a long match into the next block pays from this length. */
#define LDM_CONTINUE_MIN 8

typedef struct {
    uint32_t index;
    uint32_t check;
} ldm_entry;

struct xc_zldm_s {
    xc_zldm_params p;
    uint64_t stop_mask;
    ldm_entry *table;   /* 2^hash_log entries */
    size_t mem_bytes;   /* of the table */
    uint32_t frame_low; /* index of the frame's first byte */
    uint32_t high;      /* every index in the table is below this */
    uint32_t fed;       /* bytes below this index have been fed to the hash */
    uint32_t anchor;    /* end of the last long match */
    uint32_t carry_off; /* offset of a long match that ran to the end of its block, or 0 */
    int started;        /* the frame's first block has been seen */
    uint64_t h;
    uint64_t gear[256];
};

/* ---- settings ---------------------------------------------------------------------- */

xc_zldm_params xc_zldm_params_for(const xc_zstd_cctx *c, const xc_zstd_cparams *p)
{
    xc_zldm_params lp;
    memset(&lp, 0, sizeof lp);
    int const enable = c ? c->ldm_enable : 0;
    lp.on = enable == 1 || (enable == 0 && p->strategy >= XC_ZSTRAT_BTOPT &&
                            p->window_log >= XC_ZLDM_WINDOW_LOG);
    if (!lp.on) return lp;
    if (c) {
        lp.min_match = c->ldm_min_match;
        lp.hash_log = c->ldm_hash_log;
        lp.rate_log = c->ldm_rate_log;
        lp.bucket_log = c->ldm_bucket_log;
    }
    if (!lp.min_match) lp.min_match = LDM_MIN_MATCH_DEFAULT;
    if (!lp.hash_log)
        lp.hash_log = XC_MAX(XC_ZLDM_HASH_LOG_MIN, p->window_log - XC_MIN(p->window_log,
                                                                          LDM_HASH_RLOG));
    if (!lp.rate_log) lp.rate_log = p->window_log > lp.hash_log ? p->window_log - lp.hash_log : 0;
    if (!lp.bucket_log) lp.bucket_log = LDM_BUCKET_LOG_DEFAULT;
    lp.bucket_log = XC_MIN(lp.bucket_log, lp.hash_log);
    return lp;
}

size_t xc_zldm_set(xc_zstd_cctx *c, int param, int value)
{
    /* 0 is "the default" for every one of them. */
    int lo = 0, hi = 0;
    unsigned *field = NULL;
    switch (param) {
    case XC_ZSTD_C_LONG_DISTANCE:
        RETURN_ERROR_IF(value < 0 || value > 2, BAD_PARAMETER);
        c->ldm_enable = value;
        return 0;
    case XC_ZSTD_C_LDM_HASH_LOG:
        lo = XC_ZLDM_HASH_LOG_MIN, hi = XC_ZLDM_HASH_LOG_MAX, field = &c->ldm_hash_log;
        break;
    case XC_ZSTD_C_LDM_MIN_MATCH:
        lo = XC_ZLDM_MIN_MATCH_MIN, hi = XC_ZLDM_MIN_MATCH_MAX, field = &c->ldm_min_match;
        break;
    case XC_ZSTD_C_LDM_BUCKET_LOG:
        lo = XC_ZLDM_BUCKET_LOG_MIN, hi = XC_ZLDM_BUCKET_LOG_MAX, field = &c->ldm_bucket_log;
        break;
    case XC_ZSTD_C_LDM_HASH_RATE_LOG:
        lo = 0, hi = XC_ZLDM_RATE_LOG_MAX, field = &c->ldm_rate_log;
        break;
    default:
        return XC_ERROR(BAD_PARAMETER);
    }
    RETURN_ERROR_IF(value != 0 && (value < lo || value > hi), BAD_PARAMETER);
    *field = (unsigned)value;
    return 0;
}

/* ---- state ------------------------------------------------------------------------- */

static size_t table_bytes(const xc_zldm_params *lp)
{
    return (size_t)sizeof(ldm_entry) << lp->hash_log;
}

size_t xc_zldm_bytes(const xc_zldm_params *lp)
{
    return lp->on ? sizeof(xc_zldm) + table_bytes(lp) : 0;
}

size_t xc_zldm_held(const xc_zldm *l) { return l ? sizeof *l + l->mem_bytes : 0; }

void xc_zldm_free(xc_zldm *l)
{
    if (!l) return;
    free(l->table);
    free(l);
}

/* The gear table: SplitMix64's outputs, which are well mixed in every bit
 * (the sampling test looks at a few middle bits of sums of them). */
static void fill_gear(uint64_t g[256])
{
    uint64_t s = 0x6A09E667F3BCC909ull;
    for (unsigned i = 0; i < 256; i++) {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        g[i] = z ^ (z >> 31);
    }
}

size_t xc_zldm_frame_begin(xc_zstd_cctx *c, const xc_zstd_cparams *p, const uint8_t *buf)
{
    xc_zldm_params const lp = xc_zldm_params_for(c, p);
    c->ldm_on = lp.on;
    if (!lp.on) return 0;
    if (!c->ldm) {
        c->ldm = (xc_zldm *)calloc(1, sizeof *c->ldm);
        RETURN_ERROR_IF(!c->ldm, OUT_OF_MEMORY);
        fill_gear(c->ldm->gear);
    }
    xc_zldm *const l = c->ldm;
    size_t const need = table_bytes(&lp);
    if (l->mem_bytes < need) {
        free(l->table);
        l->mem_bytes = 0;
        l->high = 0;
        l->table = (ldm_entry *)malloc(need);
        RETURN_ERROR_IF(!l->table, OUT_OF_MEMORY);
        l->mem_bytes = need;
        memset(l->table, 0, need);
    }
    (void)buf;
    l->p = lp;
    {
        unsigned const bits = XC_MIN(lp.min_match, 64u);
        unsigned const rate = XC_MIN(lp.rate_log, bits);
        l->stop_mask = rate ? (((uint64_t)1 << (rate - 1) << 1) - 1) << (bits - rate) : 0;
    }
    l->started = 0;
    return 0;
}

/* At the frame's first block, when the match state is final (a dictionary
 * may have placed its content below the frame and moved the indices):
 * history starts at c->ms.start.  Entries of earlier frames are below it
 * and never match, unless the indices started over. */
static void start_frame(xc_zldm *l, const xc_zmatch_state *ms)
{
    uint32_t const start = ms->start;
    if (l->high > start) memset(l->table, 0, table_bytes(&l->p));
    l->frame_low = start;
    l->high = start;
    l->fed = start;
    l->anchor = start;
    l->carry_off = 0;
    l->h = 0;
    l->started = 1;
}

void xc_zldm_rebase(xc_zldm *l, uint32_t shift)
{
    size_t const n = (size_t)1 << l->p.hash_log;
    for (size_t i = 0; i < n; i++)
        l->table[i].index = l->table[i].index > shift ? l->table[i].index - shift : 0;
#define LDM_DOWN(x) ((x) = (x) > shift ? (x) - shift : 0)
    LDM_DOWN(l->frame_low);
    LDM_DOWN(l->high);
    LDM_DOWN(l->fed);
    LDM_DOWN(l->anchor);
#undef LDM_DOWN
}

/* ---- matching ---------------------------------------------------------------------- */

typedef struct {
    uint32_t start, len, off;
} ldm_match;

/* Restarts the rolling hash at index pos, as if it had run all along: the
 * test reads bits that depend on the last 64 bytes at most. */
static void hash_restart(xc_zldm *l, const uint8_t *base, uint32_t pos, uint32_t low)
{
    uint32_t from = pos > low + 64 ? pos - 64 : low;
    uint64_t h = 0;
    for (uint32_t i = from; i < pos; i++) h = (h << 1) + l->gear[base[i]];
    l->h = h;
    l->fed = pos;
}

/* Replaces the oldest entry of the bucket (the first of equals). */
static void insert(xc_zldm *l, ldm_entry *bucket, uint32_t index, uint32_t check)
{
    unsigned const entries = 1u << l->p.bucket_log;
    unsigned k = 0;
    for (unsigned e = 1; e < entries; e++)
        if (bucket[e].index < bucket[k].index) k = e;
    bucket[k].index = index;
    bucket[k].check = check;
    if (index >= l->high) l->high = index + 1;
}

/* Samples are gathered this many at a time, their buckets prefetched, and
 * only then searched: the table is megabytes large and nearly every bucket
 * is a cache miss, which a batch overlaps instead of waiting for each. */
#define LDM_BATCH 32

/* Feeds the hash from l->fed up to index end and returns at the first
 * sample that yields a match starting at or after `anchor`: its start,
 * length (not past end) and offset, with sources at indices >= low.
 * Samples start at indices >= readable.  After a match l->fed is the end
 * of its sample and l->h is stale: the caller restarts the hash at the
 * match's end (which is not below l->fed). */
static int find_match(xc_zldm *l, const uint8_t *base, uint32_t anchor, uint32_t end,
                      uint32_t low, uint32_t readable, ldm_match *m)
{
    unsigned const mm = l->p.min_match;
    unsigned const hbits = l->p.hash_log - l->p.bucket_log;
    size_t const hmask = ((size_t)1 << hbits) - 1;
    unsigned const entries = 1u << l->p.bucket_log;
    uint64_t const stop = l->stop_mask;
    const uint64_t *const gear = l->gear;
    const uint8_t *const iend = base + end;
    uint32_t const first = readable + mm; /* the first sample ends here */
    uint64_t h = l->h;
    uint32_t pos = l->fed;

    while (pos < end) {
        uint32_t at[LDM_BATCH];
        uint32_t check[LDM_BATCH];
        size_t bucket_of[LDM_BATCH];
        unsigned n = 0;
        /* The hash is one add after another; four bytes per round keep the
         * loop's own checks off that chain. */
#define LDM_FEED()                                                                          \
    do {                                                                                    \
        h = (h << 1) + gear[base[pos++]];                                                   \
        if (XC_UNLIKELY((h & stop) == 0)) at[n++] = pos;                                    \
    } while (0)
        while (end - pos >= 4 && n <= LDM_BATCH - 4) {
            LDM_FEED();
            LDM_FEED();
            LDM_FEED();
            LDM_FEED();
        }
        while (pos < end && n < LDM_BATCH) LDM_FEED();
#undef LDM_FEED
        /* Samples that would start before the readable bytes (only at the
         * start of a frame or of the window buffer) are dropped. */
        if (XC_UNLIKELY(n && at[0] < first)) {
            unsigned k = 0;
            for (unsigned i = 0; i < n; i++)
                if (at[i] >= first) at[k++] = at[i];
            n = k;
        }
        for (unsigned i = 0; i < n; i++) {
            uint64_t const x = xc_xxh64(base + at[i] - mm, mm, 0);
            bucket_of[i] = (size_t)x & hmask;
            check[i] = (uint32_t)(x >> 32);
            XC_PREFETCH(l->table + (bucket_of[i] << l->p.bucket_log));
        }
        for (unsigned i = 0; i < n; i++) {
            uint32_t const s = at[i] - mm;
            ldm_entry *const bucket = l->table + (bucket_of[i] << l->p.bucket_log);
            if (s < anchor) {
                insert(l, bucket, s, check[i]);
                continue;
            }
            size_t best = 0, best_back = 0;
            uint32_t best_idx = 0;
            for (unsigned e = 0; e < entries; e++) {
                uint32_t const cand = bucket[e].index;
                if (bucket[e].check != check[i] || cand < low || cand >= s) continue;
                size_t const fwd = xc_zcount(base + s, base + cand, iend);
                if (fwd < mm) continue;
                size_t back = 0;
                while (s - back > anchor && cand - back > low &&
                       base[s - back - 1] == base[cand - back - 1])
                    back++;
                /* Which slot an entry sits in depends on what the bucket
                 * held before this frame: break ties by position. */
                if (fwd + back > best || (fwd + back == best && cand > best_idx)) {
                    best = fwd + back;
                    best_back = back;
                    best_idx = cand;
                }
            }
            insert(l, bucket, s, check[i]);
            if (best) {
                m->start = s - (uint32_t)best_back;
                m->len = (uint32_t)best;
                m->off = s - best_idx;
                l->fed = at[i];
                return 1;
            }
        }
    }
    l->h = h;
    l->fed = pos;
    return 0;
}

/* The Offset_Value of a match at distance off after lit_len literals, with
 * rep[] moved as the decoder will move it (RFC 8878 §3.1.2.5, format.h). */
static uint32_t code_offset(uint32_t rep[3], size_t lit_len, uint32_t off)
{
    uint32_t const off_value = xc_zstd_rep_code(rep, off, lit_len == 0);
    xc_zstd_rep_next(rep, rep, off_value, lit_len == 0);
    return off_value;
}

/* Parses src[0..gap) with the strategy's finder (too short a gap is all
 * literals, which also spares finders inputs they were not written for)
 * and returns the literals it leaves at the end. */
static size_t parse_gap(xc_zstd_cctx *c, uint32_t rep[3], const uint8_t *src, size_t gap)
{
    if (gap < XC_ZSTD_HASH_READ + 4) return gap;
    /* Finders that insert every position from next_to_update on would
     * first insert all of a long match: only its last few hundred bytes
     * are worth it (libzstd limits the update the same way). */
    xc_zmatch_state *const ms = &c->ms;
    uint32_t const cur = (uint32_t)(src - ms->base);
    if (cur > ms->next_to_update + 1024)
        ms->next_to_update = cur - XC_MIN(512u, cur - ms->next_to_update - 1024);
    return c->finder(ms, &c->ss, rep, src, gap);
}

static void store_match(xc_zstd_cctx *c, uint32_t rep[3], size_t lits, const uint8_t *mstart,
                        const uint8_t *iend, uint32_t off, size_t len)
{
    xc_zcursor out = xc_zcursor_open(&c->ss);
    uint32_t const off_value = code_offset(rep, lits, off);
    xc_zput_seq(&out, lits, mstart - lits, iend, off_value, len);
    xc_zcursor_close(&c->ss, out);
}

size_t xc_zldm_block(xc_zstd_cctx *c, uint32_t rep[3], const uint8_t *src, size_t size)
{
    xc_zldm *const l = c->ldm;
    const uint8_t *const base = c->ms.base;
    const uint8_t *const iend = src + size;
    uint32_t const bstart = (uint32_t)(src - base);
    uint32_t const bend = bstart + (uint32_t)size;
    ldm_match m;
    if (!l->started) {
        start_frame(l, &c->ms);
        /* History placed before the frame's first block (a dictionary's
         * content, a prefix, a worker's overlap) goes into the table as
         * the frame's own bytes would: every sample inserted, none searched
         * (they all start before the anchor). */
        if (bstart > l->frame_low) {
            l->anchor = bstart;
            find_match(l, base, bstart, bstart, l->frame_low, l->frame_low, &m);
        }
    }
    /* Bytes below `readable` may be gone (a slid stream buffer) or belong
     * to something else than this frame; sources must also be in the
     * window as measured from the block's end. */
    uint32_t const readable = XC_MAX(c->ms.start, l->frame_low);
    uint32_t const low = XC_MAX(xc_zwindow_low(&c->ms, bend), readable);
    uint32_t const carry = l->carry_off;
    const uint8_t *ip = src; /* everything before ip is in sequences or left to them */

    if (l->fed != bstart) hash_restart(l, base, bstart, readable);
    if (l->anchor < bstart) l->anchor = bstart;
    l->carry_off = 0;

    /* A long match that ran to the end of the previous block likely goes
     * on.  Its offset passed the window test there; it must pass it again
     * from this block's end. */
    if (carry && l->anchor == bstart && bstart >= low && bstart - low >= carry) {
        size_t const len = xc_zcount(src, src - carry, iend);
        if (len >= LDM_CONTINUE_MIN) {
            store_match(c, rep, 0, src, iend, carry, len);
            ip = src + len;
            l->anchor = bstart + (uint32_t)len;
            if (l->anchor < bend)
                hash_restart(l, base, l->anchor, readable);
            else
                l->carry_off = carry, l->fed = bend;
        }
    }

    while (l->fed < bend && find_match(l, base, l->anchor, bend, low, readable, &m)) {
        const uint8_t *const mstart = base + m.start;
        size_t const lits = parse_gap(c, rep, ip, (size_t)(mstart - ip));
        store_match(c, rep, lits, mstart, iend, m.off, m.len);
        ip = mstart + m.len;
        l->anchor = m.start + m.len;
        if (l->anchor < bend) {
            hash_restart(l, base, l->anchor, readable);
        } else {
            l->carry_off = m.off;
            l->fed = bend;
        }
    }
    if (ip == iend) return 0;
    return parse_gap(c, rep, ip, (size_t)(iend - ip));
}
