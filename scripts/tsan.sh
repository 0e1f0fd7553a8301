#!/usr/bin/env bash
# Builds what the concurrency stress test needs under ThreadSanitizer (the runtime,
# the frontend and core libraries, the host and Vulkan plugins; no LLVM backends) in
# build-tsan, then runs tests/runtime/stress_main.cpp on host:0 and vulkan:0 (lavapipe).
# Not part of CI's default run: a TSan build of these libraries takes a while on two cores.
# Usage: scripts/tsan.sh [runtime_stress arguments, e.g. --threads 8 --rounds 20]
# TRIDENT_TSAN_CUDA=1: also the LLVM-based backends and the CUDA plugin (build-tsan-cuda,
# Release with line tables), for a GPU machine: `--devices host:0,cuda:0` there (libLLVM and
# libcuda are not instrumented; what TSan sees is Trident's own code around them).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cuda="${TRIDENT_TSAN_CUDA:-0}"
if [ "$cuda" = 1 ]; then
  build="${TRIDENT_TSAN_BUILD_DIR:-$root/build-tsan-cuda}"
  config=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-g1 -DCMAKE_CXX_FLAGS=-g1)
  targets=(runtime_stress trident_plugin_host trident_plugin_cuda)
else
  build="${TRIDENT_TSAN_BUILD_DIR:-$root/build-tsan}"
  config=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRIDENT_ENABLE_LLVM=OFF)
  targets=(runtime_stress trident_plugin_host trident_plugin_vulkan)
fi

"$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DTRIDENT_TSAN=ON "${config[@]}" -DTRIDENT_WERROR=OFF >/dev/null
nice -n 10 cmake --build "$build" -j "${TRIDENT_JOBS:-2}" --target "${targets[@]}"
# The suppressions name only frames of the Vulkan driver (lavapipe) and its loader,
# which are not built with TSan; each line says why.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1 suppressions=$root/tests/runtime/tsan.supp}"
exec "$build/tests/runtime/runtime_stress" "$@"
