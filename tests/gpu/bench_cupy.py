"""CuPy side of the GPU benchmark (tests/gpu/run.sh runs it group by group,
alternating with tests/gpu/bench_gpu.c): the rows of bench_gpu.c's k_rows,
with the same names, dtypes, sizes, bytes and flop counts, timed the same
way (two warm-up runs, then `iters` runs between CUDA events), printed as
    RESULT cupy <op> <dtype> <ms> <rate> <unit>
Usage: bench_cupy.py [N] [iterations] [group]; bench_cupy.py --rows lists
the rows without CuPy (run.sh checks both lists name the same rows)."""
import sys

N = "N"  # the elementwise size from the command line
# group, name, op, dtype, inputs, shape, bytes per element (or per index),
# flops per m^3 * batch, iterations (0: the command line's), indices taken
E = "elementwise"
ROWS = [(E, op, op, dt, "vectors", (N,), by * (2 if dt == "float64" else 1), 0, 0,
         0)
        for dt in ("float32", "float64")
        for op, by in (("copy", 8), ("a+b", 12), ("a*b+c", 16), ("sin", 8),
                       ("sum", 4), ("std", 4), ("argmax", 4))]
ROWS += [
    ("fft", "fft_2^24", "fft", "complex64", "vectors", (1 << 24,), 16, 0, 0, 0),
    ("fft", "rfft_2^26", "rfft", "float32", "vectors", (1 << 26,), 12, 0, 0, 0),
    ("fft", "fft2_4096^2", "fft2", "complex64", "vectors", (4096, 4096), 16, 0, 0, 0),
]
ROWS += [("matmul", nm, "mm", dt, "matrix", (b, m, m), 0, 8 if dt == "complex128" else 2,
          it, 0)
         for nm, b, m, it in (("mm4096", 1, 4096, 5), ("mm32x10000", 10000, 32, 20))
         for dt in ("float32", "float64", "complex128")]
ROWS += [
    ("linalg", "solve4096", "solve", "float64", "matrix", (1, 4096, 4096), 0, 2 / 3, 3, 0),
    ("linalg", "cholesky4096", "cholesky", "float64", "spd", (1, 4096, 4096), 0, 1 / 3, 3, 0),
    ("linalg", "svd1024", "svd", "float64", "matrix", (1, 1024, 1024), 0, 0, 2, 0),
    ("linalg", "eigh2048", "eigh", "float64", "spd", (1, 2048, 2048), 0, 0, 2, 0),
]
ROWS += [("sorting", f"{op}_1e8", op, dt, "vectors", (10 ** 8,), 0, 0, 3, 0)
         for op in ("sort", "argsort") for dt in ("float32", "float64", "int64")]
ROWS += [
    ("sorting", "unique_1e7", "unique", "int64", "vectors", (10 ** 7,), 0, 0, 5, 0),
    ("sorting", "median_1e8", "median", "float32", "vectors", (10 ** 8,), 0, 0, 3, 0),
    ("random", "normal_1e8", "normal", "float32", "none", (10 ** 8,), 4, 0, 10, 0),
    ("random", "normal_1e8", "normal", "float64", "none", (10 ** 8,), 8, 0, 10, 0),
    ("indexing", "take_1e7_of_1e8", "take", "float32", "gather", (10 ** 8,), 16, 0, 10,
     10 ** 7),
    ("indexing", "mask_1e8", "mask", "float32", "mask", (10 ** 8,), 7, 0, 10, 0),
]


def unit(nbytes, flops):
    return "GB/s" if nbytes else "GFLOP/s" if flops else "-"


def main():
    if sys.argv[1:2] == ["--rows"]:
        for r in ROWS:
            print("ROW", r[0], r[1], r[3], unit(r[6], r[7]))
        return
    import cupy as cp

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000_000
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    group = sys.argv[3] if len(sys.argv) > 3 else "all"
    rng = cp.random.default_rng(20261202)

    def rand(dt, shape):
        size = 1
        for e in shape:
            size *= e
        if dt == "int64":  # about ten copies of each value (unique)
            return rng.integers(0, size // 10 + 1, size=shape, dtype=cp.int64)
        real = "float32" if dt in ("float32", "complex64") else "float64"
        return rng.standard_normal(shape, dtype=real).astype(dt)

    ops = {
        "copy": lambda x: cp.copyto(x["d"], x["a"]),
        "a+b": lambda x: x["a"] + x["b"],
        "a*b+c": lambda x: x["a"] * x["b"] + x["c"],
        "sin": lambda x: cp.sin(x["a"]),
        "sum": lambda x: x["a"].sum(),
        "std": lambda x: x["a"].std(),
        "argmax": lambda x: x["a"].argmax(),
        "fft": lambda x: cp.fft.fft(x["a"]),
        "rfft": lambda x: cp.fft.rfft(x["a"]),
        "fft2": lambda x: cp.fft.fft2(x["a"]),
        "mm": lambda x: cp.matmul(x["a"], x["a"]),
        "solve": lambda x: cp.linalg.solve(x["a"], x["b"]),
        "cholesky": lambda x: cp.linalg.cholesky(x["a"]),
        "svd": lambda x: cp.linalg.svd(x["a"], full_matrices=False),
        "eigh": lambda x: cp.linalg.eigh(x["a"]),
        "sort": lambda x: cp.sort(x["a"]),
        "argsort": lambda x: cp.argsort(x["a"]),
        "unique": lambda x: cp.unique(x["a"]),
        "median": lambda x: cp.median(x["a"]),
        "normal": lambda x: rng.standard_normal(x["shape"], dtype=x["dt"]),
        "take": lambda x: cp.take(x["a"], x["b"]),
        "mask": lambda x: x["a"][x["b"]],
    }
    ran = 0
    for grp, name, op, dt, inputs, shape, nbytes, flops, it, k in ROWS:
        if group not in ("all", grp):
            continue
        shape = tuple(n if e == N else e for e in shape)
        if inputs == "matrix" or inputs == "spd":
            shape = shape[1:] if shape[0] == 1 else shape
        x = {"shape": shape, "dt": dt}
        if inputs == "vectors":
            x["a"] = rand(dt, shape)
            if name in ("a+b", "a*b+c"):
                x["b"], x["c"] = rand(dt, shape), rand(dt, shape)
            if name == "copy":
                x["d"] = cp.empty_like(x["a"])
        elif inputs == "matrix":
            x["a"], x["b"] = rand(dt, shape), rand(dt, shape[-1:])
        elif inputs == "spd":  # X @ X^T, X (m, 2m): positive definite
            m = shape[-1]
            xx = rand(dt, (m, 2 * m))
            x["a"] = xx @ xx.T
            del xx
        elif inputs == "gather":
            x["a"] = rand(dt, shape)
            x["b"] = rng.integers(0, shape[0], size=k, dtype=cp.int64)
        elif inputs == "mask":
            x["a"] = rand(dt, shape)
            x["b"] = cp.signbit(x["a"])
        f = ops[op]
        f(x)
        f(x)
        cp.cuda.Device().synchronize()
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        runs = it or iters
        e0.record()
        for _ in range(runs):
            f(x)
        e1.record()
        e1.synchronize()
        ms = cp.cuda.get_elapsed_time(e0, e1) / runs
        count = 1
        for e in shape:
            count *= e
        rate = 0.0
        if nbytes:
            rate = nbytes * (k or count) / (ms * 1e6)
        elif flops:
            batch = shape[0] if len(shape) == 3 else 1
            rate = flops * shape[-1] ** 3 * batch / (ms * 1e6)
        print(f"RESULT cupy {name} {dt} {ms:.4f} {rate:.1f} {unit(nbytes, flops)}",
              flush=True)
        del x
        cp.get_default_memory_pool().free_all_blocks()
        ran += 1
    if not ran:
        sys.exit(f"bench_cupy: no row in group '{group}'")


main()
