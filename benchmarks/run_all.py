#!/usr/bin/env python3
"""One entry point for every benchmark that runs on this machine (no GPU):
measures STREAM (bench_stream: copy/add/triad) and the BLAS peak (float64
matmul through the engine) first, then runs each benchmark driver against
NumPy, and writes benchmarks/results/<date>.md (every driver's output, the
sweep with % of STREAM and % of BLAS peak columns) and <date>.png (bar charts
of the NumPy/cunumpy ratios, matplotlib Agg).

usage: python3 benchmarks/run_all.py [--build DIR] [--threads K]
                                     [--only NAME ...] [--out DIR]

Both libraries run with the same thread count (default 1: on a shared
machine single-thread best-of timings are the ones that repeat).
"""
import argparse
import datetime
import math
import os
import pathlib
import re
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def drivers(build):
    """(name, argv, timeout s): each prints markdown tables or "name ms" rows."""
    py = sys.executable
    b = str(build)
    return [
        ("sweep", [py, "bench_sweep.py", "--repeat", "3", "--min-ms", "1"], 900),
        ("programs", [py, "programs/run.py", "--repeat", "3"], 600),
        ("core", [py, "bench_core.py", b, "4000000", "5"], 600),
        ("python", [py, "bench_python.py", "--quick"], 600),
        ("sort_random", [py, "bench_sort_random.py", b, "4000000", "3"], 600),
        ("linalg_fft", [py, "bench_linalg_fft_numpy.py", b, "3"], 600),
        ("fusion", [py, "bench_fusion.py", "4000000", "5"], 600),
        ("scipy", [py, "bench_scipy.py", "4000000", "3"], 600),
        ("signal", [py, "bench_signal.py", "--scipy", "--repeat", "3"], 600),
        ("sparse", [py, "bench_sparse.py", "500", "200", "3"], 600),
    ]


def stream(build):
    exe = pathlib.Path(build) / "benchmarks" / "bench_stream"
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return {k: float(v) for k, v in (l.split() for l in out.splitlines())}


def blas_peak(n=2000, reps=3):
    """Best float64 matmul GFLOP/s through the engine (its OpenBLAS)."""
    import numpy as np

    import cunumpy as cp
    a = cp.asarray(np.random.default_rng(0).random((n, n)))
    a @ a
    best = math.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        a @ a
        best = min(best, time.perf_counter() - t0)
    return 2.0 * n ** 3 / best * 1e-9


def tables(text):
    """(first column, ratio) of every markdown table row whose header has a
    'ratio' column."""
    out, ratio_col = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            ratio_col = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if ratio_col is None:
            hits = [i for i, c in enumerate(cells) if c.lower().startswith("ratio")]
            ratio_col = hits[0] if hits else -1
            continue
        if ratio_col < 0 or set(cells[0]) <= set("-: "):
            continue
        try:
            out.append((cells[0], float(cells[ratio_col])))
        except (ValueError, IndexError):
            pass
    return out


def annotate_sweep(text, triad, peak):
    """Adds % of STREAM triad and % of BLAS peak to the sweep's main table."""
    lines = []
    for line in text.splitlines():
        if line.startswith("| row | NumPy ms"):
            line += " % of STREAM | % of peak |"
        elif line.startswith("|---|---|---|---|---|---|"):
            line += "---|---|"
        elif line.startswith("| ") and line.count("|") == 7:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            gbs, gfl = cells[4], cells[5]
            s = f"{float(gbs) / triad * 100:.0f}" if gbs else ""
            p = f"{float(gfl) / peak * 100:.0f}" if gfl else ""
            line += f" {s} | {p} |"
        lines.append(line)
    return "\n".join(lines)


def chart(sections, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # The sweep has hundreds of rows: its chart shows the 40 lowest ratios.
    shown = []
    for name, rows in sections:
        if not rows:
            continue
        rows = sorted(rows, key=lambda r: r[1])
        if len(rows) > 40:
            rows, name = rows[:40], f"{name} (40 lowest of {len(rows)})"
        shown.append((name, rows))
    if not shown:
        return False
    heights = [max(2.0, 0.22 * len(r) + 1.0) for _, r in shown]
    fig, axes = plt.subplots(len(shown), 1, figsize=(9, sum(heights)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, (name, rows) in zip(axes[:, 0], shown):
        labels = [r[0][:48] for r in rows]
        vals = [max(r[1], 1e-3) for r in rows]
        colors = ["#c0392b" if v < 1.0 else "#2e86c1" for v in vals]
        ax.barh(range(len(vals)), vals, color=colors)
        ax.set_yticks(range(len(vals)))
        ax.set_yticklabels(labels, fontsize=6)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_title(f"{name}: NumPy time / cunumpy time (>1: cunumpy faster)", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(HERE.parent / "build"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--only", nargs="*", default=None, help="driver names to run")
    ap.add_argument("--out", default=str(HERE / "results"))
    args = ap.parse_args(argv)
    build = pathlib.Path(args.build).resolve()
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(args.threads)
    os.environ.update({k: env[k] for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")})
    env["PYTHONPATH"] = os.pathsep.join(
        [str(build / "python"), str(HERE)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    sys.path[:0] = [str(build / "python"), str(HERE)]

    t_start = time.perf_counter()
    bw = stream(build)
    peak = blas_peak()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    md = [f"# Benchmarks, {date}", "",
          f"`python3 benchmarks/run_all.py --threads {args.threads}`; ratio = NumPy time / "
          "cunumpy time (below 1: cunumpy is slower). Best-of timings, NumPy and cunumpy "
          "alternating within a run.", "",
          "| ceiling | value |", "|---|---|"]
    md += [f"| STREAM {k[7:]} (1 thread) | {v:.2f} GB/s |" for k, v in bw.items()]
    md += [f"| BLAS peak (float64 matmul 2000, {args.threads} thread(s)) | {peak:.1f} GFLOP/s |", ""]
    sections, failed = [], []
    for name, cmd, limit in drivers(build):
        if args.only and name not in args.only:
            continue
        t0 = time.perf_counter()
        try:
            p = subprocess.run(cmd, cwd=HERE, env=env, capture_output=True, text=True,
                               timeout=limit)
            text, rc = p.stdout, p.returncode
            if rc != 0:
                text += "\n" + p.stderr[-2000:]
        except subprocess.TimeoutExpired as exc:
            text = (exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes) \
                else (exc.stdout or "")
            rc = f"timeout after {limit} s"
        dt = time.perf_counter() - t0
        if rc != 0:
            failed.append(f"{name}: {rc}")
        if name == "sweep":
            text = annotate_sweep(text, bw["stream_triad"], peak)
        sections.append((name, tables(text)))
        md += [f"## {name} ({dt:.0f} s{'' if rc == 0 else f', exit {rc}'})", "",
               "`" + " ".join(pathlib.Path(c).name if i == 0 else c for i, c in enumerate(cmd)) + "`",
               "", "```" if not tables(text) else "", text.rstrip(),
               "```" if not tables(text) else "", ""]
        print(f"{name}: {dt:.0f} s, exit {rc}", flush=True)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    png = out / f"{date}.png"
    has_chart = chart(sections, png)
    if has_chart:
        md.insert(2, f"![ratios]({png.name})\n")
    md.append(f"Total {time.perf_counter() - t_start:.0f} s."
              + (" Failed or timed out: " + "; ".join(failed) if failed else ""))
    (out / f"{date}.md").write_text("\n".join(md) + "\n")
    print(f"wrote {out / (date + '.md')}" + (f" and {png}" if has_chart else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
