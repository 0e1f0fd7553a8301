#!/bin/sh
# Checks what Trident's shared libraries export (docs/installing.md):
#  - libtrident: only the public API of runtime/include/trident (TRIDENT_API), never
#    trident::detail nor the frontend's or core's code linked into it;
#  - each plugin: trident_plugin_entry (and explicit C test hooks), nothing of
#    namespace trident.
#   check_symbols.sh LIBTRIDENT [PLUGIN...]
set -eu
lib=$1
shift
syms=$(nm -D --defined-only -C "$lib" | sed 's/^[0-9a-f]* [A-Za-z] //')
count=$(printf '%s\n' "$syms" | grep -c .)
# Everything of Trident's own namespace must be one of the public names.
public='(Buffer|Device|DeviceInfo|Stream|Event|Kernel|Bundle|BundleEntry|Constexpr|Arg|Meta|Grid|Runtime|RuntimeOptions|Error|LogMessage|version|buildId|sourceRevision|hasCompiler|copyRouteName|errorCodeName|dtypeBytes|dtypeName|parseDType|isFloat|isUnsigned|floatToHalf|halfToFloat|floatToBFloat16|bfloat16ToFloat|compileToBlockIR|compileArtifact|compileBundle|listSourceKernels|readBundle|readBundleFile|writeBundle|signatureEntries|toDLPack|fromDLPack|dtypeOfDLPack|dlpackTypeOf)'
bad=$(printf '%s\n' "$syms" | grep -E '^((typeinfo|typeinfo name|vtable|VTT|guard variable) for )?trident::' |
  grep -Ev "^((typeinfo|typeinfo name|vtable|VTT|guard variable) for )?trident::$public(\\b|::|\\()" || true)
detail=$(printf '%s\n' "$syms" | grep 'trident::detail' | grep -v '^std::' || true)
status=0
if [ -n "$detail" ]; then
  echo "$lib exports trident::detail:"; printf '%s\n' "$detail" | head -20; status=1
fi
if [ -n "$bad" ]; then
  echo "$lib exports names outside the public API:"; printf '%s\n' "$bad" | head -20; status=1
fi
for needed in 'trident::Kernel::launch(' 'trident::Buffer::Buffer(' 'trident::version()' 'typeinfo for trident::Error'; do
  printf '%s\n' "$syms" | grep -qF "$needed" || { echo "$lib does not export $needed"; status=1; }
done
echo "$lib: $count exported symbols"
for plugin in "$@"; do
  # Vague-linkage instantiations of the standard library (weak or unique symbols
  # libstdc++'s headers give default visibility) cannot be hidden by the plugin and
  # are harmless; anything of namespace trident, or any other strong symbol than the
  # entry point and explicit C test hooks (trident_*, TRIDENT_PLUGIN_EXPORT), is not.
  own=$(nm -D --defined-only -C "$plugin" | grep 'trident::' || true)
  strong=$(nm -D --defined-only "$plugin" | awk '$2 ~ /^[TDBR]$/ {print $3}' |
    grep -Ev '^(trident_[a-z_0-9]+|_init|_fini|_edata|_end|__bss_start)$' || true)
  if [ -n "$own" ] || [ -n "$strong" ]; then
    echo "$plugin exports more than trident_plugin_entry:"; printf '%s\n' "$own" "$strong" | head -20; status=1
  fi
  nm -D --defined-only "$plugin" | grep -q ' T trident_plugin_entry$' || { echo "$plugin lacks trident_plugin_entry"; status=1; }
done
[ "$status" -eq 0 ] && echo "the exported symbols are the public API only"
exit "$status"
