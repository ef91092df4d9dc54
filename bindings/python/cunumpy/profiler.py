"""Profiling (cupyx.profiler's names): benchmark() times a function on the
host and, on the CUDA backend, on the device with events; time_range()
marks a named range for Nsight Systems (NVTX) when the CUDA backend is
loaded and costs next to nothing otherwise.
"""

import functools as _functools
import math as _math
import time as _time

import numpy as _np

from . import _cnlib as _lib

__all__ = ["benchmark", "time_range"]


class _PerfCaseResult:
    """Times of one benchmark: cpu_times (seconds, one per repeat) and
    gpu_times (seconds, one row per device; no rows without CUDA)."""

    def __init__(self, name, cpu_times, gpu_times, devices):
        self.name = name
        self._ts = _np.asarray(cpu_times, dtype=_np.float64)
        self._gpu = _np.asarray(gpu_times, dtype=_np.float64).reshape(
            len(devices), self._ts.size)
        self._devices = tuple(devices)

    @property
    def cpu_times(self):
        return self._ts

    @property
    def gpu_times(self):
        return self._gpu

    @staticmethod
    def _line(label, t):
        us = t * 1e6
        if us.size == 0:
            return f"{label}: no repeats"
        return (f"{label}:{us.mean():>12.3f} us   +/-{us.std():>9.3f} "
                f"(min:{us.min():>12.3f} / max:{us.max():>12.3f}) us")

    def to_str(self, show_gpu=True):
        parts = [f"{self.name:<20s}:", self._line("    CPU", self._ts)]
        if show_gpu:
            for d, row in zip(self._devices, self._gpu):
                parts.append(self._line(f"    GPU-{d}", row))
        return "".join(parts)

    def __str__(self):
        return self.to_str()

    __repr__ = __str__


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None,
              n_warmup=10, max_duration=_math.inf, devices=None):
    """Runs ``func(*args, **kwargs)`` n_warmup times, then up to n_repeat
    timed times (stopping once max_duration seconds have passed). CPU time
    is the host time of each call; on the CUDA backend the GPU time of each
    repeat is measured with events around the call on the current stream
    of each device in devices (default: the current device). Returns a
    result whose str() is a one-line summary (mean, std, min, max)."""
    if not callable(func):
        raise TypeError("func must be callable")
    n_repeat, n_warmup = int(n_repeat), int(n_warmup)
    if n_repeat < 0 or n_warmup < 0:
        raise ValueError("n_repeat and n_warmup must be non-negative")
    if name is None:
        name = getattr(func, "__name__", type(func).__name__)
    on_gpu = _lib.cn_get_backend() == "cuda"
    if on_gpu:
        from .cuda import Device, Event
        devices = (Device().id,) if devices is None else tuple(
            int(d) for d in devices)
    else:
        devices = ()
    for _ in range(n_warmup):
        func(*args, **kwargs)
    if on_gpu:
        _lib.cn_cuda_synchronize_all()
    cpu, gpu = [], [[] for _ in devices]
    start_all = _time.perf_counter()
    for _ in range(n_repeat):
        if on_gpu:
            ev = []
            for d in devices:
                with Device(d):
                    s, e = Event(), Event()
                    s.record()
                ev.append((d, s, e))
        t0 = _time.perf_counter()
        func(*args, **kwargs)
        t1 = _time.perf_counter()
        if on_gpu:
            for k, (d, s, e) in enumerate(ev):
                with Device(d):
                    e.record()
            for k, (d, s, e) in enumerate(ev):
                e.synchronize()
                gpu[k].append(_lib.cn_event_elapsed_ms(s._handle,
                                                       e._handle) * 1e-3)
        cpu.append(t1 - t0)
        if _time.perf_counter() - start_all >= max_duration:
            break
    return _PerfCaseResult(name, cpu, gpu, devices)


class time_range:
    """A named profiler range around a block (`with time_range("step"):`)
    or every call of a function (`@time_range()`; the message defaults to
    the function's name). color_id picks a palette color (None: the
    profiler's). NVTX ranges when the CUDA backend is loaded."""

    def __init__(self, message=None, color_id=None):
        if message is not None and not isinstance(message, str):
            raise TypeError("message must be a str")
        if color_id is not None and int(color_id) < 0:
            raise ValueError(f"color_id must be non-negative: {color_id}")
        self.message = message
        self.color_id = -1 if color_id is None else int(color_id)

    def __enter__(self):
        if self.message is None:
            raise ValueError("time_range needs a message when used as a "
                             "context manager")
        _lib.cn_range_push(self.message, self.color_id)
        return self

    def __exit__(self, *exc):
        _lib.cn_range_pop()

    def __call__(self, func):
        message = self.message or getattr(func, "__name__", "range")
        color = self.color_id

        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            _lib.cn_range_push(message, color)
            try:
                return func(*args, **kwargs)
            finally:
                _lib.cn_range_pop()
        return wrapper
