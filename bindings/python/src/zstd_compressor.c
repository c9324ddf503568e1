/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ZstdCompressor, as compression.zstd's: a level or a dict of parameters,
 * an optional dictionary, and compress()/flush() with the end directives
 * CONTINUE, FLUSH_BLOCK and FLUSH_FRAME.  It also holds the parameter table
 * behind CompressionParameter.bounds(): the library takes libzstd's
 * parameter numbers and checks ranges itself, but has no function that
 * reports them, so the ranges of include/xcodec.h are written here.
 *
 * A compress(data, FLUSH_FRAME) that is a whole frame by itself (the usual
 * one-shot case) goes through xc_zstd_compress_cctx into a buffer of the
 * bound, so the frame carries its content size, as libzstd's
 * ZSTD_compressStream2(ZSTD_e_end) gives on a first call; everything else
 * streams.
 */
#include "binding.h"

#include <string.h>
#include <unistd.h>

typedef struct {
    PyObject_HEAD
    xc_zstd_cctx *cctx;
    PyObject *dict;             /* the ZstdDict in use, kept alive */
    int last_mode;
    int level;                  /* for a digested dictionary */
    int prefix;                 /* the dictionary is a prefix of the next frame only */
    int pledged;                /* a size is pledged for the next frame */
    PyThread_type_lock lock;
} compressor;

static const struct param {
    int id;
    const char *name;
    int lo, hi;
} cparams[] = {
    {XC_ZSTD_C_LEVEL, "compression_level", 0, 0},  /* from the library */
    {XC_ZSTD_C_WINDOW_LOG, "window_log", XC_ZSTD_WINDOW_LOG_MIN, XC_ZSTD_WINDOW_LOG_MAX},
    {XC_ZSTD_C_HASH_LOG, "hash_log", 6, 30},
    {XC_ZSTD_C_CHAIN_LOG, "chain_log", 6, 30},
    {XC_ZSTD_C_SEARCH_LOG, "search_log", 1, 30},
    {XC_ZSTD_C_MIN_MATCH, "min_match", 3, 7},
    {XC_ZSTD_C_TARGET_LENGTH, "target_length", 0, 131072},
    {XC_ZSTD_C_STRATEGY, "strategy", 1, 9},
    {XC_ZSTD_C_LONG_DISTANCE, "enable_long_distance_matching", 0, 2},
    {XC_ZSTD_C_LDM_HASH_LOG, "ldm_hash_log", 6, 30},
    {XC_ZSTD_C_LDM_MIN_MATCH, "ldm_min_match", 4, 4096},
    {XC_ZSTD_C_LDM_BUCKET_LOG, "ldm_bucket_size_log", 1, 8},
    {XC_ZSTD_C_LDM_HASH_RATE_LOG, "ldm_hash_rate_log", 0, 25},
    {XC_ZSTD_C_CONTENT_SIZE, "content_size_flag", 0, 1},
    {XC_ZSTD_C_CHECKSUM, "checksum_flag", 0, 1},
    {XC_ZSTD_C_DICT_ID, "dict_id_flag", 0, 1},
    /* The library's workers (threads), with libzstd's bounds. */
    {XC_ZSTD_C_NB_WORKERS, "nb_workers", 0, 256},
    {XC_ZSTD_C_JOB_SIZE, "job_size", 0, 1 << 30},
    {XC_ZSTD_C_OVERLAP_LOG, "overlap_log", 0, 9},
};

static const struct param *find_cparam(long id)
{
    for (size_t i = 0; i < sizeof cparams / sizeof cparams[0]; i++)
        if (cparams[i].id == id)
            return &cparams[i];
    return NULL;
}

static void bounds_of(const struct param *p, int *lo, int *hi)
{
    if (p->id == XC_ZSTD_C_LEVEL) {
        *lo = xc_zstd_min_level();
        *hi = xc_zstd_max_level();
    } else {
        *lo = p->lo;
        *hi = p->hi;
    }
}

PyObject *xcpy_get_param_bounds(PyObject *module, PyObject *args, PyObject *kwargs)
{
    (void)module;
    static char *kwlist[] = {"parameter", "is_compress", NULL};
    long id;
    int is_compress;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "lp:get_param_bounds", kwlist, &id,
                                     &is_compress))
        return NULL;
    if (!is_compress) {
        if (id != XC_ZSTD_D_WINDOW_LOG_MAX) {
            PyErr_SetString(xcpy_zstd_error, "invalid decompression parameter");
            return NULL;
        }
        return Py_BuildValue("ii", XC_ZSTD_WINDOW_LOG_MIN, XC_ZSTD_WINDOW_LOG_MAX);
    }
    const struct param *p = find_cparam(id);
    if (p == NULL) {
        PyErr_SetString(xcpy_zstd_error, "invalid compression parameter");
        return NULL;
    }
    int lo, hi;
    bounds_of(p, &lo, &hi);
    return Py_BuildValue("ii", lo, hi);
}

/* Sets one option, raising ZstdError (with the valid range) when the
 * library refuses it.  0 is the "use the level's value" of every
 * level-derived parameter, as in libzstd, so it is accepted outside the
 * bounds. */
static int set_option(compressor *self, long id, long value)
{
    const struct param *p = find_cparam(id);
    if (p == NULL) {
        PyErr_Format(xcpy_zstd_error, "invalid compression parameter %ld", id);
        return -1;
    }
    int lo, hi;
    bounds_of(p, &lo, &hi);
    if (value >= INT32_MIN && value <= INT32_MAX) {
        size_t r = xc_zstd_cctx_set(self->cctx, (xc_zstd_cparam)id, (int)value);
        if (!xc_is_error(r)) {
            if (id == XC_ZSTD_C_LEVEL)
                self->level = (int)value;
            return 0;
        }
    }
    PyErr_Format(xcpy_zstd_error, "compression parameter '%s' received an illegal value %ld; "
                 "the valid range is [%d, %d]", p->name, value, lo, hi);
    return -1;
}

static int set_options(compressor *self, PyObject *options)
{
    if (!PyDict_Check(options)) {
        PyErr_SetString(PyExc_TypeError, "options argument should be dict object.");
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(options, &pos, &key, &value)) {
        if (xcpy_dparam_type != NULL && PyObject_TypeCheck(key, (PyTypeObject *)xcpy_dparam_type)) {
            PyErr_SetString(PyExc_TypeError, "compression options dictionary key must not be a "
                            "DecompressionParameter attribute");
            return -1;
        }
        int overflow = 0;
        long k = PyLong_AsLongAndOverflow(key, &overflow);
        if (k == -1 && PyErr_Occurred())
            return -1;
        long v = PyLong_AsLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (overflow)
            v = LONG_MAX;
        if (set_option(self, k, v) < 0)
            return -1;
    }
    return 0;
}

static int load_dict(compressor *self, PyObject *arg)
{
    xcpy_dict *dict;
    int kind;
    if (xcpy_dict_arg(arg, XCPY_DICT_UNDIGESTED, &dict, &kind) < 0)
        return -1;
    size_t r;
    if (kind == XCPY_DICT_DIGESTED) {
        xc_zstd_cdict *cdict = xcpy_dict_cdict(dict, self->level);
        if (cdict == NULL)
            return -1;
        r = xc_zstd_cctx_ref_cdict(self->cctx, cdict);
    } else if (kind == XCPY_DICT_PREFIX) {
        /* Referenced, not copied: self->dict keeps the bytes alive until
         * the frame is done (frame_done). */
        r = xc_zstd_cctx_ref_prefix(self->cctx, PyBytes_AS_STRING(dict->content),
                                    (size_t)PyBytes_GET_SIZE(dict->content));
        self->prefix = 1;
    } else {
        r = xc_zstd_cctx_load_dictionary(self->cctx, PyBytes_AS_STRING(dict->content),
                                         (size_t)PyBytes_GET_SIZE(dict->content));
    }
    if (xc_is_error(r)) {
        xcpy_raise("Unable to load Zstandard dictionary or prefix for compression", r);
        return -1;
    }
    self->dict = Py_NewRef((PyObject *)dict);
    return 0;
}

static PyObject *compressor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"level", "options", "zstd_dict", "threads", NULL};
    PyObject *level = Py_None, *options = Py_None, *zstd_dict = Py_None;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO$i:ZstdCompressor", kwlist, &level,
                                     &options, &zstd_dict, &threads))
        return NULL;
    if (threads < -1) {
        PyErr_SetString(PyExc_ValueError, "threads must be -1 (one per core), 0 or a count");
        return NULL;
    }
    if (level != Py_None && options != Py_None) {
        PyErr_SetString(PyExc_TypeError, "Only one of level or options should be used.");
        return NULL;
    }
    compressor *self = (compressor *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->last_mode = XCPY_FLUSH_FRAME;
    self->level = xc_zstd_default_level();
    self->lock = PyThread_allocate_lock();
    self->cctx = xc_zstd_cctx_new();
    if (self->lock == NULL || self->cctx == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if (level != Py_None) {
        int overflow = 0;
        long lv = PyLong_AsLongAndOverflow(level, &overflow);
        if (lv == -1 && PyErr_Occurred()) {
            Py_DECREF(self);
            return NULL;
        }
        if (overflow || lv < xc_zstd_min_level() || lv > xc_zstd_max_level()) {
            PyErr_Format(PyExc_ValueError, "%S not in valid range %d <= compression level <= %d.",
                         level, xc_zstd_min_level(), xc_zstd_max_level());
            Py_DECREF(self);
            return NULL;
        }
        if (set_option(self, XC_ZSTD_C_LEVEL, lv) < 0) {
            Py_DECREF(self);
            return NULL;
        }
    } else if (options != Py_None && set_options(self, options) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    if (zstd_dict != Py_None && load_dict(self, zstd_dict) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    /* threads= (an xcodec extension, as python-zstandard's): workers, -1
     * for one per core; the same frames for any count of 1 or more. */
    if (threads != 0) {
        long n = threads;
        if (n < 0) {
            n = sysconf(_SC_NPROCESSORS_ONLN);
            if (n < 1) n = 1;
            if (n > 256) n = 256;
        }
        if (set_option(self, XC_ZSTD_C_NB_WORKERS, n) < 0) {
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

static void compressor_dealloc(compressor *self)
{
    xc_zstd_cctx_free(self->cctx);
    Py_XDECREF(self->dict);
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* After a frame: a prefix is gone (libzstd's prefixes serve one frame), and
 * so is the pledge. */
static void frame_done(compressor *self)
{
    self->pledged = 0;
    if (self->prefix) {
        xc_zstd_cctx_ref_prefix(self->cctx, NULL, 0);
        self->prefix = 0;
        Py_CLEAR(self->dict);
    }
}

static PyObject *fail(compressor *self, PyObject *out, size_t r)
{
    Py_XDECREF(out);
    /* The frame is lost; the object stays usable from a new frame. */
    xc_zstd_cctx_reset(self->cctx);
    self->last_mode = XCPY_FLUSH_FRAME;
    frame_done(self);
    return xcpy_raise("Unable to compress Zstandard data", r);
}

static PyObject *compress_locked(compressor *self, const void *src, size_t size, int mode)
{
    size_t bound = xc_zstd_compress_bound(size);
    if (xc_is_error(bound))
        return PyErr_NoMemory();
    if (mode == XCPY_FLUSH_FRAME && self->last_mode == XCPY_FLUSH_FRAME && !self->pledged) {
        PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)bound);
        if (out == NULL)
            return NULL;
        size_t r;
        if (size >= XCPY_NOGIL_MIN) {
            Py_BEGIN_ALLOW_THREADS
            r = xc_zstd_compress_cctx(self->cctx, PyBytes_AS_STRING(out), bound, src, size);
            Py_END_ALLOW_THREADS
        } else {
            r = xc_zstd_compress_cctx(self->cctx, PyBytes_AS_STRING(out), bound, src, size);
        }
        if (xc_is_error(r))
            return fail(self, out, r);
        frame_done(self);
        if (_PyBytes_Resize(&out, (Py_ssize_t)r) < 0)
            return NULL;
        return out;
    }
    /* Streaming: room for this input at its worst plus a block the
     * context may hold from before, so the loop rarely grows the buffer
     * (each growth is a copy); the shrink at the end gives the rest back
     * (mremap for large buffers, no copy). */
    size_t cap = bound + XC_ZSTD_BLOCK_SIZE_MAX / 8;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap);
    if (out == NULL)
        return NULL;
    static const char empty;
    xc_in_buffer in = {size ? src : &empty, size, 0};
    xc_out_buffer ob = {PyBytes_AS_STRING(out), cap, 0};
    for (;;) {
        size_t r;
        if (size >= XCPY_NOGIL_MIN) {
            Py_BEGIN_ALLOW_THREADS
            r = xc_zstd_compress_stream(self->cctx, &ob, &in, (xc_zstd_end_op)mode);
            Py_END_ALLOW_THREADS
        } else {
            r = xc_zstd_compress_stream(self->cctx, &ob, &in, (xc_zstd_end_op)mode);
        }
        if (xc_is_error(r))
            return fail(self, out, r);
        int done = mode == XCPY_CONTINUE ? in.pos == in.size : (r == 0 && in.pos == in.size);
        if (done)
            break;
        if (ob.pos == ob.size) {
            if (xcpy_grow(&out, ob.size + 1, -1) < 0)
                return NULL;
            ob.dst = PyBytes_AS_STRING(out);
            ob.size = (size_t)PyBytes_GET_SIZE(out);
        }
    }
    self->last_mode = mode;
    if (mode == XCPY_FLUSH_FRAME)
        frame_done(self);
    if (_PyBytes_Resize(&out, (Py_ssize_t)ob.pos) < 0)
        return NULL;
    return out;
}

static int mode_arg(int mode, int allow_continue)
{
    if ((allow_continue && mode == XCPY_CONTINUE) || mode == XCPY_FLUSH_BLOCK ||
        mode == XCPY_FLUSH_FRAME)
        return 0;
    PyErr_SetString(PyExc_ValueError,
                    allow_continue
                        ? "mode argument wrong value, it should be one of ZstdCompressor.CONTINUE, "
                          "ZstdCompressor.FLUSH_BLOCK, ZstdCompressor.FLUSH_FRAME."
                        : "mode argument wrong value, it should be "
                          "ZstdCompressor.FLUSH_FRAME or ZstdCompressor.FLUSH_BLOCK.");
    return -1;
}

static PyObject *compressor_compress(compressor *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"data", "mode", NULL};
    Py_buffer data;
    int mode = XCPY_CONTINUE;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*|i:compress", kwlist, &data, &mode))
        return NULL;
    PyObject *out = NULL;
    if (mode_arg(mode, 1) == 0) {
        xcpy_lock(self->lock);
        out = compress_locked(self, data.buf, (size_t)data.len, mode);
        PyThread_release_lock(self->lock);
    }
    PyBuffer_Release(&data);
    return out;
}

static PyObject *compressor_flush(compressor *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"mode", NULL};
    int mode = XCPY_FLUSH_FRAME;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|i:flush", kwlist, &mode))
        return NULL;
    if (mode_arg(mode, 0) < 0)
        return NULL;
    xcpy_lock(self->lock);
    /* A flush streams even at a frame's start: FLUSH_FRAME then writes an
     * empty frame, as libzstd does. */
    int saved = self->last_mode;
    if (self->last_mode == XCPY_FLUSH_FRAME)
        self->last_mode = XCPY_CONTINUE;
    PyObject *out = compress_locked(self, NULL, 0, mode);
    if (out == NULL && self->last_mode == XCPY_CONTINUE && saved == XCPY_FLUSH_FRAME)
        self->last_mode = saved;
    PyThread_release_lock(self->lock);
    return out;
}

static PyObject *compressor_set_pledged_input_size(compressor *self, PyObject *arg)
{
    unsigned long long size = XC_ZSTD_CONTENTSIZE_UNKNOWN;
    if (arg != Py_None) {
        size = PyLong_Check(arg) ? PyLong_AsUnsignedLongLong(arg) : (unsigned long long)-1;
        if (size == (unsigned long long)-1 || size == (unsigned long long)-2) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError,
                            "size argument should be a positive int less than 2**64-1");
            return NULL;
        }
    }
    xcpy_lock(self->lock);
    PyObject *ret = NULL;
    if (self->last_mode != XCPY_FLUSH_FRAME) {
        PyErr_SetString(PyExc_ValueError, "set_pledged_input_size() method must be called "
                        "when last_mode == FLUSH_FRAME");
    } else {
        size_t r = arg == Py_None ? xc_zstd_cctx_reset(self->cctx)
                                  : xc_zstd_cctx_set_pledged_size(self->cctx, size);
        if (xc_is_error(r)) {
            xcpy_raise("Unable to set pledged uncompressed content size", r);
        } else {
            self->pledged = arg != Py_None;
            ret = Py_NewRef(Py_None);
        }
    }
    PyThread_release_lock(self->lock);
    return ret;
}

static PyObject *compressor_get_last_mode(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(((compressor *)self)->last_mode);
}

static PyObject *compressor_reduce(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError, "cannot pickle ZstdCompressor object");
    return NULL;
}

static PyMethodDef compressor_methods[] = {
    {"compress", (PyCFunction)(void (*)(void))compressor_compress, METH_VARARGS | METH_KEYWORDS,
     "compress(data, mode=ZstdCompressor.CONTINUE)\n\nCompresses data and returns what is "
     "ready; FLUSH_BLOCK and FLUSH_FRAME also write out what is buffered (and end the frame)."},
    {"flush", (PyCFunction)(void (*)(void))compressor_flush, METH_VARARGS | METH_KEYWORDS,
     "flush(mode=ZstdCompressor.FLUSH_FRAME)\n\nWrites out what is buffered; FLUSH_FRAME "
     "ends the frame."},
    {"set_pledged_input_size", (PyCFunction)compressor_set_pledged_input_size, METH_O,
     "set_pledged_input_size(size)\n\nAnnounces the size of the next frame (None: unknown)."},
    {"__reduce__", compressor_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef compressor_getset[] = {
    {"last_mode", compressor_get_last_mode, NULL,
     "The mode of the last compress() or flush() call.", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

PyTypeObject xcpy_compressor_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xcodec.zstd.ZstdCompressor",
    .tp_basicsize = sizeof(compressor),
    .tp_dealloc = (destructor)compressor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ZstdCompressor(level=None, options=None, zstd_dict=None)\n\n"
              "Compresses data into zstd frames, in pieces.",
    .tp_methods = compressor_methods,
    .tp_getset = compressor_getset,
    .tp_new = compressor_new,
};
