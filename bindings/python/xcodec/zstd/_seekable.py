# SPDX-License-Identifier: BSD-2-Clause
"""SeekableZstdFile: zstd's seekable format as a Python file object.

A seekable file is independent frames followed by a seek table, so any byte
range of the content is decoded from the frames that hold it alone (the
library's xc_zstd_seekable_* reader, through _xcodec.SeekableReader).  Any
zstd decoder reads such a file whole; `xcodec --seekable` writes one, as
does mode "w" here (_xcodec.SeekableWriter, frames compressed in parallel
with threads=).

A path is read with pread() on a descriptor of our own; a binary file
object through its seek() and read(), from the calling thread (its
position is ours to move while the SeekableZstdFile uses it).
"""

import io
import os
from os import PathLike

from xcodec._xcodec import SeekableReader, SeekableWriter

__all__ = ("SeekableZstdFile",)


class SeekableZstdFile(io.BufferedIOBase):
    """SeekableZstdFile(file, mode="r", *, level=None, frame_size=0,
    checksums=True, threads=0)

    file is a path (str, bytes or os.PathLike) or a binary file object.
    Mode "r" reads: read(), readinto(), seek() (io.SEEK_SET, SEEK_CUR,
    SEEK_END) and tell() address the decompressed content, and a read
    decodes only the frames it needs (the last one is kept, so forward
    reads in small steps decode each frame once).  Mode "w" (or "x", "a")
    writes the format: frames of frame_size bytes of content (0: 1 MiB)
    at level, then the seek table at close(); checksums puts each frame's
    checksum in the frame and in the table (as `xcodec --seekable`); threads >= 1 compresses frames in parallel (the
    same bytes for any count).  Errors of the format are ZstdError with
    .name set ("seek table missing", "seek table corrupt", "checksum
    mismatch", ...).
    """

    def __init__(self, file, mode="r", *, level=None, frame_size=0, checksums=True,
                 threads=0):
        self._fp = None
        self._own_fd = -1
        self._reader = None
        self._writer = None
        self._pos = 0
        if mode not in ("r", "rb", "w", "wb", "x", "xb", "a", "ab"):
            raise ValueError(f"invalid mode: {mode!r}")
        reading = mode[0] == "r"
        if not reading and not isinstance(file, (str, bytes, PathLike)) \
                and not hasattr(file, "write"):
            raise TypeError("file must be a file name or an object with a write() method")
        if reading:
            if level is not None or frame_size or threads:
                raise ValueError("level, frame_size and threads are for writing")
            if isinstance(file, (str, bytes, PathLike)):
                self._own_fd = os.open(file, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
                try:
                    self._reader = SeekableReader(self._own_fd)
                except BaseException:
                    os.close(self._own_fd)
                    self._own_fd = -1
                    raise
            elif hasattr(file, "read") and hasattr(file, "seek"):
                size = file.seek(0, io.SEEK_END)
                self._fp = file
                self._reader = SeekableReader(self._read_at, size)
            else:
                raise TypeError("file must be a file name or a binary file object "
                                "with read() and seek()")
        else:
            self._writer = SeekableWriter(level=0 if level is None else level,
                                          frame_size=frame_size, checksums=checksums,
                                          nb_workers=threads)
            if isinstance(file, (str, bytes, PathLike)):
                self._fp = io.open(file, mode[0] + "b")
                self._own_file = True
            else:
                self._fp = file
                self._own_file = False

    def _read_at(self, offset, length):
        self._fp.seek(offset)
        return self._fp.read(length)

    # ---- the file object --------------------------------------------------------------

    def _check_open(self):
        if self._reader is None and self._writer is None:
            raise ValueError("I/O operation on closed file.")

    def _check_reading(self):
        self._check_open()
        if self._reader is None:
            raise io.UnsupportedOperation("File not open for reading")

    def readable(self):
        self._check_open()
        return self._reader is not None

    def seekable(self):
        self._check_open()
        return self._reader is not None

    def writable(self):
        self._check_open()
        return self._writer is not None

    @property
    def closed(self):
        return self._reader is None and self._writer is None

    def close(self):
        if self.closed:
            return
        try:
            if self._writer is not None:
                tail = self._writer.finish()
                self._writer = None
                self._fp.write(tail)
                if self._own_file:
                    self._fp.close()
            else:
                self._reader.close()
                self._reader = None
                if self._own_fd >= 0:
                    os.close(self._own_fd)
                    self._own_fd = -1
        finally:
            self._reader = None
            self._writer = None
            self._fp = None
            super().close()

    # ---- reading ---------------------------------------------------------------------

    @property
    def frames(self):
        """The number of frames."""
        self._check_reading()
        return self._reader.frames

    @property
    def content_size(self):
        """The decompressed size of the whole file."""
        self._check_reading()
        return self._reader.content_size

    def frame_info(self, i):
        """(compressed offset, compressed size, content offset, content size)
        of frame i."""
        self._check_reading()
        return self._reader.frame(i)

    def read(self, size=-1):
        self._check_reading()
        if size is None or size < 0:
            size = max(0, self._reader.content_size - self._pos)
        data = self._reader.read(self._pos, size)
        self._pos += len(data)
        return data

    read1 = read

    def readinto(self, b):
        self._check_reading()
        n = self._reader.readinto(b, self._pos)
        self._pos += n
        return n

    readinto1 = readinto

    def readall(self):
        """The content from the position to the end."""
        return self.read()

    def decompress_all(self, threads=0):
        """The whole content, the frames decoded on `threads` threads (one
        thread over a file object); the position does not move."""
        self._check_reading()
        return self._reader.decompress_all(threads)

    def seek(self, offset, whence=io.SEEK_SET):
        self._check_reading()
        if whence == io.SEEK_SET:
            pos = offset
        elif whence == io.SEEK_CUR:
            pos = self._pos + offset
        elif whence == io.SEEK_END:
            pos = self._reader.content_size + offset
        else:
            raise ValueError(f"invalid whence ({whence!r}, should be 0, 1 or 2)")
        if pos < 0:
            raise ValueError(f"negative seek position {pos}")
        self._pos = pos
        return pos

    def tell(self):
        self._check_open()
        return self._pos

    # ---- writing ---------------------------------------------------------------------

    def write(self, data):
        self._check_open()
        if self._writer is None:
            raise io.UnsupportedOperation("File not open for writing")
        with memoryview(data) as mv:
            n = mv.nbytes
            out = self._writer.write(mv.cast("B") if mv.ndim != 1 or mv.format != "B" else mv)
        if out:
            self._fp.write(out)
        self._pos += n
        return n

    def flush(self):
        # Nothing is held back between writes but the frames being gathered,
        # which only whole frames (or close()) let out.  io's close() calls
        # this once the file is closed.
        if self._writer is not None and hasattr(self._fp, "flush"):
            self._fp.flush()
