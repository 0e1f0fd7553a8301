// The pieces of the NVPTX stages (CodeGenSteps.h): the target machine, the translation
// to LLVM IR with NVPTX's hooks, PTX from LLVM's NVPTX backend. Stages.cpp runs them.
#include "CodeGenSteps.h"

#include "NVPTXHooks.h"
#include "trident/backends/llvm/CodeGen.h"
#include "trident/backends/nvptx/Target.h"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace trident::nvptx {

namespace {

void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

// fp8 tensor-core atoms need PTX 8.4; every other kernel keeps PTX 8.0, which older
// drivers accept too.
bool usesFp8MatrixUnits(const Module &threadIR) {
  bool fp8 = false;
  threadIR.op()->walk([&](Op *op) {
    if (op->is(OpCode::ThMma) || op->is(OpCode::ThWgmma)) {
      std::string atom = op->stringAttr("atom");
      fp8 = fp8 || atom.find("e4m3") != std::string::npos || atom.find("e5m2") != std::string::npos;
    }
  });
  return fp8;
}

} // namespace

std::unique_ptr<llvm::TargetMachine> createTargetMachine(const std::string &arch, const Module *threadIR,
                                                         unsigned optLevel, Diagnostics &diags) {
  initializeNVPTX();
  std::string triple = "nvptx64-nvidia-cuda", error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    diags.error(Location(), "LLVM has no NVPTX target: " + error);
    return nullptr;
  }
  llvm::TargetOptions options;
  // Multiplies and adds may fuse into fma, as Triton compiles by default
  // (enable_fp_fusion=True): one rounding instead of two, and half the instructions in
  // softmax-like code (x * scale - max). Without it LLVM writes mul.rn/add.rn, which
  // ptxas must not contract.
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  auto level = optLevel == 0   ? llvm::CodeGenOptLevel::None
               : optLevel == 1 ? llvm::CodeGenOptLevel::Less
               : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                               : llvm::CodeGenOptLevel::Aggressive;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, llvmProcessor(arch), ptxFeatures(arch, threadIR && usesFp8MatrixUnits(*threadIR)), options, std::nullopt, std::nullopt, level));
}

std::unique_ptr<llvm::Module> translate(const Module &threadIR, llvm::LLVMContext &ctx, Diagnostics &diags) {
  bool warpgroupDots = false;
  threadIR.op()->walk([&](Op *op) { warpgroupDots = warpgroupDots || op->is(OpCode::ThWgmma); });
  NVPTXHooks hooks(warpgroupDots);
  std::unique_ptr<llvm::Module> m = llvmgen::translateToLLVM(threadIR, ctx, hooks, diags);
  if (!m)
    return nullptr;
  // Programs a multiprocessor should hold (the simt stage min-programs): ptxas keeps
  // each thread's registers within what that many take (.minnctapersm). Only with
  // TRIDENT_CUDA_MIN_PROGRAMS=on: on the H200 it won on attention at D = 64 (426.6 against
  // 404.8 TFLOP/s; through descriptors 437.9 against 401.4) and lost on its causal kernels
  // (334.9 against 350.3) and its backward (200.1 against 336.8: spills).
  const char *minPrograms = std::getenv("TRIDENT_CUDA_MIN_PROGRAMS");
  if (minPrograms && !std::strcmp(minPrograms, "on"))
    for (Op *f : threadIR.functions())
      if (f->attr("min_programs").isInt())
        if (llvm::Function *fn = m->getFunction(std::string(func::name(f)))) {
          auto i32 = [&](int64_t v) {
            return llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), uint64_t(v)));
          };
          m->getOrInsertNamedMetadata("nvvm.annotations")
              ->addOperand(llvm::MDNode::get(ctx, {llvm::ConstantAsMetadata::get(fn), llvm::MDString::get(ctx, "minctasm"),
                                                   i32(f->intAttr("min_programs"))}));
        }
  return m;
}

std::optional<std::string> archOf(const TargetDesc &target, Diagnostics &diags) {
  std::optional<std::string> arch = architecture(target.name);
  if (!arch)
    diags.error(Location(), "'" + target.name +
                                "' is not an NVIDIA target this backend supports (sm_80, sm_86, "
                                "sm_89, sm_90)");
  return arch;
}

std::optional<std::string> emitPTX(llvm::Module &m, llvm::TargetMachine &tm, const std::string &arch,
                                   Diagnostics &diags) {
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager pm;
  // The module was verified after translation and LLVM's passes keep it valid.
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile, /*DisableVerify=*/true)) {
    diags.error(Location(), "LLVM's NVPTX backend cannot emit PTX for " + arch);
    return std::nullopt;
  }
  pm.run(m);
  return ptx.str().str();
}

std::vector<KernelInfo> kernelInfos(const Module &threadIR) {
  std::vector<KernelInfo> out;
  for (Op *f : threadIR.functions()) {
    const Attribute &maps = f->attr("tensor_maps");
    std::vector<int64_t> words = maps.isInts() ? maps.getInts() : std::vector<int64_t>{};
    out.push_back({std::string(func::name(f)), static_cast<unsigned>(f->intAttr("num_threads")),
                   static_cast<uint64_t>(f->intAttr("shared_bytes")),
                   static_cast<unsigned>(f->region()->numArguments() - words.size() / 19), words});
  }
  return out;
}

} // namespace trident::nvptx
