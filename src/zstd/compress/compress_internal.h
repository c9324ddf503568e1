/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd encoder's internal structures: compression parameters, the
 * match state every match finder works on, the sequence store that match
 * finders fill and the block encoder empties, the entropy state carried
 * from block to block, and the compression context.
 *
 * Indices.  Match finders remember positions as 32-bit indices: index i is
 * the byte ms->base[i].  A frame's first byte has index ms->start (>= 1),
 * and every index below start is invalid: table entries left from earlier
 * frames are all below it, so a context reused for the next frame starts
 * that frame's indices after the last one's instead of clearing its tables
 * (clearing megabytes of tables would dominate small inputs), and a freshly
 * zeroed table holds only invalid entries.  Results therefore do not depend
 * on what the context did before.  (As in libzstd, base itself may point
 * before the buffer; only base + i for valid indices is ever dereferenced.)
 * When indices would grow too large (one-shot inputs of gigabytes) or the
 * stream buffer slides, xc_zstd_ms_rebase() subtracts the same amount from
 * every table entry and the caller moves base (or the data) to match.
 *
 * The window.  A block whose last byte has index end - 1 may only take
 * matches at indices >= max(start, end - window), which keeps every offset
 * below the window size declared in the frame header.  Repeat offsets are
 * checked against start only: they never exceed the window (a repeat offset
 * is an offset used before, or one of the initial 1, 4, 8), so what matters
 * is that their bytes belong to the frame.
 *
 * Sequences.  A sequence is stored as the decoder will read it: literal
 * length, match length, and the Offset_Value of RFC 8878 §3.1.1.3.2.1 (1..3
 * a repeat offset, as interpreted with the literal length: when it is 0 the
 * repeat codes shift by one, §3.1.2.5; otherwise offset + 3).  Match finders
 * keep their repeat offsets exactly as the decoder will, so the block
 * encoder never reinterprets anything.
 */
#ifndef XC_ZSTD_COMPRESS_INTERNAL_H
#define XC_ZSTD_COMPRESS_INTERNAL_H

#include "xc_internal.h"
#include "zstd/entropy/entropy_encode.h"
#include "zstd/common/format.h"
#include "zstd/common/xxh64.h"

/* ---- parameters ------------------------------------------------------------ */

enum {
    XC_ZSTRAT_FAST = 1,
    XC_ZSTRAT_DFAST = 2,
    XC_ZSTRAT_GREEDY = 3,
    XC_ZSTRAT_LAZY = 4,
    XC_ZSTRAT_LAZY2 = 5,
    XC_ZSTRAT_BTLAZY2 = 6,
    XC_ZSTRAT_BTOPT = 7,
    XC_ZSTRAT_BTULTRA = 8,
    XC_ZSTRAT_BTULTRA2 = 9,
    XC_ZSTRAT_MAX = 9
};

#define XC_ZSTD_LEVEL_MIN (-7)
#define XC_ZSTD_LEVEL_MAX 22
#define XC_ZSTD_LEVEL_DEFAULT 3

/* Ranges of the parameters a caller may set (xcodec.h). */
#define XC_ZSTD_HASHLOG_MIN 6
#define XC_ZSTD_HASHLOG_MAX 30
#define XC_ZSTD_CHAINLOG_MIN 6
#define XC_ZSTD_CHAINLOG_MAX 30
#define XC_ZSTD_SEARCHLOG_MIN 1
#define XC_ZSTD_SEARCHLOG_MAX 30
#define XC_ZSTD_MINMATCH_MIN 3
#define XC_ZSTD_MINMATCH_MAX 7
#define XC_ZSTD_TARGETLEN_MAX 131072

typedef struct {
    unsigned window_log;
    unsigned chain_log;
    unsigned hash_log;
    unsigned search_log;
    unsigned min_match;
    unsigned target_length; /* fast strategy: the acceleration of negative levels */
    unsigned strategy;
} xc_zstd_cparams;

/* "Unknown source size" for the parameter functions. */
#define XC_ZSTD_SIZE_UNKNOWN UINT64_MAX

/* compress_levels.c: the parameters of a level for a source of src_size bytes
 * (XC_ZSTD_SIZE_UNKNOWN when not known), already adapted to that size.
 * level is within [XC_ZSTD_LEVEL_MIN, XC_ZSTD_LEVEL_MAX]; 0 is the default. */
XC_HIDDEN xc_zstd_cparams xc_zstd_level_params(int level, uint64_t src_size);

/* compress_levels.c: shrinks the window to the source (never below 2^10) and
 * caps the hash and chain logs by the window, as a source of src_size bytes
 * needs no more; then replaces a strategy this build lacks by the nearest
 * one below it.  Unknown sizes leave the parameters as they are. */
XC_HIDDEN xc_zstd_cparams xc_zstd_adapt_params(xc_zstd_cparams p, uint64_t src_size);

/* p with every parameter the caller set explicitly in req (those not 0)
 * in place of its own: a context's settings on top of a level's. */
static inline xc_zstd_cparams xc_zstd_override_params(xc_zstd_cparams p,
                                                      const xc_zstd_cparams *req)
{
    if (req->window_log) p.window_log = req->window_log;
    if (req->chain_log) p.chain_log = req->chain_log;
    if (req->hash_log) p.hash_log = req->hash_log;
    if (req->search_log) p.search_log = req->search_log;
    if (req->min_match) p.min_match = req->min_match;
    if (req->target_length) p.target_length = req->target_length;
    if (req->strategy) p.strategy = req->strategy;
    return p;
}

/* ---- sequences --------------------------------------------------------------- */

typedef struct {
    uint32_t lit_len;
    uint32_t match_len; /* >= 3 */
    uint32_t off_value; /* Offset_Value: 1..3 repeat codes, offset + 3 otherwise */
} xc_zseq;

/* Literals are copied 16 bytes at a time and may spill this far past the
 * last one; the literal buffer has that much room to spare. */
#define XC_ZSTD_LIT_SLACK 32

typedef struct {
    xc_zseq *seq;      /* the sequences of the block so far */
    size_t nb_seq;
    uint8_t *lit;      /* literals of the block, in order */
    uint8_t *lit_end;  /* where the next literal goes */
    /* The three code streams, filled by the block encoder. */
    uint8_t *ll_code;
    uint8_t *ml_code;
    uint8_t *of_code;
} xc_zseqstore;

/* How far ahead of a position match finders read to hash it: they stop
 * that many bytes before the end of the block and leave the rest as
 * literals, so that 8-byte loads never leave the input. */
#define XC_ZSTD_HASH_READ 8

static inline void xc_zwildcopy16(uint8_t *dst, const uint8_t *src, size_t n)
{
    uint8_t *const end = dst + n;
    do {
        memcpy(dst, src, 16);
        dst += 16;
        src += 16;
    } while (dst < end);
}

/* Finders append through a cursor held in local variables (so that the
 * compiler keeps it in registers instead of reloading the store's fields
 * after every literal copy, which may alias them), opened at the start of a
 * block and closed at the end. */
typedef struct {
    xc_zseq *seq;
    uint8_t *lit;
} xc_zcursor;

static inline xc_zcursor xc_zcursor_open(const xc_zseqstore *ss)
{
    xc_zcursor c;
    c.seq = ss->seq + ss->nb_seq;
    c.lit = ss->lit_end;
    return c;
}

static inline void xc_zcursor_close(xc_zseqstore *ss, xc_zcursor c)
{
    ss->nb_seq = (size_t)(c.seq - ss->seq);
    ss->lit_end = c.lit;
}

/* Appends a sequence and its literals lits[0..lit_len).  lit_limit is the
 * end of the readable input: literals that end at least 16 bytes before it
 * are copied in 16-byte blocks, which may read past them but never past
 * lit_limit, and may write past them into the buffer's slack. */
XC_FORCE_INLINE void xc_zput_seq(xc_zcursor *c, size_t lit_len, const uint8_t *lits,
                                 const uint8_t *lit_limit, uint32_t off_value, size_t match_len)
{
    uint8_t *const op = c->lit;
    if (XC_LIKELY(lits + lit_len + 16 <= lit_limit)) {
        memcpy(op, lits, 16);
        if (XC_UNLIKELY(lit_len > 16)) xc_zwildcopy16(op + 16, lits + 16, lit_len - 16);
    } else {
        memcpy(op, lits, lit_len);
    }
    c->lit = op + lit_len;
    c->seq->lit_len = (uint32_t)lit_len;
    c->seq->match_len = (uint32_t)match_len;
    c->seq->off_value = off_value;
    c->seq++;
}

static inline void xc_zstore_last_literals(xc_zseqstore *ss, const uint8_t *lits, size_t n)
{
    memcpy(ss->lit_end, lits, n);
    ss->lit_end += n;
}

/* ---- the match state and the match finder interface ---------------------- */

typedef struct {
    const uint8_t *base;      /* index i is base[i] */
    uint32_t start;           /* index of the frame's first byte; lower ones are invalid */
    uint32_t *hash_table;     /* 1 << hash_log entries */
    uint32_t *chain_table;    /* 1 << chain_log entries (dfast: the short hash) */
    size_t hash_size;         /* entries in each, 0 when absent */
    size_t chain_size;
    uint32_t next_to_update;  /* first index not yet inserted (strategies that insert lazily) */
    uint32_t hash_cache[8];   /* hashes of positions just ahead, by index % 8 (match_lazy.c) */
    /* Row-based search (match_search_row.h): 0, or the log of the cells per
     * row, with a tag byte per cell of hash_table and a head per row. */
    unsigned row_log;
    uint8_t *tag_table;
    uint8_t *row_heads;
    xc_zstd_cparams p;
    /* The optimal parsers (btopt and up, min_match 3): heads of 3-byte
     * hashes (1 << hash3_log entries, in the tables), and the parser's
     * statistics and work area (match_opt_price.h), kept between frames. */
    uint32_t *hash3_table;
    size_t hash3_size;
    unsigned hash3_log;
    struct xc_zopt_s *opt;
    /* A prepared dictionary searched in place (match_fast_dict.c), or NULL. */
    const xc_zstd_cdict *dict;
} xc_zmatch_state;

/* Finders start on a 64-byte boundary, so that their loops sit at the same
 * place relative to the fetch windows in every program that links the
 * library.  Placed at 48 bytes past a boundary by one program's link, the
 * lazy2 finder ran sum (38 KB) at level 7 0.84-0.90x libzstd's speed; at a
 * boundary, 0.95-1.05x. */
#define XC_ZFINDER_ALIGN XC_ALIGNED(64)
#define XC_ZFINDER_ARGS                                                                     \
    xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3], const uint8_t *src, size_t size

/* A match finder parses src[0..size), a block whose bytes are at indices
 * src - ms->base onwards and whose history is everything before it in the
 * window.  It appends sequences to ss (without the trailing literals),
 * updates rep[0..2] exactly as the decoder will after these sequences, and
 * returns the number of literals left after the last sequence.  size is at
 * most one block; the caller stores those literals. */
typedef size_t (*xc_zstd_block_fn)(xc_zmatch_state *ms, xc_zseqstore *ss, uint32_t rep[3],
                                   const uint8_t *src, size_t size);

/* match_fill.c: insert every position from ms->next_to_update to the last
 * one whose 8 hashed bytes end by iend into the search structure (hash
 * chains, rows, binary trees), so that a block starting at iend finds them
 * as matches: for history such as a dictionary placed at [ms->start, iend).
 * xc_zstd_fill_search() calls the one the match state's strategy uses
 * (greedy, lazy, lazy2, btlazy2; nothing for the others). */
XC_HIDDEN void xc_zstd_fill_hc(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN void xc_zstd_fill_row(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN void xc_zstd_fill_bt(xc_zmatch_state *ms, const uint8_t *iend);
XC_HIDDEN void xc_zstd_fill_search(xc_zmatch_state *ms, const uint8_t *iend);

/* match_fill.c: inserts every position from ms->next_to_update up to the
 * last one whose hash can be read before iend into the binary tree (and
 * the 3-byte hash heads) of the optimal parsers, so that a block starting
 * at iend finds them as history; for dictionary content loaded ahead of a
 * frame.  The match state must be set up for btopt, btultra or btultra2. */
XC_HIDDEN void xc_zstd_fill_bt_opt(xc_zmatch_state *ms, const uint8_t *iend);

/* The log of the 3-byte hash table the optimal parsers use with
 * min_match 3 (0 when none): up to 128 Ki heads, fewer for small windows. */
static inline unsigned xc_zstd_hash3_log(const xc_zstd_cparams *p)
{
    if (p->strategy < XC_ZSTRAT_BTOPT || p->min_match != 3) return 0;
    return XC_MIN(17u, p->window_log);
}

/* Subtracts shift from every table entry (entries below it become 0), for
 * a caller that is about to move base forward by shift bytes or the data
 * back by as many. */
XC_HIDDEN void xc_zstd_ms_rebase(xc_zmatch_state *ms, uint32_t shift);

/* The state of the searching finders (greedy, lazy, lazy2, btlazy2), copied
 * from the match state into a local variable for the length of a block.
 * Table writes go through uint8_t and uint32_t pointers, which the compiler
 * must assume may alias the match state's fields; a local copy whose
 * address never escapes cannot be aliased, so its fields stay in registers
 * instead of being reloaded after every store. */
typedef struct {
    const uint8_t *base;
    uint32_t *table;      /* hash_table: chain heads, or row cells */
    uint32_t *chain;      /* chain_table (hash chains) */
    uint8_t *tags;        /* tag_table (rows) */
    uint8_t *heads;       /* row_heads (rows) */
    uint32_t chain_size;
    unsigned hash_bits;   /* bits of the position hash */
    unsigned row_log;
    uint32_t start;
    uint32_t window;
    unsigned attempts;    /* 2^search_log */
    uint32_t next;        /* next_to_update */
    uint32_t cache[8];    /* hash_cache */
} xc_zsearch;

static inline void xc_zsearch_open(xc_zsearch *s, const xc_zmatch_state *ms)
{
    s->base = ms->base;
    s->table = ms->hash_table;
    s->chain = ms->chain_table;
    s->tags = ms->tag_table;
    s->heads = ms->row_heads;
    s->chain_size = (uint32_t)ms->chain_size;
    s->row_log = ms->row_log;
    s->hash_bits = ms->row_log ? ms->p.hash_log - ms->row_log + 8 : ms->p.hash_log;
    s->start = ms->start;
    s->window = (uint32_t)1 << ms->p.window_log;
    s->attempts = 1u << XC_MIN(ms->p.search_log, 24u);
    s->next = ms->next_to_update;
    memcpy(s->cache, ms->hash_cache, sizeof s->cache);
}

static inline void xc_zsearch_close(const xc_zsearch *s, xc_zmatch_state *ms)
{
    ms->next_to_update = s->next;
    memcpy(ms->hash_cache, s->cache, sizeof s->cache);
}

/* Whether the parameters call for row-based search (as libzstd decides:
 * the greedy and lazy strategies, with windows above 16 KiB), and then the
 * log of the cells per row, else 0. */
static inline unsigned xc_zstd_row_log(const xc_zstd_cparams *p)
{
    if (p->strategy < XC_ZSTRAT_GREEDY || p->strategy > XC_ZSTRAT_LAZY2) return 0;
    if (p->window_log <= 14) return 0;
    return XC_MIN(XC_MAX(p->search_log, 4u), 6u);
}

/* The lowest index a match for the block ending before index end may take. */
static inline uint32_t xc_zwindow_low(const xc_zmatch_state *ms, uint32_t end)
{
    uint32_t const w = (uint32_t)1 << ms->p.window_log;
    uint32_t const low = end > w ? end - w : 0;
    return low > ms->start ? low : ms->start;
}

/* Bytes ip[0..) and match[0..) agree on, counting no further than iend
 * (where ip's readable input stops).  8 bytes at a time: the first byte
 * that differs is the lowest set byte of the XOR on a little-endian load,
 * the highest on a big-endian one, so the count is the same everywhere. */
XC_FORCE_INLINE size_t xc_zcount(const uint8_t *ip, const uint8_t *match, const uint8_t *iend)
{
    const uint8_t *const start = ip;
    while (XC_LIKELY(ip + 8 <= iend)) {
        uint64_t diff = xc_read64(ip) ^ xc_read64(match);
        if (diff) {
            unsigned bits = XC_BIG_ENDIAN ? xc_clz64(diff) : xc_ctz64(diff);
            return (size_t)(ip - start) + (bits >> 3);
        }
        ip += 8;
        match += 8;
    }
    while (ip < iend && *ip == *match) {
        ip++;
        match++;
    }
    return (size_t)(ip - start);
}

/* Repeat offsets that point before index 0 at the start of a block (the
 * initial 1, 4, 8 at the very start of a frame) must not be tried, so the
 * fast finders replace them by 0, which their checks skip, and put them back
 * at the end of the block: restore them here.  The finders only ever push a
 * new offset in front (r0, r1, r2 = new, r0, r1) or swap r0 and r1 when r1
 * is nonzero, so the zeros keep their original order (the one from rep[0]
 * ahead of the one from rep[1]) and the last zero to fall off is rep[1]'s.
 * Hence: hand the disabled values back to the zeros in order. */
static inline void xc_zrep_restore(uint32_t rep[3], uint32_t r0, uint32_t r1, uint32_t r2,
                                   uint32_t off0, uint32_t off1)
{
    uint32_t out[3] = {r0, r1, r2};
    uint32_t pending[2];
    unsigned np = 0, next = 0;
    if (off0) pending[np++] = off0;
    if (off1) pending[np++] = off1;
    for (unsigned i = 0; i < 3; i++)
        if (out[i] == 0 && next < np) out[i] = pending[next++];
    rep[0] = out[0];
    rep[1] = out[1];
    rep[2] = out[2];
}

/* Hash of the first mls bytes at p (4 <= mls <= 8) into hlog bits.  The
 * bytes are read little-endian on every host and moved to the top of a
 * 64-bit word, where a multiplication by an odd constant mixes each of them
 * into the high bits that are kept: the same input hashes the same way on
 * every ISA and byte order. */
#define XC_ZHASH_PRIME 0x9E3779B185EBCA87ull

XC_FORCE_INLINE size_t xc_zhash(const uint8_t *p, unsigned hlog, unsigned mls)
{
    uint64_t v = xc_read_le64(p) << (64 - 8 * mls);
    return (size_t)((v * XC_ZHASH_PRIME) >> (64 - hlog));
}

/* ---- entropy state carried between blocks ---------------------------------- */

typedef struct {
    /* Two slots each: cur is the table the decoder holds (valid for the
     * repeat mode), the other receives a new table for the block being
     * encoded and becomes cur when that block is committed. */
    xc_huf_ctable huf[2];
    xc_fse_ctable fse[3][2];
    /* The distributions behind fse[][], to price the repeat mode. */
    int16_t norm[3][2][64];
    uint8_t norm_log[3][2];
    uint8_t norm_max[3][2];
    uint8_t huf_cur, huf_valid;
    uint8_t fse_cur[3], fse_valid[3];
    /* The predefined distributions' tables, built once per context. */
    xc_fse_ctable def[3];
} xc_zentropy;

/* match_opt_price.c: allocates the optimal parsers' state once (kept in
 * ms->opt until xc_zstd_opt_free) and resets its statistics for a new
 * frame with parameters ms->p; ent is the context's entropy state, whose
 * tables seed the statistics when a dictionary loaded them.  Returns 0 or
 * XC_ERROR(OUT_OF_MEMORY). */
XC_HIDDEN size_t xc_zstd_opt_reserve(xc_zmatch_state *ms, const xc_zentropy *ent);
XC_HIDDEN void xc_zstd_opt_free(xc_zmatch_state *ms);

/* What a block changes in the entropy state when it is committed: a new
 * Huffman tree, and per sequence type (shifted by XC_SEQ_*) a new table or
 * one that may no longer be repeated. */
#define XC_ZCOMMIT_HUF 1u
#define XC_ZCOMMIT_FSE_NEW 2u   /* << type */
#define XC_ZCOMMIT_FSE_DROP 16u /* << type */

/* What a block may change in the state the decoder shares with the
 * encoder: the tables in force (the other slots are scratch), the repeat
 * offsets and the first-block flag.  The block splitter saves it to try a
 * split and return to the state before it (compress_block_split.c). */
typedef struct {
    xc_huf_ctable huf;
    xc_fse_ctable fse[3];
    int16_t norm[3][64];
    uint8_t norm_log[3], norm_max[3];
    uint8_t huf_cur, huf_valid;
    uint8_t fse_cur[3], fse_valid[3];
    uint32_t rep[3];
    int first_block;
} xc_zsplit_saved;

/* ---- the context --------------------------------------------------------------- */

enum {
    XC_ZSTAGE_IDLE = 0,   /* no frame in progress */
    XC_ZSTAGE_STREAM,     /* a streamed frame is in progress */
    XC_ZSTAGE_ERROR       /* an error happened: reset before reuse */
};

struct xc_zstd_cctx_s {
    /* Requested parameters: the level and explicit overrides (0 = from the
     * level), frame options. */
    int level;
    xc_zstd_cparams req;
    int checksum;
    int content_size_flag;
    int dict_id_flag;
    /* Long-distance matching (match_ldm.c): requested (0 = default; enable:
     * 0 auto, 1 on, 2 off), whether this frame uses it, and its state. */
    int ldm_enable;
    unsigned ldm_hash_log, ldm_min_match, ldm_bucket_log, ldm_rate_log;
    int ldm_on;
    struct xc_zldm_s *ldm;
    /* The block splitter (compress_block_split.c): requested (0 auto, 1 on,
     * 2 off), and the states it may return to while it compares a split
     * block with the whole. */
    int block_split;
    xc_zsplit_saved split_saved[2];

    /* ---- the frame being written ---- */
    xc_zstd_cparams p;        /* in force */
    xc_zstd_block_fn finder;
    size_t block_max;         /* min(128 KiB, window) */
    xc_zmatch_state ms;
    xc_zseqstore ss;
    xc_zentropy ent;
    uint32_t rep[3];
    int first_block;
    const struct xc_zstd_ckernels *kern; /* the hot loops cpucap chose (compress_kernels.h) */
    xc_xxh64_state xxh;
    uint64_t consumed;        /* source bytes of the frame so far */

    /* ---- memory, grown on demand and kept ---- */
    uint32_t *tables;
    size_t tables_cap;        /* entries */
    size_t tables_clean;      /* leading entries known to be below next_start */
    uint32_t next_start;      /* index the next frame starts at */
    void *seq_mem;            /* sequences, literals and codes of one block */
    uint8_t *lit_scratch;     /* Huffman streams when dst is short, in seq_mem */
    size_t seq_mem_block;     /* the block size seq_mem was sized for */

    /* ---- streaming (compress_stream.c) ---- */
    int stage;
    uint64_t pledged;         /* XC_ZSTD_SIZE_UNKNOWN when not pledged */
    int pledged_set;
    uint8_t *in_buf;          /* the window buffer: history and pending input */
    size_t in_cap;            /* allocated */
    size_t in_size;           /* in use for this frame */
    size_t in_fill;           /* bytes present */
    size_t in_done;           /* bytes already compressed */
    uint8_t *out_alloc;       /* the staging allocation */
    size_t out_alloc_cap;
    uint8_t *out_buf;         /* compressed bytes waiting for room (inside out_alloc) */
    size_t out_cap;
    size_t out_pos, out_end;
    int frame_ended;          /* the last block and checksum are in out_buf */

    /* ---- dictionary (compress_dict.c) ---- */
    const xc_zstd_cdict *cdict;    /* used by the next frames, or NULL */
    xc_zstd_cdict *own_cdict;      /* prepared from a loaded dictionary */
    uint32_t frame_dict_id;        /* the ID the header carries, 0 for none */
    uint64_t frame_no;             /* frames begun, see compress_dict.c */
    uint64_t held_content_key;     /* the dictionary whose content in_buf holds */
    uint64_t held_content_frame;
    size_t held_content_cap;
    uint64_t held_tables_key;      /* the dictionary whose tables `tables` holds */
    uint64_t held_tables_frame;
    const uint32_t *held_tables_at;
    int dict_tables_copied;        /* this frame began from a copy of the dictionary's tables */
    uint64_t held_entropy_key;     /* the dictionary whose tables the entropy slots in force hold */
    uint64_t held_entropy_frame;
    uint32_t held_entropy_slots;
};

/* ---- compress.c: the frame machinery shared with streaming ----------- */

/* The parameters a frame of src_size bytes (XC_ZSTD_SIZE_UNKNOWN) gets from
 * the context's level and overrides. */
XC_HIDDEN xc_zstd_cparams xc_zstd_cframe_params(const xc_zstd_cctx *c, uint64_t src_size);

/* Readies the context for a frame with parameters p: allocation, tables
 * with no valid entry, initial repeat offsets, no entropy tables to repeat,
 * checksum.  The frame's first byte will be buf[0], and its indices will
 * span at most `span` bytes from there.  Returns 0 or
 * XC_ERROR(OUT_OF_MEMORY). */
XC_HIDDEN size_t xc_zstd_cframe_begin(xc_zstd_cctx *c, const xc_zstd_cparams *p,
                                      const uint8_t *buf, size_t span);

/* compress_mem.c: the match tables a frame with parameters p needs,
 * in 32-bit words, laid out one after another in c->tables: the hash
 * table, the chain table (chains, trees, or dfast's short hash), the row
 * tags and heads of row-based search, the 3-byte hash of the optimal
 * parsers.  xc_zstd_cframe_begin() allocates from it and
 * xc_zstd_estimate_cctx_size() counts with it. */
typedef struct {
    size_t hash, chain, row, hash3;
    size_t total;
} xc_ztable_layout;
XC_HIDDEN xc_ztable_layout xc_zstd_table_layout(const xc_zstd_cparams *p);

/* compress_mem.c: points the tables of ms into `tables` (at least
 * xc_zstd_table_layout(p).total words) in that layout, and sets the
 * parameters and the row and 3-byte hash logs that go with it; the one
 * place that says where each table sits, for a context's frames
 * (xc_zstd_cframe_begin) and a prepared dictionary (cdict.c).  The indices
 * (base, start, next_to_update) and the ISA flag are the caller's. */
XC_HIDDEN void xc_zstd_ms_place_tables(xc_zmatch_state *ms, uint32_t *tables,
                                       const xc_zstd_cparams *p);

/* compress.c: bytes of the sequence store for blocks of `block` bytes
 * (one allocation, c->seq_mem). */
XC_HIDDEN size_t xc_zstd_block_mem_bytes(size_t block);

/* compress_mem.c: bytes the context holds now, itself included; each
 * allocation a context keeps is counted there (tests compare it with the
 * estimate). */
XC_HIDDEN size_t xc_zstd_cctx_mem_held(const xc_zstd_cctx *c);

/* Indices never exceed this; one-shot inputs beyond it are rebased as they
 * are compressed, and stream buffers are smaller.  (A test build may lower
 * it to exercise the rebasing on small inputs.) */
#ifndef XC_ZSTD_INDEX_LIMIT
#  define XC_ZSTD_INDEX_LIMIT (3u << 30)
#endif

/* Writes the frame header.  content_size is XC_ZSTD_SIZE_UNKNOWN when not
 * recorded.  Returns its size or XC_ERROR(DST_TOO_SMALL). */
XC_HIDDEN size_t xc_zstd_write_frame_header(const xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                            uint64_t content_size);

/* Compresses one block src[0..size) (size <= c->block_max, the bytes at
 * their indices in c->ms) into dst with its block header; last marks the
 * frame's last block.  Returns the bytes written or XC_ERROR(DST_TOO_SMALL). */
XC_HIDDEN size_t xc_zstd_compress_block(xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                        const uint8_t *src, size_t size, int last);

/* Writes the block src[0..size) whose sequences and literals c->ss holds
 * (when size >= 7; smaller blocks go out raw), as the smallest of a
 * compressed, RLE or raw block; rep holds the repeat offsets after its
 * sequences, which become c->rep if it goes out compressed.  Returns the
 * bytes written or XC_ERROR(DST_TOO_SMALL). */
XC_HIDDEN size_t xc_zstd_emit_block(xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                    const uint8_t *src, size_t size, int last,
                                    const uint32_t rep[3]);

/* ---- compress_stream.c ---------------------------------------------------- */

/* Abandons the frame in progress, if any: no stage, pledge, buffered input
 * or staged output, so the next call starts a frame.  Parameters, memory
 * and the dictionary stay.  xc_zstd_cctx_reset() is this. */
XC_HIDDEN void xc_zstd_stream_reset(xc_zstd_cctx *c);

/* ---- compress_block_split.c: the block splitter --------------------------------- */

/* Whether blocks of the frame in progress go through the splitter. */
static inline int xc_zstd_split_active(const xc_zstd_cctx *c)
{
    if (c->block_split == 0)
        return c->p.strategy >= XC_ZSTRAT_BTOPT && c->p.window_log >= 17;
    return c->block_split == 1;
}

/* xc_zstd_emit_block() for a parsed block of size >= 7, which may go out
 * as several blocks when that is smaller; the same result and errors. */
XC_HIDDEN size_t xc_zstd_split_emit(xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                    const uint8_t *src, size_t size, int last,
                                    const uint32_t rep[3]);

/* ---- compress_dict.c: frames with a dictionary ------------------------- */

/* Prepares a loaded dictionary again when the level or parameters changed;
 * 0 or an error of xc_zstd_cdict_build(). */
XC_HIDDEN size_t xc_zstd_dict_prepare(xc_zstd_cctx *c);
/* xc_zstd_cframe_params() when c->cdict is set. */
XC_HIDDEN xc_zstd_cparams xc_zstd_dict_frame_params(const xc_zstd_cctx *c, uint64_t src_size);
/* Bytes of dictionary content placed before the frame in the window buffer. */
XC_HIDDEN size_t xc_zstd_dict_history(const xc_zstd_cctx *c);
/* After xc_zstd_cframe_begin() on the window buffer (sized for the content
 * plus the frame): puts the content at its start and installs tables,
 * entropy and repeat offsets.  Returns the content size (0 without a
 * dictionary). */
XC_HIDDEN size_t xc_zstd_dict_frame_begin(xc_zstd_cctx *c);
/* At the end of a frame: notes what the buffer and tables still hold. */
XC_HIDDEN void xc_zstd_dict_frame_end(xc_zstd_cctx *c);
XC_HIDDEN size_t xc_zstd_compress_with_dict(xc_zstd_cctx *c, void *dst, size_t dst_cap,
                                            const void *src, size_t src_size);
XC_HIDDEN void xc_zstd_dict_release(xc_zstd_cctx *c);

/* ---- compress_block.c ---------------------------------------------------- */

/* Encodes the sequence store (literals and sequences sections) of a block
 * of src_size bytes into dst, choosing every mode by estimated size and
 * writing new tables into the spare slots of c->ent.  Returns the size, 0
 * when the block should go out raw (it does not pay, or does not fit while
 * a raw block would), or XC_ERROR(DST_TOO_SMALL).  *commit receives the
 * flags to pass to xc_zstd_entropy_commit() if the block is used. */
XC_HIDDEN size_t xc_zstd_encode_block_body(xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                           size_t src_size, unsigned *commit);

/* Makes the tables a committed block used (as recorded in commit) the ones
 * the decoder now holds. */
XC_HIDDEN void xc_zstd_entropy_commit(xc_zentropy *e, unsigned commit);

/* Forgets every table: the state at the start of a frame. */
XC_HIDDEN void xc_zstd_entropy_reset(xc_zentropy *e);

/* Builds the predefined tables and resets; once per context.  Returns 0 or
 * an error from the entropy layer (a bug). */
XC_HIDDEN size_t xc_zstd_entropy_init_defaults(xc_zentropy *e);

/* Estimates for the block splitter.  xc_zstd_seq_codes() fills the code
 * arrays of c->ss for all its sequences; xc_zstd_estimate_seq_bits() prices
 * in bits the sequences section of nb sequences whose codes have the
 * histograms count[XC_SEQ_*][0..63] (modes chosen as the encoder would
 * against the tables in force, extra bits and header included). */
XC_HIDDEN void xc_zstd_seq_codes(xc_zseqstore *ss);

XC_HIDDEN size_t xc_zstd_estimate_seq_bits(const xc_zstd_cctx *c, unsigned count[3][64],
                                           size_t nb);
/* The bits an ideal coder spends on count[0..max] (total symbols): the
 * sum of count[s] * log2(total / count[s]). */
XC_HIDDEN size_t xc_zstd_entropy_bits(const unsigned *count, unsigned max, size_t total);

/* ---- compress_literals.c ---------------------------------------------- */

/* The least a compressed block or literals section must save over sending
 * n bytes as they are. */
XC_HIDDEN size_t xc_zstd_min_gain(size_t n, unsigned strategy);

/* A raw literals section.  Returns its size or XC_ERROR(DST_TOO_SMALL). */
XC_HIDDEN size_t xc_zstd_literals_raw(uint8_t *dst, size_t cap, const uint8_t *lit, size_t n);

/* The literals section of lit[0..n) in its cheapest form.  *commit gets
 * XC_ZCOMMIT_HUF when a new tree was sent.  Returns the size or
 * XC_ERROR(DST_TOO_SMALL). */
XC_HIDDEN size_t xc_zstd_encode_literals(xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                         const uint8_t *lit, size_t n, unsigned *commit);

#endif /* XC_ZSTD_COMPRESS_INTERNAL_H */
