#!/bin/sh
# same_on_vulkan.sh [--rel TOL] TRIDENT RUN-ARGS...: `trident run RUN-ARGS` on host:0
# (the interpreter) and on vulkan:0, and the buffers they print must be the same
# (with --rel, each number within a relative TOL: the device's exp, log, sin ... are
# not the interpreter's). Without a Vulkan device it prints "SKIPPED: ..." and exits 77.
rel=
if [ "$1" = "--rel" ]; then
  rel=$2
  shift 2
fi
tool=$1
shift
host=$("$tool" run "$@" --device host:0 --repeat 1 2>&1) || { printf '%s\n' "$host"; exit 1; }
vulkan=$("$tool" run "$@" --device vulkan:0 --repeat 1 2>&1)
rc=$?
if [ "$rc" -ne 0 ]; then
  printf '%s\n' "$vulkan"
  if printf '%s\n' "$vulkan" | grep -q "the vulkan plugin\( ([^)]*)\)\{0,1\} has no devices"; then
    echo "SKIPPED: no Vulkan device"
    exit 77
  fi
  exit 1
fi
# A NaN's sign is unspecified: "-nan" reads as "nan", and any two NaNs are the same.
buffers() { printf '%s\n' "$1" | grep -E '^[^ ]+: [a-z0-9]+\[[0-9]+\] = \[' | sed 's/-nan/nan/g'; }
numbers() { buffers "$1" | sed 's/^[^=]*= \[//; s/\]$//' | tr ',' '\n' | sed 's/^ *//'; }
if [ -n "$rel" ]; then
  worst=$(numbers "$host" > "${TMPDIR:-/tmp}/same_on_vulkan.$$" && numbers "$vulkan" |
    paste "${TMPDIR:-/tmp}/same_on_vulkan.$$" - | awk -v tol="$rel" '
      { n++; na = $1 ~ /^[-+]?nan$/; nb = $2 ~ /^[-+]?nan$/
        if (na || nb) { if (!(na && nb)) bad++; next }
        if ($1 "" == $2 "") next
        if ($1 ~ /inf/ || $2 ~ /inf/) { bad++; next }
        d = $1 - $2; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1; if (m < 1e-30) m = 1e-30
        if (d / m > tol) bad++ }
      END { printf "%d of %d", bad + 0, n }')
  rm -f "${TMPDIR:-/tmp}/same_on_vulkan.$$"
  case "$worst" in
  0\ of\ [1-9]*) echo "the same $(buffers "$vulkan" | wc -l) buffers on host:0 and vulkan:0 (within $rel)"; exit 0 ;;
  *) echo "host:0 and vulkan:0 differ by more than $rel in $worst numbers"; exit 1 ;;
  esac
fi
if [ "$(buffers "$host")" != "$(buffers "$vulkan")" ]; then
  echo "host:0:"; buffers "$host"; echo "vulkan:0:"; buffers "$vulkan"
  echo "the buffers differ"
  exit 1
fi
buffers "$vulkan" | tail -n 1
echo "the same $(buffers "$vulkan" | wc -l) buffers on host:0 and vulkan:0"
