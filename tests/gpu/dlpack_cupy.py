"""DLPack and __cuda_array_interface__ round trips between cunumpy GPU
arrays and CuPy (run by tests/gpu/run.sh when the Python binding exists).
Checks zero-copy in both directions (same device pointer) and values."""
import sys

import cupy as cp
import numpy as np

import cunumpy as xp

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL", what)


def ptr(a):
    return a.__cuda_array_interface__["data"][0]


x = cp.arange(12, dtype=cp.float32).reshape(3, 4)
if hasattr(xp, "from_dlpack"):
    y = xp.from_dlpack(x)
    check(ptr(y) == ptr(x) if hasattr(y, "__cuda_array_interface__")
          else True, "from_dlpack(cupy) copied")
    z = cp.from_dlpack(y)
    check(ptr(z) == ptr(x), "cupy.from_dlpack(cunumpy) copied")
    check(bool((z == x).all()), "values after the DLPack round trip")
    s = (y + y)
    check(np.allclose(cp.asnumpy(cp.from_dlpack(s)), 2 * cp.asnumpy(x)),
          "arithmetic on an imported array")
else:
    print("SKIPPED: cunumpy has no from_dlpack")
if hasattr(xp, "to_cupy") and hasattr(xp, "to_device"):
    y = xp.to_device(np.arange(5.0))
    c = xp.to_cupy(y)
    check(isinstance(c, cp.ndarray), "to_cupy gives a CuPy array")
    check(ptr(c) == ptr(y), "to_cupy copied")
    iface = y.__cuda_array_interface__
    check(iface["version"] == 3 and "stream" in iface,
          "__cuda_array_interface__ v3 with a stream key")
else:
    print("SKIPPED: cunumpy has no to_cupy / to_device")
print(f"dlpack_cupy: {failures} failures")
sys.exit(1 if failures else 0)
