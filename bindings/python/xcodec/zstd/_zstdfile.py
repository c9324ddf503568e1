# SPDX-License-Identifier: BSD-2-Clause
"""ZstdFile and open(): zstd-compressed files, as compression.zstd's.

Reading goes through _Reader, a raw stream that decompresses frame after
frame (skippable frames give nothing), under an io.BufferedReader;
writing hands each write() to a ZstdCompressor.  Python 3.14 builds the same
classes on compression._common._streams, which older Pythons do not have,
so the reader is written here.
"""

import io
from os import PathLike

from xcodec._xcodec import ZstdCompressor, ZstdDecompressor, ZSTD_DStreamOutSize

__all__ = ("ZstdFile", "open")

_MODE_CLOSED = 0
_MODE_READ = 1
_MODE_WRITE = 2

# The compressed bytes read from the file at a time: a whole block at most
# (128 KiB plus its header), so one read usually gives the decoder a block.
_READ_SIZE = 128 * 1024 + 3

# ZstdFile.read() of at least this many bytes, with nothing buffered,
# decompresses straight into the bytes it returns instead of through the
# io.BufferedReader, which would decode into its buffer and copy: at 128 KiB
# reads the copy was about 4% of the time.
_DIRECT_MIN = 32 * 1024


def _nbytes(data, /):
    if isinstance(data, (bytes, bytearray)):
        return len(data)
    with memoryview(data) as mv:
        return mv.nbytes


class _Reader(io.RawIOBase):
    """A raw, read-only stream of the content of the frames in fp."""

    def __init__(self, fp, zstd_dict, options):
        self._fp = fp
        self._args = {"zstd_dict": zstd_dict, "options": options}
        self._decomp = ZstdDecompressor(**self._args)
        self._eof = False
        self._pos = 0
        self._size = -1

    def readable(self):
        return True

    def seekable(self):
        return self._fp.seekable()

    def close(self):
        self._decomp = None
        return super().close()

    def _pull(self, decompress):
        """decompress(raw) on the next input until it gives something (a
        call may give nothing: a skippable frame, a block header) or the
        file ends; returns its result, falsy at the end."""
        got = None
        while not got:
            if self._decomp.eof:
                raw = self._decomp.unused_data or self._fp.read(_READ_SIZE)
                if not raw:
                    break
                self._decomp = ZstdDecompressor(**self._args)
            elif self._decomp.needs_input:
                raw = self._fp.read(_READ_SIZE)
                if not raw:
                    raise EOFError("Compressed file ended before the end-of-stream marker "
                                   "was reached")
            else:
                raw = b""
            got = decompress(raw)
        return got

    def readinto(self, b):
        """Decompresses straight into b (what io.BufferedReader calls)."""
        with memoryview(b) as view, view.cast("B") as out:
            if not len(out) or self._eof:
                return 0
            n = self._pull(lambda raw: self._decomp._decompress_into(raw, out))
        if not n:
            self._eof = True
            self._size = self._pos
            return 0
        self._pos += n
        return n

    def read(self, size=-1):
        if size < 0:
            return self.readall()
        if not size or self._eof:
            return b""
        data = self._pull(lambda raw: self._decomp.decompress(raw, size))
        if not data:
            self._eof = True
            self._size = self._pos
            return b""
        self._pos += len(data)
        return data

    def readall(self):
        chunks = []
        while data := self.read(1 << 20):
            chunks.append(data)
        return b"".join(chunks)

    def _rewind(self):
        self._fp.seek(0)
        self._eof = False
        self._pos = 0
        self._decomp = ZstdDecompressor(**self._args)

    def seek(self, offset, whence=io.SEEK_SET):
        if whence == io.SEEK_SET:
            pass
        elif whence == io.SEEK_CUR:
            offset = self._pos + offset
        elif whence == io.SEEK_END:
            if self._size < 0:
                while self.read(io.DEFAULT_BUFFER_SIZE * 16):
                    pass
            offset = self._size + offset
        else:
            raise ValueError(f"Invalid value for whence: {whence}")
        if offset < self._pos:
            self._rewind()
        else:
            offset -= self._pos
        while offset > 0:
            data = self.read(min(1 << 20, offset))
            if not data:
                break
            offset -= len(data)
        return self._pos

    def tell(self):
        return self._pos


class ZstdFile(io.BufferedIOBase):
    """A binary file of zstd frames: reading decompresses them one after
    another, writing compresses into one frame (or more, with flush)."""

    FLUSH_BLOCK = ZstdCompressor.FLUSH_BLOCK
    FLUSH_FRAME = ZstdCompressor.FLUSH_FRAME

    def __init__(self, file, /, mode="r", *, level=None, options=None, zstd_dict=None):
        self._fp = None
        self._close_fp = False
        self._mode = _MODE_CLOSED
        self._buffer = None
        self._raw = None
        if not isinstance(mode, str):
            raise ValueError("mode must be a str")
        if options is not None and not isinstance(options, dict):
            raise TypeError("options must be a dict or None")
        mode = mode.removesuffix("b")
        if mode == "r":
            if level is not None:
                raise TypeError("level is illegal in read mode")
            self._mode = _MODE_READ
        elif mode in ("w", "a", "x"):
            if level is not None and not isinstance(level, int):
                raise TypeError("level must be int or None")
            self._mode = _MODE_WRITE
            self._compressor = ZstdCompressor(level=level, options=options, zstd_dict=zstd_dict)
            self._pos = 0
        else:
            raise ValueError(f"Invalid mode: {mode!r}")

        if isinstance(file, (str, bytes, PathLike)):
            self._fp = io.open(file, mode + "b")
            self._close_fp = True
        elif (mode == "r" and hasattr(file, "read")) or (mode != "r" and hasattr(file, "write")):
            self._fp = file
        else:
            raise TypeError("file must be a file-like object or a str, bytes, or PathLike object")
        if self._mode == _MODE_READ:
            self._raw = _Reader(self._fp, zstd_dict, options)
            self._buffer = io.BufferedReader(self._raw, buffer_size=_READ_SIZE)

    # ---- state checks, as io's own classes word them ------------------------------------

    def _check_not_closed(self):
        if self.closed:
            raise ValueError("I/O operation on closed file")

    def _check_can_read(self):
        if not self.readable():
            raise io.UnsupportedOperation("File not open for reading")

    def _check_can_write(self):
        if not self.writable():
            raise io.UnsupportedOperation("File not open for writing")

    # ---- closing and writing ----------------------------------------------------------

    def close(self):
        """Ends the frame being written, then closes the file (if it was
        opened by name).  Further calls do nothing."""
        if self._fp is None:
            return
        try:
            if self._mode == _MODE_READ:
                if self._buffer is not None:
                    self._buffer.close()
                    self._buffer = None
                    self._raw = None
            elif self._mode == _MODE_WRITE:
                self.flush(self.FLUSH_FRAME)
                self._compressor = None
        finally:
            self._mode = _MODE_CLOSED
            try:
                if self._close_fp:
                    self._fp.close()
            finally:
                self._fp = None
                self._close_fp = False

    def write(self, data, /):
        """Compresses data (any bytes-like object) into the file; returns its
        length in bytes."""
        self._check_can_write()
        length = _nbytes(data)
        compressed = self._compressor.compress(data)
        if compressed:
            self._fp.write(compressed)
        self._pos += length
        return length

    def flush(self, mode=FLUSH_BLOCK):
        """Writes out what is buffered: FLUSH_BLOCK ends a block, FLUSH_FRAME
        the frame.  Does nothing in read mode."""
        if self._mode == _MODE_READ:
            return
        self._check_not_closed()
        if mode not in (self.FLUSH_BLOCK, self.FLUSH_FRAME):
            raise ValueError("Invalid mode argument, expected either ZstdFile.FLUSH_FRAME or "
                             "ZstdFile.FLUSH_BLOCK")
        if self._compressor.last_mode == mode:
            return
        self._fp.write(self._compressor.flush(mode))
        if hasattr(self._fp, "flush"):
            self._fp.flush()

    # ---- reading ------------------------------------------------------------------------

    def read(self, size=-1):
        """Up to size bytes of content (all that is left when size is
        negative or None); b'' at the end."""
        if size is None:
            size = -1
        self._check_can_read()
        if size >= _DIRECT_MIN and self._buffer.tell() == self._raw._pos:
            # Nothing is buffered (the buffer's position is the raw
            # stream's), so the raw stream's next bytes are the file's.
            chunks = []
            while size:
                data = self._raw.read(size)
                if not data:
                    break
                chunks.append(data)
                size -= len(data)
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        return self._buffer.read(size)

    def read1(self, size=-1):
        """Up to size bytes with at most one read of the file (a block's
        worth when size is negative)."""
        self._check_can_read()
        if size < 0:
            size = ZSTD_DStreamOutSize
        return self._buffer.read1(size)

    def readinto(self, b):
        self._check_can_read()
        return self._buffer.readinto(b)

    def readinto1(self, b):
        self._check_can_read()
        return self._buffer.readinto1(b)

    def readline(self, size=-1):
        self._check_can_read()
        return self._buffer.readline(size)

    def seek(self, offset, whence=io.SEEK_SET):
        """Moves to a position of the content.  Emulated: it decompresses
        from the start (backwards) or up to the position (forwards)."""
        self._check_can_read()
        return self._buffer.seek(offset, whence)

    def peek(self, size=-1):
        """Buffered content without moving: at least one byte unless at the
        end."""
        self._check_can_read()
        return self._buffer.peek(size)

    def __next__(self):
        if line := self._buffer.readline():
            return line
        raise StopIteration

    def tell(self):
        self._check_not_closed()
        if self._mode == _MODE_READ:
            return self._buffer.tell()
        return self._pos

    def fileno(self):
        self._check_not_closed()
        return self._fp.fileno()

    @property
    def name(self):
        self._check_not_closed()
        return self._fp.name

    @property
    def mode(self):
        return "wb" if self._mode == _MODE_WRITE else "rb"

    @property
    def closed(self):
        return self._mode == _MODE_CLOSED

    def seekable(self):
        return self.readable() and self._buffer.seekable()

    def readable(self):
        self._check_not_closed()
        return self._mode == _MODE_READ

    def writable(self):
        self._check_not_closed()
        return self._mode == _MODE_WRITE


def open(file, /, mode="rb", *, level=None, options=None, zstd_dict=None, encoding=None,
         errors=None, newline=None):
    """Opens a zstd file in binary mode ('r', 'rb', 'w', 'wb', 'x', 'xb', 'a',
    'ab': a ZstdFile) or text mode ('rt', 'wt', 'xt', 'at': a ZstdFile in an
    io.TextIOWrapper with encoding, errors and newline)."""
    text_mode = "t" in mode
    mode = mode.replace("t", "")
    if text_mode:
        if "b" in mode:
            raise ValueError(f"Invalid mode: {mode!r}")
    else:
        if encoding is not None:
            raise ValueError('Argument "encoding" not supported in binary mode')
        if errors is not None:
            raise ValueError('Argument "errors" not supported in binary mode')
        if newline is not None:
            raise ValueError('Argument "newline" not supported in binary mode')
    binary = ZstdFile(file, mode, level=level, options=options, zstd_dict=zstd_dict)
    if text_mode:
        return io.TextIOWrapper(binary, encoding, errors, newline)
    return binary
