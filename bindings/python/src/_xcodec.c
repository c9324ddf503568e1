/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xcodec._xcodec: the module itself.  It holds the error type, the
 * checksums, the frame inspection functions, dictionary training, and the
 * one-shot compress/decompress fast paths that xcodec.zstd.compress() and
 * decompress() take when no dictionary or option is given.
 *
 * The fast paths reuse contexts from two small pools instead of making
 * one per call: a context's tables cost more to allocate and clear than a
 * small record costs to compress.  The pools are plain arrays touched only
 * with the GIL held; a context taken from a pool belongs to one call until
 * it is put back, so the work itself may run without the GIL.
 */
#include "binding.h"

#include <string.h>

PyObject *xcpy_zstd_error;
PyObject *xcpy_cparam_type;
PyObject *xcpy_dparam_type;

PyObject *xcpy_raise(const char *what, size_t result)
{
    enum xc_error code = xc_error_code(result);
    const char *name = xc_error_name(result);
    PyObject *exc = PyObject_CallFunction(xcpy_zstd_error, "s", "");
    if (exc == NULL)
        return NULL;
    PyObject *msg = PyUnicode_FromFormat("%s: %s", what, name);
    PyObject *args = msg ? PyTuple_Pack(1, msg) : NULL;
    PyObject *code_obj = PyLong_FromLong((long)code);
    PyObject *name_obj = PyUnicode_FromString(name);
    if (args && code_obj && name_obj && PyObject_SetAttrString(exc, "args", args) == 0 &&
        PyObject_SetAttrString(exc, "code", code_obj) == 0 &&
        PyObject_SetAttrString(exc, "name", name_obj) == 0)
        PyErr_SetObject(xcpy_zstd_error, exc);
    Py_XDECREF(msg);
    Py_XDECREF(args);
    Py_XDECREF(code_obj);
    Py_XDECREF(name_obj);
    Py_DECREF(exc);
    return NULL;
}

int xcpy_grow(PyObject **out, size_t need, Py_ssize_t limit)
{
    size_t size = (size_t)PyBytes_GET_SIZE(*out);
    size_t want = size < 256 * 1024 ? 256 * 1024 : size * 2;
    if (want < need)
        want = need;
    if (limit >= 0 && want > (size_t)limit)
        want = (size_t)limit;
    if (want > (size_t)PY_SSIZE_T_MAX) {
        Py_CLEAR(*out);
        PyErr_NoMemory();
        return -1;
    }
    return _PyBytes_Resize(out, (Py_ssize_t)want);
}

/* ---- pooled contexts ------------------------------------------------------------------ */

#define POOL_SIZE 8
static xc_zstd_cctx *cctx_pool[POOL_SIZE];
static int cctx_count;
static xc_zstd_dctx *dctx_pool[POOL_SIZE];
static int dctx_count;

static xc_zstd_cctx *cctx_take(void)
{
    return cctx_count ? cctx_pool[--cctx_count] : xc_zstd_cctx_new();
}

static void cctx_give(xc_zstd_cctx *cctx)
{
    if (cctx_count < POOL_SIZE)
        cctx_pool[cctx_count++] = cctx;
    else
        xc_zstd_cctx_free(cctx);
}

static xc_zstd_dctx *dctx_take(void)
{
    return dctx_count ? dctx_pool[--dctx_count] : xc_zstd_dctx_new();
}

static void dctx_give(xc_zstd_dctx *dctx)
{
    if (dctx_count < POOL_SIZE)
        dctx_pool[dctx_count++] = dctx;
    else
        xc_zstd_dctx_free(dctx);
}

/* ---- one-shot fast paths ------------------------------------------------------------ */

/* compress_level(data, level): one frame at a level, other parameters at
 * their defaults (pooled contexts only ever have their level changed). */
static PyObject *mod_compress_level(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "compress_level(data, level)");
        return NULL;
    }
    int overflow = 0;
    long level = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (level == -1 && PyErr_Occurred())
        return NULL;
    if (overflow || level < xc_zstd_min_level() || level > xc_zstd_max_level()) {
        PyErr_Format(PyExc_ValueError, "%S not in valid range %d <= compression level <= %d.",
                     args[1], xc_zstd_min_level(), xc_zstd_max_level());
        return NULL;
    }
    Py_buffer src;
    if (PyObject_GetBuffer(args[0], &src, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *out = NULL;
    size_t bound = xc_zstd_compress_bound((size_t)src.len);
    xc_zstd_cctx *cctx = cctx_take();
    if (cctx == NULL || xc_is_error(bound)) {
        PyErr_NoMemory();
        goto done;
    }
    size_t r = xc_zstd_cctx_set(cctx, XC_ZSTD_C_LEVEL, (int)level);
    if (xc_is_error(r)) {
        xcpy_raise("Unable to compress Zstandard data", r);
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)bound);
    if (out == NULL)
        goto done;
    if ((size_t)src.len >= XCPY_NOGIL_MIN) {
        Py_BEGIN_ALLOW_THREADS
        r = xc_zstd_compress_cctx(cctx, PyBytes_AS_STRING(out), bound, src.buf, (size_t)src.len);
        Py_END_ALLOW_THREADS
    } else {
        r = xc_zstd_compress_cctx(cctx, PyBytes_AS_STRING(out), bound, src.buf, (size_t)src.len);
    }
    if (xc_is_error(r)) {
        Py_CLEAR(out);
        xc_zstd_cctx_reset(cctx);
        xcpy_raise("Unable to compress Zstandard data", r);
    } else if (_PyBytes_Resize(&out, (Py_ssize_t)r) < 0) {
        out = NULL;
    }
done:
    if (cctx != NULL)
        cctx_give(cctx);
    PyBuffer_Release(&src);
    return out;
}

/* The total content size the frames of src announce, or -1 when a frame
 * does not say, a header or block structure is damaged, the input ends
 * inside a frame, or the total is not believable (the streaming path then
 * finds and names what is wrong).  No block regenerates more than 128 KiB
 * and none takes fewer than 4 bytes of a frame, so no valid frame expands
 * more than 32768 times. */
static long long announced_size(const char *src, size_t size)
{
    unsigned long long total = 0;
    size_t off = 0;
    if (size == 0)
        return -1;
    while (off < size) {
        unsigned long long fcs = xc_zstd_frame_content_size(src + off, size - off);
        if (fcs == XC_ZSTD_CONTENTSIZE_UNKNOWN || fcs == XC_ZSTD_CONTENTSIZE_ERROR)
            return -1;
        size_t frame = xc_zstd_find_frame_compressed_size(src + off, size - off);
        if (xc_is_error(frame) || fcs / 32768u > frame)
            return -1;
        total += fcs;
        if (total > (unsigned long long)PY_SSIZE_T_MAX)
            return -1;
        off += frame;
    }
    return (long long)total;
}

/* decompress_known(data): every frame of data decoded into one bytes
 * object of exactly the size the headers announce, or None when they do
 * not all announce one (the caller then streams frame by frame). */
static PyObject *mod_decompress_known(PyObject *module, PyObject *arg)
{
    (void)module;
    Py_buffer src;
    if (PyObject_GetBuffer(arg, &src, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *out = NULL;
    long long total = announced_size(src.buf, (size_t)src.len);
    if (total < 0) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    xc_zstd_dctx *dctx = dctx_take();
    if (dctx == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (out != NULL) {
        size_t r;
        if ((size_t)src.len >= XCPY_NOGIL_MIN || total >= XCPY_NOGIL_MIN * 4) {
            Py_BEGIN_ALLOW_THREADS
            r = xc_zstd_decompress_dctx(dctx, PyBytes_AS_STRING(out), (size_t)total, src.buf,
                                        (size_t)src.len);
            Py_END_ALLOW_THREADS
        } else {
            r = xc_zstd_decompress_dctx(dctx, PyBytes_AS_STRING(out), (size_t)total, src.buf,
                                        (size_t)src.len);
        }
        if (!xc_is_error(r) && r != (size_t)total)
            r = (size_t)-XC_ERROR_CORRUPT;
        if (xc_is_error(r)) {
            Py_CLEAR(out);
            xc_zstd_dctx_reset(dctx);
            xcpy_raise("Unable to decompress Zstandard data", r);
        }
    }
    dctx_give(dctx);
done:
    PyBuffer_Release(&src);
    return out;
}

/* ---- compress() and decompress() --------------------------------------------------- */

/* xcodec.zstd.compress and decompress are these two functions: calls with
 * no options and no dictionary take the fast paths above straight from
 * C; every other call goes, with its arguments untouched, to the Python
 * function registered for it (set_slow_paths), which builds a
 * ZstdCompressor or loops over ZstdDecompressors as compression.zstd does.
 * At a few microseconds a record, the Python frame a wrapper costs is a
 * few percent. */
static PyObject *slow_compress;
static PyObject *slow_decompress;

/* Finds the arguments named in `names` (positional first, then keywords);
 * returns -1 (the slow path takes the call, and reports any error) when a
 * keyword is not one of them. */
static int find_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                     const char *const *names, int n, PyObject **found)
{
    for (int i = 0; i < n; i++)
        found[i] = i < nargs ? args[i] : NULL;
    if (nargs > n)
        return -1;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        int i = 0;
        if (key == NULL) {
            PyErr_Clear();
            return -1;
        }
        while (i < n && strcmp(key, names[i]) != 0)
            i++;
        if (i == n || found[i] != NULL)
            return -1;
        found[i] = args[nargs + k];
    }
    return found[0] == NULL ? -1 : 0;
}

static PyObject *slow(PyObject *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (fn == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "xcodec._xcodec: set_slow_paths() was not called");
        return NULL;
    }
    return PyObject_Vectorcall(fn, args, (size_t)nargs, kwnames);
}

static PyObject *mod_compress(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    static const char *const names[] = {"data", "level", "options", "zstd_dict"};
    PyObject *a[4];
    if (find_args(args, nargs, kwnames, names, 4, a) < 0 || (a[2] && a[2] != Py_None) ||
        (a[3] && a[3] != Py_None))
        return slow(slow_compress, args, nargs, kwnames);
    PyObject *level = a[1];
    PyObject *fast[2] = {a[0], level};
    if (level == NULL || level == Py_None) {
        PyObject *dflt = PyLong_FromLong(xc_zstd_default_level());
        if (dflt == NULL)
            return NULL;
        fast[1] = dflt;
        PyObject *r = mod_compress_level(module, fast, 2);
        Py_DECREF(dflt);
        return r;
    }
    return mod_compress_level(module, fast, 2);
}

static PyObject *mod_decompress(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames)
{
    static const char *const names[] = {"data", "zstd_dict", "options"};
    PyObject *a[3];
    if (find_args(args, nargs, kwnames, names, 3, a) < 0 || (a[1] && a[1] != Py_None) ||
        (a[2] && a[2] != Py_None))
        return slow(slow_decompress, args, nargs, kwnames);
    PyObject *r = mod_decompress_known(module, a[0]);
    if (r != Py_None)
        return r;
    Py_DECREF(r);
    return slow(slow_decompress, args, nargs, kwnames);
}

static PyObject *mod_set_slow_paths(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *c, *d;
    if (!PyArg_ParseTuple(args, "OO:set_slow_paths", &c, &d))
        return NULL;
    Py_XSETREF(slow_compress, Py_NewRef(c));
    Py_XSETREF(slow_decompress, Py_NewRef(d));
    Py_RETURN_NONE;
}

/* ---- checksums ------------------------------------------------------------------------ */

static PyObject *mod_crc32c(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "crc32c(data, value=0)");
        return NULL;
    }
    unsigned long crc = 0;
    if (nargs == 2) {
        crc = PyLong_AsUnsignedLongMask(args[1]);
        if (crc == (unsigned long)-1 && PyErr_Occurred())
            return NULL;
    }
    Py_buffer b;
    if (PyObject_GetBuffer(args[0], &b, PyBUF_SIMPLE) < 0)
        return NULL;
    uint32_t r;
    if ((size_t)b.len >= XCPY_NOGIL_MIN * 8) {
        Py_BEGIN_ALLOW_THREADS
        r = xc_crc32c((uint32_t)crc, b.buf, (size_t)b.len);
        Py_END_ALLOW_THREADS
    } else {
        r = xc_crc32c((uint32_t)crc, b.buf, (size_t)b.len);
    }
    PyBuffer_Release(&b);
    return PyLong_FromUnsignedLong(r);
}

static PyObject *mod_inet_checksum(PyObject *module, PyObject *arg)
{
    (void)module;
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0)
        return NULL;
    uint16_t r;
    if ((size_t)b.len >= XCPY_NOGIL_MIN * 8) {
        Py_BEGIN_ALLOW_THREADS
        r = xc_inet_checksum(b.buf, (size_t)b.len);
        Py_END_ALLOW_THREADS
    } else {
        r = xc_inet_checksum(b.buf, (size_t)b.len);
    }
    PyBuffer_Release(&b);
    return PyLong_FromLong(r);
}

/* ---- frames ------------------------------------------------------------------------------ */

static PyObject *mod_get_frame_info(PyObject *module, PyObject *arg)
{
    (void)module;
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0)
        return NULL;
    unsigned long long fcs = xc_zstd_frame_content_size(b.buf, (size_t)b.len);
    unsigned id = xc_zstd_frame_dict_id(b.buf, (size_t)b.len);
    PyBuffer_Release(&b);
    if (fcs == XC_ZSTD_CONTENTSIZE_ERROR) {
        PyErr_SetString(xcpy_zstd_error,
                        "Error when getting information from the header of a Zstandard frame. "
                        "Make sure the frame_buffer argument starts from the beginning of a "
                        "frame, and its length is not less than the frame header (6~18 bytes).");
        return NULL;
    }
    if (fcs == XC_ZSTD_CONTENTSIZE_UNKNOWN)
        return Py_BuildValue("OI", Py_None, id);
    return Py_BuildValue("KI", fcs, id);
}

static PyObject *mod_get_frame_size(PyObject *module, PyObject *arg)
{
    (void)module;
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0)
        return NULL;
    size_t r = xc_zstd_find_frame_compressed_size(b.buf, (size_t)b.len);
    PyBuffer_Release(&b);
    if (xc_is_error(r))
        return xcpy_raise("Error when finding the compressed size of a Zstandard frame. Make "
                          "sure the frame_buffer argument starts from the beginning of a frame, "
                          "and its length is not less than this complete frame", r);
    return PyLong_FromSize_t(r);
}

/* ---- dictionaries ------------------------------------------------------------------------- */

/* train_dict(samples, sizes, dict_size) and finalize_dict(content, samples,
 * sizes, dict_size): the samples are one buffer and a tuple of their sizes.
 * content is NULL for training. */
static PyObject *build_dict(Py_buffer *content, Py_buffer *samples, PyObject *sizes,
                            Py_ssize_t dict_size)
{
    PyObject *out = NULL;
    size_t *sz = NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(sizes);
    if (dict_size <= 0) {
        PyErr_SetString(PyExc_ValueError, "dict_size argument should be positive number.");
        goto done;
    }
    if (n > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many samples");
        goto done;
    }
    sz = PyMem_Malloc(((size_t)n + 1) * sizeof *sz);
    if (sz == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    size_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        sz[i] = PyLong_AsSize_t(PyTuple_GET_ITEM(sizes, i));
        if (sz[i] == (size_t)-1 && PyErr_Occurred())
            goto done;
        total += sz[i];
    }
    if (total != (size_t)samples->len) {
        PyErr_SetString(PyExc_ValueError, "the sum of the sample sizes is not the length of the "
                        "samples");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, dict_size);
    if (out == NULL)
        goto done;
    size_t r;
    Py_BEGIN_ALLOW_THREADS
    if (content)
        r = xc_zstd_finalize_dictionary(PyBytes_AS_STRING(out), (size_t)dict_size, content->buf,
                                        (size_t)content->len, samples->buf, sz, (unsigned)n, 0);
    else
        r = xc_zstd_train_dictionary(PyBytes_AS_STRING(out), (size_t)dict_size, samples->buf,
                                     sz, (unsigned)n);
    Py_END_ALLOW_THREADS
    if (xc_is_error(r)) {
        Py_CLEAR(out);
        xcpy_raise(content ? "Unable to finalize the Zstandard dictionary"
                           : "Unable to train the Zstandard dictionary", r);
    } else if (_PyBytes_Resize(&out, (Py_ssize_t)r) < 0) {
        out = NULL;
    }
done:
    PyMem_Free(sz);
    return out;
}

static PyObject *mod_train_dict(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer samples;
    PyObject *sizes;
    Py_ssize_t dict_size;
    if (!PyArg_ParseTuple(args, "y*O!n:train_dict", &samples, &PyTuple_Type, &sizes, &dict_size))
        return NULL;
    PyObject *out = build_dict(NULL, &samples, sizes, dict_size);
    PyBuffer_Release(&samples);
    return out;
}

static PyObject *mod_finalize_dict(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer content, samples;
    PyObject *sizes;
    Py_ssize_t dict_size;
    if (!PyArg_ParseTuple(args, "y*y*O!n:finalize_dict", &content, &samples, &PyTuple_Type,
                          &sizes, &dict_size))
        return NULL;
    PyObject *out = build_dict(&content, &samples, sizes, dict_size);
    PyBuffer_Release(&samples);
    PyBuffer_Release(&content);
    return out;
}

static PyObject *mod_set_parameter_types(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *c, *d;
    if (!PyArg_ParseTuple(args, "O!O!:set_parameter_types", &PyType_Type, &c, &PyType_Type, &d))
        return NULL;
    Py_XSETREF(xcpy_cparam_type, Py_NewRef(c));
    Py_XSETREF(xcpy_dparam_type, Py_NewRef(d));
    Py_RETURN_NONE;
}

static PyObject *mod_impl_name(PyObject *module, PyObject *arg)
{
    (void)module;
    const char *kernel = PyUnicode_AsUTF8(arg);
    if (kernel == NULL)
        return NULL;
    const char *name = xc_impl_name(kernel);
    if (name == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(name);
}

static PyObject *mod_cpucap(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(xc_cpucap_describe());
}

static PyMethodDef module_methods[] = {
    {"compress_level", (PyCFunction)(void (*)(void))mod_compress_level, METH_FASTCALL,
     "compress_level(data, level): one frame, with pooled contexts."},
    {"decompress_known", mod_decompress_known, METH_O,
     "decompress_known(data): all frames when their sizes are announced, else None."},
    {"compress", (PyCFunction)(void (*)(void))mod_compress, METH_FASTCALL | METH_KEYWORDS,
     "compress(data, level=None, options=None, zstd_dict=None)\n\ndata compressed into one "
     "zstd frame."},
    {"decompress", (PyCFunction)(void (*)(void))mod_decompress, METH_FASTCALL | METH_KEYWORDS,
     "decompress(data, zstd_dict=None, options=None)\n\nEvery frame of data decompressed."},
    {"set_slow_paths", mod_set_slow_paths, METH_VARARGS, NULL},
    {"crc32c", (PyCFunction)(void (*)(void))mod_crc32c, METH_FASTCALL,
     "crc32c(data, value=0)\n\nThe CRC32C of data, continuing from value."},
    {"inet_checksum", mod_inet_checksum, METH_O,
     "inet_checksum(data)\n\nThe Internet checksum (RFC 1071) of data, a 16-bit int."},
    {"get_frame_info", mod_get_frame_info, METH_O,
     "get_frame_info(frame_buffer): (decompressed_size or None, dictionary_id)."},
    {"get_frame_size", mod_get_frame_size, METH_O,
     "get_frame_size(frame_buffer)\n\nThe size of the first frame in frame_buffer."},
    {"train_dict", mod_train_dict, METH_VARARGS,
     "train_dict(samples, sample_sizes, dict_size): the bytes of a trained dictionary."},
    {"finalize_dict", mod_finalize_dict, METH_VARARGS,
     "finalize_dict(content, samples, sizes, dict_size) -> bytes"},
    {"get_param_bounds", (PyCFunction)(void (*)(void))xcpy_get_param_bounds,
     METH_VARARGS | METH_KEYWORDS, "get_param_bounds(parameter, is_compress)"},
    {"set_parameter_types", mod_set_parameter_types, METH_VARARGS, NULL},
    {"impl_name", mod_impl_name, METH_O,
     "impl_name(kernel): the variant in use for 'crc32c', 'inet', 'zstd_decode', 'zstd_encode'."},
    {"cpucap", mod_cpucap, METH_NOARGS, "The library's description of the CPU and tier."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_xcodec",
    "The C extension under xcodec and xcodec.zstd; use those instead.", -1, module_methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__xcodec(void);
PyMODINIT_FUNC PyInit__xcodec(void)
{
    if (xc_version() / 10000 != XC_VERSION_MAJOR) {
        PyErr_SetString(PyExc_ImportError, "xcodec: the library linked is another major version");
        return NULL;
    }
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    xcpy_zstd_error = PyErr_NewExceptionWithDoc(
        "xcodec.zstd.ZstdError",
        "A failure of the zstd codec: .name is the library's name for it, .code its number.",
        NULL, NULL);
    if (xcpy_zstd_error == NULL || PyModule_AddObjectRef(m, "ZstdError", xcpy_zstd_error) < 0)
        goto fail;
    PyTypeObject *types[] = {&xcpy_dict_type, &xcpy_compressor_type, &xcpy_decompressor_type,
                             &xcpy_seekable_reader_type, &xcpy_seekable_writer_type};
    const char *names[] = {"ZstdDict", "ZstdCompressor", "ZstdDecompressor", "SeekableReader",
                           "SeekableWriter"};
    for (int i = 0; i < 5; i++)
        if (PyType_Ready(types[i]) < 0 || PyModule_AddObjectRef(m, names[i], (PyObject *)types[i]) < 0)
            goto fail;
    static const struct { const char *name; int value; } modes[] = {
        {"CONTINUE", XCPY_CONTINUE}, {"FLUSH_BLOCK", XCPY_FLUSH_BLOCK},
        {"FLUSH_FRAME", XCPY_FLUSH_FRAME}};
    for (int i = 0; i < 3; i++) {
        PyObject *v = PyLong_FromLong(modes[i].value);
        int err = v == NULL ||
                  PyDict_SetItemString(xcpy_compressor_type.tp_dict, modes[i].name, v) < 0;
        Py_XDECREF(v);
        if (err)
            goto fail;
    }
    PyType_Modified(&xcpy_compressor_type);
    if (PyModule_AddIntConstant(m, "ZSTD_CLEVEL_DEFAULT", xc_zstd_default_level()) < 0 ||
        PyModule_AddIntConstant(m, "ZSTD_MIN_CLEVEL", xc_zstd_min_level()) < 0 ||
        PyModule_AddIntConstant(m, "ZSTD_MAX_CLEVEL", xc_zstd_max_level()) < 0 ||
        PyModule_AddIntConstant(m, "ZSTD_DStreamOutSize", XC_ZSTD_BLOCK_SIZE_MAX) < 0 ||
        PyModule_AddIntConstant(m, "version_number", (long)xc_version()) < 0 ||
        PyModule_AddStringConstant(m, "version", xc_version_string()) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
