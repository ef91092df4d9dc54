#!/usr/bin/env bash
# Builds the CUDA backend here (a machine with the CUDA toolkit but maybe no
# GPU) and packs what tests/gpu/run.sh needs into .gpu-carry/bundle.tar.xz:
# libcunumpy + the plugin, the GPU test and benchmark programs, the Python
# package with its SWIG-generated C wrapper (compiled on the GPU machine for
# its own Python), and the Debian runtime libraries (OpenBLAS, LAPACKE, FFTW,
# SLEEF, gfortran) that a bare CUDA image lacks; not the CUDA libraries
# (hundreds of MiB): the bundle's NOTES list those the plugin needs
# (readelf), which the GPU machine must provide (toolkit or pip wheels;
# run.sh finds them). The bundle must stay under 64 MiB. Then, on the GPU
# machine:
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
# What the GPU machine must provide: the plugin's CUDA libraries and theirs.
plugin="$build/lib/libcunumpy_cuda.so"
cuda_re='^lib(cu(blas|solver|sparse|fft|rand|dart)|nv)'
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
{
  echo "Built $(date -u +%F) from $(git rev-parse --short HEAD 2>/dev/null)" \
    "with nvcc $(nvcc --version | tail -1)."
  echo "The GPU machine must provide (CUDA toolkit lib64 or the pip wheels"
  echo "nvidia-cuda-nvrtc, nvidia-cublas, nvidia-cusolver, nvidia-cusparse,"
  echo "nvidia-nvjitlink, nvidia-cufft; tests/gpu/run.sh finds them):"
  echo "  libcunumpy_cuda.so needs: $(needed "$plugin" | grep -E "$cuda_re" | paste -sd' ' || true)"
  LD_LIBRARY_PATH="$build/lib" ldd "$plugin" | awk -v re="$cuda_re" '$1 ~ re && $3 ~ /^\// {print $1, $3}' |
    while read -r soname path; do
      more=$(needed "$path" | grep -E "$cuda_re" | paste -sd' ' || true)
      echo "  $soname needs: ${more:-no other CUDA library}"
    done
  echo "  and, loaded by NVRTC at run time, libnvrtc-builtins.so beside libnvrtc"
} >"$stage/NOTES"
cat "$stage/NOTES"
mkdir -p .gpu-carry
# ignored by git from inside (no repository metadata touched, any checkout)
echo '*' >.gpu-carry/.gitignore
tar -C "$stage" -cJf .gpu-carry/bundle.tar.xz .
ls -la .gpu-carry/bundle.tar.xz
size=$(stat -c %s .gpu-carry/bundle.tar.xz)
if ((size >= 64 * 1024 * 1024)); then
  echo "bundle.sh: the bundle is $size bytes, over the 64 MiB that can travel" >&2
  exit 1
fi
