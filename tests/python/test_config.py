"""show_config() / python3 -m cunumpy: the engine's build information,
checked against the libraries themselves where they can be asked."""

import ctypes
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import cunumpy as xp


def _engine():
    return xp.show_config(mode="dicts")["engine"]


def test_sections_and_versions():
    cfg = xp.show_config(mode="dicts")
    assert set(cfg) == {"engine", "python", "environment"}
    e = cfg["engine"]
    assert e["cunumpy"] == f"{xp.__version__} (ABI {xp._cnlib.cn_abi_version()})"
    assert re.fullmatch(r"\d+\.\d+\.\d+", e["LAPACK"])
    assert re.fullmatch(r"\d+\.\d+\.\d+ \(headers\)", e["SLEEF"])
    assert cfg["python"]["numpy"] == np.__version__
    assert cfg["python"]["active backend"] == xp.get_backend()


def _lib_of(prefix):
    """The loaded shared object whose file name starts with prefix."""
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1]
            if os.path.basename(path).startswith(prefix):
                return path
    return None


def test_openblas_and_fftw_match_the_loaded_libraries():
    e = _engine()
    ob = _lib_of("libopenblas")
    if ob is None:
        pytest.skip("not Debian's OpenBLAS (scipy-openblas build)")
    lib = ctypes.CDLL(ob)
    lib.openblas_get_config.restype = ctypes.c_char_p
    assert e["OpenBLAS"] == lib.openblas_get_config().decode()
    assert int(e["OpenBLAS threads"]) == lib.openblas_get_num_threads()
    fftw = _lib_of("libfftw3.so")
    assert fftw is not None
    v = (ctypes.c_char * 128).in_dll(ctypes.CDLL(fftw), "fftw_version")
    assert e["FFTW"] == v.value.decode()


def test_thread_counts():
    m = re.fullmatch(r"(\d+) \(max threads (\d+), processors (\d+)\)",
                     _engine()["OpenMP"])
    assert m and int(m.group(1)) >= 200805  # OpenMP 3.0 or newer
    assert int(m.group(3)) == len(os.sched_getaffinity(0))
    want = os.environ.get("OMP_NUM_THREADS")
    if want and want.isdigit():
        assert int(m.group(2)) == int(want)
    else:
        assert int(m.group(2)) >= 1


def test_cuda_state_is_the_loaders():
    e = _engine()
    if xp.cuda_available():
        assert e["CUDA available"] == f"yes ({xp.device_count()} devices)"
    else:
        assert e["CUDA available"].startswith("no (")
        assert xp.backend_unavailable_reason() in e["CUDA available"]
    if e["CUDA plugin"] != "not loaded":
        # a plugin that passed the handshake reports its libraries
        assert os.path.isfile(e["CUDA plugin"])
        for k in ("CUDA runtime", "cuBLAS", "cuFFT", "cuSOLVER", "NVRTC"):
            assert re.fullmatch(r"\d+(\.\d+)+", e[k]), (k, e[k])
        assert e["CUDA driver"] == "none" or re.fullmatch(r"\d+\.\d+",
                                                          e["CUDA driver"])


def test_environment_section_and_modes(monkeypatch, capsys):
    monkeypatch.setenv("CUNUMPY_CC", "/nonexistent/cc")
    assert xp.show_config(mode="dicts")["environment"]["CUNUMPY_CC"] == \
        "/nonexistent/cc"
    assert xp.show_config() is None
    out = capsys.readouterr().out
    assert "engine:\n  cunumpy: " in out and "FFTW: " in out
    with pytest.raises(ValueError):
        xp.show_config(mode="json")


def test_python_m_cunumpy_prints_it():
    run = subprocess.run([sys.executable, "-m", "cunumpy"],
                         capture_output=True, text=True, timeout=60,
                         check=True, env=dict(os.environ))
    assert run.stdout.startswith("engine:\n  cunumpy: ")
    assert "CUDA available: " in run.stdout
