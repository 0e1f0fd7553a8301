#pragma once
// Internal to backends/amdgpu: the last step to a code object, lld run in process.

#include "trident/support/Diagnostic.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>

namespace trident::amdgpu {

// Links a relocatable AMDGPU ELF object into a code object (an ELF shared object),
// as `ld.lld -shared` does; nullopt with lld's messages as a diagnostic on failure.
// lld keeps global state: calls are serialized.
std::optional<std::string> linkCodeObject(llvm::StringRef object, Diagnostics &diags);

} // namespace trident::amdgpu
