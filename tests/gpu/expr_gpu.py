"""Fused expressions on a GPU (run by tests/gpu/run.sh): xp.evaluate and
@xp.fuse on CUDA arrays, where the plugin generates one NVRTC kernel per
program (core/cuda/expr.c), compared with NumPy on the same inputs:
contiguous, strided, negative-stride and broadcast operands, every dtype
class, weak scalars, where and casts, each trailing reduction over all axes
(one block and many: the merge pass) and over some axes, empty inputs, the
integer-power error, and a float16 reduction (no fused kernel: run one op
at a time). Prints one line per failure and a summary."""
import sys
import traceback

import numpy as np

import cunumpy as cp

failures = 0
cases = 0


def check(what, fn):
    global failures, cases
    cases += 1
    try:
        ok = fn()
    except Exception:
        failures += 1
        print(f"FAIL {what}: raised")
        traceback.print_exc(limit=3, file=sys.stdout)
        return
    if ok is False:
        failures += 1
        print(f"FAIL {what}")


def close(got, want, rtol=1e-12, atol=0.0):
    assert cp.is_gpu(got), "result is not on the GPU"
    g = cp.to_numpy(got)
    want = np.asarray(want)
    if g.shape != want.shape or g.dtype != want.dtype:
        print(f"  got {g.dtype}{g.shape}, want {want.dtype}{want.shape}")
        return False
    ok = np.allclose(g, want, rtol=rtol, atol=atol, equal_nan=True)
    if not ok:
        print(f"  max abs diff {np.max(np.abs(g - want))}")
    return ok


if not cp.cuda_available():
    print("CUDA unavailable: nothing to check")
    sys.exit(0)

cp.set_backend("cuda")
rng = np.random.default_rng(7)
n = 1_000_003
a_np, b_np, c_np = (rng.standard_normal(n) for _ in range(3))
a, b, c = cp.asarray(a_np), cp.asarray(b_np), cp.asarray(c_np)
f_np = rng.standard_normal(n).astype(np.float32)
f = cp.asarray(f_np)
i_np = rng.integers(-50, 50, n).astype(np.int32)
i = cp.asarray(i_np)
m_np = rng.standard_normal((300, 257))
m = cp.asarray(m_np)
z_np = (rng.standard_normal(1000) + 1j * rng.standard_normal(1000))
z = cp.asarray(z_np)
ev = cp.evaluate

check("a*b + c", lambda: close(ev("a*b + c"), a_np * b_np + c_np))
check("2*a + 3*b", lambda: close(ev("2*a + 3*b"), 2 * a_np + 3 * b_np))
check("2*a + b**10", lambda: close(ev("2*a + b**10"), 2 * a_np + b_np ** 10,
                                   1e-10))
check("law of cosines",
      lambda: close(ev("a**2 + b**2 - 2*a*b*cos(c)"),
                    a_np ** 2 + b_np ** 2 - 2 * a_np * b_np * np.cos(c_np)))
check("where", lambda: close(ev("where(a > 0.5, a, b)"),
                             np.where(a_np > 0.5, a_np, b_np)))
check("float32 with a weak scalar",
      lambda: close(ev("f * 2.5 + 1"), f_np * np.float32(2.5) + 1, 1e-6))
check("int32 arithmetic", lambda: close(ev("i * 3 - i // 7"),
                                        i_np * 3 - i_np // 7, 0))
check("cast", lambda: close(ev("float32(a) + f"),
                            a_np.astype(np.float32) + f_np, 1e-6))
check("complex", lambda: close(ev("z * 2j + abs(z)"),
                               z_np * 2j + np.abs(z_np)))
check("strided, negative strides",
      lambda: close(ev("x * 2 + y", {"x": m[::2, ::3], "y": m[1::2, ::-3]}),
                    m_np[::2, ::3] * 2 + m_np[1::2, ::-3]))
check("broadcast", lambda: close(ev("x - y", {"x": m, "y": m[0]}),
                                 m_np - m_np[0]))
check("transposed", lambda: close(ev("x + 1", {"x": m.T}), m_np.T + 1))
check("small output", lambda: close(ev("x + 1", {"x": a[:5]}), a_np[:5] + 1))
check("empty", lambda: close(ev("x + 1", {"x": a[:0]}), a_np[:0] + 1))
check("out=", lambda: (lambda o: (ev("a*b + c", out=o),
                                  close(o, a_np * b_np + c_np))[1])(
    cp.empty(n)))

# reductions: many blocks (merge pass), one block, empty
check("sum(a*b)", lambda: close(ev("sum(a*b)"), np.sum(a_np * b_np), 1e-9))
check("sum small", lambda: close(ev("sum(x*x)", {"x": a[:100]}),
                                 np.sum(a_np[:100] ** 2), 1e-12))
check("sum empty", lambda: close(ev("sum(x*2)", {"x": a[:0]}), 0.0))
check("prod", lambda: close(ev("prod(1 + x * 1e-3)", {"x": a[:5000]}),
                            np.prod(1 + a_np[:5000] * 1e-3), 1e-9))
check("min", lambda: close(ev("min(a - b)"), np.min(a_np - b_np)))
check("max strided", lambda: close(ev("max(x)", {"x": m[::-1, ::2]}),
                                   np.max(m_np[::-1, ::2])))
check("any", lambda: close(ev("any(a > 4.5)"), np.any(a_np > 4.5)))
check("all", lambda: close(ev("all(a < 10)"), np.all(a_np < 10)))
check("sum int32", lambda: close(ev("sum(i * 2)"),
                                 np.sum(i_np.astype(np.int64) * 2), 0))
check("sum float32", lambda: close(ev("sum(f)"), np.sum(f_np), 1e-4, 1e-2))
check("sum axis=1", lambda: close(ev("sum(x * 2, axis=1)", {"x": m}),
                                  np.sum(m_np * 2, axis=1), 1e-10))
check("max axis=0 keepdims",
      lambda: close(ev("max(x, axis=0, keepdims=True)", {"x": m}),
                    np.max(m_np, axis=0, keepdims=True)))
check("float16 sum (unfused)",
      lambda: close(ev("sum(h * 2)", {"h": cp.asarray(
          np.arange(100, dtype=np.float16))}),
          np.sum(np.arange(100, dtype=np.float16) * 2), 1e-3))


def negative_power():
    x = cp.asarray(np.array([2, 3, -1], dtype=np.int64))
    try:
        ev("x ** x", {"x": x})
    except ValueError as e:
        return "negative" in str(e)
    return False


check("integer power by a negative exponent raises", negative_power)


@cp.fuse()
def fused(x, y):
    return cp.sum(cp.sin(x) * y + 2, axis=None)


check("@fuse with a reduction",
      lambda: close(fused(a, b), np.sum(np.sin(a_np) * b_np + 2), 1e-9))
check("@fuse second call (cached)",
      lambda: close(fused(a, b), np.sum(np.sin(a_np) * b_np + 2), 1e-9))

print(f"fused expressions on the GPU: {cases} cases, {failures} failures")
sys.exit(1 if failures else 0)
