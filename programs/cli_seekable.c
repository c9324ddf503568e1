/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The seekable format in the xcodec command: `-d --range=OFFSET:LENGTH`
 * (a range of one seekable file's content, through the library's seekable
 * reader over pread(), so only the frames the range needs are read and
 * decoded) and the seek table under `-l -v`.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int pread_at(void *opaque, void *buf, size_t len, unsigned long long off)
{
    int const fd = *(const int *)opaque;
    unsigned char *p = (unsigned char *)buf;
    while (len) {
        ssize_t n = pread(fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        len -= (size_t)n;
        off += (unsigned long long)n;
    }
    return 0;
}

/* Opens path as a seekable file into r; returns the descriptor, or -1
 * after printing why. */
int xc_cli_seekable_open(xc_zstd_seekable *r, const char *path, int quiet_missing)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        xc_cli_msg(1, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        xc_cli_msg(1, "%s: not a regular file (a seekable file must be one)", path);
        close(fd);
        return -1;
    }
    static int fd_box; /* the callback's opaque: one file at a time */
    fd_box = fd;
    size_t e = xc_zstd_seekable_open_callback(r, pread_at, &fd_box, (unsigned long long)st.st_size);
    if (xc_is_error(e)) {
        if (!(quiet_missing && xc_error_code(e) == XC_ERROR_SEEK_TABLE_MISSING))
            xc_cli_msg(1, "%s: %s", path, xc_error_name(e));
        close(fd);
        return -1;
    }
    return fd;
}

int xc_cli_range(const struct xc_cli_opts *o, const char *path)
{
    if (strcmp(path, "-") == 0) {
        xc_cli_msg(1, "--range needs a file, not standard input");
        return XC_EXIT_ERROR;
    }
    xc_zstd_seekable *r = xc_zstd_seekable_new();
    if (!r) {
        xc_cli_msg(1, "out of memory");
        return XC_EXIT_ERROR;
    }
    int fd = xc_cli_seekable_open(r, path, 0);
    if (fd < 0) {
        xc_zstd_seekable_free(r);
        return XC_EXIT_ERROR;
    }
    int rc = XC_EXIT_ERROR;
    unsigned long long const total = xc_zstd_seekable_content_size(r);
    struct xc_sink sink;
    size_t const chunk = (size_t)1 << 20;
    unsigned char *buf = malloc(chunk);
    if (o->range_off > total) {
        xc_cli_msg(1, "%s: offset %llu is past the end of the content (%llu bytes)", path,
                   o->range_off, total);
    } else if (!buf) {
        xc_cli_msg(1, "out of memory");
    } else if (xc_sink_open(&sink, o->out_path, o->force, 0, NULL) == 0) {
        unsigned long long off = o->range_off, left = o->range_len;
        if (left > total - off) left = total - off;
        rc = XC_EXIT_OK;
        while (left && rc == XC_EXIT_OK) {
            size_t const want = left < chunk ? (size_t)left : chunk;
            size_t const got = xc_zstd_seekable_read(r, buf, want, off);
            if (xc_is_error(got)) {
                xc_cli_msg(1, "%s: %s", path, xc_error_name(got));
                rc = XC_EXIT_ERROR;
            } else if (xc_sink_write(&sink, buf, got)) {
                rc = XC_EXIT_ERROR;
            }
            off += want;
            left -= want;
        }
        if (rc == XC_EXIT_OK) rc = xc_sink_commit(&sink, o->force, NULL) ? XC_EXIT_ERROR : rc;
        else xc_sink_abort(&sink);
    }
    free(buf);
    close(fd);
    xc_zstd_seekable_free(r);
    return rc;
}

int xc_cli_list_seek_table(const char *path)
{
    xc_zstd_seekable *r = xc_zstd_seekable_new();
    if (!r) return -1;
    int fd = xc_cli_seekable_open(r, path, 1);
    if (fd < 0) {
        xc_zstd_seekable_free(r);
        return 0; /* not seekable: nothing to show */
    }
    unsigned const n = xc_zstd_seekable_frames(r);
    printf("Seek table: %u frames, %llu bytes of content, %s\n", n,
           xc_zstd_seekable_content_size(r),
           xc_zstd_seekable_has_checksums(r) ? "with checksums" : "no checksums");
    printf("%8s %14s %12s %14s %12s\n", "Frame", "C. offset", "C. size", "D. offset", "D. size");
    for (unsigned i = 0; i < n; i++)
        printf("%8u %14llu %12llu %14llu %12llu\n", i, xc_zstd_seekable_frame_c_offset(r, i),
               xc_zstd_seekable_frame_c_size(r, i), xc_zstd_seekable_frame_d_offset(r, i),
               xc_zstd_seekable_frame_d_size(r, i));
    close(fd);
    xc_zstd_seekable_free(r);
    return 1;
}
