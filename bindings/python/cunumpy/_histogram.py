"""Histograms and binning (include/cunumpy/stats.h): histogram, bincount,
digitize, histogram_bin_edges (NumPy's bin estimators), histogram2d and
histogramdd.
"""

import builtins as _builtins
import math as _math
import operator as _operator

import numpy as _np

from . import _cnlib as _lib
from ._convert import asarray, zeros
from ._numerictypes import _K_FLOAT, _K_INT, _K_UINT, _kind
from ._reduce import any
from ._shape import ravel
from ._creation import linspace
from ._manip import stack

__all__ = ["histogram", "bincount", "digitize", "histogram_bin_edges",
           "histogramdd", "histogram2d"]


def _histogram_f64(a, bins, range, density, weights):
    """cn_histogram: int64 counts or float64 sums, float64 edges."""
    if isinstance(bins, str):
        # NumPy's estimators give equal bins: their edges, then the count
        bins = _edges_for(ravel(a), bins, range, weights)
        return _lib.cn_histogram(a, 0, bins, False, 0.0, 0.0, weights,
                                 bool(density))
    if isinstance(bins, (int, _np.integer)):
        lo, hi = range if range is not None else (0.0, 0.0)
        return _lib.cn_histogram(a, int(bins), None, range is not None,
                                 float(lo), float(hi), weights,
                                 bool(density))
    return _lib.cn_histogram(a, 0, bins, False, 0.0, 0.0, weights,
                             bool(density))


def _uniform_edge_dtype(a):
    """NumPy's dtype of equal edges: a's float dtype, float64 otherwise."""
    dt = _np.dtype(a.dtype)
    return dt if dt.kind == "f" else _np.dtype(_np.float64)


def histogram(a, bins=10, range=None, density=None, weights=None):
    # NumPy's result dtypes: counts int64 without weights, else the weights'
    # dtype (density float64, complex128 for complex weights); equal edges
    # in a's float dtype, given edges as given
    a = asarray(a)
    given = not isinstance(bins, str) and _np.ndim(bins) != 0
    if given:
        bins = asarray(bins)
    w = None if weights is None else asarray(weights)
    wdt = None if w is None else _np.dtype(w.dtype)
    if wdt is not None and wdt.kind == "c":
        hr, edges = _histogram_f64(a, bins, range, False, w.real)
        hi, _ = _histogram_f64(a, bins, range, False, w.imag)
        n = stack([hr, hi], axis=-1).view(_np.complex128).reshape(hr.shape)
        n = n.astype(wdt)
        if density:
            n = n / (edges[1:] - edges[:-1]) / n.sum()
    else:
        if wdt is not None and wdt.kind == "b" and given:
            # NumPy's cumulative sums of bool weights cannot cast back
            raise TypeError("Cannot cast ufunc 'add' output from dtype('int64')"
                            " to dtype('bool') with casting rule "
                            "'same_kind'")
        if wdt is None or wdt == _np.float64:
            n, edges = _histogram_f64(a, bins, range, density, w)
        else:
            # NumPy casts the sums to the weights' dtype (integers wrap)
            # before dividing by the bin widths and the total
            n, edges = _histogram_f64(a, bins, range, False, w)
            n = n.astype(wdt)
            if density:
                n = n / (edges[1:] - edges[:-1]) / n.sum()
    edt = _np.dtype(bins.dtype) if given else _uniform_edge_dtype(a)
    if edt != _np.float64:
        edges = edges.astype(edt)
    return n, edges


def bincount(x, weights=None, minlength=0):
    return _lib.cn_bincount(x, weights, int(minlength))


def digitize(x, bins, right=False):
    return _lib.cn_digitize(x, bins, bool(right))


def _stone_width(a, ptp, rng):
    """Stone's estimator: the bin count k in [1, max(100, sqrt(n))] that
    minimises the leave-one-out risk estimate (2 - (n + 1) sum p_k^2) / h
    of the histogram over rng (the first k wins ties)."""
    n = a.size
    if n <= 1 or ptp == 0:
        return 0.0
    upper = _builtins.max(100, int(_math.sqrt(n)))
    best, best_k = None, 1
    for k in _builtins.range(1, upper + 1):
        counts, _ = _histogram_f64(a, k, rng, False, None)
        p = counts / n
        risk = (2.0 - (n + 1) * float((p * p).sum().item())) / (ptp / k)
        if best is None or risk < best:
            best, best_k = risk, k
    if best_k == upper:
        import warnings
        warnings.warn("The number of bins estimated may be suboptimal.",
                      RuntimeWarning, stacklevel=4)
    return ptp / best_k


def _bin_width(a, name, rng=None):
    """NumPy's bin-width estimators over the 1-d non-empty a (rng: the outer
    edges, which Stone's estimator histograms over)."""
    n = a.size
    ptp = float(a.max().item()) - float(a.min().item())
    if name == "stone":
        return _stone_width(a, ptp, rng)
    sqrt_w = ptp / _math.sqrt(n)
    sturges = ptp / (_math.log2(n) + 1.0)
    if name == "sqrt":
        return sqrt_w
    if name == "sturges":
        return sturges
    if name == "rice":
        return ptp / (2.0 * n ** (1.0 / 3))
    if name == "scott":
        return (24.0 * _math.pi ** 0.5 / n) ** (1.0 / 3.0) * \
            float(a.std().item())
    if name == "doane":
        if n > 2:
            sg1 = _math.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
            sigma = float(a.std().item())
            if sigma > 0.0:
                g1 = float((((a - a.mean()) / sigma) ** 3).mean().item())
                return ptp / (1.0 + _math.log2(n) +
                              _math.log2(1.0 + _builtins.abs(g1) / sg1))
        return 0.0
    q = _lib.cn_percentile(_lib.cn_astype(a, _lib.CN_FLOAT64, 0),
                           [75.0, 25.0], None, 0, False)
    fd = 2.0 * (float(q[0].item()) - float(q[1].item())) * n ** (-1.0 / 3.0)
    if name == "fd":
        return fd
    if name == "auto":
        return _builtins.min(_builtins.max(fd, sqrt_w / 2), sturges)
    raise ValueError(f"{name!r} is not a valid estimator for `bins`")


def _edges_for(a, bins, rng, weights=None):
    """NumPy's _get_bin_edges for the flat a."""
    if isinstance(bins, str):
        if bins not in ("stone", "auto", "doane", "fd", "rice", "scott",
                        "sqrt", "sturges"):
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is "
                            "not supported for weighted data")
        lo, hi = _outer_edges(a, rng)
        if rng is not None:
            a = a[(a >= lo) & (a <= hi)]
        n = 1
        if a.size:
            width = _bin_width(a, bins, (lo, hi))
            if width:
                if _kind(a) in (_K_INT, _K_UINT) and width < 1:
                    width = 1
                n = int(_math.ceil((hi - lo) / width))
    elif _np.ndim(bins) == 0:
        try:
            n = _operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an "
                            "array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        lo, hi = _outer_edges(a, rng)
    else:
        e = asarray(bins)
        if e.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if e.size > 1 and bool(any(e[:-1] > e[1:])):
            raise ValueError("`bins` must increase monotonically, when an "
                             "array")
        return e
    bin_type = a.dtype if _kind(a) == _K_FLOAT else _np.float64
    return _lib.cn_astype(linspace(lo, hi, n + 1), bin_type, 0)


def _outer_edges(a, rng):
    if rng is not None:
        lo, hi = rng
        if lo > hi:
            raise ValueError("max must be larger than min in range "
                             "parameter.")
        if not (_math.isfinite(lo) and _math.isfinite(hi)):
            raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")
    elif a.size == 0:
        lo, hi = 0, 1
    else:
        lo, hi = a.min().item(), a.max().item()
        if not (_math.isfinite(lo) and _math.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not "
                             f"finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return float(lo), float(hi)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges histogram(a, bins, range) uses."""
    a = ravel(asarray(a))
    edges = _edges_for(a, bins, range, weights)
    if isinstance(bins, str) or isinstance(bins, (int, _np.integer)):
        edt = _uniform_edge_dtype(a)
        if edt != _np.float64:
            edges = edges.astype(edt)
    return edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """D-dimensional histogram of the N points of sample ((N, D) or a
    sequence of D arrays): (H float64 of the bin counts, [edges])."""
    if isinstance(sample, (list, tuple)):
        sample = [ravel(asarray(c)) for c in sample]
        sample = stack(sample, axis=1) if sample else zeros((0, 0))
    sample = asarray(sample)
    if sample.ndim != 2:
        sample = _lib.cn_atleast_2d(sample).T
    D = sample.shape[1]
    try:
        if len(bins) != D:
            raise ValueError("The dimension of bins must be equal to the "
                             "dimension of the sample x.")
    except TypeError:
        bins = [bins]
    ranges = None
    if range is not None:
        if len(range) != D:
            raise ValueError("range argument must have one entry per "
                             "dimension")
        ranges = asarray([[_math.nan, _math.nan] if r is None else
                          [float(r[0]), float(r[1])] for r in range])
    if weights is not None:
        weights = ravel(asarray(weights))
    res = _lib.cn_histogramdd(sample, [asarray(b) for b in bins], ranges,
                              weights, bool(density))
    return res[0], list(res[1:])


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """2-d histogram of the points (x, y): (H, xedges, yedges), H float64
    of shape (nx, ny)."""
    x, y = asarray(x), asarray(y)
    if x.ndim != 1 or y.ndim != 1 or x.shape != y.shape:
        raise ValueError("x and y must be 1-d arrays of the same length")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        bins = [asarray(bins), asarray(bins)]
    h, (xe, ye) = histogramdd([x, y], bins, range, density, weights)
    return h, xe, ye
