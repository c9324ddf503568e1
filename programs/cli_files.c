/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which files the zstd-compatible mode works on, and where their outputs
 * go, by zstd's rules: the operands and the lines of each --filelist, with
 * symbolic links dropped unless -f (a warning each; nothing left is an
 * error), directories walked with -r (links inside followed, as zstd does)
 * and ignored with a message without it, and with --exclude-compressed the
 * files that already carry a compressed suffix left out when compressing.
 * An output lands beside its input, in --output-dir-flat DIR, or in
 * --output-dir-mirror DIR under the input's own directory path.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_files.h"

static int push(struct xc_file_list *l, const char *name, size_t len)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **nn = realloc(l->names, cap * sizeof *nn);
        if (!nn) return -1;
        l->names = nn;
        l->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy) return -1;
    memcpy(copy, name, len);
    copy[len] = '\0';
    l->names[l->n++] = copy;
    return 0;
}

void xc_file_list_free(struct xc_file_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->names[i]);
    free(l->names);
    memset(l, 0, sizeof *l);
}

static int has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n > s && strcmp(name + n - s, suffix) == 0;
}

/* The suffixes zstd's --exclude-compressed knows. */
static int is_compressed_name(const char *name)
{
    static const char *const suffixes[] = {".zst", ".tzst", ".gz", ".tgz", ".lzma",
                                           ".xz",  ".txz",  ".lz4", ".tlz4"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (has_suffix(name, suffixes[i])) return 1;
    return 0;
}

/* Adds the files under dir, depth first in name order.  Returns 0, 1
 * when something could not be read (the rest is still added), or -1 when
 * memory ran out. */
static int walk(struct xc_file_list *l, const char *dir, int depth)
{
    struct dirent **entries;
    int n = scandir(dir, &entries, NULL, alphasort);
    if (n < 0) {
        xc_cli_msg(1, "%s: %s", dir, strerror(errno));
        return 1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        const char *e = entries[i]->d_name;
        if (rc >= 0 && strcmp(e, ".") != 0 && strcmp(e, "..") != 0) {
            size_t len = strlen(dir) + 1 + strlen(e);
            char *path = malloc(len + 1);
            struct stat st;
            if (!path) {
                rc = -1;
            } else {
                snprintf(path, len + 1, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", e);
                if (stat(path, &st) != 0) {
                    xc_cli_msg(1, "%s: %s", path, strerror(errno));
                    rc = 1;
                } else if (S_ISDIR(st.st_mode)) {
                    int r = depth < 64 ? walk(l, path, depth + 1) : 0;
                    if (r) rc = r < 0 ? -1 : rc < 0 ? rc : 1;
                } else if (push(l, path, strlen(path))) {
                    rc = -1;
                }
                free(path);
            }
        }
        free(entries[i]);
    }
    free(entries);
    return rc;
}

/* The lines of one --filelist file, empty ones skipped. */
static int read_filelist(struct xc_file_list *l, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        xc_cli_msg(1, "error reading %s: %s", path, strerror(errno));
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
        if (n > 0 && push(l, line, (size_t)n)) {
            rc = -1;
            break;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

int xc_file_list_build(const struct xc_cli_opts *o, struct xc_file_list *l, int *failed)
{
    struct xc_file_list given = {0};
    int rc = 0;
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < o->nfiles && rc == 0; i++)
        if (push(&given, o->files[i], strlen(o->files[i]))) rc = -1;
    for (size_t i = 0; i < o->nfilelists && rc >= 0; i++) {
        int r = read_filelist(&given, o->filelists[i]);
        if (r) rc = r;
    }
    if (rc) {
        if (rc < 0) xc_cli_msg(1, "out of memory");
        xc_file_list_free(&given);
        return -1;
    }

    size_t links = 0;
    for (size_t i = 0; i < given.n && rc >= 0; i++) {
        const char *name = given.names[i];
        struct stat st;
        if (strcmp(name, "-") != 0 && !o->follow_links && lstat(name, &st) == 0 &&
            S_ISLNK(st.st_mode)) {
            xc_cli_msg(2, "warning: %s is a symbolic link, ignoring", name);
            links++;
            continue;
        }
        if (o->recursive && strcmp(name, "-") != 0 && stat(name, &st) == 0 &&
            S_ISDIR(st.st_mode)) {
            int r = walk(l, name, 0);
            if (r < 0) rc = -1;
            else if (r) *failed = 1;
            continue;
        }
        if (o->exclude_compressed && o->mode == XC_MODE_COMPRESS && is_compressed_name(name)) {
            xc_cli_msg(4, "%s: already compressed, skipped", name);
            continue;
        }
        if (push(l, name, strlen(name))) rc = -1;
    }
    /* Files found by -r go through the same filter. */
    if (o->exclude_compressed && o->mode == XC_MODE_COMPRESS && o->recursive) {
        size_t kept = 0;
        for (size_t i = 0; i < l->n; i++) {
            if (is_compressed_name(l->names[i]) && strcmp(l->names[i], "-") != 0) {
                xc_cli_msg(4, "%s: already compressed, skipped", l->names[i]);
                free(l->names[i]);
            } else {
                l->names[kept++] = l->names[i];
            }
        }
        l->n = kept;
    }
    xc_file_list_free(&given);
    if (rc < 0) {
        xc_cli_msg(1, "out of memory");
        xc_file_list_free(l);
        return -1;
    }
    l->given = given.n;
    if (l->n == 0 && links > 0) return -1; /* zstd: only links given is an error */
    return 0;
}

/* mkdir -p of the directories in path (not its last component). */
static int make_parents(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            xc_cli_msg(1, "%s: cannot create the directory: %s", buf, strerror(errno));
            return -1;
        }
        *p = '/';
    }
    return 0;
}

char *xc_output_name(const struct xc_cli_opts *o, const char *path)
{
    size_t len = strlen(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t base_len = strlen(base);
    char *stem = malloc(len + 5);
    if (!stem) {
        xc_cli_msg(1, "out of memory");
        return NULL;
    }
    if (o->mode == XC_MODE_COMPRESS) {
        snprintf(stem, len + 5, "%s.zst", path);
    } else if (base_len > 4 && has_suffix(path, ".zst")) {
        snprintf(stem, len + 5, "%.*s", (int)(len - 4), path);
    } else if (base_len > 5 && has_suffix(path, ".tzst")) {
        snprintf(stem, len + 5, "%.*s.tar", (int)(len - 5), path);
    } else {
        free(stem);
        xc_cli_msg(1, "%s: unknown suffix (.zst/.tzst expected). Can't derive the output file "
                      "name. Specify it with -o dstFileName. Ignoring.",
                   path);
        return NULL;
    }
    const char *dir = o->out_dir_flat ? o->out_dir_flat : o->out_dir_mirror;
    if (!dir) return stem;

    /* In the mirror, the input's directory path below DIR; zstd refuses
     * paths that climb out with "..", and so do we. */
    const char *rel = o->out_dir_flat ? strrchr(stem, '/') : stem;
    if (o->out_dir_flat) {
        rel = rel ? rel + 1 : stem;
    } else {
        if (strcmp(path, "..") == 0 || strncmp(path, "../", 3) == 0 || strstr(path, "/../")) {
            xc_cli_msg(1, "--output-dir-mirror cannot compress '%s' into '%s'", path, dir);
            free(stem);
            return NULL;
        }
        while (*rel == '/') rel++;
        while (strncmp(rel, "./", 2) == 0) rel += 2;
    }
    size_t n = strlen(dir) + 1 + strlen(rel) + 1;
    char *out = malloc(n);
    if (!out) {
        xc_cli_msg(1, "out of memory");
        free(stem);
        return NULL;
    }
    snprintf(out, n, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", rel);
    free(stem);
    if (make_parents(out)) {
        free(out);
        return NULL;
    }
    return out;
}
