#!/bin/sh
# Checks that the compiler-less plugins (what -DTRIDENT_ENABLE_COMPILER=OFF ships,
# docs/bundles.md) hold no compiler: no LLVM, lld or SPIRV-Tools among the libraries
# they need, nor linked into them (their symbol tables: names of llvm::, lld:: and
# spvtools::), and no backend's code generation (trident::nvptx, trident::amdgpu,
# trident::spirv's emitters).
#   check_nocompiler_plugins.sh DIR NAME...    (libtrident-plugin-NAME.so in DIR)
set -eu
dir=$1
shift
status=0
count=0
for name in "$@"; do
  name=${name#trident_plugin_}
  name=${name%_nocompiler}
  so="$dir/libtrident-plugin-$name.so"
  if [ ! -f "$so" ]; then
    echo "$so is missing"; status=1; continue
  fi
  count=$((count + 1))
  needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  bad=$(printf '%s\n' "$needed" | grep -Ei 'llvm|lld|spirv' || true)
  if [ -n "$bad" ]; then
    echo "$so needs $bad"; status=1
  fi
  linked=$(nm -C "$so" 2>/dev/null | grep -E ' (llvm|lld|spvtools)::|trident::(nvptx|amdgpu)::|trident::spirv::(compile|emit|lower)' |
    head -5 || true)
  if [ -n "$linked" ]; then
    echo "$so has compiler code linked in:"; printf '%s\n' "$linked"; status=1
  fi
  printf '%s: %s bytes, needs %s\n' "$so" "$(wc -c < "$so")" "$(printf '%s' "$needed" | tr '\n' ' ')"
done
if [ "$status" -eq 0 ]; then
  echo "compiler-less plugins: $count checked, none links LLVM or SPIRV-Tools"
fi
exit "$status"
