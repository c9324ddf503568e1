# SPDX-License-Identifier: BSD-2-Clause
"""The PNG plots of the benchmark report, drawn by gnuplot (gnuplot-nox, its
pngcairo terminal).  Each function writes its data files and script into a
work folder, runs gnuplot, and returns the PNG path, or None when there is
nothing to draw or gnuplot is missing (the report then says so in place of
the picture)."""
import os
import shutil
import subprocess

TERMINAL = ('set terminal pngcairo size 900,540 font "sans,10"\n'
            "set termoption noenhanced\n"  # file names keep their underscores
            'set datafile missing "?"\n'
            "set grid\n"
            "set border 3\n"
            "set tics nomirror\n")
XCODEC_STYLE = 'lc rgb "#1f77b4" pt 7 ps 1.1 lw 2'
PEER_STYLE = 'lc rgb "#d62728" pt 5 ps 1.0 lw 2'


def _num(v):
    return "?" if v is None else "%.6g" % v


def _draw(work, name, script, png):
    if not shutil.which("gnuplot"):
        return None
    os.makedirs(os.path.dirname(png) or ".", exist_ok=True)
    path = os.path.join(work, name + ".gp")
    with open(path, "w") as f:
        f.write(TERMINAL + 'set output "%s"\n' % os.path.abspath(png) + script)
    r = subprocess.run(["gnuplot", path], stderr=subprocess.PIPE)
    if r.returncode != 0:
        print("report: gnuplot failed on %s:\n%s" % (path, r.stderr.decode()))
        return None
    return png


def _write(work, name, rows):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        for row in rows:
            f.write(" ".join(row) + "\n")
    return path


def size_speed(work, png, points):
    """points: {engine: [(level, MB/s, percent of input)]}, engine
    "xcodec" and "libzstd".  Compressed size against compression speed,
    speed on a log axis, one curve per engine, each point named by its
    level."""
    if not points.get("xcodec"):
        return None
    files = {}
    for engine, pts in points.items():
        files[engine] = _write(work, "size_speed_%s.dat" % engine,
                               [(str(lv), _num(s), _num(p)) for lv, s, p in sorted(pts)])
    script = ("set logscale x\n"
              'set xlabel "compression speed, MB/s of input (log scale)"\n'
              'set ylabel "compressed size, %% of input"\n'
              'set title "zstd: size against speed, level by level (labels: levels)"\n'
              "set key top right\n"
              'plot "%s" using 2:3 with linespoints %s title "xcodec", \\\n'
              '     "%s" using 2:3:1 with labels offset 0,0.9 tc rgb "#1f77b4" notitle'
              % (files["xcodec"], XCODEC_STYLE, files["xcodec"]))
    if points.get("libzstd"):
        script += (', \\\n     "%s" using 2:3 with linespoints %s title "libzstd", \\\n'
                   '     "%s" using 2:3:1 with labels offset 0,-0.9 tc rgb "#d62728" notitle'
                   % (files["libzstd"], PEER_STYLE, files["libzstd"]))
    return _draw(work, "size_speed", script + "\n", png)


def bars(work, name, png, title, ylabel, rows, peer):
    """rows: [(label, xcodec value, peer value or None)], clustered bars."""
    if not rows:
        return None
    data = _write(work, name + ".dat", [('"%s"' % lab, _num(a), _num(b)) for lab, a, b in rows])
    script = ("set style data histograms\n"
              "set style histogram clustered gap 1\n"
              "set style fill solid 0.85 border -1\n"
              "set boxwidth 0.9\n"
              "set xtics rotate by -40 scale 0\n"
              "set yrange [0:*]\n"
              "set key top right\n"
              'set title "%s"\nset ylabel "%s"\n'
              'plot "%s" using 2:xtic(1) lc rgb "#1f77b4" title "xcodec"' % (title, ylabel, data))
    if any(b is not None for _, _, b in rows):
        script += ', \\\n     "" using 3 lc rgb "#d62728" title "%s"' % peer
    return _draw(work, name, script + "\n", png)


def by_size(work, name, png, title, rows, peer):
    """rows: [(bytes, xcodec GB/s, peer GB/s or None)], throughput against
    the input size on a log axis."""
    if not rows:
        return None

    def label(n):
        for unit, shift in (("M", 20), ("K", 10)):
            if n >= 1 << shift and n % (1 << shift) == 0:
                return "%d%s" % (n >> shift, unit)
        return str(n)

    data = _write(work, name + ".dat",
                  [(str(n), _num(a), _num(b), label(n)) for n, a, b in sorted(rows)])
    script = ("set logscale x\n"
              "set autoscale xfix\n"
              "set offsets graph 0.04, graph 0.04, 0, 0\n"
              "set yrange [0:*]\n"
              'set xlabel "bytes per call (data in cache)"\n'
              'set ylabel "GB/s"\n'
              'set title "%s"\n'
              "set key top left\n"
              'plot "%s" using 1:2:xtic(4) with linespoints %s title "xcodec"'
              % (title, data, XCODEC_STYLE))
    if any(b is not None for _, _, b in rows):
        script += ', \\\n     "%s" using 1:3 with linespoints %s title "%s"' % (
            data, PEER_STYLE, peer)
    return _draw(work, name, script + "\n", png)


def ratios_by_size(work, name, png, title, series):
    """series: [(label, [(bytes, ratio or None)])], one line each, against
    the input size on a log axis, with the line of parity at 1."""
    series = [(lab, pts) for lab, pts in series if any(r for _, r in pts)]
    if not series:
        return None
    colours = ["#1f77b4", "#aec7e8", "#d62728", "#ff9896", "#2ca02c", "#98df8a"]
    plots = []
    for i, (lab, pts) in enumerate(series):
        data = _write(work, "%s_%d.dat" % (name, i), [(str(n), _num(r)) for n, r in pts])
        plots.append('"%s" using 1:2 with linespoints lc rgb "%s" pt 7 lw 2 title "%s"' % (
            data, colours[i % len(colours)], lab))
    script = ("set logscale x\n"
              "set yrange [0:*]\n"
              'set xlabel "bytes per call (data in cache)"\n'
              'set ylabel "speedup (peer time / xcodec time)"\n'
              'set title "%s"\n'
              "set key top left\n"
              "plot 1 with lines dt 2 lc rgb \"#777777\" notitle, \\\n     " % title +
              ", \\\n     ".join(plots))
    return _draw(work, name, script + "\n", png)
