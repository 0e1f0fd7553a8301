// The stages from block IR to verified thread IR as calls a backend lists (ThreadIRStages.h).
#include "trident/simt/ThreadIRStages.h"

#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/DCE.h"
#include "trident/passes/Pipeline.h"
#include "trident/simt/SimtPasses.h"
#include "trident/simt/VerifyThreadIR.h"

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
void setMinPrograms(Module &m, const TargetDesc &t) {
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

namespace {

// The dump's folder: the function asked for, or the module's only one.
std::string kernelName(const Module &m, const LoweringOptions &options) {
  if (!options.onlyFunction.empty())
    return options.onlyFunction;
  std::vector<Op *> functions = m.functions();
  return functions.size() == 1 ? std::string(func::name(functions[0])) : std::string();
}

} // namespace

ThreadIRStages::ThreadIRStages(const Module &blockIR, const TargetDesc &target, const LoweringOptions &options,
                               Diagnostics &diags)
    : stages_("simt", kernelName(blockIR, options)), target_(target), options_(options), diags_(diags),
      m_(blockIR.clone()) {}

void ThreadIRStages::blockPipeline() {
  if (!ok_ || blockPipelineDone(m_))
    return;
  PassManagerOptions pmOptions;
  pmOptions.afterEach = [&](const std::string &pass, const Module &after) {
    stages_.lap(pass.c_str(), "tir", [&] { return print(after); });
  };
  PassManager pm(pmOptions);
  addDefaultPipeline(pm);
  ok_ = pm.run(m_, diags_);
}

void ThreadIRStages::pass(const char *name) {
  if (!ok_)
    return;
  if (std::string_view(name) == "lower-to-thread-ir")
    laidOut_ = m_.clone();
  SimtPassContext context{target_, options_};
  const SimtPassInfo *p = lookupSimtPass(name);
  ok_ = p && p->run(m_, context, diags_);
  if (!p)
    diags_.error(Location(), "internal error: no SIMT pass '" + std::string(name) + "'");
  if (ok_)
    stages_.lap(name, "tir", [&] { return print(m_); });
}

void ThreadIRStages::fewerRingStages() {
  if (!ok_ || !laidOut_)
    return;
  std::optional<Module> fewer = withFewerStages(*laidOut_, m_, target_, options_);
  laidOut_.reset();
  if (!fewer) {
    stages_.lap("fewer-ring-stages");
    return;
  }
  m_ = std::move(*fewer);
  stages_.lap("fewer-ring-stages", "tir", [&] { return print(m_); });
}

void ThreadIRStages::markMinPrograms() {
  if (!ok_)
    return;
  setMinPrograms(m_, target_);
  stages_.lap("min-programs");
}

void ThreadIRStages::dce() {
  if (!ok_)
    return;
  eliminateDeadCode(m_, diags_);
  stages_.lap("dce", "tir", [&] { return print(m_); });
}

std::optional<Module> ThreadIRStages::verified() {
  if (!ok_)
    return std::nullopt;
  if (!verify(m_, diags_) || !verifyThreadIR(m_, diags_)) {
    diags_.error(Location(), "internal error: the SIMT lowering produced invalid thread IR");
    return std::nullopt;
  }
  stages_.lap("verify-thread-ir");
  ok_ = false; // the module is moved out
  return std::move(m_);
}

} // namespace trident::simt
