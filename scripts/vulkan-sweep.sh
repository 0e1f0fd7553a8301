#!/usr/bin/env bash
# The cooperative-matrix matmul (and attention, HEAD_DIM 64 and 128 on 4 and 8 warps) on
# vulkan:0 under the defaults and the other settings of the Vulkan lowering's knobs (docs/vulkan.md, "Cooperative matrices"): one line per variant
# and config with the time, TFLOP/s, the driver's registers / spill bytes / binary size
# (TRIDENT_VULKAN_STATS) and the check against float64. Run from the repository root with
# a Release tree in build-rel (the environment set up for the device: LD_LIBRARY_PATH,
# VK_DRIVER_FILES). Each run compiles cold (TRIDENT_CACHE=off); about 2-5 s per line, 27 lines.
#
#   scripts/vulkan-sweep.sh [DEVICE]        (default vulkan:0; SWEEP_SIZE=4096, SWEEP_REPEATS=10)
set -u
dev=${1:-vulkan:0}
size=${SWEEP_SIZE:-4096}
repeats=${SWEEP_REPEATS:-10}
bin=build-rel/bin/trident-bench-dot
[ -x "$bin" ] || { echo "no $bin: ninja -C build-rel trident-bench-dot"; exit 1; }
start=$(date +%s)

# variant  env...  |  kind and arguments
run() {
  local name=$1 envs=$2; shift 2
  local out stats regs bin_size local_mem spill line
  out=$(env TRIDENT_CACHE=off TRIDENT_VULKAN_STATS=1 $envs timeout 60 "$bin" --device "$dev" --repeats "$repeats" "$@" 2>&1)
  stats=$(grep -m1 "kernel '\(matmul_kernel\|_attn_fwd\)'" <<<"$out")
  regs=$(sed -n 's/.*Register Count=\([0-9]*\).*/\1/p' <<<"$stats")
  bin_size=$(sed -n 's/.*Binary Size=\([0-9]*\).*/\1/p' <<<"$stats")
  local_mem=$(sed -n 's/.*Local Memory Size=\([0-9]*\).*/\1/p' <<<"$stats")
  # NVIDIA prints 2^36 + the spill bytes.
  spill=$([ -n "$local_mem" ] && echo $((local_mem >= 68719476736 ? local_mem - 68719476736 : local_mem)) || echo "?")
  line=$(grep -m1 "^matmul\|^attention\|^error" <<<"$out")
  printf '%-22s regs=%-4s spill=%-6s bin=%-7s %s\n' "$name" "${regs:-?}" "$spill" "${bin_size:-?}" "${line:-$(tail -n1 <<<"$out")}"
}

# The matmul sample's configs that fit 48 KiB on vulkan:nvidia (BM BN BK GROUP WARPS STAGES),
# under the defaults (auto prefetch: late up to 128 bytes of tiles a thread, else off; B
# loaded lazily) beside late and off forced (TRIDENT_VULKAN_COOP_ORDER=eager: the old order).
configs=("128 128 32 8 4 4" "128 256 64 8 8 3" "64 256 32 8 4 4" "64 64 32 8 2 5")
for variant in "default|" "late|TRIDENT_VULKAN_PREFETCH=late" "off|TRIDENT_VULKAN_PREFETCH=off"; do
  name=${variant%%|*}; envs=${variant#*|}
  for c in "${configs[@]}"; do
    run "$name" "$envs" matmul "$size" $c
  done
done
run default "" matmul 8192 128 128 32 8 4 4
# bf16 inputs (bf16 cooperative matrices where the device has VK_KHR_shader_bfloat16).
for c in "${configs[@]}"; do
  run bf16 "" --bf16 matmul "$size" $c
done
# The shared arrays: 128x256x64 as before (unpadded rows, not tiles), 128x128x32 tiled.
run padded TRIDENT_VULKAN_COOP_SHARED=padded matmul "$size" 128 256 64 8 8 3
run tiled TRIDENT_VULKAN_COOP_SHARED=tiled matmul "$size" 128 128 32 8 4 4
# Attention (two dots: the default is off; early is the scheme late gave them before),
# HEAD_DIM 64 and 128 on 4 and 8 warps.
for variant in "default|" "early|TRIDENT_VULKAN_PREFETCH=early"; do
  for d in 64 128; do
    for w in 4 8; do
      run "${variant%%|*}" "${variant#*|}" attention 4 32 4096 $d $w
    done
  done
done
echo "sweep: $(( $(date +%s) - start )) s"
