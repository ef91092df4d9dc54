#!/usr/bin/env bash
# The GPU check of cunumpy's CUDA backend, for a machine with an NVIDIA GPU
# (sized for an H200 with a cold kernel cache: under 8 minutes, which
# GPU_TIME_BUDGET enforces: each step's timeout is cut to what is left).
# It
#   1. finds the CUDA libraries the plugin needs (NVRTC, cuBLAS/cuBLASLt,
#      cuSOLVER with cuSPARSE and nvJitLink, cuFFT): the toolkit's lib64
#      first, else the pip wheels' folders (site-packages/nvidia/*/lib);
#      prints which it uses and stops early naming any that is missing,
#   2. configures and builds the CUDA backend (sm_90) in build-gpu, or
#      unpacks the bundle of tests/gpu/bundle.sh (GPU_BUNDLE=...),
#   3. runs the CUDA tests (plugin, host-side plans and preludes, the
#      public CUDA API with a device; from a bundle, test_cuda and the
#      plugin probe; the NVRTC compile of every kernel is left to the
#      ordinary ctest: the GPU check below compiles them all),
#   4. runs tests/gpu/gpu_check.c: every op, cast and reduction and every
#      other CUDA compute slot against the CPU backend on the same inputs,
#      one process per part (the long parts split in shares) in parallel;
#      then the disk kernel cache (a second process compiles nothing) and
#      the memory limit from CUNUMPY_GPU_MEMORY_LIMIT / CUPY_GPU_MEMORY_LIMIT,
#   5. the Python binding on the GPU and DLPack round trips with CuPy,
#   6. the benchmark: tests/gpu/bench_gpu.c and tests/gpu/bench_cupy.py
#      group by group, alternating, and prints one table last (also when a
#      step failed or timed out), with the time each step took.
# GPU_CMAKE_ARGS adds configure options (build mode).
# GPU_DRY_RUN=1 exercises the script's own logic on a machine without a GPU
# (GPU steps replaced by their CPU self-tests; the CuPy column is sample
# numbers).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 1
dry=${GPU_DRY_RUN:-0}
build=${GPU_BUILD_DIR:-build-gpu}
jobs=$(nproc 2>/dev/null || echo 4)
n=${GPU_BENCH_N:-100000000}
budget=${GPU_TIME_BUDGET:-470}
t_start=$(date +%s)
elapsed() { echo $(($(date +%s) - t_start)); }
log() { printf '\n=== [%3ds] %s\n' "$(elapsed)" "$*"; }
mkdir -p "$root/$build"
res="$root/$build/bench_results.txt"
rows="$root/$build/bench_rows.txt"
steps="$root/$build/step_times.txt"
: >"$res"
: >"$steps"
status=0

# Runs "$@" as step $1 under a timeout of $2 seconds, cut to what is left
# of the budget (the whole process group is killed on expiry); records the
# step's time and outcome for the summary. Shell functions run through
# `bash -c` (exported with export -f).
step() {
  local name=$1 limit=$2 t0 rc left
  shift 2
  left=$((budget - $(elapsed)))
  if ((left < 5)); then
    echo "SKIPPED $name: the time budget (${budget}s) is spent"
    printf '%-50s %5s  %s\n' "$name" - "skipped (budget)" >>"$steps"
    status=1
    return 1
  fi
  ((limit > left)) && limit=$left
  log "$name (timeout ${limit}s)"
  t0=$(date +%s)
  timeout -k 5 "$limit" "$@"
  rc=$?
  local took=$(($(date +%s) - t0)) what=ok
  ((rc == 124 || rc == 137)) && what="TIMED OUT after ${limit}s"
  ((rc != 0 && rc != 124 && rc != 137)) && what="FAILED (exit $rc)"
  echo "--- $name: $what, ${took}s"
  printf '%-50s %5ds  %s\n' "$name" "$took" "$what" >>"$steps"
  ((rc == 0)) || status=1
  return $rc
}

# The summary and the benchmark table: printed on every exit.
finish() {
  (($? == 0)) || status=1
  log "done (status $status)"
  printf '%-50s %6s  %s\n' step time outcome
  cat "$steps"
  printf '%-50s %5ds  (budget %ss)\n' total "$(elapsed)" "$budget"
  [[ -s $rows ]] || python3 "$here/bench_cupy.py" --rows >"$rows" 2>/dev/null
  python3 - "$res" "$rows" "$dry" <<'EOT'
import sys
res, rows_file, dry = sys.argv[1:4]
got = {}
for line in open(res):
    p = line.split()
    if len(p) == 7 and p[0] == "RESULT":
        got[(p[2], p[3], p[1])] = (float(p[4]), float(p[5]), p[6])
rows = [tuple(l.split()[1:5]) for l in open(rows_file) if l.startswith("ROW ")]
if dry == "1":
    print("DRY RUN: cunumpy = the CPU self-test at small sizes, CuPy = sample numbers")
print(f"{'op':16} {'dtype':10} {'cunumpy ms':>10} {'rate':>8} {'unit':7} {'% copy':>6}"
      f" {'CuPy ms':>9} {'rate':>8} {'CuPy/cunumpy':>12}")
group = None
for grp, op, dt, unit in rows:
    if grp != group:
        print(f"-- {grp}")
        group = grp
    c, k = got.get((op, dt, "cunumpy")), got.get((op, dt, "cupy"))
    copy = got.get(("copy", dt, "cunumpy")) or got.get(("copy", "float32", "cunumpy"))
    rate = lambda r: f"{r[1]:8.1f}" if unit != "-" else f"{'-':>8}"
    cm = f"{c[0]:10.3f} {rate(c)}" if c else f"{'-':>10} {'-':>8}"
    pc = f"{100 * c[1] / copy[1]:5.0f}%" if c and unit == "GB/s" and copy and copy[1] else f"{'-':>6}"
    km = f"{k[0]:9.3f} {rate(k)}" if k else f"{'-':>9} {'-':>8}"
    sp = f"{k[0] / c[0]:11.2f}x" if c and k and c[0] > 0 else f"{'-':>12}"
    print(f"{op:16} {dt:10} {cm} {unit:7} {pc} {km} {sp}")
EOT
  exit $status
}
trap finish EXIT

# ---- 1. the CUDA libraries ------------------------------------------------
cuda_home=${CUDA_HOME:-/usr/local/cuda}
toolkit_dirs=()
for d in "$cuda_home/lib64" "$cuda_home/targets/x86_64-linux/lib"; do
  [[ -d $d ]] || continue
  d=$(cd "$d" && pwd -P) # lib64 is often a link to targets/.../lib
  [[ " ${toolkit_dirs[*]} " == *" $d "* ]] || toolkit_dirs+=("$d")
done
# the pip wheels' folders: site-packages/nvidia/<pkg>/lib
mapfile -t wheel_dirs < <(python3 -c '
import glob, os
try:
    import nvidia
except ImportError:
    raise SystemExit
for p in nvidia.__path__:
    for d in sorted(glob.glob(os.path.join(p, "*", "lib"))):
        if glob.glob(os.path.join(d, "lib*.so*")):
            print(os.path.realpath(d))' 2>/dev/null)
lib_dirs=("${toolkit_dirs[@]}" "${wheel_dirs[@]}")
echo "CUDA library folders searched, in order: ${lib_dirs[*]:-(none)}"

# Resolves the plugin's libraries (and theirs) with ldd over our own
# folders $2, the toolkit's and the wheels'; prints the CUDA ones with the
# file used, fails naming any missing, and puts the folders used on
# LD_LIBRARY_PATH.
use_cuda_libs() {
  local plugin=$1 ours=$2 out so arrow path rest d used=() missing=()
  local search
  search=$(IFS=:; echo "${lib_dirs[*]}")
  out=$(LD_LIBRARY_PATH="$ours${search:+:$search}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    ldd "$plugin" 2>&1) ||
    { echo "run.sh: ldd $plugin failed: $out" >&2; return 1; }
  while read -r so arrow path rest; do
    [[ $arrow == "=>" ]] || continue
    if [[ $path == not ]]; then
      missing+=("$so")
      continue
    fi
    [[ $so =~ ^lib(cu(blas|solver|sparse|fft|rand|dart)|nv) ]] && echo "  $so -> $path"
    for d in "${lib_dirs[@]}"; do
      [[ $(dirname "$path") == "$d" ]] && used+=("$d")
    done
  done <<<"$out"
  if ((${#missing[@]})); then
    echo "run.sh: missing libraries: ${missing[*]} (needed by $plugin;" \
      "looked in ${lib_dirs[*]:-no CUDA folder} and the system's): install the" \
      "CUDA toolkit, or the wheels nvidia-cuda-nvrtc, nvidia-cublas," \
      "nvidia-cusolver, nvidia-cusparse, nvidia-nvjitlink, nvidia-cufft" >&2
    return 1
  fi
  # NVRTC loads its builtins library at run time, from its own folder
  path=$(awk '$1 ~ /^libnvrtc\.so/ {print $3}' <<<"$out")
  if [[ -n $path ]] && ! compgen -G "$(dirname "$path")/libnvrtc-builtins.so*" >/dev/null; then
    echo "run.sh: libnvrtc-builtins.so is missing beside $path" >&2
    return 1
  fi
  local uniq
  uniq=$(printf '%s\n' "${used[@]}" | awk 'NF && !seen[$0]++' | paste -sd:)
  export LD_LIBRARY_PATH="$ours${uniq:+:$uniq}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

if [[ $dry != 1 ]]; then
  if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L; then
    echo "run.sh: no NVIDIA GPU visible (nvidia-smi); use GPU_DRY_RUN=1" >&2
    exit 1
  fi
fi

# ---- 2. build or unpack ---------------------------------------------------
bundle=${GPU_BUNDLE:-}
pyjob=
if [[ -n $bundle ]]; then
  # Prebuilt by tests/gpu/bundle.sh on a machine with the CUDA toolkit: no
  # build step here, and no Debian packages needed on this machine.
  log "unpack the prebuilt bundle $bundle"
  B="$root/$build"
  rm -rf "${B:?}/bin" "${B:?}/lib" "${B:?}/deps" "${B:?}/python" &&
    tar -C "$B" -xJf "$bundle" || exit 1
  [[ -f $B/NOTES ]] && cat "$B/NOTES"
  bin="$B/bin"
  log "CUDA libraries"
  use_cuda_libs "$B/lib/libcunumpy_cuda.so" "$B/lib:$B/deps" || exit 1
  # The Python module for this machine's python3, compiled in the
  # background while the C checks run.
  pyinc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
  ext=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  (timeout 300 cc -O1 -shared -fPIC -w -I"$pyinc" -I"$B/include" -I"$B/core" \
    "$B/cn_wrap.c" -L"$B/lib" -lcunumpy -Wl,-rpath,"$B/lib" \
    -o "$B/python/cunumpy/_cnlib$ext" >"$B/pymodule.log" 2>&1) &
  pyjob=$!
  step "CUDA tests" 60 bash -c '"$1/test_cuda" && "$1/cuda_plugin_probe" "$2"' \
    _ "$bin" "$B/lib/libcunumpy_cuda.so"
else
  # find_library wants the unversioned name, which the wheels do not ship:
  # links for the wheels' libraries that the toolkit lacks, and their
  # headers on CPATH.
  links="$root/$build/cuda-wheel-links"
  rm -rf "$links" && mkdir -p "$links"
  for d in "${wheel_dirs[@]}"; do
    for f in "$d"/lib*.so.*; do
      [[ -e $f ]] || continue
      stem=${f##*/}
      stem=${stem%%.so*}
      have=
      for t in "${toolkit_dirs[@]}"; do [[ -e $t/$stem.so ]] && have=1; done
      [[ -n $have || -e $links/$stem.so ]] || ln -s "$f" "$links/$stem.so"
    done
    if [[ -d $d/../include ]]; then
      inc=$(cd "$d/../include" && pwd)
      export CPATH="$inc${CPATH:+:$CPATH}"
    fi
  done
  cmake_libs=()
  compgen -G "$links/*.so" >/dev/null && cmake_libs=(-DCMAKE_LIBRARY_PATH="$links")

  step "configure ($build, CUDA on, sm_90)" 180 bash -c \
    'cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DCUNUMPY_CUDA=ON \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DCUNUMPY_FORTRAN=OFF \
      -DCUNUMPY_BENCHMARKS=OFF ${GPU_CMAKE_ARGS:-} "${@:2}" \
      >"$1.configure.log" 2>&1 ||
      { tail -40 "$1.configure.log"; exit 1; }' _ "$build" "${cmake_libs[@]}" ||
    exit 1

  # the host-side CUDA tests and the plugin; the NVRTC compile of every
  # kernel (minutes of CPU) is the ordinary ctest's, and gpu_check compiles
  # them all for this GPU below
  ctest_re='^(test_cuda.*|cuda_nvrtc_cache|cuda_.*_host|cuda_plugin_probe)$'
  targets=(cunumpy cunumpy_cuda cuda_plugin_probe cuda_nvrtc_kernels
    cuda_gpu_check cuda_bench_gpu)
  for t in $(cd "$build" && ctest -N -R "$ctest_re" | awk '/Test +#/ {print $3}'); do
    case $t in
    test_cuda*) targets+=("$t") ;;
    cuda_*_host) targets+=("${t}_exe") ;;
    esac
  done
  py_target=$(cmake --build "$build" --target help 2>/dev/null |
    grep -oE '(_cunumpy|cunumpy_python|_core|python_module)[A-Za-z_]*' |
    head -1 || true)
  [[ -n $py_target ]] && targets+=("$py_target")
  step build 420 cmake --build "$build" -j"$jobs" --target "${targets[@]}" ||
    exit 1
  bin="$build/tests"
  log "CUDA libraries"
  use_cuda_libs "$build/lib/libcunumpy_cuda.so" "$root/$build/lib" || exit 1
  step "CUDA tests (ctest)" 120 bash -c 'cd "$1" && ctest -R "$2" -j"$3" \
    --output-on-failure --timeout 100' _ "$build" "$ctest_re" "$jobs"
fi
"$bin/cuda_bench_gpu" --rows >"$rows" 2>/dev/null ||
  python3 "$here/bench_cupy.py" --rows >"$rows"
step "benchmark rows: C and CuPy lists agree" 20 \
  diff <(python3 "$here/bench_cupy.py" --rows) "$rows"

# ---- 4. GPU against CPU ---------------------------------------------------
# A fresh kernel cache, so the run measures compilation and exercises the
# disk cache on the second pass.
export CUNUMPY_KERNEL_CACHE="$root/$build/kernel-cache"
rm -rf "$CUNUMPY_KERNEL_CACHE"
[[ $dry == 1 ]] && export GPU_CHECK_SELFTEST=1
# The parts in parallel; the two that compile most kernels (every op and
# reduction for every dtype) in shares, about one process per core.
gpu_check_parts() {
  local bin=$1 build=$2 part pids=() parts=() rc=0 i
  for part in elementwise:{0..5}/6 reductions:{0..3}/4 casts random indexing \
    lapack matmul sorting fft streams search sparse; do
    "$bin/cuda_gpu_check" "$part" >"$build/gpu_check_${part//[:\/]/_}.log" 2>&1 &
    pids+=($!)
    parts+=("$part")
  done
  for i in "${!pids[@]}"; do
    local log="$build/gpu_check_${parts[$i]//[:\/]/_}.log"
    if ! wait "${pids[$i]}"; then
      rc=1
      echo "gpu_check ${parts[$i]} FAILED:"
      grep -E '^(FAIL|ERROR)' "$log" | head -40
    fi
    echo "${parts[$i]}: $(tail -1 "$log")"
  done
  return $rc
}
export -f gpu_check_parts
step "GPU vs CPU: every op, cast, reduction and slot" 300 \
  bash -c 'gpu_check_parts "$@"' _ "$bin" "$build"

if [[ $dry != 1 ]]; then
  kernel_cache() {
    local out f
    out=$("$1/cuda_gpu_check" casts 2>&1 | tail -1)
    echo "$out"
    grep -q '(kernels: 0 compiled' <<<"$out" ||
      { echo "FAIL: the disk kernel cache was not used"; return 1; }
    # A corrupt entry is ignored and rebuilt.
    f=$(find "$CUNUMPY_KERNEL_CACHE" -name '*.bin' | head -1)
    [[ -n $f ]] && printf 'garbage' >"$f"
    out=$("$1/cuda_gpu_check" casts 2>&1 | tail -1)
    echo "after corrupting one entry: $out"
    grep -q ' 0 failures' <<<"$out"
  }
  memory_limit() {
    CUNUMPY_GPU_MEMORY_LIMIT=300000000 "$1/cuda_gpu_check" limit 300000000 |
      tail -1 && CUPY_GPU_MEMORY_LIMIT=1% "$1/cuda_gpu_check" limit 1% | tail -1
  }
  export -f kernel_cache memory_limit
  step "disk kernel cache: a second process compiles nothing" 60 \
    bash -c 'kernel_cache "$1"' _ "$bin"
  step "memory limit from the environment" 60 bash -c 'memory_limit "$1"' _ "$bin"
fi

# ---- 5. Python ------------------------------------------------------------
if [[ -n $pyjob ]]; then
  wait "$pyjob" || { echo "FAIL: building the Python module"; tail -20 "$B/pymodule.log"; status=1; }
  pydir="$B/python/cunumpy"
else
  pydir=$(find "$build" -name '__init__.py' -path '*cunumpy*' -printf '%h\n' \
    2>/dev/null | head -1)
fi
if [[ $dry != 1 && -n $pydir ]] &&
  PYTHONPATH="$(dirname "$pydir"):${PYTHONPATH:-}" python3 -c 'import cunumpy' 2>/dev/null; then
  PYTHONPATH="$(dirname "$pydir"):${PYTHONPATH:-}"
  export PYTHONPATH
  step "Python binding on the GPU" 180 python3 "$here/python_gpu.py"
  step "custom kernels on the GPU" 180 python3 "$here/kernel_gpu.py"
  step "Python-syntax JIT kernels on the GPU" 120 python3 "$here/jit_gpu.py"
  step "fused expressions on the GPU" 180 python3 "$here/expr_gpu.py"
  step "device API, pools, pointers, NVTX on the GPU" 120 \
    python3 "$here/cuda_api_gpu.py"
  step "raw kernel snippets on the GPU" 120 python3 "$here/test_kernel_snippets.py"
  if python3 -c 'import cupy' 2>/dev/null; then
    step "zero-copy with CuPy (DLPack)" 120 python3 "$here/dlpack_cupy.py"
  fi
else
  echo "SKIPPED: no importable Python binding in $build (or a dry run)"
fi

# ---- 6. benchmark ---------------------------------------------------------
# Group by group, cunumpy then CuPy, so both see the GPU in the same state;
# each process frees its pools between rows.
have_cupy=0
[[ $dry != 1 ]] && python3 -c 'import cupy' 2>/dev/null && have_cupy=1
[[ $dry != 1 && $have_cupy == 0 ]] && echo "CuPy is not importable: no CuPy column"
[[ $dry == 1 ]] && export BENCH_SELFTEST=1
for g in $(awk '!seen[$2]++ {print $2}' "$rows"); do
  step "benchmark $g: cunumpy" 120 bash -c '"$1" "$2" 20 "$3" | tee -a "$4"' \
    _ "$bin/cuda_bench_gpu" "$n" "$g" "$res"
  if [[ $have_cupy == 1 ]]; then
    step "benchmark $g: CuPy" 120 bash -c 'python3 "$1" "$2" 20 "$3" | tee -a "$4"' \
      _ "$here/bench_cupy.py" "$n" "$g" "$res"
  elif [[ $dry == 1 ]]; then # sample numbers: CuPy 10% slower than measured
    awk -v g="$g" 'FNR == NR { if ($1 == "ROW" && $2 == g) want[$3 " " $4] = 1; next }
      $1 == "RESULT" && $2 == "cunumpy" && ($3 " " $4) in want {
        printf "RESULT cupy %s %s %.4f %.1f %s\n", $3, $4, $5 * 1.1, $6 / 1.1, $7 }' \
      "$rows" "$res" >>"$res.cupy"
  fi
done
[[ -f $res.cupy ]] && cat "$res.cupy" >>"$res" && rm -f "$res.cupy"
