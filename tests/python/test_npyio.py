"""save/load/savez/savez_compressed in NumPy's .npy/.npz formats (each side
reads the other's files), the text functions and tofile/fromfile."""

import io

import numpy as np
import pytest

import cunumpy as xp
from conftest import DTYPES


def _sample(dtype):
    h = np.arange(-6, 6).reshape(3, 4)
    if dtype.kind == "b":
        return h % 3 == 0
    if dtype.kind == "c":
        return (h + 0.5j * h[::-1]).astype(dtype)
    if dtype.kind == "u":
        return (h + 6).astype(dtype)
    return h.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_npy_round_trips_both_ways(tmp_path, dtype):
    h = _sample(dtype)
    p = tmp_path / "a.npy"
    xp.save(p, xp.asarray(h))
    got = np.load(p)  # NumPy reads cunumpy's file
    assert got.dtype == h.dtype and got.shape == h.shape
    np.testing.assert_array_equal(got, h)
    p2 = tmp_path / "b.npy"
    np.save(p2, h)
    back = xp.load(p2)  # cunumpy reads NumPy's file
    assert isinstance(back, xp.ndarray) and back.dtype == h.dtype
    np.testing.assert_array_equal(xp.to_numpy(back), h)


def test_npy_layouts_and_edge_shapes(tmp_path):
    h = np.arange(24.0).reshape(2, 3, 4)
    cases = [xp.asarray(h).T, xp.asarray(h)[:, ::-1, ::2], xp.zeros((0, 3)),
             xp.asarray(np.float64(-0.0)),
             xp.asarray(np.array([np.nan, np.inf, -np.inf, -0.0]))]
    for i, a in enumerate(cases):
        p = tmp_path / f"c{i}.npy"
        xp.save(p, a)
        want = xp.to_numpy(a)
        got = np.load(p)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
        np.testing.assert_array_equal(xp.to_numpy(xp.load(p)), want)
    # a Fortran-ordered NumPy file keeps its layout's values
    f = np.asfortranarray(h)
    np.save(tmp_path / "f.npy", f)
    np.testing.assert_array_equal(xp.to_numpy(xp.load(tmp_path / "f.npy")),
                                  f)
    # file objects as well as paths
    buf = io.BytesIO()
    xp.save(buf, xp.arange(5))
    buf.seek(0)
    np.testing.assert_array_equal(np.load(buf), np.arange(5))


@pytest.mark.parametrize("compressed", [False, True])
def test_npz_round_trips(tmp_path, compressed):
    a, b = np.arange(6.0).reshape(2, 3), np.array([1 + 2j, -3j])
    p = tmp_path / "z.npz"
    save = xp.savez_compressed if compressed else xp.savez
    save(p, xp.asarray(a), named=xp.asarray(b), host=a[::-1])
    with np.load(p) as z:
        assert sorted(z.files) == ["arr_0", "host", "named"]
        np.testing.assert_array_equal(z["arr_0"], a)
        np.testing.assert_array_equal(z["named"], b)
        np.testing.assert_array_equal(z["host"], a[::-1])
    with xp.load(p) as z:
        assert isinstance(z["named"], xp.ndarray) and "host" in z
        np.testing.assert_array_equal(xp.to_numpy(z["named"]), b)
        assert sorted(k for k, _ in z.items()) == sorted(z.files)
    np.savez(tmp_path / "n.npz", x=a)
    z = xp.load(tmp_path / "n.npz")
    np.testing.assert_array_equal(xp.to_numpy(z["x"]), a)
    z.close()


def test_pickled_arrays_need_allow_pickle(tmp_path):
    p = tmp_path / "o.npy"
    np.save(p, np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="allow_pickle"):
        xp.load(p)
    got = xp.load(p, allow_pickle=True)  # no object dtype: stays NumPy's
    assert isinstance(got, np.ndarray) and got[0] == {"a": 1}


def test_mmap_mode_reads_the_data(tmp_path):
    p = tmp_path / "m.npy"
    np.save(p, np.arange(10.0))
    got = xp.load(p, mmap_mode="r")
    assert isinstance(got, xp.ndarray)
    np.testing.assert_array_equal(xp.to_numpy(got), np.arange(10.0))


def test_text_and_binary_files(tmp_path):
    h = np.array([[1.5, -2.0, np.nan], [3.25, np.inf, -0.0]])
    p = tmp_path / "t.txt"
    xp.savetxt(p, xp.asarray(h), fmt="%.6g", delimiter=",")
    np.testing.assert_array_equal(np.loadtxt(p, delimiter=","), h)
    got = xp.loadtxt(p, delimiter=",")
    assert isinstance(got, xp.ndarray)
    np.testing.assert_array_equal(xp.to_numpy(got), h)
    g = xp.genfromtxt(p, delimiter=",")
    np.testing.assert_array_equal(xp.to_numpy(g), h)
    b = tmp_path / "b.bin"
    a = xp.asarray(h)[:, ::-1]  # non-contiguous: written in C order
    a.tofile(str(b))
    np.testing.assert_array_equal(np.fromfile(b), h[:, ::-1].ravel())
    r = xp.fromfile(b, dtype=np.float64, count=4)
    np.testing.assert_array_equal(xp.to_numpy(r), h[:, ::-1].ravel()[:4])
    s = tmp_path / "s.txt"
    xp.arange(4, dtype=np.int32).tofile(str(s), sep=" ")
    assert s.read_text() == "0 1 2 3"
    np.testing.assert_array_equal(
        xp.to_numpy(xp.fromstring("1 2 3", dtype=np.int64, sep=" ")),
        [1, 2, 3])
    rx = tmp_path / "r.txt"
    rx.write_text("x=1\nx=22\n")
    got = xp.fromregex(rx, r"x=(\d+)", [("x", np.int64)])
    assert isinstance(got, np.ndarray)  # structured: NumPy's
    assert got["x"].tolist() == [1, 22]
    with pytest.raises(ValueError):  # NumPy's own errors come through
        xp.loadtxt(io.StringIO("1 2\n3\n"))
