/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ZstdDict: the bytes of a dictionary and, made on first use and kept
 * until the object goes, its prepared forms: one xc_zstd_ddict for
 * decompression and one xc_zstd_cdict per compression level.  The
 * prepared forms are read-only once made, so any number of compressors and
 * decompressors in any number of threads use them at once; they are made
 * with the GIL held, which is what keeps two threads from making the same
 * one twice.
 */
#include "binding.h"

#include <string.h>

#define DICT_MAGIC_LE "\x37\xa4\x30\xec"

static PyObject *dict_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"", "is_raw", NULL};
    PyObject *content_arg;
    int is_raw = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$p:ZstdDict", kwlist, &content_arg,
                                     &is_raw))
        return NULL;
    PyObject *content = PyBytes_FromObject(content_arg);
    if (content == NULL) {
        PyErr_SetString(PyExc_TypeError, "dict_content argument should be bytes-like object.");
        return NULL;
    }
    Py_ssize_t size = PyBytes_GET_SIZE(content);
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(content);
    if (size < 8) {
        Py_DECREF(content);
        PyErr_SetString(PyExc_ValueError, "Zstandard dictionary content should at least 8 bytes.");
        return NULL;
    }
    /* RFC 8878 §5: the magic, then the ID, little-endian.  Anything else is
     * raw content, whose ID is 0. */
    unsigned id = 0;
    if (memcmp(p, DICT_MAGIC_LE, 4) == 0)
        id = (unsigned)p[4] | (unsigned)p[5] << 8 | (unsigned)p[6] << 16 | (unsigned)p[7] << 24;
    if (!is_raw && id == 0) {
        Py_DECREF(content);
        PyErr_SetString(PyExc_ValueError, "Invalid Zstandard dictionary and is_raw not set.");
        return NULL;
    }
    xcpy_dict *self = (xcpy_dict *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(content);
        return NULL;
    }
    self->content = content;
    self->dict_id = id;
    self->n_levels = xc_zstd_max_level() - xc_zstd_min_level() + 1;
    self->cdicts = PyMem_Calloc((size_t)self->n_levels, sizeof *self->cdicts);
    if (self->cdicts == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void dict_dealloc(xcpy_dict *self)
{
    xc_zstd_ddict_free(self->ddict);
    if (self->cdicts != NULL) {
        for (int i = 0; i < self->n_levels; i++)
            xc_zstd_cdict_free(self->cdicts[i]);
        PyMem_Free(self->cdicts);
    }
    Py_XDECREF(self->content);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

xc_zstd_ddict *xcpy_dict_ddict(xcpy_dict *dict)
{
    if (dict->ddict == NULL) {
        dict->ddict = xc_zstd_ddict_new(PyBytes_AS_STRING(dict->content),
                                        (size_t)PyBytes_GET_SIZE(dict->content));
        if (dict->ddict == NULL)
            xcpy_raise("Unable to load Zstandard dictionary or prefix for decompression",
                       (size_t)-XC_ERROR_DICT_CORRUPT);
    }
    return dict->ddict;
}

xc_zstd_cdict *xcpy_dict_cdict(xcpy_dict *dict, int level)
{
    if (level == 0)
        level = xc_zstd_default_level();
    int i = level - xc_zstd_min_level();
    if (i < 0 || i >= dict->n_levels) {
        xcpy_raise("Unable to load Zstandard dictionary for compression",
                   (size_t)-XC_ERROR_BAD_PARAMETER);
        return NULL;
    }
    if (dict->cdicts[i] == NULL) {
        dict->cdicts[i] = xc_zstd_cdict_new(PyBytes_AS_STRING(dict->content),
                                            (size_t)PyBytes_GET_SIZE(dict->content), level);
        if (dict->cdicts[i] == NULL)
            xcpy_raise("Unable to load Zstandard dictionary for compression",
                       (size_t)-XC_ERROR_DICT_CORRUPT);
    }
    return dict->cdicts[i];
}

int xcpy_dict_arg(PyObject *arg, int default_kind, xcpy_dict **dict, int *kind)
{
    if (PyObject_TypeCheck(arg, &xcpy_dict_type)) {
        *dict = (xcpy_dict *)arg;
        *kind = default_kind;
        return 0;
    }
    if (PyTuple_Check(arg) && PyTuple_GET_SIZE(arg) == 2 &&
        PyObject_TypeCheck(PyTuple_GET_ITEM(arg, 0), &xcpy_dict_type) &&
        PyLong_Check(PyTuple_GET_ITEM(arg, 1))) {
        long k = PyLong_AsLong(PyTuple_GET_ITEM(arg, 1));
        if (k >= XCPY_DICT_DIGESTED && k <= XCPY_DICT_PREFIX) {
            *dict = (xcpy_dict *)PyTuple_GET_ITEM(arg, 0);
            *kind = (int)k;
            return 0;
        }
    }
    PyErr_SetString(PyExc_TypeError,
                    "zstd_dict argument should be a ZstdDict object, or the as_digested_dict, "
                    "as_undigested_dict or as_prefix property of one.");
    return -1;
}

static PyObject *dict_as(xcpy_dict *self, int kind)
{
    return Py_BuildValue("Oi", (PyObject *)self, kind);
}

static PyObject *dict_as_digested(PyObject *self, void *closure)
{
    (void)closure;
    return dict_as((xcpy_dict *)self, XCPY_DICT_DIGESTED);
}

static PyObject *dict_as_undigested(PyObject *self, void *closure)
{
    (void)closure;
    return dict_as((xcpy_dict *)self, XCPY_DICT_UNDIGESTED);
}

static PyObject *dict_as_prefix(PyObject *self, void *closure)
{
    (void)closure;
    return dict_as((xcpy_dict *)self, XCPY_DICT_PREFIX);
}

static PyObject *dict_get_id(PyObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(((xcpy_dict *)self)->dict_id);
}

static PyObject *dict_get_content(PyObject *self, void *closure)
{
    (void)closure;
    return Py_NewRef(((xcpy_dict *)self)->content);
}

static Py_ssize_t dict_len(PyObject *self)
{
    return PyBytes_GET_SIZE(((xcpy_dict *)self)->content);
}

static PyObject *dict_str(PyObject *self)
{
    xcpy_dict *d = (xcpy_dict *)self;
    return PyUnicode_FromFormat("<ZstdDict dict_id=%u dict_size=%zd>", d->dict_id,
                                PyBytes_GET_SIZE(d->content));
}

static PyObject *dict_reduce(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError, "cannot pickle ZstdDict object");
    return NULL;
}

static PyGetSetDef dict_getset[] = {
    {"dict_id", dict_get_id, NULL,
     "The dictionary's ID, 0 for raw content.", NULL},
    {"dict_content", dict_get_content, NULL, "The dictionary's bytes.", NULL},
    {"as_digested_dict", dict_as_digested, NULL,
     "Use as a prepared dictionary: made once per level and shared; frames use its "
     "level's parameters.", NULL},
    {"as_undigested_dict", dict_as_undigested, NULL,
     "Use as a dictionary loaded into each compressor, following its parameters.", NULL},
    {"as_prefix", dict_as_prefix, NULL,
     "Use as raw content before the first frame only (see the package's README).", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

static PyMethodDef dict_methods[] = {
    {"__reduce__", dict_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}
};

static PySequenceMethods dict_as_sequence = {.sq_length = dict_len};

PyTypeObject xcpy_dict_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xcodec.zstd.ZstdDict",
    .tp_basicsize = sizeof(xcpy_dict),
    .tp_dealloc = (destructor)dict_dealloc,
    .tp_str = dict_str,
    .tp_as_sequence = &dict_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ZstdDict(dict_content, /, *, is_raw=False)\n\n"
              "A zstd dictionary, for any number of compressors and decompressors.",
    .tp_methods = dict_methods,
    .tp_getset = dict_getset,
    .tp_new = dict_new,
};
