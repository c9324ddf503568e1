# SPDX-License-Identifier: BSD-2-Clause
"""ZstdFile and open(), as compression.zstd's: modes, several frames,
skippable frames, truncated files, seeking, text mode."""

import io
import os
import struct
import tempfile
import unittest

import xcodec.zstd as zstd
from xcodec.zstd import ZstdFile, ZstdError

DATA = b"".join(b"line %d of the file, with some words in it\n" % i for i in range(20_000))


class _Unseekable(io.RawIOBase):
    """A pipe-like source: reads, no seeking."""

    def __init__(self, data):
        self._data = memoryview(data)
        self._at = 0

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), len(self._data) - self._at, 1000)
        b[:n] = self._data[self._at:self._at + n]
        self._at += n
        return n


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "f.zst")

    def tearDown(self):
        self.dir.cleanup()

    def test_write_then_read(self):
        with ZstdFile(self.path, "w", level=5) as f:
            self.assertEqual(f.write(DATA[:1000]), 1000)
            self.assertEqual(f.write(memoryview(DATA)[1000:]), len(DATA) - 1000)
            self.assertEqual(f.tell(), len(DATA))
            self.assertEqual(f.mode, "wb")
        with open(self.path, "rb") as raw:
            self.assertEqual(zstd.decompress(raw.read()), DATA)
        with ZstdFile(self.path) as f:
            self.assertEqual(f.mode, "rb")
            self.assertEqual(f.read(10), DATA[:10])
            self.assertEqual(f.readline(), DATA[10:DATA.index(b"\n") + 1])
            self.assertEqual(f.read(), DATA[DATA.index(b"\n") + 1:])
            self.assertEqual(f.read(), b"")
        self.assertTrue(f.closed)

    def test_file_objects_and_modes(self):
        buf = io.BytesIO()
        with ZstdFile(buf, "wb") as f:
            f.write(DATA)
        self.assertFalse(buf.closed)  # not ours to close
        buf.seek(0)
        self.assertEqual(ZstdFile(buf).read(), DATA)
        with zstd.open(self.path, "x") as f:
            f.write(b"a")
        with self.assertRaises(FileExistsError):
            zstd.open(self.path, "x")
        with zstd.open(self.path, "a") as f:
            f.write(b"b")
        self.assertEqual(zstd.open(self.path).read(), b"ab")
        for bad in ("rw", "q", "rbt"):
            with self.assertRaises(ValueError):
                ZstdFile(self.path, bad)
        with self.assertRaises(TypeError):
            ZstdFile(self.path, "r", level=3)
        with self.assertRaises(TypeError):
            ZstdFile(12.5)

    def test_flush_modes(self):
        buf = io.BytesIO()
        f = ZstdFile(buf, "w")
        f.write(DATA[:5000])
        f.flush()  # FLUSH_BLOCK: what was written decodes
        d = zstd.ZstdDecompressor()
        self.assertEqual(d.decompress(buf.getvalue()), DATA[:5000])
        f.write(DATA[5000:6000])
        f.flush(ZstdFile.FLUSH_FRAME)
        f.flush(ZstdFile.FLUSH_FRAME)  # nothing more: no empty frame
        f.write(DATA[6000:7000])
        f.close()
        self.assertEqual(zstd.decompress(buf.getvalue()), DATA[:7000])
        with self.assertRaises(ValueError):
            f.write(b"closed")

    def test_several_and_skippable_frames(self):
        skip = struct.pack("<II", 0x184D2A5F, 3) + b"abc"
        payload = skip + zstd.compress(DATA[:7]) + skip + zstd.compress(DATA) + skip
        with ZstdFile(io.BytesIO(payload)) as f:
            self.assertEqual(f.read(), DATA[:7] + DATA)

    def test_truncated_and_trailing(self):
        frame = zstd.compress(DATA)
        with self.assertRaises(EOFError):
            ZstdFile(io.BytesIO(frame[:-5])).read()
        with self.assertRaises(ZstdError):
            ZstdFile(io.BytesIO(frame + b"garbage!")).read()

    def test_seek_and_iterate(self):
        with ZstdFile(self.path, "w") as f:
            f.write(DATA)
        with ZstdFile(self.path) as f:
            self.assertTrue(f.seekable())
            f.seek(500_000)
            self.assertEqual(f.read(100), DATA[500_000:500_100])
            f.seek(10)
            self.assertEqual(f.read(5), DATA[10:15])
            f.seek(-10, io.SEEK_END)
            self.assertEqual(f.read(), DATA[-10:])
            self.assertEqual(f.tell(), len(DATA))
            f.seek(0)
            self.assertEqual(sum(1 for _ in f), 20_000)
            self.assertEqual(f.peek(1)[:0], b"")
        with ZstdFile(self.path) as f:
            b = bytearray(1000)
            self.assertEqual(f.readinto(b), 1000)
            self.assertEqual(bytes(b), DATA[:1000])
            self.assertGreater(len(f.read1()), 0)
            with self.assertRaises(io.UnsupportedOperation):
                f.write(b"x")

    def test_mixed_read_sizes(self):
        # Large reads with nothing buffered skip the buffer; small reads,
        # lines, seeks and tells in between must see one stream.  Several
        # frames, so that a large read also crosses a frame's end.
        payload = zstd.compress(DATA[:300_000]) + zstd.compress(DATA[300_000:])
        for source in (lambda: io.BytesIO(payload), lambda: _Unseekable(payload)):
            with ZstdFile(source()) as f:
                at = 0
                for size in (10, 100_000, 1, 40_000, 65_536, 7, 200_000, 1 << 20):
                    got = f.read(size)
                    self.assertEqual(got, DATA[at:at + size])
                    at += len(got)
                    self.assertEqual(f.tell(), at)
                    line = f.readline()
                    self.assertEqual(line, DATA[at:DATA.index(b"\n", at) + 1] if at < len(DATA)
                                     else b"")
                    at += len(line)
                self.assertEqual(f.read(50_000), b"")
                self.assertEqual(at, len(DATA))
        with ZstdFile(io.BytesIO(payload)) as f:
            at = 0
            for size in (40_000, 40_000, 300_000, 5, 100_000, 33_000, 1 << 20):
                self.assertEqual(f.read(size), DATA[at:at + size])
                at = min(at + size, len(DATA))
                self.assertEqual(f.tell(), at)
        with ZstdFile(io.BytesIO(payload)) as f:
            self.assertEqual(f.read(50_000), DATA[:50_000])
            f.seek(10)
            self.assertEqual(f.read(70_000), DATA[10:70_010])
            f.seek(-40_000, io.SEEK_END)
            self.assertEqual(f.read(40_000), DATA[-40_000:])
        with self.assertRaises(EOFError):
            ZstdFile(io.BytesIO(payload[:-5])).read(len(DATA) + 1)

    def test_text_mode(self):
        text = "zstd ünïcode\nline two\n" * 1000
        with zstd.open(self.path, "wt", encoding="utf-8") as f:
            f.write(text)
        with zstd.open(self.path, "rt", encoding="utf-8") as f:
            self.assertEqual(f.readline(), "zstd ünïcode\n")
            self.assertEqual(f.read(), text[len("zstd ünïcode\n"):])
        with self.assertRaises(ValueError):
            zstd.open(self.path, "rb", encoding="utf-8")

    def test_dictionary_and_options(self):
        zd = zstd.ZstdDict(DATA[:4096], is_raw=True)
        opts = {zstd.CompressionParameter.checksum_flag: 1}
        with ZstdFile(self.path, "w", options=opts, zstd_dict=zd) as f:
            f.write(DATA)
        with ZstdFile(self.path, zstd_dict=zd,
                      options={zstd.DecompressionParameter.window_log_max: 27}) as f:
            self.assertEqual(f.read(), DATA)


if __name__ == "__main__":
    unittest.main()
