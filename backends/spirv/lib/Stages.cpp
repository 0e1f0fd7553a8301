// Every stage of a Vulkan compile, in order: the SPIR-V compiler's table of contents.
// Each stage has a name that TRIDENT_TIME_STAGES prints and TRIDENT_DUMP_IR names its
// file after (DIR/<kernel>/NN-<who>-<stage>.<ext>, StageTimer.h).
//
//   who      stage                    what                                           where
//   runtime  frontend                 .py + signature -> block IR, specialized        frontend/
//   runtime  inline ... dce           the block-IR pipeline                           passes/Pipeline.cpp
//            -- block IR text crosses the plugin ABI, marked block_pipeline = "default" --
//   simt     (inline ... dce)         the same, for block IR the runtime did not optimize
//   simt     expand-descriptors       tt.descriptor_load as masked loads             simt/SimtPasses.cpp
//   simt     assign-layouts           a layout on every block value, for the device's subgroups
//   simt     lower-to-thread-ir       every op in its layouts, dots on cooperative matrices if any
//   simt     allocate-shared-memory   workgroup memory placed by liveness
//   simt     insert-barriers          th.barrier where workgroup memory needs one
//   simt     dce, verify-thread-ir    what nothing reads dropped; both verifiers
//   spirv    lower                    (the time of the simt stages)
//   spirv    translate                thread IR -> SPIR-V words                      Translate*.cpp
//   spirv    validate                 SPIRV-Tools' validator                          Tools.cpp
//   spirv    optimize, validate       TRIDENT_SPIRV_OPTIMIZE: SPIRV-Tools' optimizer, validated again
//
// The Vulkan plugin, `trident compile --target vulkan...` and trident-translate call the
// functions below; `trident-opt --assign-layouts ...` runs the simt passes one by one on text.
#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Tools.h"

#include "trident/simt/ThreadIRStages.h"
#include "trident/simt/VerifyThreadIR.h"
#include "trident/support/StageTimer.h"

#include <algorithm>

namespace trident::spirv {

bool isThreadIR(const Op *f) { return f->attr("num_threads").isInt(); }

namespace {

// Lowered warps for `numWarps` warps of 32 threads (0: Triton's default). num_warps
// counts warps of 32 threads, as on the GPUs Triton kernels are tuned for; where
// subgroups are narrower (lavapipe: 8, the CPU's vector width) the program keeps
// num_warps * 32 threads in more subgroups. With 4 times fewer threads each thread
// would hold 4 times more of every block, and the shader would be 4 times larger:
// lavapipe compiled the matmul sample's shaders in 98 s instead of 10 s.
// Never more threads than the device allows (the lowering reports the user's excess).
unsigned loweredWarps(const Module &blockIR, const TargetDesc &target, unsigned numWarps) {
  if (target.warpSize >= 32)
    return numWarps;
  if (numWarps == 0)
    for (const Op *f : blockIR.functions())
      numWarps = std::max(numWarps, simt::defaultNumWarps(f, target));
  if (numWarps == 0 || numWarps * target.warpSize > target.maxThreadsPerProgram)
    return numWarps; // nothing to scale, or refused by the lowering with the user's number
  unsigned scaled = numWarps;
  while (scaled * target.warpSize < numWarps * 32 && 2 * scaled * target.warpSize <= target.maxThreadsPerProgram)
    scaled *= 2;
  return scaled;
}

} // namespace

std::optional<Module> lowerToThreadIR(const Module &blockIR, const DeviceInfo &device, const SpirvOptions &options,
                                      Diagnostics &diags) {
  TargetDesc target = targetDesc(device);
  simt::LoweringOptions lowering;
  lowering.numWarps = loweredWarps(blockIR, target, options.numWarps);
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

std::optional<SpirvKernel> compileToSpirv(const Module &ir, std::string_view kernel, const DeviceInfo &device,
                                          const SpirvOptions &options, Diagnostics &diags) {
  const Op *f = ir.lookupFunction(kernel);
  if (!f) {
    diags.error(Location(), "the IR has no tt.func named '" + std::string(kernel) + "'");
    return std::nullopt;
  }
  StageTimer timer("spirv", kernel);
  std::optional<Module> lowered;
  const Module *threadIR = &ir;
  if (isThreadIR(f)) {
    if (!simt::verifyThreadIR(ir, diags))
      return std::nullopt;
  } else {
    lowered = lowerToThreadIR(ir, device, options, diags);
    if (!lowered)
      return std::nullopt;
    threadIR = &*lowered;
  }
  timer.lap("lower");
  std::optional<SpirvKernel> k = generateSpirv(*threadIR, kernel, device, diags);
  if (!k)
    return std::nullopt;
  timer.lap("translate", "spvasm", [&] { return disassemble(k->words); });
  std::string errors = validate(k->words);
  timer.lap("validate");
  if (!errors.empty()) {
    diags.error(f->loc(), "internal error: the SPIR-V of '" + std::string(kernel) + "' is invalid:\n" + errors +
                              disassemble(k->words));
    return std::nullopt;
  }
  if (options.optimize) {
    std::string error;
    if (!optimize(k->words, error)) {
      diags.error(f->loc(), "internal error: SPIRV-Tools' optimizer failed on '" + std::string(kernel) + "': " + error);
      return std::nullopt;
    }
    timer.lap("optimize", "spvasm", [&] { return disassemble(k->words); });
    if (errors = validate(k->words); !errors.empty()) {
      diags.error(f->loc(), "internal error: the optimized SPIR-V of '" + std::string(kernel) + "' is invalid:\n" +
                                errors);
      return std::nullopt;
    }
    timer.lap("validate");
  }
  return k;
}

} // namespace trident::spirv
