/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The inputs of the zstd-compatible mode and the names of their outputs
 * (cli_files.c).
 */
#ifndef XC_PROGRAMS_CLI_FILES_H
#define XC_PROGRAMS_CLI_FILES_H

#include "cli.h"

struct xc_file_list {
    char **names; /* malloc'd, "-" for standard input */
    size_t n, cap;
    size_t given; /* operands and --filelist lines before expansion */
};

/* Gathers the operands and --filelist lines, expands directories (-r),
 * drops links (without -f) and compressed names (--exclude-compressed).
 * Returns 0 (*failed set when a directory could not be read), or -1 after
 * printing why when nothing can be done. */
int xc_file_list_build(const struct xc_cli_opts *o, struct xc_file_list *l, int *failed);
void xc_file_list_free(struct xc_file_list *l);

/* The output name of one input in per-file mode (FILE.zst, FILE, or under
 * an output directory, whose subdirectories it creates), malloc'd; NULL
 * after printing why there is none. */
char *xc_output_name(const struct xc_cli_opts *o, const char *path);

#endif
