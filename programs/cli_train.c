/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xcodec --train FILE... [-o DICT] [--maxdict=SIZE]`: a dictionary trained
 * on the files, one sample per file, as `zstd --train` makes them.  Like
 * zstd, only the first 128 KiB of a file count (a dictionary is for small
 * inputs; a large file is better compressed on its own), and the
 * dictionary goes to the file "dictionary" unless -o names another.  It is
 * written like every other output: under a temporary name first, never
 * over an existing file without -f.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define SAMPLE_MAX ((size_t)128 * 1024)
#define DEFAULT_DICT_NAME "dictionary"

struct sample_set {
    unsigned char *data;
    size_t size, cap;
    size_t *sizes;
    unsigned nb;
};

/* Appends the first SAMPLE_MAX bytes of path as one sample.  Returns 0 or
 * -1 after printing why. */
static int add_sample(struct sample_set *s, const char *path, int force)
{
    struct stat st;
    int fd;
    long n;

    if (strcmp(path, "-") == 0) {
        xc_cli_msg(1, "--train: samples must be files, not standard input");
        return -1;
    }
    fd = xc_source_open(path, force, &st);
    if (fd < 0) return -1;
    if (s->cap - s->size < SAMPLE_MAX) {
        size_t const cap = s->cap ? s->cap * 2 : 16 * SAMPLE_MAX;
        unsigned char *nd = realloc(s->data, cap);
        if (!nd) {
            xc_cli_msg(1, "%s: out of memory for the samples", path);
            close(fd);
            return -1;
        }
        s->data = nd;
        s->cap = cap;
    }
    n = xc_read_full(fd, s->data + s->size, SAMPLE_MAX);
    if (n < 0) {
        xc_cli_msg(1, "%s: read error: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if ((size_t)n == SAMPLE_MAX)
        xc_cli_msg(3, "%s: only its first 128 KiB are used as a sample", path);
    close(fd);
    s->sizes[s->nb++] = (size_t)n;
    s->size += (size_t)n;
    return 0;
}

int xc_cli_train(const struct xc_cli_opts *o)
{
    struct sample_set s = {NULL, 0, 0, NULL, 0};
    const char *out_name = o->to_stdout ? NULL : o->out_path ? o->out_path : DEFAULT_DICT_NAME;
    unsigned char *dict = NULL;
    struct xc_sink sink;
    size_t size;
    char hs[32], hd[32];
    int rc = XC_EXIT_ERROR;

    if (o->nfiles == 0) {
        xc_cli_msg(1, "--train: give the sample files (at least %d)", XC_ZSTD_TRAIN_MIN_SAMPLES);
        return XC_EXIT_USAGE;
    }
    if (o->nfiles > 0xFFFFFFFEu) {
        xc_cli_msg(1, "--train: too many sample files");
        return XC_EXIT_USAGE;
    }
    s.sizes = malloc(o->nfiles * sizeof *s.sizes);
    dict = malloc(o->maxdict);
    if (!s.sizes || !dict) {
        xc_cli_msg(1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < o->nfiles; i++)
        if (add_sample(&s, o->files[i], o->force)) goto done;

    size = xc_zstd_train_dictionary(dict, o->maxdict, s.data, s.sizes, s.nb);
    if (xc_is_error(size)) {
        xc_cli_msg(1, "--train: %s; got %u samples, %s in total, for a dictionary of %s",
                   xc_error_name(size), s.nb, xc_cli_human(hs, sizeof hs, s.size),
                   xc_cli_human(hd, sizeof hd, o->maxdict));
        goto done;
    }
    if (o->train_dict_id >= 0) {
        /* --dictID=#: the ID is the four bytes after the magic (RFC 8878
         * section 5); nothing else in the dictionary depends on it. */
        unsigned long long id = (unsigned long long)o->train_dict_id;
        for (int i = 0; i < 4; i++) dict[4 + i] = (unsigned char)(id >> (8 * i));
    }
    if (xc_sink_open(&sink, out_name, o->force, 1, NULL)) goto done;
    if (xc_sink_write(&sink, dict, size)) {
        xc_sink_abort(&sink);
        goto done;
    }
    if (xc_sink_commit(&sink, o->force, NULL)) goto done;
    if (s.size < (size_t)o->maxdict * 10)
        xc_cli_msg(2, "warning: %s of samples for a dictionary of %s; about 100 times the "
                      "dictionary's size works best",
                   xc_cli_human(hs, sizeof hs, s.size), xc_cli_human(hd, sizeof hd, o->maxdict));
    xc_cli_msg(2, "%s: dictionary of %zu bytes (ID %u) from %u samples, %s", sink.path, size,
               (unsigned)(dict[4] | dict[5] << 8 | dict[6] << 16 | (unsigned)dict[7] << 24), s.nb,
               xc_cli_human(hs, sizeof hs, s.size));
    rc = XC_EXIT_OK;
done:
    free(dict);
    free(s.sizes);
    free(s.data);
    return rc;
}
