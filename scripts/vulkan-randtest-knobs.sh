#!/usr/bin/env bash
# One trident-randtest seed on vulkan:0 under every setting of the Vulkan lowering's knobs
# (docs/vulkan.md): TRIDENT_VULKAN_PREFETCH x TRIDENT_VULKAN_COOP_ORDER, and the loop
# counters left as they are (TRIDENT_VULKAN_LOOP_REBASE=off), a line each; then the
# simulator's run of the same seed. Fresh compiles (TRIDENT_CACHE=off). Run from the
# repository root with a Release tree in build-rel.
#
#   scripts/vulkan-randtest-knobs.sh SEED [DEVICE] [randtest options]   (default: --dot-weight 8)
set -u
seed=${1:?usage: vulkan-randtest-knobs.sh SEED [DEVICE] [options]}
dev=${2:-vulkan:0}
shift $(( $# >= 2 ? 2 : 1 ))
opts=("$@")
[ ${#opts[@]} -eq 0 ] && opts=(--dot-weight 8)
bin=build-rel/tests/e2e/trident-randtest
[ -x "$bin" ] || { echo "no $bin: ninja -C build-rel trident-randtest"; exit 1; }

run() {
  local name=$1; shift
  local out
  out=$(env TRIDENT_CACHE=off "$@" timeout 120 "$bin" --seeds 1 --first "$seed" --device "$dev" --quiet "${opts[@]}" 2>&1)
  printf '%-28s %s\n' "$name" "$(grep -m1 "^seeds" <<<"$out" || tail -n1 <<<"$out")"
  grep -m3 "^  out" <<<"$out"
}

for prefetch in auto late early off; do
  for order in lazyb eager; do
    run "$prefetch+$order" TRIDENT_VULKAN_PREFETCH=$prefetch TRIDENT_VULKAN_COOP_ORDER=$order
  done
done
run "auto+lazyb loop-rebase=off" TRIDENT_VULKAN_LOOP_REBASE=off
run "off+lazyb loop-rebase=off" TRIDENT_VULKAN_PREFETCH=off TRIDENT_VULKAN_LOOP_REBASE=off
printf '%-28s %s\n' "sim:vulkan:nvidia" \
  "$("$bin" --seeds 1 --first "$seed" --no-devices --compile sim:vulkan:nvidia --quiet "${opts[@]}" 2>&1 | grep -m1 "^seeds")"
