#!/bin/sh
# run_or_skip.sh NAME COMMAND...: runs COMMAND on a device named in its arguments;
# when the machine has no such device (its plugin has none, or is not loaded), prints
# "SKIPPED: NAME: <reason>" and exits 77, which CTest counts as skipped.
name=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 0 ]; then
  reason=$(printf '%s\n' "$out" | grep -o "the [a-z]* plugin\( ([^)]*)\)\{0,1\} has no devices[^;]*" | head -n 1)
  if [ -n "$reason" ]; then
    echo "SKIPPED: $name: $reason"
    exit 77
  fi
fi
exit "$rc"
