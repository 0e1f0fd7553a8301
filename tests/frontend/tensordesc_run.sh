#!/bin/sh
# tensordesc_run.sh TRIDENT DEVICE WORKDIR: compiles data/tensor_descriptor.py for
# host tensor descriptors to block IR, then runs that IR on DEVICE with each
# descriptor passed as its launch arguments (base, shape as i32, strides as i64),
# since `trident run` has no descriptor argument of its own yet.
set -e
tool=$1
device=$2
work=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
"$tool" compile "$here/data/tensor_descriptor.py" --kernel shifted_tiles \
  --signature "tensordesc<fp32[4, 8]>, tensordesc<fp32[4, 8]>, 4, 8" -o "$work/tensor_descriptor.tir"
# A 5 x 12 tensor, its rows 12 apart; the output buffer has 4 elements past it.
desc="--arg i32:5 --arg i32:12 --arg i64:12 --arg i64:1"
exec "$tool" run "$work/tensor_descriptor.tir" --kernel shifted_tiles --grid 2,2 \
  --arg arange:fp32:60 $desc --arg zeros:fp32:64 $desc --print 64 --device "$device" --repeat 1
