# SPDX-License-Identifier: BSD-2-Clause
"""zstd frames with the interface of Python 3.14's compression.zstd.

Code written for compression.zstd runs with `import xcodec.zstd as zstd`.
The frames are RFC 8878 zstd frames, interchangeable with libzstd's.  Where
this module differs from compression.zstd, the package's README says so.
"""

import enum

from xcodec import _xcodec
from xcodec._xcodec import (ZstdCompressor, ZstdDecompressor, ZstdDict, ZstdError,
                            get_frame_size)
from xcodec.zstd._zstdfile import ZstdFile, open, _nbytes
from xcodec.zstd._seekable import SeekableZstdFile

__all__ = (
    "COMPRESSION_LEVEL_DEFAULT", "compress", "CompressionParameter", "decompress",
    "DecompressionParameter", "finalize_dict", "get_frame_info", "Strategy", "train_dict",
    "FrameInfo", "open", "ZstdFile", "get_frame_size", "zstd_version", "zstd_version_info",
    "ZstdCompressor", "ZstdDecompressor", "ZstdDict", "ZstdError",
    "SeekableZstdFile",
)

# The version of the xcodec library (not of libzstd, which is not used).
zstd_version = _xcodec.version
zstd_version_info = tuple(int(p) for p in _xcodec.version.split("."))

COMPRESSION_LEVEL_DEFAULT = _xcodec.ZSTD_CLEVEL_DEFAULT
"""The default compression level, 3."""


class FrameInfo:
    """What a frame header says: decompressed_size (None when it does not
    say) and dictionary_id (0 when it names none)."""

    __slots__ = ("decompressed_size", "dictionary_id")

    def __init__(self, decompressed_size, dictionary_id):
        super().__setattr__("decompressed_size", decompressed_size)
        super().__setattr__("dictionary_id", dictionary_id)

    def __repr__(self):
        return (f"FrameInfo(decompressed_size={self.decompressed_size}, "
                f"dictionary_id={self.dictionary_id})")

    def __setattr__(self, name, _):
        raise AttributeError(f"can't set attribute {name!r}")


def get_frame_info(frame_buffer):
    """The FrameInfo of the frame at the start of frame_buffer, which must
    hold at least its header (6 to 18 bytes)."""
    return FrameInfo(*_xcodec.get_frame_info(frame_buffer))


def train_dict(samples, dict_size):
    """A ZstdDict trained on samples (an iterable of bytes-like objects), of
    at most dict_size bytes."""
    if not isinstance(dict_size, int):
        raise TypeError(f"dict_size must be an int object, not {type(dict_size).__qualname__!r}.")
    samples = tuple(samples)
    chunks = b"".join(samples)
    if not chunks:
        raise ValueError("samples contained no data; can't train dictionary.")
    sizes = tuple(_nbytes(s) for s in samples)
    return ZstdDict(_xcodec.train_dict(chunks, sizes, dict_size))


def finalize_dict(zstd_dict, /, samples, dict_size, level):
    """A ZstdDict in zstd's format, of at most dict_size bytes, made of
    zstd_dict's content (its most useful bytes last) and entropy tables
    fitted to the samples, with a new ID.  The library fits the tables to
    what level 3 makes of the samples; level is checked, not used."""
    if not isinstance(zstd_dict, ZstdDict):
        raise TypeError("zstd_dict argument should be a ZstdDict object.")
    if not isinstance(dict_size, int):
        raise TypeError("dict_size argument should be an int object.")
    if not isinstance(level, int):
        raise TypeError("level argument should be an int object.")
    samples = tuple(samples)
    chunks = b"".join(samples)
    if not chunks:
        raise ValueError("The samples are empty content, can't finalize the "
                         "dictionary.")
    sizes = tuple(_nbytes(s) for s in samples)
    return ZstdDict(_xcodec.finalize_dict(zstd_dict.dict_content, chunks, sizes, dict_size))


def _compress(data, level=None, options=None, zstd_dict=None):
    comp = ZstdCompressor(level=level, options=options, zstd_dict=zstd_dict)
    return comp.compress(data, mode=ZstdCompressor.FLUSH_FRAME)


def _decompress(data, zstd_dict=None, options=None):
    results = []
    while True:
        decomp = ZstdDecompressor(zstd_dict=zstd_dict, options=options)
        results.append(decomp.decompress(data))
        if not decomp.eof:
            raise ZstdError("Compressed data ended before the end-of-stream marker was reached")
        data = decomp.unused_data
        if not data:
            break
    return b"".join(results)


# compress(data, level=None, options=None, zstd_dict=None): data compressed
# into one zstd frame (with its content size), at level (default
# COMPRESSION_LEVEL_DEFAULT) or with options (a dict of CompressionParameter),
# with an optional ZstdDict.
#
# decompress(data, zstd_dict=None, options=None): every frame of data
# decompressed (skippable frames give nothing).  Raises ZstdError when data
# is empty, ends inside a frame, or holds anything other than frames.
#
# Both are C functions (xcodec/_xcodec.c): without options or a dictionary
# they run there, with pooled contexts and, for decompress, one exact
# allocation for all the frames when every header announces its size; other
# calls come back to _compress and _decompress above.
_compress.__qualname__ = _compress.__name__ = "compress"
_decompress.__qualname__ = _decompress.__name__ = "decompress"
compress = _xcodec.compress
decompress = _xcodec.decompress
_xcodec.set_slow_paths(_compress, _decompress)


class CompressionParameter(enum.IntEnum):
    """Compression parameters, the keys of an options dict (numbered as
    libzstd's ZSTD_c_* and the library's XC_ZSTD_C_*)."""

    compression_level = 100
    window_log = 101
    hash_log = 102
    chain_log = 103
    search_log = 104
    min_match = 105
    target_length = 106
    strategy = 107

    enable_long_distance_matching = 160
    ldm_hash_log = 161
    ldm_min_match = 162
    ldm_bucket_size_log = 163
    ldm_hash_rate_log = 164

    content_size_flag = 200
    checksum_flag = 201
    dict_id_flag = 202

    nb_workers = 400
    job_size = 401
    overlap_log = 402

    def bounds(self):
        """The (lower, upper) bounds of the parameter, both inclusive."""
        return _xcodec.get_param_bounds(self.value, is_compress=True)


class DecompressionParameter(enum.IntEnum):
    """Decompression parameters, the keys of a decompression options dict."""

    window_log_max = 100

    def bounds(self):
        """The (lower, upper) bounds of the parameter, both inclusive."""
        return _xcodec.get_param_bounds(self.value, is_compress=False)


class Strategy(enum.IntEnum):
    """Compression strategies, from fastest to strongest."""

    fast = 1
    dfast = 2
    greedy = 3
    lazy = 4
    lazy2 = 5
    btlazy2 = 6
    btopt = 7
    btultra = 8
    btultra2 = 9


_xcodec.set_parameter_types(CompressionParameter, DecompressionParameter)
