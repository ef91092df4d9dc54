"""numpy.linalg's hermitian= forms (svd, pinv, matrix_rank), tensorinv,
tensorsolve and the Array API names of cunumpy.linalg, against NumPy."""

import os
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cunumpy as xp
from conftest import arrays, assert_same, builtin_exception

LA_DTYPES = [np.dtype(n) for n in ("float32", "float64", "complex64",
                                   "complex128")]


def tol(dt):
    return 2e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10


def rand(shape, dt, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


def herm(shape, dt, seed):
    a = rand(shape, dt, seed)
    return a + np.conj(np.swapaxes(a, -1, -2))


def close(got, want, dt, scale=1.0):
    got = got.get() if isinstance(got, xp.ndarray) else np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=tol(dt) * 10,
                               atol=tol(dt) * 10 * scale)


def raises_like(f_np, f_xp):
    with pytest.raises(Exception) as e_np:
        f_np()
    with pytest.raises(builtin_exception(e_np.type)):
        f_xp()


# ---- svd(hermitian=True) --------------------------------------------------


@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("shape", [(5, 5), (3, 4, 4), (2, 1, 3, 3), (1, 1)])
def test_svd_hermitian_matches_numpy(dt, shape):
    a = herm(shape, dt, 1)
    u, s, vh = np.linalg.svd(a, hermitian=True)
    U, S, Vh = xp.linalg.svd(xp.asarray(a), hermitian=True)
    assert U.dtype == u.dtype and Vh.dtype == vh.dtype and S.dtype == s.dtype
    close(S, s, dt, np.abs(s).max())
    # u[:, k] vh[k, :] is unique for distinct |eigenvalues| (phase-free)
    outer = "...ik,...kj->...kij"
    close(np.einsum(outer, U.get(), Vh.get()), np.einsum(outer, u, vh), dt)
    close(U.get() * S.get()[..., None, :] @ Vh.get(), a, dt,
          np.abs(a).max())
    close(xp.linalg.svd(xp.asarray(a), compute_uv=False, hermitian=True), s,
          dt, np.abs(s).max())
    # full_matrices has no effect for hermitian input
    U2, S2, Vh2 = xp.linalg.svd(xp.asarray(a), full_matrices=False,
                                hermitian=True)
    close(S2, s, dt, np.abs(s).max())


def test_svd_hermitian_signs_and_ties():
    # eigenvalues -3, 0, 2: the signs move into vh, vh stays unitary
    a = np.diag([-3.0, 0.0, 2.0])
    u, s, vh = np.linalg.svd(a, hermitian=True)
    U, S, Vh = xp.linalg.svd(xp.asarray(a), hermitian=True)
    assert_same(S, s, exact=True)
    close(Vh.get() @ Vh.get().T, np.eye(3), np.float64)
    close(U.get() * S.get() @ Vh.get(), a, np.float64)
    np.testing.assert_array_equal(np.abs(U.get()), np.abs(u))
    np.testing.assert_array_equal(np.abs(Vh.get()), np.abs(vh))
    # a tie (+1, -1): the values agree, the vectors may pair either way
    t = np.array([[0.0, 1.0], [1.0, 0.0]])
    U, S, Vh = xp.linalg.svd(xp.asarray(t), hermitian=True)
    assert_same(S, np.linalg.svd(t, hermitian=True)[1], ulp=4)
    close(U.get() * S.get() @ Vh.get(), t, np.float64)


@pytest.mark.parametrize("dt", ["int64", "bool", "float32"])
def test_svd_hermitian_dtypes(dt):
    a = np.array([[2, 1, 0], [1, 3, 1], [0, 1, 1]]).astype(dt)
    s = np.linalg.svd(a, compute_uv=False, hermitian=True)
    S = xp.linalg.svd(xp.asarray(a), compute_uv=False, hermitian=True)
    assert S.dtype == s.dtype
    close(S, s, s.dtype, 4)


def test_svd_hermitian_empty_and_errors():
    for shape in [(0, 0), (0, 3, 3), (2, 0, 0)]:
        a = np.zeros(shape)
        u, s, vh = np.linalg.svd(a, hermitian=True)
        U, S, Vh = xp.linalg.svd(xp.asarray(a), hermitian=True)
        assert (U.shape, S.shape, Vh.shape) == (u.shape, s.shape, vh.shape)
    ns = np.ones((3, 2))
    raises_like(lambda: np.linalg.svd(ns, hermitian=True),
                lambda: xp.linalg.svd(xp.asarray(ns), hermitian=True))
    raises_like(lambda: np.linalg.svd(np.ones(3), hermitian=True),
                lambda: xp.linalg.svd(xp.ones(3), hermitian=True))


@given(arrays(np.dtype("float64"), st.sampled_from([(4, 4), (2, 3, 3)]), finite=True,
              small=True))
def test_svd_hermitian_strided_views(pair):
    a, x = pair
    a = a + np.swapaxes(a, -1, -2)
    x = x + xp.matrix_transpose(x)
    s = np.linalg.svd(a, compute_uv=False, hermitian=True)
    close(xp.linalg.svd(x, compute_uv=False, hermitian=True), s,
          np.float64, max(1.0, np.abs(s).max()))
    U, S, Vh = xp.linalg.svd(x, hermitian=True)
    close(U.get() * S.get()[..., None, :] @ Vh.get(), a, np.float64,
          max(1.0, np.abs(a).max()))


# ---- pinv and matrix_rank ---------------------------------------------------


@pytest.mark.parametrize("dt", LA_DTYPES)
def test_pinv_hermitian(dt):
    a = herm((3, 4, 4), dt, 2)
    # a singular one too: v v^H
    v = rand((4, 2), dt, 3)
    sing = v @ np.conj(v.T)
    p = np.linalg.pinv(a, hermitian=True)
    scale = np.abs(p).max()
    close(xp.linalg.pinv(xp.asarray(a), hermitian=True), p, dt, scale)
    close(xp.linalg.pinv(xp.asarray(a)), np.linalg.pinv(a), dt, scale)
    p = np.linalg.pinv(sing, rcond=1e-3, hermitian=True)
    close(xp.linalg.pinv(xp.asarray(sing), rcond=1e-3, hermitian=True), p,
          dt, np.abs(p).max())


def test_pinv_rtol_forms():
    a = np.diag([1.0, 1e-3, 1e-14])
    for kw in [{}, {"rtol": None}, {"rtol": 1e-2}, {"rcond": 1e-5},
               {"rcond": 1e-16}]:
        p = np.linalg.pinv(a, **kw)
        close(xp.linalg.pinv(xp.asarray(a), **kw), p, np.float64,
              np.abs(p).max())
    f = a.astype(np.float32)
    p = np.linalg.pinv(f, rtol=None)
    close(xp.linalg.pinv(xp.asarray(f), rtol=None), p, np.float32,
          np.abs(p).max())
    with pytest.raises(ValueError):
        xp.linalg.pinv(xp.asarray(a), rcond=1e-3, rtol=1e-3)
    raises_like(lambda: np.linalg.pinv(np.ones((2, 3)), hermitian=True),
                lambda: xp.linalg.pinv(xp.ones((2, 3)), hermitian=True))


@pytest.mark.parametrize("hermitian", [False, True])
def test_matrix_rank_forms(hermitian):
    a = np.stack([np.diag([1.0, 1e-3, 1e-8]), np.diag([-1.0, -1e-3, 0.0]),
                  np.diag([2.0, 2.0, 2.0])])
    for kw in [{}, {"tol": 1e-2}, {"tol": 1e-6}, {"rtol": 1e-5},
               {"rtol": 0.5}, {"tol": 0.0}]:
        r = np.linalg.matrix_rank(a, hermitian=hermitian, **kw)
        assert_same(xp.linalg.matrix_rank(xp.asarray(a), hermitian=hermitian,
                                          **kw), r)
    c = herm((2, 5, 5), np.complex128, 4)
    v = rand((5, 2), np.complex128, 5)
    c[1] = v @ np.conj(v.T)
    assert_same(xp.linalg.matrix_rank(xp.asarray(c), hermitian=hermitian),
                np.linalg.matrix_rank(c, hermitian=hermitian))
    with pytest.raises(ValueError):
        xp.linalg.matrix_rank(xp.asarray(a), tol=1, rtol=1)
    # 1-d input: not all zero
    assert int(xp.linalg.matrix_rank(xp.asarray([0.0, 2.0]))) == 1
    assert int(xp.linalg.matrix_rank(xp.zeros(3))) == 0


# ---- tensorinv and tensorsolve -----------------------------------------------


@pytest.mark.parametrize("dt", LA_DTYPES)
def test_tensorinv(dt):
    a = rand((4, 6, 8, 3), dt, 6) + np.eye(24).reshape(4, 6, 8, 3) * 5
    a = a.astype(dt)
    ai = np.linalg.tensorinv(a, ind=2)
    close(xp.linalg.tensorinv(xp.asarray(a), ind=2), ai, dt, np.abs(ai).max())
    b = a.reshape(24, 8, 3)
    bi = np.linalg.tensorinv(b, ind=1)
    close(xp.linalg.tensorinv(xp.asarray(b), ind=1), bi, dt,
          np.abs(bi).max())
    raises_like(lambda: np.linalg.tensorinv(a, ind=0),
                lambda: xp.linalg.tensorinv(xp.asarray(a), ind=0))
    raises_like(lambda: np.linalg.tensorinv(a, ind=1),
                lambda: xp.linalg.tensorinv(xp.asarray(a), ind=1))


@pytest.mark.parametrize("dt", LA_DTYPES)
def test_tensorsolve(dt):
    a = (rand((6, 4, 2, 3, 4), dt, 7)
         + np.eye(24).reshape(6, 4, 2, 3, 4) * 5).astype(dt)
    b = rand((6, 4), dt, 8)
    x = np.linalg.tensorsolve(a, b)
    close(xp.linalg.tensorsolve(xp.asarray(a), xp.asarray(b)), x, dt,
          np.abs(x).max())
    a = (rand((6, 4, 6, 4), dt, 9)
         + np.eye(24).reshape(6, 4, 6, 4) * 5).astype(dt)
    for axes in [(0,), (1, 0), (2, 3), (-1,)]:
        x = np.linalg.tensorsolve(a, b, axes=tuple(i % 4 for i in axes))
        close(xp.linalg.tensorsolve(xp.asarray(a), xp.asarray(b), axes=axes),
              x, dt, np.abs(x).max())
    bad = np.ones((2, 3, 4))
    raises_like(lambda: np.linalg.tensorsolve(bad, np.ones((2, 3))),
                lambda: xp.linalg.tensorsolve(xp.asarray(bad), xp.ones((2, 3))))


# ---- Array API names ------------------------------------------------------------


@given(arrays(np.dtype("float64"), st.sampled_from([(3, 4), (2, 3, 3), (4, 1, 2)]),
              small=True), st.integers(-2, 2))
def test_diagonal_and_trace_use_last_axes(pair, offset):
    a, x = pair
    assert_same(xp.linalg.diagonal(x, offset=offset),
                np.linalg.diagonal(a, offset=offset), exact=True)
    assert_same(xp.linalg.trace(x, offset=offset),
                np.linalg.trace(a, offset=offset), ulp=16)


def test_trace_dtype_and_ints():
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    assert_same(xp.linalg.trace(xp.asarray(a)), np.linalg.trace(a))
    assert_same(xp.linalg.trace(xp.asarray(a), dtype=np.float32),
                np.linalg.trace(a, dtype=np.float32))
    assert_same(xp.linalg.diagonal(xp.asarray(a), offset=1),
                np.linalg.diagonal(a, offset=1))


@pytest.mark.parametrize("dt", ["int64", "float32", "complex128", "bool"])
def test_outer_and_cross(dt):
    a = np.array([1, 2, 3]).astype(dt)
    b = np.array([4, -5, 6, 0]).astype(dt)
    assert_same(xp.linalg.outer(xp.asarray(a), xp.asarray(b)),
                np.linalg.outer(a, b))
    if dt != "bool":
        c = np.arange(12).reshape(4, 3).astype(dt)
        assert_same(xp.linalg.cross(xp.asarray(c), xp.asarray(a)),
                    np.linalg.cross(c, a))
        ct = np.ascontiguousarray(c.T)
        assert_same(xp.linalg.cross(xp.asarray(ct), xp.asarray(ct[:, ::-1]),
                                    axis=0),
                    np.linalg.cross(ct, ct[:, ::-1], axis=0))
    m = np.ones((2, 2), dt)
    raises_like(lambda: np.linalg.outer(m, a),
                lambda: xp.linalg.outer(xp.asarray(m), xp.asarray(a)))
    v2 = np.ones(2, dt)
    raises_like(lambda: np.linalg.cross(v2, v2),
                lambda: xp.linalg.cross(xp.asarray(v2), xp.asarray(v2)))


@given(arrays(np.dtype("float64"), st.sampled_from([(3, 4), (2, 3, 4), (5,), ()]),
              small=True),
       st.sampled_from([2, 1, 0, 3, np.inf, -np.inf, -1, 0.5]),
       st.booleans(), st.data())
def test_vector_norm(pair, ord, keepdims, data):
    a, x = pair
    axes = [None] + list(range(-a.ndim, a.ndim))
    if a.ndim >= 2:
        axes += [(0, 1), (-1, 0)]
    if a.ndim == 3:
        axes += [(0, 2, 1)]
    axis = data.draw(st.sampled_from(axes))
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord)
    got = xp.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
    assert_same(got, want, ulp=16)


@pytest.mark.parametrize("dt", LA_DTYPES)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
def test_matrix_norm(dt, ord):
    a = rand((2, 3, 4), dt, 9)
    for keepdims in (False, True):
        want = np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
        got = xp.linalg.matrix_norm(xp.asarray(a), ord=ord, keepdims=keepdims)
        assert got.dtype == want.dtype
        close(got, want, dt, np.abs(want).max())


def test_norm_order_errors():
    a = np.ones((3, 3))
    raises_like(lambda: np.linalg.matrix_norm(a, ord=3),
                lambda: xp.linalg.matrix_norm(xp.asarray(a), ord=3))
    raises_like(lambda: np.linalg.matrix_norm(a, ord="bad"),
                lambda: xp.linalg.matrix_norm(xp.asarray(a), ord="bad"))
    with pytest.raises(ValueError):
        xp.linalg.vector_norm(xp.asarray(a), ord="fro")
    raises_like(lambda: np.linalg.vector_norm(a, axis=2),
                lambda: xp.linalg.vector_norm(xp.asarray(a), axis=2))


@pytest.mark.parametrize("dt", ["int32", "float64", "complex64", "bool"])
def test_vecdot_svdvals_matrix_transpose(dt):
    a = rand((2, 3, 4), "float64", 10)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rand((2, 3, 4), "float64", 11)
    a = (a * 4).astype(dt)
    b = a[:, ::-1, :]
    for axis in (-1, 0, 1):
        want = np.linalg.vecdot(a, b, axis=axis)
        assert_same(xp.linalg.vecdot(xp.asarray(a), xp.asarray(b), axis=axis),
                    want, ulp=32)
    assert_same(xp.linalg.matrix_transpose(xp.asarray(a)),
                np.linalg.matrix_transpose(a), exact=True)
    if np.dtype(dt).kind in "fc":
        s = np.linalg.svdvals(a)
        close(xp.linalg.svdvals(xp.asarray(a)), s, dt, np.abs(s).max())


def test_namespace_covers_numpy_linalg():
    names = {n for n in dir(np.linalg) if not n.startswith("_")}
    names -= {"linalg", "test"}
    missing = sorted(n for n in names if not hasattr(xp.linalg, n))
    assert missing == [], missing


# ---- every layout takes the same path to the same answer ------------------


def layouts(a):
    """a as cunumpy arrays in C order, Fortran order, reversed (negative
    strides) and every-other-element strided."""
    out = [xp.asarray(np.ascontiguousarray(a)), xp.asarray(np.asfortranarray(a))]
    rev = (slice(None, None, -1),) * a.ndim
    out.append(xp.asarray(np.ascontiguousarray(a[rev]))[rev])
    big = np.zeros(tuple(2 * n for n in a.shape), a.dtype)
    sl = (slice(None, None, 2),) * a.ndim
    big[sl] = a
    out.append(xp.asarray(big)[sl])
    return out


@pytest.mark.parametrize("dt", LA_DTYPES)
def test_layouts_match_numpy(dt):
    n = 6
    g = (rand((2, n, n), dt, 20) + 3 * n * np.eye(n)).astype(dt)
    h = herm((2, n, n), dt, 21)
    spd = (g @ np.conj(np.swapaxes(g, -1, -2))).astype(dt)
    # junk in the triangle that must not be read
    hl = np.tril(h) + np.triu(np.full_like(h, 99), 1)
    su = np.triu(spd) + np.tril(np.full_like(spd, 99), -1)
    r = rand((2, 7, 4), dt, 22)
    b = rand((2, n, 3), dt, 23)
    bv = rand((n,), dt, 24)
    for x in layouts(g):
        close(xp.linalg.inv(x), np.linalg.inv(g), dt, 1)
        close(xp.linalg.solve(x, xp.asarray(b)), np.linalg.solve(g, b), dt, 1)
        close(xp.linalg.solve(x[0], xp.asarray(bv)),
              np.linalg.solve(g[0], bv), dt, 1)
        d = np.linalg.det(g)
        close(xp.linalg.det(x), d, dt, np.abs(d).max())
        sl = np.linalg.slogdet(g)
        res = xp.linalg.slogdet(x)
        close(res.sign, sl.sign, dt)
        close(res.logabsdet, sl.logabsdet, dt, 10)
    for x in layouts(hl):
        w, v = np.linalg.eigh(hl)
        W, V = xp.linalg.eigh(x)
        close(W, w, dt, np.abs(w).max())
        # eigenvectors up to a phase: compare the projectors v v^H
        proj = "...ik,...jk->...kij"
        close(np.einsum(proj, V.get(), np.conj(V.get())),
              np.einsum(proj, v, np.conj(v)), dt)
        close(xp.linalg.eigvalsh(x), w, dt, np.abs(w).max())
    for x in layouts(su):
        c = np.linalg.cholesky(su, upper=True)
        close(xp.linalg.cholesky(x, upper=True), c, dt, np.abs(c).max())
    for x in layouts(np.conj(np.swapaxes(su, -1, -2))):
        c = np.linalg.cholesky(np.conj(np.swapaxes(su, -1, -2)))
        close(xp.linalg.cholesky(x), c, dt, np.abs(c).max())
    for x in layouts(r):
        for full in (True, False):
            u, s, vh = np.linalg.svd(r, full_matrices=full)
            U, S, Vh = xp.linalg.svd(x, full_matrices=full)
            assert U.shape == u.shape and Vh.shape == vh.shape
            close(S, s, dt, s.max())
            k = s.shape[-1]
            outer = "...ik,...kj->...kij"
            close(np.einsum(outer, U.get()[..., :k], Vh.get()[..., :k, :]),
                  np.einsum(outer, u[..., :k], vh[..., :k, :]), dt)
            uu = U.get()
            close(np.conj(np.swapaxes(uu, -1, -2)) @ uu,
                  np.broadcast_to(np.eye(uu.shape[-1]), (2,) + (uu.shape[-1],) * 2),
                  dt)
        close(xp.linalg.svd(x, compute_uv=False),
              np.linalg.svd(r, compute_uv=False), dt, 10)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0, 4), (2, 4, 0),
                                   (0, 0), (1, 1), (1, 5), (5, 1)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_degenerate_shapes(shape, full):
    a = np.ones(shape)
    u, s, vh = np.linalg.svd(a, full_matrices=full)
    U, S, Vh = xp.linalg.svd(xp.asarray(a), full_matrices=full)
    assert (U.shape, S.shape, Vh.shape) == (u.shape, s.shape, vh.shape)
    close(S, s, np.float64)
    # the leading singular vectors are unique up to sign (the rest of a
    # full basis is not)
    k = s.shape[-1]
    close(np.abs(U.get()[..., :k]), np.abs(u[..., :k]), np.float64)
    close(np.abs(Vh.get()[..., :k, :]), np.abs(vh[..., :k, :]), np.float64)
    uu = U.get()
    close(np.swapaxes(uu, -1, -2) @ uu,
          np.broadcast_to(np.eye(uu.shape[-1]), uu.shape[:-2] +
                          (uu.shape[-1],) * 2), np.float64)


SINGULAR = [[1.0, 2.0], [2.0, 4.0]]


@pytest.mark.parametrize("call, words", [
    (lambda a: xp.linalg.inv(a), "Singular matrix"),
    (lambda a: xp.linalg.solve(a, xp.ones(2)), "Singular matrix"),
    (lambda a: xp.linalg.cholesky(a), "not positive definite"),
    (lambda a: xp.linalg.eigvalsh(xp.full((3, 3), np.nan)),
     "did not converge"),
    (lambda a: xp.linalg.tensorinv(xp.ones((2, 3)), ind=1), "'square'"),
])
def test_linalg_error_is_numpys(call, words):
    """Linear-algebra failures raise cunumpy.linalg.LinAlgError, which
    `except numpy.linalg.LinAlgError` and `except ValueError` catch (NumPy
    raises the same class for these inputs)."""
    a = xp.asarray(SINGULAR)
    with pytest.raises(xp.linalg.LinAlgError, match=words) as e:
        call(a)
    assert issubclass(xp.linalg.LinAlgError, np.linalg.LinAlgError)
    assert isinstance(e.value, ValueError)
    assert "LinAlgError" not in str(e.value)  # the class says it
    try:
        call(a)
    except np.linalg.LinAlgError:
        pass
    try:
        call(a)
    except ValueError:
        pass
    with pytest.raises(np.linalg.LinAlgError):
        {"Singular matrix": lambda: np.linalg.inv(np.asarray(SINGULAR)),
         "not positive definite": lambda: np.linalg.cholesky(
             np.asarray(SINGULAR)),
         "did not converge": lambda: np.linalg.eigvalsh(
             np.full((3, 3), np.nan)),
         "'square'": lambda: np.linalg.tensorinv(np.ones((2, 3)), ind=1),
         }[words]()


def test_linalg_error_is_not_raised_for_other_value_errors():
    # a bad argument stays a plain ValueError, as NumPy's own
    with pytest.raises(ValueError) as e:
        xp.linalg.tensorinv(xp.ones((2, 2)), ind=0)
    assert not isinstance(e.value, np.linalg.LinAlgError)


def test_cond_of_singular_matrix_is_inf():
    # cond catches the singular inverse by status, as NumPy gives inf
    assert xp.linalg.cond(xp.asarray(SINGULAR), 1) == np.linalg.cond(
        np.asarray(SINGULAR), 1)
    stack = xp.asarray([SINGULAR, [[1.0, 0.0], [0.0, 2.0]]])
    np.testing.assert_array_equal(
        np.asarray(xp.linalg.cond(stack, 1)),
        np.linalg.cond(np.asarray([SINGULAR, [[1.0, 0.0], [0.0, 2.0]]]), 1))


@pytest.mark.parametrize("dt, value", [("int8", 300), ("uint8", -1),
                                       ("int64", 2**64 - 1)])
def test_weak_int_out_of_range_is_overflow_error(dt, value):
    a = xp.asarray([1], dtype=dt)
    with pytest.raises(OverflowError, match="out of bounds for " + dt):
        a + value
    with pytest.raises(OverflowError):
        np.asarray([1], dtype=dt) + value


_NONFINITE_CALLS = {
    "eig": lambda L, a, s, b: L.eig(a),
    "eigvals": lambda L, a, s, b: L.eigvals(a),
    "eigvalsh": lambda L, a, s, b: L.eigvalsh(s),
    "svdvals": lambda L, a, s, b: L.svd(a, compute_uv=False),
    "pinv": lambda L, a, s, b: L.pinv(a),
    "cond": lambda L, a, s, b: L.cond(a),
    "cond1": lambda L, a, s, b: L.cond(a, 1),
    "condfro": lambda L, a, s, b: L.cond(a, "fro"),
    "matrix_rank": lambda L, a, s, b: L.matrix_rank(a),
    "lstsq": lambda L, a, s, b: L.lstsq(a, b)[0],
    "det": lambda L, a, s, b: L.det(a),
    "slogdet": lambda L, a, s, b: L.slogdet(a),
    "cholesky": lambda L, a, s, b: L.cholesky(s),
    "qr_r": lambda L, a, s, b: L.qr(a)[1],
    "norm2": lambda L, a, s, b: L.norm(a, 2),
    "norm-2": lambda L, a, s, b: L.norm(a, -2),
    "normnuc": lambda L, a, s, b: L.norm(a, "nuc"),
}


@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("name", sorted(_NONFINITE_CALLS))
def test_nonfinite_input_matches_numpy(name, bad):
    """NaN/inf entries: the functions NumPy answers with NaN/inf results give
    the same values; the ones it refuses raise LinAlgError, never a LAPACK
    argument error or a crash."""
    f = _NONFINITE_CALLS[name]
    a = np.array([[1.0, 2.0], [3.0, bad]])
    s = (a + a.T) / 2
    b = np.array([1.0, 2.0])
    with np.errstate(all="ignore"):
        try:
            want = f(np.linalg, a, s, b)
        except np.linalg.LinAlgError as e:
            with pytest.raises(np.linalg.LinAlgError, match=str(e)):
                f(xp.linalg, xp.asarray(a), xp.asarray(s), xp.asarray(b))
            return
    got = f(xp.linalg, xp.asarray(a), xp.asarray(s), xp.asarray(b))
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), w)
    else:
        np.testing.assert_allclose(np.asarray(got), want)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0)])
@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2,
                                 np.inf, -np.inf])
def test_norm_of_empty_matrix_matches_numpy(shape, ord):
    z = np.zeros(shape)
    try:
        want = np.linalg.norm(z, ord)
    except ValueError:
        with pytest.raises(ValueError):
            xp.linalg.norm(xp.asarray(z), ord)
        return
    assert float(xp.linalg.norm(xp.asarray(z), ord)) == want


def test_openblas_kernels_follow_the_cpu_flags():
    """OpenBLAS 0.3.21 falls back to its generic Prescott kernels on CPU
    models it does not know; the package picks the kernels from the CPU's
    flags before the engine loads OpenBLAS (cunumpy/_blas_env.py)."""
    from cunumpy import _blas_env
    assert _blas_env._coretype_from_flags(
        {"avx512f", "avx512bw", "avx512dq", "avx512vl", "avx2", "fma"}) == \
        "SkylakeX"
    assert _blas_env._coretype_from_flags({"avx2", "fma", "avx512f"}) == \
        "Haswell"
    assert _blas_env._coretype_from_flags({"sse2"}) is None
    import ctypes
    try:
        lib = ctypes.CDLL("libopenblas.so.0")
        lib.openblas_get_corename.restype = ctypes.c_char_p
    except (OSError, AttributeError):
        pytest.skip("the engine does not use a shared OpenBLAS")
    want = _blas_env._coretype_from_flags(_blas_env._cpu_flags())
    if want is None or os.environ.get("OPENBLAS_CORETYPE") != want:
        pytest.skip("no vector kernels to pick, or the user chose them")
    assert lib.openblas_get_corename().decode().lower() == want.lower()


EINSUM_CASES = [
    ("ijk,ijk->ij", [(5, 4, 3), (5, 4, 3)]), ("ijk,ij,j->ik", [(5, 4, 3), (5, 4), (4,)]),
    ("ij,ij->i", [(6, 7), (6, 7)]), ("i,j->ij", [(3,), (4,)]), ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]), ("ab,bc,cd,de->ae", [(2, 9), (9, 1), (1, 8), (8, 3)]),
    ("bij,bjk->bik", [(7, 3, 4), (7, 4, 2)]), ("bij,bj->bi", [(7, 3, 4), (7, 4)]),
    ("bi,bij->bj", [(7, 3), (7, 3, 4)]), ("...i,...i->...", [(2, 3, 4), (3, 4)]),
    ("ijk,jk->i", [(4, 5, 6), (5, 6)]), ("ii,i->i", [(4, 4), (4,)]), ("ij,kj,j->ik", [(3, 5), (2, 5), (5,)]),
    ("i,i,i->", [(6,), (6,), (6,)]), ("ij,j->", [(3, 4), (4,)]), ("ijk->ik", [(3, 4, 5)]),
]


@pytest.mark.parametrize("subs, shapes", EINSUM_CASES)
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.int64])
def test_einsum_contraction_orders(subs, shapes, dt):
    rng = np.random.default_rng(11)
    ops = []
    for s in shapes:
        a = rng.standard_normal(s) * 3
        if np.dtype(dt).kind == "c":
            a = a + 1j * rng.standard_normal(s)
        ops.append(a.astype(dt))
    want = np.einsum(subs, *ops)
    got = xp.einsum(subs, *[xp.asarray(o) for o in ops])
    assert got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-4 if dt is np.float32 else 1e-10
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol)
    # strided and reversed operands give the same values
    got2 = xp.einsum(subs, *[xp.asarray(np.ascontiguousarray(o[::-1]))[::-1] for o in ops])
    np.testing.assert_allclose(np.asarray(got2), want, rtol=tol, atol=tol)


def test_einsum_single_operand_views_as_numpy():
    a = xp.asarray(np.arange(12.0).reshape(3, 4))
    t = xp.einsum("ij->ji", a)
    assert np.shares_memory(np.asarray(t), np.asarray(a))
    sq = xp.asarray(np.arange(16.0).reshape(4, 4))
    d = xp.einsum("ii->i", sq)
    np.testing.assert_array_equal(np.asarray(d), np.diag(np.arange(16.0).reshape(4, 4)))
    assert np.shares_memory(np.asarray(d), np.asarray(sq))
    # a sum or a product is a new array
    s = xp.einsum("ij->i", a)
    assert not np.shares_memory(np.asarray(s), np.asarray(a))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex64, np.complex128])
def test_matrix_vector_products_every_layout(dt):
    # one output row or column runs through gemv: every operand layout
    rng = np.random.default_rng(2)
    def mk(*s):
        a = rng.standard_normal(s)
        return (a + 1j * rng.standard_normal(s) if np.dtype(dt).kind == "c" else a).astype(dt)
    A = mk(9, 7)
    views = {"C": A, "F": np.asfortranarray(A), "T": np.ascontiguousarray(A.T).T,
             "strided": mk(18, 14)[::2, ::2], "reversed": A[::-1, ::-1]}
    tol = 1e-4 if dt in (np.float32, np.complex64) else 1e-12
    for name, M in views.items():
        for x in (mk(7), mk(14)[::2], mk(7)[::-1]):
            np.testing.assert_allclose(np.asarray(xp.asarray(M) @ xp.asarray(x)), M @ x,
                                       rtol=tol, atol=tol, err_msg=name)
            np.testing.assert_allclose(np.asarray(xp.asarray(M) @ xp.asarray(x)[:, None]),
                                       M @ x[:, None], rtol=tol, atol=tol, err_msg=name)
        for y in (mk(9), mk(9)[::-1]):
            np.testing.assert_allclose(np.asarray(xp.asarray(y) @ xp.asarray(M)), y @ M,
                                       rtol=tol, atol=tol, err_msg=name)
            np.testing.assert_allclose(np.asarray(xp.asarray(y)[None, :] @ xp.asarray(M)),
                                       y[None, :] @ M, rtol=tol, atol=tol, err_msg=name)
    # stacks of small products (threads over the batch), broadcast batches
    S, T = mk(50, 3, 4), mk(50, 4, 2)
    np.testing.assert_allclose(np.asarray(xp.asarray(S) @ xp.asarray(T)), S @ T, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(xp.asarray(S) @ xp.asarray(T[0])), S @ T[0], rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(xp.asarray(S[:, :1, :]) @ xp.asarray(T[:, :, :1])),
                               S[:, :1, :] @ T[:, :, :1], rtol=tol, atol=tol)
    out = xp.empty((50, 3, 2), dtype=dt)
    xp.matmul(xp.asarray(S), xp.asarray(T), out=out)
    np.testing.assert_allclose(np.asarray(out), S @ T, rtol=tol, atol=tol)
def test_lstsq_rank_int32_and_norm_nuc():
    a = np.arange(12.0).reshape(4, 3)  # rank 2
    b = np.arange(4.0)
    x, res, rank, sv = xp.linalg.lstsq(xp.asarray(a), xp.asarray(b))
    wx, wres, wrank, wsv = np.linalg.lstsq(a, b)
    assert rank.dtype == np.int32 and int(rank) == wrank == 2
    np.testing.assert_allclose(xp.to_numpy(x), wx, atol=1e-12)
    np.testing.assert_allclose(xp.to_numpy(sv), wsv, rtol=1e-12)
    for m in (a, a.T[::-1], np.eye(3)[:, :2]):
        np.testing.assert_allclose(float(xp.linalg.norm(xp.asarray(m), "nuc")),
                                   np.linalg.norm(m, "nuc"), rtol=1e-12)
    s = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_allclose(
        xp.to_numpy(xp.linalg.norm(xp.asarray(s), "nuc", axis=(1, 2))),
        np.linalg.norm(s, "nuc", axis=(1, 2)), rtol=1e-12)


_QR_SHAPES = [(6, 4), (3, 5), (4, 4), (1, 1), (2, 5, 3), (2, 3, 5), (0, 3),
              (3, 0), (2, 0, 4)]


@pytest.mark.parametrize("shape", _QR_SHAPES)
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex64,
                                np.complex128, np.int64])
def test_qr_raw_and_r_modes_as_numpy(shape, dt):
    rng = np.random.default_rng(7)
    a = rng.normal(size=shape) * 5
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    a = a.astype(dt)
    tol = 1e-4 if dt in (np.float32, np.complex64) else 1e-10
    h, tau = np.linalg.qr(a, mode="raw")
    H, TAU = xp.linalg.qr(xp.asarray(a), mode="raw")
    for ours, ref in ((H, h), (TAU, tau)):
        assert ours.shape == ref.shape and ours.dtype == ref.dtype
        np.testing.assert_allclose(np.asarray(ours), ref, rtol=tol,
                                   atol=tol * 10)
    np.testing.assert_allclose(np.asarray(xp.linalg.qr(xp.asarray(a), "r")),
                               np.linalg.qr(a, "r"), rtol=tol, atol=tol * 10)


def test_qr_raw_of_views_and_deprecated_modes():
    a = np.arange(24.0).reshape(4, 6)[:, ::-2] ** 1.5  # strided, negative
    for view in (a, a.T):
        h, tau = np.linalg.qr(view, mode="raw")
        H, TAU = xp.linalg.qr(xp.asarray(view), mode="raw")
        np.testing.assert_allclose(np.asarray(H), h, rtol=1e-10, atol=1e-9)
        np.testing.assert_allclose(np.asarray(TAU), tau, rtol=1e-10)
    for mode, same in (("full", "reduced"), ("f", "reduced")):
        with pytest.warns(DeprecationWarning):
            q, r = xp.linalg.qr(xp.asarray(a), mode=mode)
        q2, r2 = xp.linalg.qr(xp.asarray(a), mode=same)
        assert_same(q, np.asarray(q2))
        assert_same(r, np.asarray(r2))
    for mode in ("economic", "e"):
        with pytest.warns(DeprecationWarning):
            ours = xp.linalg.qr(xp.asarray(a), mode=mode)
        with pytest.warns(DeprecationWarning):
            ref = np.linalg.qr(a, mode=mode)
        assert ours.shape == ref.shape
        np.testing.assert_allclose(np.asarray(ours), ref, rtol=1e-10,
                                   atol=1e-9)
