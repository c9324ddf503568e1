/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The seekable format in the extension module: SeekableReader over the
 * library's reader (xc_zstd_seekable_*), SeekableWriter over its writer.
 * xcodec/zstd/_seekable.py builds the file object SeekableZstdFile on
 * them; these two are its engine and take positions explicitly.
 *
 * A reader reads its source one of three ways: a file descriptor through
 * pread() (the Python layer opens paths so; it stays the caller's to
 * close), a bytes-like object held through the buffer protocol, or a
 * Python callable read_at(offset, length) -> bytes (what a file object
 * becomes).  The first two let other threads run while frames are decoded
 * and let decompress_all() decode on several threads; a callable needs the
 * GIL, so it is called in the calling thread with the GIL held, and an
 * exception it raises is the one the read raises.
 */
#include "binding.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SRC_NONE = 0, SRC_FD, SRC_BUFFER, SRC_CALL };

typedef struct {
    PyObject_HEAD
    xc_zstd_seekable *r;
    PyThread_type_lock lock;
    int kind;
    int fd;
    Py_buffer view;          /* SRC_BUFFER */
    PyObject *read_at;       /* SRC_CALL */
    PyObject *exc_type, *exc_value, *exc_tb; /* what read_at raised, until re-raised */
} reader;

static int fd_read_at(void *opaque, void *buf, size_t len, unsigned long long offset)
{
    reader *self = (reader *)opaque;
    char *p = (char *)buf;
    while (len) {
        ssize_t const k = pread(self->fd, p, len, (off_t)offset);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        len -= (size_t)k;
        offset += (unsigned long long)k;
    }
    return 0;
}

/* Called with the GIL held (reads through a callable never release it). */
static int call_read_at(void *opaque, void *buf, size_t len, unsigned long long offset)
{
    reader *self = (reader *)opaque;
    if (self->exc_type != NULL)
        return -1;
    PyObject *res = PyObject_CallFunction(self->read_at, "Kn", offset, (Py_ssize_t)len);
    if (res != NULL) {
        Py_buffer v;
        if (PyObject_GetBuffer(res, &v, PyBUF_SIMPLE) == 0) {
            int const ok = (size_t)v.len == len;
            if (ok)
                memcpy(buf, v.buf, len);
            PyBuffer_Release(&v);
            Py_DECREF(res);
            return ok ? 0 : -1; /* short: the library says "truncated" */
        }
        Py_DECREF(res);
    }
    PyErr_Fetch(&self->exc_type, &self->exc_value, &self->exc_tb);
    return -1;
}

/* After a library call: the callable's exception first, else the error. */
static PyObject *fail(reader *self, const char *what, size_t r)
{
    if (self->exc_type != NULL) {
        PyErr_Restore(self->exc_type, self->exc_value, self->exc_tb);
        self->exc_type = self->exc_value = self->exc_tb = NULL;
        return NULL;
    }
    return xcpy_raise(what, r);
}

static void release_source(reader *self)
{
    if (self->kind == SRC_BUFFER)
        PyBuffer_Release(&self->view);
    Py_CLEAR(self->read_at);
    self->kind = SRC_NONE;
}

static PyObject *reader_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"source", "size", NULL};
    PyObject *source;
    long long size = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|L:SeekableReader", kwlist, &source, &size))
        return NULL;
    reader *self = (reader *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->fd = -1;
    self->lock = PyThread_allocate_lock();
    self->r = xc_zstd_seekable_new();
    if (self->lock == NULL || self->r == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    size_t r;
    if (PyLong_Check(source)) {
        self->fd = (int)PyLong_AsLong(source);
        if (self->fd < 0 && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a file descriptor cannot be negative");
        if (PyErr_Occurred()) {
            Py_DECREF(self);
            return NULL;
        }
        if (size < 0) {
            struct stat st;
            if (fstat(self->fd, &st) != 0) {
                PyErr_SetFromErrno(PyExc_OSError);
                Py_DECREF(self);
                return NULL;
            }
            size = (long long)st.st_size;
        }
        self->kind = SRC_FD;
        Py_BEGIN_ALLOW_THREADS
        r = xc_zstd_seekable_open_callback(self->r, fd_read_at, self, (unsigned long long)size);
        Py_END_ALLOW_THREADS
    } else if (PyCallable_Check(source)) {
        if (size < 0) {
            PyErr_SetString(PyExc_ValueError, "a read_at callable needs the source's size");
            Py_DECREF(self);
            return NULL;
        }
        self->read_at = Py_NewRef(source);
        self->kind = SRC_CALL;
        r = xc_zstd_seekable_open_callback(self->r, call_read_at, self, (unsigned long long)size);
    } else {
        if (PyObject_GetBuffer(source, &self->view, PyBUF_SIMPLE) < 0) {
            Py_DECREF(self);
            return NULL;
        }
        self->kind = SRC_BUFFER;
        r = xc_zstd_seekable_open_buffer(self->r, self->view.buf, (size_t)self->view.len);
    }
    if (xc_is_error(r)) {
        fail(self, "Unable to open the seekable file", r);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void reader_dealloc(reader *self)
{
    xc_zstd_seekable_free(self->r);
    release_source(self);
    Py_XDECREF(self->exc_type);
    Py_XDECREF(self->exc_value);
    Py_XDECREF(self->exc_tb);
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_open(reader *self)
{
    if (self->kind != SRC_NONE)
        return 0;
    PyErr_SetString(PyExc_ValueError, "the seekable reader is closed");
    return -1;
}

/* Reads [offset, offset + len) into dst under the object's lock, without
 * the GIL unless the source is a callable. */
static size_t locked_read(reader *self, void *dst, size_t len, unsigned long long offset)
{
    size_t r;
    if (self->kind == SRC_CALL) {
        xcpy_lock(self->lock);
        r = xc_zstd_seekable_read(self->r, dst, len, offset);
        PyThread_release_lock(self->lock);
        return r;
    }
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    r = xc_zstd_seekable_read(self->r, dst, len, offset);
    PyThread_release_lock(self->lock);
    Py_END_ALLOW_THREADS
    return r;
}

static PyObject *reader_read(reader *self, PyObject *args)
{
    unsigned long long offset;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "Kn:read", &offset, &len) || check_open(self) < 0)
        return NULL;
    unsigned long long const total = xc_zstd_seekable_content_size(self->r);
    if (len < 0 || offset >= total)
        return PyBytes_FromStringAndSize(NULL, 0);
    if ((unsigned long long)len > total - offset)
        len = (Py_ssize_t)(total - offset);
    PyObject *out = PyBytes_FromStringAndSize(NULL, len);
    if (out == NULL)
        return NULL;
    size_t const r = locked_read(self, PyBytes_AS_STRING(out), (size_t)len, offset);
    if (xc_is_error(r)) {
        Py_DECREF(out);
        return fail(self, "Unable to read the seekable file", r);
    }
    if ((Py_ssize_t)r != len && _PyBytes_Resize(&out, (Py_ssize_t)r) < 0)
        return NULL;
    return out;
}

static PyObject *reader_readinto(reader *self, PyObject *args)
{
    Py_buffer dst;
    unsigned long long offset;
    if (!PyArg_ParseTuple(args, "w*K:readinto", &dst, &offset))
        return NULL;
    if (check_open(self) < 0) {
        PyBuffer_Release(&dst);
        return NULL;
    }
    size_t r = 0;
    if (offset < xc_zstd_seekable_content_size(self->r) && dst.len > 0)
        r = locked_read(self, dst.buf, (size_t)dst.len, offset);
    PyBuffer_Release(&dst);
    if (xc_is_error(r))
        return fail(self, "Unable to read the seekable file", r);
    return PyLong_FromSize_t(r);
}

static PyObject *reader_decompress_all(reader *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"nb_workers", NULL};
    unsigned workers = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|I:decompress_all", kwlist, &workers) ||
        check_open(self) < 0)
        return NULL;
    unsigned long long const total = xc_zstd_seekable_content_size(self->r);
    if (total > (unsigned long long)PY_SSIZE_T_MAX)
        return PyErr_NoMemory();
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (out == NULL)
        return NULL;
    size_t r;
    char *const dst = PyBytes_AS_STRING(out);
    if (self->kind == SRC_CALL) {
        /* The callable needs the GIL, hence one thread. */
        xcpy_lock(self->lock);
        r = xc_zstd_seekable_decompress_all(self->r, dst, (size_t)total, 0);
        PyThread_release_lock(self->lock);
    } else {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->lock, WAIT_LOCK);
        r = xc_zstd_seekable_decompress_all(self->r, dst, (size_t)total, workers);
        PyThread_release_lock(self->lock);
        Py_END_ALLOW_THREADS
    }
    if (xc_is_error(r)) {
        Py_DECREF(out);
        return fail(self, "Unable to decompress the seekable file", r);
    }
    return out;
}

static PyObject *reader_frame(reader *self, PyObject *args)
{
    unsigned i;
    if (!PyArg_ParseTuple(args, "I:frame", &i) || check_open(self) < 0)
        return NULL;
    if (i >= xc_zstd_seekable_frames(self->r)) {
        PyErr_SetString(PyExc_IndexError, "frame index out of range");
        return NULL;
    }
    return Py_BuildValue("(KKKK)", xc_zstd_seekable_frame_c_offset(self->r, i),
                         xc_zstd_seekable_frame_c_size(self->r, i),
                         xc_zstd_seekable_frame_d_offset(self->r, i),
                         xc_zstd_seekable_frame_d_size(self->r, i));
}

static PyObject *reader_close(reader *self, PyObject *unused)
{
    (void)unused;
    xcpy_lock(self->lock);
    xc_zstd_seekable_free(self->r);
    self->r = NULL;
    release_source(self);
    PyThread_release_lock(self->lock);
    Py_RETURN_NONE;
}

static PyObject *reader_get_frames(reader *self, void *unused)
{
    (void)unused;
    if (check_open(self) < 0)
        return NULL;
    return PyLong_FromUnsignedLong(xc_zstd_seekable_frames(self->r));
}

static PyObject *reader_get_content_size(reader *self, void *unused)
{
    (void)unused;
    if (check_open(self) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(xc_zstd_seekable_content_size(self->r));
}

static PyObject *reader_get_has_checksums(reader *self, void *unused)
{
    (void)unused;
    if (check_open(self) < 0)
        return NULL;
    return PyBool_FromLong(xc_zstd_seekable_has_checksums(self->r));
}

static PyMethodDef reader_methods[] = {
    {"read", (PyCFunction)reader_read, METH_VARARGS,
     "read(offset, length)\n\nUp to length bytes of content from offset (fewer at the end, "
     "b'' at or past it)."},
    {"readinto", (PyCFunction)reader_readinto, METH_VARARGS,
     "readinto(buffer, offset)\n\nAs read(offset, len(buffer)) into buffer; returns the "
     "number of bytes written."},
    {"decompress_all", (PyCFunction)(void (*)(void))reader_decompress_all,
     METH_VARARGS | METH_KEYWORDS,
     "decompress_all(nb_workers=0)\n\nThe whole content, its frames decoded on nb_workers "
     "threads (one thread for a read_at callable)."},
    {"frame", (PyCFunction)reader_frame, METH_VARARGS,
     "frame(i)\n\n(compressed offset, compressed size, content offset, content size) of "
     "frame i."},
    {"close", (PyCFunction)reader_close, METH_NOARGS,
     "close()\n\nReleases the source (a file descriptor stays the caller's to close)."},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef reader_getset[] = {
    {"frames", (getter)reader_get_frames, NULL, "The number of frames.", NULL},
    {"content_size", (getter)reader_get_content_size, NULL, "The decompressed size.", NULL},
    {"has_checksums", (getter)reader_get_has_checksums, NULL,
     "True when the seek table holds each frame's checksum.", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

PyTypeObject xcpy_seekable_reader_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xcodec._xcodec.SeekableReader",
    .tp_basicsize = sizeof(reader),
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "SeekableReader(source, size=-1)\n\n"
              "A seekable zstd file's seek table and content, from a file descriptor (read "
              "with pread; size from fstat when -1), a bytes-like object, or a callable "
              "read_at(offset, length) -> bytes over size bytes.",
    .tp_methods = reader_methods,
    .tp_getset = reader_getset,
    .tp_new = reader_new,
};

/* ---- the writer ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    xc_zstd_cctx *cctx;
    xc_zstd_seekable_writer *w;
    PyThread_type_lock lock;
    int finished;
} writer;

static PyObject *writer_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"level", "frame_size", "checksums", "nb_workers", NULL};
    int level = 0, checksums = 1, workers = 0;
    unsigned frame = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|iIpi:SeekableWriter", kwlist, &level,
                                     &frame, &checksums, &workers))
        return NULL;
    if (frame > XC_ZSTD_SEEKABLE_FRAME_SIZE_MAX) {
        PyErr_Format(PyExc_ValueError, "frame_size must be 1 to %u bytes (0: %u)",
                     XC_ZSTD_SEEKABLE_FRAME_SIZE_MAX, XC_ZSTD_SEEKABLE_FRAME_SIZE_DEFAULT);
        return NULL;
    }
    writer *self = (writer *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->lock = PyThread_allocate_lock();
    self->cctx = xc_zstd_cctx_new();
    if (self->lock == NULL || self->cctx == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    /* Checksums in the frames and in the table, as `xcodec --seekable`
     * writes them with --check (its default). */
    size_t r = xc_zstd_cctx_set(self->cctx, XC_ZSTD_C_LEVEL, level);
    if (!xc_is_error(r))
        r = xc_zstd_cctx_set(self->cctx, XC_ZSTD_C_CHECKSUM, checksums);
    if (!xc_is_error(r) && workers)
        r = xc_zstd_cctx_set(self->cctx, XC_ZSTD_C_NB_WORKERS, workers);
    if (xc_is_error(r)) {
        Py_DECREF(self);
        return xcpy_raise("Invalid seekable writer parameter", r);
    }
    self->w = xc_zstd_seekable_writer_new(self->cctx, frame, checksums);
    if (self->w == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void writer_dealloc(writer *self)
{
    xc_zstd_seekable_writer_free(self->w);
    xc_zstd_cctx_free(self->cctx);
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Runs the writer over data (finish when data is NULL) and returns what it
 * wrote. */
static PyObject *writer_run(writer *self, const Py_buffer *data)
{
    if (self->finished) {
        PyErr_SetString(PyExc_ValueError, "the seekable writer is finished");
        return NULL;
    }
    size_t const len = data ? (size_t)data->len : 0;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(len / 2 + 4096));
    if (out == NULL)
        return NULL;
    xc_in_buffer in = {data ? data->buf : NULL, len, 0};
    size_t pos = 0, r;
    for (;;) {
        xc_out_buffer o = {PyBytes_AS_STRING(out) + pos, (size_t)PyBytes_GET_SIZE(out) - pos, 0};
        int const nogil = len >= XCPY_NOGIL_MIN || data == NULL;
        if (nogil) {
            Py_BEGIN_ALLOW_THREADS
            r = data ? xc_zstd_seekable_write(self->w, &o, &in) : xc_zstd_seekable_finish(self->w, &o);
            Py_END_ALLOW_THREADS
        } else {
            r = xc_zstd_seekable_write(self->w, &o, &in);
        }
        pos += o.pos;
        if (xc_is_error(r)) {
            Py_DECREF(out);
            self->finished = 1;
            return xcpy_raise("Unable to write the seekable file", r);
        }
        if (r == 0 && in.pos == in.size)
            break;
        if (pos == (size_t)PyBytes_GET_SIZE(out) && xcpy_grow(&out, pos + 1, -1) < 0)
            return NULL;
    }
    if (data == NULL)
        self->finished = 1;
    if (_PyBytes_Resize(&out, (Py_ssize_t)pos) < 0)
        return NULL;
    return out;
}

static PyObject *writer_write(writer *self, PyObject *args)
{
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*:write", &data))
        return NULL;
    xcpy_lock(self->lock);
    PyObject *out = writer_run(self, &data);
    PyThread_release_lock(self->lock);
    PyBuffer_Release(&data);
    return out;
}

static PyObject *writer_finish(writer *self, PyObject *unused)
{
    (void)unused;
    xcpy_lock(self->lock);
    PyObject *out = writer_run(self, NULL);
    PyThread_release_lock(self->lock);
    return out;
}

static PyMethodDef writer_methods[] = {
    {"write", (PyCFunction)writer_write, METH_VARARGS,
     "write(data)\n\nTakes data; returns the compressed bytes ready so far (whole frames)."},
    {"finish", (PyCFunction)writer_finish, METH_NOARGS,
     "finish()\n\nThe last frame and the seek table; the writer is done after it."},
    {NULL, NULL, 0, NULL}
};

PyTypeObject xcpy_seekable_writer_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xcodec._xcodec.SeekableWriter",
    .tp_basicsize = sizeof(writer),
    .tp_dealloc = (destructor)writer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "SeekableWriter(level=0, frame_size=0, checksums=True, nb_workers=0)\n\n"
              "Writes the seekable format: frames of frame_size bytes of content (0: 1 MiB) "
              "at level (0: the default), then the seek table, with each frame's checksum "
              "(in the frame and in the table) when checksums is true; nb_workers compresses frames in parallel (the same "
              "bytes).",
    .tp_methods = writer_methods,
    .tp_new = writer_new,
};
