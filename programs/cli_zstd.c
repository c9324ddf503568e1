/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The streaming loops of the xcodec command: one input descriptor through
 * the library's streaming compressor or decompressor into one output, with
 * two fixed buffers, so memory stays bounded by the buffers plus the
 * codec's window whatever the size of the input.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* One zstd block's worth: the compressor emits whole blocks, and a full
 * block of input is what the decompressor wants at most in one piece. */
#define XC_CLI_CHUNK ((size_t)128 * 1024)

int xc_cli_fatal_status;

struct xc_codec {
    const struct xc_cli_opts *opts;
    xc_zstd_cctx *cctx;
    xc_zstd_dctx *dctx;
    xc_zstd_ddict *ddict;
    unsigned char *in_buf, *out_buf;
    unsigned long long n_in, n_out;
    unsigned char *patch; /* --patch-from's reference */
    size_t patch_size;
};


unsigned char *xc_cli_read_file(const char *path, size_t limit, size_t *size)
{
    struct stat st;
    int fd = xc_source_open(path, 1, &st);
    if (fd < 0) return NULL;
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            if (cap >= limit) {
                xc_cli_msg(1, "%s: larger than %zu MiB, too large here", path, limit >> 20);
                break;
            }
            cap = cap ? cap * 2 : 1 << 16;
            if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size + 1 > cap &&
                (unsigned long long)st.st_size < limit)
                cap = (size_t)st.st_size + 1;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                xc_cli_msg(1, "%s: out of memory", path);
                break;
            }
            buf = nb;
        }
        long n = xc_read_full(fd, buf + len, cap - len);
        if (n < 0) {
            xc_cli_msg(1, "%s: read error: %s", path, strerror(errno));
            break;
        }
        len += (size_t)n;
        if (len < cap) {
            if (fd != STDIN_FILENO) close(fd);
            *size = len;
            return buf;
        }
    }
    if (fd != STDIN_FILENO) close(fd);
    free(buf);
    return NULL;
}

/* The smallest window log whose window holds n bytes. */
static int log_for(unsigned long long n)
{
    int log = XC_ZSTD_WINDOW_LOG_MIN;
    while (log < XC_ZSTD_WINDOW_LOG_MAX && (1ULL << log) < n) log++;
    return log;
}

static int fail(struct xc_codec *c, const char *what, size_t r)
{
    xc_cli_msg(1, "%s: %s", what, xc_error_name(r));
    xc_codec_free(c);
    return -1;
}

/* --patch-from: the reference is the prefix of the frame (the library's
 * xc_zstd_cctx_ref_prefix()/xc_zstd_dctx_ref_prefix(), zstd's refPrefix):
 * raw history before the frame, no ID in it.  A prefix serves one frame, so
 * it is referenced again for each file, after the context's reset. */
static int patch_base_attach(struct xc_codec *c)
{
    size_t const r = c->cctx ? xc_zstd_cctx_ref_prefix(c->cctx, c->patch, c->patch_size)
                             : xc_zstd_dctx_ref_prefix(c->dctx, c->patch, c->patch_size);
    if (xc_is_error(r)) {
        xc_cli_msg(1, "%s: cannot use as --patch-from reference: %s", c->opts->patch_from,
                   xc_error_name(r));
        return -1;
    }
    return 0;
}

/* --patch-from's window, as zstd sets it: large enough for the reference
 * and the file together (both up to the larger of the two), and
 * long-distance matching on when that window is beyond what the level's
 * tables can search (zstd compares it with the level's chain cycle; here
 * 2^17 below level 16 and 2^25 from it, the chain logs of libzstd's tables
 * for large inputs, rounded).  --long's window stays when it is larger. */
static int patch_window(struct xc_codec *c, unsigned long long in_size)
{
    const struct xc_cli_opts *o = c->opts;
    unsigned long long n = c->patch_size;
    if (in_size != XC_CLI_UNKNOWN_SIZE && in_size > n) n = in_size;
    int log = log_for(n);
    if (log > XC_ZSTD_WINDOW_LOG_MAX) log = XC_ZSTD_WINDOW_LOG_MAX;
    if (log <= o->long_log) return 0;
    size_t r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_WINDOW_LOG, log);
    if (!xc_is_error(r) && log > (o->level >= 16 ? 25 : 17))
        r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_LONG_DISTANCE, 1);
    if (xc_is_error(r)) {
        xc_cli_msg(1, "--patch-from: %s", xc_error_name(r));
        return -1;
    }
    return 0;
}

static int compress_setup(struct xc_codec *c)
{
    const struct xc_cli_opts *o = c->opts;
    int level = o->level, accel = 0;
    if (level < xc_zstd_min_level()) {
        /* --fast=N beyond the table: the fastest row with acceleration N,
         * which is how libzstd builds every negative level. */
        accel = -level;
        level = xc_zstd_min_level();
    }
    size_t r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_LEVEL, level);
    if (xc_is_error(r)) return fail(c, "level", r);
    if (accel && xc_is_error(r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_TARGET_LENGTH, accel)))
        return fail(c, "--fast", r);
    if (xc_is_error(r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_CHECKSUM, o->checksum)))
        return fail(c, "--check", r);
    if (xc_is_error(r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_CONTENT_SIZE, o->content_size)))
        return fail(c, "--content-size", r);
    if (xc_is_error(r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_DICT_ID, o->write_dict_id)))
        return fail(c, "--no-dictID", r);
    if (o->long_log) {
        if (xc_is_error(r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_LONG_DISTANCE, 1)) ||
            xc_is_error(r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_WINDOW_LOG, o->long_log)))
            return fail(c, "--long", r);
    }
    if (xc_cli_apply_threads(c->cctx, o->threads, o->auto_logical)) {
        xc_codec_free(c);
        return -1;
    }
    if (o->job_frames && xc_is_error(r = xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_JOB_FRAMES, 1)))
        return fail(c, "--job-frames", r);
    if (o->dict_path) {
        /* Loaded once into the context, which keeps it from frame to
         * frame (file to file), prepared for the level set above. */
        size_t size = 0;
        unsigned char *dict = xc_cli_read_file(o->dict_path, (size_t)1 << 30, &size);
        if (!dict) {
            xc_codec_free(c);
            return -1;
        }
        r = xc_zstd_cctx_load_dictionary(c->cctx, dict, size);
        free(dict);
        if (xc_is_error(r)) {
            xc_cli_msg(1, "%s: cannot use as a dictionary: %s", o->dict_path, xc_error_name(r));
            xc_codec_free(c);
            return -1;
        }
    }
    if (c->patch && patch_base_attach(c)) {
        xc_codec_free(c);
        return -1;
    }
    return 0;
}

static int decompress_setup(struct xc_codec *c)
{
    const struct xc_cli_opts *o = c->opts;
    int log = 0;
    if (o->memory_limit) log = log_for(o->memory_limit);
    if (o->long_log > log) log = o->long_log;
    /* zstd lets a --patch-from decompression use a window that holds the
     * reference. */
    if (c->patch && log_for(c->patch_size) + 1 > log && log_for(c->patch_size) + 1 > 27)
        log = log_for(c->patch_size) + 1;
    if (log > XC_ZSTD_WINDOW_LOG_MAX) log = XC_ZSTD_WINDOW_LOG_MAX;
    if (log) {
        size_t r = xc_zstd_dctx_set(c->dctx, XC_ZSTD_D_WINDOW_LOG_MAX, log);
        if (xc_is_error(r)) return fail(c, "--memory", r);
    }
    if (o->dict_path) {
        size_t size = 0;
        unsigned char *dict = xc_cli_read_file(o->dict_path, (size_t)1 << 30, &size);
        if (!dict) {
            xc_codec_free(c);
            return -1;
        }
        c->ddict = xc_zstd_ddict_new(dict, size);
        free(dict);
        if (!c->ddict) {
            xc_cli_msg(1, "%s: not a usable dictionary (corrupt, or out of memory)", o->dict_path);
            xc_codec_free(c);
            return -1;
        }
    }
    if (c->patch) {
        if (c->ddict) {
            xc_cli_msg(1, "--patch-from and -D exclude each other");
            xc_codec_free(c);
            return -1;
        }
        if (patch_base_attach(c)) {
            xc_codec_free(c);
            return -1;
        }
    }
    return 0;
}

struct xc_codec *xc_codec_new(const struct xc_cli_opts *opts)
{
    struct xc_codec *c = calloc(1, sizeof *c);
    if (!c) goto oom;
    c->opts = opts;
    c->in_buf = malloc(XC_CLI_CHUNK);
    c->out_buf = malloc(XC_CLI_CHUNK);
    if (!c->in_buf || !c->out_buf) goto oom;
    if (opts->patch_from) {
        c->patch = xc_cli_read_file(opts->patch_from, (size_t)768 << 20, &c->patch_size);
        if (!c->patch) {
            xc_codec_free(c);
            return NULL;
        }
    }
    if (opts->mode == XC_MODE_COMPRESS) {
        c->cctx = xc_zstd_cctx_new();
        if (!c->cctx) goto oom;
        return compress_setup(c) ? NULL : c;
    }
    c->dctx = xc_zstd_dctx_new();
    if (!c->dctx) goto oom;
    return decompress_setup(c) ? NULL : c;
oom:
    xc_cli_msg(1, "out of memory");
    xc_codec_free(c);
    return NULL;
}

void xc_codec_free(struct xc_codec *c)
{
    if (!c) return;
    xc_zstd_cctx_free(c->cctx);
    xc_zstd_dctx_free(c->dctx);
    xc_zstd_ddict_free(c->ddict);
    free(c->in_buf);
    free(c->out_buf);
    free(c->patch);
    free(c);
}

void xc_codec_counts(const struct xc_codec *c, unsigned long long *in, unsigned long long *out)
{
    *in = c->n_in;
    *out = c->n_out;
}

static int emit(struct xc_codec *c, struct xc_sink *out, size_t n)
{
    c->n_out += n;
    return out && n ? xc_sink_write(out, c->out_buf, n) : 0;
}

/* --seekable: the input through a seekable writer (frames of
 * opts->seekable_frame bytes, then the seek table), with the cctx's level
 * and workers. */
static int compress_seekable(struct xc_codec *c, int in_fd, const char *name,
                             unsigned long long in_size, struct xc_sink *out)
{
    struct xc_progress prog;
    xc_zstd_seekable_writer *w =
        xc_zstd_seekable_writer_new(c->cctx, c->opts->seekable_frame, c->opts->checksum != 0);
    if (!w) {
        xc_cli_msg(1, "%s: out of memory for a seekable writer", name);
        return -1;
    }
    int status = 0;
    xc_progress_start(&prog, name, in_size);
    for (int last = 0; !last && !status;) {
        long n = xc_read_full(in_fd, c->in_buf, XC_CLI_CHUNK);
        if (n < 0) {
            xc_cli_msg(1, "%s: read error: %s", name, strerror(errno));
            status = -1;
            break;
        }
        last = (size_t)n < XC_CLI_CHUNK;
        xc_in_buffer in = {c->in_buf, (size_t)n, 0};
        for (;;) {
            xc_out_buffer ob = {c->out_buf, XC_CLI_CHUNK, 0};
            int const fin = last && in.pos == in.size;
            size_t const r = fin ? xc_zstd_seekable_finish(w, &ob)
                                 : xc_zstd_seekable_write(w, &ob, &in);
            if (xc_is_error(r)) {
                xc_cli_msg(1, "%s: compression failed: %s", name, xc_error_name(r));
                status = -1;
                break;
            }
            if (emit(c, out, ob.pos)) {
                status = -1;
                break;
            }
            if (r == 0 && (fin || (!last && in.pos == in.size))) break;
        }
        c->n_in += (unsigned long long)n;
        xc_progress_update(&prog, c->n_in, c->n_out);
    }
    xc_progress_end(&prog);
    xc_zstd_seekable_writer_free(w);
    return status;
}

int xc_codec_compress(struct xc_codec *c, int in_fd, const char *name,
                      unsigned long long in_size, struct xc_sink *out)
{
    struct xc_progress prog;
    c->n_in = c->n_out = 0;
    xc_zstd_cctx_reset(c->cctx);
    if (c->patch && (patch_window(c, in_size) || patch_base_attach(c))) return -1;
    const struct xc_cli_opts *o = c->opts;
    int from_stream_size = 0;
    if (in_size == XC_CLI_UNKNOWN_SIZE && o->stream_size) {
        in_size = o->stream_size;
        from_stream_size = 1;
    }
    if (o->seekable_frame) return compress_seekable(c, in_fd, name, in_size, out);
    if (in_size != XC_CLI_UNKNOWN_SIZE) xc_zstd_cctx_set_pledged_size(c->cctx, in_size);
    if (c->patch) {
        /* zstd's --patch-from: a window that reaches back over the whole
         * reference from the end of the input. */
        unsigned long long span = in_size != XC_CLI_UNKNOWN_SIZE && in_size > c->patch_size
                                      ? in_size : c->patch_size;
        int log = log_for(span) + 1;
        if (log > XC_ZSTD_WINDOW_LOG_MAX) log = XC_ZSTD_WINDOW_LOG_MAX;
        if (o->long_log > log) log = o->long_log;
        xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_WINDOW_LOG, log);
    } else if (in_size == XC_CLI_UNKNOWN_SIZE && o->size_hint && !o->long_log) {
        /* --size-hint: the window a file of that size gets, when below
         * every level's own (2^19); the table sizes stay the level's. */
        int log = log_for(o->size_hint);
        xc_zstd_cctx_set(c->cctx, XC_ZSTD_C_WINDOW_LOG, log < 19 ? log : 0);
    }

    xc_progress_start(&prog, name, in_size);
    for (;;) {
        long n = xc_read_full(in_fd, c->in_buf, XC_CLI_CHUNK);
        if (n < 0) {
            xc_progress_end(&prog);
            xc_cli_msg(1, "%s: read error: %s", name, strerror(errno));
            return -1;
        }
        /* xc_read_full() is short only at the end of the input. */
        xc_zstd_end_op op = (size_t)n < XC_CLI_CHUNK ? XC_ZSTD_E_END : XC_ZSTD_E_CONTINUE;
        xc_in_buffer in = {c->in_buf, (size_t)n, 0};
        int stalled = 0;
        for (;;) {
            xc_out_buffer ob = {c->out_buf, XC_CLI_CHUNK, 0};
            size_t before = in.pos;
            size_t r = xc_zstd_compress_stream(c->cctx, &ob, &in, op);
            if (xc_is_error(r)) {
                xc_progress_end(&prog);
                if (xc_error_code(r) == XC_ERROR_SRC_SIZE_WRONG && from_stream_size) {
                    xc_cli_msg(1, "error 11 : Src size is incorrect (%s is not the %llu bytes "
                                  "of --stream-size)",
                               name, o->stream_size);
                    xc_cli_fatal_status = 11;
                } else if (xc_error_code(r) == XC_ERROR_SRC_SIZE_WRONG) {
                    xc_cli_msg(1, "%s: the file changed size while being read", name);
                } else {
                    xc_cli_msg(1, "%s: compression failed: %s", name, xc_error_name(r));
                }
                return -1;
            }
            if (emit(c, out, ob.pos)) {
                xc_progress_end(&prog);
                return -1;
            }
            if (op == XC_ZSTD_E_END ? r == 0 : in.pos == in.size) break;
            /* A call that neither reads nor writes would loop forever. */
            stalled = (ob.pos == 0 && in.pos == before) ? stalled + 1 : 0;
            if (stalled > 2) {
                xc_progress_end(&prog);
                xc_cli_msg(1, "%s: compression made no progress", name);
                return -1;
            }
        }
        c->n_in += (unsigned long long)n;
        xc_progress_update(&prog, c->n_in, c->n_out);
        if (op == XC_ZSTD_E_END) break;
    }
    xc_progress_end(&prog);
    return 0;
}

static int is_zstd_or_skippable(const unsigned char *p, size_t n)
{
    if (n < 4) return 0;
    uint32_t magic = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24;
    return magic == XC_ZSTD_MAGIC ||
           (magic & XC_ZSTD_MAGIC_SKIPPABLE_MASK) == XC_ZSTD_MAGIC_SKIPPABLE_START;
}

/* zstd -dcf copies input that is not zstd through unchanged, so that
 * `xcodec -dcf` works like `cat` on a mix of compressed and plain files. */
static int pass_through(struct xc_codec *c, int in_fd, const char *name, size_t have,
                        struct xc_sink *out)
{
    for (;;) {
        c->n_in += have;
        c->n_out += have;
        if (have && xc_sink_write(out, c->in_buf, have)) return -1;
        if (have < XC_CLI_CHUNK) return 0; /* a short read is the end */
        long n = xc_read_full(in_fd, c->in_buf, XC_CLI_CHUNK);
        if (n < 0) {
            xc_cli_msg(1, "%s: read error: %s", name, strerror(errno));
            return -1;
        }
        have = (size_t)n;
    }
}

static void decode_error(const char *name, size_t r, unsigned long long at,
                         unsigned long long frames)
{
    const char *hint = "";
    switch (xc_error_code(r)) {
    case XC_ERROR_UNKNOWN_MAGIC:
        if (frames == 0) {
            xc_cli_msg(1, "%s: unsupported format", name);
            return;
        }
        hint = " (data after the last frame)";
        break;
    case XC_ERROR_WINDOW_TOO_LARGE: hint = " (allow more with --memory=SIZE)"; break;
    case XC_ERROR_DICT_MISSING: hint = " (give it with -D DICT)"; break;
    default: break;
    }
    xc_cli_msg(1, "%s: %s near input byte %llu%s", name, xc_error_name(r), at, hint);
}

int xc_codec_decompress(struct xc_codec *c, int in_fd, const char *name,
                        unsigned long long in_size, struct xc_sink *out)
{
    struct xc_progress prog;
    c->n_in = c->n_out = 0;
    xc_zstd_dctx_reset(c->dctx);
    if (c->ddict) xc_zstd_dctx_ref_ddict(c->dctx, c->ddict);
    if (c->patch && patch_base_attach(c)) return -1;

    long n = xc_read_full(in_fd, c->in_buf, XC_CLI_CHUNK);
    if (n < 0) {
        xc_cli_msg(1, "%s: read error: %s", name, strerror(errno));
        return -1;
    }
    if (n == 0) {
        xc_cli_msg(1, "%s: unexpected end of file (empty input, no zstd frame)", name);
        return -1;
    }
    int pass = c->opts->pass_through == 1 ||
               (c->opts->pass_through < 0 && c->opts->force && c->opts->to_stdout);
    if (pass && out && out->fd == STDOUT_FILENO && !is_zstd_or_skippable(c->in_buf, (size_t)n))
        return pass_through(c, in_fd, name, (size_t)n, out);

    xc_progress_start(&prog, name, in_size);
    size_t last = 0;
    unsigned long long frames = 0;
    for (;;) {
        xc_in_buffer in = {c->in_buf, (size_t)n, 0};
        int out_full = 0;
        /* Call again while input remains or the output buffer came back
         * full: in the latter case decoded bytes may still be waiting. */
        while (in.pos < in.size || out_full) {
            xc_out_buffer ob = {c->out_buf, XC_CLI_CHUNK, 0};
            size_t r = xc_zstd_decompress_stream(c->dctx, &ob, &in);
            if (xc_is_error(r)) {
                xc_progress_end(&prog);
                decode_error(name, r, c->n_in + in.pos, frames);
                return -1;
            }
            if (emit(c, out, ob.pos)) {
                xc_progress_end(&prog);
                return -1;
            }
            out_full = ob.pos == ob.size;
            if (r == 0 && last != 0) frames++;
            last = r;
        }
        c->n_in += (unsigned long long)n;
        xc_progress_update(&prog, c->n_in, c->n_out);
        if ((size_t)n < XC_CLI_CHUNK) break;
        n = xc_read_full(in_fd, c->in_buf, XC_CLI_CHUNK);
        if (n < 0) {
            xc_progress_end(&prog);
            xc_cli_msg(1, "%s: read error: %s", name, strerror(errno));
            return -1;
        }
    }
    xc_progress_end(&prog);
    /* The decoder answers 0 exactly when a frame is complete and flushed. */
    if (last != 0) {
        xc_cli_msg(1, "%s: %s: the last frame is incomplete", name,
                   xc_error_string(XC_ERROR_TRUNCATED));
        return -1;
    }
    return 0;
}
