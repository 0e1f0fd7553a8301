#pragma once
// Thread IR -> LLVM IR, once for every LLVM-based target.
//
//   tt.func {num_threads = 128, shared_bytes = 16, sym_name = "k"} ({ ^(%0: ptr<f32>): ... })
// ->
//   @trident_shared = external addrspace(3) global [0 x i8], align 16
//   define void @k(ptr addrspace(1) %0) { ... }          (marked a kernel by the target)
//
// Shared memory is one dynamic array; its size is the function's shared_bytes.
// Predicated loads and stores become branches around the access; control flow
// becomes basic blocks; math functions come from the target's hooks.

#include "trident/backends/llvm/Target.h"
#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>

namespace trident::llvmgen {

// Translates every tt.func of `threadIR` (valid thread IR) into a new LLVM module.
std::unique_ptr<llvm::Module> translateToLLVM(const Module &threadIR, llvm::LLVMContext &context,
                                              TargetHooks &hooks, Diagnostics &diags);

// The name of the dynamic shared-memory array in translated modules.
inline constexpr const char *kSharedMemoryName = "trident_shared";

} // namespace trident::llvmgen
