/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one source of the command's documentation (cli_help.c), shared by
 * `xcodec --help` and the man page generator (gen_man.c).
 */
#ifndef XC_PROGRAMS_CLI_HELP_H
#define XC_PROGRAMS_CLI_HELP_H

#include <stdio.h>

/* An option (section NULL) or a section heading (option and text NULL);
 * the table ends with an entry whose section and option are both NULL. */
struct xc_cli_doc {
    const char *section;
    const char *option;
    const char *text;
};

extern const char *const xc_cli_doc_name;
extern const char *const xc_cli_doc_synopsis[];    /* NULL-terminated */
extern const char *const xc_cli_doc_description[]; /* paragraphs, NULL-terminated */
extern const struct xc_cli_doc xc_cli_docs[];
extern const char *const xc_cli_doc_exit;

/* The help text of the whole command. */
void xc_cli_usage(FILE *f);

#endif
