#!/usr/bin/env bash
# Usage: run.sh PYTHON SOURCE_DIR SCRATCH_DIR
# scripts/build_wheel.sh (sdist -> wheel from it -> auditwheel repair), then
# checks the repaired wheel's libraries (each once, found through $ORIGIN),
# installs it into a fresh venv and runs tests/wheel_smoke/smoke.py there
# with LD_LIBRARY_PATH empty and, where a mount namespace can be made
# (root), the Debian libraries the source build links masked.
set -euo pipefail
py=$1 src=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
t0=$(date +%s)
PYTHON=$py JOBS=${JOBS:-$(nproc)} bash "$src/scripts/build_wheel.sh" "$scratch/dist"
t1=$(date +%s)
whl=$(ls "$scratch"/dist/wheelhouse/cunumpy-*.whl)
"$py" "$src/tests/wheel_smoke/check_wheel.py" "$whl"

"$py" -m venv "$scratch/venv"
vpy=$scratch/venv/bin/python
"$vpy" -m pip install -q --disable-pip-version-check "$whl" threadpoolctl
site=$("$vpy" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")

# The [ctk] layout, NVIDIA's wheels' folder site-packages/nvidia/cu13/lib,
# made of links to the toolkit's libraries (the wheels are 1 GB): the
# plugin must find them there first, through its RUNPATH.
cuda_re='^lib(nvrtc|cublas|cublasLt|cusolver|cufft|cusparse|curand|nvJitLink)\.so'
nv=""
if [ -e "$site/cunumpy/libcunumpy_cuda.so" ]; then
  nv=$site/nvidia/cu13/lib
  mkdir -p "$nv"
  for lib in $(readelf -d "$site/cunumpy/libcunumpy_cuda.so" |
               sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -E "$cuda_re"); do
    # no early exit in awk: ldconfig would die of SIGPIPE, and pipefail
    # would end the script without a word
    real=$(ldconfig -p | awk -v l="$lib" '$1 == l && !n++ {print $NF}')
    [ -n "$real" ] || real=$(ls "${CUDA_HOME:-/usr/local/cuda}/lib64/$lib" 2>/dev/null || true)
    [ -n "$real" ] || { echo "toolkit library $lib not found" >&2; exit 1; }
    ln -sf "$real" "$nv/$lib"
  done
fi

# Everything the wheel's libraries load resolves inside the wheel or the
# scipy-openblas32 package, or is a
# library of the manylinux allow-list (glibc, libstdc++, libgcc_s), or is
# a CUDA library: those the plugin links must come from $nv.
allowed='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
bad=0
for so in "$site"/cunumpy/*.so* "$site"/cunumpy.libs/*; do
  while read -r name arrow path _; do
    [ "$arrow" = "=>" ] || continue
    if [ "$path" = "not" ]; then
      echo "$(basename "$so"): $name not found" >&2; bad=1; continue
    fi
    case $path in "$site"/cunumpy* | "$site"/scipy_openblas32/*) continue ;; esac
    if [[ $name =~ $cuda_re ]]; then
      # the plugin's own: from $nv; the CUDA libraries' deps: theirs
      if [ -n "$nv" ] && [ -e "$nv/$name" ]; then
        case $path in "$nv"/*) continue ;; esac
        echo "$(basename "$so"): $name => $path, not from $nv" >&2; bad=1
      fi
      continue
    fi
    [[ $name =~ $allowed ]] && continue
    echo "$(basename "$so"): $name => $path is outside the wheel" >&2; bad=1
  done < <(LD_LIBRARY_PATH= ldd "$so")
done
[ $bad -eq 0 ] || exit 1
echo "ldd: every library of the wheel resolves inside it or to the allow-list"

# The Debian libraries the source build links (FFTW, SLEEF, Highway,
# OpenBLAS, LAPACK(E), gfortran, OpenMP, SuiteSparse), masked by empty
# files in a private mount namespace for the smoke run.
masked=()
while read -r path; do
  masked+=("$(readlink -f "$path")")
done < <(ldconfig -p | awk '$NF ~ /^\/(usr\/)?lib/ && $1 ~ /^lib(fftw3|sleef|hwy|openblas|blas|lapack|gfortran|gomp|umfpack|cholmod|amd|camd|colamd|ccolamd|suitesparse)/ {print $NF}')
run_smoke=(env -i PATH=/usr/bin:/bin HOME="$scratch" LD_LIBRARY_PATH= \
           OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$vpy" \
           "$src/tests/wheel_smoke/smoke.py" "$site" "${nv:+$nv}")
cd "$scratch"
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
  printf '%s\n' "${masked[@]}" | sort -u > "$scratch/masked.txt"
  echo "masking $(wc -l < "$scratch/masked.txt") Debian library files"
  # shellcheck disable=SC2016
  unshare -m bash -c 'list=$0 vpy=$1; shift
    while read -r f; do mount --bind /dev/null "$f"; done < "$list"
    if "$vpy" -c "import ctypes, sys; ctypes.CDLL(sys.argv[1])" "$(head -1 "$list")" 2>/dev/null; then
      echo "masking failed: $(head -1 "$list") still loads" >&2; exit 1
    fi
    exec "$@"' "$scratch/masked.txt" "$vpy" "${run_smoke[@]}"
else
  echo "no mount namespace here: Debian libraries visible (ldd above checked)"
  "${run_smoke[@]}"
fi
t2=$(date +%s)
echo "wheel build (sdist, wheel, repair): $((t1 - t0)) s; checks and smoke: $((t2 - t1)) s"
