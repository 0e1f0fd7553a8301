#pragma once
// Internal to backends/amdgpu: links the ocml/ockl functions a module calls from the
// ROCm device libraries, with their control variables set for the architecture.

#include "trident/support/Diagnostic.h"

#include <llvm/IR/Module.h>

#include <string>

namespace trident::amdgpu {

// The folder holding ocml.bc, ockl.bc and oclc_*.bc: $TRIDENT_ROCM_DEVICE_LIBS, else
// the first of the build's default and ROCm's usual places that has ocml.bc ("" if none).
std::string deviceLibsPath();

// Links the __ocml_* and __ockl_* functions `m` declares and the oclc control
// variables (ISA version, wavefront size, finite-only off, unsafe math off, DAZ off,
// correctly rounded sqrt, ABI 500), then makes every definition that is not a kernel
// internal. False (with a diagnostic) when the libraries are needed but missing.
bool linkDeviceLibs(llvm::Module &m, const std::string &arch, Diagnostics &diags);

} // namespace trident::amdgpu
