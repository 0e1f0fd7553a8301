#!/usr/bin/env bash
# Packs a Release build tree of Trident (programs and shared libraries only, in
# their build-tree places, so RPATHs and the relative plugin lookup still work)
# and the libraries LLVM needs that a CUDA machine image may lack, into
# .dev/bundle/, for scripts/device-run.sh on a GPU machine without LLVM.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# TRIDENT_BUNDLE_BUILD: another Release tree to pack (it is unpacked as build-rel all the same).
build="${TRIDENT_BUNDLE_BUILD:-$root/build-rel}"
name="$(basename "$build")"
out="$root/.dev/bundle"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j 2
rm -rf "$out" && mkdir -p "$out/deps"
# Tests that need no GPU stay behind (they run in CI): the call's tree must stay under 64 MiB.
host_only=(sim_samples_tests e2e_random_tests trident-translate trident-fuzz-replay dot_mma_tests
           backend_spirv_tests backend_amdgpu_tests frontend_tests frontend_corpus_replay
           backend_samples_tests backend_nvptx_tests backend_op_coverage_tests
           'core_*_tests')
skip=(); for n in "${host_only[@]}"; do skip+=(! -name "$n"); done
(cd "$(dirname "$build")" && find "$name" \( -type f -perm -u+x -o -name '*.so*' -o -name '*.tbundle' \) \
   ! -path '*/CMakeFiles/*' ! -name '*.o' ! -name '*.a' "${skip[@]}" -print0 |
   tar --null --transform "s,^$name,build-rel," -cf - -T - | xz -T2 -6 > "$out/build.tar.xz")
for lib in libLLVM.so.19.1 libz3.so.4 libedit.so.2 libffi.so.8 libbsd.so.0 libmd.so.0; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$out/deps/"
done
(cd "$out" && tar -cf - deps | xz -T2 -6 > deps.tar.xz && rm -rf deps)
du -sh "$out"/*
