#!/bin/sh
# run_on_vulkan.sh NAME COMMAND...: runs COMMAND (a sample on vulkan:0). When there is
# no Vulkan device, the SIMT lowering cannot lower the kernel yet, or the kernel needs
# more workgroup memory than the device has, it prints
# "SKIPPED: NAME: <reason>" and exits 77, which CTest counts as skipped.
name=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 0 ]; then
  reason=$(printf '%s\n' "$out" | grep -o "the vulkan plugin\( ([^)]*)\)\{0,1\} has no devices[^;]*" | head -n 1)
  if [ -z "$reason" ]; then
    reason=$(printf '%s\n' "$out" | grep -o "error: [a-z_.]* is not supported by the SIMT lowering yet" | head -n 1)
  fi
  if [ -z "$reason" ]; then
    # A device limit, not a compiler bug: lavapipe has 32 KiB of workgroup memory.
    reason=$(printf '%s\n' "$out" | grep -o "needs [0-9]* bytes of workgroup memory.*has [0-9]* bytes" | head -n 1)
  fi
  if [ -n "$reason" ]; then
    echo "SKIPPED: $name: $reason"
    exit 77
  fi
fi
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "sample run(s) skipped"; then
  echo "SKIPPED: $name: $(printf '%s\n' "$out" | grep -E ' skip ' | sed 's/.* skip *[^a-z]*//' | head -n 1)"
  exit 77
fi
exit "$rc"
