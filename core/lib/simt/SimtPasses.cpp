// The SIMT lowering's steps as passes on a module (SimtPasses.h).
#include "trident/simt/SimtPasses.h"

#include "trident/simt/Barriers.h"
#include "trident/simt/LayoutAttributes.h"
#include "trident/simt/VerifyThreadIR.h"
#include "trident/passes/ExpandDescriptors.h"

#include "Tma.h"

#include <unordered_map>

namespace trident::simt {

namespace {

// The functions the lowering would lower: kernels (no results), or the one asked for.
std::vector<Op *> kernels(const Module &m, const LoweringOptions &options) {
  std::vector<Op *> out;
  for (Op *f : m.functions())
    if (options.onlyFunction.empty() ? func::resultTypes(f).empty() : func::name(f) == options.onlyFunction)
      out.push_back(f);
  return out;
}

bool isThreadFunction(const Op *f) { return f->attr("num_threads").present(); }

// The module's descriptor loads, each with the warps of its kernel as the lowering counts them.
std::vector<std::pair<Op *, unsigned>> descriptorLoads(Module &m, const SimtPassContext &c) {
  std::vector<std::pair<Op *, unsigned>> loads;
  for (Op *f : m.functions()) {
    unsigned warps = c.lowering.numWarps ? c.lowering.numWarps : defaultNumWarps(f, c.target);
    f->walk([&](Op *op) {
      if (op->is(OpCode::DescriptorLoad))
        loads.emplace_back(op, warps);
    });
  }
  return loads;
}

bool expandDescriptorsPass(Module &m, const SimtPassContext &c, Diagnostics &diags) {
  for (auto [load, warps] : descriptorLoads(m, c))
    transposeForTensorMap(load, c.target, warps);
  std::unordered_map<const Op *, unsigned> warpsOf; // of the loads as they are now
  for (auto [load, warps] : descriptorLoads(m, c))
    warpsOf[load] = warps;
  return expandDescriptorLoads(m, diags, [&](const Op *op) {
    auto it = warpsOf.find(op);
    return it != warpsOf.end() && tensorMapCandidate(op, c.target, it->second);
  });
}

bool assignLayoutsPass(Module &m, const SimtPassContext &c, Diagnostics &diags) {
  for (Op *f : kernels(m, c.lowering)) {
    if (isThreadFunction(f)) {
      diags.error(f->loc(), "assign-layouts runs on block IR; tt.func '" + std::string(func::name(f)) +
                                "' is thread IR already");
      return false;
    }
    eraseLayoutAttributes(f);
    unsigned numWarps = c.lowering.numWarps ? c.lowering.numWarps : defaultNumWarps(f, c.target);
    if (!isPowerOfTwo(numWarps) || numWarps * c.target.warpSize > c.target.maxThreadsPerProgram) {
      diags.error(f->loc(), "num_warps = " + std::to_string(numWarps) + " is not a power of two of at most " +
                                std::to_string(c.target.maxThreadsPerProgram / c.target.warpSize) +
                                " warps on " + c.target.name);
      return false;
    }
    writeLayoutAttributes(f, assignLayouts(f, c.target, numWarps));
  }
  return true;
}

bool lowerToThreadIRPass(Module &m, const SimtPassContext &c, Diagnostics &diags) {
  LoweringOptions options = c.lowering;
  options.allocateSharedMemory = false;
  options.insertBarriers = false;
  std::optional<Module> threadIR = lowerToThreadIR(m, c.target, options, diags);
  if (!threadIR)
    return false;
  if (!verifyThreadIR(*threadIR, diags)) {
    diags.error(Location(), "internal error: the SIMT lowering produced invalid thread IR");
    return false;
  }
  m = std::move(*threadIR);
  return true;
}

// The thread-IR functions of `m`, or an error naming the pass that needs them.
bool threadFunctions(const Module &m, std::string_view pass, std::vector<Op *> &out, Diagnostics &diags) {
  for (Op *f : m.functions()) {
    if (!isThreadFunction(f)) {
      diags.error(f->loc(), std::string(pass) + " runs on thread IR; tt.func '" + std::string(func::name(f)) +
                                "' has no num_threads (run --lower-to-thread-ir first)");
      return false;
    }
    out.push_back(f);
  }
  return true;
}

bool allocateSharedMemoryPass(Module &m, const SimtPassContext &c, Diagnostics &diags) {
  std::vector<Op *> funcs;
  if (!threadFunctions(m, "allocate-shared-memory", funcs, diags))
    return false;
  for (Op *f : funcs)
    if (!placeSharedMemory(f, c.target, diags))
      return false;
  return true;
}

bool insertBarriersPass(Module &m, const SimtPassContext &, Diagnostics &diags) {
  std::vector<Op *> funcs;
  if (!threadFunctions(m, "insert-barriers", funcs, diags))
    return false;
  bool placed = true;
  for (Op *f : funcs)
    f->walk([&](Op *op) {
      if (op->is(OpCode::ThSharedAlloc) && op->intAttr("offset") < 0)
        placed = false;
    });
  if (!placed) {
    diags.error(Location(), "insert-barriers needs shared memory placed (run --allocate-shared-memory first)");
    return false;
  }
  for (Op *f : funcs)
    insertBarriers(f);
  return true;
}

bool verifyThreadIRPass(Module &m, const SimtPassContext &, Diagnostics &diags) { return verifyThreadIR(m, diags); }

const SimtPassInfo kPasses[] = {
    {"expand-descriptors", "tt.descriptor_load as masked tt.load, but for those the target's tensor maps serve",
     expandDescriptorsPass},
    {"assign-layouts", "give every block value a layout (attributes: layouts, access_layout, mma_atom ...)",
     assignLayoutsPass},
    {"lower-to-thread-ir", "lower block IR to thread IR in its layouts (assigned first where absent)",
     lowerToThreadIRPass},
    {"allocate-shared-memory", "place th.shared_alloc by liveness and set shared_bytes", allocateSharedMemoryPass},
    {"insert-barriers", "insert the th.barrier ops that shared memory needs", insertBarriersPass},
    {"verify-thread-ir", "check the rules of thread IR (docs/thread-ir.md)", verifyThreadIRPass},
};

} // namespace

std::span<const SimtPassInfo> simtPasses() { return kPasses; }

const SimtPassInfo *lookupSimtPass(std::string_view name) {
  for (const SimtPassInfo &p : kPasses)
    if (p.name == name)
      return &p;
  return nullptr;
}

} // namespace trident::simt
