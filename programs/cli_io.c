/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Inputs and outputs of the xcodec command, and the promise it makes about
 * them: an output file either appears complete under its name or not at all.
 *
 * An output file is written under a temporary name created with mkstemp()
 * in the directory of the final name (so that the rename stays within one
 * file system and is atomic), then renamed.  Without -f the final step is
 * link() rather than rename(), which fails if a file of that name appeared
 * meanwhile instead of replacing it.  A signal handler removes the temporary
 * file on SIGINT, SIGTERM and SIGHUP; it may only call async-signal-safe
 * functions (POSIX.1-2008 XSH 2.4.3), so the name it needs is kept in a
 * static array and published through a sig_atomic_t flag, and the signals
 * are blocked while the name and the flag change.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static char g_tmp_path[4096];
static volatile sig_atomic_t g_tmp_active;

static void on_signal(int sig)
{
    if (g_tmp_active) unlink(g_tmp_path);
    _exit(128 + sig);
}

static const int g_signals[] = {SIGINT, SIGTERM, SIGHUP};

void xc_cli_signals_install(void)
{
    for (size_t i = 0; i < sizeof g_signals / sizeof g_signals[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(g_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(g_signals[i], &sa, NULL);
    }
}

static void block_signals(int block, sigset_t *saved)
{
    if (block) {
        sigset_t set;
        sigemptyset(&set);
        for (size_t i = 0; i < sizeof g_signals / sizeof g_signals[0]; i++)
            sigaddset(&set, g_signals[i]);
        sigprocmask(SIG_BLOCK, &set, saved);
    } else {
        sigprocmask(SIG_SETMASK, saved, NULL);
    }
}

long xc_read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (long)got;
}

int xc_source_open(const char *path, int force, struct stat *st)
{
    memset(st, 0, sizeof *st);
    if (strcmp(path, "-") == 0) {
        struct stat s;
        if (fstat(STDIN_FILENO, &s) == 0 && S_ISREG(s.st_mode)) *st = s;
        return STDIN_FILENO;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        xc_cli_msg(1, "can't stat %s : %s -- ignored", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        xc_cli_msg(1, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISDIR(st->st_mode)) {
        xc_cli_msg(1, "%s is a directory -- ignored", path);
        close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode) && !force) {
        xc_cli_msg(1, "%s is not a regular file -- ignored (use -f to read it anyway)", path);
        close(fd);
        return -1;
    }
    return fd;
}

static int g_stdin_is_input;

void xc_cli_set_stdin_is_input(int yes)
{
    g_stdin_is_input = yes;
}

int xc_cli_confirm(const char *question)
{
    if (!isatty(STDIN_FILENO)) return 0;
    fputs(question, stderr);
    fflush(stderr);
    int c = getchar(), first = c;
    while (c != EOF && c != '\n') c = getchar();
    return first == 'y' || first == 'Y';
}

/* zstd's question before replacing a file: only at the default verbosity
 * or above, never when standard input is an input, and here only on a
 * terminal (no answer counts as no, which is what zstd makes of the end
 * of a non-terminal input). */
static int confirm_overwrite(const char *path)
{
    if (xc_cli_verbosity < 2 || !isatty(STDIN_FILENO)) {
        xc_cli_msg(1, "%s already exists; not overwritten", path);
        return 0;
    }
    if (g_stdin_is_input) {
        xc_cli_msg(1, "%s already exists; stdin is an input - not proceeding.", path);
        return 0;
    }
    /* The question goes out in one write: in two, the terminal's echo of
     * a quick answer could land between them (seen in the tests, where
     * script(1) types the answer). */
    size_t const n = strlen(path) + 64;
    char *const q = (char *)malloc(n);
    if (!q) {
        xc_cli_msg(1, "%s already exists; not overwritten", path);
        return 0;
    }
    snprintf(q, n, "xcodec: %s already exists; overwrite (y/n) ? ", path);
    int const yes = xc_cli_confirm(q);
    free(q);
    if (yes) return 1;
    fputs("Not overwritten  \n", stderr);
    return 0;
}

int xc_sink_open(struct xc_sink *s, const char *path, int force, int binary,
                 const struct stat *src_st)
{
    (void)src_st;
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->path = path ? path : "(stdout)";
    if (!path) {
        if (binary && !force && isatty(STDOUT_FILENO)) {
            xc_cli_msg(1, "stdout is a terminal; not writing compressed data there "
                          "(use -f to force, or -o FILE)");
            return -1;
        }
        s->fd = STDOUT_FILENO;
        return 0;
    }

    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            /* /dev/null, a FIFO or a terminal: written in place, since a
             * rename would replace the node itself. */
            if (S_ISDIR(st.st_mode)) {
                xc_cli_msg(1, "%s: is a directory", path);
                return -1;
            }
            s->fd = open(path, O_WRONLY);
            if (s->fd < 0) {
                xc_cli_msg(1, "%s: %s", path, strerror(errno));
                return -1;
            }
            return 0;
        }
        if (!force && !confirm_overwrite(path)) return -1;
        s->replace = 1;
        if (src_st && S_ISREG(src_st->st_mode) && st.st_dev == src_st->st_dev &&
            st.st_ino == src_st->st_ino) {
            xc_cli_msg(1, "%s: is also the input", path);
            return -1;
        }
    }

    /* The temporary name: ".NAME.XXXXXX" beside NAME. */
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    int n = snprintf(s->tmp_path, sizeof s->tmp_path, "%.*s.%s.XXXXXX", (int)dir_len, path,
                     path + dir_len);
    if (n < 0 || (size_t)n >= sizeof s->tmp_path) {
        xc_cli_msg(1, "%s: name too long", path);
        return -1;
    }
    sigset_t saved;
    block_signals(1, &saved);
    s->fd = mkstemp(s->tmp_path);
    int err = errno;
    if (s->fd >= 0) {
        memcpy(g_tmp_path, s->tmp_path, sizeof g_tmp_path);
        g_tmp_active = 1;
        s->is_temp = 1;
    }
    block_signals(0, &saved);
    if (s->fd < 0) {
        xc_cli_msg(1, "%s: cannot create: %s", path, strerror(err));
        return -1;
    }
    return 0;
}

/* Sparse output: whole 4 KiB runs of zeros become holes (a seek), as
 * zstd's --sparse does; the file gets its size at commit. */
#define SPARSE_UNIT 4096
static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

static int write_all(struct xc_sink *s, const void *buf, size_t n);

int xc_sink_write(struct xc_sink *s, const void *buf, size_t n)
{
    if (!s->sparse) return write_all(s, buf, n);
    const unsigned char *p = buf;
    while (n > 0) {
        size_t k = n < SPARSE_UNIT ? n : SPARSE_UNIT;
        if (k == SPARSE_UNIT && all_zero(p, k)) {
            if (lseek(s->fd, (off_t)k, SEEK_CUR) < 0) {
                xc_cli_msg(1, "%s: seek error: %s", s->path, strerror(errno));
                return -1;
            }
            s->written += k;
            s->hole_open = 1;
        } else {
            if (write_all(s, p, k)) return -1;
            s->hole_open = 0;
        }
        p += k;
        n -= k;
    }
    return 0;
}

static int write_all(struct xc_sink *s, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(s->fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) {
            xc_cli_msg(1, "%s: write error: %s", s->path, strerror(errno));
            return -1;
        }
        p += w;
        n -= (size_t)w;
        s->written += (unsigned long long)w;
    }
    return 0;
}

/* Removes the temporary file and forgets it, with signals blocked so that
 * the handler never sees a half-updated state. */
static void drop_temp(struct xc_sink *s, int unlink_it)
{
    sigset_t saved;
    block_signals(1, &saved);
    if (unlink_it) unlink(s->tmp_path);
    g_tmp_active = 0;
    s->is_temp = 0;
    block_signals(0, &saved);
}

void xc_sink_abort(struct xc_sink *s)
{
    if (s->fd > STDERR_FILENO) close(s->fd);
    s->fd = -1;
    if (s->is_temp) drop_temp(s, 1);
}

int xc_sink_commit(struct xc_sink *s, int force, const struct stat *src_st)
{
    if (s->fd == STDOUT_FILENO) {
        if (s->hole_open && ftruncate(s->fd, (off_t)s->written) != 0) {
            xc_cli_msg(1, "%s: %s", s->path, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!s->is_temp) {
        int rc = close(s->fd);
        s->fd = -1;
        if (rc != 0) xc_cli_msg(1, "%s: %s", s->path, strerror(errno));
        return rc == 0 ? 0 : -1;
    }

    if (s->hole_open && ftruncate(s->fd, (off_t)s->written) != 0) {
        xc_cli_msg(1, "%s: %s", s->path, strerror(errno));
        xc_sink_abort(s);
        return -1;
    }
    s->hole_open = 0;
    if (s->replace) force = 1;

    /* The output takes the source's permissions (without set-id bits) and
     * times, as zstd and gzip do; otherwise the mode a new file gets. */
    mode_t mode;
    if (src_st && S_ISREG(src_st->st_mode)) {
        mode = src_st->st_mode & 0777;
        struct timespec times[2] = {src_st->st_atim, src_st->st_mtim};
        futimens(s->fd, times);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    fchmod(s->fd, mode);

    if (close(s->fd) != 0) {
        xc_cli_msg(1, "%s: %s", s->path, strerror(errno));
        s->fd = -1;
        drop_temp(s, 1);
        return -1;
    }
    s->fd = -1;

    sigset_t saved;
    block_signals(1, &saved);
    int rc, err = 0;
    if (force) {
        rc = rename(s->tmp_path, s->path);
        err = errno;
    } else {
        rc = link(s->tmp_path, s->path);
        err = errno;
        if (rc == 0) {
            unlink(s->tmp_path);
        } else if (err != EEXIST && access(s->path, F_OK) != 0) {
            /* A file system without hard links: rename, after one more
             * check that the name is still free. */
            rc = rename(s->tmp_path, s->path);
            err = errno;
        }
    }
    if (rc != 0) unlink(s->tmp_path);
    g_tmp_active = 0;
    s->is_temp = 0;
    block_signals(0, &saved);
    if (rc != 0) {
        if (err == EEXIST)
            xc_cli_msg(1, "%s: appeared while writing; not overwritten (use -f)", s->path);
        else
            xc_cli_msg(1, "%s: %s", s->path, strerror(err));
        return -1;
    }
    return 0;
}

/* ---- progress ------------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int xc_cli_progress_mode = -1;

void xc_progress_start(struct xc_progress *p, const char *name, unsigned long long total)
{
    p->name = name;
    p->total = total;
    p->start = p->last = now_s();
    p->forced = xc_cli_progress_mode == 1;
    p->enabled = p->forced ||
                 (xc_cli_progress_mode < 0 && xc_cli_verbosity >= 2 && isatty(STDERR_FILENO));
    p->shown = 0;
}

/* "NAME: 42%  12.5 MiB => 3.10 MiB (x4.03)  95.2 MB/s": the percentage
 * only when the input's size is known, the speed of the input side. */
void xc_progress_update(struct xc_progress *p, unsigned long long in, unsigned long long out)
{
    if (!p->enabled) return;
    double t = now_s();
    if (!p->forced && t - p->start < 1.0) return;
    if (p->shown && t - p->last < 0.2) return;
    p->last = t;
    char a[32], b[32], pct[16] = "";
    if (p->total != XC_CLI_UNKNOWN_SIZE && p->total > 0)
        snprintf(pct, sizeof pct, "%3.0f%%  ", 100.0 * (double)in / (double)p->total);
    double secs = t - p->start > 1e-6 ? t - p->start : 1e-6;
    fprintf(stderr, "\r\033[K%s: %s%s => %s (x%.2f)  %.1f MB/s", p->name, pct,
            xc_cli_human(a, sizeof a, in), xc_cli_human(b, sizeof b, out),
            out ? (double)in / (double)out : 0.0, (double)in / secs * 1e-6);
    fflush(stderr);
    p->shown = 1;
}

void xc_progress_end(struct xc_progress *p)
{
    if (!p->shown) return;
    /* Erase the line: carriage return, then ANSI "erase to end of line",
     * which every terminal emulator in use understands. */
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = 0;
}
