// Every stage of a CUDA compile, in order: the NVIDIA compiler's table of contents.
// Each stage has a name that TRIDENT_TIME_STAGES prints and TRIDENT_DUMP_IR names its
// file after (DIR/<kernel>/NN-<who>-<stage>.<ext>, StageTimer.h).
//
//   who      stage                    what                                           where
//   runtime  frontend                 .py + signature -> block IR, specialized        frontend/
//   runtime  inline ... dce           the block-IR pipeline                           passes/Pipeline.cpp
//            -- block IR text crosses the plugin ABI, marked block_pipeline = "default" --
//   simt     (inline ... dce)         the same, for block IR the runtime did not optimize
//   simt     expand-descriptors       tt.descriptor_load as masked loads, but where TMA serves it
//   simt     assign-layouts           a layout on every block value (attributes)      simt/SimtPasses.cpp
//   simt     lower-to-thread-ir       every op in its layouts, dot loops pipelined
//   simt     allocate-shared-memory   shared memory placed by liveness
//   simt     fewer-ring-stages        one ring stage fewer where two programs then fit
//   simt     min-programs             programs per multiprocessor, for ptxas (TRIDENT_CUDA_MIN_PROGRAMS)
//   simt     insert-barriers          th.barrier where shared memory needs one
//   simt     dce, verify-thread-ir    what nothing reads dropped; both verifiers
//   nvptx    to LLVM IR               thread IR -> LLVM IR with NVPTX's hooks         CodeGen.cpp
//   nvptx    libdevice                the __nv_* math functions linked                Libdevice.cpp
//   nvptx    optimize                 LLVM's O2 for the target machine                llvm/lib/Optimize.cpp
//   nvptx    PTX                      LLVM's NVPTX backend
//   cuda     (ptxas)                  a cubin with TRIDENT_CUDA_CUBIN=1 or --emit cubin (plugins/cuda)
//
// The CUDA plugin, `trident compile --target cuda:...` and trident-translate call the
// functions below, each the list up to where it stops (--emit thread-ir, llvm, ptx);
// `trident-opt --assign-layouts ...` runs the simt passes one by one on text.
#include "CodeGenSteps.h"

#include "Libdevice.h"
#include "NVPTXHooks.h"
#include "trident/backends/llvm/Optimize.h"
#include "trident/ir/Printer.h"
#include "trident/simt/ThreadIRStages.h"
#include "trident/support/StageTimer.h"

namespace trident::nvptx {

namespace {

// Thread IR -> optimized LLVM IR, ready for the NVPTX code generator.
std::unique_ptr<llvm::Module> toLLVM(const Module &threadIR, llvm::LLVMContext &ctx, llvm::TargetMachine &tm,
                                     unsigned optLevel, StageTimer &stages, Diagnostics &diags) {
  std::unique_ptr<llvm::Module> m = translate(threadIR, ctx, diags);
  if (!m)
    return nullptr;
  auto text = [&m] { return llvmgen::llvmText(*m); };
  stages.lap("to LLVM IR", "ll", text);
  m->setDataLayout(tm.createDataLayout());
  if (!linkLibdevice(*m, diags))
    return nullptr;
  stages.lap("libdevice");
  pairNarrowingConversions(*m);
  llvmgen::optimize(*m, tm, optLevel);
  stages.lap("optimize", "ll", text);
  return m;
}

} // namespace

std::optional<Module> lowerToThreadIR(const Module &blockIR, const TargetDesc &target,
                                      const PTXOptions &options, Diagnostics &diags) {
  simt::LoweringOptions lowering;
  lowering.numWarps = options.numWarps;
  lowering.numStages = options.numStages;
  lowering.onlyFunction = options.kernel;
  simt::ThreadIRStages s(blockIR, target, lowering, diags);
  s.blockPipeline();
  s.pass("expand-descriptors");
  s.pass("assign-layouts");
  s.pass("lower-to-thread-ir");
  s.pass("allocate-shared-memory");
  s.fewerRingStages();
  s.markMinPrograms();
  s.pass("insert-barriers");
  s.dce();
  return s.verified();
}

std::optional<PTXModule> compileThreadIRToPTX(const Module &threadIR, const TargetDesc &target,
                                              const PTXOptions &options, Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  if (!arch)
    return std::nullopt;
  StageTimer stages("nvptx", options.kernel);
  PTXModule out;
  out.kernels = kernelInfos(threadIR);
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(*arch, &threadIR, options.optLevel, diags);
  if (!tm)
    return std::nullopt;
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = toLLVM(threadIR, ctx, *tm, options.optLevel, stages, diags);
  std::optional<std::string> ptx = m ? emitPTX(*m, *tm, *arch, diags) : std::nullopt;
  if (!ptx)
    return std::nullopt;
  out.ptx = std::move(*ptx);
  stages.lap("PTX", "ptx", [&] { return out.ptx; });
  return out;
}

std::optional<PTXModule> compileModuleToPTX(const Module &blockIR, const TargetDesc &target,
                                            const PTXOptions &options, Diagnostics &diags) {
  if (!archOf(target, diags))
    return std::nullopt;
  std::optional<Module> threadIR = lowerToThreadIR(blockIR, target, options, diags);
  return threadIR ? compileThreadIRToPTX(*threadIR, target, options, diags) : std::nullopt;
}

std::string emitLLVMFromThreadIR(const Module &threadIR, const TargetDesc &target, const PTXOptions &options,
                                 Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  if (!arch)
    return {};
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(*arch, &threadIR, options.optLevel, diags);
  if (!tm)
    return {};
  llvm::LLVMContext ctx;
  StageTimer stages("nvptx", options.kernel);
  std::unique_ptr<llvm::Module> m = toLLVM(threadIR, ctx, *tm, options.optLevel, stages, diags);
  return m ? llvmgen::llvmText(*m) : std::string();
}

std::string emitThreadIR(const Module &blockIR, const TargetDesc &target, const PTXOptions &options,
                         Diagnostics &diags) {
  std::optional<Module> threadIR = lowerToThreadIR(blockIR, target, options, diags);
  return threadIR ? print(*threadIR) : std::string();
}

std::string emitLLVM(const Module &blockIR, const TargetDesc &target, const PTXOptions &options,
                     Diagnostics &diags) {
  std::optional<Module> threadIR = archOf(target, diags) ? lowerToThreadIR(blockIR, target, options, diags)
                                                         : std::nullopt;
  return threadIR ? emitLLVMFromThreadIR(*threadIR, target, options, diags) : std::string();
}

std::string compileToPTX(const Module &blockIR, const TargetDesc &target, const PTXOptions &options,
                         Diagnostics &diags) {
  std::optional<PTXModule> m = compileModuleToPTX(blockIR, target, options, diags);
  return m ? m->ptx : std::string();
}

} // namespace trident::nvptx
