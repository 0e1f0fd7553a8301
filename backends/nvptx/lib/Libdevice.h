#pragma once
// Internal to backends/nvptx: links the libdevice functions a module calls.

#include "trident/support/Diagnostic.h"

#include <llvm/IR/Module.h>

namespace trident::nvptx {

// Links the __nv_* functions `m` declares from libdevice and makes every function
// that is not a kernel internal; false (with a diagnostic) when libdevice is missing.
bool linkLibdevice(llvm::Module &m, Diagnostics &diags);

} // namespace trident::nvptx
