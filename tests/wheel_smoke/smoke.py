"""The installed wheel against NumPy: add (broadcast, strided), sum,
matmul, fft, linalg.solve; the OpenBLAS pools in the process with NumPy
imported; the CUDA plugin loading its libraries from NVIDIA's wheel folder.
Usage: smoke.py SITE_PACKAGES [NVIDIA_LIB_DIR]"""
import os
import sys

import numpy as np
import threadpoolctl

import cunumpy as xp

site = os.path.realpath(sys.argv[1])
nv = sys.argv[2] if len(sys.argv) > 2 else ""
where = os.path.realpath(xp.__file__)
assert where.startswith(site + os.sep), f"cunumpy from {where}, not {site}"

rng = np.random.default_rng(7)
a = rng.standard_normal((64, 48))
b = rng.standard_normal(48)
m = rng.standard_normal((40, 40)) + 40 * np.eye(40)
y = rng.standard_normal((40, 3))
v = rng.standard_normal(1000) + 1j * rng.standard_normal(1000)
ca, cb, cm, cy, cv = map(xp.asarray, (a, b, m, y, v))


def same(got, want, rtol=1e-12, atol=1e-12):
    got = xp.to_numpy(got) if not isinstance(got, (float, complex)) else got
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


same(ca + cb, a + b)                              # broadcasting
same(ca[::-2, 1::3] + 1.5, a[::-2, 1::3] + 1.5)   # negative strides
same(xp.sum(ca, axis=0), a.sum(axis=0))
same(float(xp.sum(ca)), float(a.sum()))
same(ca @ ca.T, a @ a.T, rtol=1e-11)
same(xp.fft.fft(cv), np.fft.fft(v), rtol=1e-10, atol=1e-10)
same(xp.linalg.solve(cm, cy), np.linalg.solve(m, y), rtol=1e-10)
print("values: add, sum, matmul, fft, linalg.solve agree with NumPy",
      np.__version__)

# OpenBLAS: NumPy's wheel carries its own, ILP64 (64-bit integers,
# symbols suffixed 64_), which a 32-bit LAPACKE caller cannot share, so
# there are two libraries and two pools; cunumpy's must be the
# scipy-openblas32 package's (not Debian's), which any other package
# depending on it shares, and threadpoolctl must see and limit it.
pools = [p for p in threadpoolctl.threadpool_info()
         if p["internal_api"] == "openblas"]
for p in pools:
    print(f"openblas pool: {p['filepath']} ({p['num_threads']} threads, "
          f"{p['version']})")
ours = [p for p in pools if os.path.realpath(p["filepath"]).startswith(
    os.path.join(site, "scipy_openblas32", "lib") + os.sep)]
assert len(ours) == 1, f"cunumpy's OpenBLAS pools: {ours}"
assert not any(p["filepath"].startswith(("/usr/", "/lib/")) for p in pools)
with threadpoolctl.threadpool_limits(limits=1, user_api="blas"):
    one = [p for p in threadpoolctl.threadpool_info()
           if p["filepath"] == ours[0]["filepath"]]
    assert one[0]["num_threads"] == 1, one
    same(ca @ ca.T, a @ a.T, rtol=1e-11)
print(f"openblas: {len(pools)} pools, one of them cunumpy's, "
      "scipy-openblas32's (limited by threadpoolctl)")

# The plugin: with the libraries in NVIDIA's wheel folder, it loads (its
# table answers) whether or not a driver and GPU are present.
plugin = os.path.join(site, "cunumpy", "libcunumpy_cuda.so")
if os.path.exists(plugin):
    avail = xp.cuda_available()
    reason = xp.backend_unavailable_reason()
    assert "cannot load the CUDA plugin" not in reason, reason
    assert xp.backend_supports("matmul", "cuda"), reason
    print(f"cuda plugin loads (libraries from {nv or 'the system'}); "
          f"available: {avail}{'' if avail else ' - ' + reason}")
print("wheel smoke: passed")
