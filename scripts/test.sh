#!/usr/bin/env bash
# Builds Trident with warnings as errors and ASan+UBSan, then runs every test.
# Usage: scripts/test.sh [extra ctest arguments]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TRIDENT_TEST_BUILD_DIR:-$root/build-test}"

"$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DTRIDENT_WERROR=ON -DTRIDENT_SANITIZE=ON >/dev/null
cmake --build "$build" -j "${TRIDENT_JOBS:-2}"
# Leak checking is off: tests load Vulkan drivers (lavapipe) and libLLVM, which keep
# allocations until exit. Use-after-free, overflows and undefined behaviour still abort.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The Vulkan plugin runs under Khronos' validation layer: a misuse of Vulkan aborts the
# test that made it (plugins/vulkan/VulkanValidation.cpp).
export TRIDENT_VULKAN_VALIDATE="${TRIDENT_VULKAN_VALIDATE:-1}"
cd "$build"
ctest --output-on-failure --timeout 900 -j "${TRIDENT_JOBS:-2}" "$@"
