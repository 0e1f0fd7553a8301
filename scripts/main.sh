#!/usr/bin/env bash
# Builds Trident (optimized) and runs the main job: every sample kernel on every
# device present, each checked against a float64 reference.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TRIDENT_BUILD_DIR:-$root/build}"

"$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "${TRIDENT_JOBS:-2}"
if [ -x "$build/samples/run_samples" ]; then
  exec "$build/samples/run_samples" "$root/samples" "$@"
fi
echo "run_samples was not built" >&2
exit 1
