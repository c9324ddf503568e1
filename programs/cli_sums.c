/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `xcodec crc32c` and `xcodec inet`: checksums of files, streamed in fixed
 * chunks so that a file larger than memory is fine, printed like the
 * coreutils *sum commands ("VALUE  NAME").  And `xcodec cpucap`.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define XC_SUM_CHUNK ((size_t)256 * 1024)

/* One file's checksum.  A CRC32C extends across chunks as it is.  An
 * Internet checksum sums 16-bit words, so a chunk that starts at an odd
 * offset of the file has its bytes in the other halves of the words: its
 * sum, computed on its own, is merged with xc_inet_combine(), which swaps
 * the bytes in that case (RFC 1071 section 2(B)).  Chunks are even in size
 * except at the end of a pipe read, so this only matters there, but it
 * keeps the result right whatever the chunking. */
static int sum_fd(int fd, int is_crc, unsigned char *buf, uint32_t *value)
{
    uint32_t acc = 0;
    unsigned long long total = 0;
    for (;;) {
        ssize_t n = read(fd, buf, XC_SUM_CHUNK);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        if (is_crc)
            acc = xc_crc32c(acc, buf, (size_t)n);
        else
            acc = xc_inet_combine(acc, xc_inet_sum(0, buf, (size_t)n), (size_t)total);
        total += (unsigned long long)n;
    }
    *value = is_crc ? acc : xc_inet_fold(acc);
    return 0;
}

int xc_cli_sums(const char *kind, int argc, char **argv)
{
    int is_crc = strcmp(kind, "crc32c") == 0;
    static char *stdin_only[] = {"-", NULL};
    int failed = 0, options_done = 0;
    size_t nfiles = 0;
    for (int i = 0; i < argc; i++) {
        if (options_done || argv[i][0] != '-' || argv[i][1] == '\0') {
            argv[nfiles++] = argv[i];
        } else if (strcmp(argv[i], "--") == 0) {
            options_done = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: xcodec %s [FILE...]\n"
                   "Prints the %s of each FILE (standard input when there is none, or for -)\n"
                   "as %s, then two spaces and the name.\n",
                   kind, is_crc ? "CRC32C (Castagnoli, as in iSCSI and ext4)"
                                : "Internet checksum (RFC 1071: the value of a checksum field)",
                   is_crc ? "8 hex digits" : "4 hex digits");
            return XC_EXIT_OK;
        } else {
            fprintf(stderr, "xcodec %s: unknown option '%s'\n", kind, argv[i]);
            return XC_EXIT_USAGE;
        }
    }
    char **files = nfiles ? argv : stdin_only;
    if (!nfiles) nfiles = 1;

    unsigned char *buf = malloc(XC_SUM_CHUNK);
    if (!buf) {
        fprintf(stderr, "xcodec %s: out of memory\n", kind);
        return XC_EXIT_ERROR;
    }
    for (size_t i = 0; i < nfiles; i++) {
        struct stat st;
        /* Any readable input is fine here, devices and FIFOs included:
         * nothing is written, so -f has nothing to protect. */
        int fd = xc_source_open(files[i], 1, &st);
        if (fd < 0) {
            failed = 1;
            continue;
        }
        uint32_t v;
        int rc = sum_fd(fd, is_crc, buf, &v);
        int err = errno;
        if (fd != STDIN_FILENO) close(fd);
        if (rc != 0) {
            xc_cli_msg(1, "%s: read error: %s", files[i], strerror(err));
            failed = 1;
            continue;
        }
        if (is_crc)
            printf("%08x  %s\n", (unsigned)v, files[i]);
        else
            printf("%04x  %s\n", (unsigned)v, files[i]);
    }
    free(buf);
    if (fflush(stdout) != 0) failed = 1;
    return failed ? XC_EXIT_ERROR : XC_EXIT_OK;
}

int xc_cli_cpucap(void)
{
    static const char *const kernels[] = {"crc32c", "inet", "zstd_decode", "zstd_encode"};
    printf("%s\n", xc_cpucap_describe());
    printf("%-12s %s\n", "tier", xc_cpucap_tier());
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const char *n = xc_impl_name(kernels[i]);
        printf("%-12s %s\n", kernels[i], n ? n : "(none)");
    }
    return XC_EXIT_OK;
}
