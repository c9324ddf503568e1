#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Table of zstd decompression speed ratios, xcodec over libzstd, from the
JSON output of xcodec_bench (--benchmark_format=json or --benchmark_out).

    xcodec_bench --benchmark_filter=zstd_decode_vs --benchmark_repetitions=3 \\
        --benchmark_report_aggregates_only=true --benchmark_format=json > z.json
    python3 bench/ratios.py z.json

Ratios come from the zstd_decode_vs_libzstd family when present (its ratio
counter is measured in alternating batches, the steadiest figure on a busy
machine), otherwise from pairs zstd_decode/xcodec/... and
zstd_decode/libzstd/... (bytes_per_second).  With repetitions, the median
aggregate is used.  Above 1.00 xcodec is faster.  Cells below 0.90 are
marked '*', below 0.80 '!'.
"""
import json
import math
import re
import sys


def load(path):
    with open(path) if path != "-" else sys.stdin as f:
        return json.load(f)["benchmarks"]


def pick(runs):
    """Prefer the median aggregate, then the mean, then the last plain run."""
    by_kind = {}
    for r in runs:
        by_kind[r.get("aggregate_name", "")] = r
    for kind in ("median", "mean", ""):
        if kind in by_kind:
            return by_kind[kind]
    return runs[-1]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    groups = {}
    for b in load(sys.argv[1]):
        if b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        groups.setdefault(name, []).append(b)

    ratio = {}  # (file, level) -> ratio
    sizes = {}
    vs = re.compile(r"^zstd_decode_vs_libzstd/level(-?\d+)/(.+)$")
    one = re.compile(r"^zstd_decode/(xcodec|libzstd)/level(-?\d+)/(.+)$")
    speed = {}
    for name, runs in groups.items():
        r = pick(runs)
        m = vs.match(name)
        if m and "ratio" in r:
            key = (m.group(2), int(m.group(1)))
            ratio[key] = r["ratio"]
            sizes[m.group(2)] = r.get("raw_bytes", 0)
            speed[key] = (r.get("xc_MBps", 0), r.get("zstd_MBps", 0))
            continue
        m = one.match(name)
        if m and "bytes_per_second" in r:
            key = (m.group(3), int(m.group(2)))
            speed.setdefault(("pair",) + key, {})[m.group(1)] = r["bytes_per_second"]
            sizes.setdefault(m.group(3), r.get("raw_bytes", 0))
    for key, engines in list(speed.items()):
        if key[0] == "pair" and key[1:] not in ratio and len(engines) == 2:
            ratio[key[1:]] = engines["xcodec"] / engines["libzstd"]
            speed[key[1:]] = (engines["xcodec"] / 1e6, engines["libzstd"] / 1e6)
    if not ratio:
        sys.exit("no zstd_decode results in " + sys.argv[1])

    files = sorted({f for f, _ in ratio}, key=lambda f: (sizes.get(f, 0), f))
    levels = sorted({lv for _, lv in ratio})
    width = max(len(f) for f in files) + 2
    print("xcodec / libzstd decompression speed (above 1.00: xcodec faster)")
    print("file".ljust(width) + "size".rjust(10) + "".join(f"  level{lv:<3}" for lv in levels))
    for f in files:
        cells = []
        for lv in levels:
            x = ratio.get((f, lv))
            if x is None:
                cells.append("         -")
            else:
                mark = "!" if x < 0.8 else "*" if x < 0.9 else " "
                cells.append(f"  {x:6.2f}{mark}  ")
        size = sizes.get(f, 0)
        print(f.ljust(width) + f"{int(size):>10}" + "".join(cells))
    vals = list(ratio.values())
    geo = math.exp(sum(math.log(v) for v in vals) / len(vals))
    worst = min(ratio, key=ratio.get)
    print(f"\ngeometric mean {geo:.3f}, min {ratio[worst]:.3f} ({worst[0]} level {worst[1]}), "
          f"{len(vals)} cells, {sum(v < 0.9 for v in vals)} below 0.90, "
          f"{sum(v < 0.8 for v in vals)} below 0.80")
    for lv in levels:
        row = [ratio[(f, lv)] for f in files if (f, lv) in ratio]
        g = math.exp(sum(math.log(v) for v in row) / len(row))
        xc = [speed[(f, lv)][0] for f in files if (f, lv) in speed]
        zs = [speed[(f, lv)][1] for f in files if (f, lv) in speed]
        print(f"level {lv:>2}: geometric mean {g:.3f}, mean MB/s xcodec {sum(xc)/len(xc):7.1f}"
              f", libzstd {sum(zs)/len(zs):7.1f}")


if __name__ == "__main__":
    main()
