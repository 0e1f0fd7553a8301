#pragma once
// Internal to backends/nvptx: the pieces Stages.cpp calls in order (CodeGen.cpp).

#include "trident/backends/nvptx/CodeGen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <optional>
#include <string>

namespace trident::nvptx {

// "sm_90" for a target this backend supports; else a diagnostic and nullopt.
std::optional<std::string> archOf(const TargetDesc &target, Diagnostics &diags);
// LLVM's NVPTX target machine for `arch`, with PTX 8.4 when `threadIR` has fp8 matrix atoms.
std::unique_ptr<llvm::TargetMachine> createTargetMachine(const std::string &arch, const Module *threadIR,
                                                         unsigned optLevel, Diagnostics &diags);
// Thread IR -> LLVM IR through backends/llvm with NVPTX's hooks (and, with
// TRIDENT_CUDA_MIN_PROGRAMS=on, each kernel's min_programs for ptxas).
std::unique_ptr<llvm::Module> translate(const Module &threadIR, llvm::LLVMContext &ctx, Diagnostics &diags);
// PTX from LLVM's NVPTX backend.
std::optional<std::string> emitPTX(llvm::Module &m, llvm::TargetMachine &tm, const std::string &arch,
                                   Diagnostics &diags);
// What a launch needs of each kernel of `threadIR`.
std::vector<KernelInfo> kernelInfos(const Module &threadIR);

} // namespace trident::nvptx
