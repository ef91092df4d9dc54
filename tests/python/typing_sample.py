"""A user program in NumPy style, type-checked by mypy --strict against the
package's stubs (test_typing.py) and run as a program: each assert_type
names the type the stubs give, and the run checks the value has it."""

from typing import Any, assert_type

import numpy as np

import cunumpy as xp


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


if __name__ == "__main__":
    main()
