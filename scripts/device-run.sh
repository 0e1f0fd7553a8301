#!/usr/bin/env bash
# Runs on a GPU machine (no LLVM there): unpacks .dev/bundle (scripts/device-bundle.sh),
# runs the GPU tests, the samples, the benchmarks and Triton's reference numbers,
# and writes logs under $OUT. Meant for one call of the project's device tool.
set -uo pipefail
repo="$(pwd)"
out="${OUT:-/tmp/out}"
mkdir -p "$out" /work
[ -e /work/main ] || ln -s "$repo" /work/main   # build-tree RPATHs and test data paths
cd /work/main
zstd -dc .dev/bundle/build.tar.zst | tar -xf -
zstd -dc .dev/bundle/deps.tar.zst | tar -C /tmp -xf -
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export TRIDENT_CACHE_DIR=/tmp/trident-cache
B=/work/main/build-release
t() { LD_LIBRARY_PATH=/tmp/deps "$@"; }   # our programs, with LLVM's libraries
step() { echo; echo "=== $*"; }

nvidia-smi -L
step devices;     t $B/tools/trident/trident devices 2>&1 | tee "$out/devices.txt"
for test in "$@"; do
  step "$test"
  t timeout 300 $B/$test 2>&1 | tail -40 | tee -a "$out/tests.txt"
done
