"""Helpers shared by the Python benchmark drivers: best-of timing and
running a C benchmark program, which prints "name milliseconds" lines."""
import os
import subprocess
import time


def best(f, reps):
    """Best of `reps` wall-clock timings of f(), in milliseconds."""
    t = 1e30
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t * 1e3


def engine_rows(build, program, args, threads=None):
    """Runs build/benchmarks/<program> with args (and OMP_NUM_THREADS when
    threads is given); returns {row name: milliseconds}."""
    exe = os.path.join(build, "benchmarks", program)
    env = dict(os.environ)
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    out = subprocess.run([exe] + [str(a) for a in args], env=env, check=True,
                         capture_output=True, text=True).stdout
    return {k: float(v) for k, v in (l.split() for l in out.splitlines())}
