"""A user program in NumPy style, type-checked by mypy --strict against the
package's stubs (test_typing.py) and run as a program: each assert_type
names the type the stubs give, and the run checks the value has it."""

from typing import Any, assert_type

import numpy as np

import cunumpy as xp
import cunumpy.sparse as sps


def normalize(a: xp.ndarray, axis: int = -1) -> xp.ndarray:
    norm = xp.linalg.norm(a, axis=axis, keepdims=True)
    return a / xp.maximum(norm, 1e-12)


def main() -> None:
    a = xp.arange(12, dtype=xp.float64).reshape(3, 4)
    assert_type(a, xp.ndarray)
    assert_type(a.shape, tuple[int, ...])
    assert_type(a.ndim, int)
    assert_type(a.size, int)
    assert_type(a.dtype, np.dtype[Any])
    assert_type(a.T, xp.ndarray)
    b = xp.zeros((3, 4)) + 2 * a - 1.5
    assert_type(b, xp.ndarray)
    c = xp.sin(b) ** 2 + xp.cos(b) ** 2
    assert_type(c, xp.ndarray)
    s = xp.sum(c, axis=0, keepdims=True)
    assert_type(s, xp.ndarray)
    m = a.mean(axis=(0, 1))
    assert_type(m, xp.ndarray)
    mask = a > 3
    assert_type(mask, xp.ndarray)
    assert_type(a[mask], xp.ndarray)
    assert_type(a @ a.T, xp.ndarray)
    x = xp.linalg.solve(a @ a.T + xp.eye(3), xp.ones(3))
    assert_type(x, xp.ndarray)
    w, v = xp.linalg.eigh(a @ a.T)
    assert_type(w, xp.ndarray)
    assert_type(xp.linalg.inv(xp.eye(3)), xp.ndarray)
    f = xp.fft.fft(xp.linspace(0.0, 1.0, 8))
    assert_type(f, xp.ndarray)
    assert_type(xp.abs(f), xp.ndarray)
    rng = xp.random.default_rng(0)
    r = rng.normal(size=(2, 2))
    assert_type(r, xp.ndarray)
    parts = xp.split(xp.arange(6), 3)
    assert_type(parts, list[xp.ndarray])
    cat = xp.concatenate([a, b], axis=0)
    assert_type(cat, xp.ndarray)
    assert_type(xp.allclose(c, 1.0), bool)
    assert_type(xp.asarray([1, 2, 3]).astype(xp.float32), xp.ndarray)
    n = normalize(a)
    assert_type(n, xp.ndarray)
    assert_type(xp.special.erf(a), xp.ndarray)
    # Calls in the forms NumPy users write (none may be rejected).
    assert_type(xp.arange(0.0, 1.0, 0.25), xp.ndarray)
    assert_type(rng.gamma(2.5, size=3), xp.ndarray)
    assert_type(rng.triangular(0.0, 0.5, 1.0), xp.ndarray)
    assert_type(rng.integers(0, 10, size=(2, 2)), xp.ndarray)
    assert_type(xp.pad(a, 1), xp.ndarray)
    assert_type(xp.clip(a, 0, 5), xp.ndarray)
    assert_type(xp.take(a, [0, 1], axis=1), xp.ndarray)
    assert_type(a.reshape(-1), xp.ndarray)
    assert_type(a.reshape((4, 3)), xp.ndarray)
    assert_type(a.astype("float32"), xp.ndarray)
    assert_type(xp.stack([a, a], axis=0), xp.ndarray)
    assert_type(xp.einsum("ij,jk->ik", a, a.T), xp.ndarray)
    assert_type(xp.linalg.norm(a, ord=2), xp.ndarray)
    assert_type(xp.fft.rfft(a, n=8, axis=-1), xp.ndarray)
    assert_type(xp.sort(a, axis=None), xp.ndarray)
    assert_type(xp.cumsum(a, axis=1, dtype=xp.float32), xp.ndarray)
    hist, edges = xp.histogram(a, bins=4)
    assert_type(hist, xp.ndarray)
    picked = xp.where(mask, a, 0.0)
    total_picked = xp.sum(picked, axis=(0, 1))
    assert_type(total_picked, xp.ndarray)
    b[0, :] = 7.0
    b += 1
    assert_type(b, xp.ndarray)
    host = xp.asnumpy(n)
    assert_type(host, np.ndarray[Any, Any])
    total = float(xp.sum(n)) + len(a)
    print(type(host).__name__, round(total, 6))

    # The values have the types the stubs promise.
    for value in (a, b, c, s, m, mask, a[mask], x, w, f, r, cat, n):
        assert isinstance(value, xp.ndarray), type(value)
    assert isinstance(a.shape, tuple) and isinstance(a.ndim, int)
    assert all(isinstance(p, xp.ndarray) for p in parts)
    assert isinstance(xp.allclose(c, 1.0), bool)
    results_that_follow_the_arguments()


def _is(value: object, *kinds: type) -> None:
    if len(kinds) > 1:  # a tuple of that many values of those types
        assert isinstance(value, tuple) and len(value) == len(kinds), value
        for v, k in zip(value, kinds):
            assert isinstance(v, k), (type(v), k)
    else:
        assert isinstance(value, kinds[0]), (type(value), kinds[0])


def results_that_follow_the_arguments() -> None:
    """The overloads: each call's result type follows its flags, modes and
    number of arguments, and the run checks the value has that type."""
    nd = xp.ndarray
    a = xp.asarray([[3.0, 1.0], [1.0, 3.0]])
    v = xp.asarray([2.0, 1.0, 2.0])
    u = xp.unique(v)
    assert_type(u, xp.ndarray)
    _is(u, nd)
    uc = xp.unique(v, return_counts=True)
    assert_type(uc, tuple[xp.ndarray, xp.ndarray])
    _is(uc, nd, nd)
    ui = xp.unique(v, return_index=True, return_inverse=True)
    assert_type(ui, tuple[xp.ndarray, xp.ndarray, xp.ndarray])
    _is(ui, nd, nd, nd)
    ua = xp.unique(v, True, True, True)
    assert_type(ua, tuple[xp.ndarray, xp.ndarray, xp.ndarray, xp.ndarray])
    _is(ua, nd, nd, nd, nd)
    flag = bool(len(v) % 2)
    assert_type(xp.unique(v, return_counts=flag),
                xp.ndarray | tuple[xp.ndarray, ...])
    w1 = xp.where(v > 1.5)
    assert_type(w1, tuple[xp.ndarray, ...])
    _is(w1, tuple)
    _is(w1[0], nd)
    w3 = xp.where(v > 1.5, v, 0.0)
    assert_type(w3, xp.ndarray)
    _is(w3, nd)
    ls = xp.linspace(0.0, 1.0, 5)
    assert_type(ls, xp.ndarray)
    _is(ls, nd)
    lss = xp.linspace(0.0, 1.0, 5, retstep=True)
    assert_type(lss, tuple[xp.ndarray, float | xp.ndarray])
    _is(lss, nd, float)
    assert_type(xp.average(a, axis=0), xp.ndarray)
    avg = xp.average(a, axis=0, returned=True)
    assert_type(avg, tuple[xp.ndarray, xp.ndarray])
    _is(avg, nd, nd)
    ix = xp.indices((2, 3))
    assert_type(ix, xp.ndarray)
    _is(ix, nd)
    assert_type(xp.indices((2, 3), sparse=True), tuple[xp.ndarray, ...])
    _is(xp.indices((2, 3), sparse=True), nd, nd)
    usv = xp.linalg.svd(a)
    assert_type(usv, xp.linalg.SVDResult)
    assert_type(usv.S, xp.ndarray)
    _is(usv, nd, nd, nd)
    sv = xp.linalg.svd(a, compute_uv=False)
    assert_type(sv, xp.ndarray)
    _is(sv, nd)
    qr = xp.linalg.qr(a)
    assert_type(qr, xp.linalg.QRResult)
    assert_type(qr.R, xp.ndarray)
    assert_type(xp.linalg.qr(a, mode="complete"), xp.linalg.QRResult)
    r = xp.linalg.qr(a, mode="r")
    assert_type(r, xp.ndarray)
    _is(r, nd)
    ls4 = xp.linalg.lstsq(a, v[:2])
    assert_type(ls4, tuple[xp.ndarray, xp.ndarray, xp.ndarray, xp.ndarray])
    _is(ls4, nd, nd, nd, nd)
    # Sparse operators: with a dense operand dense, with a scalar the same
    # format.
    m = sps.csr_matrix(a)
    mv = m @ v[:2]
    assert_type(mv, xp.ndarray)
    _is(mv, nd)
    m2 = m * 2.0
    assert_type(m2, sps.csr_matrix)
    _is(m2, sps.csr_matrix)
    assert_type(-sps.coo_array(a), sps.coo_array)
    _is(-sps.coo_array(a), sps.coo_array)
    assert_type(m.toarray(), xp.ndarray)
    _is(m.toarray(), nd)
    assert_type(m.nnz, int)
    _is(m.nnz, int)
    assert_type(m.shape, tuple[int, ...])
    # Device objects and the profiler, on any backend.
    pool = xp.cuda.get_default_memory_pool()
    assert_type(pool, xp.cuda.MemoryPool)
    assert_type(pool.used_bytes(), int)
    assert_type(pool.get_limit(), int)
    _is(pool.used_bytes(), int)
    assert_type(xp.cuda.is_available(), bool)
    _is(xp.cuda.is_available(), bool)
    dev = xp.cuda.Device(0)
    assert_type(dev.id, int)
    if xp.cuda.is_available():  # the properties need a device
        assert_type(dev.compute_capability, str)
        _is(dev.compute_capability, str)
        _is(dev.mem_info, int, int)
    assert_type(a.device.type, str)
    _is(a.device.type, str)
    res = xp.profiler.benchmark(xp.sin, (v,), n_repeat=2, n_warmup=0)
    assert_type(res.cpu_times, np.ndarray[Any, Any])
    _is(res.cpu_times, np.ndarray)
    with xp.profiler.time_range("block") as rng_range:
        assert_type(rng_range, xp.profiler.time_range)


if __name__ == "__main__":
    main()
