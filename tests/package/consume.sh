#!/bin/sh
# Installs a built Trident into a fresh prefix and uses it from outside, as a user's
# project would: the CMake package (find_package + Trident::runtime), pkg-config
# (trident.pc) and the installed `trident` tool. Only the consumer is compiled.
#   consume.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER
set -eu
build=$1 src=$2 work=$3 cxx=$4
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
# Leak checking is off, as in scripts/test.sh (a sanitized build installs sanitized libraries).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export TRIDENT_PLUGINS=host TRIDENT_CACHE=0
unset TRIDENT_PLUGIN_PATH || true

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/trident/Trident.h include/trident/Version.h include/trident/Export.h lib/libtrident.so \
    lib/cmake/Trident/TridentConfig.cmake lib/cmake/Trident/TridentConfigVersion.cmake \
    lib/cmake/Trident/TridentTargets.cmake lib/pkgconfig/trident.pc lib/trident/plugins/libtrident-plugin-host.so \
    bin/trident; do
  [ -e "$prefix/$f" ] || { echo "the install lacks $f"; exit 1; }
done

# The installed tool finds its plugins beside the installed library.
"$prefix/bin/trident" --version
"$prefix/bin/trident" devices | grep -q "$prefix/lib/trident/plugins/libtrident-plugin-host.so" ||
  { echo "the installed trident did not load the installed host plugin"; "$prefix/bin/trident" devices; exit 1; }

# CMake: find_package(Trident CONFIG REQUIRED), target_link_libraries(consumer Trident::runtime).
cmake -S "$src/tests/package/consumer" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
grep "Trident [0-9.]* from $prefix" "$work/configure.log"
cmake --build "$work/cmake" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/cmake/consumer" "$src/samples/vector_add.py" host:0

# A version this install does not provide is refused (TridentConfigVersion.cmake).
if cmake -S "$src/tests/package/consumer" -B "$work/cmake-newer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_COMPILER="$cxx" -DTRIDENT_VERSION_WANTED=99.0 >"$work/configure-newer.log" 2>&1; then
  echo "find_package(Trident 99.0) accepted version $(pkg-config --modversion trident 2>/dev/null)"; exit 1
fi
grep -q "compatible with requested version \"99.0\"" "$work/configure-newer.log"

# pkg-config: the .pc file is relocatable (its prefix comes from where it lies).
pc=pkg-config
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion trident)" = "$("$prefix/bin/trident" --version | sed -n 's/^trident //p')" ] ||
  { echo "trident.pc's version differs from the library's"; exit 1; }
# shellcheck disable=SC2046
"$cxx" -std=c++20 $($pc --cflags trident) "$src/tests/package/consumer/main.cpp" -o "$work/consumer-pc" \
  $($pc --libs trident) -Wl,-rpath,"$prefix/lib"
"$work/consumer-pc" "$src/samples/vector_add.py" host:0
rm -rf "$prefix" # a sanitized install is large; the logs stay
echo "the installed package works from CMake and pkg-config"
