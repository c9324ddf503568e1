# SPDX-License-Identifier: BSD-2-Clause
"""Tests of the xcodec Python binding, against the library XCODEC_LIBRARY
names (CTest points it at the freshly built one).  Round trips with the zstd
command run when it is installed."""

import array
import ctypes
import os
import random
import shutil
import subprocess
import tempfile
import threading
import unittest

import xcodec

HAVE_ZSTD = shutil.which("zstd") is not None


def sample(size, seed=1):
    """Compressible bytes: words from a small vocabulary with some noise."""
    rng = random.Random(seed)
    words = [b"frame", b"block", b"literal", b"offset", b"window", b"the", b"of", b"and"]
    out = bytearray()
    while len(out) < size:
        out += rng.choice(words) + (b" " if rng.random() < 0.9 else bytes([rng.randrange(256)]))
    return bytes(out[:size])


def zstd_cmd(args, data):
    return subprocess.run(["zstd", "-q"] + args, input=data, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=True).stdout


class TestLibrary(unittest.TestCase):
    def test_version_and_path(self):
        self.assertRegex(xcodec.__version__, r"^\d+\.\d+\.\d+$")
        want = os.environ.get("XCODEC_LIBRARY")
        if want:
            self.assertEqual(xcodec.library_path, want)

    def test_levels(self):
        self.assertLess(xcodec.MIN_LEVEL, 0)
        self.assertEqual(xcodec.DEFAULT_LEVEL, 3)
        self.assertGreaterEqual(xcodec.MAX_LEVEL, 19)

    def test_cpucap(self):
        info = xcodec.cpucap()
        for key in ("description", "arch", "features", "tier", "kernels"):
            self.assertIn(key, info)
        self.assertIsInstance(info["features"], list)
        self.assertEqual(set(info["kernels"]), {"crc32c", "inet", "zstd_decode", "zstd_encode"})


class TestOneShot(unittest.TestCase):
    def test_round_trip_levels_and_sizes(self):
        for size in (0, 1, 7, 1000, 200000):
            data = sample(size, seed=size)
            for level in (xcodec.MIN_LEVEL, -1, 1, 3, 9, 19, xcodec.MAX_LEVEL):
                with self.subTest(size=size, level=level):
                    frame = xcodec.compress(data, level=level)
                    self.assertEqual(xcodec.decompress(frame), data)

    def test_random_data(self):
        data = os.urandom(300000)
        self.assertEqual(xcodec.decompress(xcodec.compress(data, checksum=True)), data)

    def test_input_types(self):
        data = sample(50000)
        frame = xcodec.compress(data)
        padded = b"xyz" + frame + b"!"
        inputs = {
            "bytes": frame,
            "bytearray": bytearray(frame),
            "memoryview of bytes": memoryview(frame),
            "memoryview slice with an offset": memoryview(padded)[3:-1],
            "memoryview of a bytearray": memoryview(bytearray(padded))[3:-1],
        }
        for kind, value in inputs.items():
            with self.subTest(kind=kind):
                self.assertEqual(xcodec.decompress(value), data)
        words = array.array("I", range(1000))
        self.assertEqual(xcodec.decompress(xcodec.compress(words)), words.tobytes())
        self.assertEqual(xcodec.crc32c(words), xcodec.crc32c(words.tobytes()))

    def test_rejected_inputs(self):
        with self.assertRaises(TypeError):
            xcodec.compress("text is not bytes")
        strided = memoryview(bytearray(100))[::2]
        with self.assertRaises((TypeError, BufferError, ValueError)):
            xcodec.crc32c(strided)

    def test_inputs_are_not_copied(self):
        # The library must see the caller's memory itself.
        data = b"0123456789" * 10
        with xcodec._Borrow(data) as b:
            self.assertEqual(b.ptr, ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value)
        buf = bytearray(data)
        with xcodec._Borrow(buf) as b:
            self.assertEqual(b.ptr, ctypes.addressof(ctypes.c_char.from_buffer(buf)))
            # While borrowed, a bytearray cannot move.
            with self.assertRaises(BufferError):
                buf.extend(b"more")
        buf.extend(b"more")
        view = memoryview(data)[5:]
        with xcodec._Borrow(view) as b:
            base = ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value
            self.assertEqual(b.ptr, base + 5)
            self.assertEqual(b.size, len(data) - 5)

    def test_concatenated_frames(self):
        a, b = sample(3000, 1), sample(5000, 2)
        self.assertEqual(xcodec.decompress(xcodec.compress(a) + xcodec.compress(b)), a + b)

    def test_max_output_size(self):
        data = sample(10000)
        frame = xcodec.compress(data)
        self.assertEqual(xcodec.decompress(frame, max_output_size=len(data)), data)
        with self.assertRaises(xcodec.Error) as cm:
            xcodec.decompress(frame, max_output_size=len(data) - 1)
        self.assertEqual(cm.exception.code, xcodec.ERROR_DST_TOO_SMALL)
        # A frame without a content size goes through the streaming path.
        c = xcodec.Compressor()
        streamed = c.compress(data) + c.flush()
        self.assertEqual(xcodec.decompress(streamed), data)
        with self.assertRaises(xcodec.Error) as cm:
            xcodec.decompress(streamed, max_output_size=100)
        self.assertEqual(cm.exception.code, xcodec.ERROR_DST_TOO_SMALL)

    def test_errors_carry_name_and_code(self):
        with self.assertRaises(xcodec.Error) as cm:
            xcodec.decompress(b"this is not a zstd frame")
        self.assertEqual(cm.exception.code, xcodec.ERROR_UNKNOWN_MAGIC)
        self.assertIsInstance(cm.exception.name, str)
        self.assertIn(cm.exception.name, str(cm.exception))

        frame = xcodec.compress(sample(20000), checksum=True)
        with self.assertRaises(xcodec.Error):
            xcodec.decompress(frame[:-7])
        damaged = bytearray(frame)
        damaged[-1] ^= 0xFF
        with self.assertRaises(xcodec.Error) as cm:
            xcodec.decompress(damaged)
        self.assertEqual(cm.exception.code, xcodec.ERROR_CHECKSUM)

        with self.assertRaises(xcodec.Error) as cm:
            xcodec.compress(b"x", level=xcodec.MAX_LEVEL + 1)
        self.assertEqual(cm.exception.code, xcodec.ERROR_BAD_PARAMETER)

    def test_truncated_stream_without_content_size(self):
        c = xcodec.Compressor()
        streamed = c.compress(sample(40000)) + c.flush()
        with self.assertRaises(xcodec.Error) as cm:
            xcodec.decompress(streamed[:-5])
        self.assertEqual(cm.exception.code, xcodec.ERROR_TRUNCATED)

    def test_threads(self):
        data = [sample(30000, seed) for seed in range(4)]
        results = [None] * 4

        def work(i):
            results[i] = xcodec.decompress(xcodec.compress(data[i], level=1))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, data)


class TestStreaming(unittest.TestCase):
    def test_pieces(self):
        data = sample(400000)
        rng = random.Random(7)
        c = xcodec.Compressor(level=3, checksum=True)
        out, pos = [], 0
        while pos < len(data):
            n = rng.randrange(1, 70000)
            out.append(c.compress(memoryview(data)[pos:pos + n]))
            pos += n
        out.append(c.flush())
        frame = b"".join(out)
        self.assertEqual(xcodec.decompress(frame), data)

        d = xcodec.Decompressor()
        got, pos = [], 0
        while pos < len(frame):
            n = rng.randrange(1, 5000)
            got.append(d.decompress(frame[pos:pos + n]))
            pos += n
            if pos < len(frame):
                self.assertFalse(d.eof)
        self.assertTrue(d.eof)
        self.assertEqual(b"".join(got), data)

    def test_flush_block_makes_the_prefix_decodable(self):
        c = xcodec.Compressor()
        d = xcodec.Decompressor()
        first = sample(5000, 3)
        part = c.compress(first) + c.flush(xcodec.Compressor.FLUSH_BLOCK)
        self.assertEqual(d.decompress(part), first)
        self.assertFalse(d.eof)
        second = sample(7000, 4)
        self.assertEqual(d.decompress(c.compress(second) + c.flush()), second)
        self.assertTrue(d.eof)

    def test_compressor_starts_a_new_frame_after_flush(self):
        c = xcodec.Compressor(level=1)
        a = c.compress(b"first frame ") + c.flush()
        b = c.compress(b"second frame") + c.flush()
        self.assertEqual(xcodec.decompress(a + b), b"first frame second frame")

    def test_decompressor_recovers_after_an_error(self):
        d = xcodec.Decompressor()
        with self.assertRaises(xcodec.Error):
            d.decompress(b"\x00" * 64)
        frame = xcodec.compress(b"after the error")
        self.assertEqual(d.decompress(frame), b"after the error")

    def test_bad_flush_mode(self):
        with self.assertRaises(ValueError):
            xcodec.Compressor().flush(7)


class TestChecksums(unittest.TestCase):
    def test_crc32c(self):
        self.assertEqual(xcodec.crc32c(b"123456789"), 0xE3069283)
        self.assertEqual(xcodec.crc32c(b""), 0)
        data = sample(100000)
        self.assertEqual(xcodec.crc32c(data[3000:], xcodec.crc32c(data[:3000])),
                         xcodec.crc32c(data))
        self.assertEqual(xcodec.crc32c(bytearray(data)), xcodec.crc32c(memoryview(data)))
        with self.assertRaises(ValueError):
            xcodec.crc32c(b"x", crc=-1)

    def test_inet_checksum(self):
        # RFC 1071 section 3: the words 0001 f203 f4f5 f6f7 sum to ddf2
        # (after folding), so the checksum field is its complement, 220d.
        self.assertEqual(xcodec.inet_checksum(bytes.fromhex("0001f203f4f5f6f7")), 0x220D)
        self.assertEqual(xcodec.inet_checksum(b"123456789"), 0xF62A)
        header = bytearray.fromhex("450000730000400040110000c0a80001c0a800c7")
        c = xcodec.inet_checksum(header)
        header[10:12] = c.to_bytes(2, "big")
        self.assertEqual(xcodec.inet_checksum(header), 0)


@unittest.skipUnless(HAVE_ZSTD, "the zstd command is not installed")
class TestWithZstdCommand(unittest.TestCase):
    def test_xcodec_frames_in_zstd(self):
        data = sample(300000)
        for level in (-1, 1, 3, 19):
            with self.subTest(level=level):
                frame = xcodec.compress(data, level=level, checksum=True)
                self.assertEqual(zstd_cmd(["-d", "-c"], frame), data)
        c = xcodec.Compressor(checksum=True)
        streamed = c.compress(data[:1000]) + c.compress(data[1000:]) + c.flush()
        self.assertEqual(zstd_cmd(["-d", "-c"], streamed), data)

    def test_zstd_frames_in_xcodec(self):
        data = sample(300000)
        for args in (["-1"], ["-3"], ["-19"], ["--fast=5"], ["-3", "--no-check"]):
            with self.subTest(args=args):
                frame = zstd_cmd(args + ["-c"], data)
                self.assertEqual(xcodec.decompress(frame), data)
                d = xcodec.Decompressor()
                self.assertEqual(b"".join(d.decompress(frame[i:i + 999])
                                          for i in range(0, len(frame), 999)), data)

    def test_zstd_stream_without_content_size(self):
        # zstd reading a pipe does not know the size: the frame header says
        # nothing, and decompress() takes its streaming path.
        data = sample(200000)
        p = subprocess.run("zstd -q -c | cat", shell=True, input=data, stdout=subprocess.PIPE,
                           check=True)
        self.assertEqual(xcodec.decompress(p.stdout), data)

    def test_dictionary(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for i in range(300):
                path = os.path.join(tmp, "s%d" % i)
                with open(path, "wb") as f:
                    f.write(b'{"id": %d, "user": "name%d", "role": "admin%d"}\n' % (i, i, i % 7))
                paths.append(path)
            dict_path = os.path.join(tmp, "dict")
            r = subprocess.run(["zstd", "-q", "--train", "--maxdict=2048", "-o", dict_path] + paths,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if r.returncode != 0:
                self.skipTest("zstd --train failed: %s" % r.stderr.decode(errors="replace"))
            with open(dict_path, "rb") as f:
                dictionary = f.read()
            data = b'{"id": 12345, "user": "name12345", "role": "admin3"}\n'
            frame = subprocess.run(["zstd", "-q", "-c", "-D", dict_path], input=data,
                                   stdout=subprocess.PIPE, check=True).stdout
            self.assertEqual(xcodec.decompress(frame, dictionary=dictionary), data)
            self.assertEqual(xcodec.Decompressor(dictionary=dictionary).decompress(frame), data)
            with self.assertRaises(xcodec.Error) as cm:
                xcodec.decompress(frame)
            self.assertEqual(cm.exception.code, xcodec.ERROR_DICT_MISSING)


if __name__ == "__main__":
    unittest.main()
