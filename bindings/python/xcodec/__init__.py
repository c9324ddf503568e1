# SPDX-License-Identifier: BSD-2-Clause
"""xcodec from Python: zstd, CRC32C and the Internet checksum.

A ctypes binding of the xcodec shared library.  The library is looked for,
in order: at the path in the XCODEC_LIBRARY environment variable; next to
this package (in its directory, then in the directory that holds it); then
on the system (ctypes.util.find_library("xcodec"), then "libxcodec.so.0").

    import xcodec
    frame = xcodec.compress(data, level=3)
    assert xcodec.decompress(frame) == data
    xcodec.crc32c(b"123456789") == 0xE3069283

Inputs may be bytes, bytearray, memoryview or any other object with the
buffer protocol holding contiguous bytes; they are read in place, never
copied.  Outputs are bytes.  Failures raise xcodec.Error, whose .name is the
library's name for the error and .code its stable number (the ERROR_*
constants).  The library releases the GIL while it works (ctypes does), so
threads run in parallel; a Compressor or Decompressor serialises calls to
itself with a lock.
"""

import ctypes
import ctypes.util
import os
import threading
import weakref

__all__ = [
    "Error", "compress", "decompress", "Compressor", "Decompressor", "crc32c",
    "inet_checksum", "cpucap", "library_path", "MIN_LEVEL", "MAX_LEVEL",
    "DEFAULT_LEVEL",
]

# ---- the library --------------------------------------------------------------------------


def _load():
    env = os.environ.get("XCODEC_LIBRARY")
    if env:
        try:
            return ctypes.CDLL(env), env
        except OSError as e:
            raise ImportError("xcodec: XCODEC_LIBRARY=%s cannot be loaded: %s" % (env, e))
    here = os.path.dirname(os.path.abspath(__file__))
    names = ("libxcodec.so.0", "libxcodec.so", "libxcodec.dylib", "xcodec.dll")
    for directory in (here, os.path.dirname(here)):
        for name in names:
            path = os.path.join(directory, name)
            if os.path.exists(path):
                return ctypes.CDLL(path), path
    candidates = [ctypes.util.find_library("xcodec"), "libxcodec.so.0"]
    for name in candidates:
        if not name:
            continue
        try:
            return ctypes.CDLL(name), name
        except OSError:
            pass
    raise ImportError("xcodec: the shared library libxcodec was not found; "
                      "set XCODEC_LIBRARY to its path")


_lib, library_path = _load()

_size_t = ctypes.c_size_t
_vp = ctypes.c_void_p


class _InBuffer(ctypes.Structure):
    _fields_ = [("src", _vp), ("size", _size_t), ("pos", _size_t)]


class _OutBuffer(ctypes.Structure):
    _fields_ = [("dst", _vp), ("size", _size_t), ("pos", _size_t)]


def _proto(name, restype, *argtypes):
    fn = getattr(_lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


_version = _proto("xc_version", ctypes.c_uint)
_version_string = _proto("xc_version_string", ctypes.c_char_p)
_is_error = _proto("xc_is_error", ctypes.c_int, _size_t)
_error_code = _proto("xc_error_code", ctypes.c_int, _size_t)
_error_name = _proto("xc_error_name", ctypes.c_char_p, _size_t)
_error_string = _proto("xc_error_string", ctypes.c_char_p, ctypes.c_int)
_describe = _proto("xc_cpucap_describe", ctypes.c_char_p)
_tier = _proto("xc_cpucap_tier", ctypes.c_char_p)
_impl_name = _proto("xc_impl_name", ctypes.c_char_p, ctypes.c_char_p)
_crc32c = _proto("xc_crc32c", ctypes.c_uint32, ctypes.c_uint32, _vp, _size_t)
_inet_checksum = _proto("xc_inet_checksum", ctypes.c_uint16, _vp, _size_t)
_compress_bound = _proto("xc_zstd_compress_bound", _size_t, _size_t)
_min_level = _proto("xc_zstd_min_level", ctypes.c_int)
_max_level = _proto("xc_zstd_max_level", ctypes.c_int)
_default_level = _proto("xc_zstd_default_level", ctypes.c_int)
_cctx_new = _proto("xc_zstd_cctx_new", _vp)
_cctx_free = _proto("xc_zstd_cctx_free", None, _vp)
_cctx_set = _proto("xc_zstd_cctx_set", _size_t, _vp, ctypes.c_int, ctypes.c_int)
_cctx_reset = _proto("xc_zstd_cctx_reset", _size_t, _vp)
_compress_cctx = _proto("xc_zstd_compress_cctx", _size_t, _vp, _vp, _size_t, _vp, _size_t)
_compress_stream = _proto("xc_zstd_compress_stream", _size_t, _vp,
                          ctypes.POINTER(_OutBuffer), ctypes.POINTER(_InBuffer), ctypes.c_int)
_dctx_new = _proto("xc_zstd_dctx_new", _vp)
_dctx_free = _proto("xc_zstd_dctx_free", None, _vp)
_dctx_reset = _proto("xc_zstd_dctx_reset", _size_t, _vp)
_dctx_set = _proto("xc_zstd_dctx_set", _size_t, _vp, ctypes.c_int, ctypes.c_int)
_decompress_dctx = _proto("xc_zstd_decompress_dctx", _size_t, _vp, _vp, _size_t, _vp, _size_t)
_decompress_stream = _proto("xc_zstd_decompress_stream", _size_t, _vp,
                            ctypes.POINTER(_OutBuffer), ctypes.POINTER(_InBuffer))
_ddict_new = _proto("xc_zstd_ddict_new", _vp, _vp, _size_t)
_ddict_free = _proto("xc_zstd_ddict_free", None, _vp)
_dctx_ref_ddict = _proto("xc_zstd_dctx_ref_ddict", _size_t, _vp, _vp)
_frame_content_size = _proto("xc_zstd_frame_content_size", ctypes.c_ulonglong, _vp, _size_t)
_find_frame_size = _proto("xc_zstd_find_frame_compressed_size", _size_t, _vp, _size_t)

if _version() // 10000 != 0:
    raise ImportError("xcodec: %s is version %s; this binding needs 0.x"
                      % (library_path, _version_string().decode()))

__version__ = _version_string().decode()
MIN_LEVEL = _min_level()
MAX_LEVEL = _max_level()
DEFAULT_LEVEL = _default_level()

# The stable error numbers of enum xc_error (include/xcodec.h).
ERROR_GENERIC = 1
ERROR_CORRUPT = 2
ERROR_TRUNCATED = 3
ERROR_DST_TOO_SMALL = 4
ERROR_CHECKSUM = 5
ERROR_WINDOW_TOO_LARGE = 6
ERROR_DICT_MISMATCH = 7
ERROR_DICT_MISSING = 8
ERROR_DICT_CORRUPT = 9
ERROR_UNKNOWN_MAGIC = 10
ERROR_BAD_PARAMETER = 11
ERROR_OUT_OF_MEMORY = 12

_C_LEVEL, _C_CHECKSUM = 100, 201
_D_WINDOW_LOG_MAX = 100
_E_CONTINUE, _E_FLUSH, _E_END = 0, 1, 2
_UNKNOWN, _ERROR = (1 << 64) - 1, (1 << 64) - 2
_CHUNK = 128 * 1024
# No block regenerates more than 128 KiB, and no block takes fewer than 4
# bytes of a frame (3 of header, 1 of content), so no valid frame expands
# more than 32768 times: a larger announced size is a lie.
_MAX_EXPANSION = 32768


class Error(Exception):
    """A failure reported by the library: .name is its name ("corrupt data",
    "checksum mismatch", ...), .code its stable number (xcodec.ERROR_*)."""

    def __init__(self, code, name=None, detail=None):
        self.code = code
        self.name = name if name is not None else _error_string(code).decode()
        self.detail = detail
        super().__init__(self.name + (": " + detail if detail else ""))

    def __reduce__(self):
        return (Error, (self.code, self.name, self.detail))


def _check(result):
    if _is_error(result):
        raise Error(_error_code(result), _error_name(result).decode())
    return result


# ---- borrowing input buffers without copying them -------------------------------------------


class _PyBuffer(ctypes.Structure):
    # Py_buffer, part of the stable ABI since Python 3.11 and unchanged since 3.0.
    _fields_ = [("buf", _vp), ("obj", _vp), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int),
                ("ndim", ctypes.c_int), ("format", ctypes.c_char_p),
                ("shape", _vp), ("strides", _vp), ("suboffsets", _vp),
                ("internal", _vp)]


try:
    _get_buffer = ctypes.pythonapi.PyObject_GetBuffer
    _get_buffer.argtypes = [ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int]
    _get_buffer.restype = ctypes.c_int
    _release_buffer = ctypes.pythonapi.PyBuffer_Release
    _release_buffer.argtypes = [ctypes.POINTER(_PyBuffer)]
    _release_buffer.restype = None
except (AttributeError, OSError):  # not CPython
    _get_buffer = None

# What an empty input points at: the library wants a valid pointer even for
# zero bytes in its stream buffers.
_EMPTY = ctypes.create_string_buffer(1)
_EMPTY_PTR = ctypes.addressof(_EMPTY)


class _Borrow:
    """The address and size of a bytes-like object's memory, held for the
    duration of a with block.  bytes are immutable, so their internal buffer
    is used directly (c_char_p points into the object); anything else is
    exported with PyObject_GetBuffer (PyBUF_SIMPLE: contiguous bytes), which
    also stops a bytearray from being resized while the library reads it."""

    __slots__ = ("ptr", "size", "_obj", "_view", "_pinned")

    def __init__(self, data):
        self._obj = data
        self._view = None
        self._pinned = None
        if isinstance(data, bytes):
            self.size = len(data)
            self.ptr = ctypes.cast(ctypes.c_char_p(data), _vp).value
        elif _get_buffer is not None:
            view = _PyBuffer()
            _get_buffer(data, ctypes.byref(view), 0)
            self._view = view
            self.size = view.len
            self.ptr = view.buf
        else:
            mv = memoryview(data).cast("B")
            self.size = len(mv)
            if mv.readonly:
                # Without the C API a read-only buffer cannot be pinned: copy.
                self._pinned = bytes(mv)
                self.ptr = ctypes.cast(ctypes.c_char_p(self._pinned), _vp).value
            elif self.size:
                # The ctypes array holds an export of the buffer while it lives.
                self._pinned = (ctypes.c_char * self.size).from_buffer(mv)
                self.ptr = ctypes.addressof(self._pinned)
            else:
                self.ptr = None
        if not self.ptr:
            self.ptr = _EMPTY_PTR

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._view is not None:
            _release_buffer(ctypes.byref(self._view))
            self._view = None
        self._pinned = None
        self._obj = None
        return False


# ---- one-shot zstd -------------------------------------------------------------------------


def compress(data, level=DEFAULT_LEVEL, *, checksum=False):
    """Compresses data into one zstd frame at level (MIN_LEVEL..MAX_LEVEL; 0
    or 3 is the default), with the content size in its header and, when
    checksum is true, a content checksum.  Returns bytes."""
    with _Borrow(data) as src:
        bound = _check(_compress_bound(src.size))
        dst = ctypes.create_string_buffer(bound or 1)
        cctx = _cctx_new()
        if not cctx:
            raise MemoryError("xcodec: cannot allocate a compression context")
        try:
            _check(_cctx_set(cctx, _C_LEVEL, level))
            _check(_cctx_set(cctx, _C_CHECKSUM, 1 if checksum else 0))
            n = _check(_compress_cctx(cctx, dst, bound, src.ptr, src.size))
        finally:
            _cctx_free(cctx)
        return ctypes.string_at(dst, n)


def _announced_size(ptr, size):
    """The total content size the frame headers announce, or None when a
    frame does not say, a header is damaged, or the total is impossible (the
    decoder then reports what is wrong)."""
    total, off = 0, 0
    while off < size:
        fcs = _frame_content_size(ptr + off, size - off)
        if fcs in (_UNKNOWN, _ERROR):
            return None
        frame = _find_frame_size(ptr + off, size - off)
        if _is_error(frame):
            return None
        total += fcs
        off += frame
    if total > size * _MAX_EXPANSION:
        return None
    return total


def decompress(data, max_output_size=None, *, dictionary=None):
    """Decompresses every frame in data (zstd frames one after another,
    skippable frames skipped) and returns bytes.  When the frame headers
    announce the content size, the output is allocated once at that size;
    otherwise it is decoded in a stream.  max_output_size, when given, bounds
    the output: more raises Error(ERROR_DST_TOO_SMALL).  dictionary (bytes,
    raw content or a zstd dictionary) decodes frames made with one."""
    if max_output_size is not None and max_output_size < 0:
        raise ValueError("max_output_size must be >= 0")
    with _Borrow(data) as src:
        dctx = _dctx_new()
        if not dctx:
            raise MemoryError("xcodec: cannot allocate a decompression context")
        ddict = None
        try:
            if dictionary is not None:
                ddict = _make_ddict(dictionary)
                _dctx_ref_ddict(dctx, ddict)
            total = _announced_size(src.ptr, src.size) if src.size else 0
            if total is not None:
                if max_output_size is not None and total > max_output_size:
                    raise Error(ERROR_DST_TOO_SMALL, detail="the frames announce %d bytes, "
                                "more than max_output_size=%d" % (total, max_output_size))
                dst = ctypes.create_string_buffer(total or 1)
                n = _check(_decompress_dctx(dctx, dst, total, src.ptr, src.size))
                return ctypes.string_at(dst, n)
            out = bytearray()
            done = _stream(dctx, src.ptr, src.size, out, max_output_size)
            if not done:
                raise Error(ERROR_TRUNCATED, detail="the last frame is incomplete")
            return bytes(out)
        finally:
            _dctx_free(dctx)
            if ddict:
                _ddict_free(ddict)


def _make_ddict(dictionary):
    with _Borrow(dictionary) as d:
        ddict = _ddict_new(d.ptr, d.size)
    if not ddict:
        raise Error(ERROR_DICT_CORRUPT, detail="not a usable dictionary (or out of memory)")
    return ddict


def _stream(dctx, ptr, size, out, limit):
    """Feeds size bytes at ptr to the streaming decoder, appending to out.
    Returns True when the input ends at the end of a frame."""
    chunk = ctypes.create_string_buffer(_CHUNK)
    inb = _InBuffer(ptr, size, 0)
    outb = _OutBuffer(ctypes.addressof(chunk), _CHUNK, 0)
    last = 0
    while True:
        outb.pos = 0
        r = _check(_decompress_stream(dctx, ctypes.byref(outb), ctypes.byref(inb)))
        if outb.pos:
            out += memoryview(chunk)[:outb.pos]
            if limit is not None and len(out) > limit:
                raise Error(ERROR_DST_TOO_SMALL,
                            detail="output larger than max_output_size=%d" % limit)
        last = r
        # Done when all input is in and the decoder did not fill the buffer
        # (a full buffer may mean decoded bytes are still waiting).
        if inb.pos == inb.size and outb.pos < outb.size:
            return last == 0


# ---- streaming zstd -------------------------------------------------------------------------


class Compressor:
    """Streaming compression: compress() takes pieces of input and returns
    what is ready; flush() ends the frame (FLUSH_FRAME, the default) or only
    pushes out what is buffered (FLUSH_BLOCK).  After FLUSH_FRAME, the next
    compress() starts a new frame.  Memory stays bounded by the window."""

    FLUSH_BLOCK = _E_FLUSH
    FLUSH_FRAME = _E_END

    def __init__(self, level=DEFAULT_LEVEL, *, checksum=False):
        self._cctx = _cctx_new()
        if not self._cctx:
            raise MemoryError("xcodec: cannot allocate a compression context")
        self._finalizer = weakref.finalize(self, _cctx_free, self._cctx)
        _check(_cctx_set(self._cctx, _C_LEVEL, level))
        _check(_cctx_set(self._cctx, _C_CHECKSUM, 1 if checksum else 0))
        self._chunk = ctypes.create_string_buffer(_CHUNK)
        self._lock = threading.Lock()

    def _run(self, ptr, size, op):
        inb = _InBuffer(ptr, size, 0)
        outb = _OutBuffer(ctypes.addressof(self._chunk), _CHUNK, 0)
        out = bytearray()
        while True:
            outb.pos = 0
            r = _compress_stream(self._cctx, ctypes.byref(outb), ctypes.byref(inb), op)
            if _is_error(r):
                _cctx_reset(self._cctx)
                _check(r)
            out += memoryview(self._chunk)[:outb.pos]
            if (r == 0) if op != _E_CONTINUE else (inb.pos == inb.size):
                return bytes(out)

    def compress(self, data):
        with self._lock, _Borrow(data) as src:
            return self._run(src.ptr, src.size, _E_CONTINUE)

    def flush(self, mode=FLUSH_FRAME):
        if mode not in (_E_FLUSH, _E_END):
            raise ValueError("mode must be Compressor.FLUSH_BLOCK or Compressor.FLUSH_FRAME")
        with self._lock:
            return self._run(_EMPTY_PTR, 0, mode)


class Decompressor:
    """Streaming decompression of a sequence of frames: decompress() takes
    pieces of input of any size and returns the bytes they complete.  .eof
    is true when the input so far ends exactly at the end of a frame (and
    before any input).
    max_window_log (10..31, default 27) bounds the window a frame may ask
    for, hence the memory used."""

    def __init__(self, *, dictionary=None, max_window_log=None):
        self._dctx = _dctx_new()
        if not self._dctx:
            raise MemoryError("xcodec: cannot allocate a decompression context")
        self._finalizer = weakref.finalize(self, _dctx_free, self._dctx)
        self._ddict = None
        if dictionary is not None:
            self._ddict = _make_ddict(dictionary)
            self._ddict_finalizer = weakref.finalize(self, _ddict_free, self._ddict)
            _dctx_ref_ddict(self._dctx, self._ddict)
        if max_window_log is not None:
            _check(_dctx_set(self._dctx, _D_WINDOW_LOG_MAX, max_window_log))
        self._lock = threading.Lock()
        self.eof = True

    def decompress(self, data):
        with self._lock, _Borrow(data) as src:
            if src.size == 0:
                return b""
            out = bytearray()
            try:
                self.eof = _stream(self._dctx, src.ptr, src.size, out, None)
            except Error:
                # The library asks for a reset after an error; the
                # dictionary reference goes with it and is restored.
                _dctx_reset(self._dctx)
                if self._ddict:
                    _dctx_ref_ddict(self._dctx, self._ddict)
                self.eof = True
                raise
            return bytes(out)


# ---- checksums and the CPU ------------------------------------------------------------------


def crc32c(data, crc=0):
    """The CRC32C (Castagnoli, as in iSCSI and ext4) of data, extending crc:
    crc32c(b) == crc32c(b[k:], crc32c(b[:k]))."""
    if not 0 <= crc <= 0xFFFFFFFF:
        raise ValueError("crc must be a 32-bit unsigned value")
    with _Borrow(data) as src:
        return _crc32c(crc, src.ptr, src.size)


def inet_checksum(data):
    """The Internet checksum (RFC 1071) of data: the value of a checksum
    field, 0 when data already includes a correct one."""
    with _Borrow(data) as src:
        return _inet_checksum(src.ptr, src.size)


def cpucap():
    """What the library detected and uses: a dict with "description" (the
    full string), "arch", "features" (a list), "tier", "cap", and "kernels"
    (kernel name -> variant in use)."""
    text = _describe().decode()
    info = {"description": text}
    for item in text.split():
        key, sep, value = item.partition("=")
        if sep:
            info[key] = value
    features = info.get("features", "")
    info["features"] = [f for f in features.split(",") if f and f != "none"]
    info["tier"] = _tier().decode()
    kernels = {}
    for name in ("crc32c", "inet", "zstd_decode", "zstd_encode"):
        impl = _impl_name(name.encode())
        if impl is not None:
            kernels[name] = impl.decode()
    info["kernels"] = kernels
    return info
