// The pieces of the AMDGPU stages (CodeGenSteps.h): the target machine, the translation
// to LLVM IR with AMDGPU's hooks, static LDS, code from LLVM's AMDGPU backend.
// Stages.cpp runs them.
#include "CodeGenSteps.h"

#include "AMDGPUHooks.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/backends/llvm/CodeGen.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeAMDGPUAsmParser(); // tl.inline_asm_elementwise text, assembled into the object
}

namespace trident::amdgpu {

namespace {

constexpr const char *kTriple = "amdgcn-amd-amdhsa";

void initializeAMDGPU() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
  });
}

} // namespace

std::unique_ptr<llvm::TargetMachine> createTargetMachine(const std::string &arch, unsigned optLevel,
                                                         Diagnostics &diags) {
  initializeAMDGPU();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!target) {
    diags.error(Location(), "LLVM has no AMDGPU target: " + error);
    return nullptr;
  }
  llvm::TargetOptions options;
  auto level = optLevel == 0   ? llvm::CodeGenOptLevel::None
               : optLevel == 1 ? llvm::CodeGenOptLevel::Less
               : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                               : llvm::CodeGenOptLevel::Aggressive;
  // No features: each architecture's defaults (wave64 on gfx9, wave32 on gfx11).
  return std::unique_ptr<llvm::TargetMachine>(
      target->createTargetMachine(kTriple, arch, "", options, llvm::Reloc::PIC_, std::nullopt, level));
}

// The translation declares shared memory as one dynamic (unsized) LDS array. Sized
// by the largest shared_bytes of the module's kernels, it becomes static LDS: the
// kernel descriptor then states it, and launches need not pass it.
void placeSharedMemory(llvm::Module &m, const Module &threadIR) {
  llvm::GlobalVariable *dynamic = m.getGlobalVariable(llvmgen::kSharedMemoryName, true);
  if (!dynamic)
    return;
  int64_t bytes = 0;
  for (Op *f : threadIR.functions()) {
    const Attribute &shared = f->attr("shared_bytes");
    if (shared.isInt())
      bytes = std::max(bytes, shared.getInt());
  }
  auto *arrayType = llvm::ArrayType::get(llvm::Type::getInt8Ty(m.getContext()),
                                         static_cast<uint64_t>(std::max<int64_t>(bytes, 1)));
  auto *sized = new llvm::GlobalVariable(m, arrayType, false, llvm::GlobalValue::InternalLinkage,
                                         llvm::UndefValue::get(arrayType), "", nullptr,
                                         llvm::GlobalValue::NotThreadLocal, dynamic->getAddressSpace());
  sized->setAlignment(llvm::Align(16));
  dynamic->replaceAllUsesWith(sized);
  sized->takeName(dynamic);
  dynamic->eraseFromParent();
}

std::unique_ptr<llvm::Module> translate(const Module &threadIR, llvm::LLVMContext &ctx,
                                        const std::string &arch, unsigned wavesPerEU, Diagnostics &diags) {
  AMDGPUHooks hooks(arch);
  hooks.setWavesPerEU(wavesPerEU);
  return llvmgen::translateToLLVM(threadIR, ctx, hooks, diags);
}

std::optional<std::string> archOf(const TargetDesc &target, Diagnostics &diags) {
  std::optional<std::string> arch = architecture(target.name);
  if (!arch)
    diags.error(Location(), "'" + target.name +
                                "' is not an AMD target this backend supports (gfx90a, gfx942, "
                                "gfx1100)");
  return arch;
}

namespace {

// LLVM's errors while it emits code (the integrated assembler's, on a kernel's
// tl.inline_asm_elementwise text, which LLVM would otherwise report by exiting).
void collectErrors(const llvm::DiagnosticInfo *info, void *context) {
  if (info->getSeverity() != llvm::DS_Error)
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::DiagnosticPrinterRawOStream printer(os);
  info->print(printer);
  static_cast<std::vector<std::string> *>(context)->push_back(text);
}

} // namespace

std::optional<std::string> emitFile(llvm::Module &m, llvm::TargetMachine &tm, llvm::CodeGenFileType type,
                                    Diagnostics &diags) {
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type)) {
    diags.error(Location(), "LLVM's AMDGPU backend cannot emit code for " + tm.getTargetCPU().str());
    return std::nullopt;
  }
  std::vector<std::string> errors;
  m.getContext().setDiagnosticHandlerCallBack(collectErrors, &errors);
  pm.run(m);
  for (const std::string &e : errors)
    diags.error(Location(), "LLVM's AMDGPU backend: " + e + " (in a kernel's tl.inline_asm_elementwise?)");
  if (!errors.empty())
    return std::nullopt;
  return bytes.str().str();
}

std::vector<KernelInfo> kernelInfos(const Module &threadIR) {
  std::vector<KernelInfo> out;
  for (Op *f : threadIR.functions())
    out.push_back({std::string(func::name(f)), static_cast<unsigned>(f->intAttr("num_threads")),
                   static_cast<uint64_t>(f->intAttr("shared_bytes")),
                   static_cast<unsigned>(f->region()->numArguments())});
  return out;
}

} // namespace trident::amdgpu
