#!/usr/bin/env bash
# Packs a Release build of Trident, with the LLVM shared library and the few
# libraries it needs that a CUDA machine image may lack, into .dev/bundle/ so a
# GPU machine without LLVM can run it (see scripts/device-run.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-release"
out="$root/.dev/bundle"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTRIDENT_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j 2
rm -rf "$out" && mkdir -p "$out"
stage="$(mktemp -d)"
cmake --install "$build" --prefix "$stage/trident" >/dev/null
# Test and benchmark programs are not installed: take them from the build tree.
mkdir -p "$stage/trident/test"
find "$build" -maxdepth 3 -type f -executable \( -name '*_tests' -o -name 'run_samples' -o -name 'trident-bench*' \) \
  -exec cp {} "$stage/trident/test/" \;
mkdir -p "$stage/trident/lib/deps"
for lib in libLLVM.so.19.1 libz3.so.4 libedit.so.2 libffi.so.8 libbsd.so.0 libmd.so.0; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$stage/trident/lib/deps/"
done
tar -C "$stage" -cf - trident | zstd -q -T2 -15 -o "$out/trident.tar.zst"
rm -rf "$stage"
cp -r "$root/samples" "$out/samples" 2>/dev/null || true
du -sh "$out"
