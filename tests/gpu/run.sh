#!/usr/bin/env bash
# The GPU check of cunumpy's CUDA backend, for a machine with an NVIDIA GPU
# (sized for an H200: under 5 minutes). It
#   1. configures and builds the CUDA backend (sm_90) in build-gpu,
#   2. runs the CUDA tests (plugin, NVRTC compile of every kernel, the public
#      CUDA API with a device, no CPU fallback),
#   3. runs tests/gpu/gpu_check.c: every op, cast and reduction and every
#      other CUDA compute slot (one part each) on the GPU against the CPU
#      backend on the same inputs; the memory limit from
#      CUNUMPY_GPU_MEMORY_LIMIT / CUPY_GPU_MEMORY_LIMIT; the disk kernel cache,
#   4. DLPack round trips with CuPy (when the Python binding is built),
#   5. the benchmark, cunumpy vs CuPy on 1e8 float32/float64 and on matmul
#      (4096^2, 10000 x 32^2), and prints its tables last.
# GPU_DRY_RUN=1 exercises the script's own logic on a machine without a GPU
# (GPU steps replaced by their CPU self-tests and sample numbers).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
dry=${GPU_DRY_RUN:-0}
build=${GPU_BUILD_DIR:-build-gpu}
jobs=$(nproc 2>/dev/null || echo 4)
n=${GPU_BENCH_N:-100000000}
t_start=$(date +%s)
log() { printf '\n=== [%3ds] %s\n' "$(($(date +%s) - t_start))" "$*"; }

if [[ $dry != 1 ]]; then
  if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L; then
    echo "run.sh: no NVIDIA GPU visible (nvidia-smi); use GPU_DRY_RUN=1" >&2
    exit 1
  fi
fi

bundle=${GPU_BUNDLE:-}
pyjob=
if [[ -n $bundle ]]; then
  # Prebuilt by tests/gpu/bundle.sh on a machine with the CUDA toolkit: no
  # build step here, and no Debian packages needed on this machine.
  log "unpack the prebuilt bundle $bundle"
  B="$root/$build"
  rm -rf "$B" && mkdir -p "$B" && tar -C "$B" -xJf "$bundle"
  bin="$B/bin"
  nvrtc_dir=
  for d in ${CUDA_HOME:-/usr/local/cuda}/lib64 \
    ${CUDA_HOME:-/usr/local/cuda}/targets/x86_64-linux/lib /usr/local/cuda/lib; do
    [[ -e $d/libnvrtc.so.13 ]] && { nvrtc_dir=$d; break; }
  done
  [[ -z $nvrtc_dir ]] && nvrtc_dir=$(dirname "$(find / -name 'libnvrtc.so.13' \
    -not -path '/proc/*' 2>/dev/null | head -1)")
  echo "NVRTC from $nvrtc_dir"
  export LD_LIBRARY_PATH="$B/lib:$B/deps:$nvrtc_dir:${LD_LIBRARY_PATH:-}"
  # The Python module for this machine's python3, compiled in the
  # background while the C checks run.
  pyinc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
  ext=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  (cc -O1 -shared -fPIC -w -I"$pyinc" -I"$B/include" -I"$B/core" \
    "$B/cn_wrap.c" -L"$B/lib" -lcunumpy -Wl,-rpath,"$B/lib" \
    -o "$B/python/cunumpy/_cnlib$ext" >"$B/pymodule.log" 2>&1) &
  pyjob=$!
  log "CUDA tests"
  "$bin/test_cuda"
  "$bin/cuda_plugin_probe" "$B/lib/libcunumpy_cuda.so"
else
  log "configure ($build, CUDA on, sm_90)"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUNUMPY_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DCUNUMPY_FORTRAN=OFF \
    -DCUNUMPY_BENCHMARKS=OFF >"$build.configure.log" 2>&1 ||
    { tail -40 "$build.configure.log"; exit 1; }

  log "build"
  targets=(cunumpy cunumpy_cuda test_cuda cuda_nvrtc_kernels cuda_plugin_probe
    cuda_gpu_check cuda_bench_gpu)
  py_target=$(cmake --build "$build" --target help 2>/dev/null |
    grep -oE '(_cunumpy|cunumpy_python|_core|python_module)[A-Za-z_]*' |
    head -1 || true)
  [[ -n $py_target ]] && targets+=("$py_target")
  cmake --build "$build" -j"$jobs" --target "${targets[@]}"
  bin="$build/tests"

  log "CUDA tests (ctest)"
  ctest_re='^(test_cuda|cuda_)'
  # the dry run skips the long NVRTC compile tests (the ordinary CI runs them)
  [[ $dry == 1 ]] && ctest_re='^(test_cuda|cuda_plugin_probe|cuda_nvrtc_cache)$'
  (cd "$build" && ctest -R "$ctest_re" -j"$jobs" --output-on-failure \
    --timeout 240)
fi

# A fresh kernel cache, so the run measures compilation and exercises the
# disk cache on the second pass.
export CUNUMPY_KERNEL_CACHE="$root/$build/kernel-cache"
rm -rf "$CUNUMPY_KERNEL_CACHE"

status=0
log "GPU vs CPU: every op, cast, reduction and compute slot (one process per part)"
if [[ $dry == 1 ]]; then
  export GPU_CHECK_SELFTEST=1
fi
pids=()
parts=(elementwise casts reductions random indexing lapack matmul sorting fft search)
for part in "${parts[@]}"; do
  timeout 240 "$bin/cuda_gpu_check" "$part" >"$build/gpu_check_$part.log" 2>&1 &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    status=1
    echo "gpu_check ${parts[$i]} FAILED:"
    grep -E '^(FAIL|ERROR)' "$build/gpu_check_${parts[$i]}.log" | head -40 || true
  fi
  tail -1 "$build/gpu_check_${parts[$i]}.log"
done

if [[ $dry != 1 ]]; then
  log "disk kernel cache: a second process must compile nothing"
  out=$("$bin/cuda_gpu_check" casts 2>&1 | tail -1 || true)
  echo "$out"
  if ! grep -q '(kernels: 0 compiled' <<<"$out"; then
    echo "FAIL: the disk kernel cache was not used"
    status=1
  fi
  # A corrupt entry is ignored and rebuilt.
  f=$(find "$CUNUMPY_KERNEL_CACHE" -name '*.bin' | head -1 || true)
  [[ -n $f ]] && printf 'garbage' >"$f"
  out=$("$bin/cuda_gpu_check" casts 2>&1 | tail -1 || true)
  echo "after corrupting one entry: $out"
  grep -q ' 0 failures' <<<"$out" || status=1

  log "memory limit from the environment"
  CUNUMPY_GPU_MEMORY_LIMIT=300000000 "$bin/cuda_gpu_check" limit 300000000 |
    tail -1 || status=1
  CUPY_GPU_MEMORY_LIMIT=1% "$bin/cuda_gpu_check" limit 1% | tail -1 ||
    status=1
fi

log "Python binding on the GPU (and zero-copy with CuPy)"
if [[ -n $pyjob ]]; then
  wait "$pyjob" || { echo "FAIL: building the Python module"; tail -20 "$B/pymodule.log"; status=1; }
  pydir="$B/python/cunumpy"
else
  pydir=$(find "$build" -name '__init__.py' -path '*cunumpy*' -printf '%h\n' \
    2>/dev/null | head -1 || true)
fi
if [[ $dry != 1 && -n $pydir ]] &&
  PYTHONPATH="$(dirname "$pydir"):${PYTHONPATH:-}" python3 -c 'import cunumpy' 2>/dev/null; then
  PYTHONPATH="$(dirname "$pydir"):${PYTHONPATH:-}" \
    timeout 180 python3 "$here/python_gpu.py" || status=1
  if python3 -c 'import cupy' 2>/dev/null; then
    PYTHONPATH="$(dirname "$pydir"):${PYTHONPATH:-}" \
      timeout 120 python3 "$here/dlpack_cupy.py" || status=1
  fi
else
  echo "SKIPPED: no importable Python binding in $build"
fi

log "benchmark: cunumpy vs CuPy, N=$n"
res="$build/bench_results.txt"
if [[ $dry == 1 ]]; then
  cat >"$res" <<'EOT'
RESULT cunumpy copy float32 0.1000 8000.0
RESULT cunumpy a+b float32 0.1600 7500.0
RESULT cupy copy float32 0.1000 8000.0
RESULT cupy a+b float32 0.1700 7058.8
RESULT cunumpy mm4096 float32 2.5000 54975.6
RESULT cupy mm4096 float32 2.6000 52861.1
EOT
else
  timeout 150 "$bin/cuda_bench_gpu" "$n" 20 | tee "$res" || status=1
  if python3 -c 'import cupy' 2>/dev/null; then
    timeout 150 python3 "$here/bench_cupy.py" "$n" 20 | tee -a "$res" || status=1
  else
    echo "CuPy is not importable: no CuPy column"
  fi
fi

log "done (status $status)"
python3 - "$res" <<'EOT'
import sys
rows = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 6 and p[0] == "RESULT":
        rows[(p[2], p[3], p[1])] = (float(p[4]), float(p[5]))
ops = ["copy", "a+b", "a*b+c", "sin", "sum", "std", "argmax"]
print(f"{'op':8} {'dtype':8} {'cunumpy ms':>10} {'GB/s':>7} {'% copy':>7}"
      f" {'CuPy ms':>9} {'GB/s':>7} {'vs CuPy':>8}")
for dt in ("float32", "float64"):
    copy = rows.get(("copy", dt, "cunumpy"))
    for op in ops:
        c = rows.get((op, dt, "cunumpy"))
        k = rows.get((op, dt, "cupy"))
        if c is None and k is None:
            continue
        cm = f"{c[0]:10.3f} {c[1]:7.0f}" if c else f"{'-':>10} {'-':>7}"
        pc = f"{100 * c[1] / copy[1]:6.0f}%" if c and copy else f"{'-':>7}"
        km = f"{k[0]:9.3f} {k[1]:7.0f}" if k else f"{'-':>9} {'-':>7}"
        sp = f"{k[0] / c[0]:7.2f}x" if c and k else f"{'-':>8}"
        print(f"{op:8} {dt:8} {cm} {pc} {km} {sp}")
for op, dt in (("fft_2^24", "complex64"), ("rfft_2^26", "float32"),
               ("fft2_4096^2", "complex64")):
    c = rows.get((op, dt, "cunumpy"))
    k = rows.get((op, dt, "cupy"))
    if c is None and k is None:
        continue
    cm = f"{c[0]:10.3f} {c[1]:7.0f}" if c else f"{'-':>10} {'-':>7}"
    km = f"{k[0]:9.3f} {k[1]:7.0f}" if k else f"{'-':>9} {'-':>7}"
    sp = f"{k[0] / c[0]:7.2f}x" if c and k else f"{'-':>8}"
    print(f"{op:11} {dt:9} {cm} {'-':>7} {km} {sp}")
print(f"{'matmul':10} {'dtype':10} {'cunumpy ms':>10} {'GFLOP/s':>8}"
      f" {'CuPy ms':>9} {'GFLOP/s':>8} {'vs CuPy':>8}")
for op in ("mm4096", "mm32x10000"):
    for dt in ("float32", "float64", "complex128"):
        c = rows.get((op, dt, "cunumpy"))
        k = rows.get((op, dt, "cupy"))
        if c is None and k is None:
            continue
        cm = f"{c[0]:10.3f} {c[1]:8.0f}" if c else f"{'-':>10} {'-':>8}"
        km = f"{k[0]:9.3f} {k[1]:8.0f}" if k else f"{'-':>9} {'-':>8}"
        sp = f"{k[0] / c[0]:7.2f}x" if c and k else f"{'-':>8}"
        print(f"{op:10} {dt:10} {cm} {km} {sp}")
EOT
exit $status
