#!/usr/bin/env bash
# Compiles every sample kernel (samples/*.py) for cuda:sm_80, cuda:sm_90, vulkan and
# hip:gfx942 and writes what each target emits (thread IR, PTX, SPIR-V assembly,
# AMDGCN assembly) to OUTDIR, one file per kernel and target: run it before and
# after a change of the compiler's structure and `diff -r` the two folders.
# Usage: scripts/sample-artifacts.sh BUILD_DIR OUTDIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "$1" && pwd)"
out="$2"
mkdir -p "$out"
trident="$build/bin/trident"
export TRIDENT_CACHE=0
# file|kernel|signature, as tests/backends/samples_test.cpp launches them.
kernels=(
  "vector_add.py|add_kernel|*fp32:16, *fp32:16, *fp32:16, i32:16, 1024"
  "fused_softmax.py|softmax_kernel|*fp32:16, *fp32:16, i32:16, i32:16, i32, i32, 1024, 2"
  "layer_norm.py|_layer_norm_fwd_fused|*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, fp32, 1024"
  "layer_norm.py|_layer_norm_bwd_dx_fused|*fp16:16, *fp16:16, *fp32:16, *fp32:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *i32:16, i32:16, i32:16, 64, 1024"
  "layer_norm.py|_layer_norm_bwd_dwdb|*fp32:16, *fp32:16, *fp16:16, *fp16:16, i32, i32:16, 32, 128"
  "matmul.py|matmul_kernel|*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1, 64, 64, 32, 8, ''"
  "dropout.py|_seeded_dropout|*fp32:16, *fp32:16, i32:16, fp32, i32, 1024"
  "reduce_custom.py|row_absmax_kernel|*fp32:16, *fp32:16, *i32:16, i32, i32:16, 1024"
  "reduce_custom.py|column_product_kernel|*fp32:16, *fp32:16, i32, i32, 16, 64"
  "scan.py|running_sum_kernel|*fp32:16, *fp32:16, i32, 1024"
  "scan.py|linear_recurrence_kernel|*fp32:16, *fp32:16, *fp32:16, i32, 8, 128"
  "attention.py|_attn_fwd|*fp16:16, *fp16:16, *fp16:16, fp32, *fp32:16, *fp16:16, i32:16, i32:16, i32:16, 1, i32:16, i32:16, i32:16, 1, i32:16, i32:16, i32:16, 1, i32:16, i32:16, i32:16, 1, i32, i32, i32:16, 64, 64, 32, 3"
)
targets=("cuda:sm_80|ptx" "cuda:sm_90|ptx" "vulkan|spirv-asm" "hip:gfx942|amdgcn"
         "cuda:sm_80|thread-ir" "cuda:sm_90|thread-ir" "vulkan|thread-ir" "hip:gfx942|thread-ir")
status=0
for k in "${kernels[@]}"; do
  IFS='|' read -r file kernel signature <<<"$k"
  "$trident" compile "$root/samples/$file" --kernel "$kernel" --signature "$signature" \
    --emit block-ir -o "$out/$kernel.block.tir" 2>/dev/null
  for t in "${targets[@]}"; do
    IFS='|' read -r target emit <<<"$t"
    name="$out/$kernel.${target//:/_}.$emit"
    if ! "$trident" compile "$out/$kernel.block.tir" --kernel "$kernel" --target "$target" --emit "$emit" \
        -o "$name" 2>"$name.err"; then
      echo "failed: $kernel $target $emit: $(tail -1 "$name.err")"
      status=1
    fi
    rm -f "$name.err"
  done
done
exit $status
