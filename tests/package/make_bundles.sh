#!/bin/sh
# make_bundles.sh TRIDENT BUNDLE HEADER SOURCE TARGET...: compiles vector_add.py's
# add_kernel ahead of time into BUNDLE and the C++ launcher HEADER, for each TARGET
# and, when this machine has a Vulkan device, for that device's own target too (the
# generic "vulkan" target assumes subgroups of 32, which lavapipe cannot run).
set -eu
tool=$1 bundle=$2 header=$3 source=$4
shift 4
targets=""
for t in "$@"; do targets="$targets --target $t"; done
if "$tool" devices 2>/dev/null | grep -q '^  vulkan:0 '; then
  targets="$targets --target vulkan:0"
fi
signature="*fp32:16, *fp32:16, *fp32:16, i32, 256"
# shellcheck disable=SC2086
"$tool" compile "$source" --kernel add_kernel --signature "$signature" $targets --emit bundle -o "$bundle"
# shellcheck disable=SC2086
"$tool" compile "$source" --kernel add_kernel --signature "$signature" $targets --emit header \
  --namespace test_kernels -o "$header"
