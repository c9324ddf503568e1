# SPDX-License-Identifier: BSD-2-Clause
"""Round trips with Debian's python3-zstandard (libzstd) both ways, every
kind of input buffer, and threads compressing at once."""

import array
import mmap
import os
import random
import tempfile
import threading
import unittest

import xcodec.zstd as zstd
from xcodec.zstd import CompressionParameter, ZstdCompressor, ZstdDecompressor

try:
    import zstandard
except ImportError:  # the suite runs without it, these tests then skip
    zstandard = None


def corpus(n, seed):
    rng = random.Random(seed)
    words = [bytes(rng.choice(b"etaoinshrdlu") for _ in range(rng.randint(1, 8)))
             for _ in range(500)]
    out = bytearray()
    while len(out) < n:
        out += rng.choice(words) + rng.choice([b" ", b"\n", b", "])
    return bytes(out[:n])


SIZES = (0, 1, 100, 1024, 16 * 1024, 128 * 1024 + 1, 1 << 20)


@unittest.skipIf(zstandard is None, "python3-zstandard is not installed")
class AgainstLibzstd(unittest.TestCase):
    def test_ours_to_libzstd(self):
        d = zstandard.ZstdDecompressor()
        for n in SIZES:
            for level in (-3, 1, 3, 12, 19):
                data = corpus(n, n ^ level)
                frame = zstd.compress(data, level)
                self.assertEqual(d.decompress(frame), data, (n, level))

    def test_libzstd_to_ours(self):
        for n in SIZES:
            for level in (-3, 1, 3, 12, 19):
                data = corpus(n, n + level)
                frame = zstandard.ZstdCompressor(level=level).compress(data)
                self.assertEqual(zstd.decompress(frame), data, (n, level))

    def test_streams_both_ways(self):
        data = corpus(3 << 20, 9)
        # libzstd's stream (no content size, checksum) into ours, in pieces.
        frame = zstandard.ZstdCompressor(level=5, write_checksum=True).compressobj()
        stream = frame.compress(data) + frame.flush()
        self.assertEqual(zstd.decompress(stream), data)
        d = ZstdDecompressor()
        out = b"".join(d.decompress(stream[i:i + 65536]) for i in range(0, len(stream), 65536))
        self.assertEqual(out, data)
        self.assertTrue(d.eof)
        # Ours in pieces, with block flushes, into libzstd's streaming decoder.
        c = ZstdCompressor(options={CompressionParameter.checksum_flag: 1})
        parts = [c.compress(data[i:i + 100_000], ZstdCompressor.FLUSH_BLOCK if i % 3 else 0)
                 for i in range(0, len(data), 100_000)]
        ours = b"".join(parts) + c.flush()
        self.assertEqual(zstandard.ZstdDecompressor().decompressobj().decompress(ours), data)

    def test_dictionaries_both_ways(self):
        samples = [b'{"user": %d, "kind": "event", "tags": ["a", "b"], "n": %d}' % (i, i * 7)
                   for i in range(1000)]
        ours = zstd.train_dict(samples, 4096)
        theirs = zstandard.train_dictionary(4096, samples)
        sample = samples[123]
        for content in (ours.dict_content, theirs.as_bytes()):
            zd = zstd.ZstdDict(content)
            zs = zstandard.ZstdCompressionDict(content)
            f1 = zstd.compress(sample, zstd_dict=zd)
            self.assertEqual(zstandard.ZstdDecompressor(dict_data=zs).decompress(f1), sample)
            f2 = zstandard.ZstdCompressor(dict_data=zs).compress(sample)
            self.assertEqual(zstd.decompress(f2, zstd_dict=zd), sample)


class Buffers(unittest.TestCase):
    DATA = corpus(50_000, 1)

    def kinds(self, data):
        yield bytes(data)
        yield bytearray(data)
        yield memoryview(data)
        yield memoryview(b"xx" + data + b"yy")[2:-2]
        yield array.array("B", data)
        if len(data) % 4 == 0:
            yield array.array("I", data)

    def test_every_kind_in(self):
        frame = zstd.compress(self.DATA)
        for buf in self.kinds(self.DATA):
            self.assertEqual(zstd.compress(buf), frame, type(buf))
            self.assertEqual(ZstdCompressor().compress(buf, ZstdCompressor.FLUSH_FRAME), frame)
        for buf in self.kinds(frame + b"\0" * (-len(frame) % 4)):
            d = ZstdDecompressor()
            self.assertEqual(d.decompress(buf), self.DATA, type(buf))

    def test_mmap(self):
        frame = zstd.compress(self.DATA)
        with tempfile.TemporaryFile() as f:
            f.write(frame)
            f.flush()
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                self.assertEqual(zstd.decompress(m), self.DATA)
                self.assertEqual(ZstdDecompressor().decompress(m), self.DATA)
                self.assertEqual(zstd.get_frame_size(m), len(frame))
                self.assertEqual(zstd.compress(m), zstd.compress(frame))

    def test_not_contiguous_or_not_buffers(self):
        with self.assertRaises((TypeError, BufferError)):
            zstd.compress(memoryview(self.DATA)[::2])
        with self.assertRaises(TypeError):
            zstd.compress("text is not bytes")
        with self.assertRaises(TypeError):
            zstd.decompress(12345)

    def test_bytearray_is_read_in_place(self):
        # While the library reads a bytearray it cannot be resized (the
        # buffer export pins it); after the call it can.
        buf = bytearray(self.DATA)
        zstd.compress(buf)
        buf += b"more"
        self.assertEqual(len(buf), len(self.DATA) + 4)


class Threads(unittest.TestCase):
    def test_separate_compressors_at_once(self):
        data = [corpus(1 << 20, i) for i in range(4)]
        results = [None] * 4
        errors = []

        def work(i):
            try:
                c = ZstdCompressor(level=3)
                frames = [c.compress(data[i], ZstdCompressor.FLUSH_FRAME) for _ in range(3)]
                stream = ZstdCompressor(level=1)
                s = b"".join(stream.compress(data[i][j:j + 65536])
                             for j in range(0, len(data[i]), 65536)) + stream.flush()
                oneshot = zstd.compress(data[i], 2)
                results[i] = (frames, s, oneshot)
            except Exception as e:  # reported by the main thread
                errors.append(e)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        for i, (frames, s, oneshot) in enumerate(results):
            for f in frames:
                self.assertEqual(zstd.decompress(f), data[i])
            self.assertEqual(frames[0], frames[1])
            self.assertEqual(zstd.decompress(s), data[i])
            self.assertEqual(zstd.decompress(oneshot), data[i])

    def test_one_compressor_shared_is_serialised(self):
        # Not a recommended use, but it must not corrupt anything: each
        # call holds the object's lock.
        c = ZstdCompressor()
        data = corpus(200_000, 3)
        frames = []

        def work():
            for _ in range(5):
                frames.append(c.compress(data, ZstdCompressor.FLUSH_FRAME))

        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(frames), 15)
        for f in frames:
            self.assertEqual(zstd.decompress(f), data)

    def test_decompressing_threads(self):
        data = corpus(2 << 20, 5)
        frame = zstd.compress(data)
        ok = []

        def work():
            ok.append(all(zstd.decompress(frame) == data for _ in range(3)))

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(ok, [True] * 4)


if __name__ == "__main__":
    unittest.main()
