#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every test: the Catch2
# C tests, Python, Fortran and binding checks under ctest, then the C tests
# again under AddressSanitizer + UBSan with leak detection (gcc), then a
# clang ASan+UBSan build running the fuzz targets' bounded runs and the
# threaded, DLPack and backend C tests, and the ThreadSanitizer run of the
# threaded tests (scripts/sanitize.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
PY=$(command -v "${PYTHON:-python3}")
JOBS=$(nproc)
WERROR=${CUNUMPY_WERROR:-ON}

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUNUMPY_WERROR="$WERROR" \
  -DPython3_EXECUTABLE="$PY" >/dev/null
cmake --build build -j"$JOBS"
(cd build && ctest --output-on-failure -j"$JOBS")

# Sanitizers: the C tests only (the Python interpreter is not instrumented).
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCUNUMPY_SANITIZE=ON \
  -DCUNUMPY_WERROR="$WERROR" -DCUNUMPY_PYTHON=OFF -DCUNUMPY_FORTRAN=OFF \
  -DCUNUMPY_CUDA=OFF -DCUNUMPY_BENCHMARKS=OFF -DPython3_EXECUTABLE="$PY" >/dev/null
cmake --build build-asan -j"$JOBS"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j"$JOBS" -L capi)

# clang: bounded fuzzing and the threaded/DLPack/backend C tests under
# ASan+UBSan (the whole C suite under clang is `scripts/sanitize.sh clang`),
# then TSan.
t0=$(date +%s)
JOBS="$JOBS" bash scripts/sanitize.sh clang-ci
t1=$(date +%s)
JOBS="$JOBS" bash scripts/sanitize.sh tsan
t2=$(date +%s)
echo "clang ASan/UBSan (fuzz + threaded subset): $((t1 - t0)) s; TSan: $((t2 - t1)) s"
