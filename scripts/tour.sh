#!/usr/bin/env bash
# Installs dependencies, builds everything and runs the tour: the engine
# driven from C, Python and Fortran, printing results and timings, then the
# core benchmark side by side with NumPy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
PY=$(command -v "${PYTHON:-python3}")
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$PY" >/dev/null
cmake --build build -j"$(nproc)"
echo "== C ======================================================"
./build/tour
if [ -f examples/tour.py ] && [ -d build/python ]; then
  echo "== Python ================================================="
  PYTHONPATH=build/python "$PY" examples/tour.py
fi
if [ -x build/bindings/fortran/heat_f90 ]; then
  echo "== Fortran ================================================"
  ./build/bindings/fortran/heat_f90
fi
echo "== Benchmark: cunumpy (C) vs NumPy ========================="
"$PY" benchmarks/bench_core.py build
