// Warp specialization of a pipelined dot loop fed by tensor copies (sm_90), asked for by
// `tl.range(..., warp_specialize=True)` (the block-IR loop's `warp_specialize` flag):
// one producer warpgroup, after the kernel's num_warps consumer warps, issues every
// stage's copies; the consumers wait for them, run the dots and hand each stage back.
// Each stage has two mbarriers: "full" (one th.tma_arrive per load, with the tile's
// bytes) and "empty" (one arrival per consumer warp once the dots reading it retired).
//
//   %full, %empty = S mbarriers each (thread 0 initializes them); th.barrier
//   th.warp_specialize {consumer_threads = C} ({
//     th.setmaxnreg {count = 40, mode = "dec"}     (with more than 256 threads)
//     scf.for %i (..., %state, %slot = 0, %parity = 1) {
//       th.mbarrier_wait %empty, %slot, %parity   // the consumers are done with the stage
//       th.tma_arrive %full, %slot, %bytes, %first; th.tma_load ... %full, %slot, %first ...
//       (the parity flips when the slot wraps)
//     }
//   }, {
//     th.setmaxnreg {count = 232, mode = "inc"}
//     scf.for %i (%acc..., %slot = 0, %parity = 0) {
//       th.mbarrier_wait %full, %slot, %parity; th.fence_async_shared
//       th.wgmma ... (stage %slot); th.wgmma_commit; th.wgmma_wait {pending = 1}
//       th.mbarrier_arrive %empty, %slot - 1, %lane0 && %i > %lb   // the previous stage
//     }
//     th.wgmma_wait {pending = 0}; th.barrier (the consumers'); the rest of the kernel
//   })
//   tt.return
//
// The producer starts with parity 1 on "empty": the phase before a new barrier's first
// counts as complete, so the first S stages go without waiting.
#include "LoopLowering.h"

#include <algorithm>

namespace trident::simt {

namespace {

// Block-IR ops that may run before the loop in every thread, producer warps included
// (whose warp ids lie past the layouts'): no memory, no cross-thread steps.
bool harmlessEverywhere(const Op *op) {
  if (op->numRegions())
    return false;
  switch (op->code()) {
  case OpCode::Constant:
  case OpCode::Splat:
  case OpCode::Broadcast:
  case OpCode::MakeRange:
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::MultipleOf:
  case OpCode::MaxContiguous:
  case OpCode::Assume:
  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: return true;
  default: return op->has(kElementwise) && op->has(kPure);
  }
}

// The registers each warpgroup keeps: the producer few (it only issues copies), the
// consumers what the program's register file leaves them, a multiple of 8, at most 256;
// 0 where an even split gives every thread 255 already (256 threads or fewer: ptxas then
// ignores th.setmaxnreg, its note C7508, as it cannot tell the count at entry).
constexpr int64_t kProducerRegisters = 40;

int64_t consumerRegisters(const Lowering &l, int64_t consumerThreads) {
  int64_t producerThreads = int64_t(kProducerWarps) * l.layouts.warpSize;
  int64_t file = int64_t(l.target.registersPerProcessor);
  if (file / (consumerThreads + producerThreads) >= 255)
    return 0;
  int64_t left = file - kProducerRegisters * producerThreads;
  return std::min<int64_t>(256, left / consumerThreads / 8 * 8);
}

void setMaxRegisters(Lowering &l, int64_t count, const char *mode) {
  l.b.create(OpCode::ThSetMaxNReg, std::span<Value *const>{}, std::span<const Type>{},
             {{"count", Attribute::integer(count)}, {"mode", Attribute::string(mode)}});
}

// The next slot of a ring of S stages and the parity its phase has there.
std::pair<Value *, Value *> nextSlot(Lowering &l, Value *slot, Value *parity, int stages) {
  Value *S = l.constI32(stages);
  auto [next, wraps] = advanceSlot(l, slot, 1, S);
  return {next, flipIf(l, wraps, parity)};
}

} // namespace

bool warpSpecializable(const Lowering &l, const Op *loop, const PipelinePlan &plan) {
  const Attribute &flag = loop->attr("warp_specialize");
  if (!flag.isBool() || !flag.getBool() || !l.target.asyncBarriers || plan.inRegisters || plan.asyncDots.empty())
    return false;
  unsigned warps = l.layouts.numWarps;
  if (warps % 4 || (warps + kProducerWarps) * l.layouts.warpSize > l.target.maxThreadsPerProgram ||
      l.target.registersPerProcessor == 0)
    return false;
  // Every load a tensor copy (the producer's alone), every dot asynchronous (each hands
  // its stage back one iteration later).
  if (!std::all_of(plan.loads.begin(), plan.loads.end(), [](const PipelinedLoad &p) { return p.tma.has_value(); }))
    return false;
  for (const Op *op : *const_cast<Op *>(loop)->region())
    if (op->is(OpCode::Dot) && std::find(plan.asyncDots.begin(), plan.asyncDots.end(), op) == plan.asyncDots.end())
      return false;
  // A loop of the kernel's body itself, after which the kernel is the consumers' alone,
  // and before which every op may run in the producer warps too.
  const Op *parent = loop->parentOp();
  if (!l.loops.empty() || l.specialized || !parent || !parent->is(OpCode::Func))
    return false;
  for (const Op *op : *loop->parentBlock()) {
    if (op == loop)
      break;
    if (!harmlessEverywhere(op))
      return false;
  }
  return true;
}

bool lowerWarpSpecializedFor(Lowering &l, Op *op, const PipelinePlan &plan) {
  Block *body = op->region();
  std::vector<Value *> iterArgs;
  for (unsigned i = 1; i < body->numArguments(); ++i)
    iterArgs.push_back(body->argument(i));
  std::vector<LinearLayout> layouts = layoutsOf(l, iterArgs);
  Value *lb = l.scalar(op->operand(0)), *ub = l.scalar(op->operand(1)), *step = l.scalar(op->operand(2));
  std::vector<Value *> inits = flatten(l, op->operands().subspan(3), layouts);
  Type ivType = lb->type();
  int stages = plan.stages;
  int64_t consumerThreads = int64_t(l.layouts.numWarps) * l.layouts.warpSize;

  std::vector<Value *> buffers;
  for (const PipelinedLoad &p : plan.loads) {
    Value *buffer = l.sharedAlloc(p.load->result()->type().element(), stages * p.tileElements, 1024);
    buffer->definingOp()->setAttr("pipelined", Attribute::integer(1));
    buffers.push_back(buffer);
  }
  auto barriers = [&](int64_t arrivals) {
    Value *bars = l.sharedAlloc(Type::i64(), stages, 8);
    bars->definingOp()->setAttr("pipelined", Attribute::integer(1));
    Value *first = l.b.cmpi("eq", l.threadId(), l.constI32(0));
    for (int s = 0; s < stages; ++s)
      l.b.create(OpCode::ThMbarrierInit, std::vector<Value *>{bars, l.constI32(s), first}, std::span<const Type>{},
                 {{"count", Attribute::integer(arrivals)}});
    return bars;
  };
  Value *full = barriers(int64_t(plan.loads.size()));
  Value *empty = barriers(l.layouts.numWarps);
  l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
  std::vector<Lowered> state;
  for (unsigned c : plan.carried)
    state.push_back(l.get(op->operand(3 + c), layouts[c]));

  Op *ws = l.b.create(OpCode::ThWarpSpecialize, std::span<Value *const>{}, std::span<const Type>{},
                      {{"consumer_threads", Attribute::integer(consumerThreads)}}, 2);
  int64_t registers = consumerRegisters(l, consumerThreads);

  // The producer: the loads' addresses (the plan's slice) and copies, iteration by iteration.
  {
    InsertionGuard guard(l.b);
    l.b.setInsertionPointToEnd(ws->region(0));
    if (registers)
      setMaxRegisters(l, kProducerRegisters, "dec");
    l.tensorCopyIssuer = l.b.cmpi("eq", l.threadId(), l.constI32(consumerThreads));
    std::vector<Value *> operands{lb, ub, step};
    std::vector<Value *> carried = flattenState(state);
    carried.push_back(l.constI32(0)); // the slot
    carried.push_back(l.constI32(1)); // the parity of its "empty" phase
    operands.insert(operands.end(), carried.begin(), carried.end());
    Op *loop = l.b.create(OpCode::For, operands, typesOf(carried), {}, 1);
    Block *lbody = loop->region();
    Value *iv = lbody->addArgument(ivType);
    std::vector<Value *> args;
    for (Type t : typesOf(carried))
      args.push_back(lbody->addArgument(t));
    l.b.setInsertionPointToEnd(lbody);
    Value *slot = args[args.size() - 2], *parity = args.back();
    barrierWait(l, empty, slot, parity);
    std::vector<Lowered> now = unflattenState(state, std::span<Value *const>(args).first(args.size() - 2));
    std::vector<Value *> yield =
        flattenState(issueStage(l, op, plan, buffers, iv, now, slot, nullptr, full));
    auto [next, nextParity] = nextSlot(l, slot, parity, stages);
    yield.push_back(next);
    yield.push_back(nextParity);
    l.b.create(OpCode::Yield, yield, std::span<const Type>{});
    l.tensorCopyIssuer = nullptr;
  }

  // The consumers: the loop's body on the stages, then the rest of the kernel.
  l.b.setInsertionPointToEnd(ws->region(1));
  if (registers)
    setMaxRegisters(l, registers, "inc");
  std::vector<Value *> operands{lb, ub, step};
  operands.insert(operands.end(), inits.begin(), inits.end());
  operands.push_back(l.constI32(0)); // the slot
  operands.push_back(l.constI32(0)); // the parity of its "full" phase
  std::vector<Type> types = typesOf(std::vector<Value *>(operands.begin() + 3, operands.end()));
  Op *loop = l.b.create(OpCode::For, operands, types, {}, 1);
  Block *newBody = loop->region();
  Value *iv = newBody->addArgument(ivType);
  std::vector<Value *> newArgs;
  for (size_t i = 0; i < inits.size(); ++i)
    newArgs.push_back(newBody->addArgument(types[i]));
  Value *slot = newBody->addArgument(Type::i32()), *parity = newBody->addArgument(Type::i32());
  std::vector<Value *> extraYield;
  {
    InsertionGuard guard(l.b);
    l.b.setInsertionPointToEnd(newBody);
    // No async-proxy fence: the tensor copies wrote the stage through the async proxy,
    // which th.wgmma reads it through.
    barrierWait(l, full, slot, parity);
    auto [next, nextParity] = nextSlot(l, slot, parity, stages);
    extraYield = {next, nextParity};
    bindRingStage(l, plan, buffers, slot);
  }
  l.setScalar(body->argument(0), iv);
  bindValues(l, iterArgs, layouts, newArgs, 0);
  l.loops.push_back({op, loop});
  l.asyncDots.insert(plan.asyncDots.begin(), plan.asyncDots.end());
  bool lowered = lowerRegion(l, body, newBody, OpCode::Yield, layouts, 0, extraYield);
  l.loops.pop_back();
  unbindRings(l, plan);
  if (!lowered)
    return false;
  {
    // After the last wait that leaves one group running, the stage of the iteration
    // before is free: one arrival per warp (its lanes passed the wait together).
    Op *lastWait = nullptr;
    for (Op *o : newBody->ops())
      if (o->is(OpCode::ThWgmmaWait) && o->intAttr("pending") > 0)
        lastWait = o;
    if (!lastWait || !lastWait->next())
      return l.error(op, "internal: no th.wgmma_wait for a warp-specialized loop");
    InsertionGuard guard(l.b);
    l.b.setInsertionPoint(lastWait->next());
    Value *wraps = l.b.cmpi("eq", slot, l.constI32(0));
    Value *previous = l.b.select(wraps, l.constI32(stages - 1), l.b.binary(OpCode::SubI, slot, l.constI32(1)));
    Value *go = l.andPredicates(l.b.cmpi("eq", l.laneId(), l.constI32(0)), l.b.cmpi("sgt", iv, lb));
    l.b.create(OpCode::ThMbarrierArrive, std::vector<Value *>{empty, previous, go}, std::span<const Type>{});
  }
  // The last iteration's th.wgmma groups, then every consumer is done with the rings.
  std::vector<Value *> results = loop->results();
  results.resize(inits.size());
  waitForAsyncDots(l, plan.asyncDots, layouts, results);
  l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
  bindValues(l, op->results(), layouts, results, 0);
  l.specialized = ws;
  return true;
}

} // namespace trident::simt
