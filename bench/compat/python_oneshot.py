# SPDX-License-Identifier: BSD-2-Clause
"""One-shot python3-zstandard on small records: run by compat_bench.sh once
on the system's libzstd and once on ours.  Prints, per record size,
records per second for compress and decompress, and which libzstd was
mapped."""
import os
import sys
import time

import zstandard as zstd

level = int(sys.argv[1]) if len(sys.argv) > 1 else 3
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0.4
corpus = sys.argv[3] if len(sys.argv) > 3 else None

lib = sorted(set(l.split()[-1] for l in open("/proc/self/maps") if "libzstd" in l))
print("libzstd:", " ".join(lib), file=sys.stderr)

if corpus and os.path.exists(corpus):
    text = open(corpus, "rb").read()
else:
    words = [b"zstd ", b"frame ", b"record ", b"{\"id\": ", b"\"name\": ", b"\n", b"42, "]
    text = b"".join(words[(i * 7919) % 7] + b"%d" % (i % 977) for i in range(400000))

c = zstd.ZstdCompressor(level=level)
d = zstd.ZstdDecompressor()


def rate(fn, items):
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        for it in items:
            fn(it)
        n += len(items)
        t = time.perf_counter()
        if t >= deadline:
            return n / (t - t0)


for size in (1024, 2048, 4096, 8192, 16384):
    recs = [text[i:i + size] for i in range(0, min(len(text) - size, 256 * size), size)][:256]
    frames = [c.compress(r) for r in recs]
    cr = rate(c.compress, recs)
    dr = rate(d.decompress, frames)
    print("%d %.0f %.0f %d" % (size, cr, dr, sum(map(len, frames))))
