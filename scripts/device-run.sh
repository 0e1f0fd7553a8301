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
tar -xJf .dev/bundle/build.tar.xz
tar -C /tmp -xJf .dev/bundle/deps.tar.xz
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export TRIDENT_CACHE_DIR=/tmp/trident-cache
B=/work/main/build-rel
t() { LD_LIBRARY_PATH=/tmp/deps "$@"; }   # our programs, with LLVM's libraries
step() { echo; echo "=== $*"; }

nvidia-smi -L
step devices;     t $B/bin/trident devices 2>&1 | tee "$out/devices.txt"
# Correctness first: the GPU tests of each plugin, then every sample on every device.
for test in tests/backends/cuda_plugin_test tests/backends/cuda_samples_test \
            tests/backends/spirv/backend_vulkan_run_tests tests/runtime/runtime_tests; do
  [ -x "$B/$test" ] || { echo "SKIPPED: $test (not built)"; continue; }
  step "$test"
  t timeout 300 "$B/$test" > "$out/$(basename $test).log" 2>&1; echo "exit $?"
  tail -6 "$out/$(basename $test).log"
done
step run_samples; t timeout 300 $B/bin/run_samples 2>&1 | tee "$out/run_samples.txt" | tail -40
# Performance: Trident's benchmark and Triton's, in the same run on the same GPU.
step cuda_bench;  t timeout 300 $B/tests/backends/cuda_bench "$out/cuda_bench.json" 2>&1 | tee "$out/cuda_bench.txt"
step triton;      timeout 300 python3 benchmarks/triton_reference.py --json "$out/triton.json" 2>&1 | tee "$out/triton.txt"
step launch;      t timeout 120 $B/bin/trident-bench-launch --device cuda:0 2>&1 | tail -5
step "compute-sanitizer memcheck"
t timeout 300 compute-sanitizer --tool memcheck $B/tests/backends/cuda_samples_test > "$out/memcheck.log" 2>&1
tail -3 "$out/memcheck.log"
