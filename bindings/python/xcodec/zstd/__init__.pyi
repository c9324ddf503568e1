# SPDX-License-Identifier: BSD-2-Clause
import enum
import io
from collections.abc import Buffer, Iterable  # Buffer: Python 3.12+, typing_extensions before
from os import PathLike
from typing import Final, Literal, TypeAlias, overload

__all__ = (
    "COMPRESSION_LEVEL_DEFAULT", "compress", "CompressionParameter", "decompress",
    "DecompressionParameter", "finalize_dict", "get_frame_info", "Strategy", "train_dict",
    "FrameInfo", "open", "ZstdFile", "get_frame_size", "zstd_version", "zstd_version_info",
    "ZstdCompressor", "ZstdDecompressor", "ZstdDict", "ZstdError",
)

zstd_version: Final[str]
zstd_version_info: Final[tuple[int, int, int]]
COMPRESSION_LEVEL_DEFAULT: Final[int]

class ZstdError(Exception):
    code: int
    name: str

class CompressionParameter(enum.IntEnum):
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
    def bounds(self) -> tuple[int, int]: ...

class DecompressionParameter(enum.IntEnum):
    window_log_max = 100
    def bounds(self) -> tuple[int, int]: ...

class Strategy(enum.IntEnum):
    fast = 1
    dfast = 2
    greedy = 3
    lazy = 4
    lazy2 = 5
    btlazy2 = 6
    btopt = 7
    btultra = 8
    btultra2 = 9

class ZstdDict:
    def __init__(self, dict_content: Buffer, /, *, is_raw: bool = False) -> None: ...
    def __len__(self) -> int: ...
    @property
    def dict_content(self) -> bytes: ...
    @property
    def dict_id(self) -> int: ...
    @property
    def as_digested_dict(self) -> tuple[ZstdDict, int]: ...
    @property
    def as_undigested_dict(self) -> tuple[ZstdDict, int]: ...
    @property
    def as_prefix(self) -> tuple[ZstdDict, int]: ...

_ZstdDictArg: TypeAlias = ZstdDict | tuple[ZstdDict, int]
_COptions: TypeAlias = dict[CompressionParameter | int, int]
_DOptions: TypeAlias = dict[DecompressionParameter | int, int]

class ZstdCompressor:
    CONTINUE: Final = 0
    FLUSH_BLOCK: Final = 1
    FLUSH_FRAME: Final = 2
    def __init__(self, level: int | None = None, options: _COptions | None = None,
                 zstd_dict: _ZstdDictArg | None = None, *, threads: int = 0) -> None: ...
    def compress(self, data: Buffer, mode: Literal[0, 1, 2] = 0) -> bytes: ...
    def flush(self, mode: Literal[1, 2] = 2) -> bytes: ...
    def set_pledged_input_size(self, size: int | None, /) -> None: ...
    @property
    def last_mode(self) -> Literal[0, 1, 2]: ...

class ZstdDecompressor:
    def __init__(self, zstd_dict: _ZstdDictArg | None = None,
                 options: _DOptions | None = None) -> None: ...
    def decompress(self, data: Buffer, max_length: int = -1) -> bytes: ...
    @property
    def eof(self) -> bool: ...
    @property
    def needs_input(self) -> bool: ...
    @property
    def unused_data(self) -> bytes: ...

class FrameInfo:
    @property
    def decompressed_size(self) -> int | None: ...
    @property
    def dictionary_id(self) -> int: ...
    def __init__(self, decompressed_size: int | None, dictionary_id: int) -> None: ...

def compress(data: Buffer, level: int | None = None, options: _COptions | None = None,
             zstd_dict: _ZstdDictArg | None = None) -> bytes: ...
def decompress(data: Buffer, zstd_dict: _ZstdDictArg | None = None,
               options: _DOptions | None = None) -> bytes: ...
def get_frame_info(frame_buffer: Buffer) -> FrameInfo: ...
def get_frame_size(frame_buffer: Buffer) -> int: ...
def train_dict(samples: Iterable[Buffer], dict_size: int) -> ZstdDict: ...
def finalize_dict(zstd_dict: ZstdDict, /, samples: Iterable[Buffer], dict_size: int,
                  level: int) -> ZstdDict: ...

_StrOrBytesPath: TypeAlias = str | bytes | PathLike[str] | PathLike[bytes]
_BinaryMode: TypeAlias = Literal["r", "rb", "w", "wb", "x", "xb", "a", "ab"]
_TextMode: TypeAlias = Literal["rt", "wt", "xt", "at"]

class ZstdFile(io.BufferedIOBase):
    FLUSH_BLOCK: Final = 1
    FLUSH_FRAME: Final = 2
    def __init__(self, file: _StrOrBytesPath | io.IOBase, /, mode: _BinaryMode = "r", *,
                 level: int | None = None, options: _COptions | _DOptions | None = None,
                 zstd_dict: _ZstdDictArg | None = None) -> None: ...
    def write(self, data: Buffer, /) -> int: ...
    def flush(self, mode: Literal[1, 2] = 1) -> None: ...  # type: ignore[override]
    def read(self, size: int | None = -1) -> bytes: ...
    def read1(self, size: int = -1) -> bytes: ...
    def readinto(self, b: Buffer) -> int: ...
    def readinto1(self, b: Buffer) -> int: ...
    def readline(self, size: int | None = -1) -> bytes: ...
    def seek(self, offset: int, whence: int = 0) -> int: ...
    def peek(self, size: int = -1) -> bytes: ...
    def tell(self) -> int: ...
    @property
    def name(self) -> str | bytes: ...
    @property
    def mode(self) -> Literal["rb", "wb"]: ...

@overload
def open(file: _StrOrBytesPath | io.IOBase, /, mode: _BinaryMode = "rb", *,
         level: int | None = None, options: _COptions | _DOptions | None = None,
         zstd_dict: _ZstdDictArg | None = None, encoding: None = None, errors: None = None,
         newline: None = None) -> ZstdFile: ...
@overload
def open(file: _StrOrBytesPath | io.IOBase, /, mode: _TextMode, *, level: int | None = None,
         options: _COptions | _DOptions | None = None, zstd_dict: _ZstdDictArg | None = None,
         encoding: str | None = None, errors: str | None = None,
         newline: str | None = None) -> io.TextIOWrapper: ...
