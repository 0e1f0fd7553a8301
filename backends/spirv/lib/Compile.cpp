// The pipeline from block IR to validated SPIR-V: the SIMT lowering with the
// device's TargetDesc, the translation, SPIRV-Tools' validator (and optimizer).
#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Tools.h"

#include "trident/simt/Lowering.h"
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
  return simt::compileToThreadIR(blockIR, target, lowering, diags);
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
