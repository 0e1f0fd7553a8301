#!/bin/sh
# same_on_vulkan.sh TRIDENT RUN-ARGS...: `trident run RUN-ARGS` on host:0 (the
# interpreter) and on vulkan:0, and the buffers they print must be the same.
# Without a Vulkan device it prints "SKIPPED: ..." and exits 77.
tool=$1
shift
host=$("$tool" run "$@" --device host:0 --repeat 1 2>&1) || { printf '%s\n' "$host"; exit 1; }
vulkan=$("$tool" run "$@" --device vulkan:0 --repeat 1 2>&1)
rc=$?
if [ "$rc" -ne 0 ]; then
  printf '%s\n' "$vulkan"
  if printf '%s\n' "$vulkan" | grep -q "the vulkan plugin has no devices"; then
    echo "SKIPPED: no Vulkan device"
    exit 77
  fi
  exit 1
fi
buffers() { printf '%s\n' "$1" | grep -E '^[^ ]+: [a-z0-9]+\[[0-9]+\] = \['; }
if [ "$(buffers "$host")" != "$(buffers "$vulkan")" ]; then
  echo "host:0:"; buffers "$host"; echo "vulkan:0:"; buffers "$vulkan"
  echo "the buffers differ"
  exit 1
fi
buffers "$vulkan" | tail -n 1
echo "the same $(buffers "$vulkan" | wc -l) buffers on host:0 and vulkan:0"
