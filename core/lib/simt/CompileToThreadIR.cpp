// The path every backend shares from block IR to verified thread IR (Lowering.h), as a
// list of named stages, each timed and dumped (StageTimer.h):
//
//   the block-IR pipeline    inline, canonicalize, cse, version-signs, licm, canonicalize,
//                            cse, dce (passes/Pipeline.cpp), unless the runtime ran it
//                            already (the module's block_pipeline = "default")
//   expand-descriptors       tt.descriptor_load as masked loads, but where TMA serves it
//   assign-layouts           layouts written onto the block IR as attributes
//   lower-to-thread-ir       every op lowered in those layouts, dot loops pipelined
//   allocate-shared-memory   offsets by liveness; then, where the rings keep a second
//                            program off each multiprocessor and one stage fewer would
//                            not, those two steps again with one stage fewer
//   insert-barriers          th.barrier where shared memory needs one
//   dce                      what the lowering made for every register but nothing reads
//   verify-thread-ir         both verifiers; a failure is an internal error of the lowering
//
// These are the passes of SimtPasses.h, the ones `trident-opt --assign-layouts ...` runs.
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/DCE.h"
#include "trident/passes/Pipeline.h"
#include "trident/simt/Lowering.h"
#include "trident/simt/SimtPasses.h"
#include "trident/simt/VerifyThreadIR.h"
#include "trident/support/StageTimer.h"

#include <algorithm>

namespace trident::simt {

namespace {

// Programs of `f` (a lowered kernel, shared memory placed) one multiprocessor holds by its
// shared memory, and at most by its registers (counting 255 a thread, the most a thread
// may have: the lowering cannot know what ptxas will use).
int64_t residentPrograms(const Op *f, const TargetDesc &t) {
  int64_t threads = f->intAttr("num_threads"), shared = f->intAttr("shared_bytes");
  int64_t byShared = int64_t(t.sharedMemoryPerProcessor) / (shared + int64_t(t.sharedReservedPerProgram));
  int64_t byRegisters = int64_t(t.registersPerProcessor) / (threads * 255);
  return std::min(byShared, byRegisters);
}

// The kernel lowered again with one ring stage fewer (loops without their own num_stages),
// when the rings' shared memory alone keeps a second program off each multiprocessor and
// one stage fewer lets it on: attention at HEAD_DIM 128 on 4 warps, 131072 bytes with 3
// stages (one program) and 98304 with 2 (two) ran at 385 and 502 TFLOP/s on the H200.
std::optional<Module> withFewerStages(const Module &laidOut, const Module &lowered, const TargetDesc &target,
                                      const LoweringOptions &options) {
  std::vector<Op *> fs = lowered.functions();
  if (fs.size() != 1 || !target.sharedMemoryPerProcessor || !target.registersPerProcessor || options.numStages <= 2)
    return std::nullopt;
  bool rings = false;
  fs[0]->walk([&](Op *op) { rings = rings || (op->is(OpCode::ThSharedAlloc) && op->attr("pipelined").present()); });
  int64_t now = residentPrograms(fs[0], target);
  if (!rings || now != 1 || int64_t(target.registersPerProcessor) / (fs[0]->intAttr("num_threads") * 255) < 2)
    return std::nullopt;
  LoweringOptions fewer = options;
  fewer.numStages = options.numStages - 1;
  SimtPassContext context{target, fewer};
  Module m = laidOut.clone();
  Diagnostics quiet;
  for (const char *step : {"lower-to-thread-ir", "allocate-shared-memory"})
    if (!lookupSimtPass(step)->run(m, context, quiet))
      return std::nullopt;
  std::vector<Op *> again = m.functions();
  if (again.size() != 1 || residentPrograms(again[0], target) < 2)
    return std::nullopt;
  return m;
}

// How many programs a multiprocessor should hold, on kernels whose shared memory would let
// it hold several (min_programs, which NVPTX gives ptxas as .minnctapersm): as many as the
// shared memory allows, but never so many that a thread would get under 168 registers
// (fewer made ptxas spill a 128 x 64 matmul tile on 4 warps). Attention at HEAD_DIM 64 on
// 4 warps: 65536 bytes allow 3 programs, its 178 registers 2 (168 with 36 bytes spilled).
void markMinPrograms(Module &m, const TargetDesc &t) {
  if (!t.sharedMemoryPerProcessor || !t.registersPerProcessor)
    return;
  for (Op *f : m.functions()) {
    int64_t threads = f->intAttr("num_threads"), shared = f->intAttr("shared_bytes");
    if (shared == 0)
      continue; // nothing to share: registers alone decide, as ptxas sees fit
    int64_t byShared = int64_t(t.sharedMemoryPerProcessor) / (shared + int64_t(t.sharedReservedPerProgram));
    int64_t programs = std::min(byShared, int64_t(t.registersPerProcessor) / (threads * 168));
    if (programs >= 2)
      f->setAttr("min_programs", Attribute::integer(std::min<int64_t>(programs, 8)));
  }
}

} // namespace

std::optional<Module> compileToThreadIR(const Module &blockIR, const TargetDesc &target,
                                        const LoweringOptions &options, Diagnostics &diags) {
  std::vector<Op *> functions = blockIR.functions();
  std::string kernel = !options.onlyFunction.empty() ? options.onlyFunction
                       : functions.size() == 1         ? std::string(func::name(functions[0]))
                                                       : std::string();
  StageTimer stages("simt", kernel);
  auto text = [](const Module &m) { return [&m] { return print(m); }; };
  Module m = blockIR.clone();
  PassManagerOptions pmOptions;
  pmOptions.afterEach = [&](const std::string &pass, const Module &after) {
    stages.lap(pass.c_str(), "tir", text(after));
  };
  PassManager pm(pmOptions);
  if (!blockPipelineDone(m))
    addDefaultPipeline(pm);
  if (!pm.run(m, diags))
    return std::nullopt;
  SimtPassContext context{target, options};
  for (const char *step : {"expand-descriptors", "assign-layouts"}) {
    if (!lookupSimtPass(step)->run(m, context, diags))
      return std::nullopt;
    stages.lap(step, "tir", text(m));
  }
  Module laidOut = m.clone();
  for (const char *step : {"lower-to-thread-ir", "allocate-shared-memory"}) {
    if (!lookupSimtPass(step)->run(m, context, diags))
      return std::nullopt;
    stages.lap(step, "tir", text(m));
  }
  if (std::optional<Module> fewer = withFewerStages(laidOut, m, target, options))
    m = std::move(*fewer);
  markMinPrograms(m, target);
  if (!lookupSimtPass("insert-barriers")->run(m, context, diags))
    return std::nullopt;
  stages.lap("insert-barriers", "tir", text(m));
  eliminateDeadCode(m, diags);
  stages.lap("dce", "tir", text(m));
  if (!verify(m, diags) || !verifyThreadIR(m, diags)) {
    diags.error(Location(), "internal error: the SIMT lowering produced invalid thread IR");
    return std::nullopt;
  }
  stages.lap("verify-thread-ir");
  return m;
}

} // namespace trident::simt
