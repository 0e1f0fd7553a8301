#!/usr/bin/env bash
# Runs on a GPU machine (no LLVM there): unpacks .dev/bundle (scripts/device-bundle.sh),
# runs the GPU tests, the samples, the benchmarks and Triton's reference numbers,
# and writes logs under $OUT. Meant for one call of the project's device tool; every
# step has its own time limit so that one hang cannot eat the call.
# Usage: [STEPS="name ..."] scripts/device-run.sh [--quick]   (--quick: fewer random seeds, no racecheck)
set -uo pipefail
repo="$(pwd)"
out="${OUT:-/tmp/out}"
quick=0; [ "${1:-}" = --quick ] && quick=1
mkdir -p "$out" /work
[ -e /work/main ] || ln -s "$repo" /work/main   # build-tree RPATHs and test data paths
cd /work/main
tar -xJf .dev/bundle/build.tar.xz
tar -C /tmp -xJf .dev/bundle/deps.tar.xz
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export TRIDENT_CACHE_DIR=/tmp/trident-cache
B=/work/main/build-rel
export LD_LIBRARY_PATH=/tmp/deps:$B/lib
step() { echo; echo "=== $* ($(date +%T))"; }
# run NAME LIMIT COMMAND...: logs to $out/NAME.log, prints the exit status and the tail.
run() {
  local name=$1 limit=$2; shift 2
  [ -z "${STEPS:-}" ] || [[ " $STEPS " == *" $name "* ]] || return 0   # STEPS="a b": only these
  local prog=$1 a
  for a in "$@"; do case $a in "$B"/*) prog=$a; break;; esac; done   # our program, behind env or a tool
  if [ ! -x "$prog" ]; then echo "SKIPPED: $name ($prog not built)"; return; fi
  step "$name"
  timeout "$limit" "$@" > "$out/$name.log" 2>&1
  echo "exit $?"; tail -${TAIL:-8} "$out/$name.log"
}

nvidia-smi -L
step devices; $B/bin/trident devices 2>&1 | tee "$out/devices.txt"

# Steps run most important first: the call's own limit may cut the tail.
# 1. Correctness: each plugin's GPU tests and every sample on every device.
run cuda_plugin_test 30 $B/tests/backends/cuda_plugin_test
run cuda_samples_test 60 $B/tests/backends/cuda_samples_test
# The bundle's sm_90 PTX through the compiler-less runtime and its compiler-less CUDA
# plugin (nocompiler/lib/trident/plugins, found beside that runtime): no LLVM in the path.
run bundle_nocompiler_cuda 30 env TRIDENT_CACHE=0 $B/tests/package/consumer_nocompiler \
  $B/tests/package/vector_add.tbundle cuda:0
run bundle_header_cuda 30 env TRIDENT_CACHE=0 $B/tests/package/bundle_header_test cuda:0
run backend_vulkan_run_tests 60 $B/tests/backends/spirv/backend_vulkan_run_tests
# 240 s: on vulkan:0 the matmul sample autotunes (each config compiled cold) and needed more than 120 s.
TAIL=30 run run_samples 240 $B/bin/run_samples --samples-dir samples
TAIL=14 run run_samples_cubin 180 env TRIDENT_CUDA_CUBIN=1 TRIDENT_CACHE=0 $B/bin/run_samples --device cuda:0 --samples-dir samples
TAIL=30 run multi_device 60 $B/bin/multi_device --devices cuda:0,vulkan:0
# tt.device_print with cache hints on cuda:0 (vprintf; the hinted ld/st go through ptxas in the driver).
cat > /tmp/print_kernel.py <<'PY'
import triton
import triton.language as tl

@triton.jit
def print_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, cache_modifier=".cg", eviction_policy="evict_last")
    tl.device_print("x=", x)
    tl.store(x_ptr + offs, x + 1, mask=mask, cache_modifier=".cs")
PY
TAIL=6 run debug_print 60 $B/bin/trident run /tmp/print_kernel.py --kernel print_kernel --grid 1 --arg arange:fp32:8 \
  --arg 8 --arg BLOCK=8 --device cuda:0

# 2. Performance: Trident's benchmark (cuda:0 and vulkan:0) and Triton's, same run, same GPU.
# The dot rows (matmul, attention) autotune and compile cold: about a minute of the 300 s.
TAIL=40 run trident_bench 300 $B/bin/trident-bench --json "$out/trident_bench.json"
if [ -z "${STEPS:-}" ] || [[ " $STEPS " == *" triton "* ]]; then
  step triton; timeout 200 python3 benchmarks/triton_reference.py --json "$out/triton.json" > "$out/triton.log" 2>&1
  tail -30 "$out/triton.log"
fi
# The memory-bound rows on cuda:0 at 4, 8 and 16 warps each, with every compile's stage times.
TAIL=60 run cuda_bench 90 env TRIDENT_TIME_STAGES=1 $B/bin/trident-bench --device cuda:0 --kernels memory \
  --warps 4,8,16 --json "$out/cuda_bench.json"
run launch_cuda 20 $B/bin/trident-bench-launch --device cuda:0

# 3. Random kernels, several devices, sanitizers.
run cuda_random_test 60 $B/tests/e2e/trident-randtest --first 1 --seeds $((quick ? 50 : 200)) --device cuda:0 --quiet
run randtest_cuda 50 $B/tests/e2e/trident-randtest --seeds $((quick ? 30 : 100)) --device cuda:0 --quiet
run randtest_vulkan 50 $B/tests/e2e/trident-randtest --seeds $((quick ? 30 : 100)) --device vulkan:0 --quiet
run multi_device_tests 40 $B/tests/runtime/runtime_multi_device_tests --needs cuda,vulkan -tc='cuda+vulkan*'
run cuda_oom 20 $B/tests/runtime/runtime_multi_device_tests --needs cuda -tc='cuda-oom*'
run memcheck 90 compute-sanitizer --tool memcheck $B/tests/backends/cuda_samples_test
[ $quick = 1 ] || run racecheck 90 compute-sanitizer --tool racecheck $B/tests/backends/cuda_samples_test
# The samples (tensor-core matmul and attention with cp.async rings among them) under the
# two checkers left: barrier misuse and reads of uninitialized device memory.
run synccheck 90 compute-sanitizer --tool synccheck --error-exitcode 9 $B/tests/backends/cuda_samples_test
run initcheck 90 compute-sanitizer --tool initcheck --error-exitcode 9 $B/tests/backends/cuda_samples_test
echo; echo "=== done ($(date +%T))"
# One file: the device tool returns only a few. The separate logs go, so the archive comes back.
tar -C "$out" -cJf /tmp/logs.tar.xz . && find "$out" -type f -delete && mv /tmp/logs.tar.xz "$out/logs.tar.xz"
