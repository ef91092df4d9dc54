"""cunumpy.sparse and cunumpy.sparse.linalg against scipy.sparse."""
import numpy as np
import pytest
import scipy.sparse as ss
import scipy.sparse.linalg as ssl

import cunumpy as cp
import cunumpy.sparse as sp
from cunumpy.sparse import linalg as spl

FORMATS = ["csr", "csc", "coo"]
DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
          np.uint16, np.uint32, np.uint64, np.float32, np.float64,
          np.complex64, np.complex128]


def host(x):
    if sp.issparse(x):
        return x.toarray().get()
    if isinstance(x, cp.ndarray):
        return x.get()
    return np.asarray(x)


def ref_dense(x):
    return x.toarray() if ss.issparse(x) else np.asarray(x)


def close(a, b, **kw):
    np.testing.assert_allclose(host(a), ref_dense(b), **kw)


def messy(m=9, n=7, nnz=30, seed=0, dtype=np.float64):
    """COO triplets with duplicates, unsorted order and explicit zeros."""
    g = np.random.default_rng(seed)
    row = g.integers(0, m, nnz)
    col = g.integers(0, n, nnz)
    val = g.integers(-5, 6, nnz).astype(dtype)
    val[::7] = 0
    return val, row, col, (m, n)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("idx", [np.int32, np.int64])
def test_construct_from_triplets_and_scipy(fmt, idx):
    val, row, col, shape = messy()
    ref = ss.coo_array((val, (row, col)), shape=shape).asformat(fmt)
    cls = getattr(sp, f"{fmt}_array")
    a = cls(sp.coo_array((val, (row.astype(idx), col.astype(idx))),
                         shape=shape))
    close(a, ref)
    b = cls(ref)
    close(b, ref)
    assert b.format == fmt and b.shape == shape
    assert b.nnz == ref.nnz
    back = b.get()
    assert type(back) is type(ref)
    close(back.toarray(), ref)


def test_zero_copy_from_scipy_and_index_width():
    ref = ss.random_array((50, 40), density=0.1, format="csr", rng=1)
    a = sp.csr_array(ref)
    assert np.shares_memory(np.asarray(a.data), ref.data)
    assert a.indices.dtype == ref.indices.dtype
    big = ss.csr_array((ref.data, ref.indices.astype(np.int64),
                        ref.indptr.astype(np.int64)), shape=ref.shape)
    b = sp.csr_array(big)
    assert b.indices.dtype == np.int64
    # new structures pick int32 when everything fits
    assert (b @ b.T).indices.dtype == np.int32
    close(b, big)


@pytest.mark.parametrize("fmt", FORMATS)
def test_conversions_and_canonical_form(fmt):
    val, row, col, shape = messy(seed=3)
    ref = ss.coo_array((val, (row, col)), shape=shape)
    a = sp.coo_array((val, (row, col)), shape=shape).asformat(fmt)
    for target in ["csr", "csc", "coo", "dia"]:
        close(a.asformat(target), ref)
        assert a.asformat(target).format == target
    close(a.toarray(), ref)
    c = sp.csr_array((ref.tocsr().data, ref.tocsr().indices,
                      ref.tocsr().indptr), shape=shape)
    r = ref.tocsr()
    c.sum_duplicates()
    r.sum_duplicates()
    assert c.nnz == r.nnz and c.has_canonical_format
    np.testing.assert_array_equal(c.indices.get(), r.indices)
    np.testing.assert_array_equal(c.indptr.get(), r.indptr)
    c.eliminate_zeros()
    r.eliminate_zeros()
    assert c.nnz == r.nnz
    np.testing.assert_array_equal(c.data.get(), r.data)
    close(a.T, ref.T)
    close(a.transpose(), ref.T)
    assert a.copy().nnz == a.nnz


def test_unsorted_indices_and_sort():
    data = np.array([1.0, 2.0, 3.0, 4.0])
    indices = np.array([2, 0, 1, 1], dtype=np.int32)
    indptr = np.array([0, 2, 4], dtype=np.int32)
    a = sp.csr_array((data, indices, indptr), shape=(2, 3))
    ref = ss.csr_array((data, indices, indptr), shape=(2, 3))
    assert not a.has_sorted_indices
    a.sort_indices()
    ref.sort_indices()
    assert a.has_sorted_indices
    np.testing.assert_array_equal(a.indices.get(), ref.indices)
    np.testing.assert_array_equal(a.data.get(), ref.data)
    close(a, ref)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes(dtype):
    val, row, col, shape = messy(seed=5, dtype=np.float64)
    val = np.abs(val).astype(dtype)
    ref = ss.coo_array((val, (row, col)), shape=shape).tocsr()
    a = sp.csr_array(ref)
    assert a.dtype == ref.dtype
    close(a, ref)
    x = np.arange(1, shape[1] + 1).astype(dtype)
    close(a @ cp.asarray(x), ref @ x)
    close(a @ a.T, ref @ ref.T)
    close(a.astype(np.float64), ref.astype(np.float64))
    close(a.sum(axis=0), ref.sum(axis=0))
    assert host(a.sum()) == ref.sum()


@pytest.mark.parametrize("fmt", FORMATS)
def test_products(fmt):
    g = np.random.default_rng(7)
    ref = ss.random_array((40, 30), density=0.15, format=fmt, rng=7)
    a = getattr(sp, f"{fmt}_array")(ref)
    x = g.standard_normal(30)
    X = g.standard_normal((30, 5))
    W = g.standard_normal((4, 40))
    close(a @ cp.asarray(x), ref @ x, rtol=1e-12)
    close(a @ cp.asarray(X), ref @ X, rtol=1e-12)
    close(a @ cp.asarray(X[:, ::-1]), ref @ X[:, ::-1], rtol=1e-12)
    close(cp.asarray(W) @ a, W @ ref, rtol=1e-12)
    close(W @ a, W @ ref, rtol=1e-12)
    close(cp.asarray(W[0]) @ a, W[0] @ ref, rtol=1e-12)
    close(a @ a.T, ref @ ref.T, rtol=1e-12)
    close(a.T @ a, ref.T @ ref, rtol=1e-12)
    with pytest.raises(ValueError, match="dimension mismatch"):
        a @ cp.ones(29)
    with pytest.raises(ValueError, match="Scalar operands"):
        a @ 2.0


def test_matrix_vs_array_star():
    ref = ss.random_array((6, 6), density=0.4, rng=2, format="csr")
    am, aa = sp.csr_matrix(ref), sp.csr_array(ref)
    rm = ss.csr_matrix(ref)
    close(am * am, rm * rm)          # matrix product
    close(aa * aa, ref * ref)        # elementwise
    close(am ** 2, rm ** 2)
    close(aa ** 2, ref ** 2)
    assert sp.isspmatrix_csr(am) and not sp.isspmatrix(aa)
    assert sp.issparse(aa) and sp.issparse(am)
    assert repr(am) == repr(rm)
    assert repr(aa) == repr(ref)
    assert repr(sp.coo_array(ref)) == repr(ref.tocoo())
    assert str(aa) == str(ref)


def test_elementwise():
    r1 = ss.random_array((8, 9), density=0.3, rng=4, format="csr")
    r2 = ss.random_array((8, 9), density=0.3, rng=5, format="csr")
    r2 = r2 - r1.multiply(r2 != 0)  # some cancellations
    a, b = sp.csr_array(r1), sp.csr_array(r2)
    close(a + b, r1 + r2)
    close(a - b, r1 - r2)
    assert (a - a).nnz == (r1 - r1).nnz == 0
    close(a.multiply(b), r1.multiply(r2))
    close(a.maximum(b), r1.maximum(r2))
    close(a.minimum(b), r1.minimum(r2))
    close(a * 3, r1 * 3)
    close(2 * a, 2 * r1)
    close(a / 4, r1 / 4)
    close(-a, -r1)
    close(abs(b), abs(r2))
    d = np.arange(72.0).reshape(8, 9)
    close(a + cp.asarray(d), r1 + d)
    close(a.multiply(cp.asarray(d)), r1.multiply(d))
    close(a.power(3), r1.power(3))
    for name in ["sqrt", "sign", "sin", "tanh", "expm1", "floor", "ceil",
                 "log1p", "arctan", "rint", "trunc"]:
        close(getattr(abs(b), name)(), getattr(abs(r2), name)(), rtol=1e-12)
    close(a.maximum(-1.0), r1.maximum(-1.0))
    with pytest.raises(NotImplementedError):
        a + 1.0
    with pytest.raises(NotImplementedError):
        a.power(0)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        a + sp.csr_array(ss.eye_array(3))


def test_reductions():
    val, row, col, shape = messy(seed=11)
    ref = ss.coo_array((val, (row, col)), shape=shape).tocsr()
    a = sp.csr_array(ref)
    assert host(a.sum()) == pytest.approx(ref.sum())
    for ax in (0, 1, -1):
        close(a.sum(axis=ax), ref.sum(axis=ax))
        close(a.mean(axis=ax), ref.mean(axis=ax))
        close(a.max(axis=ax), ref.max(axis=ax).toarray())
        close(a.min(axis=ax), ref.min(axis=ax).toarray())
        close(a.argmax(axis=ax), ref.argmax(axis=ax))
    assert host(a.mean()) == pytest.approx(ref.mean())
    assert host(a.max()) == ref.max() and host(a.min()) == ref.min()
    assert a.argmax() == ref.argmax() and a.argmin() == ref.argmin()
    neg = sp.csr_array(-abs(ref))
    rneg = -abs(ref)
    assert neg.argmax() == rneg.argmax() and host(neg.max()) == rneg.max()
    assert a.count_nonzero() == ref.count_nonzero()
    for k in (-3, 0, 2):
        close(a.diagonal(k), ref.diagonal(k))
    assert host(a.trace()) == ref.trace()
    m = sp.csr_matrix(ref)
    assert m.sum(axis=1).shape == (shape[0], 1)
    close(m.sum(axis=1), ss.csr_matrix(ref).sum(axis=1))
    with pytest.raises(ValueError):
        sp.csr_array((0, 3)).max()


def test_indexing():
    ref = ss.random_array((10, 8), density=0.3, rng=9, format="csr")
    a = sp.csr_array(ref)
    assert a[2, 3] == ref[2, 3]
    assert a[-1, -2] == ref[-1, -2]
    close(a[2:5], ref[2:5])
    close(a[::-2], ref[::-2])
    close(a[[4, 1, 1]], ref[[4, 1, 1]])
    close(a[:, 1:6], ref[:, 1:6])
    close(a[:, [7, 0]], ref[:, [7, 0]])
    close(a[1:9:3, [2, 5]], ref[1:9:3][:, [2, 5]])
    mask = np.arange(10) % 3 == 0
    close(a[mask], ref[mask])
    m = sp.csr_matrix(ref)
    close(m[3], ss.csr_matrix(ref)[3])
    with pytest.raises(IndexError):
        a[10, 0]
    with pytest.raises(NotImplementedError, match="1-d sparse"):
        a[3]
    b = a.copy()
    r = ref.copy()
    b[1, 1] = 7.0
    r[1, 1] = 7.0
    nz = ref.tocoo()
    i, j = int(nz.row[0]), int(nz.col[0])
    b[i, j] = -2.0
    r[i, j] = -2.0
    close(b, r)


def test_constructors():
    close(sp.eye(5, 4, k=1), ss.eye(5, 4, k=1))
    assert sp.eye(3).format == ss.eye(3).format
    assert sp.isspmatrix(sp.identity(4))
    close(sp.identity(4, format="csr"), ss.identity(4, format="csr"))
    close(sp.diags([1, -2, 1], [-1, 0, 1], shape=(6, 6)),
          ss.diags([1, -2, 1], [-1, 0, 1], shape=(6, 6)))
    close(sp.diags([np.arange(1.0, 5.0)], [1]),
          ss.diags([np.arange(1.0, 5.0)], [1]))
    d = np.arange(12.0).reshape(3, 4)
    close(sp.spdiags(d, [0, -1, 2], 4, 4), ss.spdiags(d, [0, -1, 2], 4, 4))
    r = sp.random(30, 20, density=0.1, random_state=3)
    assert r.nnz == 60 and r.shape == (30, 20) and r.format == "coo"
    assert sp.random(5, 5, density=0.0).nnz == 0
    A = ss.random_array((3, 4), density=0.5, rng=1)
    B = ss.random_array((2, 3), density=0.5, rng=2)
    a, b = sp.coo_array(A), sp.coo_array(B)
    close(sp.kron(a, b), ss.kron(A, B))
    close(sp.hstack([a, sp.coo_array(ss.eye_array(3, 2))]),
          ss.hstack([A, ss.eye_array(3, 2)]))
    close(sp.vstack([a, a]), ss.vstack([A, A]))
    close(sp.block_diag([a, b]), ss.block_diag([A, B]))
    close(sp.bmat([[a, None], [None, b]]), ss.bmat([[A, None], [None, B]]))
    close(sp.tril(a, -1), ss.tril(A, -1))
    close(sp.triu(a, 1), ss.triu(A, 1))
    with pytest.raises(ValueError):
        sp.bmat([[a, None], [None, None]])


def test_dia_format():
    data = np.arange(1.0, 13.0).reshape(3, 4)
    offsets = np.array([0, -1, 2])
    ref = ss.dia_array((data, offsets), shape=(4, 4))
    a = sp.dia_array((data, offsets), shape=(4, 4))
    close(a, ref)
    close(a.tocsr(), ref.tocsr())
    close(a @ cp.ones(4), ref @ np.ones(4))
    back = sp.csr_array(ref).todia()
    close(back, ref)
    assert back.get().format == "dia"
    with pytest.raises(ValueError, match="duplicate"):
        sp.dia_array((data, np.array([0, 0, 1])), shape=(4, 4))


def test_empty_and_zero_nnz():
    for fmt in FORMATS:
        cls = getattr(sp, f"{fmt}_array")
        z = cls((3, 4))
        assert z.nnz == 0 and z.shape == (3, 4)
        close(z, np.zeros((3, 4)))
        close(z @ cp.ones(4), np.zeros(3))
        close(z @ z.T, np.zeros((3, 3)))
        e = cls((0, 0))
        assert e.toarray().shape == (0, 0)
        close(e @ cp.ones(0), np.zeros(0))


def test_bad_input():
    with pytest.raises(ValueError, match="indptr"):
        sp.csr_array((np.ones(2), np.array([0, 1]), np.array([0, 2, 1])),
                     shape=(2, 2))
    with pytest.raises(ValueError, match="out of range"):
        sp.csr_array((np.ones(2), np.array([0, 5]), np.array([0, 1, 2])),
                     shape=(2, 2))
    with pytest.raises(ValueError, match="differ in length"):
        sp.coo_array((np.ones(3), (np.array([0, 1]), np.array([0, 1]))),
                     shape=(2, 2))
    with pytest.raises(TypeError, match="integer"):
        sp.coo_array((np.ones(2), (np.array([0.0, 1]), np.array([0, 1]))),
                     shape=(2, 2))
    with pytest.raises(ValueError, match="length"):
        sp.csr_array((np.ones(1), np.array([0]), np.array([0, 1])),
                     shape=(3, 3))


def test_save_load_npz(tmp_path):
    ref = ss.random_array((7, 5), density=0.3, rng=3, format="csr")
    for obj, sref in [(sp.csr_array(ref), ref),
                      (sp.csc_matrix(ref), ss.csc_matrix(ref)),
                      (sp.coo_array(ref), ref.tocoo())]:
        f = tmp_path / f"{obj.format}.npz"
        sp.save_npz(f, obj)
        loaded = ss.load_npz(f)  # SciPy reads ours
        assert type(loaded) is type(sref)
        close(loaded.toarray(), sref)
        g = tmp_path / f"{obj.format}_scipy.npz"
        ss.save_npz(g, sref)
        mine = sp.load_npz(g)  # we read SciPy's
        assert mine.format == obj.format and mine._is_array == obj._is_array
        close(mine, sref)


def laplacian(n):
    return ss.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1],
                          shape=(n, n), format="csr")


def test_linear_operator():
    ref = ss.random_array((6, 6), density=0.5, rng=1, format="csr")
    op = spl.aslinearoperator(sp.csr_array(ref))
    x = np.arange(6.0)
    close(op.matvec(x), ref @ x)
    close(op.rmatvec(x), ref.T @ x)
    close(op @ np.eye(6), ref @ np.eye(6))
    custom = spl.LinearOperator((6, 6), matvec=lambda v: 2 * v,
                                dtype=np.float64)
    close((custom * 3).matvec(x), 6 * x)
    close((op + custom).matvec(x), ref @ x + 2 * x)


@pytest.mark.parametrize("solver", ["cg", "bicgstab", "gmres", "minres"])
def test_krylov_solvers(solver):
    n = 60
    ref = laplacian(n)
    a = sp.csr_array(ref)
    b = np.linspace(-1, 1, n)
    calls = []
    x, info = getattr(spl, solver)(a, b, rtol=1e-10,
                                   callback=lambda *_: calls.append(1),
                                   maxiter=2000)
    assert info == 0 and calls
    xr, _ = getattr(ssl, solver)(ref, b, rtol=1e-10, maxiter=2000)
    np.testing.assert_allclose(host(x), xr, rtol=1e-6, atol=1e-6)
    # maxiter stops early and says so
    _, info = getattr(spl, solver)(a, b, rtol=1e-14, maxiter=2)
    assert info > 0
    # a preconditioner (Jacobi), and atol alone where SciPy takes one
    Minv = sp.diags([0.5 * np.ones(n)], [0], format="csr")
    tols = dict(rtol=1e-10) if solver == "minres" else dict(rtol=0.0,
                                                          atol=1e-8)
    x2, info = getattr(spl, solver)(a, b, M=Minv, maxiter=2000, **tols)
    assert info == 0
    np.testing.assert_allclose(host(x2), xr, rtol=1e-5, atol=1e-5)


def test_lsqr_and_norm():
    ref = ss.random_array((30, 10), density=0.5, rng=2, format="csr")
    b = np.arange(30.0)
    mine = spl.lsqr(sp.csr_array(ref), b, atol=1e-12, btol=1e-12)
    theirs = ssl.lsqr(ref, b, atol=1e-12, btol=1e-12)
    np.testing.assert_allclose(host(mine[0]), theirs[0], rtol=1e-6,
                               atol=1e-8)
    assert mine[1] in (1, 2) and len(mine) == 10
    a = sp.csr_array(ref)
    for o in [None, "fro", 1, -1, np.inf, -np.inf]:
        assert spl.norm(a, o) == pytest.approx(ssl.norm(ref, o))
    for o in [None, 1, np.inf]:
        close(spl.norm(a, o, axis=0), ssl.norm(ref, o, axis=0))
        close(spl.norm(a, o, axis=1), ssl.norm(ref, o, axis=1))
    with pytest.raises(TypeError):
        spl.norm(np.ones((2, 2)))


def test_spsolve_and_factorized():
    n = 40
    ref = (laplacian(n) + ss.eye_array(n) * 0.5).tocsr()
    a = sp.csr_array(ref)
    b = np.cos(np.arange(n))
    close(spl.spsolve(a, b), ssl.spsolve(ref.tocsc(), b), rtol=1e-10)
    B = np.stack([b, 2 * b + 1], axis=1)
    close(spl.spsolve(a, B), ssl.spsolve(ref.tocsc(), B), rtol=1e-10)
    solve = spl.factorized(sp.csc_array(ref))
    close(solve(b), ssl.spsolve(ref.tocsc(), b), rtol=1e-10)
    bc = b + 1j * b[::-1]
    close(spl.spsolve(a, bc), ssl.spsolve(ref.tocsc(), bc), rtol=1e-10)
    xs = spl.spsolve(a, sp.csc_array(ss.csc_array(B)))
    assert sp.issparse(xs)
    close(xs, ssl.spsolve(ref.tocsc(), ss.csc_array(B)), rtol=1e-10)
    with pytest.raises(ValueError, match="square"):
        spl.spsolve(sp.csr_array(ss.random_array((3, 4), density=0.5)), b[:3])
    singular = sp.csr_array(ss.diags_array([1.0, 0.0, 2.0]))
    with pytest.raises(Exception, match="singular"):
        spl.spsolve(singular, np.ones(3))


@pytest.mark.parametrize("which", ["LM", "SA", "LA"])
def test_eigsh_and_svds(which):
    ref = laplacian(80)
    vals, vecs = spl.eigsh(sp.csr_array(ref), k=4, which=which)
    want = ssl.eigsh(ref, k=4, which=which, return_eigenvectors=False)
    np.testing.assert_allclose(vals, np.sort(want), rtol=1e-8, atol=1e-10)
    res = ref @ host(vecs) - host(vecs) * vals
    assert np.abs(res).max() < 1e-6
    R = ss.random_array((60, 30), density=0.3, rng=4, format="csr")
    u, s, vh = spl.svds(sp.csr_array(R), k=3)
    s_ref = ssl.svds(R, k=3, return_singular_vectors=False)
    np.testing.assert_allclose(s, np.sort(s_ref), rtol=1e-7)
    assert np.abs(R @ host(vh).T - host(u) * s).max() < 1e-6
    with pytest.raises(ValueError):
        spl.eigsh(sp.csr_array(ref), k=80)


@pytest.mark.parametrize("fmt", FORMATS + ["dia"])
@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_comparisons_return_sparse(fmt, kind):
    import warnings
    b = np.array([[1.0, 0, np.nan, 0], [0, 2, 0, -0.0], [3, 0, 0, 2]])
    c = np.array([[1.0, 3, np.nan, 0], [0, 0, 0, 0], [3, 0, 1, 2]])
    mk = getattr(ss, f"{fmt}_{kind}")
    rb, rc = mk(b), mk(c)
    ab, ac = getattr(sp, f"{fmt}_{kind}")(rb), getattr(sp, f"{fmt}_{kind}")(rc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for op in ("==", "!="):
            for rhs_r, rhs_a in [(rc, ac), (1.0, 1.0), (0, 0), (np.nan, np.nan),
                                 (2.0, 2.0), (-0.0, -0.0)]:
                want = eval(f"rb {op} rhs_r")
                got = eval(f"ab {op} rhs_a")
                assert sp.issparse(got) and ss.issparse(want)
                assert got.format == want.format
                assert type(got).__name__ == type(want).__name__
                assert got.dtype == want.dtype == np.bool_
                assert got.nnz == want.nnz, (op, rhs_r)
                np.testing.assert_array_equal(host(got), want.toarray())
            # a dense right side gives a dense result
            want = eval(f"rb {op} c")
            got = eval(f"ab {op} cp.asarray(c)")
            np.testing.assert_array_equal(host(got), np.asarray(want))
    with pytest.warns(sp.SparseEfficiencyWarning):
        ab == ac
    with pytest.raises(ValueError):
        ab != getattr(sp, f"csr_{kind}")(np.ones((2, 2)))


@pytest.mark.parametrize("idx", [np.int32, np.int64])
@pytest.mark.parametrize("fmt", FORMATS)
def test_cg_native_loop_vs_scipy(fmt, idx):
    n = 50
    ref = laplacian(n).asformat(fmt)
    if fmt != "coo":
        ref.indices = ref.indices.astype(idx)
        ref.indptr = ref.indptr.astype(idx)
    a = sp.csr_array(ref).asformat(fmt)
    b = np.cos(np.arange(n))
    for kw in [dict(rtol=1e-10, maxiter=2000), dict(maxiter=3),
               dict(rtol=0.0, atol=1e-6), dict(rtol=1e-8, x0=np.ones(n)),
               dict(x0=np.ones(n), maxiter=0)]:
        xr, ir = ssl.cg(ref, b, **kw)
        x, info = spl.cg(a, cp.asarray(b), **kw)
        assert info == ir, kw
        assert x.dtype == np.float64 and x.shape == (n,)
        np.testing.assert_allclose(host(x), xr, rtol=1e-9, atol=1e-9)
    # b = 0: x = 0 at once; (n, 1) b; int b promotes to float64
    x, info = spl.cg(a, cp.zeros(n))
    assert info == 0 and not host(x).any()
    xr, _ = ssl.cg(ref, b.reshape(-1, 1), rtol=1e-10)
    x, _ = spl.cg(a, cp.asarray(b.reshape(-1, 1)), rtol=1e-10)
    np.testing.assert_allclose(host(x), xr, rtol=1e-8, atol=1e-8)
    x, info = spl.cg(a, cp.arange(n), rtol=1e-10, maxiter=2000)
    xr, _ = ssl.cg(ref, np.arange(n, dtype=float), rtol=1e-10, maxiter=2000)
    np.testing.assert_allclose(host(x), xr, rtol=1e-8, atol=1e-8)


def test_cg_native_errors_leave_inputs():
    from cunumpy import _cnlib
    a = sp.csr_array(laplacian(6))
    b = cp.ones(6)
    with pytest.raises(ValueError):
        spl.cg(a, b, rtol=-1.0)
    with pytest.raises(ValueError):
        _cnlib.cn_sparse_cg(a._h, b, None, 1e-5, 0.0, -1)
    with pytest.raises(ValueError):
        _cnlib.cn_sparse_cg(a._h, b, None, float("nan"), 0.0, 10)
    with pytest.raises(Exception, match="length 6"):
        _cnlib.cn_sparse_cg(a._h, cp.ones(5), None, 1e-5, 0.0, 10)
    rect = sp.csr_array(np.ones((2, 3)))
    with pytest.raises(Exception, match="square"):
        _cnlib.cn_sparse_cg(rect._h, cp.ones(2), None, 1e-5, 0.0, 10)
    with pytest.raises(TypeError, match="complex"):
        _cnlib.cn_sparse_cg(a._h, cp.ones(6, dtype=complex), None, 1e-5, 0.0,
                            10)
    np.testing.assert_array_equal(host(b), np.ones(6))
    # complex systems still solve, through the Python loop
    ac = sp.csr_array(laplacian(6).astype(complex))
    x, info = spl.cg(ac, cp.ones(6, dtype=complex), rtol=1e-12)
    xr, _ = ssl.cg(laplacian(6).astype(complex), np.ones(6, dtype=complex),
                   rtol=1e-12)
    assert info == 0
    np.testing.assert_allclose(host(x), xr, rtol=1e-9)


def test_device_placement_on_the_host():
    a = sp.csr_array(laplacian(5))
    assert a.device == "cpu"
    h = a.to_device("cpu")
    assert h.device == "cpu" and isinstance(h, sp.csr_array)
    np.testing.assert_array_equal(host(h), laplacian(5).toarray())
    assert a.to_device(None) is a
    d = sp.dia_array(laplacian(5)).to_device("cpu")
    assert d.format == "dia" and d.device == "cpu"
    np.testing.assert_array_equal(host(d), laplacian(5).toarray())
    if not cp.cuda.is_available():
        with pytest.raises(Exception, match="CUDA is unavailable"):
            a.to_device("cuda:0")
        return
    # with a device: products there agree with the host's
    g = a.to_device("cuda:0")
    assert g.device == "cuda:0"
    x = cp.arange(5.0)
    np.testing.assert_allclose(host(g @ x.to_device("cuda:0")), host(a @ x))
    np.testing.assert_allclose(host((g @ g.T).to_device("cpu")),
                               host(a @ a.T))


@pytest.mark.parametrize("which", ["LM", "LA", "SA"])
@pytest.mark.parametrize("sigma", [0.5, 1.3, 0.0])
def test_eigsh_shift_invert_vs_scipy(which, sigma):
    n = 60
    ref = laplacian(n)
    a = sp.csr_array(ref)
    w, v = spl.eigsh(a, k=3, sigma=sigma, which=which)
    wr = ssl.eigsh(ref, k=3, sigma=sigma, which=which,
                   return_eigenvectors=False)
    np.testing.assert_allclose(w, np.sort(wr), atol=1e-9)
    assert list(w) == sorted(w)
    V = host(v)
    assert np.abs(ref @ V - V * w).max() < 1e-8
    # a dense A, eigenvalues only, and OPinv given by the caller
    d = ref.toarray()
    np.testing.assert_allclose(
        spl.eigsh(d, k=2, sigma=sigma, which=which,
                  return_eigenvectors=False),
        np.sort(ssl.eigsh(d, k=2, sigma=sigma, which=which,
                          return_eigenvectors=False)), atol=1e-9)
    inv = np.linalg.inv(d - sigma * np.eye(n))
    op = spl.LinearOperator((n, n), matvec=lambda x: cp.asarray(inv) @ x,
                            dtype=np.float64)
    np.testing.assert_allclose(
        spl.eigsh(spl.aslinearoperator(a), k=3, sigma=sigma, which=which,
                  OPinv=op, return_eigenvectors=False), w, atol=1e-9)


def test_eigsh_shift_invert_errors():
    a = sp.csr_array(laplacian(10))
    with pytest.raises(NotImplementedError):
        spl.eigsh(a, k=2, sigma=1.0, mode="cayley")
    with pytest.raises(NotImplementedError):
        spl.eigsh(a, k=2, M=a)
    with pytest.raises(ValueError, match="OPinv"):
        spl.eigsh(spl.aslinearoperator(a), k=2, sigma=1.0)
    with pytest.raises(ValueError, match="real"):
        spl.eigsh(a, k=2, sigma=1 + 1j)
    with pytest.raises(ValueError, match="only with sigma"):
        spl.eigsh(a, k=2, OPinv=spl.aslinearoperator(a))


# ---------------------------------------------------------------------------
# DIA held as DIA
# ---------------------------------------------------------------------------

DIA_CASES = [((6, 6), 6, [0, -1, 1]), ((5, 8), 4, [-2, 0, 3, 9]),
             ((8, 5), 7, [2, -7, 0, -9, -3]), ((4, 6), 9, [1, -3]),
             ((3, 3), 0, [0]), ((0, 4), 2, [0, 1]), ((4, 0), 3, [0]),
             ((3, 5), 5, [])]


def dia_values(shape_l, nd, dtype, seed=0):
    g = np.random.default_rng(seed)
    v = g.integers(-4, 5, (nd, shape_l))
    if np.dtype(dtype).kind == "u":
        v = np.abs(v)
    v = v.astype(dtype)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * g.integers(-3, 4, v.shape).astype(dtype)
    return v


def assert_same_dia(a, ref):
    """Same layout as scipy's: data, offsets and their dtypes."""
    assert a.format == "dia" and ref.format == "dia"
    assert a.shape == ref.shape and a.nnz == ref.nnz
    np.testing.assert_array_equal(host(a.data), ref.data)
    np.testing.assert_array_equal(host(a.offsets), ref.offsets)
    assert a.dtype == ref.dtype
    assert a.offsets.dtype == ref.offsets.dtype


def assert_same_compressed(a, ref):
    assert a.format == ref.format and a.nnz == ref.nnz
    np.testing.assert_array_equal(a.data.get(), ref.data)
    if ref.format == "coo":
        np.testing.assert_array_equal(a.row.get(), ref.row)
        np.testing.assert_array_equal(a.col.get(), ref.col)
    else:
        np.testing.assert_array_equal(a.indices.get(), ref.indices)
        np.testing.assert_array_equal(a.indptr.get(), ref.indptr)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", DIA_CASES)
def test_dia_against_scipy(case, dtype):
    shape, L, offsets = case
    data = dia_values(L, len(offsets), dtype)
    off = np.array(offsets, dtype=np.int64)
    ref = ss.dia_array((data, off), shape=shape)
    a = sp.dia_array((data, off), shape=shape)
    assert_same_dia(a, ref)
    assert repr(a) == repr(ref)
    np.testing.assert_array_equal(host(a), ref.toarray())
    for fmt in ("csr", "csc", "coo"):
        assert_same_compressed(a.asformat(fmt), ref.asformat(fmt))
    assert_same_dia(a.T, ref.T)
    assert_same_dia(a.astype(np.complex128), ref.astype(np.complex128))
    c = a.copy()
    assert_same_dia(c, ref)
    assert c.data.get().ctypes.data != a.data.get().ctypes.data or a.nnz == 0
    for k in range(-shape[0] - 1, shape[1] + 2):
        np.testing.assert_array_equal(a.diagonal(k).get(), ref.diagonal(k))
    assert a.count_nonzero() == ref.count_nonzero()
    m, n = shape
    g = np.random.default_rng(1)
    x = g.integers(-3, 4, n).astype(dtype)
    X = g.integers(-3, 4, (n, 3)).astype(dtype)
    y = g.integers(-3, 4, m).astype(dtype)
    if dtype == np.bool_:
        x, X, y = x != 0, X != 0, y != 0
    close(a @ cp.asarray(x), ref @ x)
    close(a @ cp.asarray(X), ref @ X)
    # strided and Fortran-ordered right-hand sides
    XF = np.asfortranarray(X)
    close(a @ cp.asarray(XF), ref @ XF)
    if n:
        xs = np.repeat(x, 2)
        close(a @ cp.asarray(xs)[::2], ref @ x)
    close(cp.asarray(y) @ a, y @ ref)
    if dtype != np.bool_:
        kw = dict(rtol=1e-5) if np.dtype(dtype).kind in "fc" else {}
        close(a.sum(), ref.sum(), **kw)
        close(a.sum(axis=1), ref.sum(axis=1), **kw)
        if L <= n:  # scipy's dia sum(axis=0) fails for wider data
            close(a.sum(axis=0), ref.sum(axis=0), **kw)


@pytest.mark.parametrize("fmt", FORMATS + ["dense"])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64,
                                   np.bool_])
def test_todia_as_scipy(fmt, dtype):
    val, row, col, shape = messy(dtype=dtype)  # duplicates, explicit zeros
    R = ss.coo_array((val, (row, col)), shape=shape)
    if fmt == "dense":
        a = sp.dia_array(R.toarray())
        ref = ss.dia_array(R.toarray())
    else:
        a = sp.coo_array(R).asformat(fmt).todia()
        ref = R.asformat(fmt).todia()
    assert_same_dia(a, ref)
    # and from a scipy matrix of that format
    if fmt != "dense":
        assert_same_dia(sp.dia_array(R.asformat(fmt)), ss.dia_array(
            R.asformat(fmt)))
    # empty: (0, 0) data
    e = sp.csr_array((4, 5), dtype=dtype).todia()
    assert_same_dia(e, ss.csr_array((4, 5), dtype=dtype).todia())


def test_dia_constructor_forms_and_errors():
    data = np.arange(1.0, 13.0).reshape(3, 4)
    ref = ss.dia_array((data, [0, -1, 2]), shape=(4, 4))
    assert_same_dia(sp.dia_array((data, [0, -1, 2]), shape=(4, 4)), ref)
    # 1-d data is one diagonal; a scalar offset is one offset
    assert_same_dia(sp.dia_array((np.arange(4.0), 1), shape=(4, 4)),
                    ss.dia_array((np.arange(4.0), 1), shape=(4, 4)))
    # non-contiguous data is copied, contiguous is borrowed
    wide = np.arange(24.0).reshape(3, 8)
    assert_same_dia(sp.dia_array((wide[:, ::2], [0, 1, -1]), shape=(4, 4)),
                    ss.dia_array((wide[:, ::2], [0, 1, -1]), shape=(4, 4)))
    assert_same_dia(sp.dia_array((data, [0, -1, 2]), shape=(4, 4),
                                 dtype=np.float32),
                    ss.dia_array((data, [0, -1, 2]), shape=(4, 4),
                                 dtype=np.float32))
    assert_same_dia(sp.dia_array((3, 5)), ss.dia_array((3, 5)))
    assert_same_dia(sp.dia_array(sp.csr_array(ref.tocsr())), ref.tocsr()
                    .todia())
    m = sp.dia_matrix(ref)
    assert sp.isspmatrix_dia(m) and not sp.isspmatrix_dia(sp.dia_array(ref))
    with pytest.raises(ValueError, match="shape"):
        sp.dia_array((data, [0, 1, 2]))
    with pytest.raises(ValueError, match="duplicate"):
        sp.dia_array((data, [0, 0, 1]), shape=(4, 4))
    with pytest.raises(ValueError, match="number of diagonals"):
        sp.dia_array((data, [0, 1]), shape=(4, 4))
    with pytest.raises(ValueError, match="rank 2"):
        sp.dia_array((np.zeros((2, 2, 2)), [0, 1]), shape=(4, 4))
    with pytest.raises(ValueError, match="rank 1"):
        sp.dia_array((data, [[0, 1, 2]]), shape=(4, 4))
    with pytest.raises(ValueError, match="every position"):
        sp.dia_array(ref).eliminate_zeros()
    with pytest.raises(NotImplementedError):
        sp.dia_array(ref).getnnz(axis=0)


def test_dia_products_and_files(tmp_path):
    L = ss.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(7, 7))
    a = sp.dia_array(L)
    assert_same_dia(a, L)
    # dia @ dia stays DIA as scipy's
    p = a @ a
    assert p.format == (L @ L).format == "dia"
    close(p, L @ L)
    close(a @ sp.csr_array(L.tocsr()), L @ L)
    close(a.dot(np.ones(7)), L.dot(np.ones(7)))
    mat = sp.dia_matrix(L)
    close(mat * np.ones(7), ss.dia_matrix(L) * np.ones(7))
    close(a * 2.0, L * 2.0)
    assert (a * 2.0).format == "dia"
    close(a + a, L + L)
    close(abs(-a), abs(-L))
    close(a.multiply(np.arange(7.0)), L.multiply(np.arange(7.0)))
    close(a.mean(), L.mean())
    assert a.trace() == L.trace()
    f = tmp_path / "d.npz"
    sp.save_npz(f, a)
    assert_same_dia(ss.load_npz(f), L)
    assert_same_dia(sp.load_npz(f), L)
    assert_same_dia(sp.dia_array(L).get(), L)


@pytest.mark.parametrize("shape,offsets", [
    ((6, 6), [-1, 0, 1]), ((4, 7), [0, 2, -3]), ((7, 4), [-6, 0, 3]),
    ((5, 5), [5]), ((5, 5), [-5]), ((3, 6), [0])])
def test_diags_eye_spdiags_as_scipy(shape, offsets):
    m, n = shape
    diags = [np.arange(1.0, 1.0 + max(0, min(m + k, n - k, min(m, n))))
             for k in offsets]
    ref = ss.diags_array(diags, offsets=offsets, shape=shape, dtype=None)
    assert_same_dia(sp.diags_array(diags, offsets=offsets, shape=shape), ref)
    scalars = [2.0 + i for i in range(len(offsets))]
    assert_same_dia(sp.diags_array(scalars, offsets=offsets, shape=shape),
                    ss.diags_array(scalars, offsets=offsets, shape=shape,
                                   dtype=None))
    d = sp.diags(diags, offsets, shape=shape, dtype=np.float32)
    r = ss.diags(diags, offsets, shape=shape, dtype=np.float32)
    assert type(d).__name__ == type(r).__name__ == "dia_matrix"
    assert_same_dia(d, r)
    for k in (0, 1, -2):
        assert_same_dia(sp.eye_array(m, n, k=k), ss.eye_array(m, n, k=k))
        e, er = sp.eye(m, n, k=k), ss.eye(m, n, k=k)
        assert type(e).__name__ == type(er).__name__
        assert_same_dia(e, er)
    data = np.arange(1.0, 1.0 + 3 * n).reshape(3, n)
    sd, sr = sp.spdiags(data, [0, -1, 2], m, n), ss.spdiags(data, [0, -1, 2],
                                                            m, n)
    assert type(sd).__name__ == type(sr).__name__
    assert_same_dia(sd, sr)
    assert sp.diags_array(diags, offsets=offsets, shape=shape,
                          format="csr").format == "csr"
    with pytest.raises(ValueError, match="out of bounds"):
        sp.diags_array([[1.0]], offsets=[n + 1], shape=shape)


def _f16_add_at(shape, row, col, val):
    """Duplicates summed as NumPy's float16 add: in float32, rounded."""
    d = np.zeros(shape, np.float16)
    for r, c, v in zip(row, col, val):
        d[r, c] = np.float16(np.float32(d[r, c]) + np.float32(v))
    return d


@pytest.mark.parametrize("fmt", FORMATS + ["dia"])
def test_float16_matrices_as_numpy_float16(fmt):
    # scipy.sparse refuses float16; the oracle is NumPy's float16 on the
    # dense matrix (values, duplicates, -0.0 as an explicit zero)
    val, row, col, shape = messy(seed=11, dtype=np.float64)
    val = (val * 0.3 + 1 / 3).astype(np.float16)
    val[3] = -0.0
    dense = _f16_add_at(shape, row, col, val)
    coo = sp.coo_array((cp.asarray(val), (cp.asarray(row), cp.asarray(col))),
                       shape=shape)
    np.testing.assert_array_equal(host(coo.toarray()), dense)
    a = coo.asformat(fmt)
    assert a.dtype == np.float16
    got = host(a.toarray())
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, dense)
    np.testing.assert_array_equal(host(a.diagonal()), np.diagonal(dense))
    if fmt != "dia":
        b = a.copy()
        b.sum_duplicates()
        b.eliminate_zeros()
        assert b.nnz == np.count_nonzero(dense)
    x = np.linspace(-1, 1, shape[1]).astype(np.float16)
    X = np.linspace(-2, 2, shape[1] * 3).reshape(shape[1], 3).astype(np.float16)
    W = np.linspace(0, 1, 2 * shape[0]).reshape(2, shape[0]).astype(np.float16)
    for ours, ref in ((a @ cp.asarray(x), dense @ x),
                      (a @ cp.asarray(X), dense @ X),
                      (cp.asarray(W) @ a, W @ dense)):
        ours = host(ours)
        assert ours.dtype == np.float16
        np.testing.assert_allclose(ours.astype(np.float64), ref, rtol=2e-3,
                                   atol=2e-3)
    g = a @ a.T
    assert g.dtype == np.float16
    np.testing.assert_allclose(host(g.toarray()).astype(np.float64),
                               dense.astype(np.float32) @ dense.T.astype(
                                   np.float32), rtol=2e-3, atol=2e-3)
