/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The documentation of the xcodec command, written once: the table below
 * is what `xcodec --help` prints and what programs/gen_man.c turns into the
 * man page docs/xcodec.1, so the two never disagree.  This file depends on
 * nothing but the C library, so the generator links it alone.
 */
#include <stdio.h>
#include <string.h>

#include "cli_help.h"

const char *const xc_cli_doc_name = "xcodec - zstd-compatible compression, CRC32C and Internet checksums";

const char *const xc_cli_doc_synopsis[] = {
    "xcodec [OPTIONS] [FILE...]",
    "xcodec crc32c|inet [FILE...]",
    "xcodec bench [--json] [--quick] [FILE...]",
    "xcodec cpucap",
    "zstdcat, unzstd, zstdmt [OPTIONS] [FILE...]",
    NULL,
};

const char *const xc_cli_doc_description[] = {
    "Without a subcommand, xcodec compresses and decompresses zstd frames (RFC 8878) with "
    "the options, defaults, messages and exit statuses of the zstd command, so that scripts "
    "can use one for the other. FILE is compressed into FILE.zst; FILE.zst (or FILE.tzst) "
    "decompresses into FILE (or FILE.tar). With no FILE, or when FILE is -, standard input "
    "goes to standard output. The source is kept unless --rm is given. A file named like a "
    "subcommand is reached as ./NAME.",
    "Invoked as unzstd, xcodec decompresses (as -d); as zstdcat, it decompresses to standard "
    "output and copies data that is not zstd through (as -dcf); as zstdmt, it compresses with "
    "-T0.",
    "An output file is written under a temporary name in its directory and takes its name "
    "only when complete: after an error or an interrupt nothing partial is left.",
    NULL,
};

const struct xc_cli_doc xc_cli_docs[] = {
    {"Operations", NULL, NULL},
    {NULL, "-z, --compress", "Compress (the default)."},
    {NULL, "-d, --decompress, --uncompress", "Decompress."},
    {NULL, "-t, --test", "Decompress and check integrity; write nothing."},
    {NULL, "-l, --list",
     "Print the frames, sizes, ratio and checksum kind of each .zst file, from the frame "
     "headers. Works on pipes too; with -v, the details of each file and, for a seekable file "
     "(--seekable), its seek table."},
    {NULL, "--train FILE...",
     "Train a dictionary on the files (one sample each, at least 5) and write it to -o NAME "
     "(default: dictionary)."},
    {NULL, "-b#", "Benchmark compression level # (default 3) on the files, or on generated data."},
    {NULL, "-h, -H, --help", "Print this help and exit."},
    {NULL, "-V, --version", "Print the version and exit."},

    {"Files", NULL, NULL},
    {NULL, "-c, --stdout", "Write to standard output, even a terminal, and keep the source."},
    {NULL, "-o FILE", "Write to FILE; several inputs are concatenated into it."},
    {NULL, "-k, --keep", "Keep the source (the default)."},
    {NULL, "--rm", "Remove the source once its output is complete."},
    {NULL, "-f, --force",
     "Overwrite existing files, write compressed data to a terminal, read from a terminal, "
     "follow symbolic links, read devices, and with -dc copy data that is not zstd through."},
    {NULL, "-r", "Operate recursively on directories."},
    {NULL, "--filelist FILE", "Read the names of the files to operate on from FILE, one a line."},
    {NULL, "--output-dir-flat DIR", "Write every output into DIR (created when missing)."},
    {NULL, "--output-dir-mirror DIR",
     "Write every output into DIR, under the directory path of its input."},
    {NULL, "--exclude-compressed",
     "When compressing, skip files that already have a compressed suffix (.zst, .gz, .xz, ...)."},
    {NULL, "--[no-]sparse",
     "Leave holes for runs of zeros when decompressing into a file (default: on for files, "
     "off for standard output)."},
    {NULL, "--[no-]pass-through", "With -dc, copy data that is not zstd through as it is."},

    {"Compression", NULL, NULL},
    {NULL, "-#", "Compression level 1..19 (default 3)."},
    {NULL, "--ultra", "Allow levels 20..22 (windows of up to 128 MiB)."},
    {NULL, "--fast[=#]", "Faster levels, --fast=1 (the default) to --fast=7 (fastest)."},
    {NULL, "--seekable[=#]",
     "Write the seekable format: independent frames of # bytes of content each (default 1 MiB, "
     "up to 1 GiB), then a seek table in a skippable frame, so that any range can be read "
     "without decoding from the start (-d --range=). Any zstd decoder reads the file. With "
     "--check (the default) the table also holds each frame's checksum. With -T, frames are "
     "compressed in parallel, a whole frame per thread: the file is the same."},
    {NULL, "--long[=#]",
     "Long-distance matching with a window of 2^# bytes (default 27). Decompressing needs "
     "--long=# or --memory= when # is above 27."},
    {NULL, "--patch-from=REF",
     "Compress (or decompress) against REF, an earlier version of the file: a binary diff. "
     "The same REF is needed to decompress."},
    {NULL, "-D DICT", "Compress or decompress with the dictionary DICT."},
    {NULL, "--[no-]check", "Write (the default) or leave out the content checksum."},
    {NULL, "--[no-]content-size", "Write (the default) or leave out the content size when known."},
    {NULL, "--no-dictID", "Leave the dictionary ID out of the frame header."},
    {NULL, "--stream-size=#",
     "The exact size of standard input: written into the frame, and the input must match it."},
    {NULL, "--size-hint=#",
     "The approximate size of standard input, to choose the window as for a file of that size."},
    {NULL, "-T#, --threads=#",
     "Compression workers: 1 (the default), 0 for one per core. Without the library's workers, "
     "only one thread is available and -T above 1 is refused."},
    {NULL, "--single-thread", "Compress in the calling thread (as -T1)."},
    {NULL, "--job-frames",
     "xcodec only: with workers, write each job as a frame of its own (content size, "
     "checksum, no history from the job before), so that the file decodes on several "
     "threads; a little larger. The same file for any -T above 1."},
    {NULL, "--auto-threads={physical|logical}",
     "What -T0 counts: physical cores (the default, as zstd; from the CPU topology Linux "
     "lists, else the logical count) or logical cores (hardware threads)."},
    {NULL, "-B#", "Job size for compression workers; with -b, the block the data is cut into."},
    {NULL, "--format=zstd", "The only format written; other formats are refused."},

    {"Decompression", NULL, NULL},
    {NULL, "--range=OFFSET:LENGTH",
     "With -d, on a seekable file (--seekable): write only LENGTH bytes of content from "
     "OFFSET, decoding only the frames that hold them. One FILE, not a pipe; the output goes "
     "to standard output unless -o is given."},
    {NULL, "-M#, --memory=#",
     "Largest window to accept (default 128 MiB); # takes K, M or G (KiB, MiB, GiB)."},

    {"Dictionary training", NULL, NULL},
    {NULL, "-o NAME", "The dictionary file (default: dictionary)."},
    {NULL, "--maxdict=#", "Largest dictionary, in bytes (default 112640)."},
    {NULL, "--dictID=#", "The ID of the dictionary (default: derived from its content)."},

    {"Benchmark", NULL, NULL},
    {NULL, "-e#", "Benchmark every level from -b# to #."},
    {NULL, "-i#", "Run each level for at least # seconds (default 3; 0 for one run)."},
    {NULL, "-B#", "Cut the data into independent blocks of # bytes."},
    {NULL, "-S", "One result per input file."},

    {"Messages", NULL, NULL},
    {NULL, "-v, --verbose", "More messages; -vv more still."},
    {NULL, "-q, --quiet", "No summary nor warnings; -qq: no errors either."},
    {NULL, "--[no-]progress",
     "Always (or never) show the progress line; by default it appears on a terminal for work "
     "that takes over a second."},

    {"Other subcommands", NULL, NULL},
    {NULL, "crc32c [FILE...]", "Print the CRC32C of each file."},
    {NULL, "inet [FILE...]", "Print the Internet checksum (RFC 1071) of each file."},
    {NULL, "bench [--json] [--quick] [FILE...]",
     "Compare xcodec with libzstd and ISA-L on the files or a built-in corpus."},
    {NULL, "cpucap", "Print the CPU features, the tier and the kernel variants in use."},
    {NULL, NULL, NULL},
};

const char *const xc_cli_doc_exit =
    "0 on success; 1 when any file failed or the command line is wrong, as zstd; 128+N after "
    "signal N.";

/* Prints text wrapped to `width` columns, lines after the first indented
 * by `indent`, the first starting at column `col`. */
static void wrap(FILE *f, const char *text, int col, int indent, int width)
{
    const char *p = text;
    while (*p) {
        const char *word_end = p;
        while (*word_end && *word_end != ' ') word_end++;
        int len = (int)(word_end - p);
        if (col > indent && col + 1 + len > width) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", len, p);
        col += len;
        p = word_end;
        while (*p == ' ') p++;
    }
    fputc('\n', f);
}

void xc_cli_usage(FILE *f)
{
    fputs("usage:", f);
    for (size_t i = 0; xc_cli_doc_synopsis[i]; i++)
        fprintf(f, "%s%s\n", i ? "       " : " ", xc_cli_doc_synopsis[i]);
    for (size_t i = 0; xc_cli_doc_description[i]; i++) {
        fputc('\n', f);
        wrap(f, xc_cli_doc_description[i], 0, 0, 79);
    }
    for (const struct xc_cli_doc *d = xc_cli_docs; d->section || d->option; d++) {
        if (d->section) {
            fprintf(f, "\n%s:\n", d->section);
            continue;
        }
        int col = fprintf(f, "  %s", d->option);
        if (col > 25) {
            fputc('\n', f);
            fprintf(f, "%*s", 26, "");
            col = 26;
        } else {
            fprintf(f, "%*s", 26 - col, "");
            col = 26;
        }
        wrap(f, d->text, col, 26, 79);
    }
    fputs("\nExit status:", f);
    wrap(f, xc_cli_doc_exit, 12, 0, 79);
}
