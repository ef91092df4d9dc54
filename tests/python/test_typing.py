"""The typed stubs work for a type checker: mypy --strict accepts a
NumPy-style user program (typing_sample.py, whose assert_type lines fail
when a result is Any) and the stubs themselves, and reports exactly the
marked errors in typing_fail.py; the sample also runs, checking the values
have the types the stubs give."""

import os
import pathlib
import re
import runpy
import subprocess
import sys
import tempfile

import pytest

import cunumpy as xp

HERE = pathlib.Path(__file__).resolve().parent
PKG = pathlib.Path(xp.__file__).resolve().parent
SAMPLE = HERE / "typing_sample.py"
FAIL = HERE / "typing_fail.py"


@pytest.fixture(scope="module")
def mypy_errors():
    """{(file name, line): {error codes}} of one mypy --strict run over the
    sample, the must-fail file and every stub of the package."""
    pytest.importorskip("mypy")
    stubs = sorted(str(p) for p in PKG.rglob("*.pyi"))
    cache = pathlib.Path(tempfile.gettempdir()) / "cunumpy_mypy_cache"
    env = dict(os.environ, MYPYPATH=str(PKG.parent))
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--show-error-codes",
         "--no-error-summary", "--no-pretty", "--cache-dir", str(cache),
         str(SAMPLE), str(FAIL), *stubs],
        capture_output=True, text=True, env=env, cwd=str(PKG.parent),
        timeout=300)
    out = {}
    for ln in r.stdout.splitlines():
        m = re.match(r"^(.*?):(\d+): error: .*\[([\w-]+)\]$", ln)
        if m:
            key = (pathlib.Path(m.group(1)).name, int(m.group(2)))
            out.setdefault(key, set()).add(m.group(3))
        elif ": error:" in ln:
            out.setdefault(("?", 0), set()).add(ln)
    assert r.returncode in (0, 1), r.stdout + r.stderr
    return out, r.stdout


def test_strict_mypy_accepts_the_sample_and_the_stubs(mypy_errors):
    errors, text = mypy_errors
    bad = {k: v for k, v in errors.items() if k[0] != FAIL.name}
    assert not bad, text


def test_mypy_reports_exactly_the_marked_errors(mypy_errors):
    errors, text = mypy_errors
    want = {}
    for i, ln in enumerate(FAIL.read_text().splitlines(), 1):
        m = re.search(r"# E: ([\w-]+)$", ln)
        if m:
            want[(FAIL.name, i)] = {m.group(1)}
    assert len(want) >= 10
    got = {k: v for k, v in errors.items() if k[0] == FAIL.name}
    assert got == want, text


def test_the_sample_asserts_types_that_are_not_any():
    # With untyped stubs every assert_type below fails: the check has teeth.
    assert len(re.findall(r"assert_type\(", SAMPLE.read_text())) >= 20


def test_the_sample_runs_and_its_values_have_the_stub_types(capsys):
    runpy.run_path(str(SAMPLE), run_name="__main__")
    assert capsys.readouterr().out.startswith("ndarray ")
