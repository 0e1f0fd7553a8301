#!/usr/bin/env bash
# Issue 20's numbers in one device call: trident-bench's matmul and attention rows on
# cuda:0, then benchmarks/triton_reference.py (Triton on the same kernel files, cuBLAS,
# torch SDPA) on the same GPU, merged by benchmarks/compare_reference.py into one
# Markdown table (also $OUT/issue20-table.md; the logs and JSON files beside it).
#
# Runs from the repository root on the GPU machine with the bundle of
# scripts/device-bundle.sh in .dev/bundle (and .gl/ for the Vulkan loader), which it
# unpacks as scripts/device-run.sh does unless that bundle is unpacked already.
#   [ONLY=names] [TRIDENT_LIMIT=s] [TRITON_LIMIT=s] scripts/issue20-bench.sh
# ONLY: comma-separated parts of row names ("descriptor,persistent", "x16384x"), for both
# sides (trident-bench --only, triton_reference.py --only).
set -uo pipefail
out="${OUT:-/tmp/out}"
mkdir -p "$out" /work
[ -e /work/main ] || ln -s "$(pwd)" /work/main # build-tree RPATHs and the kernel paths
cd /work/main
B=/work/main/build-rel
stamp=/tmp/trident-bundle.md5
sum=$(md5sum .dev/bundle/build.tar.xz | cut -d' ' -f1) || exit 1
if [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ] || [ ! -x "$B/bin/trident-bench" ]; then
  echo "=== unpacking the bundle ($(date +%T))"
  tar -xJf .dev/bundle/build.tar.xz && tar -C /tmp -xJf .dev/bundle/deps.tar.xz || exit 1
  for f in .gl/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
  ldconfig
  echo "$sum" > "$stamp"
fi
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export TRIDENT_CACHE_DIR=/tmp/trident-cache
export LD_LIBRARY_PATH=/tmp/deps:$B/lib
only=()
[ -n "${ONLY:-}" ] && only=(--only "$ONLY")
nvidia-smi -L

echo "=== trident-bench --kernels dots ($(date +%T))"
timeout "${TRIDENT_LIMIT:-250}" "$B/bin/trident-bench" --device cuda:0 --kernels dots "${only[@]}" \
  --json "$out/issue20-trident.json" > "$out/issue20-trident.log" 2>&1
echo "exit $? (1: a row differs from its reference; 124: out of time)"
grep -E "error|differ|not written" "$out/issue20-trident.log" | head -20

echo "=== triton_reference.py --rows dots ($(date +%T))"
timeout "${TRITON_LIMIT:-300}" python3 benchmarks/triton_reference.py --rows dots "${only[@]}" \
  --json "$out/issue20-triton.json" > "$out/issue20-triton.log" 2>&1
echo "exit $?"
grep -v -E "TFLOP/s|GB/s" "$out/issue20-triton.log" | tail -20 # rows that failed, and why

echo "=== the table ($(date +%T))"
ours="$out/issue20-trident.json"
[ -s "$ours" ] || { ours="$out/issue20-trident.log"; echo "(no JSON from trident-bench: the rows of its log)"; }
if [ -s "$out/issue20-triton.json" ]; then
  python3 benchmarks/compare_reference.py "$ours" "$out/issue20-triton.json" | tee "$out/issue20-table.md"
else
  echo "triton_reference.py wrote no JSON; its last lines and trident-bench's:"
  tail -30 "$out/issue20-triton.log" "$out/issue20-trident.log"
fi
