/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xcodec: byte codecs tuned for x64 and Arm64.
 *
 *   - zstd frames interchangeable with libzstd's (RFC 8878),
 *   - CRC32C (Castagnoli),
 *   - the Internet checksum (RFC 1071, RFC 1624).
 *
 * Conventions used throughout this header:
 *
 *   - Functions that return a size return a size_t.  Such a result is either
 *     a valid size or an error code; test it with xc_is_error(), name it with
 *     xc_error_name(), and turn it into a stable enum with xc_error_code().
 *   - Handles are opaque.  Each handle type has a _new() and a _free()
 *     function; _free(NULL) does nothing.
 *   - The library never aborts, exits or prints.  It keeps no mutable global
 *     state after its start-up CPU detection, so every function may be called
 *     from any thread; a handle may not be used by two threads at once unless
 *     its paragraph says it may.
 *   - Buffers passed in remain owned by the caller.
 */
#ifndef XCODEC_H
#define XCODEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(XCODEC_SHARED_BUILD)
#  define XC_API __declspec(dllexport)
#elif defined(_WIN32) && defined(XCODEC_SHARED)
#  define XC_API __declspec(dllimport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define XC_API __attribute__((visibility("default")))
#else
#  define XC_API
#endif

/* ======================================================================== */
/*  Version                                                                 */
/* ======================================================================== */

#define XC_VERSION_MAJOR 0
#define XC_VERSION_MINOR 1
#define XC_VERSION_PATCH 0
#define XC_VERSION_NUMBER \
    (XC_VERSION_MAJOR * 10000 + XC_VERSION_MINOR * 100 + XC_VERSION_PATCH)

/*
 * xc_version() returns the version of the library that is linked, as
 * MAJOR * 10000 + MINOR * 100 + PATCH; compare it with XC_VERSION_NUMBER to
 * detect a header/library mismatch.  xc_version_string() returns the same as
 * "MAJOR.MINOR.PATCH", a static string.  Both are thread-safe.
 */
XC_API unsigned xc_version(void);
XC_API const char *xc_version_string(void);

/* ======================================================================== */
/*  Errors                                                                  */
/* ======================================================================== */

/*
 * The error codes.  Values are part of the ABI: they are never renumbered,
 * and new codes are only ever appended.
 */
enum xc_error {
    XC_OK = 0,
    XC_ERROR_GENERIC = 1,             /* an error with no better name */
    XC_ERROR_CORRUPT = 2,             /* the input is not valid data */
    XC_ERROR_TRUNCATED = 3,           /* the input ends before the data does */
    XC_ERROR_DST_TOO_SMALL = 4,       /* the destination cannot hold the result */
    XC_ERROR_CHECKSUM = 5,            /* a content checksum does not match */
    XC_ERROR_WINDOW_TOO_LARGE = 6,    /* frame window above the configured limit */
    XC_ERROR_DICT_MISMATCH = 7,       /* frame wants another dictionary than the loaded one */
    XC_ERROR_DICT_MISSING = 8,        /* frame wants a dictionary and none is loaded */
    XC_ERROR_DICT_CORRUPT = 9,        /* a dictionary is not valid */
    XC_ERROR_UNKNOWN_MAGIC = 10,      /* the input does not start with a known frame magic */
    XC_ERROR_BAD_PARAMETER = 11,      /* an argument or parameter value is out of range */
    XC_ERROR_OUT_OF_MEMORY = 12,      /* an allocation failed */
    XC_ERROR_UNSUPPORTED = 13,        /* a valid feature this build does not support */
    XC_ERROR_STAGE_WRONG = 14,        /* the call is not allowed in the handle's current state */
    XC_ERROR_SRC_SIZE_WRONG = 15,     /* the input size differs from the size announced */
    XC_ERROR_TOO_FEW_SAMPLES = 16,    /* dictionary training: not enough samples */
    XC_ERROR_SAMPLES_TOO_SMALL = 17,  /* dictionary training: not enough sample bytes */
    XC_ERROR_FRAME_HEADER = 18,       /* a frame header uses reserved bits or values */
    XC_ERROR_SEEK_TABLE_MISSING = 19, /* the input does not end with a seek table */
    XC_ERROR_SEEK_TABLE_CORRUPT = 20, /* the seek table is malformed or does not fit the input */
    XC_ERROR_SEEK_TABLE_MISMATCH = 21,/* a frame disagrees with its seek table entry */
    XC_ERROR_OUT_OF_RANGE = 22,       /* an offset or index past the end of the content */
    XC_ERROR__COUNT                   /* not an error: the number of codes */
};

/*
 * xc_is_error() returns 1 when a size_t result of this library is an error
 * code, 0 when it is a valid size.  Error codes are the values -1 .. -99 as
 * size_t, so no valid size is ever mistaken for one.
 */
XC_API int xc_is_error(size_t result);

/*
 * xc_error_code() returns the enum xc_error carried by a result, or XC_OK
 * when the result is not an error.
 */
XC_API enum xc_error xc_error_code(size_t result);

/*
 * xc_error_name() returns a stable, static, human-readable name for the
 * error carried by a result ("no error" when it is not an error).
 * xc_error_string() does the same for an enum value; an unknown value gives
 * "unknown error".  Both are thread-safe.
 */
XC_API const char *xc_error_name(size_t result);
XC_API const char *xc_error_string(enum xc_error code);

/* ======================================================================== */
/*  CPU capabilities and dispatch                                           */
/* ======================================================================== */

/*
 * The library detects the CPU once, before first use, and picks one variant
 * of each hot kernel.  The environment variable XC_CPUCAP, read once from the
 * environment the process started with, caps the tier: "portable"; on x64
 * "sse42", "pclmul", "avx2", "avx512"; on Arm64 "crc", "pmull", "sha3".  Each
 * tier includes the ones before it.  A cap above what the CPU has gives what
 * the CPU has; an unknown value is ignored (and named by
 * xc_cpucap_describe()).  On ELF platforms with glibc the checksum functions
 * (xc_crc32c, xc_crc32c_combine, xc_inet_sum, xc_inet_checksum) are bound to
 * their variant by the dynamic linker (GNU IFUNC), in shared and static
 * programs alike; elsewhere they call it through a table.  Either way the
 * variant is the one xc_impl_name() names.
 */

/*
 * xc_cpucap_describe() returns a static string naming the architecture, the
 * features detected, the tier in force and the cap requested, for example
 * "arch=x64 features=sse42,pclmul,avx2,bmi2,avx512,vpclmul,vnni tier=avx512 cap=none".
 * Thread-safe.
 */
XC_API const char *xc_cpucap_describe(void);

/*
 * xc_cpucap_tier() returns the name of the tier in force ("portable",
 * "avx2", ...), a static string.  Thread-safe.
 */
XC_API const char *xc_cpucap_tier(void);

/*
 * xc_impl_name() returns the name of the variant in use for a kernel:
 * "crc32c", "inet", "zstd_decode", "zstd_encode" or "xxh64" (the hash of
 * several buffers at once that verifies seekable frames) give strings such as
 * "x64-avx512", "arm64-pmull" or "portable".  An unknown kernel name, or
 * NULL, gives NULL.  Thread-safe.
 */
XC_API const char *xc_impl_name(const char *kernel);

/* ======================================================================== */
/*  CRC32C (Castagnoli)                                                     */
/* ======================================================================== */

/*
 * xc_crc32c() extends a CRC32C over len bytes at data and returns it.  Start
 * with crc = 0; the result of one call is the crc argument of the next, so
 * data may be fed in any number of pieces: xc_crc32c(0, "123456789", 9) is
 * 0xE3069283.  This is the reflected polynomial 0x82F63B78 with the usual
 * pre- and post-inversion already applied (as in iSCSI, ext4, SCTP).  data may
 * be NULL when len is 0; any alignment and length.  Thread-safe.
 */
XC_API uint32_t xc_crc32c(uint32_t crc, const void *data, size_t len);

/*
 * xc_crc32c_combine() returns the CRC32C of A followed by B, given the
 * CRC32C of A (crc_a), of B (crc_b, computed from 0) and B's length in bytes.
 * It runs in O(log len_b) time without touching the data.  Thread-safe.
 */
XC_API uint32_t xc_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

/*
 * xc_crc32c_mask() applies the masking that LevelDB, RocksDB and the Snappy
 * framing format store in place of a raw CRC32C (rotate right by 15 bits,
 * then add 0xa282ead8); xc_crc32c_unmask() undoes it.  Thread-safe.
 */
XC_API uint32_t xc_crc32c_mask(uint32_t crc);
XC_API uint32_t xc_crc32c_unmask(uint32_t masked);

/* ======================================================================== */
/*  Internet checksum (RFC 1071, RFC 1624)                                  */
/* ======================================================================== */

/*
 * All values here are host integers.  The checksum field of a packet holds
 * the big-endian bytes of the uint16_t these functions return.
 *
 * Writing an IPv4 header checksum (hdr points at the 20-byte header, whose
 * checksum field, bytes 10..11, is zero):
 *
 *     uint16_t c = xc_inet_checksum(hdr, 20);
 *     hdr[10] = (uint8_t)(c >> 8);
 *     hdr[11] = (uint8_t)c;
 *
 * A UDP checksum over the IPv4 pseudo-header, then the UDP header and
 * payload (udp points at them, its checksum field zero, udp_len bytes):
 *
 *     uint8_t pseudo[12];          // src addr, dst addr, 0, 17, udp_len (BE)
 *     ...fill pseudo...
 *     uint32_t s = xc_inet_sum(0, pseudo, 12);
 *     s = xc_inet_sum(s, udp, udp_len);
 *     uint16_t c = xc_inet_fold(s);
 *     if (c == 0) c = 0xFFFF;      // RFC 768: zero means "no checksum"
 *     udp[6] = (uint8_t)(c >> 8);
 *     udp[7] = (uint8_t)c;
 *
 * A received header is valid when xc_inet_checksum() over it, checksum field
 * included, returns 0.
 */

/*
 * xc_inet_sum() adds len bytes at data, read as 16-bit big-endian words (an
 * odd last byte is padded with a zero byte), to the partial sum `sum` and
 * returns the new partial sum: a 32-bit ones'-complement accumulator, neither
 * folded to 16 bits nor complemented.  Start with 0.  The piece boundaries
 * must fall on even offsets for sums to chain directly; for any boundary use
 * xc_inet_combine().  data may be NULL when len is 0; any alignment and
 * length.  Only the sum's class modulo 0xFFFF is defined: the variants for
 * different CPUs may return different 32-bit values for the same input, all
 * of which combine and fold to the same checksum.  Thread-safe.
 */
XC_API uint32_t xc_inet_sum(uint32_t sum, const void *data, size_t len);

/*
 * xc_inet_combine() returns the partial sum of A followed by B from the
 * partial sum of A, that of B (computed from 0) and A's length.  When len_a
 * is odd, B's bytes sit at odd offsets of the whole, so B's sum is
 * byte-swapped before it is added (RFC 1071 section 2(B)).  Thread-safe.
 */
XC_API uint32_t xc_inet_combine(uint32_t sum_a, uint32_t sum_b, size_t len_a);

/*
 * xc_inet_fold() folds a partial sum to 16 bits with end-around carries and
 * complements it: the value of a checksum field.  Thread-safe.
 */
XC_API uint16_t xc_inet_fold(uint32_t sum);

/*
 * xc_inet_checksum() is xc_inet_fold(xc_inet_sum(0, data, len)).
 * Thread-safe.
 */
XC_API uint16_t xc_inet_checksum(const void *data, size_t len);

/*
 * xc_inet_update() returns the new checksum field after one aligned 16-bit
 * word of the covered data changed from old_word to new_word, without
 * re-reading the data: RFC 1624 equation 3, HC' = ~(~HC + ~m + m').  As the
 * RFC explains, the one case where this differs from a recomputation is when
 * every covered word is zero after the edit: it gives 0x0000 where
 * xc_inet_checksum() gives 0xFFFF (both are the same value in ones'
 * complement).  Thread-safe.
 */
XC_API uint16_t xc_inet_update(uint16_t check, uint16_t old_word, uint16_t new_word);

/* ======================================================================== */
/*  zstd: shared types                                                      */
/* ======================================================================== */

/* Input and output windows of the streaming functions.  The library reads
 * src[pos..size) and writes dst[pos..size), and advances pos by what it
 * consumed or produced. */
typedef struct {
    const void *src;
    size_t size;
    size_t pos;
} xc_in_buffer;

typedef struct {
    void *dst;
    size_t size;
    size_t pos;
} xc_out_buffer;

#define XC_ZSTD_MAGIC 0xFD2FB528u
#define XC_ZSTD_MAGIC_DICTIONARY 0xEC30A437u
#define XC_ZSTD_MAGIC_SKIPPABLE_START 0x184D2A50u
#define XC_ZSTD_MAGIC_SKIPPABLE_MASK 0xFFFFFFF0u
#define XC_ZSTD_BLOCK_SIZE_MAX (128u * 1024u)
#define XC_ZSTD_WINDOW_LOG_MIN 10
#define XC_ZSTD_WINDOW_LOG_MAX 31
#define XC_ZSTD_WINDOW_LOG_LIMIT_DEFAULT 27

/*
 * Frame formats (XC_ZSTD_C_FORMAT, XC_ZSTD_D_FORMAT, the *_format
 * inspection functions).  XC_ZSTD_FORMAT_MAGICLESS is libzstd's
 * ZSTD_f_zstd1_magicless: the same frame without its 4-byte magic number,
 * for containers that know what they hold.  It has no skippable frames
 * (nothing tells one apart), and its frames are readable only by a decoder
 * told the format.
 */
typedef enum {
    XC_ZSTD_FORMAT_ZSTD1 = 0,    /* RFC 8878 frames (the default) */
    XC_ZSTD_FORMAT_MAGICLESS = 1 /* the same without the magic number */
} xc_zstd_format;

/* ======================================================================== */
/*  zstd: decompression                                                     */
/* ======================================================================== */

typedef struct xc_zstd_dctx_s xc_zstd_dctx;
typedef struct xc_zstd_ddict_s xc_zstd_ddict;

#define XC_ZSTD_CONTENTSIZE_UNKNOWN (0ULL - 1)
#define XC_ZSTD_CONTENTSIZE_ERROR (0ULL - 2)

/*
 * xc_zstd_decompress() decodes every frame in src[0..src_size) (zstd frames
 * one after another, skippable frames skipped) into dst and returns the
 * number of bytes written.  Frames that need a dictionary fail with
 * XC_ERROR_DICT_MISSING.  Errors: XC_ERROR_UNKNOWN_MAGIC, XC_ERROR_CORRUPT,
 * XC_ERROR_TRUNCATED, XC_ERROR_DST_TOO_SMALL, XC_ERROR_CHECKSUM,
 * XC_ERROR_FRAME_HEADER, XC_ERROR_DICT_MISSING, XC_ERROR_OUT_OF_MEMORY.
 * Nothing outside src and dst[0..dst_cap) is ever read or written, whatever
 * src holds; after an error dst's content is unspecified.  Thread-safe.
 */
XC_API size_t xc_zstd_decompress(void *dst, size_t dst_cap, const void *src, size_t src_size);

/*
 * xc_zstd_dctx_new() returns a decompression context, or NULL when memory
 * runs out.  A context keeps its buffers between frames, so reusing it for
 * frames of the same or a smaller window allocates nothing.  A context is not
 * safe to use from two threads at once; different threads may use different
 * contexts.  xc_zstd_dctx_free() releases it (NULL is fine).
 */
XC_API xc_zstd_dctx *xc_zstd_dctx_new(void);
XC_API void xc_zstd_dctx_free(xc_zstd_dctx *dctx);

/*
 * xc_zstd_dctx_reset() abandons any frame in progress (also after an error)
 * and forgets the loaded or referenced dictionary; parameters keep their
 * values.  Returns 0, or XC_ERROR_BAD_PARAMETER for a NULL context.
 */
XC_API size_t xc_zstd_dctx_reset(xc_zstd_dctx *dctx);

/* Decompression parameters for xc_zstd_dctx_set(). */
typedef enum {
    /* Largest window (log2 bytes) that streaming decompression accepts;
     * frames beyond it fail with XC_ERROR_WINDOW_TOO_LARGE.  10..31, default
     * 27.  0 restores the default.  One-shot decompression, which needs no
     * window buffer, ignores it. */
    XC_ZSTD_D_WINDOW_LOG_MAX = 100,
    /* The format of the frames to read (xc_zstd_format), one-shot and
     * streaming; default XC_ZSTD_FORMAT_ZSTD1.  Magicless input has no
     * skippable frames, and one-shot decoding of it stays in the calling
     * thread whatever XC_ZSTD_D_NB_WORKERS says. */
    XC_ZSTD_D_FORMAT = 101,
    /* One-shot decompression (xc_zstd_decompress_dctx) of an input of
     * several frames on this many threads (0, the default: the calling
     * thread; up to XC_THREAD_POOL_MAX), each frame decoded into its place
     * in the destination; see below. */
    XC_ZSTD_D_NB_WORKERS = 400
} xc_zstd_dparam;

/*
 * Parallel decompression.  One zstd frame cannot be decoded in parallel
 * (its blocks reach back into the window), but frames are independent:
 * with XC_ZSTD_D_NB_WORKERS, an input of several frames whose headers all
 * record their content size (concatenated files, or a producer that writes
 * a frame per chunk) is decoded by that many threads of the context's own
 * pool, in groups of frames of at least 1 MiB of output each.  What it
 * costs in size is the producer's: each frame starts with no history and
 * fresh tables (about 0.5 to 2 % for 8 MiB frames at level 3) plus ~10 bytes
 * of header and checksum.  A single frame, as the compression workers
 * write (XC_ZSTD_C_NB_WORKERS), frames without a content size, and
 * streaming decompression use the calling thread.  Results and errors are
 * those of the serial decoder (the first error in input order); after an
 * error more of dst may have been written.  Without threads (XCODEC_THREADS
 * =OFF) values other than 0 fail with XC_ERROR_UNSUPPORTED.
 */

/*
 * xc_zstd_dctx_set() sets a parameter; returns 0 or XC_ERROR_BAD_PARAMETER
 * for an unknown parameter, a value out of range or a NULL context, or
 * XC_ERROR_STAGE_WRONG in the middle of a streamed frame or after a
 * streaming error (until xc_zstd_dctx_reset()).
 */
XC_API size_t xc_zstd_dctx_set(xc_zstd_dctx *dctx, xc_zstd_dparam param, int value);

/*
 * xc_zstd_decompress_dctx() is xc_zstd_decompress() with a reusable context,
 * using the dictionary loaded or referenced in it, if any.
 */
XC_API size_t xc_zstd_decompress_dctx(xc_zstd_dctx *dctx, void *dst, size_t dst_cap,
                                      const void *src, size_t src_size);

/*
 * xc_zstd_decompress_stream() decodes input as it comes: it consumes what it
 * can of in and produces what it can into out, in chunks of any size down to
 * one byte, advancing in->pos and out->pos.  It returns 0 when a frame is
 * complete and fully flushed (the next call begins the next frame), an error
 * code, or otherwise a hint: the number of input bytes it would like next.
 * Memory stays bounded by the frame's window plus one block; frames whose
 * window is beyond XC_ZSTD_D_WINDOW_LOG_MAX fail with
 * XC_ERROR_WINDOW_TOO_LARGE.  After an error, call xc_zstd_dctx_reset()
 * before reuse.
 */
XC_API size_t xc_zstd_decompress_stream(xc_zstd_dctx *dctx, xc_out_buffer *out,
                                        xc_in_buffer *in);

/*
 * xc_zstd_dctx_load_dictionary() copies a dictionary into the context, used
 * by every following frame until it is replaced or the context is reset.
 * dict is either raw content or a zstd-format dictionary (magic 0xEC30A437:
 * ID, entropy tables, repeat offsets, content); size 0 unloads.  Returns 0,
 * XC_ERROR_DICT_CORRUPT, XC_ERROR_OUT_OF_MEMORY, XC_ERROR_BAD_PARAMETER (NULL
 * context), or XC_ERROR_STAGE_WRONG in the middle of a streamed frame (whose
 * history may point into the old dictionary).
 */
XC_API size_t xc_zstd_dctx_load_dictionary(xc_zstd_dctx *dctx, const void *dict, size_t size);

/*
 * xc_zstd_ddict_new() prepares a dictionary once, for any number of contexts
 * in any number of threads at once: a ddict is read-only after creation.  It
 * copies dict.  Returns NULL when the dictionary is corrupt or memory runs
 * out.  xc_zstd_ddict_free() releases it (NULL is fine); it must outlive
 * every context that references it.  xc_zstd_ddict_id() returns its ID (0
 * for raw content).
 */
XC_API xc_zstd_ddict *xc_zstd_ddict_new(const void *dict, size_t size);
XC_API void xc_zstd_ddict_free(xc_zstd_ddict *ddict);
XC_API unsigned xc_zstd_ddict_id(const xc_zstd_ddict *ddict);

/*
 * xc_zstd_dctx_ref_ddict() makes the context use a prepared dictionary for
 * the following frames, without copying it; NULL unreferences.  Returns 0,
 * XC_ERROR_BAD_PARAMETER for a NULL context, or XC_ERROR_STAGE_WRONG in the
 * middle of a streamed frame.
 */
XC_API size_t xc_zstd_dctx_ref_ddict(xc_zstd_dctx *dctx, const xc_zstd_ddict *ddict);

/*
 * xc_zstd_frame_content_size() returns the decompressed size recorded in the
 * header of the frame at src: XC_ZSTD_CONTENTSIZE_UNKNOWN when the header
 * does not say, XC_ZSTD_CONTENTSIZE_ERROR when src is not a valid frame
 * header or is too short to hold one.  A skippable frame gives 0.
 */
XC_API unsigned long long xc_zstd_frame_content_size(const void *src, size_t size);

/*
 * xc_zstd_find_frame_compressed_size() returns the size of the first frame
 * (zstd or skippable) at src, walking its block headers, or an error:
 * XC_ERROR_TRUNCATED, XC_ERROR_UNKNOWN_MAGIC, XC_ERROR_CORRUPT,
 * XC_ERROR_FRAME_HEADER.
 */
XC_API size_t xc_zstd_find_frame_compressed_size(const void *src, size_t size);

/*
 * xc_zstd_frame_dict_id() returns the dictionary ID recorded in the frame
 * header at src, or 0 when there is none or the header is not valid.
 */
XC_API unsigned xc_zstd_frame_dict_id(const void *src, size_t size);

/* ======================================================================== */
/*  Threads                                                                 */
/* ======================================================================== */

typedef struct xc_thread_pool_s xc_thread_pool;

/* The most threads one pool may run. */
#define XC_THREAD_POOL_MAX 256

/*
 * xc_thread_pool_new() starts a pool of `threads` threads (1 to
 * XC_THREAD_POOL_MAX) that compression contexts may share
 * (xc_zstd_cctx_ref_thread_pool()), so that a program with many contexts
 * runs a fixed number of threads instead of a set per context.  Returns
 * NULL when threads is out of range, when memory or threads cannot be had,
 * and always in a library built without threads (XCODEC_THREADS=OFF).
 *
 * xc_thread_pool_free() lets the work already queued finish, then stops
 * and joins the threads (NULL is fine).  Free a pool only after every
 * context that references it has been freed, or given another pool or
 * none, or has no frame in progress.  Both functions are thread-safe; the
 * pool itself may be used by contexts in different threads at once.
 */
XC_API xc_thread_pool *xc_thread_pool_new(unsigned threads);
XC_API void xc_thread_pool_free(xc_thread_pool *pool);

/* ======================================================================== */
/*  zstd: compression                                                       */
/* ======================================================================== */

typedef struct xc_zstd_cctx_s xc_zstd_cctx;

/*
 * xc_zstd_compress_bound() returns the largest frame xc_zstd_compress() can
 * write for src_size bytes of input, whatever they hold: a destination of
 * that size never fails with XC_ERROR_DST_TOO_SMALL.  Returns an
 * XC_ERROR_BAD_PARAMETER error for sizes so large the bound overflows.
 */
XC_API size_t xc_zstd_compress_bound(size_t src_size);

/*
 * Levels.  xc_zstd_min_level() (-7; negative levels are faster and give
 * larger output) to xc_zstd_max_level() (22); 0 means the default level, 3.
 * Each level uses the parameters libzstd gives it (strategy, window,
 * search depth), adapted to the source size when it is known.  All three
 * functions are thread-safe.
 */
XC_API int xc_zstd_min_level(void);
XC_API int xc_zstd_max_level(void);
XC_API int xc_zstd_default_level(void);

/*
 * xc_zstd_compress() compresses src[0..src_size) into one zstd frame in
 * dst[0..dst_cap) at the given level, with the content size in the header
 * and no checksum, and returns the frame's size.  Errors:
 * XC_ERROR_DST_TOO_SMALL (nothing is written past dst_cap),
 * XC_ERROR_BAD_PARAMETER (level out of range), XC_ERROR_OUT_OF_MEMORY.
 * Thread-safe.
 */
XC_API size_t xc_zstd_compress(void *dst, size_t dst_cap, const void *src, size_t src_size,
                               int level);

/*
 * xc_zstd_cctx_new() returns a compression context, or NULL when memory runs
 * out; xc_zstd_cctx_free() releases it (NULL is fine).  A context keeps its
 * tables between frames.  It is not safe to use from two threads at once;
 * different threads may use different contexts.
 */
XC_API xc_zstd_cctx *xc_zstd_cctx_new(void);
XC_API void xc_zstd_cctx_free(xc_zstd_cctx *cctx);

/*
 * xc_zstd_estimate_cctx_size() returns the bytes a context holds after
 * compressing one-shot, at the given level with every other parameter at
 * its default, an input of unknown or large size (large enough that the
 * level's parameters are not shrunk to it): the context itself, its match
 * tables, the block buffers, the optimal parsers' state and the
 * long-distance matcher where the level uses them.  Smaller inputs need
 * less; streaming adds the window buffer (the window plus another window
 * or 2 MiB) and a block of output.  Returns XC_ERROR_BAD_PARAMETER for a
 * level outside min_level..max_level (0 is the default level).
 * Thread-safe.
 */
XC_API size_t xc_zstd_estimate_cctx_size(int level);

/*
 * xc_zstd_estimate_cctx_size_workers() is xc_zstd_estimate_cctx_size() for
 * a context that compresses with nb_workers workers (0 gives the same as
 * xc_zstd_estimate_cctx_size()), all other parameters at their defaults,
 * streaming or one-shot: the context, nb_workers + 1 worker contexts, and
 * per job in flight its input with the overlap and its output; the threads'
 * own stacks are not counted.  Errors as xc_zstd_estimate_cctx_size(), and
 * XC_ERROR_UNSUPPORTED for nb_workers > 0 without threads.  Thread-safe.
 */
XC_API size_t xc_zstd_estimate_cctx_size_workers(int level, int nb_workers);

/* Compression parameters for xc_zstd_cctx_set().  0 selects the value the
 * level implies (for the parameters that follow the level). */
typedef enum {
    XC_ZSTD_C_LEVEL = 100,        /* min_level..max_level, 0 = default (3) */
    XC_ZSTD_C_WINDOW_LOG = 101,   /* 10..31 (log2 of the window) */
    XC_ZSTD_C_HASH_LOG = 102,     /* 6..30 */
    XC_ZSTD_C_CHAIN_LOG = 103,    /* 6..30 */
    XC_ZSTD_C_SEARCH_LOG = 104,   /* 1..30 */
    XC_ZSTD_C_MIN_MATCH = 105,    /* 3..7 */
    XC_ZSTD_C_TARGET_LENGTH = 106,/* 0..131072 */
    XC_ZSTD_C_STRATEGY = 107,     /* 1 fast, 2 dfast, 3 greedy, 4 lazy, 5 lazy2, 6 btlazy2,
                                     7 btopt, 8 btultra, 9 btultra2 */
    XC_ZSTD_C_CONTENT_SIZE = 200, /* 0 or 1 (default 1): write the content size when known */
    XC_ZSTD_C_CHECKSUM = 201,     /* 0 (default) or 1: append XXH64's low 32 bits */
    XC_ZSTD_C_DICT_ID = 202,      /* 0 or 1 (default 1): write the ID of the frame's dictionary
                                     (1, 2 or 4 bytes; none for raw content or without one);
                                     0 leaves it out: decoders then need to be told which */
    XC_ZSTD_C_FORMAT = 203,       /* xc_zstd_format: XC_ZSTD_FORMAT_ZSTD1 (default) or
                                     XC_ZSTD_FORMAT_MAGICLESS (frames 4 bytes shorter) */
    XC_ZSTD_C_BLOCK_SPLITTER = 210, /* 0 auto (default), 1 on, 2 off: see below */
    /* Long-distance matching, numbered as libzstd's ZSTD_c_* (see below). */
    XC_ZSTD_C_LONG_DISTANCE = 160,    /* 0 auto (default), 1 on, 2 off */
    XC_ZSTD_C_LDM_HASH_LOG = 161,     /* 6..30, 0 = window_log - 7 */
    XC_ZSTD_C_LDM_MIN_MATCH = 162,    /* 4..4096, 0 = 64 */
    XC_ZSTD_C_LDM_BUCKET_LOG = 163,   /* 1..8, 0 = 3 */
    XC_ZSTD_C_LDM_HASH_RATE_LOG = 164, /* 0..25, 0 = window_log - ldm hash log */
    /* Workers, numbered as libzstd's ZSTD_c_* (see below).  Out-of-range
     * values are clamped into range, as libzstd does. */
    XC_ZSTD_C_NB_WORKERS = 400,  /* 0 (default): compress in the calling thread;
                                    1..256 (64 on 32-bit targets) */
    XC_ZSTD_C_JOB_SIZE = 401,    /* 0 (default): see below; else 512 KiB..1 GiB
                                    (smaller values become 512 KiB) */
    XC_ZSTD_C_OVERLAP_LOG = 402, /* 0 (default): by strategy; 1 none .. 9 a whole window */
    /* xcodec's own (libzstd has no such parameter; see below). */
    XC_ZSTD_C_JOB_FRAMES = 410   /* 0 (default): the jobs make one frame; 1: each job is a
                                    frame of its own, decodable in parallel */
} xc_zstd_cparam;

/*
 * Workers (XC_ZSTD_C_NB_WORKERS >= 1).  The input is cut into jobs of
 * XC_ZSTD_C_JOB_SIZE bytes, by default libzstd's 4 windows (at least 1 MiB;
 * with long-distance matching 8 cycles of the search tables, at least
 * 2 MiB), or, when the content size is known (one-shot, or pledged) and
 * long-distance matching is off, a sixteenth of the content (an eighth at
 * levels up to 4, whose jobs take even time) if that is smaller, but not
 * less than 2 windows, 8 overlaps or 1 MiB: more jobs, so that workers
 * that finish at different times idle less at the end.  Each
 * job is compressed on a thread of the context's pool, with the last bytes
 * of the input before it as history
 * (the overlap: 2^(window_log - 9 + OVERLAP_LOG) bytes; by default a
 * window / 8 for fast to lazy, / 4 for lazy2 and btlazy2, / 2 for btopt and
 * btultra, a whole window for btultra2, and / 2 for lazy2 when the content
 * size made its jobs smaller than 4 windows); the jobs' blocks go out in order
 * in one frame, with one header and one content checksum, which any zstd
 * decoder reads.  A job's first block uses no repeat offset and no entropy
 * table from the job before, so jobs never wait for each other.
 *
 * The frame depends on the input, the parameters and, when streaming, the
 * places of XC_ZSTD_E_FLUSH (each flush ends a job), but never on the
 * number of workers (1 or 256 give the same bytes) nor on the CPU: the
 * same on every XC_CPUCAP tier, on x64, Arm64 and s390x.  It differs from
 * the frame of nb_workers = 0 when there is more than one job, by a little
 * ratio (the history the jobs do not see); an input of one job is
 * compressed in the calling thread into the frame nb_workers = 0 writes.
 *
 * Threads come from the pool the context references
 * (xc_zstd_cctx_ref_thread_pool()), or else from a pool of nb_workers
 * threads the context starts at its first frame with workers and keeps
 * until it is freed or nb_workers changes.  The calling thread reads the
 * input and writes the output; it waits for the workers when it has
 * nothing else to do.  The content checksum is the calling thread's work
 * when streaming, and one-shot a task for the pool after the last job.
 *
 * Memory: nb_workers + 1 worker contexts (each about
 * xc_zstd_estimate_cctx_size() of the level).  Streaming, nb_workers + 1
 * jobs are in flight at most, each holding its input with the overlap and
 * room for its output (the job's compress bound); one-shot, whose input is
 * read where it lies, up to 2 * nb_workers + 1 jobs hold room for their
 * output, so that a slow job does not hold back the workers:
 * xc_zstd_estimate_cctx_size_workers() counts the larger.  In a library built
 * without threads, XC_ZSTD_C_NB_WORKERS, XC_ZSTD_C_JOB_SIZE and
 * XC_ZSTD_C_OVERLAP_LOG accept only 0 and fail otherwise with
 * XC_ERROR_UNSUPPORTED.
 *
 * Independent frames (XC_ZSTD_C_JOB_FRAMES = 1, xcodec only; 0 or 1, else
 * XC_ERROR_BAD_PARAMETER).  With workers, each job becomes a complete frame
 * of its own: its own header with its content size (XC_ZSTD_C_CONTENT_SIZE
 * permitting), its own content checksum when XC_ZSTD_C_CHECKSUM is on, and
 * no history from the job before (no overlap); a dictionary is the history
 * of every frame, a prefix (xc_zstd_cctx_ref_prefix()) of the first only.
 * Each frame is planned for its own size, so it is what nb_workers = 0
 * writes for that piece of input alone.  The output is the concatenation of
 * those frames, which any zstd decoder reads as one content, and which
 * xc_zstd_decompress_dctx() decodes on several threads
 * (XC_ZSTD_D_NB_WORKERS).  The cuts are the same as in one frame (every
 * XC_ZSTD_C_JOB_SIZE bytes and at each flush), so the output still never
 * depends on the number of workers nor on the CPU; without workers, or for
 * an input of one job, the parameter changes nothing.
 *
 * What each mode costs in size against nb_workers = 0, measured on 8 MiB
 * of each class of the generated corpus (programs/corpus_gen.h) with
 * XC_ZSTD_C_JOB_SIZE = 1 MiB (docs/design.md has the table): one frame of
 * jobs loses only what lies before each job's overlap and the entropy
 * tables, 0 to 1.2 % on text, source, json, logs, database and exec at
 * levels 1, 3 and 9 (at 19 the job grows to the overlap, a whole window,
 * and the input is one job); independent frames lose all history at each
 * cut and pay a header per frame: 0.1 to 0.7 % at level 1, -0.2 to 2.3 %
 * at 3, 0.9 to 3.8 % at 9, 3.4 to 11 % at 19 on those classes, and up to
 * twice the size on data whose repeats lie further apart than a job (the
 * "mixed" class: +60 % at level 3).  Larger jobs cost less.
 */

/*
 * Long-distance matching finds repeats as far back as the window reaches
 * (up to 2 GiB), such as the same file twice in an archive, at a small cost
 * in speed; it needs a large window to be of use.  It samples about one
 * position in 2^LDM_HASH_RATE_LOG, remembers 2^LDM_HASH_LOG of them in
 * buckets of 2^LDM_BUCKET_LOG, and takes matches of at least LDM_MIN_MATCH
 * bytes.  XC_ZSTD_C_LONG_DISTANCE = 1 switches it on and, unless
 * XC_ZSTD_C_WINDOW_LOG is set, raises the window to 2^27 (128 MiB, what
 * `zstd --long` uses; still shrunk to the input when its size is known);
 * the default (0) switches it on, as libzstd does, only where the level's
 * parameters are an optimal strategy with a window of 2^27 or more (level
 * 22 on large or unknown sizes).  The table takes 2^(LDM_HASH_LOG + 3)
 * bytes.  Frames with windows above 2^27 need a decoder told to accept
 * them (XC_ZSTD_D_WINDOW_LOG_MAX, libzstd's ZSTD_d_windowLogMax or
 * `zstd --long=N`).
 */

/*
 * The block splitter (XC_ZSTD_C_BLOCK_SPLITTER) cuts a block whose
 * statistics change part way (text, then a table of numbers, then text)
 * into several blocks, each with its own Huffman and FSE tables, when its
 * estimates say that the pieces cost less than the whole; the result is
 * checked, and the block is never larger than it would be without the
 * splitter.  The default (0) switches it on, as libzstd does, for the
 * optimal strategies (btopt and up) with windows of 2^17 or more: level 16
 * and up, level 13 and up on inputs of at most 256 KiB, never on inputs of
 * 64 KiB or less (whose window is smaller).  It costs a few percent of
 * compression speed there.  1 switches it on for every strategy and
 * window, 2 off.
 */

/*
 * xc_zstd_cctx_set() sets a parameter for the following frames; returns 0,
 * XC_ERROR_BAD_PARAMETER for an unknown parameter or a value out of range,
 * or XC_ERROR_STAGE_WRONG while a streamed frame is in progress.
 */
XC_API size_t xc_zstd_cctx_set(xc_zstd_cctx *cctx, xc_zstd_cparam param, int value);

/*
 * xc_zstd_cctx_set_pledged_size() announces the size of the next streamed
 * frame, so its header carries the content size; a frame that then differs
 * fails with XC_ERROR_SRC_SIZE_WRONG.  Returns 0 or XC_ERROR_STAGE_WRONG.
 */
XC_API size_t xc_zstd_cctx_set_pledged_size(xc_zstd_cctx *cctx, unsigned long long size);

/*
 * xc_zstd_cctx_ref_thread_pool() makes the context run its workers on
 * pool (which it does not own; NULL goes back to a pool of the context's
 * own), for the following frames.  The pool must outlive the context's use
 * of it.  Returns 0, XC_ERROR_BAD_PARAMETER for a NULL context,
 * XC_ERROR_STAGE_WRONG while a streamed frame is in progress, or
 * XC_ERROR_UNSUPPORTED for a pool in a library built without threads.
 */
XC_API size_t xc_zstd_cctx_ref_thread_pool(xc_zstd_cctx *cctx, xc_thread_pool *pool);

/*
 * xc_zstd_cctx_reset() abandons any frame in progress (also after an
 * error) and forgets the pledged size; parameters keep their values, and a
 * loaded or referenced dictionary stays in use.  Jobs of the frame that
 * workers have not started are dropped, and the call waits for those they
 * have (xc_zstd_cctx_free() does the same).
 * Returns 0.
 */
XC_API size_t xc_zstd_cctx_reset(xc_zstd_cctx *cctx);

/*
 * xc_zstd_compress_cctx() is xc_zstd_compress() with a reusable context and
 * its parameters.  Same errors, plus XC_ERROR_STAGE_WRONG while a streamed
 * frame is in progress.
 */
XC_API size_t xc_zstd_compress_cctx(xc_zstd_cctx *cctx, void *dst, size_t dst_cap,
                                    const void *src, size_t src_size);

/* What xc_zstd_compress_stream() does after consuming input. */
typedef enum {
    XC_ZSTD_E_CONTINUE = 0, /* buffer input, emit blocks as they fill */
    XC_ZSTD_E_FLUSH = 1,    /* also emit everything buffered so far */
    XC_ZSTD_E_END = 2       /* also finish the frame (epilogue and checksum) */
} xc_zstd_end_op;

/*
 * xc_zstd_compress_stream() consumes what it can of in, writes what it can
 * into out (chunks of any size), advancing both pos, and returns how many
 * bytes are still waiting to be written: 0 when a flush (XC_ZSTD_E_FLUSH)
 * or the frame (XC_ZSTD_E_END) is complete; call again with more output
 * room while it is not.  After XC_ZSTD_E_END returns 0, the next call starts
 * a new frame.  Memory stays bounded by the window (a buffer of the window
 * plus another window or 2 MiB, or of the pledged size when smaller).  With
 * workers (XC_ZSTD_C_NB_WORKERS) input is gathered into jobs instead, at
 * most nb_workers + 1 of them in flight (each its job size plus the
 * overlap, and its output): a call waits for the oldest job when all are
 * busy and there is output room to fill, XC_ZSTD_E_FLUSH and XC_ZSTD_E_END
 * wait for every job (and return a nonzero count until their output is
 * all written), and XC_ZSTD_E_CONTINUE returns at once otherwise.
 * Errors:
 * XC_ERROR_SRC_SIZE_WRONG (pledged size not met), XC_ERROR_OUT_OF_MEMORY,
 * XC_ERROR_BAD_PARAMETER (a NULL or inconsistent buffer, an unknown op:
 * nothing happened, the call may be repeated); after the other errors the
 * frame is lost and the context answers XC_ERROR_STAGE_WRONG until
 * xc_zstd_cctx_reset().
 */
XC_API size_t xc_zstd_compress_stream(xc_zstd_cctx *cctx, xc_out_buffer *out, xc_in_buffer *in,
                                      xc_zstd_end_op op);

/* ======================================================================== */
/*  zstd: compression with a dictionary                                     */
/* ======================================================================== */

/* A prepared compression dictionary, read-only after creation. */
typedef struct xc_zstd_cdict_s xc_zstd_cdict;

/*
 * xc_zstd_cctx_load_dictionary() makes every following frame of the context
 * (one-shot and streamed) use a dictionary: dict[0..size) is either raw
 * content or a zstd-format dictionary (magic 0xEC30A437: ID, entropy tables,
 * repeat offsets, content; RFC 8878 §5), as xc_zstd_train_dictionary(),
 * libzstd's trainer and `zstd --train` write.  The bytes are copied and
 * prepared for the context's current level and parameters at once; dict
 * may be freed when the call returns.  When the level or a parameter
 * changes later, the next frame prepares the copy again (the parameters
 * follow the context's, as without a dictionary).  The content is history
 * just before each frame; a formatted dictionary also supplies the repeat
 * offsets and the Huffman and FSE tables the frame starts with, and its ID
 * goes into each frame header (see XC_ZSTD_C_DICT_ID), so decoders need the
 * same dictionary: xc_zstd_dctx_load_dictionary(), xc_zstd_ddict_new(), or
 * libzstd's.  Raw content has ID 0 and no ID is written.  size 0 unloads.
 * The dictionary replaces any loaded or referenced one and stays until
 * replaced, unloaded, or the context is freed: xc_zstd_cctx_reset() keeps
 * it, like the parameters.  Returns 0, XC_ERROR_DICT_CORRUPT (magic present
 * but the rest not valid: bad tables, repeat offsets of 0 or past the
 * content, truncated; nothing changed), XC_ERROR_OUT_OF_MEMORY,
 * XC_ERROR_BAD_PARAMETER (NULL context, NULL dict with size > 0, size of
 * 768 MiB or more), XC_ERROR_STAGE_WRONG (a streamed frame is in progress
 * or awaits xc_zstd_cctx_reset()).  For many frames with one dictionary,
 * prefer a prepared dictionary: loading costs as much as preparing.
 * Thread safety as for every context function: one thread at a time.
 */
XC_API size_t xc_zstd_cctx_load_dictionary(xc_zstd_cctx *cctx, const void *dict, size_t size);

/*
 * xc_zstd_cdict_new() prepares a dictionary (raw content or the zstd format,
 * as above) once for compression at `level` (min_level..max_level, 0 = the
 * default): it copies dict (which may be freed afterwards), parses it, and
 * fills match tables sized for the level and the dictionary, as libzstd's
 * ZSTD_createCDict() does, and builds the entropy tables.  Returns NULL
 * when the level is out of range, dict is NULL with size > 0, the
 * dictionary is corrupt (xc_zstd_cctx_load_dictionary() reports which) or
 * memory runs out.  A cdict is never written after creation: any number of
 * contexts in any number of threads may reference one at the same time.
 * xc_zstd_cdict_free() releases it (NULL is fine); it must outlive every
 * context that references it (until they reference another, unload, or are
 * freed).  xc_zstd_cdict_id() returns its ID (0 for raw content).
 */
XC_API xc_zstd_cdict *xc_zstd_cdict_new(const void *dict, size_t size, int level);
XC_API void xc_zstd_cdict_free(xc_zstd_cdict *cdict);
XC_API unsigned xc_zstd_cdict_id(const xc_zstd_cdict *cdict);

/*
 * xc_zstd_cctx_ref_cdict() makes the following frames of the context use a
 * prepared dictionary, without copying it (NULL unloads).  It replaces any
 * loaded or referenced dictionary; xc_zstd_cctx_reset() keeps it.  The
 * frames use the cdict's level and table sizes (the context's level and
 * parameter overrides do not apply, except XC_ZSTD_C_WINDOW_LOG and the
 * frame options: checksum, content size, dictionary ID); the window grows
 * with the input as the cdict's level would let it, so large inputs still
 * find matches far back.  Cost per frame: at the levels of the fast and
 * dfast strategies (1 to 4), one-shot inputs up to 8 KiB (fast) or 16 KiB
 * (dfast) search the cdict's tables in place, next to the context's own, so
 * a 1 KiB record pays about what it would without a dictionary; larger or
 * streamed frames place the content before the input and start from the
 * cdict's tables, which the fast levels restore cell by cell after each
 * frame and the other levels copy at each frame (for small records at
 * level 9 and up that copy is most of the cost).  Consecutive frames with
 * one cdict also keep its entropy tables in place while no block replaced
 * them.  Streaming (xc_zstd_compress_stream) works with every form.
 * Frames with a dictionary (loaded or referenced) do not use long-distance
 * matching (XC_ZSTD_C_LONG_DISTANCE).
 * Returns 0, XC_ERROR_BAD_PARAMETER (NULL context) or XC_ERROR_STAGE_WRONG
 * (a streamed frame is in progress or awaits xc_zstd_cctx_reset()).
 */
XC_API size_t xc_zstd_cctx_ref_cdict(xc_zstd_cctx *cctx, const xc_zstd_cdict *cdict);

/* ======================================================================== */
/*  zstd: prefixes, frame headers, progress                                 */
/* ======================================================================== */

/*
 * xc_zstd_cctx_ref_prefix() makes prefix[0..size) the history of the next
 * frame only: the frame may match into it as if it had just been
 * compressed, and a decoder must be given the same bytes
 * (xc_zstd_dctx_ref_prefix(), libzstd's ZSTD_DCtx_refPrefix()).  Unlike a
 * dictionary it is raw content, has no ID and no tables are prepared for
 * it: its positions are entered into the frame's tables when the frame
 * begins.  The bytes are not copied; they must stay unchanged until that
 * frame has begun (its first xc_zstd_compress_stream() call or the
 * one-shot call).  A prefix drops any loaded or referenced dictionary; the
 * frame after the prefixed one has no history.  Only the last window's
 * worth of a prefix longer than the frame's window is used.  size 0
 * withdraws a prefix.  Returns 0, XC_ERROR_BAD_PARAMETER (NULL context,
 * NULL prefix with size > 0, size of 768 MiB or more),
 * XC_ERROR_OUT_OF_MEMORY (the first prefix of a context allocates a small
 * record) or XC_ERROR_STAGE_WRONG (a streamed frame is in progress).
 */
XC_API size_t xc_zstd_cctx_ref_prefix(xc_zstd_cctx *cctx, const void *prefix, size_t size);

/*
 * xc_zstd_dctx_ref_prefix() makes prefix[0..size) the history before the
 * next frame the context begins, as raw content (no ID, no tables), then
 * forgets it: the frame after that has no dictionary.  The bytes are not
 * copied and must stay unchanged until that frame is decoded.  It drops
 * any loaded or referenced dictionary.  size 0 withdraws it.  Returns 0,
 * XC_ERROR_BAD_PARAMETER (NULL context, NULL prefix with size > 0),
 * XC_ERROR_OUT_OF_MEMORY, or XC_ERROR_STAGE_WRONG in the middle of a
 * streamed frame.
 */
XC_API size_t xc_zstd_dctx_ref_prefix(xc_zstd_dctx *dctx, const void *prefix, size_t size);

/* What a frame header says (RFC 8878 §3.1.1.1), or a skippable frame's. */
typedef struct {
    unsigned long long content_size; /* XC_ZSTD_CONTENTSIZE_UNKNOWN when not recorded;
                                        skippable frames: the user data's size */
    unsigned long long window_size;  /* bytes of history the frame may reference
                                        (its content size for single-segment frames) */
    unsigned block_max;              /* largest block: min(window, 128 KiB) */
    unsigned header_size;            /* magic number and header, in bytes */
    unsigned dict_id;                /* 0: none recorded */
    int checksum;                    /* 1: a 4-byte content checksum ends the frame */
    int skippable;                   /* 1: a skippable frame (magic 0x184D2A5?) */
    unsigned skippable_magic_low;    /* skippable frames: the magic's low 4 bits */
} xc_zstd_frame_info;

/*
 * xc_zstd_get_frame_info() reads the header of the frame at src[0..size).
 * It returns 0 with *info filled; a number greater than size when src is
 * too short to hold the whole header (the bytes needed, which the next
 * call should give it: 4 for the magic number, then 5, then the header's
 * size); or an error: XC_ERROR_UNKNOWN_MAGIC, XC_ERROR_FRAME_HEADER (a
 * reserved bit set), XC_ERROR_WINDOW_TOO_LARGE (a window above 2^31),
 * XC_ERROR_BAD_PARAMETER (NULL info, or NULL src with size > 0).
 * Thread-safe.
 */
XC_API size_t xc_zstd_get_frame_info(xc_zstd_frame_info *info, const void *src, size_t size);

/*
 * xc_zstd_frame_header_size() returns the size of the header (magic number
 * included) of the frame at src, read from its first 5 bytes (8 for a
 * skippable frame: magic and length): XC_ERROR_TRUNCATED when size is
 * smaller than that, XC_ERROR_UNKNOWN_MAGIC for other magic numbers.
 * Thread-safe.
 */
XC_API size_t xc_zstd_frame_header_size(const void *src, size_t size);

/*
 * xc_zstd_get_frame_info_format(), xc_zstd_frame_header_size_format() and
 * xc_zstd_find_frame_compressed_size_format() are xc_zstd_get_frame_info(),
 * xc_zstd_frame_header_size() and xc_zstd_find_frame_compressed_size() for
 * frames of the given format (an unknown
 * format is XC_ERROR_BAD_PARAMETER).  With XC_ZSTD_FORMAT_MAGICLESS the
 * header starts at its descriptor byte: 1 byte is what the first call
 * needs, header_size does not count a magic number, and there are no
 * skippable frames.  Thread-safe.
 */
XC_API size_t xc_zstd_get_frame_info_format(xc_zstd_frame_info *info, const void *src,
                                            size_t size, xc_zstd_format format);
XC_API size_t xc_zstd_frame_header_size_format(const void *src, size_t size,
                                               xc_zstd_format format);
XC_API size_t xc_zstd_find_frame_compressed_size_format(const void *src, size_t size,
                                                        xc_zstd_format format);

/* How far the frame being compressed has come, in bytes since its start. */
typedef struct {
    unsigned long long ingested; /* input taken from the caller */
    unsigned long long consumed; /* of that, input compressed into blocks */
    unsigned long long produced; /* compressed bytes made (header included) */
    unsigned long long flushed;  /* of those, bytes handed to the caller */
} xc_zstd_progress;

/*
 * xc_zstd_cctx_progress() fills *progress for the streamed frame in
 * progress, or for the last frame streamed once it ended (all four are 0
 * for a fresh context and after xc_zstd_cctx_reset()).  One-shot calls
 * that do not pass through the window buffer leave no progress.  Returns 0
 * or XC_ERROR_BAD_PARAMETER for a NULL argument.
 */
XC_API size_t xc_zstd_cctx_progress(const xc_zstd_cctx *cctx, xc_zstd_progress *progress);

/* ======================================================================== */
/*  zstd: blocks without frames                                             */
/* ======================================================================== */

/*
 * The block level (libzstd's ZSTD_compressBegin / ZSTD_compressBlock /
 * ZSTD_decompressBegin / ZSTD_decompressBlock / ZSTD_insertBlock): the
 * bodies of compressed blocks (RFC 8878 §3.1.1.3) one after another, with
 * no frame header, block header, checksum or sizes; the caller keeps what
 * it needs to tell the blocks apart and which ones are stored raw.  A
 * block holds at most xc_zstd_block_max() bytes of content (128 KiB or
 * the window, whichever is smaller).  History carries from block to
 * block: matches reach back into earlier blocks (and the dictionary), and
 * the entropy tables and repeat offsets of one compressed block may be
 * reused by the next, so the decoder must see every block, in order.
 */

/*
 * xc_zstd_block_compress_begin() starts a series of blocks on the
 * context, with its level and parameters as for a streamed frame of
 * unknown size, and its loaded or referenced dictionary (or prefix) as
 * history before the first block.  It abandons any frame in progress.
 * Until xc_zstd_cctx_reset() or the next begin, the context takes
 * xc_zstd_block_compress() calls only (others get XC_ERROR_STAGE_WRONG).
 * Memory: a window buffer as for streaming.  Returns 0 or the errors of
 * planning a frame (XC_ERROR_OUT_OF_MEMORY, XC_ERROR_DICT_CORRUPT...),
 * XC_ERROR_BAD_PARAMETER for a NULL context.
 *
 * xc_zstd_block_max() returns the largest block the series begun takes,
 * or for a context that has begun none, that of its last frame (0 for a
 * fresh context).
 *
 * xc_zstd_block_compress() compresses src[0..size) (size at most
 * xc_zstd_block_max()) as the next block into dst[0..dst_cap) and
 * returns the body's size, or 0 when the block is not worth compressing
 * (too small, no gain, or dst_cap too small for the compressed body while
 * size <= dst_cap): nothing useful is in dst then, the caller must keep
 * the block's bytes as they are and give them to the decoder with
 * xc_zstd_block_insert().  Either way the bytes become history (the
 * context keeps a copy: src may be reused at once).  Errors:
 * XC_ERROR_SRC_SIZE_WRONG (size too large), XC_ERROR_DST_TOO_SMALL
 * (dst_cap below both), XC_ERROR_STAGE_WRONG (no series begun),
 * XC_ERROR_BAD_PARAMETER (NULL buffers with sizes).  It never writes an
 * RLE block: a block of one repeated byte compresses to a few bytes.
 */
XC_API size_t xc_zstd_block_compress_begin(xc_zstd_cctx *cctx);
XC_API size_t xc_zstd_block_max(const xc_zstd_cctx *cctx);
XC_API size_t xc_zstd_block_compress(xc_zstd_cctx *cctx, void *dst, size_t dst_cap,
                                     const void *src, size_t size);

/*
 * xc_zstd_block_decompress_begin() starts a series of blocks on the
 * decoding context with its loaded or referenced dictionary (or prefix,
 * which it uses up) as history, the dictionary's entropy tables and
 * repeat offsets, and abandons any streamed frame in progress.  Returns
 * 0, XC_ERROR_OUT_OF_MEMORY, XC_ERROR_BAD_PARAMETER (NULL context).
 *
 * xc_zstd_block_decompress() decodes the compressed block body
 * src[0..size) (at most XC_ZSTD_BLOCK_SIZE_MAX bytes) into dst[0..dst_cap)
 * and returns the bytes produced; xc_zstd_block_insert() records
 * block[0..size), a block the encoder stored raw, as decoded output and
 * returns size.  History is the caller's own memory, in two segments: the
 * blocks written one right after another, and before them the segment of
 * the blocks (or the dictionary) before the last discontinuity, as in
 * libzstd.  A block whose dst does not follow the previous block's end
 * starts a new segment, and the one before it becomes the older; earlier
 * ones are forgotten.  Both segments must stay in place, unchanged, and
 * not overlap dst.  Errors of xc_zstd_block_decompress():
 * XC_ERROR_CORRUPT (any invalid content, an offset beyond the history,
 * more than XC_ZSTD_BLOCK_SIZE_MAX bytes of output),
 * XC_ERROR_SRC_SIZE_WRONG (size above XC_ZSTD_BLOCK_SIZE_MAX),
 * XC_ERROR_DST_TOO_SMALL, XC_ERROR_STAGE_WRONG (no series begun),
 * XC_ERROR_BAD_PARAMETER; nothing outside src, dst and the history is
 * read.  After an error, begin again (the tables and history the next
 * block would see are unspecified).  Streaming or one-shot decoding on
 * the context ends the series; xc_zstd_dctx_reset() and loading or
 * referencing another dictionary do not (a loaded dictionary the series
 * began with is kept for it; a referenced one must outlive it).
 */
XC_API size_t xc_zstd_block_decompress_begin(xc_zstd_dctx *dctx);
XC_API size_t xc_zstd_block_decompress(xc_zstd_dctx *dctx, void *dst, size_t dst_cap,
                                       const void *src, size_t size);
XC_API size_t xc_zstd_block_insert(xc_zstd_dctx *dctx, const void *block, size_t size);

/* ======================================================================== */
/*  zstd: seekable format                                                   */
/* ======================================================================== */

/*
 * The seekable format (zstd's contrib/seekable_format, version 0.1.0):
 * independent frames of bounded decompressed size, then a skippable frame
 * (magic XC_ZSTD_SEEKABLE_TABLE_MAGIC) holding one entry per frame (its
 * compressed and decompressed sizes, optionally the low 32 bits of the
 * XXH64 of its content) and a 9-byte footer ending with
 * XC_ZSTD_SEEKABLE_MAGIC.  Any zstd decoder reads such a file as ordinary
 * concatenated frames; a seekable reader decodes any byte range from the
 * frames that hold it.
 */
#define XC_ZSTD_SEEKABLE_TABLE_MAGIC 0x184D2A5Eu
#define XC_ZSTD_SEEKABLE_MAGIC 0x8F92EAB1u
#define XC_ZSTD_SEEKABLE_FRAME_SIZE_DEFAULT (1u << 20)
#define XC_ZSTD_SEEKABLE_FRAME_SIZE_MAX (1u << 30)

typedef struct xc_zstd_seekable_writer_s xc_zstd_seekable_writer;
typedef struct xc_zstd_seekable_s xc_zstd_seekable;

/*
 * xc_zstd_seekable_writer_new() makes a writer that compresses with cctx
 * (which it borrows: its level, workers and other parameters apply to every
 * frame; it must outlive the writer and not be used elsewhere meanwhile).
 * Each frame holds max_frame_size bytes of content (1 to
 * XC_ZSTD_SEEKABLE_FRAME_SIZE_MAX; 0 means
 * XC_ZSTD_SEEKABLE_FRAME_SIZE_DEFAULT), the last one what remains; with
 * checksums nonzero the seek table carries each frame's checksum.  The
 * output depends only on the input and the parameters, not on how the
 * input is cut into calls nor on the number of workers.  With workers on
 * the cctx (XC_ZSTD_C_NB_WORKERS >= 1 when the writer is made) the writer
 * gathers nb_workers + 1 frames and compresses them in parallel, a whole
 * frame on each worker; each frame is still the one nb_workers = 0 writes,
 * so the file is the same for every count of workers, 0 included (the
 * frames are never cut into jobs).  Memory: about twice max_frame_size,
 * nb_workers + 1 times that with workers.  Returns NULL for a NULL cctx, a size out of range
 * or no memory.  xc_zstd_seekable_writer_free() frees it (NULL is fine),
 * never the cctx.  A writer is not safe to use from two threads at once.
 */
XC_API xc_zstd_seekable_writer *xc_zstd_seekable_writer_new(xc_zstd_cctx *cctx,
                                                            unsigned max_frame_size,
                                                            int checksums);
XC_API void xc_zstd_seekable_writer_free(xc_zstd_seekable_writer *w);

/*
 * xc_zstd_seekable_write() consumes what it can of in (any chunking) and
 * writes what it can of finished frames into out, advancing both pos.  It
 * returns the number of bytes still waiting to be written (call again with
 * more room), or an error: XC_ERROR_BAD_PARAMETER (NULL or inconsistent
 * buffers: nothing happened), XC_ERROR_STAGE_WRONG (after finish or after
 * an earlier error), XC_ERROR_UNSUPPORTED (more frames than a seek table
 * can list), or the cctx's errors; after those the writer is lost.
 *
 * xc_zstd_seekable_finish() compresses what is buffered as the last frame,
 * then writes the seek table; returns the number of bytes still waiting
 * (0 when the file is complete: call again with more room until then),
 * or the errors above.  A writer finished is done; free it.
 */
XC_API size_t xc_zstd_seekable_write(xc_zstd_seekable_writer *w, xc_out_buffer *out,
                                     xc_in_buffer *in);
XC_API size_t xc_zstd_seekable_finish(xc_zstd_seekable_writer *w, xc_out_buffer *out);

/*
 * A read-at callback: reads len bytes at offset of the caller's source into
 * buf and returns 0, or nonzero when it cannot (the reader then reports
 * XC_ERROR_TRUNCATED).  The seekable reader asks only for bytes inside the
 * size it was given.  xc_zstd_seekable_decompress_all() with workers calls
 * it from several threads at once (pread() is fine).
 */
typedef int (*xc_read_at_fn)(void *opaque, void *buf, size_t len, unsigned long long offset);

/*
 * xc_zstd_seekable_new() makes a reader with no input (NULL without memory);
 * xc_zstd_seekable_free() frees it (NULL is fine).
 *
 * xc_zstd_seekable_open_buffer() reads the seek table at the end of
 * src[0..size) (which the caller keeps, unchanged, while the reader uses
 * it); xc_zstd_seekable_open_callback() does the same over a source of
 * `size` bytes read through read_at.  Both return 0, or:
 * XC_ERROR_SEEK_TABLE_MISSING (no footer magic at the end, or the input is
 * shorter than a footer), XC_ERROR_SEEK_TABLE_CORRUPT (reserved descriptor
 * bits set, a skippable header that does not frame the table, a table
 * longer than the input, compressed sizes that do not add up to the bytes
 * before the table), XC_ERROR_TRUNCATED (read_at failed),
 * XC_ERROR_OUT_OF_MEMORY, XC_ERROR_BAD_PARAMETER (NULL arguments).  After
 * an error the reader has no input.  The frames themselves are checked
 * when they are decoded.
 *
 * A reader is not safe to use from two threads at once; different threads
 * may use different readers over the same input.
 */
XC_API xc_zstd_seekable *xc_zstd_seekable_new(void);
XC_API void xc_zstd_seekable_free(xc_zstd_seekable *r);
XC_API size_t xc_zstd_seekable_open_buffer(xc_zstd_seekable *r, const void *src, size_t size);
XC_API size_t xc_zstd_seekable_open_callback(xc_zstd_seekable *r, xc_read_at_fn read_at,
                                             void *opaque, unsigned long long size);

/*
 * The seek table of an open reader: the number of frames; the content
 * size (the sum of the decompressed sizes); whether entries carry
 * checksums; and for frame i (0 <= i < frames) where it starts in the
 * input and in the content and how large it is in each (0 for i out of
 * range or no input).  xc_zstd_seekable_frame_of() returns the index of the
 * frame whose content holds offset, or the frame count when offset is at
 * or past the end.
 */
XC_API unsigned xc_zstd_seekable_frames(const xc_zstd_seekable *r);
XC_API unsigned long long xc_zstd_seekable_content_size(const xc_zstd_seekable *r);
XC_API int xc_zstd_seekable_has_checksums(const xc_zstd_seekable *r);
XC_API unsigned long long xc_zstd_seekable_frame_c_offset(const xc_zstd_seekable *r, unsigned i);
XC_API unsigned long long xc_zstd_seekable_frame_c_size(const xc_zstd_seekable *r, unsigned i);
XC_API unsigned long long xc_zstd_seekable_frame_d_offset(const xc_zstd_seekable *r, unsigned i);
XC_API unsigned long long xc_zstd_seekable_frame_d_size(const xc_zstd_seekable *r, unsigned i);
XC_API unsigned xc_zstd_seekable_frame_of(const xc_zstd_seekable *r, unsigned long long offset);

/*
 * xc_zstd_seekable_read() writes content bytes [offset, offset + len) into
 * dst, decoding only the frames that hold them (the last frame decoded is
 * kept, so reads that walk forward in small steps decode each frame once).
 * Returns the number of bytes written: len, fewer when the content ends
 * first, 0 at the end.  Errors: XC_ERROR_OUT_OF_RANGE (offset past the
 * end), XC_ERROR_SEEK_TABLE_MISMATCH (a frame is not exactly one frame of
 * its entry's sizes), XC_ERROR_CHECKSUM (the entry's checksum differs),
 * the decoder's errors (XC_ERROR_CORRUPT, ...), XC_ERROR_TRUNCATED (read_at
 * failed), XC_ERROR_OUT_OF_MEMORY, XC_ERROR_STAGE_WRONG (no input),
 * XC_ERROR_BAD_PARAMETER (NULL dst with len > 0).  After an error dst's
 * content is undefined; the reader remains usable.
 */
XC_API size_t xc_zstd_seekable_read(xc_zstd_seekable *r, void *dst, size_t len,
                                    unsigned long long offset);

/*
 * xc_zstd_seekable_decompress_all() decodes the whole content into
 * dst[0..dst_cap) on nb_workers threads (0 or 1: the calling thread), each
 * frame into its place, and returns the content size.  Errors: those of
 * xc_zstd_seekable_read() for the first failing frame in input order, and
 * XC_ERROR_DST_TOO_SMALL (nothing is written then).  A build without
 * threads decodes in the calling thread.
 */
XC_API size_t xc_zstd_seekable_decompress_all(xc_zstd_seekable *r, void *dst, size_t dst_cap,
                                              unsigned nb_workers);

/* ======================================================================== */
/*  zstd: dictionary training                                               */
/* ======================================================================== */

/*
 * xc_zstd_train_dictionary() builds a dictionary for data like the samples
 * and writes it to dict[0..dict_cap); it returns the dictionary's size (at
 * most dict_cap, usually all of it).  The samples lie one after another in
 * samples[], sample i being sample_sizes[i] bytes long; both stay the
 * caller's and are only read.  The dictionary is in the zstd format (RFC
 * 8878 §5: entropy tables, repeat offsets and content, with an ID in
 * 32768..2^31-1 derived from the rest), usable by this library's
 * compressor and decompressor and by libzstd and the zstd command
 * (`zstd -D`).  Its content is made of the segments that occur in the
 * most samples, and its tables fit what level 3 makes of the samples.
 * Give it many typical samples: about 100 times the dictionary's size in
 * total works well (a typical dictionary is 16 to 110 KiB).  It needs:
 * at least XC_ZSTD_TRAIN_MIN_SAMPLES samples (else
 * XC_ERROR_TOO_FEW_SAMPLES); at least XC_ZSTD_TRAIN_MIN_BYTES bytes of
 * samples in total, in samples of 8 bytes or more (else
 * XC_ERROR_SAMPLES_TOO_SMALL); dict_cap of at least XC_ZSTD_TRAIN_MIN_DICT
 * bytes (else XC_ERROR_DST_TOO_SMALL).  Only the first 128 KiB of each
 * sample inform the entropy tables.  Other errors: XC_ERROR_BAD_PARAMETER
 * (a NULL buffer, samples totalling 4 GiB or more),
 * XC_ERROR_OUT_OF_MEMORY (it allocates about 12 MiB plus twice dict_cap;
 * nothing is kept).  The same arguments give the same bytes on every CPU
 * and byte order.  Thread-safe: it has no state, and any number of calls
 * may run at once.
 */
/*
 * xc_zstd_finalize_dictionary() turns content[0..content_size) (raw
 * dictionary content, most useful bytes last, as a trainer of one's own
 * picked them) into a zstd-format dictionary in dict[0..dict_cap): magic,
 * ID, entropy tables fitted to what level 3 makes of the samples with the
 * content in front, repeat offsets 1, 4, 8, then the content (its last
 * bytes, when it does not fit whole).  It returns the dictionary's size.
 * dict_id 0 derives an ID from the rest (32768..2^31-1); other values are
 * written as given.  content may lie inside dict (for example at its
 * end).  Errors: XC_ERROR_TOO_FEW_SAMPLES (no samples),
 * XC_ERROR_SAMPLES_TOO_SMALL (content under 8 bytes),
 * XC_ERROR_DST_TOO_SMALL (dict_cap below what the tables may need, about
 * 400 bytes), XC_ERROR_BAD_PARAMETER (NULL buffers, samples of 4 GiB or
 * more).  Same bytes on every CPU; thread-safe.
 */
XC_API size_t xc_zstd_finalize_dictionary(void *dict, size_t dict_cap, const void *content,
                                          size_t content_size, const void *samples,
                                          const size_t *sample_sizes, unsigned nb_samples,
                                          unsigned dict_id);

#define XC_ZSTD_TRAIN_MIN_SAMPLES 5
#define XC_ZSTD_TRAIN_MIN_BYTES 512
#define XC_ZSTD_TRAIN_MIN_DICT 512
XC_API size_t xc_zstd_train_dictionary(void *dict, size_t dict_cap, const void *samples,
                                       const size_t *sample_sizes, unsigned nb_samples);

#ifdef __cplusplus
}
#endif

#endif /* XCODEC_H */
