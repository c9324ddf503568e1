# SPDX-License-Identifier: BSD-2-Clause
"""Turns the results bench/report_run.py saved (main.json, sums.json,
calls.json, dict.json, classes.json, meta.json) into docs/performance.md
and its plots."""
import json
import math
import os
import re

import report_plots

# Issue 7's targets, against libzstd at the same level on every file.
SIZE_TARGET = 1.02
SPEED_TARGET = 0.8


def load(results, name):
    try:
        with open(os.path.join(results, name + ".json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def gbench_rows(doc):
    """name -> result: the median aggregate when there are repetitions,
    else the one run; errors kept (error_occurred, error_message)."""
    kinds = {}
    for b in doc.get("benchmarks", []):
        # Options set at registration end the name: /iterations:1,
        # /process_time, /real_time, /min_time:..., /repeats:....
        name = re.sub(r"(/(iterations|repeats|min_time|threads):[^/]*|/process_time|/real_time)+$",
                      "", b.get("run_name", b["name"]))
        kinds.setdefault(name, {})[b.get("aggregate_name", "run")] = b
    return {n: k.get("median") or k.get("mean") or k.get("run") for n, k in kinds.items()}


# ---- formatting ------------------------------------------------------------------------


def f(v, fmt="%.1f"):
    return "–" if v is None else fmt % v


def ratio(v, good_above=True, target=None):
    """A ratio; bold when it misses the target."""
    if v is None:
        return "–"
    s = "%.2f" % v
    if target is not None and ((v < target) if good_above else (v > target)):
        s = "**%s**" % s
    return s


def table(head, rows, align=None):
    align = align or ["l"] + ["r"] * (len(head) - 1)
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def kib(n):
    return "–" if not n else "{:,}".format(int(round(n / 1024.0)))


def nbytes(n):
    return "–" if n is None else "{:,}".format(int(n))


# ---- sections -----------------------------------------------------------------------------


def machine(meta):
    rows = [
        ("CPU", "%s (%s), %s logical cores%s" % (
            meta.get("cpu"), meta.get("arch"), meta.get("cores"),
            ", %s MHz" % meta["mhz"] if meta.get("mhz") else "")),
        ("caches", meta.get("caches") or "–"),
        ("system", "%s, Linux %s" % (meta.get("os") or "?", meta.get("kernel"))),
        ("compilers", "%s; %s (%s build)" % (meta.get("cc"), meta.get("cxx"),
                                             meta.get("build_type"))),
        ("xcodec", "%s, commit %s" % (meta.get("xcodec"), meta.get("commit"))),
        ("detected", "%s; tier in force: %s" % (meta.get("cpucap"), meta.get("tier"))),
        ("kernels", ", ".join("%s=%s" % kv for kv in sorted((meta.get("kernels") or {}).items()))),
        ("peers", "libzstd %s, ISA-L %s, DPDK %s (Debian packages)" % (
            meta.get("libzstd") or "not found", meta.get("isal") or "not found",
            meta.get("dpdk") or "not found")),
        ("harness", "google-benchmark %s, %d repetition(s), median" % (
            meta.get("benchmark") or "?", meta.get("repetitions") or 1)),
    ]
    return table(["", ""], rows, ["l", "l"])


def level_summary(main):
    """Per level, over every file that ran: totals and worst cases."""
    rows, mem = {}, {m["level"]: m for m in main.get("memory", [])}
    for r in main.get("zstd", []):
        if r.get("error") or not r.get("libzstd"):
            continue
        s = rows.setdefault(r["level"], {"files": 0, "raw": 0, "xc": 0, "zs": 0, "txc": 0.0,
                                         "tzs": 0.0, "dxc": 0.0, "dzs": 0.0, "worst_size": None,
                                         "worst_speed": None})
        x, z, n = r["xcodec"], r["libzstd"], r["bytes"]
        s["files"] += 1
        s["raw"] += n
        s["xc"] += x["compressed"]
        s["zs"] += z["compressed"]
        s["txc"] += n / 1e6 / x["compress_mbps"]
        s["tzs"] += n / 1e6 / z["compress_mbps"]
        s["dxc"] += n / 1e6 / x["decompress_mbps"]
        s["dzs"] += n / 1e6 / z["decompress_mbps"]
        size = x["compressed"] / float(z["compressed"])
        if s["worst_size"] is None or size > s["worst_size"][0]:
            s["worst_size"] = (size, r["input"])
        sp = r.get("compress_speedup")
        if sp is not None and (s["worst_speed"] is None or sp < s["worst_speed"][0]):
            s["worst_speed"] = (sp, r["input"])
    return rows, mem


def zstd_section(main, plots, img, rel):
    out = []
    rows, mem = level_summary(main)
    if not rows:
        errors = [r for r in main.get("zstd", []) if r.get("error")]
        out.append("No zstd results%s.\n" % (
            ": %s (level %s, %s)" % (errors[0]["error"], errors[0]["level"], errors[0]["input"])
            if errors else ""))
        return "\n".join(out)
    files = main.get("files") or {}
    out.append("Inputs: %s. Each file is compressed in one call (content size in the header, "
               "no checksum), by each library with its own defaults at the level; both decoders "
               "decode libzstd's frames, so that they do the same work (xcodec's frames are "
               "checked in both decoders first). MB/s are of uncompressed bytes; a speed ratio "
               "is libzstd's time over xcodec's (above 1: xcodec is faster), a size ratio "
               "xcodec's bytes over libzstd's (below 1: smaller). Totals add every file's bytes "
               "and times. Levels above 19 run on the files of at most 1 MiB only.\n" % (
                   "%d files of the corpus, %s bytes in all" % (len(files), nbytes(sum(
                       files.values()))) if files else "the built-in generated corpus"))
    head = ["level", "files", "ratio xcodec", "ratio libzstd", "size x/l", "worst size (file)",
            "comp MB/s xcodec", "libzstd", "speed x/l", "slowest (file)", "decomp MB/s xcodec",
            "libzstd", "speed x/l", "memory KiB xcodec", "libzstd"]
    body = []
    for lv in sorted(rows):
        s = rows[lv]
        ws, wp = s["worst_size"], s["worst_speed"]
        body.append([lv, s["files"], f(s["raw"] / s["xc"], "%.3f"), f(s["raw"] / s["zs"], "%.3f"),
                     ratio(s["xc"] / s["zs"], False, SIZE_TARGET),
                     "%s (%s)" % (ratio(ws[0], False, SIZE_TARGET), ws[1]),
                     f(s["raw"] / 1e6 / s["txc"]), f(s["raw"] / 1e6 / s["tzs"]),
                     ratio(s["tzs"] / s["txc"], True, SPEED_TARGET),
                     "%s (%s)" % (ratio(wp[0], True, SPEED_TARGET), wp[1]) if wp else "–",
                     f(s["raw"] / 1e6 / s["dxc"]), f(s["raw"] / 1e6 / s["dzs"]),
                     ratio(s["dzs"] / s["dxc"], True, 1.0),
                     kib(mem.get(lv, {}).get("xcodec_bytes")),
                     kib(mem.get(lv, {}).get("libzstd_bytes"))])
    out.append("### Summary per level\n")
    out.append("Bold: misses the target of issue 7 (size at most %.2fx libzstd's, compression "
               "speed at least %.1fx) or, for decompression, slower than libzstd. Memory: the "
               "encoder context for an input of unknown size, `xc_zstd_estimate_cctx_size()` "
               "beside `ZSTD_estimateCCtxSize()`.\n" % (SIZE_TARGET, SPEED_TARGET))
    out.append(table(head, body))
    cells = [r for r in main["zstd"] if not r.get("error") and r.get("libzstd")]
    big = [r for r in cells
           if r["xcodec"]["compressed"] > SIZE_TARGET * r["libzstd"]["compressed"]]
    slow = [r for r in cells if (r.get("compress_speedup") or 0) < SPEED_TARGET]
    failed = [r for r in main["zstd"] if r.get("error")]
    out.append("Of %d (file, level) cells: %d with a size above %.2fx libzstd's, %d with a "
               "compression speed below %.1fx%s.\n" % (
                   len(cells), len(big), SIZE_TARGET, len(slow), SPEED_TARGET,
                   "; %d failed (see the tables below)" % len(failed) if failed else ""))
    points = {"xcodec": [], "libzstd": []}
    common = max(s["files"] for s in rows.values())
    for lv, s in rows.items():
        if s["files"] == common:  # the ultra levels ran on fewer files
            points["xcodec"].append((lv, s["raw"] / 1e6 / s["txc"], 100.0 * s["xc"] / s["raw"]))
            points["libzstd"].append((lv, s["raw"] / 1e6 / s["tzs"], 100.0 * s["zs"] / s["raw"]))
    out.append(picture(report_plots.size_speed(plots, os.path.join(img, "zstd_size_speed.png"),
                                               points), rel,
                       "compressed size against compression speed per level"))
    out.append("The curve adds every file that ran at every level (the ultra levels, which "
               "ran on fewer files, are left out of it).\n")
    for lv in (3, 19):
        picked = [(r["input"], r["xcodec"]["decompress_mbps"], r["libzstd"]["decompress_mbps"])
                  for r in main["zstd"] if r["level"] == lv and not r.get("error")
                  and r.get("libzstd")]
        png = report_plots.bars(plots, "decompress_level%d" % lv,
                                os.path.join(img, "zstd_decompress_level%d.png" % lv),
                                "zstd decompression speed per file, frames of level %d" % lv,
                                "MB/s of decompressed data", picked, "libzstd")
        if picked:
            out.append(picture(png, rel, "decompression speed per file at level %d" % lv))
    out.append("### Per level and file\n")
    for lv in sorted(rows):
        body = []
        for r in main["zstd"]:
            if r["level"] != lv:
                continue
            if r.get("error"):
                body.append([r["input"], nbytes(r["bytes"]), "error: " + r["error"]] + [""] * 8)
                continue
            x, z = r["xcodec"], r["libzstd"] or {}
            body.append([r["input"], nbytes(r["bytes"]), f(x["ratio"], "%.3f"),
                         f(z.get("ratio"), "%.3f"),
                         ratio(x["compressed"] / float(z["compressed"]) if z else None, False,
                               SIZE_TARGET),
                         f(x["compress_mbps"]), f(z.get("compress_mbps")),
                         ratio(r.get("compress_speedup"), True, SPEED_TARGET),
                         f(x["decompress_mbps"]), f(z.get("decompress_mbps")),
                         ratio(r.get("decompress_speedup"), True, 1.0)])
        out.append("<details><summary>level %d</summary>\n" % lv)
        out.append(table(["file", "bytes", "ratio xcodec", "libzstd", "size x/l",
                          "comp MB/s xcodec", "libzstd", "speed x/l", "decomp MB/s xcodec",
                          "libzstd", "speed x/l"], body))
        out.append("</details>\n")
    return "\n".join(out)


def picture(png, rel, what):
    if not png:
        return "(No plot of %s: gnuplot is missing or had nothing to draw.)\n" % what
    return "![%s](%s)\n" % (what, os.path.relpath(png, rel))


def sums_section(sums, plots, img, rel):
    rows = gbench_rows(sums)
    out = []
    for family, alone, peer, counter, key, title in (
            ("crc32c_vs_isal", "crc32c", "ISA-L", "isal_GBps", "crc32c", "CRC32C"),
            ("inet_vs_dpdk", "inet", "DPDK", "dpdk_GBps", "inet", "Internet checksum")):
        sizes = {}
        for name, b in rows.items():
            parts = name.split("/")
            if len(parts) != 4 or parts[1] != "xcodec" or b.get("error_occurred"):
                continue
            n, align = int(parts[2]), parts[3]
            if parts[0] == family:
                sizes.setdefault(n, {})[align] = (b.get("xc_GBps"), b.get(counter),
                                                  b.get("ratio"))
            elif parts[0] == alone and b.get("bytes_per_second"):
                sizes.setdefault(n, {}).setdefault(align, (b["bytes_per_second"] / 1e9, None,
                                                           None))
        out.append("### %s\n" % title)
        if not sizes:
            out.append("No results.\n")
            continue
        body = []
        for n in sorted(sizes):
            a0, a1 = sizes[n].get("a0", (None,) * 3), sizes[n].get("a1", (None,) * 3)
            body.append([nbytes(n), f(a0[0], "%.2f"), f(a0[1], "%.2f"), ratio(a0[2], True, 1.0),
                         f(a1[0], "%.2f"), f(a1[1], "%.2f"), ratio(a1[2], True, 1.0)])
        out.append(table(["bytes", "xcodec GB/s", peer + " GB/s", "speed x/%s" % peer,
                          "misaligned: xcodec", peer, "speed"], body))
        picked = [(n, v["a0"][0], v["a0"][1]) for n, v in sizes.items() if "a0" in v]
        out.append(picture(report_plots.by_size(
            plots, key, os.path.join(img, "%s_by_size.png" % key),
            "%s throughput by size, xcodec and %s" % (title, peer), picked, peer), rel,
            "%s throughput by size" % title))
    return "\n".join(out)


# Issue 22's targets for the checksums through the shared library.
CALL_TARGETS = {"inet": 1.2, "crc32c": 1.2}
CALL_TARGETS_SHORT = {"inet": 1.2, "crc32c": 2.0}  # up to 64 bytes


def calls_section(calls, plots, img, rel):
    """bench/installed's results: per kernel, size and alignment, the speedup
    over the peer through the shared and through the static library."""
    if not calls or not any(calls.get(k) for k in ("shared", "static")):
        return "No results (bench/installed did not build or run).\n"
    out = []
    first = calls.get("shared") or calls.get("static")
    out.append("A program outside the library (`bench/installed`), built against this build "
               "installed, calls `xc_crc32c()` and `xc_inet_checksum()` through a function "
               "pointer the compiler cannot see through, with a length hidden from it on every "
               "call, %d calls per timed batch; one copy links the shared library, one the "
               "static library. The peers are ISA-L's `crc32_iscsi()` (a shared library too) "
               "and DPDK's `rte_raw_cksum()` inlined into its loop, `-O3 -march=native`, with "
               "a loop-invariant length: its best case. Speedup: the peer's time over "
               "xcodec's; bold where it misses issue 22's target (inet 1.2x everywhere; "
               "CRC32C 2x up to 64 bytes, 1.2x above). Kernels: crc32c %s, inet %s.\n" % (
                   first.get("sum_batch") or 32, first.get("crc32c_impl"),
                   first.get("inet_impl")))
    series = []
    for key, title in (("inet", "Internet checksum"), ("crc32c", "CRC32C")):
        peer = first.get(key + "_peer") or "peer"
        rows = {}
        for link in ("shared", "static"):
            for r in (calls.get(link) or {}).get(key, []):
                rows.setdefault(r["bytes"], {})[(link, r["align"])] = r
        if not rows:
            continue
        body = []
        for n in sorted(rows):
            target = (CALL_TARGETS_SHORT if n <= 64 else CALL_TARGETS)[key]
            cells = [nbytes(n)]
            for link, a in (("shared", 0), ("shared", 1), ("static", 0), ("static", 1)):
                r = rows[n].get((link, a), {})
                cells += [f(r.get("xcodec_gbps"), "%.2f"), ratio(r.get("speedup"), True, target)]
            r0 = rows[n].get(("shared", 0), {})
            cells.append(f(r0.get("peer_gbps"), "%.2f"))
            body.append(cells)
        out.append("### %s beside %s\n" % (title, peer))
        out.append(table(["bytes", "shared GB/s", "x/" + peer, "misaligned", "x/" + peer,
                          "static GB/s", "x/" + peer, "misaligned", "x/" + peer,
                          peer + " GB/s"], body))
        for link in ("shared", "static"):
            pts = [(n, rows[n].get((link, 0), {}).get("speedup")) for n in sorted(rows)]
            series.append(("%s, %s library" % (title, link), pts))
    inl = (calls.get("shared") or {}).get("inline") or []
    if inl:
        out.append("### xcodec_inline.h beside DPDK\n")
        out.append("`xc_inline_ipv4_checksum()` (20 bytes), `xc_inline_inet_checksum40()` and "
                   "`xc_inline_inet_checksum()` at 64 and 128 bytes, lengths the compiler knows, "
                   "compiled into the caller with DPDK's flags (`-O3 -march=native`).\n")
        out.append(table(["bytes", "align", "inline GB/s", "DPDK GB/s", "speedup"],
                         [[r["bytes"], r["align"], f(r.get("xcodec_gbps"), "%.2f"),
                           f(r.get("peer_gbps"), "%.2f"), ratio(r.get("speedup"), True, 1.2)]
                          for r in inl]))
    out.append(picture(report_plots.ratios_by_size(
        plots, "calls", os.path.join(img, "checksum_calls.png"),
        "checksums through the installed library: speedup over ISA-L / DPDK (aligned)",
        series), rel, "checksum speedups through the installed library"))
    return "\n".join(out)


def dict_section(doc):
    rows = gbench_rows(doc)
    out = []
    train = [(who, rows.get("zstd_dict_train/" + who)) for who in ("xcodec", "libzstd")]
    body = []
    for who, b in train:
        if not b:
            continue
        if b.get("error_occurred"):
            body.append([who, "error: " + b.get("error_message", "?"), "", "", "", ""])
            continue
        body.append([who, f(b.get("cpu_time"), "%.0f"), nbytes(b.get("dict_bytes")),
                     nbytes(b.get("xc_total")), nbytes(b.get("zstd_total")),
                     nbytes(b.get("raw_total"))])
    if not body:
        return "No dictionary results.\n"
    first = next((b for _, b in train if b and not b.get("error_occurred")), {})
    origin = first.get("label") or "?"
    if origin.startswith(os.sep):
        origin = "`%s`" % os.path.join(*origin.split(os.sep)[-2:])
    out.append("Records from %s: %s of them train (%s bytes), the %s others are compressed one "
               "per frame. Training time is the process CPU time of one training, in ms.\n" % (
                   origin, nbytes(first.get("samples")), nbytes(first.get("sample_bytes")),
                   nbytes(next((b["records"] for n, b in sorted(rows.items())
                                if n.startswith("zstd_dict_vs/") and b.get("records")), None))))
    out.append(table(["trainer", "training ms", "dictionary bytes",
                      "total at level 3, xcodec", "libzstd", "raw total"], body))
    ok = [b for _, b in train if b and not b.get("error_occurred")]
    if len(ok) == 2 and ok[1].get("xc_total") and ok[1].get("zstd_total"):
        out.append("Our trainer's dictionary over libzstd's, in total bytes at level 3: %s with "
                   "xcodec compressing, %s with libzstd compressing (target: at most 1.02).\n" % (
                       ratio(ok[0]["xc_total"] / ok[1]["xc_total"], False, SIZE_TARGET),
                       ratio(ok[0]["zstd_total"] / ok[1]["zstd_total"], False, SIZE_TARGET)))
    body = []
    for lv in (1, 3, 9, 19):
        for d in ("xcodec-dict", "libzstd-dict"):
            b = rows.get("zstd_dict_vs/%s/level%d" % (d, lv))
            if not b:
                continue
            if b.get("error_occurred"):
                body.append([lv, d, "error: " + b.get("error_message", "?")] + [""] * 10)
                continue
            body.append([lv, d.replace("-dict", "'s"), nbytes(b.get("xc_total")),
                         nbytes(b.get("zstd_total")), ratio(b.get("size"), False, SIZE_TARGET),
                         "%s / %s" % (nbytes(b.get("xc_nodict")), nbytes(b.get("zstd_nodict"))),
                         f(b.get("xc_c_MBps")), f(b.get("zstd_c_MBps")),
                         ratio(b.get("c_speed"), True, 1.0), f(b.get("xc_d_MBps")),
                         f(b.get("zstd_d_MBps")), ratio(b.get("d_speed"), True, 1.0),
                         f(b.get("xc_c_ns"), "%.0f")])
    out.append("Per level, both engines with the same prepared dictionary (so each row pair "
               "shows each engine with its own trainer's dictionary and with the other's). "
               "Bold: compressed total above %.2fx libzstd's, or slower than libzstd.\n"
               % SIZE_TARGET)
    out.append(table(["level", "dictionary", "total xcodec", "libzstd", "size x/l",
                      "without dictionary x / l", "comp MB/s xcodec", "libzstd", "speed x/l",
                      "decomp MB/s xcodec", "libzstd", "speed x/l", "xcodec ns/record"], body,
                     ["r", "l"] + ["r"] * 11))
    own = []
    for lv in (1, 3, 9, 19):
        x = rows.get("zstd_dict_vs/xcodec-dict/level%d" % lv, {})
        z = rows.get("zstd_dict_vs/libzstd-dict/level%d" % lv, {})
        if x.get("xc_total") and z.get("zstd_total"):
            own.append("level %d: %s" % (lv, ratio(x["xc_total"] / z["zstd_total"], False,
                                                   SIZE_TARGET)))
    if own:
        out.append("Each engine with its own trainer's dictionary, xcodec's total over "
                   "libzstd's: %s.\n" % ", ".join(own))
    return "\n".join(out)


# Issue 15's floor for every class cell: as fast as libzstd both ways, and
# no larger.
CLASS_METRICS = (
    ("size_ratio", "Size: xcodec's compressed bytes over libzstd's (below 1 is smaller)",
     False, 1.0, "%.3f"),
    ("compress_speedup", "Compression speed: xcodec over libzstd (above 1 is faster)",
     True, 1.0, "%.2f"),
    ("decompress_speedup", "Decompression speed: xcodec over libzstd, both decoding "
     "libzstd's frames (above 1 is faster)", True, 1.0, "%.2f"),
)


def workers_section(doc, plots, img, rel):
    """BM_workers: wall-clock speed by level and worker count for both
    libraries, with the ratios issue 17 sets targets for; BM_seekable: reads
    and whole decodes by frame size."""
    rows = gbench_rows(doc)
    runs = {}
    for name, b in rows.items():
        m = re.match(r"BM_workers/(xcodec|libzstd)/level(-?\d+)/w(\d+)$", name)
        if m and not b.get("error_occurred"):
            runs[(int(m.group(2)), int(m.group(3)), m.group(1))] = b
    out = []
    if not runs:
        out.append("No workers results.\n")
    else:
        when = doc.get("context", {}).get("date")
        out.append("`xcodec_bench --benchmark_filter=BM_workers` (bench/bench_zstd_workers.cc): "
                   "silesia's first 64 MiB (or the generated corpus), one-shot, wall-clock, both "
                   "libraries in the same run%s. Workers 0 is the serial path.\n"
                   % (" (run of %s)" % when if when else ""))
        body, plot = [], []
        for lv, w in sorted({(k[0], k[1]) for k in runs}):
            x, z = runs.get((lv, w, "xcodec"), {}), runs.get((lv, w, "libzstd"), {})
            xs, zs = x.get("MBps"), z.get("MBps")
            body.append([lv, w, f(xs), f(zs), ratio(xs / zs if xs and zs else None, True,
                                                    1.1 if w == 2 else None),
                         f(x.get("csize") / z["csize"] if x.get("csize") and z.get("csize")
                           else None, "%.4f"),
                         f(x.get("cpu_per_byte_ns"), "%.2f"), f(z.get("cpu_per_byte_ns"), "%.2f")])
            plot.append(("L%d w%d" % (lv, w), xs, zs))
        out.append(table(["level", "workers", "xcodec MB/s", "libzstd MB/s", "speed x/l",
                          "size x/l", "xcodec CPU ns/B", "libzstd CPU ns/B"], body))
        lines = []
        for lv in sorted({k[0] for k in runs}):
            def mb(w, who):
                return runs.get((lv, w, who), {}).get("MBps")
            x0, x1, x2, z1, z2 = mb(0, "xcodec"), mb(1, "xcodec"), mb(2, "xcodec"), \
                mb(1, "libzstd"), mb(2, "libzstd")
            if x1 and x2 and z1 and z2:
                lines.append("level %d: 2 workers over 1, xcodec %s, libzstd %.2fx; over the "
                             "serial path %s" % (lv, ratio(x2 / x1, True, 1.85 if lv >= 3 else None),
                                                 z2 / z1, f(x2 / x0 if x0 else None, "%.2fx")))
        if lines:
            out.append("".join("- %s\n" % l for l in lines))
        out.append(picture(report_plots.bars(
            plots, "workers", os.path.join(img, "workers.png"),
            "Speed by level and worker count", "MB/s", plot, "libzstd"), rel,
            "speed against workers, both libraries"))
    seek = {}
    for name, b in rows.items():
        m = re.match(r"BM_seekable_(read4k|whole)/(xcodec|libzstd)/f(\d+)K(?:/w(\d+))?$", name)
        if m and not b.get("error_occurred"):
            seek.setdefault(int(m.group(3)), {})[(m.group(1), m.group(2), m.group(4))] = b
    if seek:
        body = []
        for fk in sorted(seek):
            c = seek[fk]
            rd = c.get(("read4k", "xcodec", None), {})
            w1 = c.get(("whole", "xcodec", "1"), {}).get("MBps")
            w2 = c.get(("whole", "xcodec", "2"), {}).get("MBps")
            zl = c.get(("whole", "libzstd", None), {}).get("MBps")
            ips = rd.get("items_per_second")
            body.append(["%d KiB" % fk, f(ips, "%.0f"), f(1e6 / ips if ips else None, "%.0f"),
                         f(rd.get("overhead_pct"), "%.2f%%"), f(w1), f(w2),
                         ratio(w2 / w1 if w1 and w2 else None, True, 1.85),
                         ratio(w1 / zl if w1 and zl else None, True, 1.0)])
        out.append("Seekable files (bench/bench_zstd_seekable.cc): random 4 KiB reads, the size "
                   "over one frame, and whole decodes on 1 and 2 workers beside libzstd decoding "
                   "the same file as plain frames.\n")
        out.append(table(["frame size", "reads/s", "us a read", "size overhead",
                          "whole 1 worker MB/s", "2 workers MB/s", "2w/1w", "1w/libzstd"], body))
    return "\n".join(out)


def class_tables(cells, levels, title):
    """The three metric tables of one group of cells (rows: class and
    input; columns: levels), each ending with the worst cell per column."""
    keys = []
    for c in cells:
        k = (c["class"], c["input"])
        if k not in keys:
            keys.append(k)
    at = {(c["class"], c["input"], c["level"]): c for c in cells}
    out = []
    for field, what, good_above, target, fmt in CLASS_METRICS:
        out.append("**%s — %s**\n" % (title, what))
        rows = []
        for cls, inp in keys:
            row = ["`%s`" % cls, inp]
            for lv in levels:
                c = at.get((cls, inp, lv))
                v = c.get(field) if c else None
                cell = "–" if v is None else fmt % v
                # Judged as printed: 0.996 shows as 1.00 and is not bold.
                if v is not None and ((float(cell) < target) if good_above
                                      else (float(cell) > target)):
                    cell = "**%s**" % cell
                row.append(cell)
            rows.append(row)
        worst = ["worst", ""]
        for lv in levels:
            col = [at[(k[0], k[1], lv)] for k in keys
                   if (k[0], k[1], lv) in at and at[(k[0], k[1], lv)].get(field) is not None]
            if not col:
                worst.append("–")
                continue
            pick = (min if good_above else max)(col, key=lambda c: c[field])
            worst.append((fmt % pick[field]) + " " + pick["class"] + " " + pick["input"])
        rows.append(["**%s**" % worst[0], ""] + worst[2:])
        out.append(table(["class", "input"] + ["%d" % lv for lv in levels], rows,
                         ["l", "l"] + ["r"] * len(levels)))
    return "\n".join(out)


def classes_section(doc):
    cells = [c for c in doc.get("classes", []) if not c.get("error") and c.get("libzstd")]
    if not cells:
        return ("No class results: `bench/report` (or `bench/report --only classes`) makes "
                "them.\n")
    levels = sorted({c["level"] for c in cells})
    ver = doc.get("libzstd") or "?"
    if doc.get("libzstd_path"):
        ver += " (`XC_BENCH_LIBZSTD=%s`)" % doc["libzstd_path"]
    out = ["`xcodec bench --classes`: the generated corpus of `programs/corpus_gen.h` "
           "(seeded, the same bytes on every platform), beside libzstd %s in the same run. "
           "Each class as one input (1 MiB; the mixed class 4 MiB, for its repeats more than "
           "1 MiB back), then as about 1 MiB of small records, each one frame compressed "
           "one-shot with a reused context (`NxSIZE`), and the same records with a 16 KiB "
           "dictionary trained by `xc_zstd_train_dictionary()` on other records of the class, "
           "the same dictionary bytes given to both libraries (`+dict`); `file:` rows are the "
           "shared corpus files, when present. Every cell is the %s rounds, timed in thread "
           "CPU time with the engines taking turns; **bold** cells miss issue 15's floor (size "
           "above 1.00, a speed below 1.00).\n" % (ver, doc.get("classes_rounds", "median of the"))]
    # The worst cells and the geometric means, from the cells themselves (a
    # run cut short has no summary of its own).
    def name(c):
        return "%s %s level %d" % (c["class"], c["input"], c["level"])

    def geomean(key):
        return math.exp(sum(math.log(c[key]) for c in cells) / len(cells))

    ws = max(cells, key=lambda c: c["size_ratio"])
    wc = min(cells, key=lambda c: c["compress_speedup"])
    wd = min(cells, key=lambda c: c["decompress_speedup"])
    out.append("Worst cells over all %d: size %.3f (%s); compression %.2fx (%s); decompression "
               "%.2fx (%s). Geometric means: compression %.2fx, decompression %.2fx.\n" % (
                   len(cells), ws["size_ratio"], name(ws), wc["compress_speedup"], name(wc),
                   wd["decompress_speedup"], name(wd), geomean("compress_speedup"),
                   geomean("decompress_speedup")))
    whole = [c for c in cells if c["mode"] == "whole"]
    small = [c for c in cells if c["mode"] != "whole"]
    if whole:
        out.append("### Whole inputs\n")
        out.append(class_tables(whole, levels, "Whole inputs"))
    if small:
        out.append("### Small records, one frame each\n")
        out.append(class_tables(small, levels, "Small records"))
    bad = [c for c in doc.get("classes", []) if c.get("error")]
    if bad:
        out.append("Failed cells: " + "; ".join("%s %s level %d: %s" % (
            c["class"], c["input"], c["level"], c["error"]) for c in bad) + ".\n")
    return "\n".join(out)


CLASSES_HEADING = "## zstd by class of input\n"


def splice_classes(results, out_path):
    """Puts the class section of results/classes.json into an existing
    report in place of its class section (or before "## Running it"),
    keeping every other section as it is (bench/report --only classes)."""
    with open(out_path) as fh:
        text = fh.read()
    section = CLASSES_HEADING + "\n" + classes_section(load(results, "classes")) + "\n"
    tail = "## Running it\n"
    if CLASSES_HEADING in text:
        a = text.index(CLASSES_HEADING)
        b = text.find("\n## ", a + len(CLASSES_HEADING))
        text = text[:a] + section + (text[b + 1:] if b >= 0 else "")
    elif tail in text:
        a = text.index(tail)
        text = text[:a] + section + text[a:]
    else:
        text += "\n" + section
    with open(out_path, "w") as fh:
        fh.write(text)


def render(results, out_path, img):
    main, sums, dct, meta = (load(results, n) for n in ("main", "sums", "dict", "meta"))
    calls = load(results, "calls")
    rel = os.path.dirname(os.path.abspath(out_path))
    img = os.path.abspath(img)
    plots = os.path.join(results, "plots")
    os.makedirs(plots, exist_ok=True)
    os.makedirs(img, exist_ok=True)
    levels = ", ".join(str(m["level"]) for m in main.get("memory", [])) or meta.get("levels")
    parts = ["# Performance\n",
             "<!-- Generated by bench/report; edits here are overwritten. -->\n"]
    if meta.get("quick"):
        parts.append("> **Smoke run** (`bench/report --quick`): tiny inputs, one short repetition "
                     "on a shared machine. It shows the layout and that every part runs; its "
                     "numbers say nothing about speed. Run `bench/report` on a quiet machine for "
                     "the real figures.\n")
    parts.append("Measured on %s by `bench/report%s` (levels: %s; corpus files cut to %s). "
                 "Every speed is taken beside its peer in the same run, alternating, so read "
                 "the ratios first.\n" % (meta.get("date"), " --quick" if meta.get("quick") else "",
                                          levels, meta.get("cut")))
    parts.append("## Machine\n")
    parts.append(machine(meta))
    parts.append("## zstd: xcodec beside libzstd, level by level\n")
    parts.append(zstd_section(main, plots, img, rel))
    parts.append("## Checksums\n")
    parts.append("xcodec's dispatched functions beside ISA-L's `crc32_iscsi()` and DPDK's "
                 "`rte_raw_cksum()` (compiled `-O3 -march=native` and inlined: its best case), "
                 "timed in alternating batches (xcodec_bench's `crc32c_vs_isal` and "
                 "`inet_vs_dpdk` families), on a buffer aligned to 64 bytes and one misaligned "
                 "by 1.\n")
    parts.append(sums_section(sums, plots, img, rel))
    parts.append("## Checksums as applications call them\n")
    parts.append(calls_section(calls, plots, img, rel))
    parts.append("## Dictionaries: small records\n")
    parts.append(dict_section(dct))
    parts.append("## Workers and seekable files\n")
    parts.append(workers_section(load(results, "workers"), plots, img, rel))
    parts.append(CLASSES_HEADING)
    parts.append(classes_section(load(results, "classes")))
    parts.append("## Running it\n")
    parts.append("```sh\nbench/report           # about 40 to 60 minutes; --levels, --max-mb, "
                 "--repetitions,\n                       # --classes-levels, --classes-rounds\n"
                 "bench/report --only classes   # the class tables alone, the rest kept\n"
                 "bench/report --quick   # smoke run, seconds\n```\n\n"
                 "The raw results stay in `BUILD/report/*.json`; "
                 "`python3 bench/report_run.py --render-only BUILD/report` redraws this page "
                 "from them.\n")
    with open(out_path, "w") as fh:
        fh.write("\n".join(parts))
