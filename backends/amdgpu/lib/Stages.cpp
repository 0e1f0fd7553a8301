// Every stage of a HIP compile, in order: the AMD compiler's table of contents. Each
// stage has a name that TRIDENT_TIME_STAGES prints and TRIDENT_DUMP_IR names its file
// after (DIR/<kernel>/NN-<who>-<stage>.<ext>, StageTimer.h).
//
//   who      stage                    what                                           where
//   runtime  frontend                 .py + signature -> block IR, specialized        frontend/
//   runtime  inline ... dce           the block-IR pipeline                           passes/Pipeline.cpp
//            -- block IR text crosses the plugin ABI, marked block_pipeline = "default" --
//   simt     (inline ... dce)         the same, for block IR the runtime did not optimize
//   simt     expand-descriptors       tt.descriptor_load as masked loads             simt/SimtPasses.cpp
//   simt     assign-layouts           a layout on every block value (attributes)
//   simt     lower-to-thread-ir       every op in its layouts, dot loops' operands loaded ahead
//   simt     allocate-shared-memory   LDS placed by liveness
//   simt     insert-barriers          th.barrier where LDS needs one
//   simt     dce, verify-thread-ir    what nothing reads dropped; both verifiers
//   amdgpu   to LLVM IR               thread IR -> LLVM IR with AMDGPU's hooks        CodeGen.cpp
//   amdgpu   device libs              static LDS; ocml/ockl linked, oclc set          DeviceLibs.cpp
//   amdgpu   optimize                 LLVM's O3 for the target machine                llvm/lib/Optimize.cpp
//   amdgpu   object (or assembly)     LLVM's AMDGPU backend
//   amdgpu   code object              lld, in process                                 Linker.cpp
//
// The HIP plugin, `trident compile --target hip:...` and trident-translate call the
// functions below, each the list up to where it stops (--emit thread-ir, llvm, amdgcn);
// `trident-opt --assign-layouts ...` runs the simt passes one by one on text.
#include "CodeGenSteps.h"

#include "DeviceLibs.h"
#include "Linker.h"
#include "trident/backends/llvm/Optimize.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/simt/ThreadIRStages.h"
#include "trident/simt/VerifyThreadIR.h"
#include "trident/support/StageTimer.h"

namespace trident::amdgpu {

namespace {

// The optimized module, its target machine, and the stages' timer for what follows.
struct Built {
  explicit Built(const std::string &kernel) : stages("amdgpu", kernel) {}
  StageTimer stages;
  std::unique_ptr<llvm::LLVMContext> ctx;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::Module> module;
  std::vector<KernelInfo> kernels;
};

// Thread IR -> optimized LLVM IR, ready for the AMDGPU code generator.
std::optional<Built> toLLVM(const Module &threadIR, const std::string &arch, const HSACOOptions &options,
                            Diagnostics &diags) {
  std::optional<Built> out(std::in_place, options.kernel);
  out->kernels = kernelInfos(threadIR);
  out->tm = createTargetMachine(arch, options.optLevel, diags);
  if (!out->tm)
    return std::nullopt;
  out->ctx = std::make_unique<llvm::LLVMContext>();
  out->stages.lap("target machine");
  llvm::Module *m = (out->module = translate(threadIR, *out->ctx, arch, options.wavesPerEU, diags)).get();
  if (!m)
    return std::nullopt;
  auto text = [m] { return llvmgen::llvmText(*m); };
  out->stages.lap("to LLVM IR", "ll", text);
  m->setDataLayout(out->tm->createDataLayout());
  // Code object v5, the ABI oclc_abi_version_500 tells the device libraries about.
  m->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", uint32_t(500));
  placeSharedMemory(*m, threadIR);
  if (!linkDeviceLibs(*m, arch, diags))
    return std::nullopt;
  out->stages.lap("device libs");
  llvmgen::optimize(*m, *out->tm, options.optLevel);
  out->stages.lap("optimize", "ll", text);
  return out;
}

std::optional<Built> blockIRToLLVM(const Module &blockIR, const TargetDesc &target,
                                   const HSACOOptions &options, Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  std::optional<Module> threadIR = arch ? lowerToThreadIR(blockIR, target, options, diags) : std::nullopt;
  return threadIR ? toLLVM(*threadIR, *arch, options, diags) : std::nullopt;
}

std::string assembly(std::optional<Built> built, Diagnostics &diags) {
  std::optional<std::string> text =
      built ? emitFile(*built->module, *built->tm, llvm::CodeGenFileType::AssemblyFile, diags) : std::nullopt;
  if (!text)
    return {};
  built->stages.lap("assembly", "s", [&] { return *text; });
  return *text;
}

std::optional<HSACOModule> codeObject(std::optional<Built> built, Diagnostics &diags) {
  std::optional<std::string> object =
      built ? emitFile(*built->module, *built->tm, llvm::CodeGenFileType::ObjectFile, diags) : std::nullopt;
  if (!object)
    return std::nullopt;
  built->stages.lap("object");
  std::optional<std::string> hsaco = linkCodeObject(*object, diags);
  if (!hsaco)
    return std::nullopt;
  built->stages.lap("code object");
  return HSACOModule{std::move(*hsaco), std::move(built->kernels)};
}

} // namespace

std::optional<Module> lowerToThreadIR(const Module &blockIR, const TargetDesc &target,
                                      const HSACOOptions &options, Diagnostics &diags) {
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
  s.pass("insert-barriers");
  s.dce();
  return s.verified();
}

std::optional<HSACOModule> compileModuleToHSACO(const Module &blockIR, const TargetDesc &target,
                                                const HSACOOptions &options, Diagnostics &diags) {
  return codeObject(blockIRToLLVM(blockIR, target, options, diags), diags);
}

std::optional<HSACOModule> compileThreadIRToHSACO(const Module &threadIR, const TargetDesc &target,
                                                  const HSACOOptions &options, Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  if (!arch || !verify(threadIR, diags) || !simt::verifyThreadIR(threadIR, diags))
    return std::nullopt;
  return codeObject(toLLVM(threadIR, *arch, options, diags), diags);
}

std::string emitThreadIR(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                         Diagnostics &diags) {
  std::optional<Module> threadIR = lowerToThreadIR(blockIR, target, options, diags);
  return threadIR ? print(*threadIR) : std::string();
}

std::string emitLLVM(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                     Diagnostics &diags) {
  std::optional<Built> built = blockIRToLLVM(blockIR, target, options, diags);
  return built ? llvmgen::llvmText(*built->module) : std::string();
}

std::string emitAssembly(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                         Diagnostics &diags) {
  return assembly(blockIRToLLVM(blockIR, target, options, diags), diags);
}

std::string emitLLVMFromThreadIR(const Module &threadIR, const TargetDesc &target,
                                 const HSACOOptions &options, Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  std::optional<Built> built = arch ? toLLVM(threadIR, *arch, options, diags) : std::nullopt;
  return built ? llvmgen::llvmText(*built->module) : std::string();
}

std::string emitAssemblyFromThreadIR(const Module &threadIR, const TargetDesc &target,
                                     const HSACOOptions &options, Diagnostics &diags) {
  std::optional<std::string> arch = archOf(target, diags);
  return assembly(arch ? toLLVM(threadIR, *arch, options, diags) : std::nullopt, diags);
}

std::string compileToHSACO(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                           Diagnostics &diags) {
  std::optional<HSACOModule> m = compileModuleToHSACO(blockIR, target, options, diags);
  return m ? m->hsaco : std::string();
}

} // namespace trident::amdgpu
