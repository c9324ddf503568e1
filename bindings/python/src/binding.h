/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the files of the extension module xcodec._xcodec share: the three
 * zstd types, the module's error, the pools of one-shot contexts and the
 * small helpers every file needs.  The module is a thin layer over the
 * public C API (include/xcodec.h): it borrows its inputs through the buffer
 * protocol, never copying them, writes its outputs straight into bytes
 * objects, and lets other threads run while the library works on a large
 * buffer.  Every object has a lock of its own, taken around each call, so
 * two threads calling one compressor are serialised instead of corrupting
 * its context; different objects run in parallel.
 */
#ifndef XCODEC_PY_BINDING_H
#define XCODEC_PY_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include "xcodec.h"

/* Inputs at least this large are worked on without the GIL.  Below it the
 * release and reacquisition (two atomic operations and a possible wake-up)
 * are a visible part of the call, and the work itself is a few
 * microseconds. */
#define XCPY_NOGIL_MIN (32u * 1024u)

/* How ZstdDict hands itself to a (de)compressor: the second item of the
 * tuples its as_* properties return (the numbers compression.zstd uses). */
enum { XCPY_DICT_DIGESTED = 0, XCPY_DICT_UNDIGESTED = 1, XCPY_DICT_PREFIX = 2 };

/* End directives, as ZstdCompressor.CONTINUE/FLUSH_BLOCK/FLUSH_FRAME. */
enum { XCPY_CONTINUE = XC_ZSTD_E_CONTINUE, XCPY_FLUSH_BLOCK = XC_ZSTD_E_FLUSH,
       XCPY_FLUSH_FRAME = XC_ZSTD_E_END };

typedef struct {
    PyObject_HEAD
    PyObject *content;          /* bytes */
    unsigned dict_id;           /* 0: raw content */
    xc_zstd_ddict *ddict;       /* prepared on first digested use */
    xc_zstd_cdict **cdicts;     /* one per level, prepared on first use */
    int n_levels;
} xcpy_dict;

extern PyTypeObject xcpy_dict_type;
extern PyTypeObject xcpy_compressor_type;
extern PyTypeObject xcpy_decompressor_type;
extern PyTypeObject xcpy_seekable_reader_type;
extern PyTypeObject xcpy_seekable_writer_type;
extern PyObject *xcpy_zstd_error;
/* CompressionParameter and DecompressionParameter, once the Python layer
 * has registered them (NULL before): options keys of the wrong kind are a
 * TypeError, as in compression.zstd. */
extern PyObject *xcpy_cparam_type;
extern PyObject *xcpy_dparam_type;

/* Raises ZstdError("<what>: <the library's name for the error>") with the
 * attributes .code (enum xc_error) and .name set.  Returns NULL. */
PyObject *xcpy_raise(const char *what, size_t result);

/* The dictionary and how to use it from a zstd_dict argument: a ZstdDict
 * (used as `default_kind`) or one of its as_* tuples.  Returns 0 or -1 with
 * a TypeError set. */
int xcpy_dict_arg(PyObject *arg, int default_kind, xcpy_dict **dict, int *kind);

/* The dictionary's prepared forms, made on first use and kept until the
 * ZstdDict goes.  Called with the GIL held (which is what serialises their
 * creation).  NULL with ZstdError set when the dictionary is not valid. */
xc_zstd_ddict *xcpy_dict_ddict(xcpy_dict *dict);
xc_zstd_cdict *xcpy_dict_cdict(xcpy_dict *dict, int level);

/* Takes an object's lock, letting other threads run while it waits. */
static inline void xcpy_lock(PyThread_type_lock lock)
{
    if (!PyThread_acquire_lock(lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

/* Grows a bytes object being filled to hold at least `need` bytes: doubles
 * it (at least), up to `limit` when limit >= 0.  Returns 0 or -1 (MemoryError
 * set, *out released). */
int xcpy_grow(PyObject **out, size_t need, Py_ssize_t limit);

/* Module functions defined outside _xcodec.c. */
PyObject *xcpy_get_param_bounds(PyObject *module, PyObject *args, PyObject *kwargs);
int xcpy_set_param(xc_zstd_cctx *cctx, int param, int value);

#endif
