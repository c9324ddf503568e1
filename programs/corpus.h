/* SPDX-License-Identifier: BSD-2-Clause */
/* The built-in default input of `xcodec bench`: generated, deterministic. */
#ifndef XC_PROGRAMS_CORPUS_H
#define XC_PROGRAMS_CORPUS_H

#include <stddef.h>
#include <stdint.h>

struct xc_sample {
    const char *name;
    uint8_t *data;
    size_t size;
};

/* Fills out[0..4) with four kinds of data (English-like text, JSON records,
 * C-like source, a binary table with structure), `size` bytes each, from a
 * fixed seed, so every run and machine sees the same bytes.  Returns the
 * count, or 0 when memory runs out.  Free each data with free(). */
size_t xc_default_corpus(struct xc_sample *out, size_t size);

#endif
