"""NumPy's index-expression helpers: mgrid, ogrid, r_, c_, s_, index_exp.

The grids follow NumPy's arithmetic exactly (index times step plus start, the
dtype from the result type of every start, stop and step), so values match
NumPy's bit for bit; r_ and c_ concatenate through the engine.
"""
import math
import numbers

import numpy as _np

from ._creation import arange, asarray, indices, linspace
from ._manip import concatenate, stack
from ._numerictypes import result_type
from ._ndarray import ndarray

__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp"]


def _parts(sl):
    start = 0 if sl.start is None else sl.start
    step = 1 if sl.step is None else sl.step
    return start, sl.stop, step


def _is_count(step):
    # A complex step (5j) counts points, stop inclusive.
    return isinstance(step, (complex, _np.complexfloating))


class _Grid:
    __slots__ = ("sparse",)

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._one(key)
        if not isinstance(key, tuple) or not all(isinstance(k, slice) for k in key):
            raise TypeError("mgrid and ogrid take slices, e.g. mgrid[0:5, 0:1:3j]")
        sizes, values = [], [0]
        for sl in key:
            start, stop, step = _parts(sl)
            if stop is None:
                raise ValueError("a grid slice needs a stop")
            if _is_count(step):
                step = abs(step)
                sizes.append(int(step))
            else:
                n = math.ceil((stop - start) / step)
                if n < 0:
                    raise ValueError("negative dimensions are not allowed")
                sizes.append(n)
            values += [start, stop, step]
        typ = _np.result_type(*values)
        if self.sparse:
            grids = [arange(n, dtype=typ) for n in sizes]
        else:
            grids = indices(sizes, typ)
        out = []
        for k, sl in enumerate(key):
            start, _, step = _parts(sl)
            if _is_count(step):
                count = int(abs(step))
                step = (sl.stop - start) / float(count - 1) if count != 1 else 1
            g = grids[k] * step + start
            if self.sparse:
                shape = [1] * len(sizes)
                shape[k] = sizes[k]
                g = g.reshape(tuple(shape))
            out.append(g)
        if self.sparse:
            return tuple(out)
        return stack(out) if out else asarray(_np.empty((0,), dtype=typ))

    @staticmethod
    def _one(sl):
        start, stop, step = sl.start, sl.stop, sl.step
        start = 0 if start is None else start
        if _is_count(step):
            length = int(abs(step))
            typ = _np.result_type(start, stop, abs(step))
            step = (stop - start) / float(length - 1) if length != 1 else length
            return arange(0, length, 1, dtype=typ) * step + start
        return arange(start, stop, step)

    def __len__(self):
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


class _Concatenator:
    """r_ / c_: concatenation by index notation, with NumPy's directives
    ('axis', 'axis,ndmin', 'axis,ndmin,trans1d') as the first entry."""

    __slots__ = ("axis", "ndmin", "trans1d")

    def __init__(self, axis, ndmin, trans1d):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, scalars = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise ValueError("the 'r' and 'c' directives make numpy.matrix "
                                     "objects, which cunumpy does not have")
                try:
                    spec = [int(x) for x in item.split(",")]
                except ValueError:
                    raise ValueError(f"unknown special directive {item!r}") from None
                if len(spec) > 3:
                    raise ValueError(f"unknown special directive {item!r}")
                axis = spec[0]
                if len(spec) > 1:
                    ndmin = spec[1]
                if len(spec) > 2:
                    trans1d = spec[2]
                continue
            if isinstance(item, slice):
                start, stop, step = _parts(item)
                if _is_count(step):
                    obj = linspace(start, stop, num=int(abs(step)))
                else:
                    obj = arange(start, stop, step)
                if ndmin > 1:
                    obj = _with_ndmin(obj, ndmin, trans1d)
            elif isinstance(item, (numbers.Number, _np.generic, bool)) and _np.ndim(item) == 0:
                scalars.append(len(objs))
                obj = item
            else:
                obj = _with_ndmin(item if isinstance(item, ndarray) else asarray(item),
                                  ndmin, trans1d)
            objs.append(obj)
        if not objs:
            return asarray(_np.empty((0,)))
        dtype = result_type(*objs)
        for k in scalars:
            objs[k] = _with_ndmin(asarray(objs[k], dtype=dtype), max(ndmin, 1), trans1d)
        return concatenate(tuple(objs), axis=axis)

    def __len__(self):
        return 0


def _with_ndmin(a, ndmin, trans1d):
    """a with at least ndmin dimensions; its own axes moved to trans1d's place
    as NumPy's r_ does."""
    nd = a.ndim
    if nd >= ndmin:
        return a
    a = a.reshape((1,) * (ndmin - nd) + tuple(a.shape))
    if trans1d != -1:
        k2 = ndmin - nd
        k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
        order = list(range(ndmin))
        a = a.transpose(tuple(order[:k1] + order[k2:] + order[k1:k2]))
    return a


r_ = _Concatenator(0, 1, -1)
c_ = _Concatenator(-1, 2, 0)
# Index expressions hold no arrays: NumPy's objects serve as they are.
s_ = _np.s_
index_exp = _np.index_exp
