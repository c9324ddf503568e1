/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zstd decoding of frames that reach back into a dictionary farther than
 * their window.  RFC 8878 §5 (dictionary content): as long as the amount of
 * data decoded from the frame is at most Window_Size, sequences may use
 * offsets longer than the output so far to read the dictionary, even parts
 * of it farther back than Window_Size; once the output has passed
 * Window_Size the dictionary is out of reach.
 *
 * No encoder can be relied on to write such frames, so a small frame builder
 * here does: a window descriptor for a small window, raw literals, and
 * sequences in RLE mode (one code per symbol type and block), so that the
 * sequence bit stream holds nothing but extra bits.  The content each frame
 * should give is computed beside it, byte by byte.  Every frame is decoded
 * one-shot and streamed in pieces down to one byte, with the dictionary raw,
 * formatted, loaded into the context and prepared as a ddict.  The same
 * frame with the boundary match one byte later, or its offset one byte
 * longer, must fail every way.
 *
 * The same builder writes frames without a dictionary whose offsets reach
 * past the window after the streaming decoder's window buffer has wrapped:
 * one-shot decoding has the whole output and gives it, streaming must give
 * the same bytes or XC_ERROR_CORRUPT, never bytes the buffer no longer
 * holds.
 */
#define _DEFAULT_SOURCE
#include "zstd_entropy_test_util.h"
#include "zstd_test_frames.h"

/* ---- codes (RFC 8878 §3.1.1.3.2.1.1) ------------------------------------------ */

/* Literal length codes 16..35 and match length codes 32..52: baseline and
 * number of extra bits.  Lower codes stand for their value (literal
 * lengths) or their value plus 3 (match lengths), with no extra bits. */
static const uint32_t ll_base[20] = {16,  18,  20,   22,   24,   28,   32,   40,    48,    64,
                                     128, 256, 512,  1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const uint8_t ll_bits[20] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint32_t ml_base[21] = {35,  37,  39,   41,   43,   47,   51,    59,    67,   83,   99,
                                     131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const uint8_t ml_bits[21] = {1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

typedef struct {
    unsigned code, nbits;
    uint32_t extra;
} code_t;

static code_t ll_code(uint32_t v)
{
    if (v < 16) return (code_t){v, 0, 0};
    unsigned c = 19;
    while (ll_base[c] > v) c--;
    assert_true(v - ll_base[c] < (1u << ll_bits[c]));
    return (code_t){16 + c, ll_bits[c], v - ll_base[c]};
}

static code_t ml_code(uint32_t v)
{
    assert_true(v >= 3);
    if (v < 35) return (code_t){v - 3, 0, 0};
    unsigned c = 20;
    while (ml_base[c] > v) c--;
    assert_true(v - ml_base[c] < (1u << ml_bits[c]));
    return (code_t){32 + c, ml_bits[c], v - ml_base[c]};
}

/* An offset (not a repeat code): Offset_Value = offset + 3, whose highest
 * bit is the code and the bits below it the extra bits (§3.1.1.3.2.1.1). */
static code_t of_code(uint32_t of)
{
    uint32_t const v = of + 3;
    unsigned c = 31;
    while (!(v >> c)) c--;
    return (code_t){c, c, v - (1u << c)};
}

/* ---- the frame and the content it stands for ----------------------------------- */

typedef struct {
    uint32_t ll, ml, of;
} seq_t;

/* The frame being written, and the content it should decode to after the
 * dictionary's content: hist[0..dsize) is the dictionary, hist[dsize..len)
 * the frame's content so far. */
typedef struct {
    uint8_t *f;
    size_t n, cap;
    uint8_t *hist;
    size_t dsize, len, hcap;
    size_t block_max;
} builder;

static void put(builder *b, const void *p, size_t n)
{
    assert_true(b->n + n <= b->cap);
    memcpy(b->f + b->n, p, n);
    b->n += n;
}

static void put_le(builder *b, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        uint8_t const c = (uint8_t)(v >> (8 * i));
        put(b, &c, 1);
    }
}

/* Magic number and frame header (§3.1.1.1): no single segment, so a window
 * descriptor; a 4-byte dictionary ID when id is not 0; a 4-byte content size
 * when content is not XC_ZSTD_CONTENTSIZE_UNKNOWN; no checksum. */
static void put_frame_header(builder *b, uint64_t window, uint32_t id, uint64_t content)
{
    unsigned wlog = 10;
    while (((uint64_t)2 << wlog) <= window) wlog++;
    uint64_t const step = ((uint64_t)1 << wlog) / 8, mantissa = (window - ((uint64_t)1 << wlog)) / step;
    assert_true(mantissa < 8 && ((uint64_t)1 << wlog) + mantissa * step == window);
    int const has_size = content != XC_ZSTD_CONTENTSIZE_UNKNOWN;
    put_le(b, 0xFD2FB528u, 4);
    put_le(b, (has_size ? 2u << 6 : 0u) | (id ? 3u : 0u), 1);
    put_le(b, (wlog - 10) << 3 | mantissa, 1);
    if (id) put_le(b, id, 4);
    if (has_size) put_le(b, content, 4);
    b->block_max = (size_t)XC_MIN(window, (uint64_t)XC_ZSTD_BLOCK_SIZE_MAX);
}

static void put_block_header(builder *b, int last, unsigned type, size_t size)
{
    assert_true(size <= b->block_max);
    put_le(b, (uint32_t)last | type << 1 | (uint32_t)size << 3, 3);
}

static void add_content(builder *b, const uint8_t *p, size_t n)
{
    assert_true(b->len + n <= b->hcap);
    memcpy(b->hist + b->len, p, n);
    b->len += n;
}

/* A raw block of n pseudo-random bytes. */
static void put_raw_block(builder *b, int last, size_t n)
{
    uint8_t *p = zt_malloc(n);
    xc_rand_fill(p, n);
    put_block_header(b, last, 0, n);
    put(b, p, n);
    add_content(b, p, n);
    free(p);
}

/* A compressed block: raw literals, then the sequences (at least one),
 * whose literal lengths, offsets and match lengths must each have one code
 * for the whole block (RLE mode, §3.1.1.3.2.1), then `tail` more literals.
 * The literals are pseudo-random.  Offsets that reach before the
 * dictionary's start make content that is never compared. */
static void put_seq_block(builder *b, int last, const seq_t *q, size_t nseq, size_t tail)
{
    size_t nlit = tail, pos = 0;
    for (size_t i = 0; i < nseq; i++) nlit += q[i].ll;
    uint8_t *lit = zt_malloc(nlit);
    xc_rand_fill(lit, nlit);
    size_t const body_cap = 16 + nlit + 8 * nseq;
    uint8_t *body = zt_malloc(body_cap);
    size_t n = 0;

    /* Literals section header, Raw_Literals_Block (§3.1.1.3.1.1). */
    assert_true(nlit < (1u << 20));
    if (nlit < 32) {
        body[n++] = (uint8_t)(nlit << 3);
    } else if (nlit < 4096) {
        body[n++] = (uint8_t)(nlit << 4 | 0x4);
        body[n++] = (uint8_t)(nlit >> 4);
    } else {
        body[n++] = (uint8_t)(nlit << 4 | 0xC);
        body[n++] = (uint8_t)(nlit >> 4);
        body[n++] = (uint8_t)(nlit >> 12);
    }
    memcpy(body + n, lit, nlit);
    n += nlit;

    /* Sequences section header: the count, the modes (RLE for all three,
     * 0x54), and the three RLE codes in the order literal lengths, offsets,
     * match lengths. */
    assert_true(nseq > 0 && nseq < 0x7F00);
    if (nseq < 128) {
        body[n++] = (uint8_t)nseq;
    } else {
        body[n++] = (uint8_t)(nseq >> 8 | 0x80);
        body[n++] = (uint8_t)nseq;
    }
    body[n++] = 0x54;
    code_t const l0 = ll_code(q[0].ll), o0 = of_code(q[0].of), m0 = ml_code(q[0].ml);
    body[n++] = (uint8_t)l0.code;
    body[n++] = (uint8_t)o0.code;
    body[n++] = (uint8_t)m0.code;

    /* The bit stream is read backwards, each sequence's offset, match
     * length and literal length extra bits in turn (§3.1.1.3.2.2), with no
     * state bits in RLE mode; so it is written from the last sequence to
     * the first, each as literal length, match length, offset. */
    bitw w = {body + n, body_cap - n, 0};
    for (size_t i = nseq; i-- > 0;) {
        code_t const l = ll_code(q[i].ll), o = of_code(q[i].of), m = ml_code(q[i].ml);
        assert_int_equal(l.code, l0.code);
        assert_int_equal(o.code, o0.code);
        assert_int_equal(m.code, m0.code);
        bw_add(&w, l.extra, l.nbits);
        bw_add(&w, m.extra, m.nbits);
        bw_add(&w, o.extra, o.nbits);
    }
    n += bw_close(&w);

    put_block_header(b, last, 2, n);
    put(b, body, n);

    /* The content: literals, then the match byte by byte (which is how an
     * overlapping match is defined). */
    for (size_t i = 0; i < nseq; i++) {
        add_content(b, lit + pos, q[i].ll);
        pos += q[i].ll;
        assert_true(b->len + q[i].ml <= b->hcap);
        for (uint32_t k = 0; k < q[i].ml; k++, b->len++)
            b->hist[b->len] = q[i].of <= b->len ? b->hist[b->len - q[i].of] : 0;
    }
    add_content(b, lit + pos, tail);
    free(body);
    free(lit);
}

/* ---- one frame -------------------------------------------------------------------- */

/* What the boundary match does.  OK: it starts exactly at Window_Size and
 * reads the dictionary's first byte, the farthest the rule allows.  LATE:
 * it starts one byte later.  FAR: its offset is one byte longer. */
enum reach { REACH_OK, REACH_LATE, REACH_FAR };

/* The literals before the boundary match, and the bytes it copies. */
#define AT_LL 7u
#define AT_ML 40u

/* Writes a frame for `window` that uses dictionary content dict[0..dsize)
 * (dsize >= 2 * window + 4096) in these blocks:
 *   1. one sequence that starts in the dictionary's last bytes and runs on
 *      into the frame's own first bytes;
 *   2. sequences reaching past the window into the dictionary, at
 *      positions up to half the window or one block;
 *   3. raw blocks up to the boundary match;
 *   4. the boundary match `at` bytes into the frame (`at` = window for OK
 *      and FAR), then a few literals;
 *   5. sequences within the window, in the last block.
 * Returns the frame (malloc'ed, size *n); the content is in b->hist after
 * the dictionary. */
static uint8_t *make_frame(builder *b, size_t window, const uint8_t *dict, size_t dsize,
                           uint32_t id, int content_size, enum reach how, size_t at, size_t *n)
{
    b->cap = 64 + 2 * (at + window + 4096);
    b->f = zt_malloc(b->cap);
    b->n = 0;
    b->hcap = dsize + at + window + 4096;
    b->hist = zt_malloc(b->hcap);
    b->dsize = dsize;
    memcpy(b->hist, dict, dsize);
    b->len = dsize;

    /* The content size is known only once the blocks are laid out: write
     * the header with a placeholder and patch it. */
    size_t const size_at = 4 + 1 + 1 + (id ? 4 : 0);
    put_frame_header(b, window, id,
                     content_size ? 0 : XC_ZSTD_CONTENTSIZE_UNKNOWN);

    /* 1: 10 bytes from the dictionary's end, then 20 of the frame's own. */
    seq_t q0 = {3, 30, 3 + 10};
    put_seq_block(b, 0, &q0, 1, 0);

    /* 2: ll 5, ml 13, offsets of one code whose range lies beyond the
     * window and within the dictionary's reach. */
    {
        size_t const span = XC_MIN(window / 2, b->block_max - 64);
        size_t const nseq = span / 18 - 2;
        unsigned c = 0;
        while (((size_t)2 << c) <= window + 3) c++;
        c++; /* window + 3 < 2^c <= 2 * window + 6 < dsize */
        uint32_t const lo = XC_MAX((uint32_t)window + 1, (1u << c) - 3);
        uint32_t const hi = (uint32_t)XC_MIN((size_t)(2u << c) - 4, dsize);
        seq_t *q = zt_malloc(nseq * sizeof *q);
        for (size_t i = 0; i < nseq; i++) {
            q[i].ll = 5;
            q[i].ml = 13;
            q[i].of = lo + xc_rand_below(hi - lo + 1);
        }
        put_seq_block(b, 0, q, nseq, 0);
        free(q);
    }

    /* 3: raw blocks up to AT_LL bytes before the boundary match. */
    while (b->len - dsize < at - AT_LL)
        put_raw_block(b, 0, XC_MIN(b->block_max, at - AT_LL - (b->len - dsize)));

    /* 4: the boundary match, and 11 literals after it. */
    {
        seq_t q = {AT_LL, AT_ML, (uint32_t)(at + dsize + (how == REACH_FAR))};
        put_seq_block(b, 0, &q, 1, 11);
    }

    /* 5: ll 4, ml 20, offsets of one code below the window. */
    {
        seq_t q[8];
        unsigned c = 0;
        while (((size_t)4 << c) <= window) c++;
        for (int i = 0; i < 8; i++) {
            q[i].ll = 4;
            q[i].ml = 20;
            q[i].of = (1u << c) - 3 + xc_rand_below(1u << c);
        }
        put_seq_block(b, 1, q, 8, 3);
    }

    if (content_size) {
        uint32_t const size = (uint32_t)(b->len - dsize);
        for (int i = 0; i < 4; i++) b->f[size_at + i] = (uint8_t)(size >> (8 * i));
    }
    *n = b->n;
    return b->f;
}

/* ---- decoding every way ------------------------------------------------------------ */

typedef struct {
    const uint8_t *dict;
    size_t size;
    const char *name;
} dict_form;

/* Decodes the frame with the dictionary loaded and as a ddict, one-shot
 * and streamed in pieces of 1 byte and of random sizes; want == NULL means
 * every way must fail with XC_ERROR_CORRUPT. */
static void check_frame(const dict_form *df, const uint8_t *frame, size_t n, const uint8_t *want,
                        size_t want_size, size_t cap, const char *what)
{
    xc_zstd_ddict *dd = xc_zstd_ddict_new(df->dict, df->size);
    assert_non_null(dd);
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    uint8_t *dst = xc_guard_alloc(cap);
    assert_non_null(dst);
    uint8_t *src = xc_guard_alloc(n);
    assert_non_null(src);
    memcpy(src, frame, n);
    static const zt_chunking ones = {1, 1};

    for (int way = 0; way < 2; way++) {
        for (int pass = 0; pass < 3; pass++) {
            xc_zstd_dctx_reset(d);
            if (way == 0)
                assert_int_equal(xc_zstd_dctx_load_dictionary(d, df->dict, df->size), 0);
            else
                assert_int_equal(xc_zstd_dctx_ref_ddict(d, dd), 0);
            size_t r;
            int complete = 1;
            const char *mode;
            if (pass == 0) {
                mode = "one-shot";
                r = xc_zstd_decompress_dctx(d, dst, cap, src, n);
            } else {
                /* One byte in and out per call is slow on big frames:
                 * those get random pieces twice. */
                zt_chunking const ch = pass == 1 && n < 100000 ? ones : zt_random_chunking();
                zt_stream_result sr = zt_stream_decode(d, dst, cap, src, n, ch);
                mode = ch.max_in == 1 && ch.max_out == 1 ? "streaming by 1 byte" : "streaming";
                r = sr.result;
                complete = sr.complete && !sr.stalled;
            }
            int ok;
            if (want)
                ok = !xc_is_error(r) && complete && r == want_size && !memcmp(dst, want, want_size);
            else
                ok = xc_error_code(r) == XC_ERROR_CORRUPT;
            if (!ok) {
                print_error("%s, %s dictionary %s, %s: got %s (%zu bytes), want %s\n", what,
                            df->name, way ? "as a ddict" : "loaded", mode,
                            xc_is_error(r) ? xc_error_name(r) : "data", r,
                            want ? "the content" : "corrupt");
                fail();
            }
        }
    }
    xc_guard_free(src);
    xc_guard_free(dst);
    xc_zstd_dctx_free(d);
    xc_zstd_ddict_free(dd);
}

/* Window sizes from the smallest a window descriptor gives (1 KiB) up, with
 * mantissas, and past the 128 KiB block. */
static const size_t windows[] = {1024, 1152, 2048, 2560, 3328, 5120, 13312, 32768, 147456};

static void run_window(size_t window, enum reach how, size_t at, const char *label)
{
    size_t const dsize = 2 * window + 4096 + xc_rand_below(4096);
    /* The formatted dictionary: the embedded one's magic, ID, entropy
     * tables and repeat offsets (1, 4, 8), then our content. */
    size_t jsize;
    const uint8_t *json = zt_embedded_json_dict(&jsize);
    uint8_t *formatted = zt_malloc(ZT_JSON_DICT_HEADER + dsize);
    memcpy(formatted, json, ZT_JSON_DICT_HEADER);
    uint8_t *content = formatted + ZT_JSON_DICT_HEADER;
    xc_rand_fill(content, dsize);
    content[0] = 'r'; /* as a raw dictionary, not the zstd magic */

    const dict_form forms[2] = {{content, dsize, "raw"},
                                {formatted, ZT_JSON_DICT_HEADER + dsize, "formatted"}};
    for (int form = 0; form < 2; form++) {
        for (int content_size = 0; content_size < 2; content_size++) {
            builder b;
            size_t n;
            uint8_t *f = make_frame(&b, window, content, dsize, form ? ZT_JSON_DICT_ID : 0,
                                    content_size, how, at, &n);
            char what[128];
            snprintf(what, sizeof what, "window %zu, %s at %zu, %s content size", window, label,
                     at, content_size ? "with" : "no");
            size_t const size = b.len - dsize;
            check_frame(&forms[form], f, n, how == REACH_OK ? b.hist + dsize : NULL, size, size,
                        what);
            free(f);
            free(b.hist);
        }
    }
    free(formatted);
}

/* The boundary match at exactly Window_Size, reading the dictionary's
 * first byte: valid, and decoded alike every way. */
static void test_reach_at_window(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++)
        run_window(windows[i], REACH_OK, windows[i], "reach");
}

/* Below the window, at random positions after the early blocks. */
static void test_reach_below_window(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        size_t const w = windows[i], first = 3 + 30 + XC_MIN(w / 2, XC_ZSTD_BLOCK_SIZE_MAX - 64);
        for (int k = 0; k < 3; k++) {
            size_t const at = first + AT_LL + xc_rand_below((uint32_t)(w - first - AT_LL));
            run_window(w, REACH_OK, at, "reach");
        }
    }
}

/* The same match one byte after Window_Size, when the dictionary is out of
 * reach, and at Window_Size with an offset one byte longer than the
 * dictionary: corrupt, one-shot and streaming. */
static void test_reach_one_past(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        run_window(windows[i], REACH_LATE, windows[i] + 1, "late reach");
        run_window(windows[i], REACH_FAR, windows[i], "far reach");
    }
}

/* ---- offsets past the window after the window buffer wraps --------------------- */

/* The decoder's wildcopy margin (XC_ZSTD_WILDCOPY): the streaming buffer is
 * window + block + 2 * WILDCOPY bytes, and after a wrap at position p it
 * still holds p - WILDCOPY bytes of history. */
#define WILDCOPY 32u

/* Decodes a frame without a dictionary one-shot (must give want) and
 * streamed in 1-byte and random pieces (must give want or fail with
 * XC_ERROR_CORRUPT); returns how many streaming passes failed. */
static int check_wrapped(const uint8_t *frame, size_t n, const uint8_t *want, size_t size,
                         const char *what)
{
    xc_zstd_dctx *d = xc_zstd_dctx_new();
    assert_non_null(d);
    uint8_t *dst = xc_guard_alloc(size);
    assert_non_null(dst);
    uint8_t *src = xc_guard_alloc(n);
    assert_non_null(src);
    memcpy(src, frame, n);
    static const zt_chunking ones = {1, 1};
    int corrupt = 0;

    size_t r = xc_zstd_decompress_dctx(d, dst, size, src, n);
    if (xc_is_error(r) || r != size || memcmp(dst, want, size)) {
        print_error("%s, one-shot: got %s (%zu bytes), want the content\n", what,
                    xc_is_error(r) ? xc_error_name(r) : "data", r);
        fail();
    }
    for (int pass = 0; pass < 3; pass++) {
        xc_zstd_dctx_reset(d);
        zt_chunking const ch = pass == 0 ? ones : zt_random_chunking();
        zt_stream_result sr = zt_stream_decode(d, dst, size, src, n, ch);
        r = sr.result;
        if (xc_error_code(r) == XC_ERROR_CORRUPT) {
            corrupt++;
            continue;
        }
        if (xc_is_error(r) || !sr.complete || sr.stalled || r != size || memcmp(dst, want, size)) {
            print_error("%s, streaming (pieces up to %zu in, %zu out): got %s (%zu bytes), "
                        "want the content or corrupt\n",
                        what, ch.max_in, ch.max_out,
                        xc_is_error(r) ? xc_error_name(r) : "wrong data", r);
            fail();
        }
    }
    xc_guard_free(src);
    xc_guard_free(dst);
    xc_zstd_dctx_free(d);
    return corrupt;
}

/* A frame for `window` with no content size (so the streaming buffer is
 * window + block + margin and wraps): raw blocks of random sizes past
 * `before` bytes, then single-sequence blocks whose offsets are random up
 * to `far` bytes beyond the window (never beyond the output so far), each
 * after random literals, so that matches start at every depth of the
 * segment after the wrap. */
static uint8_t *make_wrapped(builder *b, size_t window, size_t before, size_t far, size_t nseq,
                             size_t *n)
{
    b->cap = 64 + 2 * (before + window) + nseq * 400;
    b->f = zt_malloc(b->cap);
    b->n = 0;
    b->hcap = before + window + nseq * 400;
    b->hist = zt_malloc(b->hcap);
    b->dsize = 0;
    b->len = 0;
    put_frame_header(b, window, 0, XC_ZSTD_CONTENTSIZE_UNKNOWN);
    while (b->len < before)
        put_raw_block(b, 0, 1 + xc_rand_below((uint32_t)b->block_max));
    for (size_t i = 0; i < nseq; i++) {
        seq_t q;
        q.ll = xc_rand_below(200);
        q.ml = 3 + xc_rand_below(60);
        size_t const lo = window + 1, hi = XC_MIN(window + far, b->len + q.ll);
        q.of = (uint32_t)(lo + xc_rand_below((uint32_t)(hi - lo + 1)));
        put_seq_block(b, i + 1 == nseq, &q, 1, xc_rand_below(100));
    }
    *n = b->n;
    return b->f;
}

/* Offsets past Window_Size after the streaming buffer has wrapped, as
 * libzstd's decodecorpus writes them: one-shot gives the content, streaming
 * the content or corrupt, never wrong bytes.  Offsets only a little past the
 * window are still held intact and must decode; the farthest, in the
 * part of the buffer the new segment has overwritten, must be corrupt. */
static void test_wrap_offset_past_window(void **state)
{
    (void)state;
    static const size_t wins[] = {1024, 1152, 2048, 5120, 13312};
    for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++) {
        size_t const w = wins[i];
        for (int k = 0; k < 12; k++) {
            /* k < 4: offsets one byte past the window, always held (the
             * buffer wraps past window + WILDCOPY); else up to a block and
             * more past it. */
            size_t const far = k < 4 ? 1 : XC_MIN(w, XC_ZSTD_BLOCK_SIZE_MAX) + 64;
            size_t const before = w + xc_rand_below((uint32_t)(3 * w));
            builder b;
            size_t n;
            uint8_t *f = make_wrapped(&b, w, before, far, 24, &n);
            char what[128];
            snprintf(what, sizeof what, "window %zu, %zu raw bytes, offsets up to %zu past it",
                     w, before, far);
            int const corrupt = check_wrapped(f, n, b.hist, b.len, what);
            if (k < 4 && corrupt) {
                print_error("%s: streaming rejected offsets it still holds\n", what);
                fail();
            }
            free(f);
            free(b.hist);
        }
    }
}

/* The exact bound: after a wrap at old position p (from the buffer's start),
 * an offset of p - W decodes, one of p - W + 1 is corrupt, at any depth of
 * the segment.  Window 1024, blocks of 1024: the buffer holds 2112 bytes, the
 * third block wraps it at p = 2048. */
static void test_wrap_offset_bound(void **state)
{
    (void)state;
    for (uint32_t ll = 0; ll < 1100; ll += 97) {
        for (int past = 0; past < 2; past++) {
            builder b;
            b.cap = 8192;
            b.f = zt_malloc(b.cap);
            b.n = 0;
            b.hcap = 8192;
            b.hist = zt_malloc(b.hcap);
            b.dsize = 0;
            b.len = 0;
            put_frame_header(&b, 1024, 0, XC_ZSTD_CONTENTSIZE_UNKNOWN);
            put_raw_block(&b, 0, 1024);
            put_raw_block(&b, 0, 1024);
            /* ll literals (in two blocks when ll > 900, so that the prefix
             * has grown before the block of the match), then the match. */
            uint32_t l = ll;
            if (ll > 900) {
                put_raw_block(&b, 0, 900);
                l -= 900;
            }
            seq_t q = {l, 20, 2048 - WILDCOPY + (uint32_t)past};
            put_seq_block(&b, 1, &q, 1, 5);
            char what[96];
            snprintf(what, sizeof what, "offset %u after %u bytes of the segment", q.of, ll);
            int const corrupt = check_wrapped(b.f, b.n, b.hist, b.len, what);
            if (corrupt != (past ? 3 : 0)) {
                print_error("%s: %d of 3 streaming passes corrupt, want %d\n", what, corrupt,
                            past ? 3 : 0);
                fail();
            }
            free(b.f);
            free(b.hist);
        }
    }
}

int main(void)
{
    xc_test_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reach_at_window),
        cmocka_unit_test(test_reach_below_window),
        cmocka_unit_test(test_reach_one_past),
        cmocka_unit_test(test_wrap_offset_past_window),
        cmocka_unit_test(test_wrap_offset_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
