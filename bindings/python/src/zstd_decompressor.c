/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ZstdDecompressor: one zstd (or skippable) frame, fed in pieces, as
 * compression.zstd's.  It stops at the end of the frame: eof becomes true,
 * the input past it is kept in unused_data, and a further call raises
 * EOFError.  max_length bounds the output of a call; input the call could
 * not use then stays inside (needs_input is false) and the next call starts
 * with it.
 *
 * The library's streaming decoder (xc_zstd_decompress_stream) returns 0 at
 * the end of a frame without reading past it, which is what makes eof and
 * unused_data exact.
 */
#include "binding.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    xc_zstd_dctx *dctx;
    PyObject *dict;             /* the ZstdDict, kept alive while referenced */
    /* Input a call left unread: held[held_pos..].  When the caller's
     * input was a bytes object, held is that object (immutable, so a
     * reference is enough, and nothing is copied); otherwise a copy. */
    PyObject *held;
    size_t held_pos;
    PyObject *unused_data;      /* bytes after the frame, once eof */
    int eof;
    int needs_input;
    int started;                /* some input of the frame was consumed */
    PyThread_type_lock lock;
} decompressor;

/* Output sizes the first pass allocates when the frame does not say. */
#define OUT_MIN (32u * 1024u)
#define OUT_FIRST_MAX (1u * 1024u * 1024u)
/* A frame header announcing more than this is not trusted with a single
 * allocation up front: a damaged or hostile header could ask for any
 * size, and growing the buffer costs little at these sizes. */
#define OUT_TRUST_MAX (64u * 1024u * 1024u)

static int set_options(decompressor *self, PyObject *options)
{
    if (!PyDict_Check(options)) {
        PyErr_SetString(PyExc_TypeError, "options argument should be dict object.");
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(options, &pos, &key, &value)) {
        if (xcpy_cparam_type != NULL && PyObject_TypeCheck(key, (PyTypeObject *)xcpy_cparam_type)) {
            PyErr_SetString(PyExc_TypeError, "compression options dictionary key must not be a "
                            "CompressionParameter attribute");
            return -1;
        }
        int overflow = 0;
        long k = PyLong_AsLongAndOverflow(key, &overflow);
        if (k == -1 && PyErr_Occurred())
            return -1;
        long v = PyLong_AsLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (overflow || k != XC_ZSTD_D_WINDOW_LOG_MAX) {
            PyErr_Format(xcpy_zstd_error, "invalid decompression parameter %R = %R", key, value);
            return -1;
        }
        size_t r = xc_zstd_dctx_set(self->dctx, XC_ZSTD_D_WINDOW_LOG_MAX, (int)v);
        if (xc_is_error(r)) {
            PyErr_Format(xcpy_zstd_error, "decompression parameter 'window_log_max' received an "
                         "illegal value %ld; the valid range is [%d, %d] (%s)", v,
                         XC_ZSTD_WINDOW_LOG_MIN, XC_ZSTD_WINDOW_LOG_MAX, xc_error_name(r));
            return -1;
        }
    }
    return 0;
}

static int load_dict(decompressor *self, PyObject *arg)
{
    xcpy_dict *dict;
    int kind;
    if (xcpy_dict_arg(arg, XCPY_DICT_DIGESTED, &dict, &kind) < 0)
        return -1;
    size_t r;
    if (kind == XCPY_DICT_DIGESTED) {
        xc_zstd_ddict *ddict = xcpy_dict_ddict(dict);
        if (ddict == NULL)
            return -1;
        r = xc_zstd_dctx_ref_ddict(self->dctx, ddict);
    } else {
        /* Undigested and prefix alike: the bytes are copied into the context.
         * A decompressor decodes one frame, so a prefix, which libzstd
         * forgets after one frame, needs nothing more. */
        r = xc_zstd_dctx_load_dictionary(self->dctx, PyBytes_AS_STRING(dict->content),
                                         (size_t)PyBytes_GET_SIZE(dict->content));
    }
    if (xc_is_error(r)) {
        xcpy_raise("Unable to load Zstandard dictionary or prefix for decompression", r);
        return -1;
    }
    self->dict = Py_NewRef((PyObject *)dict);
    return 0;
}

static PyObject *decompressor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"zstd_dict", "options", NULL};
    PyObject *zstd_dict = Py_None, *options = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:ZstdDecompressor", kwlist, &zstd_dict,
                                     &options))
        return NULL;
    decompressor *self = (decompressor *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->needs_input = 1;
    self->lock = PyThread_allocate_lock();
    self->dctx = xc_zstd_dctx_new();
    self->unused_data = PyBytes_FromStringAndSize(NULL, 0);
    if (self->lock == NULL || self->dctx == NULL || self->unused_data == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if ((options != Py_None && set_options(self, options) < 0) ||
        (zstd_dict != Py_None && load_dict(self, zstd_dict) < 0)) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void decompressor_dealloc(decompressor *self)
{
    xc_zstd_dctx_free(self->dctx);
    Py_XDECREF(self->held);
    Py_XDECREF(self->dict);
    Py_XDECREF(self->unused_data);
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The first allocation for a call: the frame's announced size when the
 * call starts a frame whose header says it and the size is believable,
 * otherwise a guess from the input size; never above max_length. */
static size_t first_size(const xc_in_buffer *in, int frame_start, Py_ssize_t max_length)
{
    size_t n = 0;
    if (frame_start) {
        unsigned long long fcs = xc_zstd_frame_content_size(in->src, in->size);
        if (fcs != XC_ZSTD_CONTENTSIZE_UNKNOWN && fcs != XC_ZSTD_CONTENTSIZE_ERROR &&
            fcs <= OUT_TRUST_MAX && fcs / 32768u <= in->size)
            n = (size_t)fcs;
    }
    if (n == 0) {
        n = in->size * 4;
        if (n < OUT_MIN)
            n = OUT_MIN;
        if (n > OUT_FIRST_MAX)
            n = OUT_FIRST_MAX;
    }
    if (max_length >= 0 && n > (size_t)max_length)
        n = (size_t)max_length;
    return n;
}

/* Decompresses into a new bytes object of at most max_length bytes (none
 * when negative), or, when `into` is given, into that buffer, returning the
 * number of bytes written (ZstdFile's readinto: no copy of the output). */
static PyObject *decompress_locked(decompressor *self, Py_buffer *data, Py_ssize_t max_length,
                                   Py_buffer *into)
{
    if (self->eof) {
        PyErr_SetString(PyExc_EOFError, "Already at the end of a Zstandard frame.");
        return NULL;
    }
    xc_in_buffer in;
    PyObject *in_obj = NULL;    /* a bytes object holding the input, when not data */
    if (self->held == NULL) {
        in.src = data->buf;
        in.size = (size_t)data->len;
    } else {
        size_t left = (size_t)PyBytes_GET_SIZE(self->held) - self->held_pos;
        if (data->len == 0) {
            in_obj = Py_NewRef(self->held);
        } else {
            /* New input while old input waits: the one case that copies. */
            in_obj = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(left + (size_t)data->len));
            if (in_obj == NULL)
                return NULL;
            memcpy(PyBytes_AS_STRING(in_obj), PyBytes_AS_STRING(self->held) + self->held_pos,
                   left);
            memcpy(PyBytes_AS_STRING(in_obj) + left, data->buf, (size_t)data->len);
            self->held_pos = 0;
        }
        in.src = PyBytes_AS_STRING(in_obj) + self->held_pos;
        in.size = (size_t)PyBytes_GET_SIZE(in_obj) - self->held_pos;
    }
    in.pos = 0;
    int frame_start = !self->started;

    static char empty;
    PyObject *out = NULL;
    xc_out_buffer ob;
    if (into != NULL) {
        max_length = into->len;
        ob.dst = into->buf != NULL ? into->buf : &empty;
        ob.size = (size_t)into->len;
    } else {
        size_t cap = first_size(&in, frame_start, max_length);
        out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap);
        if (out == NULL)
            goto fail;
        ob.dst = PyBytes_AS_STRING(out);
        ob.size = cap;
    }
    ob.pos = 0;
    if (in.src == NULL)
        in.src = &empty;
    for (;;) {
        size_t in_before = in.pos, out_before = ob.pos, r;
        if (in.size - in.pos >= XCPY_NOGIL_MIN || ob.size - ob.pos >= XCPY_NOGIL_MIN) {
            Py_BEGIN_ALLOW_THREADS
            r = xc_zstd_decompress_stream(self->dctx, &ob, &in);
            Py_END_ALLOW_THREADS
        } else {
            r = xc_zstd_decompress_stream(self->dctx, &ob, &in);
        }
        if (xc_is_error(r)) {
            Py_CLEAR(out);
            xcpy_raise("Unable to decompress Zstandard data", r);
            goto fail;
        }
        if (r == 0) {
            self->eof = 1;
            break;
        }
        if (ob.pos == ob.size) {
            if (max_length >= 0 && ob.size >= (size_t)max_length)
                break;
            if (xcpy_grow(&out, ob.size + 1, max_length) < 0)
                goto fail;
            ob.dst = PyBytes_AS_STRING(out);
            ob.size = (size_t)PyBytes_GET_SIZE(out);
        } else if (in.pos == in.size) {
            break;
        } else if (in.pos == in_before && ob.pos == out_before) {
            break;  /* no progress: wait for more input */
        }
    }
    if (in.pos > 0)
        self->started = 1;
    if (out != NULL && ob.pos != (size_t)PyBytes_GET_SIZE(out) &&
        _PyBytes_Resize(&out, (Py_ssize_t)ob.pos) < 0)
        goto fail;

    size_t rest = in.size - in.pos;
    if (rest == 0) {
        Py_CLEAR(self->held);
        self->needs_input = !(self->eof || (max_length >= 0 && ob.pos == (size_t)max_length));
    } else if (self->eof) {
        self->needs_input = 0;
        PyObject *unused = PyBytes_FromStringAndSize((const char *)in.src + in.pos,
                                                     (Py_ssize_t)rest);
        if (unused == NULL)
            goto fail;
        Py_SETREF(self->unused_data, unused);
        Py_CLEAR(self->held);
    } else {
        self->needs_input = 0;
        if (in_obj != NULL) {
            self->held_pos += in.pos;
            Py_SETREF(self->held, in_obj);
            in_obj = NULL;
        } else if (data->obj != NULL && PyBytes_CheckExact(data->obj)) {
            Py_XSETREF(self->held, Py_NewRef(data->obj));
            self->held_pos = in.pos;
        } else {
            PyObject *copy = PyBytes_FromStringAndSize((const char *)in.src + in.pos,
                                                       (Py_ssize_t)rest);
            if (copy == NULL)
                goto fail;
            Py_XSETREF(self->held, copy);
            self->held_pos = 0;
        }
    }
    Py_XDECREF(in_obj);
    return into != NULL ? PyLong_FromSize_t(ob.pos) : out;
fail:
    Py_XDECREF(out);
    Py_XDECREF(in_obj);
    return NULL;
}

static PyObject *decompressor_decompress(decompressor *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"data", "max_length", NULL};
    Py_buffer data;
    Py_ssize_t max_length = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*|n:decompress", kwlist, &data,
                                     &max_length))
        return NULL;
    xcpy_lock(self->lock);
    PyObject *out = decompress_locked(self, &data, max_length, NULL);
    PyThread_release_lock(self->lock);
    PyBuffer_Release(&data);
    return out;
}

static PyObject *decompressor_decompress_into(decompressor *self, PyObject *args)
{
    Py_buffer data, into;
    if (!PyArg_ParseTuple(args, "y*w*:_decompress_into", &data, &into))
        return NULL;
    xcpy_lock(self->lock);
    PyObject *n = decompress_locked(self, &data, -1, &into);
    PyThread_release_lock(self->lock);
    PyBuffer_Release(&into);
    PyBuffer_Release(&data);
    return n;
}

static PyObject *decompressor_get_eof(PyObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(((decompressor *)self)->eof);
}

static PyObject *decompressor_get_needs_input(PyObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(((decompressor *)self)->needs_input);
}

static PyObject *decompressor_get_unused_data(PyObject *self, void *closure)
{
    (void)closure;
    decompressor *d = (decompressor *)self;
    if (!d->eof)
        return PyBytes_FromStringAndSize(NULL, 0);
    return Py_NewRef(d->unused_data);
}

static PyObject *decompressor_reduce(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError, "cannot pickle ZstdDecompressor object");
    return NULL;
}

static PyMethodDef decompressor_methods[] = {
    {"decompress", (PyCFunction)(void (*)(void))decompressor_decompress,
     METH_VARARGS | METH_KEYWORDS,
     "decompress(data, max_length=-1)\n\nDecompresses data, returning at most max_length "
     "bytes when it is not negative."},
    {"_decompress_into", (PyCFunction)decompressor_decompress_into, METH_VARARGS,
     "_decompress_into(data, buffer)\n\nAs decompress(data, len(buffer)), written into "
     "buffer; returns the number of bytes written."},
    {"__reduce__", decompressor_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef decompressor_getset[] = {
    {"eof", decompressor_get_eof, NULL, "True once the end of the frame was reached.", NULL},
    {"needs_input", decompressor_get_needs_input, NULL,
     "False when decompress() can return more output without more input.", NULL},
    {"unused_data", decompressor_get_unused_data, NULL,
     "The bytes after the end of the frame (b'' before eof).", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

PyTypeObject xcpy_decompressor_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xcodec.zstd.ZstdDecompressor",
    .tp_basicsize = sizeof(decompressor),
    .tp_dealloc = (destructor)decompressor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ZstdDecompressor(zstd_dict=None, options=None)\n\n"
              "Decompresses one zstd frame given in pieces.",
    .tp_methods = decompressor_methods,
    .tp_getset = decompressor_getset,
    .tp_new = decompressor_new,
};
