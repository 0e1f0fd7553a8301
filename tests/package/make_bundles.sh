#!/bin/sh
# make_bundles.sh TRIDENT BUNDLE HEADER SOURCE TARGET...: compiles vector_add.py's
# add_kernel ahead of time into BUNDLE and the C++ launcher HEADER, for each TARGET.
# The generic "vulkan" entry alone serves every Vulkan device, lavapipe's subgroups of 8
# included: only vector_add's lane and warp ids depend on the subgroup size, which the
# Vulkan plugin rewrites at load (docs/bundles.md).
set -eu
tool=$1 bundle=$2 header=$3 source=$4
shift 4
targets=""
for t in "$@"; do targets="$targets --target $t"; done
signature="*fp32:16, *fp32:16, *fp32:16, i32, 256"
# shellcheck disable=SC2086
"$tool" compile "$source" --kernel add_kernel --signature "$signature" $targets --emit bundle -o "$bundle"
# shellcheck disable=SC2086
"$tool" compile "$source" --kernel add_kernel --signature "$signature" $targets --emit header \
  --namespace test_kernels -o "$header"
