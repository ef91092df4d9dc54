"""Runs realistic NumPy programs unchanged under NumPy and under cunumpy.

Each program in this folder is ordinary NumPy code (`import numpy as np`) that
leaves its answers in a dict named `result`. The cunumpy run is the same source
with that one import line replaced by `import cunumpy as np`, which is what a
user does. Results are compared (random programs by their statistics, each
named with its standard error in STATISTICAL) and both runs are timed,
alternating, in one process.

    python3 benchmarks/programs/run.py [--scale S] [--repeat R] [names...]
"""
import argparse
import os
import pathlib
import sys
import time

import numpy

HERE = pathlib.Path(__file__).resolve().parent
IMPORT_LINE = "import numpy as np"


def programs():
    return sorted(p for p in HERE.glob("*.py") if p.name != "run.py")


def source_for(path, module):
    src = path.read_text()
    if IMPORT_LINE not in src:
        raise ValueError(f"{path.name}: no '{IMPORT_LINE}' line")
    if module == "cunumpy":
        src = src.replace(IMPORT_LINE, "import cunumpy as np")
    return src


def run_once(path, module, scale):
    os.environ["PROGRAM_SCALE"] = repr(float(scale))
    code = compile(source_for(path, module), str(path), "exec")
    env = {"__name__": "__program__", "__file__": str(path)}
    t0 = time.perf_counter()
    exec(code, env)
    result = env["result"]
    # Materialise results on the host inside the timed region: a lazy or
    # asynchronous library must not be credited with unfinished work.
    host = {k: numpy.asarray(v) for k, v in result.items()}
    return host, time.perf_counter() - t0, env.get("STATISTICAL", {})


def compare(name, ref, got, statistical):
    """Returns a list of mismatch descriptions (empty when the results agree)."""
    problems = []
    if set(ref) != set(got):
        return [f"{name}: result keys differ: {sorted(ref)} vs {sorted(got)}"]
    for key in ref:
        a, b = ref[key], got[key]
        if key in statistical:
            se = float(numpy.hypot(ref[statistical[key]], got[statistical[key]]))
            if not abs(float(a) - float(b)) <= 6.0 * se + 1e-12:
                problems.append(f"{name}.{key}: {float(a)!r} vs {float(b)!r} "
                                f"differ by more than 6 standard errors ({se:.3g})")
            continue
        if key in statistical.values():
            continue
        if a.shape != b.shape:
            problems.append(f"{name}.{key}: shape {a.shape} vs {b.shape}")
            continue
        if a.dtype.kind in "biu" and b.dtype.kind in "biu":
            bad = int((a != b).sum())
            if bad:
                problems.append(f"{name}.{key}: {bad} of {a.size} integers differ")
            continue
        scale_ = float(numpy.max(numpy.abs(a))) if a.size else 0.0
        if not numpy.allclose(b, a, rtol=1e-9, atol=1e-9 * scale_, equal_nan=True):
            err = float(numpy.max(numpy.abs(b.astype(complex) - a.astype(complex))))
            problems.append(f"{name}.{key}: max abs difference {err:.3g} (scale {scale_:.3g})")
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args(argv)
    import cunumpy  # noqa: F401  (import cost outside the timings)
    rows, failures = [], []
    for path in programs():
        if args.names and path.stem not in args.names:
            continue
        best = {"numpy": float("inf"), "cunumpy": float("inf")}
        out = {}
        try:
            for _ in range(args.repeat):
                for module in ("numpy", "cunumpy"):
                    res, dt, stat = run_once(path, module, args.scale)
                    best[module] = min(best[module], dt)
                    out[module] = (res, stat)
        except Exception as exc:  # a program that fails is a row, not the end of the run
            failures.append(f"{path.stem}: {type(exc).__name__}: {exc}")
            continue
        failures += compare(path.stem, out["numpy"][0], out["cunumpy"][0], out["numpy"][1])
        rows.append((path.stem, best["numpy"], best["cunumpy"]))
    print("| program | NumPy s | cunumpy s | ratio (NumPy / cunumpy) |")
    print("|---|---|---|---|")
    for name, tn, tc in rows:
        print(f"| {name} | {tn:.4f} | {tc:.4f} | {tn / tc:.2f} |")
    for f in failures:
        print("MISMATCH", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
