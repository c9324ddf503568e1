/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd encoder's context and the interfaces between its files: the
 * entropy state carried from block to block, the compression context, and
 * the frame plan, the frame driver, and the block, literals, streaming and
 * splitter functions that compress*.c and dict/compress_dict.c share.  The parameters
 * (compress_params.h), the sequence store (compress_seqstore.h) and the
 * match state (match/match_state.h) have headers of their own, which the
 * match finders include without this one.
 *
 * What it may call: the library's helpers (xc_internal.h), the entropy coders
 * (entropy/), the shared format (common/), the encoder (compress/) and the
 * match state and searches (compress/match/).
 */
#ifndef XC_ZSTD_COMPRESS_INTERNAL_H
#define XC_ZSTD_COMPRESS_INTERNAL_H

#include "xc_internal.h"
#include "zstd/entropy/entropy_encode.h"
#include "zstd/common/format.h"
#include "zstd/common/xxh64.h"
#include "zstd/compress/compress_params.h"
#include "zstd/compress/compress_seqstore.h"
#include "zstd/compress/match/match_state.h"

/* ---- blocks --------------------------------------------------------------------- */

/* Blocks below this size are sent raw without trying: a compressed block
 * needs at least a literals header, a sequence count and some gain. */
#define XC_ZSTD_MIN_COMPRESSED_BLOCK 7

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
    XC_ZSTAGE_ERROR,      /* an error happened: reset before reuse */
    XC_ZSTAGE_BLOCKS      /* blocks without a frame (compress_block_api.c) */
};

/* The history a frame starts from, planned once per frame by
 * xc_zstd_plan_frame() (dict/compress_dict.c) and consumed by the frame
 * driver (compress_frame.c, compress_history.c). */
enum {
    XC_ZHIST_NONE = 0, /* nothing before the frame */
    XC_ZHIST_PLACED,   /* the content before the frame in the window buffer */
    XC_ZHIST_ATTACHED, /* the dictionary's tables searched where they lie */
    XC_ZHIST_PREFIX    /* `content` bytes of input before the frame's first byte, at
                          buf[0..content) of the frame's buffer (a worker's job) */
};
typedef struct {
    int mode;
    const xc_zstd_cdict *cd; /* NULL with XC_ZHIST_NONE and XC_ZHIST_PREFIX */
    xc_zstd_cparams p;       /* the frame's parameters */
    size_t content;          /* bytes placed before the frame (XC_ZHIST_PLACED, _PREFIX) */
} xc_zhistory;

struct xc_zstd_cctx_s {
    /* Requested parameters: the level and explicit overrides (0 = from the
     * level), frame options. */
    int level;
    xc_zstd_cparams req;
    int checksum;
    int content_size_flag;
    int dict_id_flag;
    int magicless;            /* XC_ZSTD_C_FORMAT: headers without the magic number */
    /* Long-distance matching (match_ldm.c): requested (0 = default; enable:
     * 0 auto, 1 on, 2 off), whether this frame uses it, and its state. */
    int ldm_enable;
    unsigned ldm_hash_log, ldm_min_match, ldm_bucket_log, ldm_rate_log;
    int ldm_on;
    struct xc_zldm_s *ldm;
    /* The block splitter (compress_block_split.c): requested (0 auto, 1 on,
     * 2 off), and the states it may return to while it compares a split
     * block with the whole (two, allocated by the first frame that splits:
     * they would add 15 KiB to every context). */
    int block_split;
    xc_zsplit_saved *split_saved;

    /* ---- the frame being written ---- */
    xc_zhistory hist;         /* what it started from */
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
    size_t seq_mem_block;     /* the block size seq_mem was sized for */
    size_t seq_mem_max_seq;   /* and the sequences */

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

    /* ---- dictionary (dict/compress_dict.c, compress_history.c) ---- */
    const xc_zstd_cdict *cdict;    /* used by the next frames, or NULL */
    xc_zstd_cdict *own_cdict;      /* prepared from a loaded dictionary */
    uint32_t frame_dict_id;        /* the ID the header carries, 0 for none */
    uint64_t frame_no;             /* frames begun, see compress_history.c */
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

    /* ---- workers (compress_mt.c) ---- */
    int nb_workers;                /* XC_ZSTD_C_NB_WORKERS */
    int job_size;                  /* XC_ZSTD_C_JOB_SIZE, 0 = by the window */
    int overlap_log;               /* XC_ZSTD_C_OVERLAP_LOG, 0 = by the strategy */
    int job_frames;                /* XC_ZSTD_C_JOB_FRAMES: each job a frame of its own */
    xc_thread_pool *pool_ref;      /* the caller's pool, or NULL for one of our own */
    struct xc_zmt_s *mt;           /* jobs, worker contexts, own pool; NULL until used */

    /* ---- a prefix for the next frame (dict/compress_prefix.c) ---- */
    const uint8_t *prefix;         /* the caller's bytes, until the frame begins */
    size_t prefix_size;            /* 0: no prefix pending */
    struct xc_zstd_cdict_s *prefix_cd; /* the placed history that describes it */

    /* ---- progress of the streamed frame (xc_zstd_cctx_progress) ---- */
    uint64_t prog_flushed;         /* bytes handed to the caller */
    int prog_live;                 /* 0: nothing to report */
};

/* ---- the frame plan (dict/compress_dict.c) and parameters --------------- */

/* compress_levels.c: the parameters a frame of src_size bytes
 * (XC_ZSTD_SIZE_UNKNOWN) without a dictionary gets from the context's
 * level and overrides. */
XC_HIDDEN xc_zstd_cparams xc_zstd_cframe_params(const xc_zstd_cctx *c, uint64_t src_size);

/* dict/compress_dict.c: plans the next frame of src_size bytes
 * (XC_ZSTD_SIZE_UNKNOWN) into *h: its parameters and the history it starts
 * from.  `whole` says the input is all in the caller's buffer (one-shot),
 * which allows a dictionary to be attached.  Prepares a loaded dictionary
 * again first when the level or parameters changed.  Returns 0 or an error
 * of xc_zstd_cdict_build(). */
XC_HIDDEN size_t xc_zstd_plan_frame(xc_zstd_cctx *c, uint64_t src_size, int whole,
                                    xc_zhistory *h);
XC_HIDDEN void xc_zstd_dict_release(xc_zstd_cctx *c);

/* dict/compress_prefix.c: the plan of a frame with a pending prefix
 * (c->prefix_size > 0): placed history made of the prefix's last window,
 * the parameters of the prefix and input together.  Returns 0. */
XC_HIDDEN size_t xc_zstd_plan_prefix(xc_zstd_cctx *c, uint64_t src_size, xc_zhistory *h);
XC_HIDDEN void xc_zstd_prefix_release(xc_zstd_cctx *c);

/* ---- compress_frame.c: the frame driver ---------------------------------- */

/* Readies the context for a frame with parameters p: allocation, tables
 * with no valid entry, initial repeat offsets, no entropy tables to repeat,
 * checksum.  The frame's first byte will be buf[0], and its indices will
 * span at most `span` bytes from there.  Returns 0 or
 * XC_ERROR(OUT_OF_MEMORY).  (No history: xc_zstd_cframe_open() is this and
 * the history.) */
XC_HIDDEN size_t xc_zstd_cframe_begin(xc_zstd_cctx *c, const xc_zstd_cparams *p,
                                      const uint8_t *buf, size_t span);

/* Begins a frame planned as *h whose indices start at buf[0] and span at
 * most `span` bytes (with XC_ZHIST_PLACED, buf is the window buffer and
 * the content goes to its start; with XC_ZHIST_ATTACHED, span is the whole
 * input, one block).  Returns 0 or an error. */
XC_HIDDEN size_t xc_zstd_cframe_open(xc_zstd_cctx *c, const xc_zhistory *h, const uint8_t *buf,
                                     size_t span);

/* After the frame's last block: notes what the context still holds of its
 * history for the next frame (compress_history.c). */
XC_HIDDEN void xc_zstd_cframe_close(xc_zstd_cctx *c);

/* A whole frame of src[0..src_size) planned as *h (XC_ZHIST_NONE or
 * XC_ZHIST_ATTACHED), header to checksum.  Returns its size or an error. */
XC_HIDDEN size_t xc_zstd_cframe_oneshot(xc_zstd_cctx *c, const xc_zhistory *h, void *dst,
                                       size_t dst_cap, const void *src, size_t src_size);

/* A whole frame of src[0..size) planned as *h, header to checksum, with
 * indices starting at buf[0] and spanning `span` bytes (as for
 * xc_zstd_cframe_open(); for XC_ZHIST_NONE and XC_ZHIST_ATTACHED buf is
 * src).  Returns its size or an error. */
XC_HIDDEN size_t xc_zstd_cframe_whole(xc_zstd_cctx *c, const xc_zhistory *h, const uint8_t *buf,
                                      size_t span, const uint8_t *src, size_t size, void *dst,
                                      size_t dst_cap);

/* One job of a frame whose input is cut between workers (compress_mt.c):
 * the blocks of src[0..size), without frame header or checksum, into
 * dst, with the job's history planned as *plan (the frame's plan for the
 * first job, XC_ZHIST_PREFIX with the overlap for the others) and indices
 * starting at buf[0] and spanning `span` bytes.  Jobs after the first start
 * without repeat offsets; `last` flags the frame's last block.  Returns the
 * bytes written or an error. */
XC_HIDDEN size_t xc_zstd_cframe_job(xc_zstd_cctx *c, const xc_zhistory *plan, const uint8_t *buf,
                                    size_t span, const uint8_t *src, size_t size, int first,
                                    int last, uint8_t *dst, size_t dst_cap);

/* compress_history.c: puts the history of c->hist in place after
 * xc_zstd_cframe_begin(), and takes note of it at the frame's end. */
XC_HIDDEN size_t xc_zstd_history_begin(xc_zstd_cctx *c, size_t span);
XC_HIDDEN void xc_zstd_history_end(xc_zstd_cctx *c);

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
 * (base, start, next_to_update) are the caller's. */
XC_HIDDEN void xc_zstd_ms_place_tables(xc_zmatch_state *ms, uint32_t *tables,
                                       const xc_zstd_cparams *p);

/* compress_mem.c: the most sequences a block of `block` bytes parsed with
 * parameters p can hold, and the bytes of a sequence store for that many
 * (one allocation, c->seq_mem). */
XC_HIDDEN size_t xc_zstd_max_seq(size_t block, const xc_zstd_cparams *p);
XC_HIDDEN size_t xc_zstd_block_mem_bytes(size_t block, size_t max_seq);

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

/* Parses the block src[0..size) (size >= 7, at its indices in c->ms) into
 * c->ss with the strategy's finder or long-distance matching, leaving in
 * rep the repeat offsets after its sequences; the literals after the last
 * sequence go into the store when there are sequences or store_literals
 * says so. */
XC_HIDDEN void xc_zstd_parse_block(xc_zstd_cctx *c, uint32_t rep[3], const uint8_t *src,
                                   size_t size, int store_literals);

/* compress_block.c: writes the block src[0..size) whose sequences and literals c->ss holds
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

/* Opens a frame planned as *plan in the window buffer, sized for `content`
 * bytes of input (XC_ZSTD_SIZE_UNKNOWN), with the planned history at its
 * start (in_fill = in_done = its size).  Returns 0 or an error. */
XC_HIDDEN size_t xc_zstd_stream_open(xc_zstd_cctx *c, const xc_zhistory *plan,
                                     uint64_t content);

/* Moves the oldest bytes out of a full window buffer, keeping one window
 * of history before the next block. */
XC_HIDDEN void xc_zstd_stream_slide(xc_zstd_cctx *c);

/* xc_zstd_compress_stream() in the calling thread, whatever nb_workers
 * says (the workers' code and one-shot frames with a placed dictionary
 * call it). */
XC_HIDDEN size_t xc_zstd_stream_serial(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in,
                                       xc_zstd_end_op op);

/* ---- compress_mt.c: workers ------------------------------------------------- */

/* Validates and records XC_ZSTD_C_NB_WORKERS, _JOB_SIZE or _OVERLAP_LOG
 * (clamped as libzstd does).  Returns 0 or XC_ERROR(UNSUPPORTED) without
 * threads. */
XC_HIDDEN size_t xc_zstd_mt_set(xc_zstd_cctx *c, int param, int value);

/* The job size and overlap of a frame with parameters p under c's
 * settings (c may be NULL: the defaults); the job size also depends on
 * the frame's content size when it is known (else XC_ZSTD_SIZE_UNKNOWN). */
XC_HIDDEN size_t xc_zstd_mt_job_size(const xc_zstd_cctx *c, const xc_zstd_cparams *p,
                                     uint64_t content);
XC_HIDDEN size_t xc_zstd_mt_overlap(const xc_zstd_cctx *c, const xc_zstd_cparams *p);

/* A one-shot frame planned as *h whose input is more than one job, on
 * the workers.  Returns its size or an error. */
XC_HIDDEN size_t xc_zstd_mt_compress(xc_zstd_cctx *c, const xc_zhistory *h, void *dst,
                                     size_t dst_cap, const void *src, size_t src_size);

/* xc_zstd_compress_stream() with workers. */
XC_HIDDEN size_t xc_zstd_mt_stream(xc_zstd_cctx *c, xc_out_buffer *out, xc_in_buffer *in,
                                   xc_zstd_end_op op);

/* Ends the frame in progress on the workers, if any: waits for (or
 * withdraws) its jobs.  xc_zstd_cctx_reset() calls it. */
XC_HIDDEN void xc_zstd_mt_abort(xc_zstd_cctx *c);

/* Ends the workers' frame, stops the context's own pool and frees the
 * worker contexts and buffers. */
XC_HIDDEN void xc_zstd_mt_free(xc_zstd_cctx *c);

/* Bytes the workers' state holds (for xc_zstd_cctx_mem_held). */
XC_HIDDEN size_t xc_zstd_mt_held(const xc_zstd_cctx *c);

/* ---- compress_block_split.c: the block splitter --------------------------------- */

/* Whether frames with parameters p split their blocks unless told. */
static inline int xc_zstd_split_by_default(const xc_zstd_cparams *p)
{
    return p->strategy >= XC_ZSTRAT_BTOPT && p->window_log >= 17;
}

/* Whether blocks of the frame in progress go through the splitter. */
static inline int xc_zstd_split_active(const xc_zstd_cctx *c)
{
    if (c->block_split == 0) return xc_zstd_split_by_default(&c->p);
    return c->block_split == 1;
}

/* xc_zstd_emit_block() for a parsed block of size >= 7, which may go out
 * as several blocks when that is smaller; the same result and errors. */
XC_HIDDEN size_t xc_zstd_split_emit(xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                    const uint8_t *src, size_t size, int last,
                                    const uint32_t rep[3]);

/* ---- compress_block.c ---------------------------------------------------- */

/* Encodes the sequence store (literals and sequences sections) of the
 * block src[0..src_size) into dst, choosing every mode by estimated size
 * and writing new tables into the spare slots of c->ent; a store without
 * sequences takes its literals from src.  Returns the size, 0 when the
 * block should go out raw (it does not pay, or does not fit while a raw
 * block would), or XC_ERROR(DST_TOO_SMALL).  *commit receives the flags to
 * pass to xc_zstd_entropy_commit() if the block is used. */
XC_HIDDEN size_t xc_zstd_encode_block_body(xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                           const uint8_t *src, size_t src_size,
                                           unsigned *commit);

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
 * XC_ZCOMMIT_HUF when a new tree was sent.  With raw_useless (a block of
 * literals alone, which raw literals cannot make smaller), a section that
 * would be raw is not written and 0 is returned.  Returns the size or
 * XC_ERROR(DST_TOO_SMALL). */
XC_HIDDEN size_t xc_zstd_encode_literals(xc_zstd_cctx *c, uint8_t *dst, size_t cap,
                                         const uint8_t *lit, size_t n, int raw_useless,
                                         unsigned *commit);

#endif /* XC_ZSTD_COMPRESS_INTERNAL_H */
