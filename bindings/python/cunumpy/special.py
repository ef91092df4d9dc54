"""Special functions under scipy.special's names (cupyx.scipy.special's
role): ``import cunumpy.special as special`` in place of
``import scipy.special as special``.

Each function is a ufunc of the engine's op table (include/cunumpy/
special.h, ops named special_<name>): it broadcasts, takes out= and
dtype=, runs where its inputs live and fuses in ``cunumpy.fuse``
(``xp.special.erf(x)``). Loops are float32 and float64; integer inputs
compute in float64 (float32 for 8- and 16-bit), as SciPy's loops.
"""

from . import _cnlib as _lib
from ._ufunc import UFUNCS as _UFUNCS, _SPECIAL_PREFIX, ufunc as _ufunc

__all__ = []

for _op, _u in _UFUNCS.items():
    if _op.startswith(_SPECIAL_PREFIX):
        _name = _op[len(_SPECIAL_PREFIX):]
        globals()[_name] = _ufunc(_name, _u.nin, getattr(_lib, "cn_" + _op),
                                  _u._summary, op=_op)
        __all__.append(_name)

del _op, _u, _name

digamma = psi  # noqa: F821 (SciPy's two names of one ufunc)
__all__.append("digamma")

# SciPy's zeta and lambertw are functions with defaults around a ufunc:
# the same signatures over the op table's ufuncs.
_zeta = zeta  # noqa: F821
_lambertw = lambertw  # noqa: F821


def zeta(x, q=None, out=None):
    """Hurwitz zeta(x, q) = sum_k>=0 (q + k)**-x (scipy.special.zeta).
    q=None is q = 1, Riemann's zeta for x > 1; below 1 the result is NaN,
    where SciPy continues Riemann's zeta analytically."""
    return _zeta(x, 1.0 if q is None else q, out=out)


def lambertw(z, k=0, tol=1e-8):
    """Real branch k (0 or -1) of Lambert's W (scipy.special.lambertw). The
    result is real (SciPy's is complex128): NaN where the branch's value is
    not real. tol is accepted for SciPy's signature; the result is as
    accurate as the header states whatever its value."""
    return _lambertw(z, k)


def _array(a):
    from ._convert import asarray
    return asarray(a)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(exp(a))) over axis (an int, a tuple or None), without
    overflow (SciPy's logsumexp; b= and return_sign= are not supported)."""
    if b is not None or return_sign:
        raise NotImplementedError("cunumpy.special.logsumexp: b= and "
                                  "return_sign=")
    return _lib.cn_special_logsumexp(_array(a), axis, bool(keepdims))


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) along axis (None: over all elements)."""
    return _lib.cn_special_softmax(_array(x), axis)


def log_softmax(x, axis=None):
    """log(softmax(x, axis)) computed as x - logsumexp(x, axis)."""
    return _lib.cn_special_log_softmax(_array(x), axis)


__all__ += ["logsumexp", "softmax", "log_softmax"]
