/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd-compatible mode: which input goes to which output, under which
 * name, what happens to the source, and what is said about it.  The rules
 * are zstd's: FILE compresses into FILE.zst and FILE.zst decompresses into
 * FILE; standard input goes to standard output; -c sends everything to
 * standard output and -o everything to one file; the source stays unless
 * --rm, and goes only once its output is complete.  A failed file does not
 * stop the others, except when all of them share one output that the
 * failure has spoiled.  The lines printed per file and for several files
 * are zstd's, column for column, since scripts read them.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_files.h"

static int is_stdin(const char *path)
{
    return strcmp(path, "-") == 0;
}

static const char *display_name(const char *path)
{
    return is_stdin(path) ? "*stdin*" : path;
}

static int run_codec(struct xc_codec *codec, const struct xc_cli_opts *o, int fd,
                     const char *name, const struct stat *st, struct xc_sink *out)
{
    /* Standard input counts as of unknown size even when it is a file, as
     * in zstd: its frames carry no content size. */
    unsigned long long size = S_ISREG(st->st_mode) && fd != STDIN_FILENO
                                  ? (unsigned long long)st->st_size
                                  : XC_CLI_UNKNOWN_SIZE;
    if (o->mode == XC_MODE_COMPRESS) return xc_codec_compress(codec, fd, name, size, out);
    return xc_codec_decompress(codec, fd, name, size, out);
}

struct totals {
    unsigned files;
    unsigned long long in, out;
};

/* zstd's line for one file; at verbosity 2 when it is the only file and
 * its output is not standard output, else at 3. */
static void summary(struct xc_codec *codec, const struct xc_cli_opts *o, const char *name,
                    const char *out_name, size_t nfiles, struct totals *t)
{
    unsigned long long in, out;
    char a[32], b[32];
    xc_codec_counts(codec, &in, &out);
    t->files++;
    t->in += in;
    t->out += out;
    int level = nfiles > 1 ? 3 : 2;
    if (xc_cli_verbosity < level) return;
    if (o->mode == XC_MODE_COMPRESS)
        fprintf(stderr, "%-20s :%6.2f%%   (%s => %s, %s) \n", name,
                in ? 100.0 * (double)out / (double)in : 0.0,
                xc_cli_human_w(a, sizeof a, in, 6, 0), xc_cli_human_w(b, sizeof b, out, 6, 0),
                out_name ? out_name : "/*stdout*\\");
    else
        fprintf(stderr, "%-20s: %llu bytes \n", name, out);
}

static void totals_line(const struct xc_cli_opts *o, const struct totals *t, size_t given)
{
    char a[32], b[32];
    if (given < 2 || xc_cli_verbosity < 2) return;
    if (o->mode == XC_MODE_COMPRESS)
        fprintf(stderr, "%3u files compressed : %.2f%% (%s => %s)\n", t->files,
                t->in ? 100.0 * (double)t->out / (double)t->in : 0.0,
                xc_cli_human_w(a, sizeof a, t->in, 6, 4), xc_cli_human_w(b, sizeof b, t->out, 6, 4));
    else
        fprintf(stderr, "%u files decompressed : %6llu bytes total \n", t->files, t->out);
}

static int remove_source(const char *path)
{
    if (is_stdin(path)) return 0;
    if (unlink(path) == 0) return 0;
    xc_cli_msg(1, "%s: cannot remove the source: %s", path, strerror(errno));
    return -1;
}

/* Each file into its own output (FILE.zst, FILE, or standard output for
 * standard input), or nowhere for -t. */
static int run_per_file(struct xc_codec *codec, const struct xc_cli_opts *o,
                        const struct xc_file_list *l)
{
    int failed = 0;
    struct totals t = {0, 0, 0};
    for (size_t i = 0; i < l->n; i++) {
        const char *path = l->names[i], *name = display_name(path);
        struct stat st;
        char *out_name = NULL;
        int fd = xc_source_open(path, o->force, &st);
        if (fd < 0) {
            failed = 1;
            continue;
        }
        if (o->mode != XC_MODE_TEST && !is_stdin(path) && !(out_name = xc_output_name(o, path))) {
            if (fd != STDIN_FILENO) close(fd);
            failed = 1;
            continue;
        }
        struct xc_sink sink, *out = NULL;
        int rc = 0;
        if (o->mode != XC_MODE_TEST) {
            rc = xc_sink_open(&sink, out_name, o->force, o->mode == XC_MODE_COMPRESS, &st);
            if (rc == 0) {
                out = &sink;
                sink.sparse = o->mode == XC_MODE_DECOMPRESS && o->sparse != 0 && sink.is_temp;
            }
        }
        if (rc == 0) rc = run_codec(codec, o, fd, name, &st, out);
        if (out) {
            if (rc == 0) rc = xc_sink_commit(out, o->force, &st);
            else xc_sink_abort(out);
        }
        if (fd != STDIN_FILENO) close(fd);
        if (rc == 0) {
            summary(codec, o, name, out_name, l->n, &t);
            if (o->remove_source && out_name && remove_source(path)) rc = -1;
        }
        if (rc != 0) failed = 1;
        free(out_name);
    }
    totals_line(o, &t, l->given > l->n ? l->given : l->n);
    return failed ? XC_EXIT_ERROR : XC_EXIT_OK;
}

/* Every file into one output: standard output (-c) or one file (-o). */
static int run_shared(struct xc_codec *codec, const struct xc_cli_opts *o,
                      const struct xc_file_list *l)
{
    struct xc_sink sink;
    struct stat first_st, out_st;
    const struct stat *keep_st = NULL;
    int have_out_st = o->out_path && stat(o->out_path, &out_st) == 0;
    struct totals t = {0, 0, 0};

    /* One regular input gives its mode and times to the output file. */
    if (o->out_path && l->n == 1 && !is_stdin(l->names[0]) && stat(l->names[0], &first_st) == 0 &&
        S_ISREG(first_st.st_mode))
        keep_st = &first_st;
    /* -c asks for standard output even on a terminal, as zstd's -c does;
     * only the implicit standard output of a pipe is refused there. */
    if (xc_sink_open(&sink, o->out_path, o->force || (o->to_stdout && !o->out_path),
                     o->mode == XC_MODE_COMPRESS, keep_st))
        return XC_EXIT_ERROR;
    sink.sparse = o->mode == XC_MODE_DECOMPRESS && o->sparse == 1 && sink.fd != STDOUT_FILENO &&
                  sink.is_temp;
    if (o->mode == XC_MODE_DECOMPRESS && o->sparse == 1 && sink.fd == STDOUT_FILENO) {
        struct stat so;
        sink.sparse = fstat(STDOUT_FILENO, &so) == 0 && S_ISREG(so.st_mode);
    }

    int failed = 0, spoiled = 0;
    for (size_t i = 0; i < l->n && !spoiled; i++) {
        const char *path = l->names[i], *name = display_name(path);
        struct stat st;
        int fd = xc_source_open(path, o->force, &st);
        if (fd < 0) {
            failed = 1;
            continue;
        }
        if (have_out_st && S_ISREG(st.st_mode) && st.st_dev == out_st.st_dev &&
            st.st_ino == out_st.st_ino) {
            xc_cli_msg(1, "%s: is also the output", name);
            close(fd);
            failed = 1;
            continue;
        }
        unsigned long long before = sink.written;
        int rc = run_codec(codec, o, fd, name, &st, &sink);
        if (fd != STDIN_FILENO) close(fd);
        if (rc != 0) {
            failed = 1;
            /* Nothing written yet: the output is still clean. */
            spoiled = sink.written != before || o->out_path != NULL;
            continue;
        }
        summary(codec, o, name, o->out_path, l->n, &t);
    }
    if (failed && o->out_path) {
        xc_sink_abort(&sink);
        return XC_EXIT_ERROR;
    }
    if (xc_sink_commit(&sink, o->force, keep_st)) return XC_EXIT_ERROR;
    totals_line(o, &t, l->given > l->n ? l->given : l->n);
    if (!failed && o->remove_source) {
        if (!o->out_path) {
            xc_cli_msg(2, "warning: --rm ignored with -c: the output is not a file");
        } else {
            for (size_t i = 0; i < l->n; i++)
                if (remove_source(l->names[i])) failed = 1;
        }
    }
    return failed ? XC_EXIT_ERROR : XC_EXIT_OK;
}

/* zstd's question before several inputs go into one -o file: asked at
 * the default verbosity (declining, or no terminal to ask on, aborts), an
 * abort with -q, nothing with -f. */
static int confirm_concatenation(const struct xc_cli_opts *o, size_t n, int stdin_used)
{
    if (n < 2 || !o->out_path || o->force || o->mode == XC_MODE_TEST) return 0;
    if (xc_cli_verbosity < 2) {
        if (xc_cli_verbosity >= 1)
            fputs("Concatenating multiple processed inputs into a single output loses file "
                  "metadata. \nAborting. \n",
                  stderr);
        return -1;
    }
    xc_cli_msg(2, "WARNING: all input files will be processed and concatenated into a single "
                  "output file: %s ",
               o->out_path);
    fputs("The concatenated output CANNOT regenerate original file names nor directory "
          "structure. \n",
          stderr);
    if (stdin_used) {
        fputs("stdin is an input - not proceeding.\n", stderr);
        return -1;
    }
    if (xc_cli_confirm("Proceed? (y/n): ")) return 0;
    fputs("Aborting...\n", stderr);
    return -1;
}

int xc_cli_zstd(int argc, char **argv, enum xc_cli_persona persona)
{
    struct xc_cli_opts o;
    int rc = xc_cli_parse(argc, argv, persona, &o);
    if (rc) {
        free((void *)o.filelists);
        return rc < 0 ? XC_EXIT_OK : rc;
    }
    if (o.checksum < 0) o.checksum = 1;
    xc_cli_progress_mode = o.progress;
    if (o.mode == XC_MODE_TRAIN) rc = xc_cli_train(&o);
    else if (o.mode == XC_MODE_BENCH) rc = xc_cli_zbench(&o);
    if (o.mode == XC_MODE_TRAIN || o.mode == XC_MODE_BENCH) {
        free((void *)o.filelists);
        return rc;
    }

    static char *stdin_only[] = {"-", NULL};
    if (o.nfiles == 0 && o.nfilelists == 0) {
        o.files = stdin_only;
        o.nfiles = 1;
    }
    struct xc_file_list l;
    int failed = 0;
    rc = xc_file_list_build(&o, &l, &failed);
    free((void *)o.filelists);
    o.filelists = NULL;
    o.nfilelists = 0;
    if (rc) return XC_EXIT_ERROR;
    if (l.n == 0) {
        /* Only empty directories: zstd says so and does not fall back to
         * standard input. */
        if (!failed && o.recursive)
            xc_cli_msg(1, "please provide correct input file(s) or non-empty directories -- "
                          "ignored");
        xc_file_list_free(&l);
        return failed ? XC_EXIT_ERROR : XC_EXIT_OK;
    }
    if (o.patch_from && l.n > 1) {
        xc_cli_msg(1, "error : can't use --patch-from=# on multiple files");
        xc_file_list_free(&l);
        return XC_EXIT_ERROR;
    }
    if (o.mode == XC_MODE_LIST) {
        o.files = l.names;
        o.nfiles = l.n;
        rc = xc_cli_list(&o);
        xc_file_list_free(&l);
        return rc == XC_EXIT_OK && failed ? XC_EXIT_ERROR : rc;
    }

    if (o.range_given) {
        if (o.mode != XC_MODE_DECOMPRESS || l.n != 1) {
            xc_cli_msg(1, "--range=OFFSET:LENGTH goes with -d and one seekable file");
            rc = XC_EXIT_ERROR;
        } else {
            rc = xc_cli_range(&o, l.names[0]);
        }
        xc_file_list_free(&l);
        return rc;
    }

    size_t stdin_uses = 0;
    for (size_t i = 0; i < l.n; i++) stdin_uses += is_stdin(l.names[i]);
    int to_stdout = o.mode != XC_MODE_TEST && !o.out_path &&
                    (o.to_stdout || (l.n == 1 && stdin_uses == 1));
    /* zstd keeps quiet about files whose output is standard output. */
    if (to_stdout && xc_cli_verbosity == 2) xc_cli_verbosity = 1;
    rc = XC_EXIT_OK;
    if (stdin_uses > 1) {
        xc_cli_msg(1, "standard input (-) given more than once");
        rc = XC_EXIT_ERROR;
    } else if (stdin_uses && !o.force && isatty(STDIN_FILENO)) {
        xc_cli_msg(1, "stdin is a console, aborting");
        rc = XC_EXIT_ERROR;
    } else if (o.mode == XC_MODE_COMPRESS && stdin_uses && to_stdout && !o.to_stdout &&
               !o.force && isatty(STDOUT_FILENO)) {
        xc_cli_msg(1, "stdout is a console, aborting");
        rc = XC_EXIT_ERROR;
    } else if (confirm_concatenation(&o, l.n, stdin_uses > 0)) {
        rc = XC_EXIT_ERROR;
    }
    if (rc) {
        xc_file_list_free(&l);
        return rc;
    }
    xc_cli_set_stdin_is_input(stdin_uses > 0);

    if (xc_cli_verbosity >= 3)
        fprintf(stderr, "*** xcodec %s, zstd-compatible command ***\n", xc_version_string());
    if (o.mode == XC_MODE_COMPRESS)
        xc_cli_msg(4, "level %d, checksum %s, content size %s, threads %d, encoder %s%s%s",
                   o.level, o.checksum ? "on" : "off", o.content_size ? "on" : "off", o.threads,
                   xc_impl_name("zstd_encode"), o.dict_path ? ", dictionary " : "",
                   o.dict_path ? o.dict_path : "");
    else
        xc_cli_msg(4, "decoder %s%s%s", xc_impl_name("zstd_decode"),
                   o.dict_path ? ", dictionary " : "", o.dict_path ? o.dict_path : "");
    xc_cli_signals_install();
    struct xc_codec *codec = xc_codec_new(&o);
    if (!codec) {
        xc_file_list_free(&l);
        return XC_EXIT_ERROR;
    }
    int shared = o.mode != XC_MODE_TEST && (to_stdout || o.out_path);
    rc = shared ? run_shared(codec, &o, &l) : run_per_file(codec, &o, &l);
    xc_codec_free(codec);
    xc_file_list_free(&l);
    if (xc_cli_fatal_status) return xc_cli_fatal_status;
    return rc == XC_EXIT_OK && failed ? XC_EXIT_ERROR : rc;
}
