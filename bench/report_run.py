#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Runs the benchmarks of the report and writes docs/performance.md.

bench/report builds first and then calls this; it can also be run alone on
a build that has the xcodec command and xcodec_bench:

    python3 bench/report_run.py [--quick] [--build DIR] [--levels LIST]
        [--max-mb N] [--repetitions N] [--out FILE] [--img DIR]
    python3 bench/report_run.py --render-only DIR   (tables and plots again,
        from the results a run saved in DIR)

What runs, in this order (the results go to BUILD/report/*.json):
  main.json  `xcodec bench --json --levels LIST FILES`: the main job on a
             selection of the corpus (the one bench/bench_corpus.h names),
             each file cut to --max-mb: per level and file, both encoders'
             ratio and speed, both decoders' speed on libzstd's frames, and
             the encoder memory per level.
  sums.json  xcodec_bench's crc32c_vs_isal and inet_vs_dpdk families for
             xcodec's dispatched functions, aligned and misaligned.
  calls.json bench/installed: the build installed into BUILD/report/prefix,
             the checksums called from a program outside the library that
             links the installed shared library, then the static one
             (programs/bench_sums.c), beside ISA-L and DPDK.
  dict.json  xcodec_bench's zstd_dict families (bench/bench_zstd_dict.cc).
  workers.json xcodec_bench's BM_workers and BM_seekable families
             (bench/bench_zstd_workers.cc, bench_zstd_seekable.cc), one run.
  classes.json `xcodec bench --classes --json`: the generated corpus by
             class (programs/corpus_gen.h), whole, as many small records and
             with a dictionary, at --classes-levels, beside the shared
             files; medians of --classes-rounds in thread CPU time.
             XC_BENCH_LIBZSTD in the environment names another libzstd.
  meta.json  the machine: CPU, cores, kernel, compilers, library versions.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

# Files of the quick run, when the corpus has them, each cut to 32 KiB.
QUICK_FILES = ("alice29.txt", "geo.protodata", "kennedy.xls")
QUICK_BYTES = 32 << 10


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="bench/report",
        description="Run the benchmarks and write docs/performance.md with plots.")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: tiny inputs, one repetition, a few seconds")
    p.add_argument("--build", default=os.path.join(ROOT, "build", "release"),
                   help="build directory with programs/xcodec and bench/xcodec_bench "
                        "(default build/release)")
    p.add_argument("--levels", default="full",
                   help="zstd levels for the main job: full (default: -5 to 22, see "
                        "`xcodec bench --help`), default, or a list like 1,3,19")
    p.add_argument("--max-mb", type=float, default=4,
                   help="cut each corpus file to this many MiB (default 4)")
    p.add_argument("--repetitions", type=int, default=3,
                   help="google-benchmark repetitions, median reported (default 3)")
    p.add_argument("--data", default=os.environ.get("XC_BENCH_DATA") or
                   os.path.join(os.path.dirname(ROOT), "shared", "data"),
                   help="the shared data folder with corpus/ (default ../shared/data)")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"),
                   help="the report to write (default docs/performance.md)")
    p.add_argument("--img", default=os.path.join(ROOT, "docs", "img"),
                   help="where the PNG plots go (default docs/img)")
    p.add_argument("--classes-levels", default="-7,-1,1,3,5,9,12,19",
                   help="zstd levels of the class tables (default -7,-1,1,3,5,9,12,19)")
    p.add_argument("--classes-rounds", type=int, default=5,
                   help="rounds per cell of the class tables, median reported (default 5)")
    p.add_argument("--only", choices=["classes"],
                   help="run (or with --render-only, render) only the class tables and put "
                        "them into the existing report, whose other sections stay")
    p.add_argument("--render-only", metavar="DIR",
                   help="do not run anything: render the results saved in DIR")
    p.add_argument("--check-args", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.repetitions < 1 or args.max_mb <= 0:
        p.error("--repetitions and --max-mb must be positive")
    if not re.fullmatch(r"full|default|-?\d+(,-?\d+)*", args.levels):
        p.error("--levels: full, default, or levels separated by commas")
    if not re.fullmatch(r"-?\d+(,-?\d+)*", args.classes_levels):
        p.error("--classes-levels: levels separated by commas")
    if not 1 <= args.classes_rounds <= 64:
        p.error("--classes-rounds: 1 to 64")
    return args


def say(msg):
    print("report: " + msg, file=sys.stderr, flush=True)


# ---- inputs -----------------------------------------------------------------------


def corpus_selection():
    """The (set, file) selection of bench/bench_corpus.h, read from its
    kSelection table so that both benchmarks keep one list."""
    with open(os.path.join(HERE, "bench_corpus.h")) as f:
        text = f.read()
    block = re.search(r"kSelection\s*=\s*\{(.*?)\n\};", text, re.S)
    if not block:
        sys.exit("report: cannot find kSelection in bench/bench_corpus.h")
    out = []
    for m in re.finditer(r'\{"([^"]+)",\s*\{([^}]*)\}\}', block.group(1)):
        out += [(m.group(1), name) for name in re.findall(r'"([^"]+)"', m.group(2))]
    return out


def read_cut(path, limit):
    if path.endswith(".bz2"):
        r = subprocess.run(["bzip2", "-dc", path], stdout=subprocess.PIPE, check=True)
        return r.stdout[:limit]
    with open(path, "rb") as f:
        return f.read(limit)


def prepare_inputs(args, where):
    """Writes the main job's inputs into where/ and returns their paths:
    the selection, Silesia unpacked, json-records concatenated; [] when the
    corpus is missing (xcodec bench then uses its built-in corpus)."""
    root = os.path.join(args.data, "corpus")
    if not os.path.isdir(root):
        return []
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(where)
    limit = QUICK_BYTES if args.quick else int(args.max_mb * (1 << 20))
    picked = []
    for subset, name in corpus_selection():
        path = os.path.join(root, subset, name)
        plain = name[:-4] if name.endswith(".bz2") else name
        if args.quick and plain not in QUICK_FILES:
            continue
        if os.path.isfile(path) and plain not in [p for p, _ in picked]:
            picked.append((plain, read_cut(path, limit)))
    records = os.path.join(root, "json-records", "github")
    if os.path.isdir(records):
        blob = b""
        for name in sorted(os.listdir(records)):
            if len(blob) >= limit:
                break
            with open(os.path.join(records, name), "rb") as f:
                blob += f.read()
        picked.append(("json-records", blob[:limit]))
    paths = []
    for name, data in picked:
        if data:
            paths.append(os.path.join(where, name))
            with open(paths[-1], "wb") as f:
                f.write(data)
    return paths


# ---- running ---------------------------------------------------------------------


def run_json(cmd, env=None, allow_fail=False):
    """Runs cmd, returns its standard output parsed as JSON."""
    say("running " + " ".join(os.path.relpath(c) if os.path.isabs(c) else c
                                for c in cmd[:4]) + (" ..." if len(cmd) > 4 else ""))
    t0 = time.time()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, env=env)
    say("  done in %.0f s" % (time.time() - t0))
    if r.returncode != 0 and not allow_fail:
        sys.exit("report: %s failed (exit %d)" % (cmd[0], r.returncode))
    # printf prints an infinite or undefined speed as inf or nan, which JSON
    # does not have.
    text = re.sub(r"(?<![\w\"])-?(inf|nan)(?![\w\"])", "null", r.stdout.decode())
    try:
        return json.loads(text)
    except ValueError as e:
        sys.exit("report: %s printed no JSON (%s)" % (cmd[0], e))


def gbench(binary, regex, args, extra_env=None):
    cmd = [binary, "--benchmark_filter=" + regex, "--benchmark_format=json",
           "--benchmark_repetitions=%d" % (1 if args.quick else args.repetitions)]
    if not args.quick and args.repetitions > 1:
        cmd.append("--benchmark_report_aggregates_only=true")
    if args.quick:
        cmd.append("--benchmark_min_time=0.01")
    env = dict(os.environ)
    env.update(extra_env or {})
    env["XC_BENCH_DATA"] = args.data
    return run_json(cmd, env)


def run_classes(args, results, xcodec):
    cmd = [os.path.abspath(xcodec), "bench", "--classes", "--json",
           "--levels", args.classes_levels]
    if args.quick:
        cmd += ["--quick", "--rounds=1", "--size=16K", "--records=1K"]
    else:
        cmd += ["--rounds=%d" % args.classes_rounds]
    env = dict(os.environ)
    env["XC_BENCH_DATA"] = args.data
    save(results, "classes", run_json(cmd, env, allow_fail=True))


def run_all(args, results):
    xcodec = os.path.join(args.build, "programs", "xcodec")
    bench = os.path.join(args.build, "bench", "xcodec_bench")
    for b in (xcodec, bench):
        if not os.access(b, os.X_OK):
            sys.exit("report: %s is missing; build it first (bench/report does)" % b)
    os.makedirs(results, exist_ok=True)
    if args.only == "classes":
        run_classes(args, results, xcodec)
        return
    files = prepare_inputs(args, os.path.join(results, "inputs"))
    cmd = [os.path.abspath(xcodec), "bench", "--json", "--levels", args.levels]
    cmd += ["--quick"] if args.quick else []
    main = run_json(cmd + files, allow_fail=True)
    main["files"] = {os.path.basename(p): os.path.getsize(p) for p in files}
    save(results, "main", main)

    sums = gbench(bench, r"^(crc32c_vs_isal|inet_vs_dpdk)/xcodec/", args)
    have = {b["name"].split("/")[0] for b in sums.get("benchmarks", [])}
    if have != {"crc32c_vs_isal", "inet_vs_dpdk"}:
        # A peer is missing: xcodec's own speed at least.
        alone = gbench(bench, r"^(crc32c|inet)/xcodec/", args)
        sums["benchmarks"] = sums.get("benchmarks", []) + alone.get("benchmarks", [])
    save(results, "sums", sums)

    save(results, "calls", installed_calls(args, results))

    env = {"XC_BENCH_DICT_MAX_RECORDS": "300"} if args.quick else {}
    save(results, "dict", gbench(bench, r"^zstd_dict_", args, env))
    # Workers and seekable: one run each (they are long: level 19 on 64 MiB
    # takes half a minute per engine and worker count); the smoke run keeps
    # level 1 and the seekable reads.
    wregex = (r"^BM_workers/.*/level1/|^BM_seekable_read" if args.quick
              else r"^BM_workers|^BM_seekable")
    save(results, "workers", gbench(bench, wregex, argparse.Namespace(
        quick=args.quick, repetitions=1, data=args.data)))
    run_classes(args, results, xcodec)
    meta = machine(args, main, sums)
    save(results, "meta", meta)


def installed_calls(args, results):
    """bench/installed against this build, installed: {"shared": ...,
    "static": ...}, each the JSON one of its programs printed; {} when the
    install or the build fails (the report then says so)."""
    prefix = os.path.join(results, "prefix")
    work = os.path.join(results, "installed-build")
    shutil.rmtree(prefix, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    say("installing the build and building bench/installed against it")
    steps = [["cmake", "--install", args.build, "--prefix", prefix],
             ["cmake", "-S", os.path.join(HERE, "installed"), "-B", work,
              "-DCMAKE_PREFIX_PATH=" + prefix],
             ["cmake", "--build", work, "-j", os.environ.get("XC_JOBS", "2")]]
    for cmd in steps:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode != 0:
            say("bench/installed skipped: %s failed:\n%s" % (" ".join(cmd[:3]),
                                                          r.stderr.decode()[-2000:]))
            return {}
    libdirs = [d for d in os.listdir(prefix) if d.startswith("lib")]
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(prefix, libdirs[0]) if libdirs else ""
    out = {}
    for link in ("shared", "static"):
        cmd = [os.path.join(work, "xcodec-sums-" + link), "--json"]
        cmd += ["--quick"] if args.quick else []
        out[link] = run_json(cmd, env, allow_fail=True)
    return out


def save(results, name, obj):
    with open(os.path.join(results, name + ".json"), "w") as f:
        json.dump(obj, f, indent=1)


# ---- the machine ---------------------------------------------------------------------


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return platform.processor() or platform.machine()
    for key in ("model name", "Model", "Hardware"):
        m = re.search(r"^%s\s*:\s*(.+)$" % key, info, re.M)
        if m:
            return m.group(1).strip()
    # Arm64 kernels list implementer and part numbers only.
    impl = re.search(r"^CPU implementer\s*:\s*(\S+)", info, re.M)
    part = re.search(r"^CPU part\s*:\s*(\S+)", info, re.M)
    if impl and part:
        return "Arm64 CPU, implementer %s part %s" % (impl.group(1), part.group(1))
    return platform.machine()


def first_line(cmd):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=20)
        return r.stdout.decode().splitlines()[0].strip() if r.returncode == 0 else None
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None


def cmake_cache(build, key):
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            m = re.search(r"^%s:[A-Z]+=(.*)$" % re.escape(key), f.read(), re.M)
            return m.group(1) if m else None
    except OSError:
        return None


def deb_version(pkg):
    return first_line(["dpkg-query", "-W", "-f=${Version}\n", pkg])


def machine(args, main, sums):
    cc = cmake_cache(args.build, "CMAKE_C_COMPILER")
    cxx = cmake_cache(args.build, "CMAKE_CXX_COMPILER")
    ctx = sums.get("context", {})
    caches = ", ".join("L%d%s %d KiB" % (c["level"], {"Data": "d", "Instruction": "i"}.get(
        c["type"], ""), c["size"] // 1024) for c in ctx.get("caches", []))
    commit = first_line(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    dirty = first_line(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"])
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "quick": args.quick,
        "cpu": cpu_model(),
        "arch": platform.machine(),
        "cores": os.cpu_count(),
        "caches": caches,
        "mhz": ctx.get("mhz_per_cpu"),
        "kernel": platform.release(),
        "os": first_line(["sh", "-c", ". /etc/os-release && echo \"$PRETTY_NAME\""]),
        "cc": first_line([cc, "--version"]) if cc else None,
        "cxx": first_line([cxx, "--version"]) if cxx else None,
        "build_type": cmake_cache(args.build, "CMAKE_BUILD_TYPE"),
        "commit": (commit or "?") + (" (with local changes)" if dirty else ""),
        "xcodec": main.get("xcodec"),
        "cpucap": main.get("cpucap"),
        "tier": main.get("tier"),
        "kernels": main.get("kernels"),
        "libzstd": main.get("libzstd") or deb_version("libzstd-dev"),
        "isal": deb_version("libisal-dev"),
        "dpdk": deb_version("libdpdk-dev"),
        "benchmark": deb_version("libbenchmark-dev"),
        "levels": args.levels,
        "cut": "%d KiB" % (QUICK_BYTES >> 10) if args.quick else "%g MiB" % args.max_mb,
        "repetitions": 1 if args.quick else args.repetitions,
    }


def main(argv):
    args = parse_args(argv)
    if args.check_args:
        return 0
    # Paths given are taken from where the command runs, the defaults from
    # the top of the tree.
    for key in ("build", "out", "img", "render_only", "data"):
        if getattr(args, key):
            setattr(args, key, os.path.abspath(getattr(args, key)))
    os.chdir(ROOT)
    import report_render
    if args.render_only:
        results = args.render_only
    else:
        results = os.path.join(args.build, "report")
        if not args.quick and not args.only:
            say("the full run takes about 40 to 60 minutes (the class tables are most of it); "
                "--quick is a smoke run, --only classes the class tables alone")
        run_all(args, results)
    if args.only == "classes" and os.path.isfile(args.out):
        report_render.splice_classes(results, args.out)
        say("wrote the class section of %s" % args.out)
        return 0
    report_render.render(results, args.out, args.img)
    say("wrote %s and its plots in %s" % (args.out, args.img))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
