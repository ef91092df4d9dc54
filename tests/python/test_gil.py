"""The GIL is released during long engine calls.

A call that holds the GIL lets no other Python thread run until it
returns: another thread can then only make progress within a switch
interval of the call's start or end. The tests shrink the switch interval
to 0.5 ms and look for progress of another thread in the first half of a long
call, away from both ends by a margin of several switch intervals, so
each fails if the call path keeps the GIL (checked by interval overlap,
never by speed)."""

import sys
import threading
import time

import numpy as np
import pytest

import cunumpy as xp

SWITCH = 0.0005  # the switch interval during the tests
MARGIN = 0.004   # > several switch intervals plus one short op
MIN_CALL = 3 * MARGIN
# A loaded machine may not schedule the other thread in time: a test passes
# when one of its tries shows the overlap (a call that holds the GIL shows
# it on none).
TRIES = 4
MAX_ELEMS = 1 << 24


@pytest.fixture(autouse=True)
def short_switch_interval():
    old = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH)
    yield
    sys.setswitchinterval(old)


def _data(n):
    return xp.asarray(np.random.default_rng(1).standard_normal(n) + 2.0)


# One long call per path to the engine: the hand-written ufunc call, an
# operator slot, SWIG wrappers (sort; FFT, which also takes the plan
# cache's lock) and the copy method.
CALLS = {
    "ufunc": lambda a: xp.arctan2(a, a),
    "operator": lambda a: a ** a,
    "swig_sort": lambda a: xp.sort(a),
    "swig_fft": lambda a: xp.fft.fft(a),
    "method_copy": lambda a: a.reshape(1024, -1).T.copy(),
}


def _long_operand(call):
    """An operand on which call takes at least MIN_CALL seconds (doubling
    the size up to MAX_ELEMS)."""
    n = 1 << 20
    while True:
        a = _data(n)
        call(a)  # warm: pools, plans
        t0 = time.perf_counter()
        call(a)
        dt = time.perf_counter() - t0
        if dt >= 0.04 or n >= MAX_ELEMS:
            return a, dt
        n *= 2


def _timed(call, a):
    t0 = time.perf_counter()
    call(a)
    return t0, time.perf_counter()


def _inside(stamps, t0, t1):
    """The stamps in the call's first half, after the margin: a call that
    holds the GIL lets the other thread run only near its ends."""
    return [s for s in stamps if t0 + MARGIN < s < t0 + (t1 - t0) / 2]


def _pure_python_progress(call, a):
    stamps, stop = [], threading.Event()

    def count():
        i = 0
        while not stop.is_set():
            i += 1
            if i % 200 == 0:
                stamps.append(time.perf_counter())

    th = threading.Thread(target=count)
    th.start()
    try:
        time.sleep(0.005)  # the counter is running
        t0, t1 = _timed(call, a)
    finally:
        stop.set()
        th.join()
    return t1 - t0, _inside(stamps, t0, t1)


@pytest.mark.parametrize("path", sorted(CALLS))
def test_pure_python_thread_progresses_during_a_long_call(path):
    call = CALLS[path]
    a, dt = _long_operand(call)
    assert dt >= MIN_CALL, f"{path} took only {dt:.4f} s on {a.size} elements"
    seen = []
    for _ in range(TRIES):
        dt, inside = _pure_python_progress(call, a)
        seen.append(round(dt, 4))
        if dt >= MIN_CALL and inside:
            return
    pytest.fail(f"{path}: no progress of another thread during calls of "
                f"{seen} s")


def _engine_calls_inside(call, a, small):
    done, stop = [], threading.Event()
    ready = threading.Barrier(2)

    def short_calls():
        ready.wait()
        while not stop.is_set():
            s = time.perf_counter()
            xp.sin(small)
            done.append((s, time.perf_counter()))

    th = threading.Thread(target=short_calls)
    th.start()
    try:
        ready.wait()
        time.sleep(0.005)
        t0, t1 = _timed(call, a)
    finally:
        stop.set()
        th.join()
    return t1 - t0, [(s, e) for s, e in done
                     if t0 + MARGIN < s and e < t0 + (t1 - t0) / 2]


@pytest.mark.parametrize("path", ["ufunc", "swig_sort"])
def test_two_threads_run_engine_calls_concurrently(path):
    """One thread runs a long call while another completes whole engine
    calls (each large enough to release the GIL) inside its interval."""
    call = CALLS[path]
    a, _ = _long_operand(call)
    small = _data(1 << 16)
    seen = []
    for _ in range(TRIES):
        dt, within = _engine_calls_inside(call, a, small)
        seen.append(round(dt, 4))
        if dt >= MIN_CALL and within:
            return
    pytest.fail(f"{path}: no engine call of the other thread inside calls "
                f"of {seen} s")


def test_errors_raised_after_a_released_call_are_the_calls_own():
    """The last-error text is per OS thread: a failing call in one thread
    reports its own message while another thread fails differently."""
    errs = {}

    def bad_shape():
        try:
            xp.add(xp.ones((1 << 14,)), xp.ones((3,)))
        except ValueError as e:
            errs["shape"] = str(e)

    def bad_solve():
        try:
            xp.linalg.solve(xp.zeros((64, 64)), xp.ones(64))
        except np.linalg.LinAlgError as e:
            errs["solve"] = str(e)

    threads = [threading.Thread(target=f) for f in (bad_shape, bad_solve)
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert "broadcast" in errs["shape"]
    assert "ingular" in errs["solve"]


def test_small_operands_keep_the_result_exact():
    # the below-threshold path (GIL kept) and the released one agree
    for n in (10, 8191, 8192, 20000):
        na = np.linspace(-3, 3, n)
        np.testing.assert_array_equal(xp.to_numpy(xp.asarray(na) * 2.0),
                                      na * 2.0)
        np.testing.assert_allclose(xp.to_numpy(xp.sin(xp.asarray(na))),
                                   np.sin(na), rtol=1e-15, atol=1e-15)
