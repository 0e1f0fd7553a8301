#!/bin/sh
# samples/matmul.py compiled for the vulkan:nvidia profile (no device needed) runs its
# dots on cooperative matrices: the SPIR-V holds OpCooperativeMatrixMulAddKHR and its
# loads; with the profile's known layouts the result is read by its components (no
# OpCooperativeMatrixStoreKHR), under TRIDENT_VULKAN_COOP_LAYOUTS=off it is stored to
# shared memory (OpCooperativeMatrixStoreKHR); spirv-val accepts both for Vulkan 1.3. spirv-val older than
# SPV_KHR_cooperative_matrix (SPIRV-Tools 2023.1, Debian bookworm's) cannot read the
# module: then the test says so, and rests on the validation `trident compile` did in
# process (the module with its cooperative matrices in SPV_NV_cooperative_matrix form).
# Usage: coop_matmul_spirv.sh TRIDENT MATMUL_PY OUT_DIR
set -e
trident=$1 sample=$2 out=$3
mkdir -p "$out"
for layouts in on off; do
for config in "128, 128, 32, 8, ''" "64, 256, 32, 8, 'leaky_relu'" "64, 64, 32, 8, ''"; do
  spv="$out/matmul_$(echo "$config" | tr -dc '0-9')_$layouts.spv"
  TRIDENT_VULKAN_COOP_LAYOUTS=$layouts "$trident" compile "$sample" --kernel matmul_kernel \
    --signature "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1, $config" \
    --target vulkan:nvidia --emit spirv -o "$spv"
  words=$(od -An -v -t x4 "$spv")
  # Opcode in the low half word, the instruction's length in the high one.
  for op in 116b:OpCooperativeMatrixMulAddKHR 1169:OpCooperativeMatrixLoadKHR 116a:OpCooperativeMatrixStoreKHR; do
    found=yes
    echo "$words" | grep -Eq "000[5-9a-f]${op%%:*}" || found=no
    want=yes
    [ "$layouts" = on ] && [ "${op#*:}" = OpCooperativeMatrixStoreKHR ] && want=no
    if [ $found != $want ]; then
      echo "FAIL: ${op#*:} $( [ $want = yes ] && echo missing from || echo in) the vulkan:nvidia SPIR-V of matmul ($config, known layouts $layouts)"
      exit 1
    fi
  done
  echo "vulkan:nvidia matmul ($config, known layouts $layouts): OpCooperativeMatrixMulAddKHR and LoadKHR present, StoreKHR $( [ $layouts = on ] && echo absent || echo present)"
  if ! command -v spirv-val >/dev/null; then
    echo "NOTE: spirv-val is not installed; validated in process only"
    continue
  fi
  if msg=$(spirv-val --target-env vulkan1.3 "$spv" 2>&1); then
    echo "spirv-val --target-env vulkan1.3: valid"
  elif echo "$msg" | grep -Eq "Invalid (capability operand|opcode): (6022|445[6-9]|4460)"; then
    echo "NOTE: $(spirv-val --version | head -1) predates SPV_KHR_cooperative_matrix ($msg);" \
         "trident compile validated the module in process with its cooperative matrices in NV form"
  else
    echo "FAIL: spirv-val --target-env vulkan1.3: $msg"
    exit 1
  fi
done
done
