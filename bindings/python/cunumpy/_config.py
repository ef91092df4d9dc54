"""show_config(): what this cunumpy was built with and runs on (also
``python3 -m cunumpy``)."""

import os as _os
import sys as _sys

import numpy as _np

from . import _cnlib as _lib

__all__ = ["show_config"]

# The environment variables the engine reads, shown when set.
_ENV = ("CUNUMPY_BACKEND", "ARRAY_BACKEND", "CUNUMPY_CUDA_PLUGIN",
        "CUNUMPY_DEBUG", "CUNUMPY_CC", "CUNUMPY_KERNEL_CACHE",
        "CUNUMPY_CPU_KERNEL_CACHE", "OMP_NUM_THREADS",
        "OPENBLAS_NUM_THREADS")


def _config():
    """{section: {name: value}} of show_config."""
    engine = {}
    for line in _lib.cn_build_info().splitlines():
        name, _, value = line.partition(": ")
        engine[name] = value
    python = {"python": _sys.version.split()[0], "numpy": _np.__version__,
              "cunumpy package": _os.path.dirname(_os.path.abspath(
                  __file__)),
              "active backend": _lib.cn_get_backend()}
    env = {k: _os.environ[k] for k in _ENV if k in _os.environ}
    return {"engine": engine, "python": python, "environment": env}


def show_config(mode="stdout"):
    """Prints the engine's and its libraries' versions (OpenBLAS, LAPACK,
    FFTW, SLEEF, OpenMP; the CUDA runtime, cuBLAS, cuFFT, cuSOLVER and NVRTC
    when the CUDA plugin loads), the plugin's path, whether CUDA is
    available and why not, thread counts and the environment variables
    cunumpy reads. mode="dicts" returns them as {section: {name: value}}
    instead, as numpy.show_config does."""
    cfg = _config()
    if mode == "dicts":
        return cfg
    if mode != "stdout":
        raise ValueError(f"mode must be 'stdout' or 'dicts', not {mode!r}")
    for section, items in cfg.items():
        print(f"{section}:")
        if not items:
            print("  (none set)")
        for k, v in items.items():
            print(f"  {k}: {v}")
    return None
