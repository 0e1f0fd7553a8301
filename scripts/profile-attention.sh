#!/usr/bin/env bash
# On the GPU machine, after scripts/device-run.sh has unpacked the bundle: profiles the
# attention forward (samples/attention.py, Z=4 H=32 N=4096) under ncu, Trident's launch
# (trident run) beside Triton's (benchmarks/profile_attention.py), and writes both SASS.
# Usage: scripts/profile-attention.sh OUTDIR [D] [STAGE] [WARPS]
set -uo pipefail
out=$1; D=${2:-64}; STAGE=${3:-1}; W=${4:-4}
B=build-rel
export LD_LIBRARY_PATH=/tmp/deps:$B/lib TRIDENT_CACHE_DIR=/tmp/tc-prof
N=4096; Z=4; H=32; count=$((Z * H * N * D))
S="$((H * N * D)) $((N * D)) $D 1"
args=(--arg random:fp16:$count --arg random:fp16:$count --arg random:fp16:$count --arg fp32:0.5
      --arg zeros:fp32:$((Z * H * N)) --arg zeros:fp16:$count)
for s in $S $S $S $S; do args+=(--arg i32:$s); done
args+=(--arg i32:$Z --arg i32:$H --arg N_CTX=$N --arg HEAD_DIM=$D --arg BLOCK_M=128 --arg BLOCK_N=64 --arg STAGE=$STAGE)
sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis --section SchedulerStats"
ncu --clock-control none -k regex:_attn_fwd -c 1 $sections $B/bin/trident run samples/attention.py --kernel _attn_fwd \
  --grid $((N / 128)),$((Z * H)) --num-warps $W --num-stages 3 --repeat 1 --print 0 "${args[@]}" > "$out/ncu_trident.txt" 2>&1
ncu --clock-control none -k regex:_attn_fwd -c 1 $sections python3 benchmarks/profile_attention.py --dim $D \
  $([ "$STAGE" = 3 ] && echo --causal) --warps $W > "$out/ncu_triton.txt" 2>&1
# SASS: ours from the PTX the CUDA plugin writes, Triton's from its cache.
sig="*fp16:16, *fp16:16, *fp16:16, fp32, *fp32:16, *fp16:16"
for i in 1 2 3 4; do sig+=", i32:16, i32:16, i32:16, 1"; done
sig+=", i32, i32, $N, $D, 128, 64, $STAGE"
$B/bin/trident compile samples/attention.py --kernel _attn_fwd --signature "$sig" --num-warps $W --num-stages 3 \
  --target cuda:sm_90 --emit ptx -o /tmp/attn.ptx && ptxas -arch=sm_90a /tmp/attn.ptx -o /tmp/attn.cubin &&
  cuobjdump -sass /tmp/attn.cubin > "$out/sass_trident.txt"
cubin=$(find ~/.triton/cache -name '_attn_fwd.cubin' | head -1)
[ -n "$cubin" ] && cuobjdump -sass "$cubin" > "$out/sass_triton.txt"
grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Issue Slots Busy|Block Limit" "$out"/ncu_*.txt
