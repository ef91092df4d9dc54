#!/usr/bin/env bash
# Builds the CUDA backend here (a machine with the CUDA toolkit but maybe no
# GPU) and packs what tests/gpu/run.sh needs into .gpu-carry/bundle.tar.xz:
# libcunumpy + the plugin, the GPU test and benchmark programs, the Python
# package with its SWIG-generated C wrapper (compiled on the GPU machine for
# its own Python), and the Debian runtime libraries (OpenBLAS, LAPACKE, FFTW,
# SLEEF, gfortran) that a bare CUDA image lacks. Then, on the GPU machine:
#   GPU_BUNDLE=.gpu-carry/bundle.tar.xz bash tests/gpu/run.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
build=${GPU_BUILD_DIR:-build-gpu}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUNUMPY_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCUNUMPY_FORTRAN=OFF \
  -DCUNUMPY_BENCHMARKS=OFF -DCUNUMPY_PYTHON=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target cunumpy cunumpy_cuda test_cuda \
  cuda_plugin_probe cuda_gpu_check cuda_bench_gpu cunumpy_python
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{lib,deps,bin,python/cunumpy}
cp -a "$build"/lib/libcunumpy*.so* "$stage/lib/"
for t in test_cuda cuda_plugin_probe cuda_gpu_check cuda_bench_gpu; do
  cp "$build/tests/$t" "$stage/bin/"
done
cp "$build"/python/cunumpy/*.py "$stage/python/cunumpy/"
cp "$build/bindings/python/cn_wrap.c" "$stage/"
cp -r include "$stage/" # the wrapper's includes
mkdir -p "$stage/core" && cp core/*.h core/ops.def "$stage/core/"
# Every non-glibc library libcunumpy needs, under the soname it is asked by.
ldd "$build/lib/libcunumpy.so" | awk '/=> \// {print $1, $3}' |
  while read -r soname path; do
    case $soname in libc.so*|libm.so*|libpthread*|librt*|libdl*|ld-linux*) continue ;; esac
    cp -L "$path" "$stage/deps/$soname"
  done
mkdir -p .gpu-carry
grep -qx '/.gpu-carry/' .git/info/exclude 2>/dev/null ||
  echo '/.gpu-carry/' >>.git/info/exclude
tar -C "$stage" -cJf .gpu-carry/bundle.tar.xz .
ls -la .gpu-carry/bundle.tar.xz
