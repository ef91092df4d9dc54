#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and builds consumers
# against it: C with find_package(cunumpy CONFIG) and with pkg-config and,
# when the build has the Fortran binding, Fortran with
# find_package(cunumpy CONFIG COMPONENTS fortran) and with pkg-config's
# cunumpy-fortran. No LD_LIBRARY_PATH: CMake records the prefix's library
# directory in the programs (RUNPATH), pkg-config's `rpath` variable does
# the same, and libcunumpy_fortran finds libcunumpy beside itself.
set -euo pipefail
build=$1
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LD_LIBRARY_PATH
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(find "$tmp/prefix" -name 'libcunumpy.so' -printf '%h\n' | head -n1)
cmake -S "$src" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/b" >/dev/null
"$tmp/b/consumer"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc -o "$tmp/consumer_pc" "$src/main.c" $(pkg-config --cflags --libs cunumpy) \
  $(pkg-config --variable=rpath cunumpy)
"$tmp/consumer_pc"
if [ -f "$libdir/cmake/cunumpy/cunumpyFortranTargets.cmake" ]; then
  # the library's own RUNPATH reaches libcunumpy
  readelf -d "$libdir/libcunumpy_fortran.so" | grep -q 'RUNPATH.*\$ORIGIN'
  cmake -S "$src/fortran" -B "$tmp/bf" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
  cmake --build "$tmp/bf" >/dev/null
  "$tmp/bf/consumer_f90"
  gfortran -o "$tmp/consumer_f90_pc" "$src/fortran/main.f90" \
    $(pkg-config --cflags --libs cunumpy-fortran) \
    $(pkg-config --variable=rpath cunumpy-fortran)
  "$tmp/consumer_f90_pc"
fi
