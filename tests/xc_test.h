/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Support shared by the cmocka tests: start-up (tier check), a seeded
 * random generator, buffers that end at a guard page, and the test-data
 * folder.
 */
#ifndef XC_TEST_H
#define XC_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "xcodec.h"

/* Call first in main().  When XC_CPUCAP names a tier this machine does not
 * reach, the test exits with 77, which CTest reports as skipped. */
void xc_test_init(void);

/* 1 when XC_TEST_QUICK is set (emulated runs): tests shrink their loops. */
int xc_test_quick(void);

/* xorshift64* generator; the seed comes from XC_TEST_SEED or a constant,
 * and is printed so that a failure can be replayed. */
uint64_t xc_rand(void);
uint32_t xc_rand_below(uint32_t n);
void xc_rand_fill(void *p, size_t n);

/* A buffer of n bytes whose last byte sits just before a page that may not
 * be touched, so any read or write past the end faults.  Free with
 * xc_guard_free(). */
void *xc_guard_alloc(size_t n);
void xc_guard_free(void *p);

/* The shared test-data folder: $XC_TEST_DATA, else the one CMake found
 * (../shared/data beside the project); NULL when it is not there or when
 * XC_TEST_DATA is "none".  The data is an extra: every assertion must hold
 * on the inputs a test makes itself, and the files only add more. */
const char *xc_test_data_dir(void);

/* Read a whole file into malloc'ed memory; NULL when it cannot be read. */
void *xc_read_file(const char *path, size_t *size);

#endif
