#pragma once
// Decorator facts of a jit function (@triton.jit options, @triton.autotune,
// @triton.heuristics), read from the syntax tree without evaluating host code.

#include "ModuleEnv.h"

#include "trident/frontend/Frontend.h"

namespace trident::frontend {

// Throws CompileError for decorators whose arguments are malformed.
KernelInfo kernelInfo(const FunctionDef &fn, const ModuleEnv &module);

} // namespace trident::frontend
