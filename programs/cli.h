/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the parts of the xcodec command share: the options of the
 * zstd-compatible mode, messages, the output files that never stay partial,
 * the progress line, and the entry point of each subcommand.
 */
#ifndef XC_PROGRAMS_CLI_H
#define XC_PROGRAMS_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cli_help.h"
#include "xcodec.h"

/* Exit statuses: 1 for a failed operation, as zstd; 2 for a command line
 * that cannot be understood; 128 + N after signal N. */
enum { XC_EXIT_OK = 0, XC_EXIT_ERROR = 1, XC_EXIT_USAGE = 2 };

#define XC_CLI_UNKNOWN_SIZE (~0ULL)

/* zstd ends with a status of its own for some errors (11: the input is not
 * the size --stream-size announced); 0 while none happened. */
extern int xc_cli_fatal_status;

/* ---- messages --------------------------------------------------------------- */

/* 0: nothing, 1: errors only (-q), 2: errors, warnings and a summary per file
 * (the default), 3 and above: details (-v, -vv). */
extern int xc_cli_verbosity;

/* "xcodec: " + the message + "\n" on stderr when verbosity >= level. */
void xc_cli_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A byte count for people ("512 B", "1.50 MiB"), as zstd writes them, in
 * buf[0..n). */
const char *xc_cli_human(char *buf, size_t n, unsigned long long bytes);
/* The same in zstd's columns: the number in num_w, the unit in unit_w. */
const char *xc_cli_human_w(char *buf, size_t n, unsigned long long bytes, int num_w, int unit_w);

/* ---- the zstd-compatible mode ------------------------------------------------ */

enum xc_cli_mode {
    XC_MODE_COMPRESS,
    XC_MODE_DECOMPRESS,
    XC_MODE_TEST,
    XC_MODE_LIST,
    XC_MODE_TRAIN,
    XC_MODE_BENCH
};

/* -1 in a tri-state field: not given, the default applies. */
struct xc_cli_opts {
    enum xc_cli_mode mode;
    int level;              /* xc_zstd_min_level() .. 22 */
    int to_stdout;          /* -c */
    const char *out_path;   /* -o, or NULL */
    int force;              /* -f */
    int remove_source;      /* --rm (-k, the default, clears it) */
    int follow_links;       /* -f, or invoked as zstdcat */
    int pass_through;       /* -1, 0 or 1: --[no-]pass-through (-dcf copies non-zstd data) */
    const char *dict_path;  /* -D, or NULL */
    const char *patch_from; /* --patch-from=, or NULL */
    size_t maxdict;         /* --maxdict= (--train), default 110 KiB */
    long long train_dict_id;/* --dictID= (--train), -1 for the trainer's own */
    int checksum;           /* --check (default) / --no-check */
    int content_size;       /* --content-size (default) / --no-content-size */
    int write_dict_id;      /* --no-dictID clears it */
    int long_log;           /* --long[=#]: 0 off, else the window log */
    unsigned long long memory_limit; /* -M/--memory=, 0 for the default (128 MiB) */
    unsigned long long block_size;   /* -B#: the job size with workers, the block in -b */
    unsigned long long size_hint;    /* --size-hint=, 0 for none */
    unsigned long long stream_size;  /* --stream-size=, 0 for none */
    int threads;            /* -T#: 0 auto (as many as cores), default 1 */
    int job_frames;         /* --job-frames (xcodec only): each job a frame of its own */
    int auto_logical;       /* --auto-threads=logical: -T0 counts logical cores */
    int sparse;             /* -1 (files yes, stdout no), 0 or 1 */
    int exclude_compressed; /* --exclude-compressed */
    int recursive;          /* -r */
    int progress;           /* -1 (on a terminal), 0 or 1 */
    const char *out_dir_flat, *out_dir_mirror;
    unsigned seekable_frame;/* --seekable[=#]: the frame size, 0 when not seekable */
    int range_given;        /* -d --range=OFFSET:LENGTH */
    unsigned long long range_off, range_len;
    int bench_last_level;   /* -e#, or the level */
    int bench_seconds;      /* -i#, default 3 */
    int bench_separate;     /* -S */
    char **files;           /* the operands; "-" is standard input */
    size_t nfiles;
    const char **filelists; /* --filelist= values, in argv order */
    size_t nfilelists;
};

/* What the program was called: zstd's other names change its defaults. */
enum xc_cli_persona { XC_AS_XCODEC, XC_AS_UNZSTD, XC_AS_ZSTDCAT, XC_AS_ZSTDMT };

/* Parses the arguments of the zstd-compatible mode (argv[0] excluded), with
 * the defaults of `persona`.
 * Returns 0 to go on, -1 when it printed the help or the version (exit 0),
 * or an exit status after printing what is wrong.  The operands are moved
 * to the front of argv, which opts->files then points at. */
int xc_cli_parse(int argc, char **argv, enum xc_cli_persona persona, struct xc_cli_opts *opts);

/* Runs the zstd-compatible mode; returns the exit status. */
int xc_cli_zstd(int argc, char **argv, enum xc_cli_persona persona);

/* Threads (cli_cores.c).  xc_cli_count_cores(): what -T0 counts, the
 * logical cores (online CPUs) or the physical ones (from Linux's CPU
 * topology in sysfs; the logical count where it cannot be read), at least 1.
 * xc_cli_apply_threads() applies the worker count of -T# (0: that count)
 * to a compression context: the one place that knows whether the library
 * has workers.  Returns 0 or -1 after printing why. */
long xc_cli_count_cores(int logical);
int xc_cli_apply_threads(xc_zstd_cctx *cctx, int threads, int logical);

/* Reads a whole file into a malloc'd buffer; NULL after printing why. */
unsigned char *xc_cli_read_file(const char *path, size_t limit, size_t *size);

/* -b: the benchmark of zstd's command, one line per level; the exit status. */
int xc_cli_zbench(const struct xc_cli_opts *opts);

/* Asks a yes/no question on stderr and reads the answer from the terminal
 * on standard input; returns 1 for yes.  Only when standard input is a
 * terminal: otherwise it returns 0 without asking. */
int xc_cli_confirm(const char *question);

/* Standard input is one of the inputs: no question may be asked on it. */
void xc_cli_set_stdin_is_input(int yes);

/* ---- streaming codecs (cli_zstd.c) -------------------------------------------- */

struct xc_sink;
struct xc_codec;

/* The contexts and buffers of one run, reused from file to file.  NULL with
 * a message when memory runs out or the dictionary cannot be used. */
struct xc_codec *xc_codec_new(const struct xc_cli_opts *opts);
void xc_codec_free(struct xc_codec *codec);

/* Streams in_fd (in_size bytes when known, else XC_CLI_UNKNOWN_SIZE) through
 * the codec into out (NULL: discard, for -t).  `name` names the input in
 * messages.  Returns 0, or -1 after printing the error. */
int xc_codec_compress(struct xc_codec *codec, int in_fd, const char *name,
                      unsigned long long in_size, struct xc_sink *out);
int xc_codec_decompress(struct xc_codec *codec, int in_fd, const char *name,
                        unsigned long long in_size, struct xc_sink *out);

/* Bytes read and written by the last call. */
void xc_codec_counts(const struct xc_codec *codec, unsigned long long *in,
                     unsigned long long *out);

/* -l: prints the frame table of each file; returns the exit status. */
int xc_cli_list(const struct xc_cli_opts *opts);

/* The seekable format (cli_seekable.c).  xc_cli_range(): -d --range= on
 * one file; the exit status.  xc_cli_list_seek_table(): prints path's seek
 * table (for -l -v); 1 when it printed one, 0 when path is not seekable. */
int xc_cli_range(const struct xc_cli_opts *opts, const char *path);
int xc_cli_list_seek_table(const char *path);
int xc_cli_seekable_open(xc_zstd_seekable *r, const char *path, int quiet_missing);

/* --train: trains a dictionary on the files; returns the exit status. */
int xc_cli_train(const struct xc_cli_opts *opts);

/* ---- files (cli_io.c) --------------------------------------------------------- */

/* Installs the SIGINT, SIGTERM and SIGHUP handler that removes the output
 * file in progress and exits with 128 + the signal.  A signal ignored when
 * the program starts (nohup, a background job of a script) stays ignored. */
void xc_cli_signals_install(void);

/* read() that retries after EINTR and fills buf unless the input ends:
 * returns the bytes read (short only at end of input) or -1 with errno. */
long xc_read_full(int fd, void *buf, size_t n);

/* Opens an input: "-" is standard input (st is then zeroed unless it is a
 * regular file).  Returns the descriptor, or -1 after printing why. */
int xc_source_open(const char *path, int force, struct stat *st);

/* An output: standard output, a device or FIFO written in place, or a
 * regular file written under a temporary name in the same directory and
 * renamed over the final name only when complete. */
struct xc_sink {
    int fd;
    int is_temp;
    int replace;    /* the user agreed to overwrite the existing file */
    const char *path;        /* the name given, for messages */
    unsigned long long written;
    int sparse;     /* skip runs of zeros with lseek(), a regular file only */
    int hole_open;  /* the last write was a skip: the size needs setting */
    char tmp_path[4096];
};

/* Opens standard output (path NULL) or path.  Refuses an existing regular
 * file unless force, and compressed data (binary) to a terminal unless
 * force.  src_st, when it describes a regular file, gives the mode and times
 * the output receives at commit.  Returns 0 or -1 after printing why. */
int xc_sink_open(struct xc_sink *s, const char *path, int force, int binary,
                 const struct stat *src_st);
int xc_sink_write(struct xc_sink *s, const void *buf, size_t n);
/* Completes the output (mode, times, rename).  Returns 0 or -1 after
 * printing why; the temporary file is gone either way. */
int xc_sink_commit(struct xc_sink *s, int force, const struct stat *src_st);
/* Drops the output: closes it and removes the temporary file. */
void xc_sink_abort(struct xc_sink *s);

/* ---- progress ------------------------------------------------------------------ */

/* A line on stderr, refreshed a few times a second: by default only when
 * stderr is a terminal, verbosity is 2 or more and the work has already
 * taken a second; --progress shows it always, --no-progress never. */
extern int xc_cli_progress_mode; /* -1 auto, 0 off, 1 forced */
struct xc_progress {
    const char *name;
    unsigned long long total;
    double start, last;
    int enabled, shown, forced;
};
void xc_progress_start(struct xc_progress *p, const char *name, unsigned long long total);
void xc_progress_update(struct xc_progress *p, unsigned long long in, unsigned long long out);
void xc_progress_end(struct xc_progress *p);

/* ---- other subcommands ------------------------------------------------------------ */

/* `xcodec crc32c|inet [FILE...]`; kind is "crc32c" or "inet". */
int xc_cli_sums(const char *kind, int argc, char **argv);

/* `xcodec cpucap`. */
int xc_cli_cpucap(void);

/* `xcodec bench [--json] [--quick] [FILE...]`: the main job. */
int xc_cli_bench(int argc, char **argv);

#endif
