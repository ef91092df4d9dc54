#!/usr/bin/env bash
# Usage: run.sh PYTHON SOURCE_DIR SCRATCH_DIR
set -euo pipefail
py=$1 src=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
# A copy of the sources, so the in-tree build folders are not touched.
mkdir -p "$scratch/src"
git -C "$src" ls-files -z --cached --others --exclude-standard |
  (cd "$src" && xargs -0 cp --parents -t "$scratch/src")
CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
  "$py" -m pip install -q --disable-pip-version-check --no-build-isolation \
  --no-deps --target "$scratch/site" \
  --config-settings=cmake.define.CUNUMPY_CUDA=OFF "$scratch/src/bindings/python"
cd "$scratch"
PYTHONPATH="$scratch/site" "$py" - "$scratch/site" <<'PY'
import os, sys
import numpy as np
import cunumpy as xp
site = os.path.realpath(sys.argv[1])
assert os.path.realpath(xp.__file__).startswith(site), xp.__file__
a = xp.arange(12.0).reshape(3, 4)
assert np.array_equal(xp.to_numpy((a * 2).sum(axis=0)),
                      (np.arange(12.0).reshape(3, 4) * 2).sum(axis=0))
assert xp.linalg.det(xp.eye(3)) == 1.0
print("pip-installed cunumpy", xp.__version__ if hasattr(xp, "__version__")
      else "", "from", os.path.dirname(xp.__file__), "works")
PY
