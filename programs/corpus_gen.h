/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The benchmark corpus by class (programs/corpus_gen.c, corpus_gen_data.c):
 * generated inputs of every kind a codec meets, from a seed, the same bytes
 * on every CPU and byte order, with no data file.  Used by `xcodec bench
 * --classes`, by bench/ (google-benchmark) and by tests/test_corpus_gen.c,
 * which pins a digest of each class.  C, so that the C++ benchmarks can
 * link it as it is.
 */
#ifndef XC_PROGRAMS_CORPUS_GEN_H
#define XC_PROGRAMS_CORPUS_GEN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The sizes a class can be generated at (64 B to 64 MiB). */
#define XC_CORPUS_MIN_BYTES ((size_t)64)
#define XC_CORPUS_MAX_BYTES ((size_t)64 << 20)

/* The number of classes, and class i's name ("text", "source", "exec",
 * "json", "csv", "logs", "utf16", "database", "random", "zlib", "runs",
 * "periods", "mixed") and a one-line description, for i below the count;
 * NULL past it. */
size_t xc_corpus_class_count(void);
const char *xc_corpus_class_name(size_t i);
const char *xc_corpus_class_what(size_t i);

/* The index of the class named name, or -1. */
int xc_corpus_class_find(const char *name);

/* 1 when class i can be generated in this build: the zlib class needs
 * zlib at build time (XC_HAVE_ZLIB); every other class always can. */
int xc_corpus_class_available(size_t i);

/* Fills dst[0..n) with class i's bytes for the seed: the same bytes for the
 * same (i, seed, n) on every platform.  Any n works (the documented range
 * is what the benchmarks use); different seeds give different inputs of
 * the same kind, as records of one table or files of one type are.
 * Returns 0, or -1 when the class is unknown or unavailable or memory runs
 * out (only the zlib class allocates).  Thread-safe: no state is kept. */
int xc_corpus_generate(size_t i, uint64_t seed, uint8_t *dst, size_t n);

#ifdef __cplusplus
}
#endif

#endif
