// The AMDGPU pipeline: SIMT lowering, translation to LLVM IR, the ROCm device
// libraries, LLVM's optimizer, an ELF object from LLVM's AMDGPU backend, and lld.
#include "trident/backends/amdgpu/CodeGen.h"

#include "AMDGPUHooks.h"
#include "DeviceLibs.h"
#include "Linker.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/backends/llvm/CodeGen.h"
#include "trident/backends/llvm/Optimize.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/simt/Lowering.h"
#include "trident/simt/VerifyThreadIR.h"
#include "trident/support/StageTimer.h"

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

// Thread IR through LLVM's optimizer: the module ready for the AMDGPU code generator.
std::unique_ptr<llvm::Module> buildLLVM(const Module &threadIR, llvm::LLVMContext &ctx,
                                        llvm::TargetMachine &tm, const std::string &arch,
                                        const HSACOOptions &options, Diagnostics &diags) {
  StageTimer timer("amdgpu", options.kernel);
  AMDGPUHooks hooks(arch);
  hooks.setWavesPerEU(options.wavesPerEU);
  std::unique_ptr<llvm::Module> m = llvmgen::translateToLLVM(threadIR, ctx, hooks, diags);
  if (!m)
    return nullptr;
  auto text = [&m] {
    std::string s;
    llvm::raw_string_ostream os(s);
    m->print(os, nullptr);
    return s;
  };
  timer.lap("to LLVM IR", "ll", text);
  m->setDataLayout(tm.createDataLayout());
  // Code object v5, the ABI oclc_abi_version_500 tells the device libraries about.
  m->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", uint32_t(500));
  placeSharedMemory(*m, threadIR);
  if (!linkDeviceLibs(*m, arch, diags))
    return nullptr;
  timer.lap("device libs");
  llvmgen::optimize(*m, tm, options.optLevel);
  timer.lap("optimize", "ll", text);
  return m;
}

std::optional<std::string> archOf(const TargetDesc &target, Diagnostics &diags) {
  std::optional<std::string> arch = architecture(target.name);
  if (!arch)
    diags.error(Location(), "'" + target.name +
                                "' is not an AMD target this backend supports (gfx90a, gfx942, "
                                "gfx1100)");
  return arch;
}

// Lowers and translates: the optimized module and its target machine, or nullopt.
struct Built {
  std::unique_ptr<llvm::LLVMContext> ctx;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::Module> module;
  std::vector<KernelInfo> kernels;
};

std::optional<Built> buildFromThreadIR(const Module &threadIR, const std::string &arch,
                                       const HSACOOptions &options, Diagnostics &diags) {
  Built out;
  for (Op *f : threadIR.functions())
    out.kernels.push_back({std::string(func::name(f)), static_cast<unsigned>(f->intAttr("num_threads")),
                           static_cast<uint64_t>(f->intAttr("shared_bytes")),
                           static_cast<unsigned>(f->region()->numArguments())});
  out.tm = createTargetMachine(arch, options.optLevel, diags);
  if (!out.tm)
    return std::nullopt;
  out.ctx = std::make_unique<llvm::LLVMContext>();
  out.module = buildLLVM(threadIR, *out.ctx, *out.tm, arch, options, diags);
  if (!out.module)
    return std::nullopt;
  return out;
}

std::optional<Built> build(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                           Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  if (!arch)
    return std::nullopt;
  std::optional<Module> threadIR = lowerToThreadIR(blockIR, target, options, diags);
  if (!threadIR)
    return std::nullopt;
  return buildFromThreadIR(*threadIR, *arch, options, diags);
}

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

std::optional<std::string> emitFile(Built &built, llvm::CodeGenFileType type, Diagnostics &diags) {
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager pm;
  if (built.tm->addPassesToEmitFile(pm, os, nullptr, type)) {
    diags.error(Location(), "LLVM's AMDGPU backend cannot emit code for " + built.tm->getTargetCPU().str());
    return std::nullopt;
  }
  std::vector<std::string> errors;
  built.ctx->setDiagnosticHandlerCallBack(collectErrors, &errors);
  pm.run(*built.module);
  for (const std::string &e : errors)
    diags.error(Location(), "LLVM's AMDGPU backend: " + e + " (in a kernel's tl.inline_asm_elementwise?)");
  if (!errors.empty())
    return std::nullopt;
  return bytes.str().str();
}

// The code object of a built module: an ELF object from LLVM, linked by lld.
std::optional<HSACOModule> finish(Built &built, Diagnostics &diags) {
  std::optional<std::string> object = emitFile(built, llvm::CodeGenFileType::ObjectFile, diags);
  if (!object)
    return std::nullopt;
  std::optional<std::string> hsaco = linkCodeObject(*object, diags);
  if (!hsaco)
    return std::nullopt;
  return HSACOModule{std::move(*hsaco), std::move(built.kernels)};
}

} // namespace

std::optional<Module> lowerToThreadIR(const Module &blockIR, const TargetDesc &target,
                                      const HSACOOptions &options, Diagnostics &diags) {
  simt::LoweringOptions lowering;
  lowering.numWarps = options.numWarps;
  lowering.numStages = options.numStages;
  lowering.onlyFunction = options.kernel;
  return simt::compileToThreadIR(blockIR, target, lowering, diags);
}

std::string emitThreadIR(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                         Diagnostics &diags) {
  std::optional<Module> threadIR = lowerToThreadIR(blockIR, target, options, diags);
  return threadIR ? print(*threadIR) : std::string();
}

std::string emitLLVM(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                     Diagnostics &diags) {
  std::optional<Built> built = build(blockIR, target, options, diags);
  if (!built)
    return {};
  std::string text;
  llvm::raw_string_ostream os(text);
  built->module->print(os, nullptr);
  return os.str();
}

std::string emitAssembly(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                         Diagnostics &diags) {
  std::optional<Built> built = build(blockIR, target, options, diags);
  if (!built)
    return {};
  std::optional<std::string> text = emitFile(*built, llvm::CodeGenFileType::AssemblyFile, diags);
  return text ? *text : std::string();
}

std::optional<HSACOModule> compileModuleToHSACO(const Module &blockIR, const TargetDesc &target,
                                                const HSACOOptions &options, Diagnostics &diags) {
  std::optional<Built> built = build(blockIR, target, options, diags);
  if (!built)
    return std::nullopt;
  return finish(*built, diags);
}

std::optional<HSACOModule> compileThreadIRToHSACO(const Module &threadIR, const TargetDesc &target,
                                                  const HSACOOptions &options, Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  if (!arch)
    return std::nullopt;
  if (!verify(threadIR, diags) || !simt::verifyThreadIR(threadIR, diags))
    return std::nullopt;
  std::optional<Built> built = buildFromThreadIR(threadIR, *arch, options, diags);
  if (!built)
    return std::nullopt;
  return finish(*built, diags);
}

std::string emitLLVMFromThreadIR(const Module &threadIR, const TargetDesc &target, const HSACOOptions &options,
                                 Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  std::optional<Built> built = arch ? buildFromThreadIR(threadIR, *arch, options, diags) : std::nullopt;
  if (!built)
    return {};
  std::string text;
  llvm::raw_string_ostream os(text);
  built->module->print(os, nullptr);
  return os.str();
}

std::string emitAssemblyFromThreadIR(const Module &threadIR, const TargetDesc &target,
                                     const HSACOOptions &options, Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  std::optional<Built> built = arch ? buildFromThreadIR(threadIR, *arch, options, diags) : std::nullopt;
  if (!built)
    return {};
  std::optional<std::string> text = emitFile(*built, llvm::CodeGenFileType::AssemblyFile, diags);
  return text ? *text : std::string();
}

std::string compileToHSACO(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                           Diagnostics &diags) {
  std::optional<HSACOModule> m = compileModuleToHSACO(blockIR, target, options, diags);
  return m ? m->hsaco : std::string();
}

} // namespace trident::amdgpu
