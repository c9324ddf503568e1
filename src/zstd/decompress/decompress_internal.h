/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd decoder's internal structures: the decompression context, the
 * prepared dictionary, the sequence decoding tables, and the functions the
 * frame, block, literals, sequences, streaming and dictionary files share.
 *
 * Memory model.  A block decodes into [op, oend): oend is the hard limit
 * of what may be written, never crossed, not even by a wildcopy.  Matches
 * read from two history segments, as RFC 8878 §3.1.1.5 describes history:
 *
 *   - the prefix, [prefix, op): output of the current frame that sits
 *     contiguously before the write position;
 *   - the extension, [ext_start, ext_end): older history kept elsewhere,
 *     either the content of a dictionary or, when streaming, the part of
 *     the window buffer that has not been overwritten since decoding
 *     wrapped back to the buffer's start.
 *
 * An offset of at most (op - prefix) lands in the prefix; one of at most
 * (op - prefix) + (ext_end - ext_start) lands in the extension (and may
 * continue into the prefix) if the match starts no more than ext_reach bytes
 * after the prefix's start (see xc_zstd_ext_in_reach()); anything else is
 * corrupt.  When the extension is the older part of the streaming window
 * buffer, the prefix is being written over it from its start (ext_overlap):
 * each byte the prefix grows destroys one byte of the extension, so the
 * history the decoder holds intact stays (ext_end - ext_start) bytes long,
 * and an offset must be at most that.
 *
 * Literals are decoded into lit_buf, or into the destination beyond the
 * reach of the current block when one-shot decoding has room there (as
 * libzstd does: the lines written then are the ones the next blocks write,
 * so they are likely in cache when the output reaches them, and the
 * literals buffer stays out of the cache), or point straight into the input
 * when a raw literals section has XC_ZSTD_WILDCOPY bytes of input after
 * it.  In every case the sequence executor may read up to
 * XC_ZSTD_WILDCOPY bytes past the last literal.
 *
 * What it may call: the library's helpers (xc_internal.h), the entropy coders
 * (entropy/) and the shared format (common/).
 */
#ifndef XC_ZSTD_DECOMPRESS_INTERNAL_H
#define XC_ZSTD_DECOMPRESS_INTERNAL_H

#include "xc_internal.h"
#include "zstd/entropy/entropy_decode.h"
#include "zstd/common/format.h"
#include "zstd/common/xxh64.h"

/* How far a wildcopy may read or write past the end of what it copies: it
 * moves 16-byte blocks, the last of which may start up to 15 bytes before
 * the end and, after a first 16-byte copy, runs in pairs. */
#define XC_ZSTD_WILDCOPY 32

/* One state of a sequence decoding table.  Besides the FSE transition it
 * carries the value the state's symbol stands for, as a baseline plus
 * `extra` bits read from the stream, so that decoding a length or an
 * offset is one table load, one bit read and one add.  The transition is
 * stored relative to the state itself: the next state is this cell plus
 * `step` plus `nbits` bits read from the stream, which lets the decoder
 * keep a pointer to the current cell and no table base.  Eight bytes: the
 * decoder reads the fields it needs straight from the table. */
typedef struct {
    int16_t step;
    uint8_t nbits;
    uint8_t extra;
    uint32_t base;
} xc_seq_cell;

/* Storage for the three tables of a context or a dictionary. */
typedef struct {
    xc_seq_cell ll[1u << XC_ZSTD_LL_LOG_MAX];
    xc_seq_cell ml[1u << XC_ZSTD_ML_LOG_MAX];
    xc_seq_cell of[1u << XC_ZSTD_OF_LOG_MAX];
} xc_seq_tables;

/* A parsed frame header (RFC 8878 §3.1.1.1), or a skippable frame's. */
typedef struct {
    uint64_t content_size; /* XC_ZSTD_CONTENTSIZE_UNKNOWN when not recorded */
    uint64_t window_size;  /* bytes of history the frame may reference */
    uint32_t block_max;    /* Block_Maximum_Size: min(window, 128 KiB) */
    uint32_t dict_id;      /* 0: none recorded */
    uint32_t header_size;  /* bytes of magic number and header */
    uint32_t skip_size;    /* skippable frames: bytes of user data */
    uint8_t checksum;      /* a 4-byte content checksum ends the frame */
    uint8_t single_segment;
    uint8_t skippable;
} xc_zstd_frame_header;

struct xc_zstd_ddict_s {
    uint8_t *buf;           /* the copy of the dictionary */
    const uint8_t *content; /* its content part, inside buf */
    size_t content_size;
    uint32_t id;            /* 0 for raw content */
    uint8_t has_entropy;    /* a formatted dictionary: tables and reps below */
    uint8_t ll_log, ml_log, of_log;
    uint32_t rep[3];
    xc_huf_dtable huf;
    xc_seq_tables seq;
};

/* Stages of the streaming decoder (decompress_stream.c). */
enum {
    XC_STREAM_HEADER = 0, /* gathering a frame header */
    XC_STREAM_SKIP,       /* skipping the user data of a skippable frame */
    XC_STREAM_BLOCK_HEADER,
    XC_STREAM_BLOCK,      /* gathering a block's content */
    XC_STREAM_CHECKSUM,
    XC_STREAM_FLUSH,      /* decoded bytes wait for room in the output */
    XC_STREAM_ERROR       /* an error happened: reset before reuse */
};

struct xc_zstd_dctx_s {
    /* ---- state of the frame being decoded ---- */
    /* Tables a block may repeat: NULL until a block or the dictionary sets
     * them, which makes Repeat_Mode and treeless literals corrupt. */
    const xc_seq_cell *ll, *ml, *of;
    unsigned ll_log, ml_log, of_log;
    const xc_huf_dtable *huf;
    uint32_t rep[3];

    /* Literals of the current block. */
    const uint8_t *lit;
    size_t lit_size;
    /* Where decoded literals may go instead of lit_buf: space in the
     * destination beyond anything the current block can write (NULL when
     * there is none).  One-shot decoding only. */
    uint8_t *lit_room;
    size_t lit_room_size;
    /* The current block's output position and room, for literals that
     * are the whole block. */
    uint8_t *out;
    size_t out_room;

    /* History (see the top of this file).  ext_reach: how many bytes after
     * the prefix's start a match may begin and still read the extension;
     * Window_Size while the extension is a dictionary, SIZE_MAX while it is
     * the older part of the streaming window buffer.  ext_overlap: 1 when
     * the prefix is written over the extension's start (the streaming
     * window buffer after a wrap), 0 when the extension is kept apart. */
    const uint8_t *prefix;
    const uint8_t *ext_start, *ext_end;
    size_t ext_reach;
    int ext_overlap;

    /* The error an executor reports when a block's output reaches oend:
     * the destination is too small in one-shot decoding, while in the
     * streaming window buffer it means the block is larger than allowed. */
    size_t oend_error;

    xc_zstd_frame_header fh;
    uint64_t produced;     /* bytes of the current frame decoded so far */
    xc_xxh64_state xxh;

    /* ---- dictionary ---- */
    const xc_zstd_ddict *ddict; /* in use, or NULL */
    xc_zstd_ddict *own_ddict;   /* the copy load_dictionary made, if any */
    xc_zstd_ddict *prefix_dd;   /* describes a prefix (dict/decompress_prefix.c) */

    /* ---- parameters ---- */
    unsigned window_log_max;
    int magicless;                       /* XC_ZSTD_D_FORMAT is XC_ZSTD_FORMAT_MAGICLESS */
    int nb_workers;                      /* XC_ZSTD_D_NB_WORKERS (decompress_mt.c) */
    struct xc_zdmt_s *mt;                /* its runners and pool, NULL until used */
    const struct xc_zstd_dkernels *kern; /* the hot loops cpucap chose */

    /* ---- buffers, grown on demand and kept ---- */
    uint8_t *lit_buf;
    size_t lit_cap;

    /* ---- blocks without frames (decompress_block_api.c) ---- */
    int blocks;                /* a series is begun */
    const uint8_t *seg_end;    /* end of the last block, or of the dictionary */
    xc_zstd_ddict *series_dd;  /* the loaded dictionary a series began with, kept
                                  until the next series (loading another frees
                                  own_ddict, which the series still reads) */

    /* ---- streaming (decompress_stream.c) ---- */
    int stage;
    uint8_t *wbuf;          /* window buffer */
    size_t wcap;
    size_t wsize;           /* bytes of wbuf in use for this frame */
    size_t wpos;            /* where the next block decodes */
    size_t flush_pos, flush_end; /* decoded bytes not yet handed out */
    uint8_t *ibuf;          /* gathers input that arrives in pieces */
    size_t icap;
    size_t ifill;           /* bytes gathered for the current item */
    size_t ineed;           /* bytes the current item takes */
    uint64_t skip_left;
    uint8_t block_last;
    uint8_t block_type;
    uint32_t block_size;    /* content bytes of the current block */
    uint8_t hdr[XC_ZSTD_FRAME_HEADER_MAX + XC_ZSTD_CHECKSUM_SIZE];

    /* ---- storage the pointers above may point into ---- */
    xc_huf_dtable huf_own;
    xc_seq_tables seq_own;
    xc_seq_cell def_ll[64], def_ml[64], def_of[32];
};

/* What a match may reference beyond the prefix, the one rule the one-shot
 * and the streaming decoder share.  A match that starts `pos` bytes after
 * the prefix's start and reaches `back` bytes into the extension (back > 0)
 * is valid when the extension holds that many bytes and the match starts
 * within ext_reach.  For a dictionary the prefix starts at the frame's first
 * byte, so pos is the amount of data decoded from the frame so far (the
 * match's own literals included), and RFC 8878 §5 (dictionary content)
 * lets sequences reach back into the dictionary, even farther than
 * Window_Size, "as long as the amount of data decoded from this frame is
 * less than or equal to Window_Size"; after that the dictionary is out of
 * reach.  ext_reach is Window_Size then, and a match starting at exactly
 * Window_Size may still use the dictionary (libzstd 1.5.6 decodes such
 * frames too), one starting a byte later may not.
 *
 * When the extension overlaps (ext_overlap 1: the streaming window buffer
 * after a wrap, with the prefix written from the buffer's start over the
 * older bytes), the first pos bytes of the extension, and the wildcopy
 * margin after them (which the caller leaves out of the extension), are no
 * longer history: the match must land in the rest, back + pos <= ext_size,
 * that is, its offset must not exceed the history still held.  Reading
 * nearer the start would return bytes this segment has overwritten. */
XC_FORCE_INLINE int xc_zstd_ext_in_reach(size_t back, size_t pos, size_t ext_size,
                                         size_t ext_reach, int ext_overlap)
{
    return (ext_overlap ? back + pos : back) <= ext_size && pos <= ext_reach;
}

/* ---- decompress_frame.c ------------------------------------------------------ */

/* Parses the frame header at src, a magicless one (no magic number, never
 * skippable) when magicless is 1.  Returns 0 with *fh filled, the total
 * header size when src holds fewer bytes than that (a value greater than
 * size, never an error code), or XC_ERROR(UNKNOWN_MAGIC / FRAME_HEADER /
 * WINDOW_TOO_LARGE). */
XC_HIDDEN size_t xc_zstd_read_frame_header(xc_zstd_frame_header *fh, const uint8_t *src,
                                           size_t size, int magicless);

/* ---- decompress.c ------------------------------------------------- */

/* Readies the context for a frame whose header is fh: entropy tables and
 * repeat offsets from the dictionary or the defaults, the dictionary ID
 * check, the checksum state and a literals buffer for its blocks.
 * Returns 0, XC_ERROR(DICT_MISSING / DICT_MISMATCH / OUT_OF_MEMORY). */
XC_HIDDEN size_t xc_zstd_frame_begin(xc_zstd_dctx *d, const xc_zstd_frame_header *fh);

/* Decodes one compressed block, src[0..size), into [op, oend).  src_limit
 * is the end of readable input at or after src + size.  Returns the bytes
 * produced or an error. */
XC_HIDDEN size_t xc_zstd_decode_block(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend,
                                      const uint8_t *src, size_t size,
                                      const uint8_t *src_limit);

/* Grows d->lit_buf to hold n literal bytes plus the wildcopy margin. */
XC_HIDDEN size_t xc_zstd_reserve_literals(xc_zstd_dctx *d, size_t n);

/* ---- decompress_literals.c --------------------------------------------------- */

/* Decodes the literals section at the start of a compressed block of
 * `size` bytes, leaving d->lit / d->lit_size set.  Returns the bytes the
 * section occupies, or XC_ERROR(CORRUPT). */
XC_HIDDEN size_t xc_zstd_decode_literals(xc_zstd_dctx *d, const uint8_t *src, size_t size,
                                         const uint8_t *src_limit);

/* ---- decompress_seq_tables.c ------------------------------------------------- */

/* Reads the sequences section header (count, modes, tables) and sets the
 * context's tables.  Returns the header's size with *nb_seq set, or
 * XC_ERROR(CORRUPT). */
XC_HIDDEN size_t xc_zstd_read_seq_header(xc_zstd_dctx *d, int *nb_seq, const uint8_t *src,
                                         size_t size);

/* Reads an FSE table description for one symbol type into cells (a
 * dictionary's tables).  Returns its size with *log set, or an error. */
XC_HIDDEN size_t xc_zstd_read_fse_table(xc_seq_cell *cells, unsigned *log, int type,
                                        const uint8_t *src, size_t size);

/* Builds the three predefined tables (RFC 8878 §3.1.1.3.2.2). */
XC_HIDDEN void xc_zstd_build_default_tables(xc_seq_cell *ll, xc_seq_cell *ml,
                                            xc_seq_cell *of);

/* ---- the hot loops, one set per ISA variant ------------------------------------ */

/* The decoder's kernels: each ISA variant (src/portable, src/x64, src/arm64)
 * instantiates the bodies of decompress_sequences_tmpl.h and
 * huf_decode_tmpl.h under its own target attribute into one of these, and
 * cpucap's variant list (xc_zstd_decode_variants) says which one a CPU
 * runs.  Every variant produces the same output. */
struct xc_zstd_dkernels {
    /* xc_zstd_exec_sequences()'s work, with and without prefetching the
     * matches of sequences decoded ahead. */
    size_t (*exec_sequences)(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend, const uint8_t *src,
                             size_t size, int nb_seq);
    size_t (*exec_sequences_prefetch)(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend,
                                      const uint8_t *src, size_t size, int nb_seq);
    /* The Huffman stream decoder (xc_huf_decode_fn, entropy_decode.h). */
    xc_huf_decode_fn huf_decode;
};

/* Sequences decoded ahead of execution by the prefetching loop: enough to
 * cover a memory latency with the work of executing the ones before. */
#define XC_ZSEQ_AHEAD 8

/* ---- decompress_sequences.c -------------------------------------------------- */

/* Decodes nb_seq (> 0) sequences from the bit stream src[0..size) and
 * executes them into [op, oend), followed by the remaining literals.
 * Returns the bytes produced or an error. */
XC_HIDDEN size_t xc_zstd_exec_sequences(xc_zstd_dctx *d, uint8_t *op, uint8_t *oend,
                                        const uint8_t *src, size_t size, int nb_seq);

/* ---- ddict.c ------------------------------------------------------- */

/* Parses a dictionary into an initialised ddict whose buf already holds
 * it.  Returns 0 or XC_ERROR(DICT_CORRUPT). */
XC_HIDDEN size_t xc_zstd_ddict_parse(xc_zstd_ddict *dd, size_t size);

/* decompress_mt.c: one-shot decoding of several frames on workers.
 * xc_zstd_dmt_decompress() sets *taken and returns the decoded size or an
 * error when it decoded the input; it leaves *taken 0 (and returns 0) for
 * inputs the serial decoder takes: a single frame, frames without content
 * sizes, no workers. */
XC_HIDDEN size_t xc_zstd_dmt_set(xc_zstd_dctx *d, int value);
XC_HIDDEN size_t xc_zstd_dmt_decompress(xc_zstd_dctx *d, void *dst, size_t dst_cap,
                                        const void *src, size_t src_size, int *taken);
XC_HIDDEN void xc_zstd_dmt_free(xc_zstd_dctx *d);

#endif /* XC_ZSTD_DECOMPRESS_INTERNAL_H */
