"""Every example of README.md and bindings/python/README.md runs verbatim.

Each ```python block runs in a fresh namespace; the ```c blocks that
define main() are compiled against the build tree's libcunumpy and run. A
block right after a line `<!-- readme-test: requires-gpu -->` runs only
when CUDA is available (skipped, with that reason, otherwise)."""

import os
import pathlib
import re
import shutil
import runpy
import subprocess

import numpy as np
import pytest

import cunumpy as xp

ROOT = pathlib.Path(__file__).resolve().parents[2]
READMES = [ROOT / "README.md", ROOT / "bindings" / "python" / "README.md"]
GPU_MARK = "<!-- readme-test: requires-gpu -->"
FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(path, lang):
    """(first line number, source, needs a GPU) of each `lang` block."""
    out, lines = [], path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        assert j < len(lines), f"{path.name}:{i + 1}: unclosed code block"
        prev = next((lines[k] for k in range(i - 1, -1, -1)
                     if lines[k].strip()), "")
        if m.group(1) == lang:
            out.append((i + 1, "\n".join(lines[i + 1:j]) + "\n",
                        prev.strip() == GPU_MARK))
        i = j + 1
    return out


def _cases(lang):
    return [pytest.param(p, line, src, gpu,
                         id=f"{p.relative_to(ROOT)}:{line}")
            for p in READMES for line, src, gpu in blocks(p, lang)]


def _skip_without_gpu(gpu):
    if gpu and not xp.cuda_available():
        pytest.skip("the block is marked requires-gpu and CUDA is "
                    "unavailable")


def test_readmes_have_python_examples():
    assert len(_cases("python")) >= 4
    for p in READMES:
        text = p.read_text()
        # no links or paths out of the repository
        assert "../shared" not in text and "](../" not in text, p


@pytest.mark.parametrize("path, line, src, gpu", _cases("python"))
def test_python_block_runs(path, line, src, gpu, tmp_path):
    _skip_without_gpu(gpu)
    # from a file, as a user runs it: inspect then finds the source of the
    # functions a block defines (the JIT kernels translate it)
    script = tmp_path / f"{path.stem}_{line}.py"
    script.write_text(src)
    runpy.run_path(str(script), run_name="__readme__")


def _build_lib():
    """The directory of the libcunumpy the tests import (build tree:
    build/python/cunumpy -> build/lib; installed: next to the package)."""
    pkg = pathlib.Path(xp.__file__).resolve().parent
    for d in (pkg.parents[1] / "lib", pkg):
        if list(d.glob("libcunumpy.so*")):
            return d
    return None


@pytest.mark.parametrize("path, line, src, gpu",
                         [c for c in _cases("c")
                          if "int main(" in c.values[2]])
def test_c_block_compiles_and_runs(tmp_path, path, line, src, gpu):
    _skip_without_gpu(gpu)
    cc = os.environ.get("CC") or shutil.which("cc")
    lib = _build_lib()
    if cc is None or lib is None:
        pytest.skip("needs a C compiler and the build tree's libcunumpy")
    c = tmp_path / "example.c"
    c.write_text(src)
    exe = tmp_path / "example"
    subprocess.run([cc, "-std=c11", "-Wall", "-Werror", str(c),
                    f"-I{ROOT / 'include'}", f"-L{lib}", "-lcunumpy",
                    f"-Wl,-rpath,{lib}", "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True,
                         check=True, timeout=60)
    if "sum(sin(x))" in run.stdout:
        # the README's C example: checked against NumPy
        got = float(run.stdout.split("=")[1])
        want = np.sin(np.linspace(0.0, 3.14159265, 1000000)).sum()
        assert abs(got - want) < 1e-6 * abs(want)
