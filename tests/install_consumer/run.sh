#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and builds the consumer
# against it twice: with find_package(cunumpy CONFIG) and with pkg-config.
set -euo pipefail
build=$1
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(find "$tmp/prefix" -name 'libcunumpy.so' -printf '%h\n' | head -n1)
cmake -S "$src" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/b" >/dev/null
LD_LIBRARY_PATH="$libdir" "$tmp/b/consumer"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc -o "$tmp/consumer_pc" "$src/main.c" $(pkg-config --cflags --libs cunumpy)
LD_LIBRARY_PATH="$libdir" "$tmp/consumer_pc"
