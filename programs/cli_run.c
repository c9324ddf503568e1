/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The zstd-compatible mode: which input goes to which output, under which
 * name, and what happens to the source.  The rules are zstd's: FILE
 * compresses into FILE.zst and FILE.zst decompresses into FILE; standard
 * input goes to standard output; -c sends everything to standard output and
 * -o everything to one file; the source stays unless --rm, and goes only
 * once its output is complete.  A failed file does not stop the others,
 * except when all of them share one output that the failure has spoiled.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int is_stdin(const char *path)
{
    return strcmp(path, "-") == 0;
}

static const char *display_name(const char *path)
{
    return is_stdin(path) ? "(stdin)" : path;
}

/* The output name of a file in per-file mode, in a malloc'd string, or NULL
 * after printing why there is none. */
static char *output_name(const struct xc_cli_opts *o, const char *path)
{
    size_t len = strlen(path);
    char *name = malloc(len + 5);
    if (!name) {
        xc_cli_msg(1, "out of memory");
        return NULL;
    }
    if (o->mode == XC_MODE_COMPRESS) {
        memcpy(name, path, len);
        memcpy(name + len, ".zst", 5);
        return name;
    }
    const char *base = strrchr(path, '/');
    size_t base_len = base ? len - (size_t)(base + 1 - path) : len;
    if (len > 4 && base_len > 4 && strcmp(path + len - 4, ".zst") == 0) {
        memcpy(name, path, len - 4);
        name[len - 4] = '\0';
        return name;
    }
    if (len > 5 && base_len > 5 && strcmp(path + len - 5, ".tzst") == 0) {
        memcpy(name, path, len - 5);
        memcpy(name + len - 5, ".tar", 5);
        return name;
    }
    free(name);
    xc_cli_msg(1, "%s: unknown suffix (.zst or .tzst expected); name the output with -o FILE, "
                  "or use -c",
               path);
    return NULL;
}

static int run_codec(struct xc_codec *codec, const struct xc_cli_opts *o, int fd,
                     const char *name, const struct stat *st, struct xc_sink *out)
{
    unsigned long long size = S_ISREG(st->st_mode) ? (unsigned long long)st->st_size
                                                   : XC_CLI_UNKNOWN_SIZE;
    if (o->mode == XC_MODE_COMPRESS) return xc_codec_compress(codec, fd, name, size, out);
    return xc_codec_decompress(codec, fd, name, size, out);
}

/* The one-line summary of a file, at verbosity 2 (3 when the data went to
 * standard output, where zstd also keeps quiet). */
static void summary(struct xc_codec *codec, const struct xc_cli_opts *o, const char *name,
                    const char *out_name)
{
    int level = (o->mode != XC_MODE_TEST && !out_name) ? 3 : 2;
    if (xc_cli_verbosity < level) return;
    unsigned long long in, out;
    char a[32], b[32];
    xc_codec_counts(codec, &in, &out);
    if (o->mode == XC_MODE_COMPRESS)
        fprintf(stderr, "%s: %.2f%% (%s => %s, %s)\n", name, in ? 100.0 * (double)out / (double)in : 0.0,
                xc_cli_human(a, sizeof a, in), xc_cli_human(b, sizeof b, out),
                out_name ? out_name : "(stdout)");
    else if (o->mode == XC_MODE_TEST)
        fprintf(stderr, "%s: OK (%s => %s)\n", name, xc_cli_human(a, sizeof a, in),
                xc_cli_human(b, sizeof b, out));
    else
        fprintf(stderr, "%s: %s => %s, %s\n", name, xc_cli_human(a, sizeof a, in),
                xc_cli_human(b, sizeof b, out), out_name ? out_name : "(stdout)");
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
static int run_per_file(struct xc_codec *codec, const struct xc_cli_opts *o)
{
    int failed = 0;
    for (size_t i = 0; i < o->nfiles; i++) {
        const char *path = o->files[i], *name = display_name(path);
        struct stat st;
        char *out_name = NULL;
        if (o->mode != XC_MODE_TEST && !is_stdin(path) && !(out_name = output_name(o, path))) {
            failed = 1;
            continue;
        }
        int fd = xc_source_open(path, o->force, &st);
        if (fd < 0) {
            free(out_name);
            failed = 1;
            continue;
        }
        struct xc_sink sink, *out = NULL;
        int rc = 0;
        if (o->mode != XC_MODE_TEST) {
            rc = xc_sink_open(&sink, out_name, o->force, o->mode == XC_MODE_COMPRESS, &st);
            if (rc == 0) out = &sink;
        }
        if (rc == 0) rc = run_codec(codec, o, fd, name, &st, out);
        if (out) {
            if (rc == 0) rc = xc_sink_commit(out, o->force, &st);
            else xc_sink_abort(out);
        }
        if (fd != STDIN_FILENO) close(fd);
        if (rc == 0) {
            summary(codec, o, name, out_name);
            if (o->remove_source && out_name && remove_source(path)) rc = -1;
        }
        if (rc != 0) failed = 1;
        free(out_name);
    }
    return failed ? XC_EXIT_ERROR : XC_EXIT_OK;
}

/* Every file into one output: standard output (-c) or one file (-o). */
static int run_shared(struct xc_codec *codec, const struct xc_cli_opts *o)
{
    struct xc_sink sink;
    struct stat first_st, out_st;
    const struct stat *keep_st = NULL;
    int have_out_st = o->out_path && stat(o->out_path, &out_st) == 0;

    /* One regular input gives its mode and times to the output file. */
    if (o->out_path && o->nfiles == 1 && !is_stdin(o->files[0]) &&
        stat(o->files[0], &first_st) == 0 && S_ISREG(first_st.st_mode))
        keep_st = &first_st;
    if (xc_sink_open(&sink, o->out_path, o->force, o->mode == XC_MODE_COMPRESS, keep_st))
        return XC_EXIT_ERROR;

    int failed = 0, spoiled = 0;
    for (size_t i = 0; i < o->nfiles && !spoiled; i++) {
        const char *path = o->files[i], *name = display_name(path);
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
        summary(codec, o, name, o->out_path);
    }
    if (failed && o->out_path) {
        xc_sink_abort(&sink);
        return XC_EXIT_ERROR;
    }
    if (xc_sink_commit(&sink, o->force, keep_st)) return XC_EXIT_ERROR;
    if (!failed && o->remove_source) {
        if (!o->out_path) {
            xc_cli_msg(2, "warning: --rm ignored with -c: the output is not a file");
        } else {
            for (size_t i = 0; i < o->nfiles; i++)
                if (remove_source(o->files[i])) failed = 1;
        }
    }
    return failed ? XC_EXIT_ERROR : XC_EXIT_OK;
}

int xc_cli_zstd(int argc, char **argv)
{
    static char *stdin_only[] = {"-", NULL};
    struct xc_cli_opts o;
    int rc = xc_cli_parse(argc, argv, &o);
    if (rc) return rc < 0 ? XC_EXIT_OK : rc;
    if (o.mode == XC_MODE_TRAIN) return xc_cli_train(&o);
    if (o.nfiles == 0) {
        o.files = stdin_only;
        o.nfiles = 1;
    }
    if (o.mode == XC_MODE_LIST) return xc_cli_list(&o);

    size_t stdin_uses = 0;
    for (size_t i = 0; i < o.nfiles; i++) stdin_uses += is_stdin(o.files[i]);
    if (stdin_uses > 1) {
        xc_cli_msg(1, "standard input (-) given more than once");
        return XC_EXIT_USAGE;
    }
    if (stdin_uses && !o.force && isatty(STDIN_FILENO)) {
        xc_cli_msg(1, "stdin is a terminal; give a FILE, or pipe the data in (see --help)");
        return XC_EXIT_USAGE;
    }

    if (o.mode == XC_MODE_COMPRESS)
        xc_cli_msg(3, "xcodec %s: level %d, checksum %s, encoder %s%s%s", xc_version_string(),
                   o.level, o.checksum ? "on" : "off", xc_impl_name("zstd_encode"),
                   o.dict_path ? ", dictionary " : "", o.dict_path ? o.dict_path : "");
    else
        xc_cli_msg(3, "xcodec %s: decoder %s%s%s", xc_version_string(), xc_impl_name("zstd_decode"),
                   o.dict_path ? ", dictionary " : "", o.dict_path ? o.dict_path : "");
    xc_cli_signals_install();
    struct xc_codec *codec = xc_codec_new(&o);
    if (!codec) return XC_EXIT_ERROR;
    int shared = o.mode != XC_MODE_TEST && (o.to_stdout || o.out_path);
    rc = shared ? run_shared(codec, &o) : run_per_file(codec, &o);
    xc_codec_free(codec);
    return rc;
}
