"""File and text I/O in NumPy's formats, through NumPy on the host: save,
load, savez, savez_compressed (.npy/.npz, readable by numpy.load and
reading numpy.save's files), loadtxt, savetxt, genfromtxt, fromfile,
fromstring, fromregex; ndarray.tofile is the method.

Arrays read come back as cunumpy arrays on the active backend; arrays
written are copied to the host first (device arrays too). load refuses
pickled (object) arrays unless allow_pickle=True, as NumPy does, and then
returns them as NumPy arrays (cunumpy has no object dtype)."""

import numpy as _np

from ._convert import asarray
from ._dtypes import DTYPE_OF
from ._ndarray import ndarray

__all__ = ["save", "load", "savez", "savez_compressed", "loadtxt",
           "savetxt", "genfromtxt", "fromfile", "fromstring", "fromregex"]

_DTYPES = frozenset(DTYPE_OF.values())


def _host(a):
    return a.get() if isinstance(a, ndarray) else _np.asarray(a)


def _back(a):
    """A NumPy result as a cunumpy array (object and structured arrays,
    which cunumpy cannot hold, stay NumPy's)."""
    if isinstance(a, _np.ndarray) and a.dtype in _DTYPES:
        return asarray(_np.ascontiguousarray(a) if isinstance(a, _np.memmap)
                       else a)
    return a


def save(file, arr, allow_pickle=True, fix_imports=True):
    """numpy.save of a host copy of arr (.npy format)."""
    _np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """numpy.savez of host copies (uncompressed .npz)."""
    _np.savez(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
              **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """numpy.savez_compressed of host copies (deflated .npz)."""
    _np.savez_compressed(file, *[_host(a) for a in args],
                         allow_pickle=allow_pickle,
                         **{k: _host(v) for k, v in kwds.items()})


class NpzFile:
    """The arrays of an .npz file by name (numpy.lib.npyio.NpzFile whose
    items are cunumpy arrays); a context manager that closes the file."""

    def __init__(self, npz):
        self._npz = npz

    @property
    def files(self):
        return self._npz.files

    def __getitem__(self, key):
        return _back(self._npz[key])

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self._npz)

    def __len__(self):
        return len(self._npz)

    def keys(self):
        return self._npz.keys()

    def values(self):
        return [self[k] for k in self._npz.files]

    def items(self):
        return [(k, self[k]) for k in self._npz.files]

    def get(self, key, default=None):
        return self[key] if key in self._npz else default

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"cunumpy.NpzFile({self._npz!r})"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True,
         encoding="ASCII", *, max_header_size=10000):
    """numpy.load: an .npy file gives a cunumpy array (mmap_mode reads the
    mapped data into memory), an .npz file a NpzFile of cunumpy arrays.
    Pickled arrays raise ValueError unless allow_pickle=True."""
    res = _np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle,
                   fix_imports=fix_imports, encoding=encoding,
                   max_header_size=max_header_size)
    if isinstance(res, _np.lib.npyio.NpzFile):
        return NpzFile(res)
    return _back(res)


def loadtxt(*args, **kwargs):
    """numpy.loadtxt, as a cunumpy array."""
    return _back(_np.loadtxt(*args, **kwargs))


def genfromtxt(*args, **kwargs):
    """numpy.genfromtxt, as a cunumpy array."""
    return _back(_np.genfromtxt(*args, **kwargs))


def savetxt(fname, X, *args, **kwargs):
    """numpy.savetxt of a host copy of X."""
    _np.savetxt(fname, _host(X), *args, **kwargs)


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """numpy.fromfile, as a cunumpy array."""
    return _back(_np.fromfile(file, dtype=dtype, count=count, sep=sep,
                              offset=offset))


def fromstring(string, dtype=float, count=-1, *, sep, like=None):
    """numpy.fromstring (text with a separator), as a cunumpy array."""
    return _back(_np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromregex(file, regexp, dtype, encoding=None):
    """numpy.fromregex (its dtype is structured: the result is NumPy's)."""
    return _back(_np.fromregex(file, regexp, dtype, encoding=encoding))


def tofile(a, fid, sep="", format="%s"):
    """ndarray.tofile: a host copy of a written as NumPy writes it."""
    _host(a).tofile(fid, sep=sep, format=format)
