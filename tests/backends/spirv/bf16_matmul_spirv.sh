#!/bin/sh
# benchmarks/matmul_typed.py on bf16 (f32 results) compiled for the vulkan:nvidia profile
# (no device needed), every autotune config that fits its 48 KiB: the dots run on bf16
# cooperative matrices, so the SPIR-V holds OpCooperativeMatrixMulAddKHR and the bfloat16
# type (OpTypeFloat 16 BFloat16KHR: words 0x00040016, id, 16, 0). The same for the
# generic target (no cooperative matrices) holds neither. `trident compile` validated
# each module in process (docs/vulkan.md: what bookworm's SPIRV-Tools check of it).
# Usage: bf16_matmul_spirv.sh TRIDENT MATMUL_TYPED_PY OUT_DIR
set -e
trident=$1 source=$2 out=$3
mkdir -p "$out"
rm -f "$out"/bf16_*.spv
signature="*bf16:16, *bf16:16, *fp32:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1"
# One word a line; the opcode in the low half word, the instruction's length in the high one.
has_mul_add() { od -An -v -t x4 "$1" | tr -s ' ' '\n' | grep -Eq '^000[5-9a-f]116b$'; }
has_bfloat16() {
  od -An -v -t x4 "$1" | tr -s ' ' '\n' | grep -v '^$' |
    awk 'prev3 == "00040016" && prev1 == "00000010" && $0 == "00000000" { found = 1 }
         { prev3 = prev2; prev2 = prev1; prev1 = $0 } END { exit !found }'
}
for target in vulkan:nvidia vulkan; do
  tag=$(echo "$target" | tr -dc 'a-z')
  "$trident" compile "$source" --kernel matmul_typed_kernel --signature "$signature" \
    --target "$target" --emit spirv -o "$out/bf16_$tag.spv"
  n=0
  for spv in "$out"/bf16_"$tag".config*.spv; do
    [ -f "$spv" ] || continue
    n=$((n + 1))
    if [ "$target" = vulkan:nvidia ]; then
      has_mul_add "$spv" || { echo "FAIL: no OpCooperativeMatrixMulAddKHR in $spv"; exit 1; }
      has_bfloat16 "$spv" || { echo "FAIL: no OpTypeFloat 16 BFloat16KHR in $spv"; exit 1; }
      echo "$target $(basename "$spv"): OpCooperativeMatrixMulAddKHR on OpTypeFloat 16 BFloat16KHR"
    else
      ! has_mul_add "$spv" || { echo "FAIL: cooperative matrices in $spv for $target"; exit 1; }
      ! has_bfloat16 "$spv" || { echo "FAIL: the bfloat16 type in $spv for $target"; exit 1; }
      echo "$target $(basename "$spv"): multiply-adds, no bfloat16 type"
    fi
  done
  [ "$n" -gt 0 ] || { echo "FAIL: no config of matmul_typed compiled for $target"; exit 1; }
done
