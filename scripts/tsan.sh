#!/usr/bin/env bash
# Builds what the concurrency stress test needs under ThreadSanitizer (the runtime,
# the frontend and core libraries, the host and Vulkan plugins; no LLVM backends) in
# build-tsan, then runs tests/runtime/stress_main.cpp on host:0 and vulkan:0 (lavapipe).
# Not part of CI's default run: a TSan build of these libraries takes a while on two cores.
# Usage: scripts/tsan.sh [runtime_stress arguments, e.g. --threads 8 --rounds 20]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TRIDENT_TSAN_BUILD_DIR:-$root/build-tsan}"

"$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRIDENT_TSAN=ON \
  -DTRIDENT_ENABLE_LLVM=OFF -DTRIDENT_WERROR=OFF >/dev/null
nice -n 10 cmake --build "$build" -j "${TRIDENT_JOBS:-2}" --target runtime_stress trident_plugin_host \
  trident_plugin_vulkan
# The suppressions name only frames of the Vulkan driver (lavapipe) and its loader,
# which are not built with TSan; each line says why.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1 suppressions=$root/tests/runtime/tsan.supp}"
exec "$build/tests/runtime/runtime_stress" "$@"
