"""DLPack and __cuda_array_interface__ round trips between cunumpy GPU
arrays and CuPy (run by tests/gpu/run.sh when the Python binding exists).
Checks zero-copy in both directions (same device pointer) and values, the
streams the protocols report and wait on, per-thread default streams (in
subprocesses, as the switch is read when the plugin loads) and arrays on a
second device."""
import os
import subprocess
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


def raises(exc, fn):
    try:
        fn()
    except exc:
        return True
    return False


if xp.cuda_available():
    xp.set_backend("cuda")
    lib = xp._cnlib
    y = xp.arange(1 << 22, dtype="float64")
    default = 2 if os.environ.get(
        "CUNUMPY_CUDA_PER_THREAD_DEFAULT_STREAM",
        os.environ.get("CUPY_CUDA_PER_THREAD_DEFAULT_STREAM", "0")) not in (
            "", "0") else 1
    check(y.__cuda_array_interface__["stream"] == default,
          "__cuda_array_interface__ stream of the default stream")
    with xp.stream(non_blocking=True) as s:
        native = s.ptr  # the cudaStream_t, as CuPy's Stream.ptr
        check(y.__cuda_array_interface__["stream"] == native,
              "__cuda_array_interface__ reports the current stream")
        w = xp.sqrt(y * y + 1.0)  # enqueued on s only
        consumer = cp.cuda.Stream(non_blocking=True)
        with consumer:  # CuPy passes its current stream to __dlpack__
            z = cp.from_dlpack(w) * 2
        consumer.synchronize()
        want = 2 * np.sqrt(np.arange(1 << 22, dtype=np.float64) ** 2 + 1)
        check(np.allclose(cp.asnumpy(z, stream=consumer), want),
              "the consumer stream waited for the producer's stream")
    for bad in (0, -2):
        check(raises(ValueError, lambda: y.__dlpack__(stream=bad)),
              f"__dlpack__(stream={bad}) raises ValueError")
    for ok in (None, -1, 1, 2, cp.cuda.Stream().ptr):
        check(not raises(Exception, lambda: y.__dlpack__(stream=ok)),
              f"__dlpack__(stream={ok}) accepted")
    probe = ("import cunumpy as xp; xp.set_backend('cuda'); "
             "print(xp.arange(3.0).__cuda_array_interface__['stream'])")
    for env, want in (({"CUNUMPY_CUDA_PER_THREAD_DEFAULT_STREAM": "1"}, 2),
                      ({"CUPY_CUDA_PER_THREAD_DEFAULT_STREAM": "1"}, 2),
                      ({"CUNUMPY_CUDA_PER_THREAD_DEFAULT_STREAM": "0",
                        "CUPY_CUDA_PER_THREAD_DEFAULT_STREAM": "1"}, 1)):
        e = {k: v for k, v in os.environ.items()
             if not k.endswith("PER_THREAD_DEFAULT_STREAM")}
        e.update(env)
        out = subprocess.run([sys.executable, "-c", probe], env=e,
                             capture_output=True, text=True)
        check(out.returncode == 0 and out.stdout.strip() == str(want),
              f"default stream under {env}: {out.stdout!r} {out.stderr!r}")
    if cp.cuda.runtime.getDeviceCount() >= 2:
        a1 = xp.to_device(np.arange(6.0), "cuda:1")
        b1 = a1 * 2 + 1
        check(b1.__dlpack_device__() == (2, 1), "a device-1 result stays "
              "on device 1")
        check(np.array_equal(b1.get(), np.arange(6.0) * 2 + 1),
              "arithmetic on device 1")
        a0 = xp.to_device(np.arange(6.0), "cuda:0")
        check(raises(Exception, lambda: a0 + a1),
              "mixed devices are refused")
        back = xp.to_device(a1, "cuda:0")
        check(np.array_equal(back.get(), np.arange(6.0)),
              "to_device from device 1 to device 0")
    else:
        print("SKIPPED: device-1 checks need two CUDA devices")
else:
    print("SKIPPED: stream checks need CUDA")
print(f"dlpack_cupy: {failures} failures")
sys.exit(1 if failures else 0)
