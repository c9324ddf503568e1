#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""xcodec.zstd against python-zstandard (and compression.zstd on Python
3.14+), in the same run: one-shot compression and decompression of records
of 1 to 16 KiB and of 1 MiB, and streaming a 64 MB file through ZstdFile.

    python3 bindings/python/bench/bench_zstd.py [--quick] [--level N] [--data DIR]

Ratios are peer time / xcodec time (above 1: xcodec is faster).  The data
are the Silesia files of ../shared/data/corpus/silesia when they are there
(XC_TEST_DATA, or --data, names another directory), else generated text.
Each figure is the best of several rounds; on a machine shared with other
work they are indicative only.
"""

import argparse
import bz2
import io
import os
import sys
import tempfile
import time

import xcodec.zstd as xzstd

try:
    import zstandard
except ImportError:
    sys.exit("bench_zstd: python3-zstandard is needed (Debian: python3-zstandard)")
try:
    from compression import zstd as pyzstd  # Python 3.14+
except ImportError:
    pyzstd = None

HERE = os.path.dirname(os.path.abspath(__file__))


def load_corpus(directory, want):
    """want bytes of Silesia (files concatenated and repeated), or text."""
    out = bytearray()
    if directory and os.path.isdir(directory):
        for name in sorted(os.listdir(directory)):
            if name.endswith(".bz2"):
                with open(os.path.join(directory, name), "rb") as f:
                    out += bz2.decompress(f.read())
            if len(out) >= want:
                break
    if not out:
        words = [b"%x" % (i * 2654435761 % 99991) for i in range(2000)]
        i = 0
        while len(out) < min(want, 8 << 20):
            out += words[(i * 7919) % 2000] + (b"\n" if i % 11 == 0 else b" ")
            i += 1
    while len(out) < want:
        out += out[:want - len(out)]
    return bytes(out[:want])


def best_of(fns, rounds):
    """The best time of each engine's function over `rounds` rounds.  Each
    round runs every engine once, one after another, so that a change of
    load on a shared machine falls on all of them alike."""
    times = {name: float("inf") for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name] = min(times[name], time.perf_counter() - t0)
    return times


def records_case(data, size, count):
    step = max(size, len(data) // count)
    return [data[i:i + size] for i in range(0, step * count, step)][:count]


def run_records(corpus, level, rounds, quick):
    rows = []
    zc = zstandard.ZstdCompressor(level=level)
    zd = zstandard.ZstdDecompressor()
    sizes = (1024, 4096, 16384, 1 << 20)
    for size in sizes:
        count = 8 if size >= 1 << 20 else (100 if quick else 300)
        recs = records_case(corpus, size, count)
        ours_frames = [xzstd.compress(r, level) for r in recs]
        their_frames = [zc.compress(r) for r in recs]
        assert [xzstd.decompress(f) for f in their_frames] == recs
        assert [zd.decompress(f) for f in ours_frames] == recs
        engines = {
            "xcodec": (lambda: [xzstd.compress(r, level) for r in recs],
                       lambda: [xzstd.decompress(f) for f in ours_frames]),
            "zstandard": (lambda: [zc.compress(r) for r in recs],
                          lambda: [zd.decompress(f) for f in their_frames]),
        }
        if pyzstd is not None:
            pf = [pyzstd.compress(r, level) for r in recs]
            engines["compression.zstd"] = (lambda: [pyzstd.compress(r, level) for r in recs],
                                           lambda: [pyzstd.decompress(f) for f in pf])
        total = size * len(recs)
        for op, k in (("compress", 0), ("decompress", 1)):
            times = best_of({name: fns[k] for name, fns in engines.items()}, rounds)
            rows.append((f"{op} {size // 1024} KiB" if size < 1 << 20 else f"{op} 1 MiB",
                         total, times))
        ratio = sum(map(len, ours_frames)) / sum(map(len, their_frames))
        rows.append((f"  (frame size xcodec/zstandard at {size // 1024} KiB: {ratio:.3f})",
                     0, {}))
    return rows


def run_file(corpus, level, rounds, directory):
    rows = []
    path_x = os.path.join(directory, "x.zst")
    path_z = os.path.join(directory, "z.zst")
    chunk = 1 << 20
    view = memoryview(corpus)

    def write_x():
        with xzstd.ZstdFile(path_x, "w", level=level) as f:
            for i in range(0, len(corpus), chunk):
                f.write(view[i:i + chunk])

    def write_z():
        with open(path_z, "wb") as raw:
            with zstandard.ZstdCompressor(level=level).stream_writer(raw, closefd=False) as w:
                for i in range(0, len(corpus), chunk):
                    w.write(view[i:i + chunk])

    read_size = 128 * 1024

    def read_x():
        n = 0
        with xzstd.ZstdFile(path_x) as f:
            while data := f.read(read_size):
                n += len(data)
        assert n == len(corpus)

    def read_z():
        n = 0
        with open(path_z, "rb") as raw:
            with zstandard.ZstdDecompressor().stream_reader(raw) as r:
                while data := r.read(read_size):
                    n += len(data)
        assert n == len(corpus)

    engines = {"xcodec": (write_x, read_x), "zstandard": (write_z, read_z)}
    if pyzstd is not None:
        path_p = os.path.join(directory, "p.zst")

        def write_p():
            with pyzstd.ZstdFile(path_p, "w", level=level) as f:
                for i in range(0, len(corpus), chunk):
                    f.write(view[i:i + chunk])

        def read_p():
            with pyzstd.ZstdFile(path_p) as f:
                while f.read(read_size):
                    pass

        engines["compression.zstd"] = (write_p, read_p)
    for op, k in (("ZstdFile write", 0), ("ZstdFile read", 1)):
        times = best_of({name: fns[k] for name, fns in engines.items()}, rounds)
        rows.append((f"{op} {len(corpus) >> 20} MiB", len(corpus), times))
    with open(path_x, "rb") as f:
        assert zstandard.ZstdDecompressor().stream_reader(f).read() == corpus
    rows.append((f"  (file size xcodec/zstandard: "
                 f"{os.path.getsize(path_x) / os.path.getsize(path_z):.3f})", 0, {}))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="fewer rounds, a 16 MB file")
    ap.add_argument("--data", default=None, help="directory of Silesia .bz2 files")
    args = ap.parse_args()
    shared = os.environ.get("XC_TEST_DATA") or os.path.join(HERE, "..", "..", "..", "..",
                                                            "shared", "data")
    directory = args.data or os.path.join(shared, "corpus", "silesia")
    file_size = (16 if args.quick else 64) << 20
    corpus = load_corpus(directory, file_size)
    rounds = 3 if args.quick else 7
    print(f"xcodec {xzstd.zstd_version} ({__import__('xcodec').cpucap()}), "
          f"python-zstandard {zstandard.__version__} ({zstandard.backend}, libzstd "
          f"{'.'.join(map(str, zstandard.ZSTD_VERSION))}), level {args.level}")
    print("indicative: best of %d rounds, on a machine other work may share" % rounds)
    rows = run_records(corpus, args.level, rounds, args.quick)
    with tempfile.TemporaryDirectory() as tmp:
        rows += run_file(corpus, args.level, max(2, rounds // 3), tmp)
    peers = ["zstandard"] + (["compression.zstd"] if pyzstd is not None else [])
    head = f"{'case':<26}{'xcodec MB/s':>12}" + "".join(f"{p + ' MB/s':>18}{'ratio':>7}"
                                                      for p in peers)
    print(head)
    for name, total, times in rows:
        if not times:
            print(name)
            continue
        line = f"{name:<26}{total / times['xcodec'] / 1e6:>12.1f}"
        for p in peers:
            line += f"{total / times[p] / 1e6:>18.1f}{times[p] / times['xcodec']:>7.2f}"
        print(line)


if __name__ == "__main__":
    main()
