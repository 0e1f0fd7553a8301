#!/usr/bin/env bash
# Builds Trident (optimized) and runs the main job: every sample kernel on every
# device present, each checked against a float64 reference.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TRIDENT_BUILD_DIR:-$root/build}"

"$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTRIDENT_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "${TRIDENT_JOBS:-2}"
exec "$build/bin/run_samples" --samples-dir "$root/samples" "$@"
