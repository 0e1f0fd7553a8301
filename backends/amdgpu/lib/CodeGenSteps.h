#pragma once
// Internal to backends/amdgpu: the pieces Stages.cpp calls in order (CodeGen.cpp).

#include "trident/backends/amdgpu/CodeGen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace trident::amdgpu {

// "gfx942" for a target this backend supports; else a diagnostic and nullopt.
std::optional<std::string> archOf(const TargetDesc &target, Diagnostics &diags);
// LLVM's AMDGPU target machine for `arch` (each architecture's default wavefront size).
std::unique_ptr<llvm::TargetMachine> createTargetMachine(const std::string &arch, unsigned optLevel,
                                                         Diagnostics &diags);
// Thread IR -> LLVM IR through backends/llvm with AMDGPU's hooks.
std::unique_ptr<llvm::Module> translate(const Module &threadIR, llvm::LLVMContext &ctx,
                                        const std::string &arch, unsigned wavesPerEU, Diagnostics &diags);
// The translation's one dynamic LDS array sized by the largest shared_bytes of the
// module's kernels: static LDS, stated in the kernel descriptor, which launches need not pass.
void placeSharedMemory(llvm::Module &m, const Module &threadIR);
// An object or assembly from LLVM's AMDGPU backend; its errors (an inline assembly
// text's) as diagnostics.
std::optional<std::string> emitFile(llvm::Module &m, llvm::TargetMachine &tm, llvm::CodeGenFileType type,
                                    Diagnostics &diags);
// What a launch needs of each kernel of `threadIR`.
std::vector<KernelInfo> kernelInfos(const Module &threadIR);

} // namespace trident::amdgpu
