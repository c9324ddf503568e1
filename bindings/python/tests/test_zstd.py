# SPDX-License-Identifier: BSD-2-Clause
"""xcodec.zstd against the behaviour of Python 3.14's compression.zstd:
one-shot functions, the streaming objects, dictionaries, parameters, and
the edge cases of its documentation (empty input, several frames,
skippable frames, truncated frames, trailing data, max_length=0)."""

import os
import random
import struct
import unittest

import xcodec.zstd as zstd
from xcodec.zstd import (CompressionParameter, DecompressionParameter, Strategy, ZstdCompressor,
                         ZstdDecompressor, ZstdDict, ZstdError)

RNG = random.Random(20)


def text(n, seed=0):
    """Compressible bytes: words drawn from a small vocabulary."""
    rng = random.Random(seed)
    words = [bytes(rng.choice(b"abcdefghij") for _ in range(rng.randint(2, 9)))
             for _ in range(300)]
    out = bytearray()
    while len(out) < n:
        out += rng.choice(words) + b" "
    return bytes(out[:n])


DATA = text(200_000)
FRAME = zstd.compress(DATA)


def record(i):
    """Small records alike in shape, as dictionaries are made for."""
    rng = random.Random(i)
    return ('{"id": %d, "name": "user%d", "email": "user%d@example.com", "active": %s, '
            '"roles": ["reader", "%s"], "score": %d.%02d}' % (
                i, rng.randint(0, 99999), rng.randint(0, 999), rng.choice(["true", "false"]),
                rng.choice(["writer", "admin", "guest"]), rng.randint(0, 100),
                rng.randint(0, 99))).encode()


def skippable(payload, nibble=0):
    return struct.pack("<II", 0x184D2A50 + nibble, len(payload)) + payload


class OneShot(unittest.TestCase):
    def test_round_trip_sizes_and_levels(self):
        for n in (0, 1, 7, 100, 4096, 70_000, 300_000):
            for level in (-7, -1, 1, 3, 9, 19):
                data = text(n, n + level)
                frame = zstd.compress(data, level)
                self.assertEqual(zstd.decompress(frame), data, (n, level))
                self.assertEqual(zstd.get_frame_info(frame).decompressed_size, n)

    def test_default_level_is_3(self):
        self.assertEqual(zstd.COMPRESSION_LEVEL_DEFAULT, 3)
        self.assertEqual(zstd.compress(DATA), zstd.compress(DATA, 3))

    def test_level_out_of_range(self):
        lo, hi = CompressionParameter.compression_level.bounds()
        for level in (lo - 1, hi + 1, 1 << 40):
            with self.assertRaises(ValueError):
                zstd.compress(b"x", level)
            with self.assertRaises(ValueError):
                ZstdCompressor(level=level)

    def test_level_and_options_together(self):
        with self.assertRaises(TypeError):
            zstd.compress(b"x", level=3, options={})

    def test_empty_input_is_an_error(self):
        # compression.zstd.decompress(b"") finds no frame end.
        with self.assertRaisesRegex(ZstdError, "ended before the end-of-stream"):
            zstd.decompress(b"")

    def test_empty_content(self):
        frame = zstd.compress(b"")
        self.assertEqual(zstd.decompress(frame), b"")
        self.assertEqual(zstd.get_frame_info(frame).decompressed_size, 0)

    def test_several_frames(self):
        a, b = text(5000, 1), text(9000, 2)
        self.assertEqual(zstd.decompress(zstd.compress(a) + zstd.compress(b)), a + b)
        # A frame without a content size sends decompress() down the
        # streaming path: the result must be the same.
        c = ZstdCompressor()
        streamed = c.compress(b) + c.flush()
        self.assertIsNone(zstd.get_frame_info(streamed).decompressed_size)
        self.assertEqual(zstd.decompress(zstd.compress(a) + streamed + zstd.compress(a)),
                         a + b + a)

    def test_skippable_frames(self):
        skip = skippable(b"metadata", 5)
        self.assertEqual(zstd.decompress(skip), b"")
        self.assertEqual(zstd.decompress(skip + FRAME + skip), DATA)
        self.assertEqual(zstd.decompress(FRAME + skippable(b"") + FRAME), DATA + DATA)
        self.assertEqual(zstd.get_frame_size(skip + FRAME), len(skip))

    def test_truncated_frames(self):
        for cut in (1, 4, 5, 20, len(FRAME) // 2, len(FRAME) - 1):
            with self.assertRaises(ZstdError, msg=cut):
                zstd.decompress(FRAME[:cut])
        with self.assertRaises(ZstdError):
            zstd.decompress(FRAME + FRAME[:10])

    def test_trailing_data(self):
        with self.assertRaisesRegex(ZstdError, "unknown frame magic") as cm:
            zstd.decompress(FRAME + b"trailing garbage")
        self.assertEqual(cm.exception.name, "unknown frame magic")
        # Fewer bytes than a magic number: not a frame end either.
        with self.assertRaises(ZstdError):
            zstd.decompress(FRAME + b"ab")

    def test_corrupt_frame_names_the_error(self):
        bad = bytearray(FRAME)
        for i in range(20, len(bad), 97):
            bad[i] ^= 0x55
        with self.assertRaises(ZstdError) as cm:
            zstd.decompress(bytes(bad))
        self.assertTrue(str(cm.exception).startswith("Unable to decompress Zstandard data: "))
        self.assertEqual(str(cm.exception).split(": ", 1)[1], cm.exception.name)
        self.assertIsInstance(cm.exception.code, int)

    def test_checksum_mismatch(self):
        frame = bytearray(zstd.compress(DATA, options={CompressionParameter.checksum_flag: 1}))
        frame[-1] ^= 1
        with self.assertRaises(ZstdError) as cm:
            zstd.decompress(bytes(frame))
        self.assertIn("checksum", cm.exception.name)

    def test_frame_info_and_size(self):
        info = zstd.get_frame_info(FRAME)
        self.assertEqual((info.decompressed_size, info.dictionary_id), (len(DATA), 0))
        self.assertIn("decompressed_size=200000", repr(info))
        with self.assertRaises(AttributeError):
            info.dictionary_id = 1
        self.assertEqual(zstd.get_frame_size(FRAME + b"more"), len(FRAME))
        with self.assertRaises(ZstdError):
            zstd.get_frame_info(b"\x00\x01\x02\x03\x04\x05")
        with self.assertRaises(ZstdError):
            zstd.get_frame_size(FRAME[:-3])

    def test_options(self):
        opts = {CompressionParameter.compression_level: 7,
                CompressionParameter.window_log: 17,
                CompressionParameter.strategy: Strategy.lazy2,
                CompressionParameter.checksum_flag: 1,
                CompressionParameter.content_size_flag: 0}
        frame = zstd.compress(DATA, options=opts)
        self.assertIsNone(zstd.get_frame_info(frame).decompressed_size)
        self.assertEqual(zstd.decompress(frame), DATA)
        with self.assertRaises(ZstdError):
            zstd.compress(DATA, options={CompressionParameter.window_log: 40})
        with self.assertRaises(TypeError):
            zstd.compress(DATA, options={DecompressionParameter.window_log_max: 20})
        with self.assertRaises(TypeError):
            zstd.decompress(FRAME, options={CompressionParameter.window_log: 20})
        self.assertEqual(zstd.decompress(FRAME, options={DecompressionParameter.window_log_max: 31}),
                         DATA)

    def test_window_log_max(self):
        frame = zstd.compress(DATA, options={CompressionParameter.window_log: 20,
                                             CompressionParameter.content_size_flag: 0})
        with self.assertRaises(ZstdError) as cm:
            zstd.decompress(frame, options={DecompressionParameter.window_log_max: 12})
        self.assertIn("window", cm.exception.name)

    def test_bounds(self):
        for p in CompressionParameter:
            lo, hi = p.bounds()
            self.assertLessEqual(lo, hi, p)
        self.assertEqual(CompressionParameter.window_log.bounds(), (10, 31))
        self.assertEqual(DecompressionParameter.window_log_max.bounds(), (10, 31))
        self.assertEqual(CompressionParameter.nb_workers.bounds(), (0, 256))
        self.assertEqual(list(Strategy), sorted(Strategy))
        self.assertEqual(Strategy.btultra2, 9)

    def test_multithreading_parameters(self):
        self.assertEqual(zstd.decompress(zstd.compress(DATA, options={
            CompressionParameter.nb_workers: 0})), DATA)
        # Jobs of 512 KiB (the smallest): several jobs, the same frame for
        # any count of workers, and threads= says the same.
        big = DATA * (3 * 1024 * 1024 // len(DATA) + 1)
        frames = [zstd.compress(big, options={CompressionParameter.nb_workers: n,
                                              CompressionParameter.job_size: 1 << 19})
                  for n in (1, 2, 4)]
        self.assertEqual(frames[0], frames[1])
        self.assertEqual(frames[0], frames[2])
        self.assertEqual(zstd.decompress(frames[0]), big)
        self.assertNotEqual(frames[0], zstd.compress(big))
        for t in (2, -1):
            c = ZstdCompressor(threads=t, options={CompressionParameter.job_size: 1 << 19})
            self.assertEqual(c.compress(big, ZstdCompressor.FLUSH_FRAME), frames[0])
        with self.assertRaises(ValueError):
            ZstdCompressor(threads=-2)


class Compressor(unittest.TestCase):
    def test_modes(self):
        c = ZstdCompressor()
        self.assertEqual(c.last_mode, ZstdCompressor.FLUSH_FRAME)
        out = c.compress(DATA[:1000])
        self.assertEqual(c.last_mode, ZstdCompressor.CONTINUE)
        out += c.compress(DATA[1000:2000], ZstdCompressor.FLUSH_BLOCK)
        self.assertEqual(c.last_mode, ZstdCompressor.FLUSH_BLOCK)
        # After a FLUSH_BLOCK, what was given so far decodes.
        d = ZstdDecompressor()
        self.assertEqual(d.decompress(out), DATA[:2000])
        self.assertFalse(d.eof)
        out += c.compress(DATA[2000:]) + c.flush()
        self.assertEqual(c.last_mode, ZstdCompressor.FLUSH_FRAME)
        self.assertEqual(zstd.decompress(out), DATA)
        self.assertEqual((ZstdCompressor.CONTINUE, ZstdCompressor.FLUSH_BLOCK,
                          ZstdCompressor.FLUSH_FRAME), (0, 1, 2))

    def test_bad_mode(self):
        c = ZstdCompressor()
        with self.assertRaises(ValueError):
            c.compress(b"x", 5)
        with self.assertRaises(ValueError):
            c.flush(ZstdCompressor.CONTINUE)

    def test_frames_in_a_row(self):
        c = ZstdCompressor(level=1)
        frames = [c.compress(text(3000, i), ZstdCompressor.FLUSH_FRAME) for i in range(5)]
        self.assertEqual(zstd.decompress(b"".join(frames)),
                         b"".join(text(3000, i) for i in range(5)))

    def test_flush_of_nothing_is_an_empty_frame(self):
        c = ZstdCompressor()
        frame = c.flush()
        self.assertEqual(zstd.decompress(frame), b"")
        self.assertEqual(zstd.get_frame_size(frame), len(frame))

    def test_pledged_size(self):
        c = ZstdCompressor()
        c.set_pledged_input_size(len(DATA))
        frame = c.compress(DATA[:100]) + c.compress(DATA[100:]) + c.flush()
        self.assertEqual(zstd.get_frame_info(frame).decompressed_size, len(DATA))
        self.assertEqual(zstd.decompress(frame), DATA)
        # The pledge is for one frame.
        frame = c.compress(DATA) + c.flush()
        self.assertIsNone(zstd.get_frame_info(frame).decompressed_size)
        c.set_pledged_input_size(10)
        with self.assertRaises(ZstdError) as cm:
            c.compress(DATA) + c.flush()
        self.assertIn("size", cm.exception.name)
        # The compressor is usable again after the error.
        self.assertEqual(zstd.decompress(c.compress(DATA, ZstdCompressor.FLUSH_FRAME)), DATA)
        c.compress(b"abc")
        with self.assertRaises(ValueError):
            c.set_pledged_input_size(10)
        for bad in (-1, 2**64 - 1, 2**64):
            with self.assertRaises(ValueError):
                ZstdCompressor().set_pledged_input_size(bad)
        ZstdCompressor().set_pledged_input_size(None)

    def test_not_picklable(self):
        import pickle
        for obj in (ZstdCompressor(), ZstdDecompressor()):
            with self.assertRaises(TypeError):
                pickle.dumps(obj)


class Decompressor(unittest.TestCase):
    def test_fresh_state(self):
        d = ZstdDecompressor()
        self.assertFalse(d.eof)
        self.assertTrue(d.needs_input)
        self.assertEqual(d.unused_data, b"")
        self.assertEqual(d.decompress(b""), b"")
        self.assertFalse(d.eof)
        self.assertTrue(d.needs_input)

    def test_stops_at_the_end_of_one_frame(self):
        d = ZstdDecompressor()
        self.assertEqual(d.decompress(FRAME + FRAME + b"tail"), DATA)
        self.assertTrue(d.eof)
        self.assertFalse(d.needs_input)
        self.assertEqual(d.unused_data, FRAME + b"tail")
        with self.assertRaises(EOFError):
            d.decompress(b"")

    def test_byte_by_byte(self):
        frame = zstd.compress(text(20_000, 3), options={CompressionParameter.checksum_flag: 1})
        d = ZstdDecompressor()
        out = bytearray()
        for i in range(len(frame)):
            self.assertFalse(d.eof)
            out += d.decompress(frame[i:i + 1])
        self.assertTrue(d.eof)
        self.assertEqual(out, text(20_000, 3))
        self.assertEqual(d.unused_data, b"")

    def test_max_length(self):
        d = ZstdDecompressor()
        out = d.decompress(FRAME, max_length=1000)
        self.assertEqual(out, DATA[:1000])
        self.assertFalse(d.needs_input)
        self.assertFalse(d.eof)
        while not d.eof:
            chunk = d.decompress(b"", max_length=12345)
            self.assertLessEqual(len(chunk), 12345)
            out += chunk
        self.assertEqual(out, DATA)

    def test_input_left_inside_is_the_callers_no_longer(self):
        # A bytes input is kept by reference; any other buffer is copied, so
        # the caller may change or resize it after the call.
        for kind in (bytes, bytearray):
            buf = kind(FRAME)
            d = ZstdDecompressor()
            out = d.decompress(buf, max_length=100)
            self.assertFalse(d.needs_input)
            if kind is bytearray:
                buf[:] = b"\0" * len(buf)
                buf += b"resized"
            while not d.eof:
                out += d.decompress(b"", max_length=50_000)
            self.assertEqual(out, DATA)

    def test_decompress_into(self):
        # What ZstdFile's reader uses: decompress(data, len(buf)) written
        # into buf.
        d = ZstdDecompressor()
        buf = bytearray(1000)
        self.assertEqual(d._decompress_into(FRAME, buf), 1000)
        self.assertEqual(buf, DATA[:1000])
        self.assertFalse(d.needs_input)
        out = bytearray(buf)
        view = memoryview(bytearray(len(DATA)))
        n = d._decompress_into(b"", view)
        self.assertEqual(out + view[:n], DATA)
        self.assertTrue(d.eof)
        with self.assertRaises(TypeError):
            ZstdDecompressor()._decompress_into(FRAME, b"read-only")

    def test_max_length_0(self):
        d = ZstdDecompressor()
        self.assertEqual(d.decompress(FRAME, max_length=0), b"")
        self.assertFalse(d.needs_input)
        self.assertFalse(d.eof)
        self.assertEqual(d.decompress(b""), DATA)
        self.assertTrue(d.eof)

    def test_max_length_with_pieces_and_trailing_data(self):
        d = ZstdDecompressor()
        out = b""
        data = FRAME + b"next"
        pos = 0
        while not d.eof:
            piece = data[pos:pos + 777] if d.needs_input else b""
            pos += len(piece) if d.needs_input else 0
            out += d.decompress(piece, max_length=5000)
        self.assertEqual(out, DATA)
        self.assertEqual(d.unused_data + data[pos:], b"next")

    def test_skippable_frame_is_one_frame(self):
        d = ZstdDecompressor()
        self.assertEqual(d.decompress(skippable(b"abc") + FRAME), b"")
        self.assertTrue(d.eof)
        self.assertEqual(d.unused_data, FRAME)

    def test_truncated(self):
        d = ZstdDecompressor()
        out = d.decompress(FRAME[:-10])
        self.assertFalse(d.eof)
        self.assertTrue(d.needs_input)
        self.assertTrue(DATA.startswith(out))

    def test_garbage(self):
        d = ZstdDecompressor()
        with self.assertRaises(ZstdError) as cm:
            d.decompress(b"this is not zstd")
        self.assertEqual(cm.exception.name, "unknown frame magic")


class Dictionaries(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.samples = [record(i) for i in range(400)]
        cls.zd = zstd.train_dict(cls.samples, 8192)

    def test_trained(self):
        self.assertIsInstance(self.zd, ZstdDict)
        self.assertGreater(self.zd.dict_id, 0)
        self.assertLessEqual(len(self.zd), 8192)
        self.assertEqual(len(self.zd.dict_content), len(self.zd))
        self.assertIn("dict_id=", str(self.zd))

    def test_every_kind(self):
        sample = self.samples[7]
        for kind in (self.zd, self.zd.as_digested_dict, self.zd.as_undigested_dict,
                     self.zd.as_prefix):
            frame = zstd.compress(sample, zstd_dict=kind)
            self.assertEqual(zstd.decompress(frame, zstd_dict=kind), sample)
            self.assertEqual(zstd.decompress(frame, zstd_dict=self.zd), sample)
        frame = zstd.compress(sample, level=9, zstd_dict=self.zd.as_digested_dict)
        self.assertEqual(zstd.get_frame_info(frame).dictionary_id, self.zd.dict_id)
        self.assertLess(len(frame), len(zstd.compress(sample, level=9)))

    def test_missing_dictionary(self):
        frame = zstd.compress(self.samples[0], zstd_dict=self.zd)
        with self.assertRaises(ZstdError) as cm:
            zstd.decompress(frame)
        self.assertIn("dictionary", cm.exception.name)

    def test_raw_and_prefix(self):
        raw = ZstdDict(DATA[:5000], is_raw=True)
        self.assertEqual(raw.dict_id, 0)
        sample = DATA[100:2100]
        frame = zstd.compress(sample, zstd_dict=raw.as_prefix)
        self.assertLess(len(frame), 100)
        self.assertEqual(zstd.decompress(frame, zstd_dict=raw.as_prefix), sample)
        # A prefix serves the first frame only.
        c = ZstdCompressor(zstd_dict=raw.as_prefix)
        first = c.compress(sample, ZstdCompressor.FLUSH_FRAME)
        second = c.compress(sample, ZstdCompressor.FLUSH_FRAME)
        self.assertEqual(zstd.decompress(first, zstd_dict=raw.as_prefix), sample)
        self.assertEqual(zstd.decompress(second), sample)

    def test_bad_dictionaries(self):
        with self.assertRaises(ValueError):
            ZstdDict(b"short")
        with self.assertRaises(ValueError):
            ZstdDict(b"not a zstd dictionary")
        with self.assertRaises(TypeError):
            ZstdDict(12345)
        with self.assertRaises(TypeError):
            zstd.compress(b"x", zstd_dict=b"bytes are not a dictionary")
        with self.assertRaises(TypeError):
            zstd.compress(b"x", zstd_dict=(self.zd, 7))

    def test_training_errors(self):
        with self.assertRaises(ValueError):
            zstd.train_dict([], 1000)
        with self.assertRaises(TypeError):
            zstd.train_dict(self.samples, 10.5)
        with self.assertRaises(ZstdError) as cm:
            zstd.train_dict([b"abc"] * 3, 1000)
        self.assertIn("sample", cm.exception.name)

    def test_finalize(self):
        raw = ZstdDict(b"".join(self.samples[:40])[-6000:], is_raw=True)
        fin = zstd.finalize_dict(raw, self.samples, 8192, 3)
        self.assertNotEqual(fin.dict_id, 0)
        self.assertLessEqual(len(fin.dict_content), 8192)
        self.assertTrue(fin.dict_content.endswith(raw.dict_content[-1000:]))
        for s in self.samples[:10]:
            frame = zstd.compress(s, zstd_dict=fin)
            self.assertEqual(zstd.get_frame_info(frame).dictionary_id, fin.dict_id)
            self.assertEqual(zstd.decompress(frame, zstd_dict=fin), s)
        with self.assertRaises(TypeError):
            zstd.finalize_dict(b"x", self.samples, 8192, 3)
        with self.assertRaises(ValueError):
            zstd.finalize_dict(raw, [], 8192, 3)


class Module(unittest.TestCase):
    def test_all(self):
        for name in zstd.__all__:
            self.assertTrue(hasattr(zstd, name), name)

    def test_type_stubs_ship_and_cover_all(self):
        import ast
        import importlib.resources
        root = importlib.resources.files("xcodec")
        self.assertTrue(root.joinpath("py.typed").is_file())
        tree = ast.parse(root.joinpath("zstd", "__init__.pyi").read_text())
        defined = set()
        for node in tree.body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                defined.add(node.name)
            elif isinstance(node, ast.AnnAssign):
                defined.add(node.target.id)
        self.assertEqual(set(zstd.__all__) - defined, set())

    def test_version(self):
        self.assertEqual(len(zstd.zstd_version_info), 3)
        self.assertEqual(".".join(map(str, zstd.zstd_version_info)), zstd.zstd_version)


if __name__ == "__main__":
    unittest.main()
