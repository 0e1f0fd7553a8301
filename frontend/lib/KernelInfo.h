#pragma once
// Decorator facts of a jit function (@triton.jit options, @triton.autotune,
// @triton.heuristics), read from the syntax tree without evaluating host code.

#include "ModuleEnv.h"

#include "trident/frontend/Frontend.h"

namespace trident::frontend {

// Throws CompileError for decorators whose arguments are malformed. Without
// `withTuning`, @triton.autotune and @triton.heuristics are not read (the code
// generator only needs the @triton.jit options).
KernelInfo kernelInfo(const FunctionDef &fn, const ModuleEnv &module, bool withTuning = true);

} // namespace trident::frontend
