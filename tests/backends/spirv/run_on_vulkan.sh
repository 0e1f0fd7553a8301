#!/bin/sh
# run_on_vulkan.sh NAME COMMAND...: runs COMMAND (a sample on vulkan:0). When there is
# no Vulkan device, or the SIMT lowering cannot lower the kernel yet, it prints
# "SKIPPED: NAME: <reason>" and exits 77, which CTest counts as skipped.
name=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 0 ]; then
  reason=$(printf '%s\n' "$out" | grep -o "the vulkan plugin has no devices[^;]*" | head -n 1)
  if [ -z "$reason" ]; then
    reason=$(printf '%s\n' "$out" | grep -o "error: [a-z_.]* is not supported by the SIMT lowering yet" | head -n 1)
  fi
  if [ -n "$reason" ]; then
    echo "SKIPPED: $name: $reason"
    exit 77
  fi
fi
exit "$rc"
