"""cunumpy.sparse.linalg: LinearOperator and Krylov solvers (cg, bicgstab,
gmres, minres, lsqr) with SciPy's signatures (rtol, atol, maxiter, M,
callback) and return values, and norm. The solvers' vector work runs on
the engine (products through cn_sparse_matmul_dense for sparse
operators); only the small Hessenberg and Lanczos recurrences of gmres
and minres are scalars on the host."""

import builtins as _bi
import math as _math

import numpy as _np

__all__ = ["LinearOperator", "aslinearoperator", "cg", "bicgstab", "gmres",
           "minres", "lsqr", "norm", "spsolve", "factorized", "eigsh",
           "svds", "ArpackNoConvergence", "MatrixRankWarning"]


class ArpackNoConvergence(RuntimeError):
    """Raised when eigsh or svds does not converge (SciPy's name)."""

    def __init__(self, msg, eigenvalues, eigenvectors):
        super().__init__(msg)
        self.eigenvalues = eigenvalues
        self.eigenvectors = eigenvectors


class MatrixRankWarning(UserWarning):
    pass


def _xp():
    import cunumpy
    return cunumpy


def _sp():
    from .. import sparse
    return sparse


class LinearOperator:
    """A shape, a dtype and matvec (with rmatvec, matmat, rmatmat when
    given), as scipy.sparse.linalg.LinearOperator."""

    def __init__(self, shape, matvec=None, rmatvec=None, matmat=None,
                 dtype=None, rmatmat=None):
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2 or shape[0] < 0 or shape[1] < 0:
            raise ValueError(f"invalid shape {shape} (must be 2-d)")
        if matvec is None and matmat is None:
            raise TypeError("a LinearOperator needs matvec or matmat")
        self.shape = shape
        self._matvec_fn, self._rmatvec_fn = matvec, rmatvec
        self._matmat_fn, self._rmatmat_fn = matmat, rmatmat
        self.dtype = _np.dtype(dtype) if dtype is not None else None
        if self.dtype is None:
            self.dtype = _np.dtype(self.matvec(_xp().zeros(shape[1])).dtype)

    @property
    def ndim(self):
        return 2

    def matvec(self, x):
        x = _xp().asarray(x)
        if x.shape not in ((self.shape[1],), (self.shape[1], 1)):
            raise ValueError(f"dimension mismatch: {self.shape} @ {x.shape}")
        if self._matvec_fn is not None:
            y = _xp().asarray(self._matvec_fn(x.reshape(-1)))
        else:
            y = _xp().asarray(self._matmat_fn(x.reshape(-1, 1)))
        return y.reshape(-1) if x.ndim == 1 else y.reshape(-1, 1)

    def rmatvec(self, x):
        x = _xp().asarray(x)
        if self._rmatvec_fn is None:
            if self._rmatmat_fn is None:
                raise NotImplementedError("rmatvec is not defined")
            return _xp().asarray(self._rmatmat_fn(x.reshape(-1, 1))).reshape(
                -1)
        return _xp().asarray(self._rmatvec_fn(x.reshape(-1)))

    def matmat(self, X):
        X = _xp().asarray(X)
        if X.ndim != 2 or X.shape[0] != self.shape[1]:
            raise ValueError(f"dimension mismatch: {self.shape} @ {X.shape}")
        if self._matmat_fn is not None:
            return _xp().asarray(self._matmat_fn(X))
        return _xp().stack([self.matvec(X[:, j]) for j in range(X.shape[1])],
                           axis=1)

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductOperator(self, x)
        if _np.isscalar(x):
            return _ScaledOperator(self, x)
        x = _xp().asarray(x)
        return self.matvec(x) if x.ndim == 1 else self.matmat(x)

    __matmul__ = dot
    __call__ = dot

    def __mul__(self, x):
        return self.dot(x)

    def __rmul__(self, x):
        if _np.isscalar(x):
            return _ScaledOperator(self, x)
        return NotImplemented

    def __add__(self, other):
        if not isinstance(other, LinearOperator):
            return NotImplemented
        if other.shape != self.shape:
            raise ValueError("cannot add operators of different shapes")
        return LinearOperator(self.shape,
                              matvec=lambda v: self.matvec(v) +
                              other.matvec(v),
                              rmatvec=lambda v: self.rmatvec(v) +
                              other.rmatvec(v),
                              dtype=_np.result_type(self.dtype, other.dtype))

    def __neg__(self):
        return _ScaledOperator(self, -1)

    def __sub__(self, other):
        return self + (-other)

    def adjoint(self):
        return LinearOperator((self.shape[1], self.shape[0]),
                              matvec=self.rmatvec, rmatvec=self.matvec,
                              dtype=self.dtype)

    H = property(adjoint)

    def transpose(self):
        def mv(v):
            return _xp().conjugate(self.rmatvec(_xp().conjugate(v)))

        def rmv(v):
            return _xp().conjugate(self.matvec(_xp().conjugate(v)))
        return LinearOperator((self.shape[1], self.shape[0]), matvec=mv,
                              rmatvec=rmv, dtype=self.dtype)

    T = property(transpose)

    def __repr__(self):
        return (f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} "
                f"with dtype={self.dtype}>")


def _ProductOperator(a, b):
    if a.shape[1] != b.shape[0]:
        raise ValueError("cannot multiply operators of mismatched shapes")
    return LinearOperator((a.shape[0], b.shape[1]),
                          matvec=lambda v: a.matvec(b.matvec(v)),
                          rmatvec=lambda v: b.rmatvec(a.rmatvec(v)),
                          dtype=_np.result_type(a.dtype, b.dtype))


def _ScaledOperator(a, s):
    return LinearOperator(a.shape, matvec=lambda v: a.matvec(v) * s,
                          rmatvec=lambda v: a.rmatvec(v) * _np.conj(s),
                          dtype=_np.result_type(a.dtype, _np.asarray(s)))


def aslinearoperator(A):
    """A LinearOperator over a sparse or dense matrix (or A itself)."""
    if isinstance(A, LinearOperator):
        return A
    sp = _sp()
    if sp.issparse(A):
        At = A.T.conj().tocsr()
        Acsr = A.tocsr()
        return LinearOperator(A.shape, matvec=lambda v: Acsr @ v,
                              rmatvec=lambda v: At @ v,
                              matmat=lambda X: Acsr @ X, dtype=A.dtype)
    if hasattr(A, "shape") and len(getattr(A, "shape", ())) == 2:
        D = _xp().asarray(A)
        DH = _xp().conjugate(D.T)
        return LinearOperator(D.shape, matvec=lambda v: D @ v,
                              rmatvec=lambda v: DH @ v,
                              matmat=lambda X: D @ X, dtype=D.dtype)
    if hasattr(A, "matvec") and hasattr(A, "shape"):
        return LinearOperator(A.shape, matvec=A.matvec,
                              rmatvec=getattr(A, "rmatvec", None),
                              dtype=getattr(A, "dtype", None))
    raise TypeError("type not understood")


# ---------------------------------------------------------------------------
# Krylov solvers
# ---------------------------------------------------------------------------

def _setup(A, b, x0, M):
    xp = _xp()
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected a square matrix, not {A.shape}")
    b = xp.asarray(b)
    if b.shape not in ((A.shape[0],), (A.shape[0], 1)):
        raise ValueError(f"A {A.shape} and b {b.shape} have incompatible "
                         "dimensions")
    b = b.reshape(-1)
    dt = _np.result_type(A.dtype, b.dtype, _np.float64) if \
        _np.dtype(A.dtype).kind != "c" and b.dtype.kind != "c" else \
        _np.result_type(A.dtype, b.dtype, _np.complex128)
    b = b.astype(dt)
    x = xp.zeros(A.shape[0], dtype=dt) if x0 is None else \
        xp.asarray(x0).reshape(-1).astype(dt).copy()
    Mop = None if M is None else aslinearoperator(M)
    return A, b, x, Mop, dt


def _nrm(v):
    return float(_xp().linalg.norm(v))


def _dot(a, b):
    """a^H b as a Python scalar."""
    r = _xp().vdot(a, b)
    return complex(r) if _np.iscomplexobj(_np.asarray(r.get())) else float(r)


def _tol(b, rtol, atol):
    if rtol < 0 or atol < 0:
        raise ValueError("rtol and atol must be >= 0")
    return _bi.max(float(atol), float(rtol) * _nrm(b))


def _cg_native(A, b, x0, rtol, atol, maxiter, M, callback):
    """cg in one C loop (cn_sparse_cg) when nothing needs Python between
    iterations: a real host sparse matrix, a real b, float64 work, no M and
    no callback; None otherwise (the Python loop serves)."""
    sp = _sp()
    if M is not None or callback is not None or not sp.issparse(A) or \
            A.shape[0] != A.shape[1] or A.device != "cpu":
        return None
    xp = _xp()
    b = xp.asarray(b)
    n = A.shape[0]
    if b.shape not in ((n,), (n, 1)) or b.device != "cpu" or \
            _np.result_type(A.dtype, b.dtype, _np.float64) != _np.float64:
        return None
    if x0 is not None:
        x0 = xp.asarray(x0).reshape(-1)
        if x0.shape != (n,) or x0.dtype.kind == "c" or x0.device != "cpu":
            return None
    if rtol < 0 or atol < 0:
        raise ValueError("rtol and atol must be >= 0")
    maxiter = 10 * n if maxiter is None else int(maxiter)
    from .. import _cnlib
    x, info = _cnlib.cn_sparse_cg(A._h, b.reshape(-1), x0, float(rtol),
                                  float(atol), maxiter)
    return x, int(info)


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None,
       callback=None):
    """Conjugate gradients for Hermitian positive definite A. Returns
    (x, info): info 0 when ||b - Ax|| <= max(rtol ||b||, atol), else the
    iterations run."""
    fast = _cg_native(A, b, x0, rtol, atol, maxiter, M, callback)
    if fast is not None:
        return fast
    A, b, x, M, dt = _setup(A, b, x0, M)
    n = A.shape[0]
    maxiter = 10 * n if maxiter is None else int(maxiter)
    tol = _tol(b, rtol, atol)
    if _nrm(b) == 0.0:
        return _xp().zeros_like(b), 0
    r = b - A.matvec(x) if x0 is not None else b.copy()
    rho_prev, p = None, None
    for it in range(maxiter):
        if _nrm(r) <= tol:
            return x, 0
        z = M.matvec(r) if M is not None else r
        rho = _dot(r, z)
        if p is None:
            p = z.copy()
        else:
            p = z + (rho / rho_prev) * p
        q = A.matvec(p)
        alpha = rho / _dot(p, q)
        x = x + alpha * p
        r = r - alpha * q
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, (0 if _nrm(r) <= tol else maxiter)


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None,
             callback=None):
    """BiConjugate Gradient STABilized; returns (x, info) as cg (info < 0
    on breakdown)."""
    A, b, x, M, dt = _setup(A, b, x0, M)
    n = A.shape[0]
    maxiter = 10 * n if maxiter is None else int(maxiter)
    tol = _tol(b, rtol, atol)
    if _nrm(b) == 0.0:
        return _xp().zeros_like(b), 0
    r = b - A.matvec(x)
    rhat = r.copy()
    rho_prev = alpha = omega = 1.0
    v = p = _xp().zeros_like(b)
    for it in range(maxiter):
        if _nrm(r) <= tol:
            return x, 0
        rho = _dot(rhat, r)
        if rho == 0:
            return x, -10
        if it == 0:
            p = r.copy()
        else:
            if omega == 0:
                return x, -11
            beta = (rho / rho_prev) * (alpha / omega)
            p = r + beta * (p - omega * v)
        phat = M.matvec(p) if M is not None else p
        v = A.matvec(phat)
        alpha = rho / _dot(rhat, v)
        s = r - alpha * v
        if _nrm(s) <= tol:
            x = x + alpha * phat
            if callback is not None:
                callback(x)
            return x, 0
        shat = M.matvec(s) if M is not None else s
        t = A.matvec(shat)
        tt = _dot(t, t)
        omega = _dot(t, s) / tt if tt != 0 else 0.0
        x = x + alpha * phat + omega * shat
        r = s - omega * t
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, (0 if _nrm(r) <= tol else maxiter)


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None, maxiter=None,
          M=None, callback=None, callback_type=None):
    """Restarted GMRES(restart) with modified Gram-Schmidt and Givens
    rotations; M is a left preconditioner on the residual. Returns
    (x, info). callback_type 'x' calls callback(x) each restart cycle,
    'pr_norm' (default) callback(residual / ||b||) each inner step."""
    xp = _xp()
    A, b, x, M, dt = _setup(A, b, x0, M)
    n = A.shape[0]
    restart = 20 if restart is None else int(restart)
    restart = _bi.max(1, _bi.min(restart, n)) if n else 1
    maxiter = 10 * n if maxiter is None else int(maxiter)
    callback_type = callback_type or ("pr_norm" if callback else None)
    bnrm = _nrm(b)
    if bnrm == 0.0:
        return xp.zeros_like(b), 0
    tol = _tol(b, rtol, atol)
    prec = (lambda v: M.matvec(v)) if M is not None else (lambda v: v)
    cplx = _np.dtype(dt).kind == "c"
    for cycle in range(maxiter):
        r = b - A.matvec(x)
        rn = _nrm(r)
        if rn <= tol:
            return x, 0
        z = prec(r)
        beta = _nrm(z)
        V = [z / beta]
        H = _np.zeros((restart + 1, restart), dtype=complex if cplx
                      else float)
        cs = _np.zeros(restart, dtype=H.dtype)
        sn = _np.zeros(restart, dtype=H.dtype)
        g = _np.zeros(restart + 1, dtype=H.dtype)
        g[0] = beta
        k_used = 0
        for k in range(restart):
            w = prec(A.matvec(V[k]))
            for i in range(k + 1):
                H[i, k] = _dot(V[i], w)
                w = w - H[i, k] * V[i]
            h_next = _nrm(w)
            H[k + 1, k] = h_next
            for i in range(k):
                t = cs[i] * H[i, k] + sn[i] * H[i + 1, k]
                H[i + 1, k] = -_np.conj(sn[i]) * H[i, k] + cs[i] * H[i + 1, k]
                H[i, k] = t
            a, c = H[k, k], H[k + 1, k]
            den = _math.hypot(abs(a), abs(c))
            if den == 0:
                cs[k], sn[k] = 1.0, 0.0
            else:
                cs[k] = abs(a) / den
                sn[k] = (a / abs(a) if a != 0 else 1.0) * _np.conj(c) / den
            H[k, k] = cs[k] * a + sn[k] * c
            H[k + 1, k] = 0.0
            g[k + 1] = -_np.conj(sn[k]) * g[k]
            g[k] = cs[k] * g[k]
            k_used = k + 1
            if callback_type == "pr_norm":
                callback(abs(g[k + 1]) / bnrm)
            if abs(g[k + 1]) <= tol or h_next == 0 or k + 1 == restart:
                break  # converged, a lucky breakdown, or the cycle's end
            V.append(w / h_next)
        y = _np.linalg.solve(_np.triu(H[:k_used, :k_used]), g[:k_used]) \
            if k_used else _np.zeros(0)
        for i in range(k_used):
            x = x + (complex(y[i]) if cplx else float(y[i].real)) * V[i]
        if callback_type in ("x", "legacy") and callback is not None:
            callback(x)
    return x, (0 if _nrm(b - A.matvec(x)) <= tol else maxiter)


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None,
           callback=None, show=False, check=False):
    """MINRES (Paige and Saunders) for Hermitian A - shift*I, with a
    Hermitian positive definite preconditioner M. Returns (x, info); the
    stopping test is SciPy's on the estimated residual norm."""
    xp = _xp()
    A, b, x, M, dt = _setup(A, b, x0, M)
    n = A.shape[0]
    maxiter = 5 * n if maxiter is None else int(maxiter)
    prec = (lambda v: M.matvec(v)) if M is not None else (lambda v: v)
    r1 = b - A.matvec(x) if x0 is not None else b.copy()
    y = prec(r1)
    beta1 = _dot(r1, y)
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    if beta1 == 0:
        return x, 0
    bnorm = _nrm(b)
    beta1 = _math.sqrt(beta1.real if isinstance(beta1, complex) else beta1)
    oldb, beta, dbar, epsln, phibar = 0.0, beta1, 0.0, 0.0, beta1
    cs, sn = -1.0, 0.0
    w = xp.zeros_like(b)
    w2 = xp.zeros_like(b)
    r2 = r1
    Anorm2 = 0.0
    for itn in range(1, maxiter + 1):
        s = 1.0 / beta
        v = s * y
        y = A.matvec(v)
        if shift:
            y = y - shift * v
        if itn >= 2:
            y = y - (beta / oldb) * r1
        alfa = _dot(v, y)
        alfa = alfa.real if isinstance(alfa, complex) else alfa
        y = y - (alfa / beta) * r2
        r1, r2 = r2, y
        y = prec(r2)
        oldb = beta
        bb = _dot(r2, y)
        bb = bb.real if isinstance(bb, complex) else bb
        if bb < 0:
            raise ValueError("indefinite preconditioner")
        beta = _math.sqrt(bb)
        Anorm2 += alfa ** 2 + oldb ** 2 + beta ** 2
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        gamma = _bi.max(_math.hypot(gbar, beta), 1e-300)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) * (1.0 / gamma)
        x = x + phi * w
        if callback is not None:
            callback(x)
        rnorm = abs(phibar)
        Anorm = _math.sqrt(Anorm2)
        ynorm = _nrm(x)
        test1 = rnorm / (Anorm * ynorm + bnorm) if Anorm * ynorm + bnorm \
            else 0.0
        if test1 <= rtol or beta == 0:
            return x, 0
    return x, maxiter


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None,
         show=False, calc_var=False, x0=None):
    """LSQR (Paige and Saunders): min ||Ax - b||^2 + damp^2 ||x||^2.
    Returns SciPy's 10-tuple (x, istop, itn, r1norm, r2norm, anorm, acond,
    arnorm, xnorm, var); var is None (calc_var is not computed)."""
    xp = _xp()
    A = aslinearoperator(A)
    m, n = A.shape
    b = xp.asarray(b).reshape(-1)
    dt = _np.result_type(A.dtype, b.dtype, _np.float64)
    b = b.astype(dt)
    iter_lim = 2 * n if iter_lim is None else int(iter_lim)
    x = xp.zeros(n, dtype=dt) if x0 is None else \
        xp.asarray(x0).reshape(-1).astype(dt).copy()
    u = b - A.matvec(x) if x0 is not None else b.copy()
    bnorm = _nrm(b)
    beta = _nrm(u)
    if beta > 0:
        u = u / beta
        v = A.rmatvec(u)
        alfa = _nrm(v)
    else:
        v = xp.zeros(n, dtype=dt)
        alfa = 0.0
    if alfa > 0:
        v = v / alfa
    w = v.copy()
    rhobar, phibar = alfa, beta
    anorm = acond = ddnorm = res2 = xxnorm = z = 0.0
    cs2, sn2 = -1.0, 0.0
    rnorm = r1norm = r2norm = beta
    arnorm = alfa * beta
    istop, itn = 0, 0
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    if arnorm == 0:
        return (x, 0, 0, beta, beta, 0.0, 0.0, 0.0, 0.0, None)
    while itn < iter_lim:
        itn += 1
        u = A.matvec(v) - alfa * u
        beta = _nrm(u)
        if beta > 0:
            u = u / beta
            anorm = _math.sqrt(anorm ** 2 + alfa ** 2 + beta ** 2 + damp ** 2)
            v = A.rmatvec(u) - beta * v
            alfa = _nrm(v)
            if alfa > 0:
                v = v / alfa
        rhobar1 = _math.hypot(rhobar, damp)
        cs1, sn1 = rhobar / rhobar1, damp / rhobar1
        psi = sn1 * phibar
        phibar = cs1 * phibar
        rho = _math.hypot(rhobar1, beta)
        cs, sn = rhobar1 / rho, beta / rho
        theta = sn * alfa
        rhobar = -cs * alfa
        phi = cs * phibar
        phibar = sn * phibar
        tau = sn * phi
        t1, t2 = phi / rho, -theta / rho
        dk = w * (1.0 / rho)
        x = x + t1 * w
        w = v + t2 * w
        ddnorm += _nrm(dk) ** 2
        delta = sn2 * rho
        gambar = -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / gambar
        xnorm = _math.sqrt(xxnorm + zbar ** 2)
        gamma = _math.hypot(gambar, theta)
        cs2, sn2 = gambar / gamma, theta / gamma
        z = rhs / gamma
        xxnorm += z ** 2
        acond = anorm * _math.sqrt(ddnorm)
        res1 = phibar ** 2
        res2 += psi ** 2
        rnorm = _math.sqrt(res1 + res2)
        arnorm = alfa * abs(tau)
        r1sq = rnorm ** 2 - damp ** 2 * xxnorm
        r1norm = _math.sqrt(abs(r1sq)) * (1 if r1sq >= 0 else -1)
        r2norm = rnorm
        test1 = rnorm / bnorm if bnorm else 0.0
        test2 = arnorm / (anorm * rnorm) if anorm * rnorm else 0.0
        test3 = 1.0 / acond if acond else 0.0
        rtol = btol + atol * anorm * xnorm / bnorm if bnorm else 0.0
        if itn >= iter_lim:
            istop = 7
        if 1 + test3 <= 1:
            istop = 6
        if 1 + test2 <= 1:
            istop = 5
        if 1 + (test1 / (1 + anorm * xnorm / bnorm) if bnorm else 0) <= 1:
            istop = 4
        if test3 <= ctol:
            istop = 3
        if test2 <= atol:
            istop = 2
        if test1 <= rtol:
            istop = 1
        if istop:
            break
    return (x, istop, itn, r1norm, r2norm, anorm, acond, arnorm,
            _nrm(x), None)


class _LU:
    """Owns one cn_sparse_lu (released once)."""

    def __init__(self, h):
        self.h = h

    def __del__(self):
        from .. import _cnlib
        h, self.h = self.h, None
        if h:
            _cnlib.cn_sparse_lu_release(h)


def factorized(A):
    """A function solving A x = b with one LU factorisation of A (SuiteSparse
    UMFPACK), as scipy.sparse.linalg.factorized."""
    from .. import _cnlib
    sp = _sp()
    a = A if sp.issparse(A) else sp.csc_array(A)
    a = a if a.format != "dia" else a.tocsc()
    lu = _LU(_cnlib.cn_sparse_lu_factor(a._h))

    def solve(b):
        return _cnlib.cn_sparse_lu_solve(lu.h, _xp().asarray(b))
    return solve


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """x = A^-1 b for square sparse A and dense b (1-d, or 2-d column by
    column) through UMFPACK; a sparse b gives a sparse x, as SciPy."""
    from .. import _cnlib
    sp = _sp()
    a = A if sp.issparse(A) else sp.csc_array(A)
    a = a if a.format != "dia" else a.tocsc()
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"matrix must be square (has shape {a.shape})")
    if sp.issparse(b):
        x = _cnlib.cn_sparse_spsolve(a._h, b.toarray())
        cls = sp.csc_array if b._is_array or a._is_array else sp.csc_matrix
        return cls(x if x.ndim == 2 else x.reshape(-1, 1))
    bb = _xp().asarray(b)
    if bb.shape[0] != a.shape[0]:
        raise ValueError(f"matrix - rhs dimension mismatch ({a.shape} - "
                         f"{bb.shape[0]})")
    x = _cnlib.cn_sparse_spsolve(a._h, bb)
    return x.reshape(-1) if bb.ndim == 2 and bb.shape[1] == 1 else x


def _lanczos(A, n, m, v0, dt):
    """m steps of Lanczos with full reorthogonalisation from v0: the basis
    (n x m, engine array), alpha and beta (host), and the steps done (fewer
    on an invariant subspace)."""
    xp = _xp()
    V = xp.zeros((n, m), dtype=dt)
    alpha = _np.zeros(m)
    beta = _np.zeros(m)
    v = v0 / _nrm(v0)
    for j in range(m):
        V[:, j] = v
        w = A.matvec(v)
        a = _dot(v, w)
        alpha[j] = a.real if isinstance(a, complex) else a
        # two passes of classical Gram-Schmidt against the whole basis
        for _ in range(2):
            Vj = V[:, :j + 1]
            w = w - Vj @ (xp.conjugate(Vj.T) @ w)
        b = _nrm(w)
        beta[j] = b
        if b <= 1e-14 * _bi.max(abs(alpha[j]), 1.0) or j + 1 == m:
            return V, alpha, beta, j + 1
        v = w / b
    return V, alpha, beta, m


def _select(vals, k, which):
    order = {"LM": _np.argsort(-_np.abs(vals), kind="stable"),
             "SM": _np.argsort(_np.abs(vals), kind="stable"),
             "LA": _np.argsort(-vals, kind="stable"),
             "SA": _np.argsort(vals, kind="stable")}
    if which == "BE":
        srt = _np.argsort(vals, kind="stable")
        lo, hi, pick = 0, len(srt) - 1, []
        for i in range(k):
            if i % 2 == 0:
                pick.append(srt[hi])
                hi -= 1
            else:
                pick.append(srt[lo])
                lo += 1
        return _np.array(pick)
    if which not in order:
        raise ValueError(f"which must be one of LM, SM, LA, SA, BE, not "
                         f"{which!r}")
    return order[which][:k]


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None,
          maxiter=None, tol=0, return_eigenvectors=True, Minv=None,
          OPinv=None, mode="normal"):
    """k eigenvalues (and eigenvectors) of Hermitian A by Lanczos with full
    reorthogonalisation, the subspace grown until the k wanted Ritz pairs
    have residuals below tol (machine precision for tol=0) times ||A||.
    Returned as SciPy's: eigenvalues in ascending order. sigma runs
    shift-invert mode (SciPy's mode='normal'): Lanczos on (A - sigma I)^-1
    (one UMFPACK factorisation of the sparse or dense A - sigma I, or
    OPinv), which selects among nu = 1 / (lambda - sigma), so 'LM' gives the
    eigenvalues nearest sigma. M and Minv (generalised problems) and the
    'buckling' and 'cayley' modes are not supported."""
    if M is not None or Minv is not None:
        raise NotImplementedError("eigsh: M and Minv (generalised "
                                  "problems) are not supported")
    if sigma is not None:
        return _eigsh_shift_invert(A, k, sigma, which, v0, ncv, maxiter, tol,
                                   return_eigenvectors, OPinv, mode)
    if OPinv is not None:
        raise ValueError("eigsh: OPinv is used only with sigma")
    xp = _xp()
    A = aslinearoperator(A)
    n = A.shape[0]
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected a square matrix, not {A.shape}")
    if k <= 0 or k >= n:
        raise ValueError(f"k must be between 1 and n - 1 = {n - 1}, not {k}")
    cplx = _np.dtype(A.dtype).kind == "c"
    dt = _np.complex128 if cplx else _np.float64
    v = xp.asarray(v0).astype(dt) if v0 is not None else \
        xp.asarray(_np.random.default_rng(0).standard_normal(n)).astype(dt)
    m = _bi.min(n, ncv if ncv is not None else _bi.max(2 * k + 1, 20))
    eps = _np.finfo(_np.float64).eps
    tol = tol if tol > 0 else eps
    rounds = maxiter if maxiter is not None else 20
    for _ in range(_bi.max(1, rounds)):
        V, alpha, beta, steps = _lanczos(A, n, m, v, dt)
        T = _np.diag(alpha[:steps]) + _np.diag(beta[:steps - 1], 1) + \
            _np.diag(beta[:steps - 1], -1)
        theta, S = _np.linalg.eigh(T)
        pick = _select(theta, _bi.min(k, steps), which)
        anorm = _bi.max(_np.abs(theta).max(), 1e-300)
        resid = _np.abs(beta[steps - 1] * S[steps - 1, pick])
        if steps < m or _np.all(resid <= tol * anorm * 1e3) or m == n:
            break
        m = _bi.min(n, 2 * m)
    vals = theta[pick]
    order = _np.argsort(vals, kind="stable")
    vals = vals[order]
    if not (steps < m or m == n or _np.all(resid <= tol * anorm * 1e3)):
        raise ArpackNoConvergence("eigsh: no convergence", vals, None)
    if not return_eigenvectors:
        return vals
    Y = xp.asarray(S[:, pick[order]].astype(dt))
    return vals, V[:, :steps] @ Y


def _eigsh_shift_invert(A, k, sigma, which, v0, ncv, maxiter, tol,
                        return_eigenvectors, OPinv, mode):
    if mode != "normal":
        raise NotImplementedError(f"eigsh: mode {mode!r} is not supported "
                                  "(only 'normal' shift-invert)")
    if isinstance(sigma, complex) or _np.iscomplexobj(sigma):
        raise ValueError("eigsh: sigma must be real")
    sigma = float(sigma)
    sp = _sp()
    n = A.shape[0]
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected a square matrix, not {A.shape}")
    if OPinv is not None:
        solve = aslinearoperator(OPinv).matvec
        odt = getattr(OPinv, "dtype", None)
        dt = _np.result_type(_np.float64 if odt is None else odt, _np.float64)
    elif sp.issparse(A) or (hasattr(A, "shape") and
                            not isinstance(A, LinearOperator)):
        S = A if sp.issparse(A) else sp.csc_array(_xp().asarray(A))
        S = (S.tocsc() - sigma * sp.eye(n, format="csc", dtype=S.dtype))
        solve = factorized(S)
        dt = _np.result_type(S.dtype, _np.float64)
    else:
        raise ValueError("eigsh: sigma with a LinearOperator A needs OPinv "
                         "(the action of (A - sigma I)^-1)")
    op = LinearOperator((n, n), matvec=solve, dtype=dt)
    res = eigsh(op, k=k, which=which, v0=v0, ncv=ncv, maxiter=maxiter,
                tol=tol, return_eigenvectors=return_eigenvectors)
    nu = res[0] if return_eigenvectors else res
    lam = sigma + 1.0 / _np.asarray(nu)
    order = _np.argsort(lam, kind="stable")
    if not return_eigenvectors:
        return lam[order]
    return lam[order], res[1][:, _xp().asarray(order)]


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None,
         return_singular_vectors=True, solver="arpack", rng=None,
         options=None):
    """k largest (which='LM') or smallest ('SM') singular triplets from
    eigsh of A^H A (A A^H when A is wide): (u, s, vh) with s ascending, as
    SciPy."""
    xp = _xp()
    op = aslinearoperator(A)
    m, n = op.shape
    if k <= 0 or k >= _bi.min(m, n):
        raise ValueError(f"k must be between 1 and min(A.shape) - 1, not {k}")
    tall = m >= n
    if tall:
        gram = LinearOperator((n, n), matvec=lambda v: op.rmatvec(
            op.matvec(v)), dtype=op.dtype)
    else:
        gram = LinearOperator((m, m), matvec=lambda v: op.matvec(
            op.rmatvec(v)), dtype=op.dtype)
    vals, vecs = eigsh(gram, k=k, which="LA" if which == "LM" else "SA",
                       ncv=ncv, tol=tol, v0=v0, maxiter=maxiter)
    s = _np.sqrt(_np.clip(vals, 0, None))
    if not return_singular_vectors:
        return s
    safe = _np.where(s > 0, s, 1.0)
    if tall:
        v = vecs
        u = op.matmat(v) / xp.asarray(safe)
    else:
        u = vecs
        v = op.adjoint().matmat(u) / xp.asarray(safe)
    return u, s, xp.conjugate(v.T)


def norm(x, ord=None, axis=None):
    """Matrix norms of a sparse matrix (scipy.sparse.linalg.norm):
    Frobenius (None, 'fro'), 1, -1, inf, -inf; with an axis, the vector
    norms of rows or columns."""
    xp = _xp()
    sp = _sp()
    if not sp.issparse(x):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    a = x.tocsr()
    a.sum_duplicates()
    absa = abs(a)
    if axis is None:
        if ord in (None, "fro", "f"):
            return float(xp.sqrt(xp.sum(xp.abs(a.data) ** 2)))
        if ord in (1, -1):
            s = absa.sum(axis=0)
            s = xp.asarray(s).reshape(-1)
            return float(xp.max(s) if ord == 1 else xp.min(s))
        if ord in (_np.inf, -_np.inf):
            s = xp.asarray(absa.sum(axis=1)).reshape(-1)
            return float(xp.max(s) if ord == _np.inf else xp.min(s))
        raise NotImplementedError(f"norm of order {ord} is not supported "
                                  "for sparse matrices")
    ax = axis % 2 if isinstance(axis, int) else None
    if ax is None:
        raise ValueError("axis must be None or an int")
    if ord in (None, 2):
        sq = a._with_data(xp.abs(a.data) ** 2)
        return xp.sqrt(xp.asarray(sq.sum(axis=ax)).reshape(-1))
    if ord == 1:
        return xp.asarray(absa.sum(axis=ax)).reshape(-1)
    if ord == _np.inf:
        return xp.asarray(absa.max(axis=ax)).reshape(-1)
    if ord == 0:
        return xp.asarray(a.count_nonzero(axis=ax)).reshape(-1).astype(
            _np.float64)
    raise NotImplementedError(f"vector norm of order {ord} is not supported")

from .. import _docstrings  # noqa: E402
_docstrings.apply(__import__("sys").modules[__name__])  # from the C headers
