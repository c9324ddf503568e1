# SPDX-License-Identifier: BSD-2-Clause
"""SeekableZstdFile: reading over a path and over file objects, random
ranges against the plain decode, seek/tell, a file written by `xcodec
--seekable` (XCODEC_CLI, set by CTest), writing with and without threads,
and the named errors of bad input."""

import io
import os
import random
import struct
import subprocess
import tempfile
import unittest

import xcodec.zstd as zstd
from xcodec.zstd import SeekableZstdFile, ZstdError

DATA = b"".join(b"record %d: value %d, name item-%d\n" % (i, i * 31 % 977, i % 53)
                for i in range(60_000))
FRAME = 64 * 1024


def frames_of(blob):
    """The sizes of the zstd frames at the start of blob, up to the first
    skippable frame."""
    sizes = []
    while blob and blob[:4] == b"\x28\xb5\x2f\xfd":
        n = zstd.get_frame_size(blob)
        sizes.append(n)
        blob = blob[n:]
    return sizes


class Reading(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.dir.name, "data.zst")
        with SeekableZstdFile(cls.path, "w", level=3, frame_size=FRAME) as f:
            for i in range(0, len(DATA), 10_007):
                f.write(DATA[i:i + 10_007])
        with open(cls.path, "rb") as f:
            cls.blob = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def sources(self):
        yield "path", SeekableZstdFile(self.path)
        yield "BytesIO", SeekableZstdFile(io.BytesIO(self.blob))
        raw = open(self.path, "rb")
        self.addCleanup(raw.close)
        yield "open file", SeekableZstdFile(raw)

    def test_plain_zstd_reads_it(self):
        self.assertEqual(zstd.decompress(self.blob), DATA)
        self.assertEqual(len(frames_of(self.blob)), -(-len(DATA) // FRAME))

    def test_table(self):
        with SeekableZstdFile(self.path) as f:
            self.assertEqual(f.frames, -(-len(DATA) // FRAME))
            self.assertEqual(f.content_size, len(DATA))
            c_off, c_size, d_off, d_size = f.frame_info(1)
            self.assertEqual((d_off, d_size), (FRAME, FRAME))
            self.assertEqual(zstd.decompress(self.blob[c_off:c_off + c_size]),
                             DATA[FRAME:2 * FRAME])
            with self.assertRaises(IndexError):
                f.frame_info(f.frames)

    def test_random_ranges(self):
        rng = random.Random(7)
        for what, f in self.sources():
            with self.subTest(source=what), f:
                for _ in range(150):
                    off = rng.randrange(len(DATA) + 100)
                    n = rng.choice((0, 1, 17, 4096, 70_000, 300_000))
                    self.assertEqual(f.seek(off), off)
                    got = f.read(n)
                    self.assertEqual(got, DATA[off:off + n], (off, n))
                    self.assertEqual(f.tell(), off + len(got))

    def test_readinto_and_whence(self):
        with SeekableZstdFile(self.path) as f:
            self.assertTrue(f.readable() and f.seekable())
            self.assertFalse(f.writable())
            buf = bytearray(1000)
            f.seek(FRAME - 500)
            self.assertEqual(f.readinto(buf), 1000)
            self.assertEqual(bytes(buf), DATA[FRAME - 500:FRAME + 500])
            self.assertEqual(f.seek(-10, io.SEEK_CUR), FRAME + 490)
            self.assertEqual(f.read(20), DATA[FRAME + 490:FRAME + 510])
            self.assertEqual(f.seek(-5, io.SEEK_END), len(DATA) - 5)
            self.assertEqual(f.read(), DATA[-5:])
            self.assertEqual(f.read(), b"")
            self.assertEqual(f.seek(len(DATA) + 10), len(DATA) + 10)
            self.assertEqual(f.read(5), b"")
            self.assertEqual(f.readinto(buf), 0)
            f.seek(0)
            self.assertEqual(f.read(), DATA)
            with self.assertRaises(ValueError):
                f.seek(-1)
            with self.assertRaises(ValueError):
                f.seek(0, 3)
            with self.assertRaises(io.UnsupportedOperation):
                f.write(b"x")
            # io's helpers work on top.
            f.seek(0)
            self.assertEqual(f.readline(), DATA[:DATA.index(b"\n") + 1])
        self.assertTrue(f.closed)
        with self.assertRaises(ValueError):
            f.read(1)
        with self.assertRaises(ValueError):
            f.seek(0)

    def test_decompress_all(self):
        for what, f in self.sources():
            with self.subTest(source=what), f:
                f.seek(123)
                self.assertEqual(f.decompress_all(), DATA)
                self.assertEqual(f.decompress_all(threads=2), DATA)
                self.assertEqual(f.tell(), 123)

    def test_file_object_errors_propagate(self):
        raw = io.BytesIO(self.blob)
        f = SeekableZstdFile(raw)
        raw.close()
        with self.assertRaises(ValueError):  # the BytesIO's own error
            f.read(10)
        f.close()


@unittest.skipUnless(os.environ.get("XCODEC_CLI"), "XCODEC_CLI (the xcodec command) not set")
class FromTheCommand(unittest.TestCase):
    def test_xcodec_seekable(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "in")
            with open(src, "wb") as f:
                f.write(DATA)
            for args in (["--seekable=32K"], ["--seekable=100000", "-T2", "-5"]):
                with self.subTest(args=args):
                    out = os.path.join(d, "out.zst")
                    subprocess.run([os.environ["XCODEC_CLI"], "-q", "-f", *args, src, "-o", out],
                                   check=True)
                    rng = random.Random(3)
                    with SeekableZstdFile(out) as f:
                        self.assertEqual(f.content_size, len(DATA))
                        for _ in range(60):
                            off = rng.randrange(len(DATA))
                            n = rng.randrange(1, 50_000)
                            f.seek(off)
                            self.assertEqual(f.read(n), DATA[off:off + n])
                        # Our writer, with the command's settings, writes the same file.
                        level = 5 if "-5" in args else 3
                        frame = int(args[0].split("=")[1].replace("K", "")) * \
                            (1024 if "K" in args[0] else 1)
                        buf = io.BytesIO()
                        with SeekableZstdFile(buf, "w", level=level, frame_size=frame) as w:
                            w.write(DATA)
                        with open(out, "rb") as raw:
                            self.assertEqual(buf.getvalue(), raw.read())


class Writing(unittest.TestCase):
    def test_threads_same_bytes(self):
        outs = []
        for threads in (0, 1, 2, 4):
            buf = io.BytesIO()
            with SeekableZstdFile(buf, "w", level=1, frame_size=100_000, threads=threads) as f:
                self.assertTrue(f.writable())
                f.write(DATA[:12345])
                f.write(memoryview(DATA)[12345:])
                self.assertEqual(f.tell(), len(DATA))
            outs.append(buf.getvalue())
        self.assertEqual(len(set(outs)), 1)
        with SeekableZstdFile(io.BytesIO(outs[0])) as f:
            self.assertEqual(f.frames, -(-len(DATA) // 100_000))
            self.assertEqual(f.read(), DATA)

    def test_without_checksums(self):
        buf = io.BytesIO()
        with SeekableZstdFile(buf, "w", frame_size=FRAME, checksums=False) as f:
            f.write(DATA)
        with_sums = io.BytesIO()
        with SeekableZstdFile(with_sums, "w", frame_size=FRAME) as f:
            f.write(DATA)
        frames = -(-len(DATA) // FRAME)
        # 4 bytes in each frame and 4 in its entry.
        self.assertEqual(len(with_sums.getvalue()) - len(buf.getvalue()), 8 * frames)
        with SeekableZstdFile(io.BytesIO(buf.getvalue())) as f:
            self.assertEqual(f.read(), DATA)

    def test_empty(self):
        buf = io.BytesIO()
        with SeekableZstdFile(buf, "w"):
            pass
        with SeekableZstdFile(io.BytesIO(buf.getvalue())) as f:
            self.assertEqual((f.frames, f.content_size), (0, 0))
            self.assertEqual(f.read(), b"")

    def test_bad_arguments(self):
        with self.assertRaises(ValueError):
            SeekableZstdFile(io.BytesIO(), "rw")
        with self.assertRaises(ValueError):
            SeekableZstdFile(io.BytesIO(), "w", frame_size=(1 << 30) + 1)
        with self.assertRaises(ValueError):
            SeekableZstdFile(io.BytesIO(b""), "r", level=3)
        with self.assertRaises(TypeError):
            SeekableZstdFile(42, "w")
        buf = io.BytesIO()
        f = SeekableZstdFile(buf, "w")
        with self.assertRaises(io.UnsupportedOperation):
            f.read()
        f.close()
        with self.assertRaises(ValueError):
            f.write(b"x")


class BadInput(unittest.TestCase):
    def setUp(self):
        buf = io.BytesIO()
        with SeekableZstdFile(buf, "w", frame_size=FRAME) as f:
            f.write(DATA[:200_000])
        self.blob = buf.getvalue()

    def error_name(self, blob, read=False):
        with self.assertRaises(ZstdError) as cm:
            with SeekableZstdFile(io.BytesIO(blob)) as f:
                if read:
                    f.read()
        return cm.exception.name

    def test_plain_frame(self):
        self.assertEqual(self.error_name(zstd.compress(DATA[:1000])), "seek table missing")
        self.assertEqual(self.error_name(b""), "seek table missing")

    def test_corrupt_table(self):
        bad = bytearray(self.blob)
        bad[-5] |= 0x04  # a reserved descriptor bit
        self.assertEqual(self.error_name(bytes(bad)), "seek table corrupt")
        # A first frame one byte shorter than its entry says.
        self.assertEqual(self.error_name(self.blob[1:]), "seek table corrupt")

    def test_checksum(self):
        # The first entry's checksum (after the skippable header, at 8 + 8).
        sizes = frames_of(self.blob)
        at = sum(sizes) + 8 + 8
        bad = bytearray(self.blob)
        bad[at] ^= 0xFF
        self.assertEqual(self.error_name(bytes(bad), read=True), "checksum mismatch")

    def test_entry_disagrees(self):
        # Entry 0 promises one byte more content than its frame holds.
        sizes = frames_of(self.blob)
        at = sum(sizes) + 8 + 4
        bad = bytearray(self.blob)
        d_size, = struct.unpack_from("<I", bad, at)
        struct.pack_into("<I", bad, at, d_size + 1)
        self.assertEqual(self.error_name(bytes(bad), read=True), "frame disagrees with its seek table entry")

    def test_truncated_file_object(self):
        class Short(io.BytesIO):
            def read(self, n=-1):
                return super().read(n)[:-1]  # always one byte short
        with self.assertRaises(ZstdError) as cm:
            SeekableZstdFile(Short(self.blob))
        self.assertEqual(cm.exception.name, "input truncated")


if __name__ == "__main__":
    unittest.main()
