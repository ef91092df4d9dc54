#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz long: RUNS executions each
# (default 1000000) from a random seed, starting from the checked-in seed
# corpus; new interesting inputs go to build-fuzz/tests/fuzz/found/<target>
# and crashes to build-fuzz/tests/fuzz/artifacts/. Builds build-fuzz first
# (scripts/sanitize.sh clang's configuration). Usage:
#   scripts/fuzz.sh [target...]     RUNS=N JOBS=N overridable
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-1000000}
JOBS=${JOBS:-$(nproc)}
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCUNUMPY_FUZZ=ON \
  -DCUNUMPY_WERROR="${CUNUMPY_WERROR:-ON}" -DCUNUMPY_PYTHON=OFF \
  -DCUNUMPY_FORTRAN=OFF -DCUNUMPY_CUDA=OFF -DCUNUMPY_BENCHMARKS=OFF \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.c; do
    t=$(basename "$f" .c); targets+=("${t#fuzz_}")
  done
fi
cmake --build build-fuzz -j"$JOBS" --target "${targets[@]/#/fuzz_}"
out=build-fuzz/tests/fuzz
status=0
for t in "${targets[@]}"; do
  mkdir -p "$out/found/$t" "$out/artifacts"
  start=$(date +%s)
  rc=0
  OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 "$out/../fuzz_$t" -runs="$RUNS" -max_len=512 \
    -artifact_prefix="$out/artifacts/$t-" -print_final_stats=1 \
    "$out/found/$t" "tests/fuzz/corpus/$t" >"$out/$t.log" 2>&1 || rc=$?
  [ $rc -eq 0 ] || status=1
  runs=$(grep -o 'number_of_executed_units: *[0-9]*' "$out/$t.log" | grep -o '[0-9]*$' || true)
  echo "fuzz_$t: ${runs:-?} executions in $(( $(date +%s) - start )) s, exit $rc (log: $out/$t.log)"
done
exit $status
