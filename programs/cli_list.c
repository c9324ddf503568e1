/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xcodec -l`: the frames of each file, read from their headers without
 * decoding anything.  The walk follows RFC 8878: a frame is a magic number,
 * a frame header (section 3.1.1.1), blocks that each start with a 3-byte
 * header giving Last_Block, Block_Type and Block_Size (section 3.1.1.2), and
 * an optional 4-byte checksum; a skippable frame is a magic number in
 * 0x184D2A50..0x184D2A5F and a 4-byte length (section 3.1.2).  Block
 * contents are skipped with lseek() when the input can seek, so listing a
 * large file reads only its headers.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"

struct reader {
    int fd;
    int can_seek;
    unsigned char buf[1 << 16];
    size_t pos, len;
    unsigned long long offset; /* of buf[pos] in the file */
    unsigned long long base;   /* where the reading started */
    int error;                 /* errno of a failed read or seek */
};

/* Makes n bytes (n <= sizeof buf) available at buf[pos]; returns how many
 * are, fewer only at the end of the input or after an error. */
static size_t fill(struct reader *r, size_t n)
{
    if (r->len - r->pos >= n) return n;
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->len -= r->pos;
    r->pos = 0;
    long got = xc_read_full(r->fd, r->buf + r->len, sizeof r->buf - r->len);
    if (got < 0) {
        r->error = errno;
        got = 0;
    }
    r->len += (size_t)got;
    return r->len < n ? r->len : n;
}

static void consume(struct reader *r, size_t n)
{
    r->pos += n;
    r->offset += n;
}

/* Skips n bytes; returns 0, or -1 when the input ends first. */
static int skip(struct reader *r, unsigned long long n)
{
    size_t buffered = r->len - r->pos;
    if (n <= buffered) {
        consume(r, (size_t)n);
        return 0;
    }
    consume(r, buffered);
    n -= buffered;
    r->pos = r->len = 0;
    if (r->can_seek) {
        /* Seeking past the end succeeds, so compare with the file size. */
        off_t end = lseek(r->fd, 0, SEEK_END);
        if (end < 0 || (unsigned long long)end < r->offset + n) return -1;
        if (lseek(r->fd, (off_t)(r->offset + n), SEEK_SET) < 0) return -1;
        r->offset += n;
        return 0;
    }
    while (n > 0) {
        size_t want = n < sizeof r->buf ? (size_t)n : sizeof r->buf;
        if (fill(r, want) < want) return -1;
        consume(r, want);
        r->pos = r->len = 0;
        n -= want;
    }
    return 0;
}

static unsigned long long read_le(const unsigned char *p, size_t n)
{
    unsigned long long v = 0;
    for (size_t i = n; i-- > 0;) v = v << 8 | p[i];
    return v;
}

struct file_info {
    unsigned long long frames, skips, compressed, content;
    int content_unknown;
    unsigned long long with_checksum;
    unsigned long long window; /* the largest of the frames' */
    unsigned dict_id;          /* of the first frame */
    unsigned long long check;  /* of the last frame */
};

/* Walks one zstd frame whose magic has been consumed.  Returns 0 or an
 * error name. */
static const char *walk_frame(struct reader *r, struct file_info *fi, unsigned long long start,
                              unsigned long long index)
{
    if (fill(r, 1) < 1) return "input truncated";
    unsigned fhd = r->buf[r->pos];
    unsigned fcs_flag = fhd >> 6, single = (fhd >> 5) & 1, has_check = (fhd >> 2) & 1;
    unsigned dict_flag = fhd & 3;
    if (fhd & 0x08) return "frame header invalid (reserved bit set)";
    static const size_t dict_sizes[4] = {0, 1, 2, 4}, fcs_sizes[4] = {0, 2, 4, 8};
    size_t fcs_size = fcs_flag == 0 && single ? 1 : fcs_sizes[fcs_flag];
    size_t hdr = 1 + (single ? 0 : 1) + dict_sizes[dict_flag] + fcs_size;
    if (fill(r, hdr) < hdr) return "input truncated";
    const unsigned char *p = r->buf + r->pos + 1;
    unsigned long long window = 0;
    if (!single) {
        /* Window_Descriptor (section 3.1.1.1.2): 2^(10+exponent) plus
         * mantissa eighths of it. */
        unsigned long long base = 1ULL << (10 + (*p >> 3));
        window = base + (base / 8) * (*p & 7);
        p++;
    }
    unsigned dict_id = (unsigned)read_le(p, dict_sizes[dict_flag]);
    p += dict_sizes[dict_flag];
    unsigned long long fcs = read_le(p, fcs_size);
    if (fcs_size == 2) fcs += 256; /* section 3.1.1.1.4: the 2-byte form is offset */
    int known = fcs_size != 0;
    if (single) window = fcs;
    consume(r, hdr);

    unsigned long long blocks = 0;
    for (;;) {
        if (fill(r, 3) < 3) return "input truncated";
        unsigned long long bh = read_le(r->buf + r->pos, 3);
        consume(r, 3);
        unsigned last = bh & 1, type = (bh >> 1) & 3;
        unsigned long long size = bh >> 3;
        if (type == 3) return "corrupt data (reserved block type)";
        if (size > XC_ZSTD_BLOCK_SIZE_MAX) return "corrupt data (block too large)";
        if (skip(r, type == 1 ? 1 : size)) return "input truncated";
        blocks++;
        if (last) break;
    }
    unsigned long long check = 0;
    if (has_check) {
        if (fill(r, 4) < 4) return "input truncated";
        check = read_le(r->buf + r->pos, 4);
        consume(r, 4);
        fi->with_checksum++;
    }
    fi->frames++;
    if (known) fi->content += fcs;
    else fi->content_unknown = 1;
    if (window > fi->window) fi->window = window; /* zstd shows the largest */
    if (fi->frames == 1) fi->dict_id = dict_id;
    fi->check = check;
    if (xc_cli_verbosity >= 4) {
        char w[32];
        printf("  frame %llu at %llu: %llu bytes, %llu blocks, content %s%llu, window %s, "
               "dict %u, check %s%08llx\n",
               index, start, r->offset - r->base - start, blocks, known ? "" : "unknown ", known ? fcs : 0,
               xc_cli_human(w, sizeof w, window), dict_id, has_check ? "XXH64:" : "none ",
               has_check ? check : 0);
    }
    return NULL;
}

static const char *walk_file(struct reader *r, struct file_info *fi)
{
    for (unsigned long long index = 0;; index++) {
        unsigned long long start = r->offset - r->base;
        size_t got = fill(r, 4);
        if (r->error) return strerror(r->error);
        if (got == 0 && index > 0) return NULL;
        if (got < 4) return index ? "input truncated" : "not in zstd format";
        uint32_t magic = (uint32_t)read_le(r->buf + r->pos, 4);
        consume(r, 4);
        const char *err;
        if (magic == XC_ZSTD_MAGIC) {
            err = walk_frame(r, fi, start, index);
        } else if ((magic & XC_ZSTD_MAGIC_SKIPPABLE_MASK) == XC_ZSTD_MAGIC_SKIPPABLE_START) {
            err = NULL;
            if (fill(r, 4) < 4) {
                err = "input truncated";
            } else {
                unsigned long long n = read_le(r->buf + r->pos, 4);
                consume(r, 4);
                if (skip(r, n)) err = "input truncated";
                fi->skips++;
            }
        } else {
            err = index ? "unknown frame magic (garbage after the last frame)"
                        : "not in zstd format";
        }
        if (r->error) return strerror(r->error);
        if (err) return err;
        fi->compressed = r->offset - r->base;
    }
}

/* zstd's row: frames, skippable frames, compressed size, content size,
 * ratio, checksum kind, name; the content size and ratio left blank when a
 * frame does not record its size. */
static void print_row(const struct file_info *fi, const char *name, int total)
{
    char c[32], u[32], ratio[16];
    const char *check = fi->frames == 0                  ? ""
                        : fi->with_checksum == fi->frames ? "XXH64"
                        : fi->with_checksum == 0         ? (total ? "" : "None")
                                                         : "";
    xc_cli_human_w(c, sizeof c, fi->compressed, 6, 4);
    if (fi->content_unknown) {
        snprintf(u, sizeof u, "%12s", "");
        snprintf(ratio, sizeof ratio, "%5s", "");
    } else {
        xc_cli_human_w(u, sizeof u, fi->content, 8, 4);
        snprintf(ratio, sizeof ratio, "%5.3f",
                 fi->compressed ? (double)fi->content / (double)fi->compressed : 0.0);
    }
    printf("%6llu  %5llu  %s  %s  %s  %5s  %s\n", fi->frames, fi->skips, c, u, ratio, check, name);
}

/* zstd's -lv block for one file. */
static void print_details(const struct file_info *fi, const char *name)
{
    char a[32];
    printf("%s \n", name);
    printf("# Zstandard Frames: %llu\n", fi->frames);
    if (fi->skips) printf("# Skippable Frames: %llu\n", fi->skips);
    printf("DictID: %u\n", fi->dict_id);
    printf("Window Size: %s (%llu B)\n", xc_cli_human(a, sizeof a, fi->window), fi->window);
    printf("Compressed Size: %s (%llu B)\n", xc_cli_human(a, sizeof a, fi->compressed),
           fi->compressed);
    if (!fi->content_unknown) {
        printf("Decompressed Size: %s (%llu B)\n", xc_cli_human(a, sizeof a, fi->content),
               fi->content);
        printf("Ratio: %.4f\n", fi->compressed ? (double)fi->content / (double)fi->compressed : 0.0);
    }
    if (fi->frames && fi->with_checksum == fi->frames && fi->frames == 1)
        printf("Check: XXH64 %08llx\n", fi->check);
    else if (fi->frames && fi->with_checksum == fi->frames)
        printf("Check: XXH64\n");
    else if (fi->with_checksum == 0)
        printf("Check: None\n");
    else
        printf("Check: Mixed\n");
    printf("\n");
}

int xc_cli_list(const struct xc_cli_opts *o)
{
    static struct reader r; /* 64 KiB: kept off the stack */
    struct file_info total = {0};
    size_t listed = 0;
    int failed = 0, header = 0, verbose = xc_cli_verbosity >= 3;
    for (size_t i = 0; i < o->nfiles; i++) {
        const char *path = o->files[i];
        const char *name = strcmp(path, "-") == 0 ? "*stdin*" : path;
        struct stat st;
        int fd = xc_source_open(path, o->force, &st);
        if (fd < 0) {
            failed = 1;
            continue;
        }
        memset(&r, 0, sizeof r);
        r.fd = fd;
        r.can_seek = S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) >= 0;
        if (r.can_seek) r.offset = r.base = (unsigned long long)lseek(fd, 0, SEEK_CUR);
        struct file_info fi = {0};
        if (!header && !verbose) {
            printf("Frames  Skips  Compressed  Uncompressed  Ratio  Check  Filename\n");
            header = 1;
        }
        const char *err = walk_file(&r, &fi);
        if (fd != STDIN_FILENO) close(fd);
        if (err) {
            /* zstd says this one on standard output, in the table. */
            if (strcmp(err, "not in zstd format") == 0) {
                printf("File \"%s\" not compressed by zstd \n", name);
            } else {
                fflush(stdout);
                xc_cli_msg(1, "%s: %s", name, err);
            }
            failed = 1;
            continue;
        }
        if (verbose) {
            print_details(&fi, name);
            if (S_ISREG(st.st_mode) && xc_cli_list_seek_table(path) > 0) printf("\n");
        } else {
            print_row(&fi, name, 0);
        }
        total.frames += fi.frames;
        total.skips += fi.skips;
        total.compressed += fi.compressed;
        total.content += fi.content;
        total.content_unknown |= fi.content_unknown;
        total.with_checksum += fi.with_checksum;
        listed++;
    }
    if (listed > 1 && !verbose) {
        char label[32];
        snprintf(label, sizeof label, "%zu files", listed);
        printf("----------------------------------------------------------------- \n");
        print_row(&total, label, 1);
    }
    return failed ? XC_EXIT_ERROR : XC_EXIT_OK;
}
