"""numpy.linalg.* and numpy.fft.* called with cunumpy arrays run cunumpy's
functions of the same namespace and agree with NumPy on NumPy arrays."""

import numpy as np
import pytest

import cunumpy as xp

RNG = np.random.default_rng(7)
A = RNG.standard_normal((2, 4, 4))
S = A @ A.transpose(0, 2, 1) + 4 * np.eye(4)
V = RNG.standard_normal((2, 4))

LINALG = {
    "diagonal": (A,), "trace": (A,), "inv": (A,), "det": (A,),
    "slogdet": (A,), "eigvals": (S,), "eigvalsh": (S,),
    "cholesky": (S,), "svdvals": (A,), "pinv": (A,), "matrix_rank": (A,),
    "norm": (A,), "cond": (A,), "solve": (A, V[..., None]),
    "matrix_power": (A, 3), "cross": (V[:, :3], V[:, :3] ** 2),
    "outer": (V[0], V[1]), "tensordot": (A[0], A[1]), "matmul": (A, A),
    "matrix_transpose": (A,), "matrix_norm": (A,), "vector_norm": (V,),
    "vecdot": (V, V), "tensorsolve": (np.eye(4).reshape(2, 2, 4),
                                      np.ones((2, 2))),
    "tensorinv": (np.eye(4).reshape(4, 2, 2), 1),
}


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert isinstance(got, xp.ndarray), type(got)
    g = xp.to_numpy(got)
    assert g.shape == np.shape(want) and g.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(g, want, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg(name):
    args = LINALG[name]
    xargs = tuple(xp.asarray(a) if isinstance(a, np.ndarray) else a
                  for a in args)
    _same(getattr(np.linalg, name)(*xargs), getattr(np.linalg, name)(*args))


def test_linalg_diagonal_trace_differ_from_top_level():
    # numpy.linalg's take the last two axes; numpy's the first two
    x = xp.asarray(A[:, :3, :])
    assert np.linalg.diagonal(x).shape == (2, 3)
    assert np.linalg.trace(x).shape == (2,)
    assert np.diagonal(x).shape == (4, 2)
    np.testing.assert_allclose(xp.to_numpy(np.linalg.trace(x, offset=1)),
                               np.linalg.trace(A[:, :3, :], offset=1))


def test_linalg_decompositions():
    # eig/qr/svd/lstsq: compare invariants (the factors' signs are free)
    w, v = np.linalg.eig(xp.asarray(A))
    assert isinstance(w, xp.ndarray) and isinstance(v, xp.ndarray)
    np.testing.assert_allclose(np.sort_complex(xp.to_numpy(w).ravel()),
                               np.sort_complex(np.linalg.eigvals(A).ravel()),
                               rtol=1e-9)
    w, v = np.linalg.eigh(xp.asarray(S))
    np.testing.assert_allclose(xp.to_numpy(w), np.linalg.eigvalsh(S))
    np.testing.assert_allclose(xp.to_numpy(v @ (w[..., None] * v.mT)), S,
                               rtol=1e-9, atol=1e-9)
    q, r = np.linalg.qr(xp.asarray(A))
    np.testing.assert_allclose(xp.to_numpy(q @ r), A, atol=1e-12)
    u, s, vh = np.linalg.svd(xp.asarray(A))
    np.testing.assert_allclose(xp.to_numpy(s), np.linalg.svd(A)[1],
                               rtol=1e-12)
    x, res, rank, sv = np.linalg.lstsq(xp.asarray(A[0]), xp.asarray(V[0]))
    wx, wres, wrank, wsv = np.linalg.lstsq(A[0], V[0])
    np.testing.assert_allclose(xp.to_numpy(x), wx, rtol=1e-9)
    assert int(rank) == wrank
    got = np.linalg.multi_dot([xp.asarray(A[0]), xp.asarray(A[1]),
                               xp.asarray(A[0])])
    _same(got, np.linalg.multi_dot([A[0], A[1], A[0]]))


FFT = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2",
       "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn", "fftshift",
       "ifftshift"]


@pytest.mark.parametrize("name", FFT)
def test_fft(name):
    x = A[:, ::-1, :3]  # non-contiguous, negative strides
    _same(getattr(np.fft, name)(xp.asarray(x)), getattr(np.fft, name)(x))


def test_fft_keywords():
    x = A[0]
    _same(np.fft.fft(xp.asarray(x), n=6, axis=0, norm="ortho"),
          np.fft.fft(x, n=6, axis=0, norm="ortho"))
    _same(np.fft.irfftn(xp.asarray(x), s=(4, 6), axes=(0, 1)),
          np.fft.irfftn(x, s=(4, 6), axes=(0, 1)))
