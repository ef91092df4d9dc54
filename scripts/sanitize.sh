#!/usr/bin/env bash
# clang sanitizer builds of the C tests.
#   scripts/sanitize.sh clang   ASan+UBSan (signed and pointer overflow
#                               included) build with the libFuzzer targets
#                               (build-fuzz): ctest -L capi runs every C
#                               test (each carries the capi label) and each
#                               fuzz target's corpus + 10000 runs.
#   scripts/sanitize.sh clang-ci  the part of it that scripts/test.sh runs
#                               (CI has 2 cores): the fuzz targets' bounded
#                               runs and the threaded, DLPack and backend
#                               C tests; the gcc ASan stage covers the rest.
#   scripts/sanitize.sh tsan    ThreadSanitizer build (build-tsan, engine
#                               instrumented) of the threaded C tests.
# libgomp is not built with TSan, so its barriers are invisible to it and
# every OpenMP region would be reported; the TSan run therefore uses
# OMP_NUM_THREADS=1 (the engine's own threads and the test's std::threads
# are what it checks). JOBS defaults to nproc; FUZZ_BUILD_DIR and
# TSAN_BUILD_DIR name other build folders (several checkouts side by side).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
FUZZ_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
TSAN_DIR=${TSAN_BUILD_DIR:-build-tsan}
WERROR=${CUNUMPY_WERROR:-ON}
COMMON=(-DCUNUMPY_WERROR="$WERROR" -DCUNUMPY_PYTHON=OFF -DCUNUMPY_FORTRAN=OFF
        -DCUNUMPY_CUDA=OFF -DCUNUMPY_BENCHMARKS=OFF -DCMAKE_C_COMPILER=clang
        -DCMAKE_CXX_COMPILER=clang++)
case "${1:-}" in
clang)
  cmake -S . -B "$FUZZ_DIR" -DCMAKE_BUILD_TYPE=Debug -DCUNUMPY_FUZZ=ON \
    "${COMMON[@]}" >/dev/null
  cmake --build "$FUZZ_DIR" -j"$JOBS"
  (cd "$FUZZ_DIR" && ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --output-on-failure -j"$JOBS" -L capi)
  ;;
clang-ci)
  cmake -S . -B "$FUZZ_DIR" -DCMAKE_BUILD_TYPE=Debug -DCUNUMPY_FUZZ=ON \
    "${COMMON[@]}" >/dev/null
  ci_tests=(test_threads test_dlpack test_backend)
  cmake --build "$FUZZ_DIR" -j"$JOBS" --target "${ci_tests[@]}" \
    $(cd tests/fuzz && for f in fuzz_*.c; do echo "${f%.c}"; done)
  (cd "$FUZZ_DIR" && ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --output-on-failure -j"$JOBS" -L capi \
      -R "^(fuzz_.*|$(IFS='|'; echo "${ci_tests[*]}"))\$")
  ;;
tsan)
  cmake -S . -B "$TSAN_DIR" -DCMAKE_BUILD_TYPE=Debug -DCUNUMPY_TSAN=ON \
    "${COMMON[@]}" >/dev/null
  cmake --build "$TSAN_DIR" -j"$JOBS" --target test_threads test_dlpack
  (cd "$TSAN_DIR" && OMP_NUM_THREADS=1 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --output-on-failure -j"$JOBS" -R '^test_(threads|dlpack)$')
  ;;
*)
  echo "usage: $0 clang|clang-ci|tsan" >&2
  exit 2
  ;;
esac
