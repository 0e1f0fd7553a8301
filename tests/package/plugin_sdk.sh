#!/bin/sh
# A plugin built outside the tree against an installed Trident, as docs/plugin-sdk.md
# says: installs the build, removes the installed CPU plugin, configures plugins/cpu on
# its own (cmake -S plugins/cpu -DCMAKE_PREFIX_PATH=<prefix>), builds it, loads it
# through TRIDENT_PLUGIN_PATH and runs vector_add.py on its device, checking the sums.
#   plugin_sdk.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER [EXTRA_CXX_FLAGS]
set -eu
build=$1 src=$2 work=$3 cxx=$4 flags=${5:-}
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export TRIDENT_CACHE=0
unset TRIDENT_PLUGIN_PATH TRIDENT_PLUGINS || true

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/trident-plugin/trident/plugin.h include/trident-plugin/trident/sdk/HostDevices.h \
    include/trident-compiler/trident/simt/Lowering.h lib/cmake/Trident/TridentSdkTargets.cmake \
    lib/cmake/Trident/TridentPlugin.cmake; do
  [ -e "$prefix/$f" ] || { echo "the install lacks $f"; exit 1; }
done
# The plugin ABI's include folder holds no runtime header.
[ ! -e "$prefix/include/trident-plugin/trident/Trident.h" ] || { echo "trident-plugin holds the runtime's headers"; exit 1; }
rm -f "$prefix/lib/trident/plugins/libtrident-plugin-cpu.so"

cmake -S "$src/plugins/cpu" -B "$work/cpu" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_MODULE_LINKER_FLAGS=$flags" \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cpu" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
plugin=$work/cpu/plugins/libtrident-plugin-cpu.so
[ -e "$plugin" ] || { echo "the build made no $plugin"; exit 1; }

export TRIDENT_PLUGIN_PATH="$work/cpu/plugins"
"$prefix/bin/trident" devices >"$work/devices.txt"
grep -q "$plugin" "$work/devices.txt" || { echo "the runtime did not load $plugin"; cat "$work/devices.txt"; exit 1; }
grep -q "cpu:0" "$work/devices.txt" || { echo "no cpu:0"; cat "$work/devices.txt"; exit 1; }
# x = y = 0, 1, 2, ...: output i is 2i (exact in f32).
"$prefix/bin/trident" run "$src/samples/vector_add.py" --kernel add_kernel --device cpu:0 --grid 4 \
  --arg arange:fp32:4000 --arg arange:fp32:4000 --arg zeros:fp32:4000 --arg i32:4000 --arg BLOCK_SIZE=1024 \
  --repeat 0 --print 4000 >"$work/run.txt"
python3 - "$work/run.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
line = [l for l in text.splitlines() if l.startswith("output_ptr")][0]
values = [float(v) for v in re.findall(r"[-0-9.e+]+", line.split("=", 1)[1])]
bad = [i for i, v in enumerate(values) if v != 2 * i]
assert len(values) == 4000 and not bad, f"{len(bad)} wrong sums, first at {bad[:1]}"
PY
rm -rf "$prefix"
echo "a plugin built against the installed SDK loads and runs"
