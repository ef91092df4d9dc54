"""cunumpy.sparse: sparse matrices with scipy.sparse's names and semantics,
over the engine's cn_sparse handle (include/cunumpy/sparse.h).

    import cunumpy.sparse as sp
    A = sp.csr_array((data, indices, indptr), shape=(m, n))
    y = A @ x                      # SpMV / SpMM on the engine
    B = sp.csr_array(scipy_matrix) # zero-copy over SciPy's arrays
    A.get()                        # back to a scipy.sparse object

CSR, CSC, COO and DIA live in the engine (DIA as scipy's (data, offsets),
multiplied on that layout on the CPU). Components are host arrays until
to_device. Differences from
SciPy: no 1-d sparse arrays (an integer row index of a *_array and
max/min/argmax with an axis give dense 1-d arrays; *_matrix results that
SciPy gives as np.matrix are 2-d arrays).
"""

import builtins as _bi
import warnings as _warnings

import numpy as _np

from .. import _cnlib as _lib
from .. import _dtypes

__all__ = ["csr_array", "csr_matrix", "csc_array", "csc_matrix", "coo_array",
           "coo_matrix", "dia_array", "dia_matrix", "issparse", "isspmatrix",
           "isspmatrix_csr", "isspmatrix_csc", "isspmatrix_coo",
           "isspmatrix_dia", "eye", "eye_array", "identity", "diags",
           "diags_array", "spdiags", "random", "random_array", "rand", "kron",
           "hstack", "vstack", "bmat", "block_diag", "tril", "triu",
           "save_npz", "load_npz", "SparseEfficiencyWarning", "linalg"]

_CSR, _CSC, _COO = _lib.CN_SPARSE_CSR, _lib.CN_SPARSE_CSC, _lib.CN_SPARSE_COO
_DIA = _lib.CN_SPARSE_DIA
_FMT_CODE = {"csr": _CSR, "csc": _CSC, "coo": _COO, "dia": _DIA}
_FMT_NAME = {_CSR: "csr", _CSC: "csc", _COO: "coo", _DIA: "dia"}
_LONG_NAME = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column",
              "coo": "COOrdinate", "dia": "DIAgonal"}


class SparseEfficiencyWarning(Warning):
    pass


def _xp():
    import cunumpy
    return cunumpy


def _asarr(x, dtype=None):
    return _xp().asarray(x, dtype=dtype)


def _np_dtype(code):
    return _np.dtype(_dtypes.DTYPE_OF[code])


def _is_scalar(x):
    return _np.isscalar(x) or (hasattr(x, "ndim") and x.ndim == 0
                               and not issparse(x))


def _sum_dtype(dt):
    dt = _np.dtype(dt)
    if dt.kind in "bi":
        return _np.dtype(_np.int64)
    if dt.kind == "u":
        return _np.dtype(_np.uint64)
    return dt


class _Handle:
    """Owns one cn_sparse reference (released once)."""

    __slots__ = ("h",)

    def __init__(self, h):
        self.h = h

    def __del__(self, _release=_lib.cn_sparse_release):
        h, self.h = self.h, None
        if h:
            _release(h)


# ---------------------------------------------------------------------------
# the base class
# ---------------------------------------------------------------------------

class _spbase:
    """What every format shares; _h is the engine handle (CSR, CSC, COO)."""

    format = None
    _is_array = True
    _cn_sparse = True  # cunumpy.ndarray's @ defers to __rmatmul__
    __array_priority__ = 10.1
    __array_ufunc__ = None  # NumPy's operators defer to these methods

    # ---- construction ----------------------------------------------------

    def _set(self, h):
        self._hold = _Handle(h)
        return self

    @property
    def _h(self):
        return self._hold.h

    @classmethod
    def _wrap(cls, h):
        obj = cls.__new__(cls)
        return obj._set(h)

    @classmethod
    def _share(cls, other):
        """A cls over other's handle (the reference is shared)."""
        obj = cls.__new__(cls)
        obj._hold = other._hold
        return obj

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        h = _construct(arg1, shape, self.format, copy)
        if dtype is not None:
            code = _dtypes.to_code(dtype)
            h2 = _lib.cn_sparse_astype(h, code)
            _lib.cn_sparse_release(h)
            h = h2
        self._set(h)

    # ---- properties ------------------------------------------------------

    @property
    def device(self):
        """Where the components live: cpu or cuda:N (as arrays say)."""
        from .._ndarray import Device
        return Device._of(_lib.cn_sparse_device(self._h))

    def to_device(self, device, /, *, stream=None):
        """The matrix with every component on device (cpu, cuda:N or an
        ordinal); products, tocsr/tocsc, transpose and astype then run
        there (cuSPARSE on CUDA), the rest needs the host again."""
        from .._ndarray import parse_device
        d = parse_device(device)
        if d is None:
            return self
        h = _lib.cn_sparse_to_host(self._h) if d.type == "cpu" else \
            _lib.cn_sparse_to_device(self._h, d.id)
        return type(self)._wrap(h)


    @property
    def shape(self):
        return (_lib.cn_sparse_nrows(self._h), _lib.cn_sparse_ncols(self._h))

    @property
    def ndim(self):
        return 2

    @property
    def nnz(self):
        return _lib.cn_sparse_nnz(self._h)

    @property
    def size(self):
        return self.nnz

    @property
    def dtype(self):
        return _np_dtype(_lib.cn_sparse_dtype(self._h))

    @property
    def data(self):
        return _lib.cn_sparse_data(self._h)

    @property
    def has_canonical_format(self):
        return bool(_lib.cn_sparse_has_canonical_format(self._h))

    @property
    def has_sorted_indices(self):
        return bool(_lib.cn_sparse_has_sorted_indices(self._h))

    def getnnz(self, axis=None):
        if axis is None:
            return self.nnz
        ones = self._with_data(_xp().ones(self.nnz, dtype=_np.int64))
        return _xp().asarray(ones.sum(axis=axis)).ravel()

    def count_nonzero(self, axis=None):
        c = self.tocsr()
        c.sum_duplicates()
        if axis is None:
            return int(_xp().count_nonzero(c.data))
        nz = c._with_data((c.data != 0).astype(_np.int64))
        return _xp().asarray(nz.sum(axis=axis)).ravel()

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or "
                        "shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0
        raise ValueError("The truth value of an array with more than one "
                         "element is ambiguous. Use a.any() or a.all().")

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        diags = f" ({self.data.shape[0]} diagonals)" if self.format == \
            "dia" else ""
        return (f"<{_LONG_NAME[self.format]} sparse {kind} of dtype "
                f"'{self.dtype}'\n\twith {self.nnz} stored elements{diags} "
                f"and shape {self.shape}>")

    def __str__(self):
        c = self.tocoo()
        rows = _np.asarray(c.row.get()).tolist()
        cols = _np.asarray(c.col.get()).tolist()
        vals = c.data.get()
        lines = [repr(self), "  Coords\tValues"]
        for r, k, v in zip(rows, cols, vals):
            lines.append(f"  ({r}, {k})\t{v}")
        return "\n".join(lines)

    # ---- conversions -----------------------------------------------------

    def _same_kind(self, fmt):
        cls = _CLASSES[(fmt, self._is_array)]
        return cls

    def asformat(self, format, copy=False):
        if format is None or format == self.format:
            return self.copy() if copy else self
        h = _lib.cn_sparse_asformat(self._h, _FMT_CODE[format])
        res = self._same_kind(format)._wrap(h)
        if format == "dia" and res.data.shape[0] > 100:
            _warnings.warn(f"Constructing a DIA matrix with "
                           f"{res.data.shape[0]} diagonals is inefficient",
                           SparseEfficiencyWarning, stacklevel=2)
        return res.copy() if copy else res

    def tocsr(self, copy=False):
        return self.asformat("csr", copy)

    def tocsc(self, copy=False):
        return self.asformat("csc", copy)

    def tocoo(self, copy=False):
        return self.asformat("coo", copy)

    def todia(self, copy=False):
        return self.asformat("dia", copy)

    def toarray(self, order=None, out=None):
        res = _lib.cn_sparse_toarray(self._h)
        if order == "F":
            res = _xp().asfortranarray(res)
        if out is not None:
            out[...] = res
            return out
        return res

    def todense(self, order=None, out=None):
        return self.toarray(order, out)

    def get(self, stream=None):
        """The matrix as the scipy.sparse object of the same format and
        kind (array or matrix), over copies of the components."""
        import scipy.sparse as ss
        name = f"{self.format}_{'array' if self._is_array else 'matrix'}"
        cls = getattr(ss, name)
        if self.format == "coo":
            return cls((self.data.get(), (self.row.get(), self.col.get())),
                       shape=self.shape)
        if self.format == "dia":
            return cls((self.data.get(), self.offsets.get()),
                       shape=self.shape)
        return cls((self.data.get(), self.indices.get(), self.indptr.get()),
                   shape=self.shape)

    def copy(self):
        return type(self)._wrap(_lib.cn_sparse_copy(self._h))

    def astype(self, dtype, casting="unsafe", copy=True):
        code = _dtypes.to_code(dtype)
        if code == _lib.cn_sparse_dtype(self._h) and not copy:
            return self
        res = type(self)._wrap(_lib.cn_sparse_astype(self._h, code))
        return res.copy() if copy and res._h == self._h else res

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' "
                             "parameter because swapping dimensions is the "
                             "only logical permutation.")
        h = _lib.cn_sparse_transpose(self._h)
        fmt = _FMT_NAME[_lib.cn_sparse_get_format(h)]
        res = self._same_kind(fmt)._wrap(h)
        return res.copy() if copy else res

    @property
    def T(self):
        return self.transpose()

    def conjugate(self, copy=True):
        if self.dtype.kind != "c":
            return self.copy() if copy else self
        return self._with_data(_xp().conjugate(self.data))

    conj = conjugate

    @property
    def real(self):
        return self._with_data(_xp().real(self.data))

    @property
    def imag(self):
        return self._with_data(_xp().imag(self.data))

    # ---- canonical form (in place, as SciPy's) ---------------------------

    def sum_duplicates(self):
        self._set(_lib.cn_sparse_sum_duplicates(self._h))

    def sort_indices(self):
        self._set(_lib.cn_sparse_sort_indices(self._h))

    def sorted_indices(self):
        return type(self)._wrap(_lib.cn_sparse_sort_indices(self._h))

    def eliminate_zeros(self):
        self._set(_lib.cn_sparse_eliminate_zeros(self._h))

    def prune(self):
        pass

    # ---- the structure with other values ---------------------------------

    def _with_data(self, data):
        """Same structure (self's format) over new data of self.nnz."""
        data = _asarr(data)
        if self.format == "coo":
            h = _lib.cn_sparse_coo(*self.shape, data, self.row, self.col, 0)
        elif self.format == "dia":
            h = _lib.cn_sparse_dia(*self.shape, data, self.offsets)
        else:
            h = _lib.cn_sparse_compressed(_FMT_CODE[self.format], *self.shape,
                                          data, self.indices, self.indptr, 0)
        return type(self)._wrap(h)

    def _unary(self, ufunc):
        return self._with_data(ufunc(self.data))

    def __abs__(self):
        return self._unary(_xp().absolute)

    def __neg__(self):
        if self.dtype == _np.bool_:
            raise NotImplementedError("negating a boolean sparse array is "
                                      "not supported")
        return self._unary(_xp().negative)

    def __pos__(self):
        return self.copy()

    def __round__(self, ndigits=0):
        return self._with_data(_xp().round(self.data, ndigits))

    # ---- products --------------------------------------------------------

    def _matmul(self, other):
        if issparse(other):
            h = _lib.cn_sparse_matmul(self._h, other._h)
            kind = self._is_array or other._is_array
            res = _CLASSES[("csr", kind)]._wrap(h)
            # scipy keeps dia @ dia in DIA
            both_dia = self.format == other.format == "dia"
            return res.todia() if both_dia else res
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' "
                             "instead")
        x = _asarr(other)
        if x.ndim > 2:
            raise ValueError("matmul of a sparse matrix with an array of "
                             f"{x.ndim} dimensions is not supported")
        return _lib.cn_sparse_matmul_dense(self._h, x)

    def __matmul__(self, other):
        return self._matmul(other)

    def __rmatmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' "
                             "instead")
        x = _asarr(other)
        return _lib.cn_dense_matmul_sparse(x, self._h)

    def dot(self, other):
        if _is_scalar(other):
            return self * other
        return self._matmul(other)

    # ---- elementwise -----------------------------------------------------

    def _scale(self, s):
        return self._with_data(self.data * s)

    def multiply(self, other):
        """Pointwise product: sparse with a sparse, dense or scalar other."""
        if _is_scalar(other):
            return self._scale(other)
        if issparse(other):
            return _binop(self, other, _xp().multiply, "intersect")
        d = _asarr(other)
        full = _xp().broadcast_to(d, self.shape) if d.shape != self.shape \
            else d
        c = self.tocoo()
        c.sum_duplicates()
        vals = c.data * full[c.row, c.col]
        return _CLASSES[("coo", self._is_array)]._wrap(_lib.cn_sparse_coo(
            *self.shape, vals, c.row, c.col, 0)).tocsr()

    def _add(self, other, sign):
        if _is_scalar(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("adding a nonzero scalar to a sparse "
                                      "array is not supported")
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError(f"inconsistent shapes {self.shape} and "
                                 f"{other.shape}")
            f = _xp().add if sign > 0 else _xp().subtract
            return _binop(self, other, f, "union")
        d = _asarr(other)
        return self.toarray() + d if sign > 0 else self.toarray() - d

    def __add__(self, other):
        return self._add(other, 1)

    def __radd__(self, other):
        return self._add(other, 1)

    def __sub__(self, other):
        return self._add(other, -1)

    def __rsub__(self, other):
        return (-self)._add(other, 1)

    def __mul__(self, other):
        if not self._is_array and not _is_scalar(other) and \
                not (issparse(other) and other._is_array):
            return self._matmul(other)
        return self.multiply(other)

    def __rmul__(self, other):
        if _is_scalar(other):
            return self._scale(other)
        if not self._is_array:
            return self.__rmatmul__(other)
        return self.multiply(other)

    def __truediv__(self, other):
        if _is_scalar(other):
            return self._with_data(_xp().true_divide(self.data, other))
        if issparse(other):
            return _xp().true_divide(self.toarray(), other.toarray())
        return _xp().true_divide(self.toarray(), _asarr(other))

    def __rtruediv__(self, other):
        return _xp().true_divide(_asarr(other), self.toarray())

    def __pow__(self, other):
        if not self._is_array:
            return _matrix_power(self, other)
        return self.power(other)

    def power(self, n, dtype=None):
        if not _is_scalar(n):
            raise NotImplementedError("input is not scalar")
        if n == 0:
            raise NotImplementedError("zero power is not supported as it "
                                      "would densify the matrix.\nUse "
                                      "`np.ones(A.shape, dtype=A.dtype)` for "
                                      "this case.")
        data = self.data if dtype is None else self.data.astype(dtype)
        return self._with_data(_xp().power(data, n))

    def maximum(self, other):
        return self._extreme(other, _xp().maximum)

    def minimum(self, other):
        return self._extreme(other, _xp().minimum)

    def _extreme(self, other, f):
        if _is_scalar(other):
            if f(0, other) != 0:
                return f(self.toarray(), other)
            c = self.tocsr()
            c.sum_duplicates()
            res = c._with_data(f(c.data, other))
            res.eliminate_zeros()
            return res
        if issparse(other):
            return _binop(self, other, f, "union")
        return f(self.toarray(), _asarr(other))

    def _compare(self, other, f, name):
        """self (op) other as scipy: sparse bool (stored True entries) for
        a sparse or scalar other, dense for a dense other. Results that
        are True where both sides are implicit zeros are built densely,
        with scipy's SparseEfficiencyWarning."""
        fmt = self.format if self.format in ("csr", "csc") else "csr"
        cls = _CLASSES[(fmt, self._is_array)]
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            if name == "!=":
                res = _binop(self, other, f, "union")
                res.eliminate_zeros()
                return res.asformat(fmt)
            _warnings.warn("Comparing sparse matrices using == is "
                           "inefficient, try using != instead.",
                           SparseEfficiencyWarning, stacklevel=3)
            return cls(f(self.toarray(), other.toarray()))
        if not _is_scalar(other):
            return f(self.toarray(), _asarr(other))
        if other != other:  # NaN: scipy keeps the format (coo, dia too)
            return self._compare_nan(f, fmt, cls)
        if bool(f(0, other)):
            _warnings.warn(f"Comparing a sparse matrix with {other!r} using "
                           f"{name} is inefficient, try using "
                           f"{'!=' if name == '==' else '=='} instead.",
                           SparseEfficiencyWarning, stacklevel=3)
            return cls(f(self.toarray(), other))
        c = self.tocsr()
        c.sum_duplicates()
        res = c._with_data(f(c.data, other))
        res.eliminate_zeros()
        return res.asformat(fmt)

    def _compare_nan(self, f, fmt, cls):
        """== NaN is all False and != NaN all True, in self's format."""
        if bool(f(0, _np.nan)):
            _warnings.warn("Comparing a sparse matrix with nan using != is "
                           "inefficient", SparseEfficiencyWarning,
                           stacklevel=4)
        res = cls(_xp().full(self.shape, bool(f(0, _np.nan))))
        return res.asformat(self.format)

    def __eq__(self, other):
        return self._compare(other, _xp().equal, "==")

    def __ne__(self, other):
        return self._compare(other, _xp().not_equal, "!=")

    __hash__ = None

    # ---- reductions ------------------------------------------------------

    def _axis(self, axis):
        if axis is None:
            return None
        if axis not in (0, 1, -1, -2):
            raise ValueError("axis out of range")
        return axis % 2

    def _shape_reduced(self, res, axis):
        """*_array: 1-d; *_matrix: SciPy's (1, n) or (m, 1)."""
        if self._is_array:
            return res
        return res.reshape((1, -1) if axis == 0 else (-1, 1))

    def sum(self, axis=None, dtype=None, out=None):
        dt = _np.dtype(dtype) if dtype is not None else _sum_dtype(self.dtype)
        if self.dtype.kind == "c" and dtype is None:
            dt = self.dtype
        ax = self._axis(axis)
        if ax is None:
            return _xp().sum(self.data.astype(dt))
        a = self.astype(dt, copy=False)
        if ax == 1:
            res = a @ _xp().ones(self.shape[1], dtype=dt)
        else:
            res = _lib.cn_dense_matmul_sparse(
                _xp().ones(self.shape[0], dtype=dt), a._h)
        return self._shape_reduced(res, ax)

    def mean(self, axis=None, dtype=None, out=None):
        dt = dtype
        if dt is None:
            dt = _np.float64 if self.dtype.kind in "biu" else self.dtype
        ax = self._axis(axis)
        s = self.sum(axis=axis, dtype=dt)
        n = self.shape[0] * self.shape[1] if ax is None else self.shape[ax]
        return s / n if n else s * _np.nan

    def diagonal(self, k=0):
        return _lib.cn_sparse_diagonal(self._h, int(k))

    def trace(self, offset=0):
        return self.diagonal(offset).sum()

    def _minmax(self, axis, f, name):
        m, n = self.shape
        if m == 0 or n == 0:
            raise ValueError(f"zero-size array to reduction operation {name} "
                             "which has no identity")
        c = self.tocsr()
        c.sum_duplicates()
        ax = self._axis(axis)
        xp = _xp()
        zero = xp.zeros((), dtype=self.dtype)
        if ax is None:
            if c.nnz == 0:
                return zero[()]
            v = f.reduce(c.data)
            return f(v, zero)[()] if c.nnz < m * n else v
        if ax == 0:
            c = c.T.tocsr()
            c.sum_duplicates()
        nrow, ncol = c.shape
        counts = xp.diff(c.indptr.astype(_np.int64))
        res = xp.zeros(nrow, dtype=self.dtype)
        if c.nnz:
            rows = xp.repeat(xp.arange(nrow), counts)
            key = c.data if f is xp.maximum else -c.data.astype(
                _np.float64 if self.dtype.kind in "biu" else self.dtype) \
                if self.dtype.kind != "c" else c.data
            order = xp.lexsort((key, rows))
            ends = c.indptr[1:].astype(_np.int64) - 1
            filled = counts > 0
            best = c.data[order][ends[filled]]
            full = counts[filled] == ncol
            res[filled] = xp.where(full, best, f(best, zero))
        return res

    def max(self, axis=None, out=None):
        return self._minmax(axis, _xp().maximum, "maximum")

    def min(self, axis=None, out=None):
        return self._minmax(axis, _xp().minimum, "minimum")

    def _argext(self, axis, f):
        m, n = self.shape
        if m == 0 or n == 0:
            raise ValueError("cannot apply argmax/argmin to an empty sparse "
                             "array")
        if axis is not None:
            d = self.toarray()
            return (_xp().argmax if f is _xp().maximum else _xp().argmin)(
                d, axis=self._axis(axis))
        c = self.tocoo()
        c.sum_duplicates()
        xp = _xp()
        if c.nnz == 0:
            return 0
        flat = c.row.astype(_np.int64) * n + c.col.astype(_np.int64)
        i = int((xp.argmax if f is xp.maximum else xp.argmin)(c.data))
        best = c.data[i]
        zero_better = (best < 0) if f is xp.maximum else (best > 0)
        if c.nnz < m * n and (zero_better or best == 0):
            # the first implicit zero: the first flat position not stored
            stored = flat.get()
            gaps = _np.nonzero(stored != _np.arange(stored.size))[0]
            first_zero = int(gaps[0]) if gaps.size else stored.size
            if zero_better:
                return first_zero
            first_stored_zero = int(stored[int(xp.flatnonzero(c.data == 0)[0])])
            return _bi.min(first_zero, first_stored_zero)
        return int(flat[i])

    def argmax(self, axis=None, out=None):
        return self._argext(axis, _xp().maximum)

    def argmin(self, axis=None, out=None):
        return self._argext(axis, _xp().minimum)

    # ---- indexing --------------------------------------------------------

    def __getitem__(self, key):
        row, col = _split_key(key)
        m, n = self.shape
        if _is_int(row) and _is_int(col):
            return self._element(_norm_int(row, m), _norm_int(col, n))
        if _is_int(row) and self._is_array:
            raise NotImplementedError("1-d sparse arrays are not supported: "
                                      "index with a slice (A[i:i+1]) or use "
                                      "a *_matrix")
        if _is_int(col) and self._is_array:
            raise NotImplementedError("1-d sparse arrays are not supported: "
                                      "index with a slice (A[:, j:j+1])")
        a = self.tocsr()
        if not _is_full_slice(row):
            a = _select_rows(a, _index_array(row, m))
        if not _is_full_slice(col):
            t = _select_rows(a.T.tocsr(), _index_array(col, n))
            a = t.T.tocsr()
        return a.asformat(self.format if self.format != "dia" else "csr")

    def _element(self, i, j):
        c = self.tocsr()
        lo, hi = int(c.indptr[i]), int(c.indptr[i + 1])
        if hi == lo:
            return _xp().zeros((), dtype=self.dtype)[()]
        cols = c.indices[lo:hi]
        hit = cols == j
        return _xp().sum(c.data[lo:hi][hit]).astype(self.dtype)[()]

    def __setitem__(self, key, value):
        row, col = _split_key(key)
        m, n = self.shape
        if not (_is_int(row) and _is_int(col)):
            raise NotImplementedError("only element assignment A[i, j] = v "
                                      "is supported")
        i, j = _norm_int(row, m), _norm_int(col, n)
        c = self.tocsr()
        c.sum_duplicates()
        lo, hi = int(c.indptr[i]), int(c.indptr[i + 1])
        pos = _xp().flatnonzero(c.indices[lo:hi] == j)
        if pos.size:
            data = c.data.copy()
            data[lo + int(pos[0])] = value
            res = c._with_data(data)
        else:
            import warnings
            warnings.warn("Changing the sparsity structure of a sparse "
                          "matrix is expensive.", SparseEfficiencyWarning,
                          stacklevel=2)
            co = c.tocoo()
            xp = _xp()
            r = xp.concatenate([co.row.astype(_np.int64),
                                xp.asarray([i], dtype=_np.int64)])
            k = xp.concatenate([co.col.astype(_np.int64),
                                xp.asarray([j], dtype=_np.int64)])
            d = xp.concatenate([co.data, xp.asarray([value],
                                                    dtype=self.dtype)])
            res = csr_array(coo_array((d, (r, k)), shape=self.shape))
        self._set(_lib.cn_sparse_asformat(res._h, _FMT_CODE[
            self.format if self.format != "dia" else "csr"]))


# ---------------------------------------------------------------------------
# formats
# ---------------------------------------------------------------------------

class _compressed(_spbase):
    @property
    def indices(self):
        return _lib.cn_sparse_indices(self._h)

    @property
    def indptr(self):
        return _lib.cn_sparse_indptr(self._h)


class csr_array(_compressed):
    """Compressed Sparse Row array (scipy.sparse.csr_array)."""
    format = "csr"


class csc_array(_compressed):
    """Compressed Sparse Column array (scipy.sparse.csc_array)."""
    format = "csc"


class coo_array(_spbase):
    """COOrdinate array (scipy.sparse.coo_array)."""
    format = "coo"

    @property
    def row(self):
        return _lib.cn_sparse_row(self._h)

    @property
    def col(self):
        return _lib.cn_sparse_col(self._h)

    @property
    def coords(self):
        return (self.row, self.col)


class dia_array(_spbase):
    """DIAgonal array (scipy.sparse.dia_array): data (n_diags x L) and
    offsets, data[d, j] being the entry (j - offsets[d], j). Products run
    on this layout on the CPU; other operations convert to CSR as scipy's
    do."""
    format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if isinstance(arg1, tuple) and len(arg1) == 2 and not \
                _np.isscalar(arg1[0]):
            if shape is None:
                raise ValueError("expected a shape argument")
            m, n = (int(v) for v in shape)
            data = _asarr(arg1[0], dtype=dtype)
            if data.ndim < 2:
                data = data.reshape(1, -1) if data.ndim else \
                    data.reshape(1, 1)
            if data.ndim != 2:
                raise ValueError("data array must have rank 2")
            offsets = _xp().atleast_1d(_asarr(arg1[1]))
            if offsets.ndim != 1:
                raise ValueError("offsets array must have rank 1")
            if offsets.dtype.kind not in "iu":
                offsets = offsets.astype(_np.int64)
            # scipy's index dtype for max(shape), where the values fit
            if _bi.max(m, n) <= _np.iinfo(_np.int32).max and (
                    offsets.size == 0 or (
                        int(_xp().min(offsets)) >= _np.iinfo(_np.int32).min
                        and int(_xp().max(offsets)) <=
                        _np.iinfo(_np.int32).max)):
                offsets = offsets.astype(_np.int32)
            if copy:
                data, offsets = data.copy(), offsets.copy()
            self._set(_lib.cn_sparse_dia(m, n, data, offsets))
            return
        super().__init__(arg1, shape=shape, dtype=dtype, copy=copy)

    @property
    def offsets(self):
        return _lib.cn_sparse_offsets(self._h)

    def getnnz(self, axis=None):
        if axis is not None:
            raise NotImplementedError("getnnz over an axis is not "
                                      "implemented for DIA format")
        return self.nnz

    def sum(self, axis=None, dtype=None, out=None):
        # data holds padding outside the matrix: sum the row sums
        if self._axis(axis) is None:
            return _xp().sum(super().sum(axis=1, dtype=dtype))
        return super().sum(axis=axis, dtype=dtype, out=out)


class csr_matrix(csr_array):
    """Compressed Sparse Row matrix (`*` is the matrix product)."""
    _is_array = False


class csc_matrix(csc_array):
    """Compressed Sparse Column matrix (`*` is the matrix product)."""
    _is_array = False


class coo_matrix(coo_array):
    """COOrdinate matrix (`*` is the matrix product)."""
    _is_array = False


class dia_matrix(dia_array):
    """DIAgonal matrix (`*` is the matrix product)."""
    _is_array = False


_CLASSES = {("csr", True): csr_array, ("csr", False): csr_matrix,
            ("csc", True): csc_array, ("csc", False): csc_matrix,
            ("coo", True): coo_array, ("coo", False): coo_matrix,
            ("dia", True): dia_array, ("dia", False): dia_matrix}


# ---------------------------------------------------------------------------
# construction from the arguments SciPy takes
# ---------------------------------------------------------------------------

def _is_scipy_sparse(x):
    mod = type(x).__module__
    return mod.startswith("scipy.sparse") and hasattr(x, "tocsr")


def _construct(arg1, shape, fmt, copy):
    """A new cn_sparse of format fmt (csr/csc/coo/dia) from SciPy's arguments."""
    code = _FMT_CODE[fmt]
    if isinstance(arg1, _spbase):
        h = _lib.cn_sparse_asformat(arg1._h, code)
        if copy:
            h2 = _lib.cn_sparse_copy(h)
            _lib.cn_sparse_release(h)
            h = h2
        return h
    if _is_scipy_sparse(arg1):
        s = arg1.asformat(fmt)
        if fmt == "dia":
            return _lib.cn_sparse_dia(*s.shape, _asarr(s.data),
                                      _asarr(s.offsets))
        if fmt == "coo":
            return _lib.cn_sparse_coo(*s.shape, _asarr(s.data),
                                      _asarr(s.row), _asarr(s.col), 0)
        h = _lib.cn_sparse_compressed(code, *s.shape, _asarr(s.data),
                                      _asarr(s.indices), _asarr(s.indptr), 0)
        if copy:
            h2 = _lib.cn_sparse_copy(h)
            _lib.cn_sparse_release(h)
            h = h2
        return h
    if isinstance(arg1, tuple):
        if len(arg1) == 2 and all(_np.isscalar(v) for v in arg1):
            m, n = int(arg1[0]), int(arg1[1])
            z = _xp().zeros(0, dtype=_np.float64)
            zi = _xp().zeros(0, dtype=_np.int32)
            return _coo_as(_lib.cn_sparse_coo(m, n, z, zi, zi, 0), code)
        if len(arg1) == 2 and isinstance(arg1[1], (tuple, list)) and \
                len(arg1[1]) == 2:
            data = _asarr(arg1[0])
            row, col = _asarr(arg1[1][0]), _asarr(arg1[1][1])
            if shape is None:
                if row.size == 0:
                    raise ValueError("cannot infer dimensions from zero sized "
                                     "index arrays")
                shape = (int(_xp().max(row)) + 1, int(_xp().max(col)) + 1)
            if copy:
                data, row, col = data.copy(), row.copy(), col.copy()
            return _coo_as(_lib.cn_sparse_coo(int(shape[0]), int(shape[1]),
                                              data, row, col, 0), code)
        if len(arg1) == 3:
            data, indices, indptr = (_asarr(v) for v in arg1)
            if fmt == "coo":
                raise ValueError("COO takes (data, (row, col)), not (data, "
                                 "indices, indptr)")
            if shape is None:
                nmaj = indptr.size - 1
                nmin = int(_xp().max(indices)) + 1 if indices.size else 0
                shape = (nmaj, nmin) if fmt == "csr" else (nmin, nmaj)
            if copy:
                data, indices, indptr = data.copy(), indices.copy(), \
                    indptr.copy()
            return _lib.cn_sparse_compressed(code, int(shape[0]),
                                             int(shape[1]), data, indices,
                                             indptr, 0)
        raise TypeError("unrecognized sparse constructor arguments")
    d = _asarr(arg1)
    if d.ndim != 2:
        raise TypeError(f"expected a 2-d dense array, got {d.ndim}-d")
    h = _lib.cn_sparse_from_dense(d, code)
    if shape is not None and tuple(shape) != tuple(d.shape):
        _lib.cn_sparse_release(h)
        raise ValueError(f"shape {tuple(shape)} does not match the data's "
                         f"{tuple(d.shape)}")
    return h


def _coo_as(h, code):
    if code == _COO:
        return h
    h2 = _lib.cn_sparse_asformat(h, code)
    _lib.cn_sparse_release(h)
    return h2


# ---------------------------------------------------------------------------
# elementwise sparse-sparse on the union or intersection of the structures
# ---------------------------------------------------------------------------

def _keys(c, n):
    return c.row.astype(_np.int64) * n + c.col.astype(_np.int64)


def _binop(a, b, f, mode):
    """f(a, b) pointwise over canonical COO forms aligned by flat key; zero
    results are dropped, as SciPy's csr_binop_csr. Result CSR."""
    if a.shape != b.shape:
        raise ValueError(f"inconsistent shapes {a.shape} and {b.shape}")
    xp = _xp()
    m, n = a.shape
    ca, cb = a.tocoo(), b.tocoo()
    ca.sum_duplicates()
    cb.sum_duplicates()
    dt = _np.result_type(a.dtype, b.dtype)
    ka, kb = _keys(ca, n), _keys(cb, n)
    if mode == "intersect":
        keys, ia, ib = xp.intersect1d(ka, kb, assume_unique=True,
                                      return_indices=True)
        va = ca.data.astype(dt)[ia]
        vb = cb.data.astype(dt)[ib]
    else:
        keys = xp.union1d(ka, kb)
        va = xp.zeros(keys.size, dtype=dt)
        vb = xp.zeros(keys.size, dtype=dt)
        if ka.size:
            va[xp.searchsorted(keys, ka)] = ca.data.astype(dt)
        if kb.size:
            vb[xp.searchsorted(keys, kb)] = cb.data.astype(dt)
    vals = f(va, vb)
    keep = vals != 0
    keys, vals = keys[keep], vals[keep]
    kind = a._is_array or b._is_array
    h = _lib.cn_sparse_coo(m, n, vals, keys // _bi.max(n, 1),
                           keys % _bi.max(n, 1), 0)
    return _CLASSES[("coo", kind)]._wrap(h).tocsr()


def _matrix_power(a, k):
    if a.shape[0] != a.shape[1]:
        raise TypeError("sparse matrix is not square")
    if not isinstance(k, (int, _np.integer)) or k < 0:
        raise ValueError("exponent must be a non-negative integer")
    if k == 0:
        return _CLASSES[("csr", a._is_array)](eye(a.shape[0], dtype=a.dtype))
    res = a.tocsr()
    for _ in range(int(k) - 1):
        res = res @ a
    return res


# ---------------------------------------------------------------------------
# indexing helpers
# ---------------------------------------------------------------------------

def _split_key(key):
    if isinstance(key, tuple):
        if len(key) == 1:
            return key[0], slice(None)
        if len(key) == 2:
            return key
        raise IndexError("too many indices for a sparse matrix")
    return key, slice(None)


def _is_int(x):
    return isinstance(x, (int, _np.integer)) and not isinstance(x, bool)


def _norm_int(i, n):
    i = int(i)
    if i < -n or i >= n:
        raise IndexError(f"index ({i}) out of range")
    return i + n if i < 0 else i


def _is_full_slice(x):
    return isinstance(x, slice) and x == slice(None)


def _index_array(x, n):
    """Row or column positions (int64, in range) of an int, slice, bool mask
    or integer array index."""
    xp = _xp()
    if _is_int(x):
        return xp.asarray([_norm_int(x, n)], dtype=_np.int64)
    if isinstance(x, slice):
        return xp.arange(*x.indices(n), dtype=_np.int64)
    idx = xp.asarray(x)
    if idx.dtype == _np.bool_:
        if idx.shape != (n,):
            raise IndexError("boolean index does not match the dimension")
        return xp.flatnonzero(idx)
    if idx.dtype.kind not in "iu":
        raise IndexError("only integers, slices and integer or boolean arrays "
                         "are valid indices")
    idx = idx.astype(_np.int64).reshape(-1)
    if idx.size and (int(xp.max(idx)) >= n or int(xp.min(idx)) < -n):
        raise IndexError("index out of range")
    return xp.where(idx < 0, idx + n, idx)


def _select_rows(a, rows):
    """The CSR matrix of a's rows at positions rows (any order, repeats)."""
    xp = _xp()
    ptr = a.indptr.astype(_np.int64)
    starts, ends = ptr[rows], ptr[rows + 1]
    lens = ends - starts
    newptr = xp.concatenate([xp.zeros(1, dtype=_np.int64), xp.cumsum(lens)])
    total = int(newptr[-1])
    if total:
        rowid = xp.repeat(xp.arange(rows.size, dtype=_np.int64), lens)
        pos = starts[rowid] + (xp.arange(total, dtype=_np.int64) -
                               newptr[:-1][rowid])
        ind, dat = a.indices[pos], a.data[pos]
    else:
        ind = xp.zeros(0, dtype=a.indices.dtype)
        dat = xp.zeros(0, dtype=a.dtype)
    h = _lib.cn_sparse_compressed(_CSR, int(rows.size), a.shape[1], dat, ind,
                                  newptr, 0)
    return _CLASSES[("csr", a._is_array)]._wrap(h)


# ---------------------------------------------------------------------------
# predicates
# ---------------------------------------------------------------------------

def issparse(x):
    return isinstance(x, _spbase)


def isspmatrix(x):
    return isinstance(x, _spbase) and not x._is_array


def isspmatrix_csr(x):
    return isinstance(x, csr_matrix)


def isspmatrix_csc(x):
    return isinstance(x, csc_matrix)


def isspmatrix_coo(x):
    return isinstance(x, coo_matrix)


def isspmatrix_dia(x):
    return isinstance(x, dia_matrix)


# ---------------------------------------------------------------------------
# constructors
# ---------------------------------------------------------------------------

def _coo_of(m, n, data, row, col):
    return _lib.cn_sparse_coo(int(m), int(n), _asarr(data), _asarr(row),
                              _asarr(col), 0)


def eye_array(m, n=None, *, k=0, dtype=float, format=None):
    """Ones on diagonal k of an m x n array (scipy's eye_array; DIA unless
    format says otherwise)."""
    n = m if n is None else n
    m, n = int(m), int(n)
    data = _xp().ones((1, _bi.max(0, _bi.min(m + k, n))), dtype=dtype)
    return diags_array(data, offsets=[k], shape=(m, n),
                       dtype=dtype).asformat(format)


def eye(m, n=None, k=0, dtype=float, format=None):
    """Sparse matrix with ones on diagonal k (scipy.sparse.eye)."""
    return _as_matrix(eye_array(m, n, k=k, dtype=dtype, format=format))


def identity(n, dtype="d", format=None):
    return eye(n, n, dtype=dtype, format=format)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None,
                dtype=None):
    """scipy's diags_array: a DIA array (unless format says otherwise) of
    data (len(offsets) x M) laid out as scipy lays it out; dtype defaults
    to the diagonals' result_type."""
    xp = _xp()
    if _np.isscalar(offsets):
        if len(diagonals) == 0 or _np.isscalar(diagonals[0]):
            diagonals = [diagonals]
        else:
            raise ValueError("Different number of diagonals and offsets.")
    offsets = [int(o) for o in _np.atleast_1d(offsets)]
    diags_ = [xp.atleast_1d(_asarr(d)) for d in diagonals]
    if len(diags_) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if shape is None:
        m = diags_[0].shape[-1] + _bi.abs(offsets[0])
        shape = (m, m)
    m, n = (int(v) for v in shape)
    if dtype is None:
        dtype = _np.result_type(*[d.dtype for d in diags_])
    width = _bi.max([_bi.min(m + k, n - k) + _bi.max(0, k) for k in offsets]
                    + [0])
    data = xp.zeros((len(offsets), width), dtype=dtype)
    short = _bi.min(m, n)
    for j, (d, k) in enumerate(zip(diags_, offsets)):
        length = _bi.min(m + k, n - k, short)
        if length < 0:
            raise ValueError(f"Offset {k} (index {j}) out of bounds")
        size = d.shape[-1]
        if size != 1 and size < length:
            raise ValueError(f"Diagonal length (index {j}: {size} at offset "
                             f"{k}) does not agree with array size ({m}, "
                             f"{n}).")
        if length:
            lo = _bi.max(0, k)
            data[j, lo:lo + length] = d[..., :length].astype(dtype)
    return dia_array((data, _np.asarray(offsets)), shape=(m, n)).asformat(
        format)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None):
    res = diags_array(diagonals, offsets=offsets, shape=shape, format=format,
                      dtype=dtype)
    return _as_matrix(res)


def _as_matrix(res):
    return _CLASSES[(res.format, False)]._share(res)


def spdiags(data, diags, m=None, n=None, format=None):
    if m is None and n is None:
        raise ValueError("expected a shape")
    if n is None:
        m, n = m
    res = dia_matrix((_asarr(data), _asarr(diags)), shape=(m, n))
    return res.asformat(format)


def random_array(shape, *, density=0.01, format="coo", dtype=None,
                 random_state=None, rng=None, data_sampler=None):
    """Random sparse array: exactly round(density * m * n) distinct
    positions drawn with the engine's generator, values uniform in
    [0, 1) (data_sampler(size) when given)."""
    from .. import random as _random
    xp = _xp()
    m, n = shape
    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    gen = rng if rng is not None else random_state
    if not isinstance(gen, _random.Generator):
        gen = _random.default_rng(gen)
    k = int(round(density * m * n))
    flat = gen.permutation(m * n)[:k] if k else xp.zeros(0, dtype=_np.int64)
    flat = xp.sort(flat.astype(_np.int64))
    dt = _np.dtype(dtype) if dtype is not None else _np.dtype(_np.float64)
    if data_sampler is not None:
        vals = _asarr(data_sampler(size=k))
    elif dt.kind in "iub":
        vals = gen.integers(1, 100, size=k) if dt.kind != "b" else \
            xp.ones(k, dtype=_np.bool_)
    else:
        vals = gen.random(k)
        if dt.kind == "c":
            vals = vals + 1j * gen.random(k)
    h = _coo_of(m, n, _asarr(vals).astype(dt), flat // _bi.max(n, 1),
                flat % _bi.max(n, 1))
    return coo_array._wrap(h).asformat(format)


def random(m, n, density=0.01, format="coo", dtype=None, random_state=None,
           data_rvs=None):
    res = random_array((m, n), density=density, format=format, dtype=dtype,
                       random_state=random_state, data_sampler=data_rvs)
    return _as_matrix(res)


rand = random


def _kind(*mats):
    return _bi.any(issparse(x) and x._is_array for x in mats)


def _sp(x):
    return x if issparse(x) else coo_array(_asarr(x))


def kron(A, B, format=None):
    xp = _xp()
    kind = _kind(A, B)
    a, b = _sp(A).tocoo(), _sp(B).tocoo()
    (m1, n1), (m2, n2) = a.shape, b.shape
    dt = _np.result_type(a.dtype, b.dtype)
    ra, ca = a.row.astype(_np.int64), a.col.astype(_np.int64)
    rb, cb = b.row.astype(_np.int64), b.col.astype(_np.int64)
    na, nb = a.nnz, b.nnz
    row = (xp.repeat(ra, nb) * m2).reshape(na, nb) + rb.reshape(1, nb) \
        if na and nb else xp.zeros(0, dtype=_np.int64)
    col = (xp.repeat(ca, nb) * n2).reshape(na, nb) + cb.reshape(1, nb) \
        if na and nb else xp.zeros(0, dtype=_np.int64)
    val = (a.data.astype(dt).reshape(na, 1) * b.data.astype(dt).reshape(1, nb)
           ) if na and nb else xp.zeros(0, dtype=dt)
    h = _coo_of(m1 * m2, n1 * n2, val.reshape(-1), row.reshape(-1),
                col.reshape(-1))
    return _CLASSES[("coo", kind)]._wrap(h).asformat(format or "coo")


def bmat(blocks, format=None, dtype=None):
    xp = _xp()
    rows_ = [list(r) for r in blocks]
    nbr = len(rows_)
    nbc = len(rows_[0]) if nbr else 0
    heights, widths = [None] * nbr, [None] * nbc
    for i, r in enumerate(rows_):
        if len(r) != nbc:
            raise ValueError("blocks must be 2-D")
        for j, blk in enumerate(r):
            if blk is None:
                continue
            mh, mw = _sp(blk).shape
            if heights[i] not in (None, mh):
                raise ValueError(f"blocks[{i},:] has incompatible row "
                                 "dimensions")
            if widths[j] not in (None, mw):
                raise ValueError(f"blocks[:,{j}] has incompatible column "
                                 "dimensions")
            heights[i], widths[j] = mh, mw
    if None in heights or None in widths:
        raise ValueError("blocks[i,:] or blocks[:,j] is all None")
    roff = _np.concatenate([[0], _np.cumsum(heights)]).astype(int)
    coff = _np.concatenate([[0], _np.cumsum(widths)]).astype(int)
    rs, cs, vs, dts = [], [], [], []
    kind = False
    for i, r in enumerate(rows_):
        for j, blk in enumerate(r):
            if blk is None:
                continue
            kind = kind or (issparse(blk) and blk._is_array)
            c = _sp(blk).tocoo()
            rs.append(c.row.astype(_np.int64) + int(roff[i]))
            cs.append(c.col.astype(_np.int64) + int(coff[j]))
            vs.append(c.data)
            dts.append(c.dtype)
    dt = dtype if dtype is not None else _np.result_type(*dts)
    h = _coo_of(roff[-1], coff[-1],
                xp.concatenate([v.astype(dt) for v in vs]),
                xp.concatenate(rs), xp.concatenate(cs))
    return _CLASSES[("coo", kind)]._wrap(h).asformat(format or "coo")


def hstack(blocks, format=None, dtype=None):
    return bmat([list(blocks)], format=format, dtype=dtype)


def vstack(blocks, format=None, dtype=None):
    return bmat([[b] for b in blocks], format=format, dtype=dtype)


def block_diag(mats, format=None, dtype=None):
    n = len(mats)
    grid = [[mats[i] if i == j else None for j in range(n)] for i in range(n)]
    # an all-None row or column cannot happen: every block is on the diagonal
    return bmat(grid, format=format, dtype=dtype)


def _tri(A, k, keep_lower, format):
    a = _sp(A).tocoo()
    row, col = a.row.astype(_np.int64), a.col.astype(_np.int64)
    sel = (col - row <= k) if keep_lower else (col - row >= k)
    h = _coo_of(*a.shape, a.data[sel], row[sel], col[sel])
    return _CLASSES[("coo", _kind(A))]._wrap(h).asformat(format or "coo")


def tril(A, k=0, format=None):
    return _tri(A, k, True, format)


def triu(A, k=0, format=None):
    return _tri(A, k, False, format)


# ---------------------------------------------------------------------------
# files: SciPy's .npz layout
# ---------------------------------------------------------------------------

def save_npz(file, matrix, compressed=True):
    """Writes SciPy's save_npz layout (format, shape, components, and
    _is_array for sparse arrays)."""
    m = matrix
    arrays = {"format": _np.array(m.format.encode("ascii")),
              "shape": _np.array(m.shape)}
    if m.format == "coo":
        arrays.update(row=m.row.get(), col=m.col.get(), data=m.data.get())
    elif m.format == "dia":
        arrays.update(offsets=m.offsets.get(), data=m.data.get())
    else:
        arrays.update(indices=m.indices.get(), indptr=m.indptr.get(),
                      data=m.data.get())
    if m._is_array:
        arrays["_is_array"] = _np.array(True)
    (_np.savez_compressed if compressed else _np.savez)(file, **arrays)


def load_npz(file):
    with _np.load(file, allow_pickle=False) as f:
        fmt = f["format"].item()
        fmt = fmt.decode("ascii") if isinstance(fmt, bytes) else str(fmt)
        is_array = "_is_array" in f.files and bool(f["_is_array"])
        cls = _CLASSES.get((fmt, is_array))
        if cls is None:
            raise NotImplementedError(f"Load is not implemented for sparse "
                                      f"matrix of format {fmt}.")
        shape = tuple(int(v) for v in f["shape"])
        if fmt == "coo":
            return cls((f["data"], (f["row"], f["col"])), shape=shape)
        if fmt == "dia":
            return cls((f["data"], f["offsets"]), shape=shape)
        return cls((f["data"], f["indices"], f["indptr"]), shape=shape)


# the zero-preserving ufuncs SciPy gives as methods
def _ufunc_method(name):
    def method(self):
        return self._with_data(getattr(_xp(), name)(self.data))
    method.__name__ = name
    method.__doc__ = f"Element-wise {name} of the stored values."
    return method


for _name in ("arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad",
              "expm1", "floor", "log1p", "rad2deg", "rint", "sign", "sin",
              "sinh", "sqrt", "tan", "tanh", "trunc"):
    setattr(_spbase, _name, _ufunc_method(_name))
del _name

from . import linalg  # noqa: E402

from .. import _docstrings  # noqa: E402
_docstrings.apply(__import__("sys").modules[__name__])  # from the C headers
