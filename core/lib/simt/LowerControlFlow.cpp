// Structured control flow: scf.for/if/while keep their shape; every block value
// they carry becomes one value per register, in the layout assigned to the
// region argument or result, and what the regions yield is converted to it.
//
//   %s = scf.for %lb, %ub, %st, %init : block<256xf32> ({ ^(%i: i32, %acc: block<256xf32>): ... })
// ->
//   %s0, %s1 = scf.for %lb, %ub, %st, %init0, %init1 : f32, f32 ({ ^(%i: i32, %a0: f32, %a1: f32): ... })
#include "LowerContext.h"
#include "LoopLowering.h"

#include <algorithm>
#include <utility>

namespace trident::simt {

// ---- helpers shared with LowerWarpSpecialize.cpp (LoopLowering.h) ----

// The values of `values`, each converted to the matching layout, one after another.
std::vector<Value *> flatten(Lowering &l, std::span<Value *const> values,
                             const std::vector<LinearLayout> &layouts) {
  std::vector<Value *> out;
  for (size_t i = 0; i < values.size(); ++i) {
    Lowered v = l.get(values[i], layouts[i]);
    out.insert(out.end(), v.regs.begin(), v.regs.end());
  }
  return out;
}

std::vector<Type> typesOf(const std::vector<Value *> &values) {
  std::vector<Type> types;
  for (Value *v : values)
    types.push_back(v->type());
  return types;
}

// Binds `blockValues` (laid out as `layouts`) to consecutive thread-IR values from `flat`.
void bindValues(Lowering &l, std::span<Value *const> blockValues, const std::vector<LinearLayout> &layouts,
                const std::vector<Value *> &flat, size_t first) {
  for (size_t i = 0; i < blockValues.size(); ++i) {
    int64_t n = layouts[i].numRegisters();
    Lowered v{layouts[i], std::vector<Value *>(flat.begin() + first, flat.begin() + first + n)};
    first += n;
    l.set(blockValues[i], std::move(v));
  }
}

std::vector<LinearLayout> layoutsOf(Lowering &l, std::span<Value *const> values) {
  std::vector<LinearLayout> out;
  for (Value *v : values)
    out.push_back(l.assigned(v));
  return out;
}

// Lowers `from` into `to` and ends it with `terminator` carrying the values of
// `from`'s terminator (after the first `skip` operands) converted to `layouts`.
bool lowerRegion(Lowering &l, Block *from, Block *to, OpCode terminator,
                 const std::vector<LinearLayout> &layouts, unsigned skip,
                 const std::vector<Value *> &extra) {
  InsertionGuard guard(l.b);
  l.b.setInsertionPointToEnd(to);
  if (!l.lowerBody(from))
    return false;
  Op *term = from->terminator();
  if (!term)
    return true;
  l.b.setLoc(term->loc());
  std::vector<Value *> operands;
  for (unsigned i = 0; i < skip; ++i)
    operands.push_back(l.scalar(term->operand(i)));
  std::vector<Value *> rest = flatten(l, term->operands().subspan(skip), layouts);
  operands.insert(operands.end(), rest.begin(), rest.end());
  operands.insert(operands.end(), extra.begin(), extra.end());
  l.b.create(terminator, operands, std::span<const Type>{});
  return true;
}

void asyncWait(Lowering &l, int pending) {
  l.b.create(OpCode::ThAsyncWait, std::span<Value *const>{}, std::span<const Type>{},
             {{"pending", Attribute::integer(pending)}});
}

void bindRingStage(Lowering &l, const PipelinePlan &plan, const std::vector<Value *> &buffers, Value *slot) {
  for (size_t k = 0; k < plan.loads.size(); ++k) {
    const PipelinedLoad &p = plan.loads[k];
    Value *base = l.b.binary(OpCode::MulI, slot, l.constI32(p.tileElements));
    l.pipelined[p.load->result()] = {buffers[k], base, p.shared};
    for (const Op *t : p.transposes)
      l.pipelined[t->result()] = {buffers[k], base, p.shared.transposed(p.load->result()->type().shape())};
  }
}

void unbindRings(Lowering &l, const PipelinePlan &plan) {
  for (const PipelinedLoad &p : plan.loads) {
    l.pipelined.erase(p.load->result());
    for (const Op *t : p.transposes)
      l.pipelined.erase(t->result());
  }
  for (const Op *dot : plan.asyncDots)
    l.asyncDots.erase(dot);
}

void waitForAsyncDots(Lowering &l, const std::vector<const Op *> &asyncDots, const std::vector<LinearLayout> &layouts,
                      std::vector<Value *> &results) {
  std::vector<size_t> first{0}; // where each carried value's registers start in `results`
  for (const LinearLayout &layout : layouts)
    first.push_back(first.back() + size_t(layout.numRegisters()));
  std::vector<size_t> at;
  for (const Op *dot : asyncDots) {
    unsigned k = dot->operand(2)->index() - 1; // the carried value its accumulator is
    for (size_t r = first[k]; r < first[k + 1]; ++r)
      at.push_back(r);
  }
  std::vector<Value *> pending;
  for (size_t r : at)
    pending.push_back(results[r]);
  Op *wait = l.b.create(OpCode::ThWgmmaWait, pending, typesOf(pending), {{"pending", Attribute::integer(0)}});
  for (size_t i = 0; i < at.size(); ++i)
    results[at[i]] = wait->result(unsigned(i));
}

// Slot `slot` + `by` of a ring of S stages (0 <= by < S), and whether it wrapped past
// the end (a stage's next phase: the other parity).
std::pair<Value *, Value *> advanceSlot(Lowering &l, Value *slot, int64_t by, Value *S) {
  Value *s = l.b.binary(OpCode::AddI, slot, l.constI32(by));
  Value *wraps = l.b.cmpi("sge", s, S);
  return {l.b.select(wraps, l.b.binary(OpCode::SubI, s, S), s), wraps};
}

Value *flipIf(Lowering &l, Value *wraps, Value *parity) {
  return l.b.select(wraps, l.b.binary(OpCode::XOrI, parity, l.constI32(1)), parity);
}

void barrierWait(Lowering &l, Value *barriers, Value *slot, Value *parity) {
  l.b.create(OpCode::ThMbarrierWait, std::vector<Value *>{barriers, slot, parity}, std::span<const Type>{});
}

// The mbarriers of a ring's stages (asyncBarriers): one per stage, each expecting one
// arrival from every thread a phase (or, with tensor maps, one per load from thread 0);
// initialized by thread 0, then a barrier.
Value *ringBarriers(Lowering &l, int stages, int64_t arrivals) {
  Value *barriers = l.sharedAlloc(Type::i64(), stages, 8);
  barriers->definingOp()->setAttr("pipelined", Attribute::integer(1));
  Value *first = l.b.cmpi("eq", l.threadId(), l.constI32(0));
  for (int s = 0; s < stages; ++s)
    l.b.create(OpCode::ThMbarrierInit, std::vector<Value *>{barriers, l.constI32(s), first}, std::span<const Type>{},
               {{"count", Attribute::integer(arrivals)}});
  l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
  return barriers;
}

// The registers of `state` one after another, and back.
std::vector<Value *> flattenState(const std::vector<Lowered> &state) {
  std::vector<Value *> out;
  for (const Lowered &s : state)
    out.insert(out.end(), s.regs.begin(), s.regs.end());
  return out;
}

std::vector<Lowered> unflattenState(const std::vector<Lowered> &like, std::span<Value *const> regs) {
  std::vector<Lowered> out;
  size_t at = 0;
  for (const Lowered &s : like) {
    out.push_back({s.layout, std::vector<Value *>(regs.begin() + at, regs.begin() + at + s.regs.size())});
    at += s.regs.size();
  }
  return out;
}

namespace {

// The target's prefetch for a loop pipelined into registers, CoopPrefetch::Auto resolved:
// late for one dot whose prefetched tiles are at most kCoopLateBytesPerThread bytes a
// thread, else off (two dots, attention: off 8.199 ms against early 9.229 on the H200).
CoopPrefetch coopPrefetchOf(const Lowering &l, const PipelinePlan &plan, int dots) {
  if (l.target.coopMatrices.empty())
    return CoopPrefetch::Early; // matrix atoms (AMD): the loads' registers are the operands
  if (l.target.coopPrefetch != CoopPrefetch::Auto)
    return l.target.coopPrefetch;
  if (dots != 1)
    return CoopPrefetch::Off;
  int64_t bytes = 0;
  for (const PipelinedLoad &p : plan.loads) {
    Type t = p.load->result()->type();
    bytes += t.numElements() * (Lowering::storageType(t.element()).bitWidth() / 8);
  }
  int64_t threads = int64_t(l.layouts.numWarps) * 32;
  return bytes <= kCoopLateBytesPerThread * threads ? CoopPrefetch::Late : CoopPrefetch::Off;
}

} // namespace

// A loop whose dot operands are pipelined (Pipeline.h) carries, after its own values,
// the address state num_stages - 1 iterations ahead and the stage it reads (or, with
// loads into registers, the state one iteration ahead and the registers loaded).
bool lowerFor(Lowering &l, Op *op) {
  Block *body = op->region();
  planCoopLoop(l, op); // accumulators carried as cooperative matrices (Vulkan)
  std::vector<Value *> iterArgs;
  for (unsigned i = 1; i < body->numArguments(); ++i)
    iterArgs.push_back(body->argument(i));
  std::vector<LinearLayout> layouts = layoutsOf(l, iterArgs);
  Value *lb = l.scalar(op->operand(0)), *ub = l.scalar(op->operand(1)), *step = l.scalar(op->operand(2));
  std::vector<Value *> operands{lb, ub, step};
  std::vector<Value *> inits = flatten(l, op->operands().subspan(3), layouts);
  Type ivType = lb->type();

  std::optional<PipelinePlan> plan = planPipeline(l, op);
  if (plan && warpSpecializable(l, op, *plan))
    return lowerWarpSpecializedFor(l, op, *plan);
  int dots = 0;
  for (const Op *o : *body)
    dots += o->is(OpCode::Dot);
  CoopPrefetch prefetch = plan && plan->inRegisters ? coopPrefetchOf(l, *plan, dots) : CoopPrefetch::Off;
  if (plan && plan->inRegisters && prefetch == CoopPrefetch::Off)
    plan.reset();
  // Loads into registers stored after the dot (CoopPrefetch::Late) where the body has one
  // dot: its buffers then live through the loop, which two dots' might not fit.
  bool late = plan && plan->inRegisters && prefetch == CoopPrefetch::Late && dots == 1;
  std::vector<Value *> buffers, extraInits;
  std::vector<Lowered> ahead, loadedLike;
  int stages = plan ? plan->stages : 0;
  Value *barriers = nullptr; // the rings' mbarriers (asyncBarriers)
  if (plan && plan->inRegisters) {
    for (unsigned c : plan->carried)
      ahead.push_back(l.get(op->operand(3 + c), layouts[c]));
    // Earlier users of the bytes of a dot's two buffers (LowerCoopMatrix.cpp) are done.
    l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
    ahead = issueLoads(l, op, *plan, lb, ahead, l.b.cmpi("slt", lb, ub), loadedLike);
    extraInits = flattenState(ahead);
    if (!late) // late: the dot stores them before the loop instead
      for (Value *v : flattenState(loadedLike))
        extraInits.push_back(v);
    extraInits.push_back(l.constI32(0)); // the parity
  } else if (plan) {
    for (const PipelinedLoad &p : plan->loads) {
      Value *buffer = l.sharedAlloc(p.load->result()->type().element(), stages * p.tileElements, 1024);
      buffer->definingOp()->setAttr("pipelined", Attribute::integer(1));
      buffers.push_back(buffer);
    }
    for (unsigned c : plan->carried)
      ahead.push_back(l.get(op->operand(3 + c), layouts[c]));
    // Every thread is done with the rings' last stages of an earlier run of this loop
    // (inside another loop) before the prologue overwrites them; the barrier pass leaves
    // a ring's own accesses to the pipeline.
    l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
    // mbarriers where they let the dots start without a barrier: loops of asynchronous
    // dots (H200: the descriptor matmul 8192^3 524 against 495 TFLOP/s, the tutorial's
    // 668 against 670). Other loops keep commit groups: their barrier stays, and there
    // the barrier waits cost attention 3% (390 against 403 TFLOP/s at D = 64).
    if (l.target.asyncBarriers && (!plan->asyncDots.empty() || plan->tensorMaps)) {
      int64_t tensorLoads = std::count_if(plan->loads.begin(), plan->loads.end(),
                                          [](const PipelinedLoad &p) { return p.tma.has_value(); });
      bool copies = tensorLoads < int64_t(plan->loads.size());
      barriers = ringBarriers(l, stages, tensorLoads + (copies ? int64_t(l.layouts.numWarps) * l.target.warpSize : 0));
    }
    for (int s = 0; s < plan->ahead; ++s) {
      Value *iv = s ? l.b.binary(OpCode::AddI, lb, l.b.binary(OpCode::MulI, l.b.constInt(s, ivType), step)) : lb;
      ahead = issueStage(l, op, *plan, buffers, iv, ahead, l.constI32(s), l.b.cmpi("slt", iv, ub), barriers);
    }
    extraInits = flattenState(ahead);
    extraInits.push_back(l.constI32(0)); // the slot
    if (barriers)
      extraInits.push_back(l.constI32(0)); // the parity of the slot's phase
  }
  operands.insert(operands.end(), inits.begin(), inits.end());
  operands.insert(operands.end(), extraInits.begin(), extraInits.end());
  std::vector<Type> types = typesOf(inits), extraTypes = typesOf(extraInits);
  types.insert(types.end(), extraTypes.begin(), extraTypes.end());
  Op *loop = l.b.create(OpCode::For, operands, types, {}, 1);
  Block *newBody = loop->region();
  Value *iv = newBody->addArgument(ivType);
  std::vector<Value *> newArgs, extraArgs;
  for (Type t : typesOf(inits))
    newArgs.push_back(newBody->addArgument(t));
  for (Type t : extraTypes)
    extraArgs.push_back(newBody->addArgument(t));

  std::vector<Value *> extraYield;
  struct DeferredStage {
    Value *later, *writeSlot, *inRange;
    std::vector<Lowered> state;
  };
  std::optional<DeferredStage> deferred;
  if (plan && plan->inRegisters) {
    InsertionGuard guard(l.b);
    l.b.setInsertionPointToEnd(newBody);
    size_t numState = flattenState(ahead).size();
    std::vector<Lowered> state = unflattenState(ahead, std::span<Value *const>(extraArgs).first(numState));
    Value *parity = extraArgs.back();
    std::vector<Lowered> current;
    if (!late)
      current = unflattenState(
          loadedLike, std::span<Value *const>(extraArgs).subspan(numState, extraArgs.size() - numState - 1));
    Value *later = l.b.binary(OpCode::AddI, iv, step);
    std::vector<Lowered> loaded;
    std::vector<Lowered> next = issueLoads(l, op, *plan, later, state, l.b.cmpi("slt", later, ub), loaded);
    extraYield = flattenState(next);
    if (!late)
      for (Value *v : flattenState(loaded))
        extraYield.push_back(v);
    extraYield.push_back(l.b.binary(OpCode::XOrI, parity, l.constI32(1)));
    for (size_t k = 0; k < plan->loads.size(); ++k)
      l.prefetched[plan->loads[k].load->result()] =
          late ? Lowering::Prefetched{loaded[k], parity, true, loadedLike[k]}
               : Lowering::Prefetched{current[k], parity, false, {}};
  } else if (plan) {
    InsertionGuard guard(l.b);
    l.b.setInsertionPointToEnd(newBody);
    // This iteration's stage is complete and visible, and every thread is done reading
    // the stage the copies below overwrite (the one the previous iteration read). With
    // mbarriers the wait makes the stage visible; the barrier then only orders the reads
    // of the previous stage before the copies, which asynchronous dots do after their
    // own wait below.
    size_t extra = barriers ? 2 : 1; // slot and parity after the state
    Value *slot = extraArgs[extraArgs.size() - extra], *parity = barriers ? extraArgs.back() : nullptr;
    if (barriers)
      barrierWait(l, barriers, slot, parity);
    else
      asyncWait(l, plan->ahead - 1);
    // Stages that cp.async wrote (the generic proxy) and th.wgmma reads (the async proxy)
    // need the cross-proxy fence; tensor copies write through the async proxy themselves.
    if (std::any_of(plan->loads.begin(), plan->loads.end(),
                    [](const PipelinedLoad &p) { return p.asyncProxy && !p.tma; }))
      l.b.create(OpCode::ThFenceAsyncShared, std::span<Value *const>{}, std::span<const Type>{});
    // Without asynchronous dots the copies below follow at once: every thread must be done
    // with the stage they overwrite (the previous iteration's).
    if (!barriers || plan->asyncDots.empty())
      l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
    Value *S = l.constI32(stages);
    Value *later = l.b.binary(OpCode::AddI, iv, l.b.binary(OpCode::MulI, l.b.constInt(plan->ahead, ivType), step));
    Value *writeSlot = advanceSlot(l, slot, plan->ahead, S).first;
    std::vector<Lowered> state =
        unflattenState(ahead, std::span<Value *const>(extraArgs).first(extraArgs.size() - extra));
    Value *inRange = l.b.cmpi("slt", later, ub);
    // With asynchronous warpgroup dots the copies go after their waits (issued below,
    // once the body is lowered; the yield takes their state then).
    std::vector<Lowered> next = state;
    if (plan->asyncDots.empty())
      next = issueStage(l, op, *plan, buffers, later, state, writeSlot, inRange, barriers);
    else
      deferred = DeferredStage{later, writeSlot, inRange, state};
    Value *nextSlot = l.b.binary(OpCode::AddI, slot, l.constI32(1));
    Value *wraps = l.b.cmpi("eq", nextSlot, S);
    nextSlot = l.b.select(wraps, l.constI32(0), nextSlot);
    extraYield = flattenState(next);
    extraYield.push_back(nextSlot);
    if (barriers)
      extraYield.push_back(flipIf(l, wraps, parity));
    bindRingStage(l, *plan, buffers, slot);
  }
  // The body proper sees the loop's own values (the stage above bound them to later ones).
  l.setScalar(body->argument(0), iv);
  bindValues(l, iterArgs, layouts, newArgs, 0);
  l.loops.push_back({op, loop});
  if (plan)
    l.asyncDots.insert(plan->asyncDots.begin(), plan->asyncDots.end());
  bool lowered = lowerRegion(l, body, newBody, OpCode::Yield, layouts, 0, extraYield);
  l.loops.pop_back();
  if (!lowered)
    return false;
  if (deferred) {
    // After the last wait that leaves one group running: a barrier (every warpgroup is done
    // with the stage of the iteration before), then the copies into that stage.
    Op *lastWait = nullptr;
    for (Op *o : newBody->ops())
      if (o->is(OpCode::ThWgmmaWait) && o->intAttr("pending") > 0)
        lastWait = o;
    if (!lastWait || !lastWait->next())
      return l.error(op, "internal: no th.wgmma_wait for a loop with asynchronous dots");
    InsertionGuard guard(l.b);
    l.b.setInsertionPoint(lastWait->next());
    l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
    std::vector<Value *> next = flattenState(issueStage(l, op, *plan, buffers, deferred->later, deferred->state,
                                                       deferred->writeSlot, deferred->inRange, barriers));
    Op *yield = newBody->terminator();
    unsigned first = yield->numOperands() - unsigned(extraYield.size());
    for (size_t i = 0; i < next.size(); ++i)
      yield->setOperand(first + unsigned(i), next[i]);
  }
  std::vector<Value *> results = loop->results();
  results.resize(inits.size());
  if (plan && plan->inRegisters) {
    for (const PipelinedLoad &p : plan->loads)
      l.prefetched.erase(p.load->result());
    // Every thread is done with a dot's two buffers before later allocations reuse them.
    l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
  } else if (plan && barriers) {
    // The phases of the stages past the end (their copies predicated off, their arrivals
    // not): every barrier is then quiet, as a later run's initialization needs.
    Value *slot = loop->result(unsigned(inits.size() + extraInits.size() - 2));
    Value *parity = loop->result(unsigned(inits.size() + extraInits.size() - 1));
    Value *S = l.constI32(stages);
    for (int j = 0; j < plan->ahead; ++j) {
      auto [s, wraps] = advanceSlot(l, slot, j, S);
      barrierWait(l, barriers, s, flipIf(l, wraps, parity));
    }
  }
  if (plan && !plan->inRegisters) {
    if (!barriers)
      asyncWait(l, 0); // the copies of the stages past the end
    unbindRings(l, *plan);
    if (!plan->asyncDots.empty()) {
      // The last iteration's th.wgmma groups: the registers of the loop results the dots
      // yield pass through one wait.
      waitForAsyncDots(l, plan->asyncDots, layouts, results);
    }
    // Every thread's copies have landed and every warpgroup's reads of the rings are done
    // before anything after the loop reuses the rings' bytes (random dot kernels, seed
    // 1236 at --dot-weight 8: a reduction's scratch after a nested pipelined loop).
    l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
  }
  bindValues(l, op->results(), layouts, results, 0);
  return true;
}

// The results of asynchronous dots (th.wgmma groups left running, Pipeline.h) that the
// ops of `region` read, but for its terminator's passing them on (a flattened loop's
// epilogue reads the accumulator at a tile's last k step and passes it on otherwise).
std::vector<Value *> inFlightReads(const Lowering &l, Block *region) {
  std::vector<Value *> out;
  for (Op *top : *region)
    top->walk([&](Op *op) {
      if (op == region->terminator())
        return;
      for (Value *v : op->operands())
        if (v->definingOp() && l.asyncDots.count(v->definingOp()) &&
            std::find(out.begin(), out.end(), v) == out.end())
          out.push_back(v);
    });
  return out;
}

bool lowerIf(Lowering &l, Op *op) {
  std::vector<Value *> results = op->results();
  std::vector<LinearLayout> layouts = layoutsOf(l, results);
  std::vector<Type> types;
  for (size_t i = 0; i < results.size(); ++i)
    for (int64_t r = 0; r < layouts[i].numRegisters(); ++r)
      types.push_back(results[i]->type().element());
  Value *cond[] = {l.scalar(op->operand(0))};
  Op *branch = l.b.create(OpCode::If, cond, types, {}, 2);
  for (unsigned k = 0; k < 2; ++k) {
    // A branch that reads a running dot's result waits for every group first.
    std::vector<Value *> waited = inFlightReads(l, op->region(k));
    std::vector<Lowered> running;
    for (Value *v : waited) {
      InsertionGuard guard(l.b);
      l.b.setInsertionPointToEnd(branch->region(k));
      running.push_back(l.get(v));
      Op *wait = l.b.create(OpCode::ThWgmmaWait, running.back().regs, typesOf(running.back().regs),
                            {{"pending", Attribute::integer(0)}});
      l.set(v, Lowered{running.back().layout, wait->results()});
    }
    bool lowered = lowerRegion(l, op->region(k), branch->region(k), OpCode::Yield, layouts);
    for (size_t i = 0; i < waited.size(); ++i)
      l.set(waited[i], running[i]);
    if (!lowered)
      return false;
  }
  bindValues(l, results, layouts, branch->results(), 0);
  return true;
}

bool lowerWhile(Lowering &l, Op *op) {
  Block *before = op->region(0), *after = op->region(1);
  std::vector<LinearLayout> beforeLayouts = layoutsOf(l, before->arguments());
  std::vector<LinearLayout> afterLayouts = layoutsOf(l, op->results());
  std::vector<Value *> inits = flatten(l, op->operands(), beforeLayouts);
  std::vector<Type> afterTypes;
  for (size_t i = 0; i < afterLayouts.size(); ++i)
    for (int64_t r = 0; r < afterLayouts[i].numRegisters(); ++r)
      afterTypes.push_back(op->result(static_cast<unsigned>(i))->type().element());
  Op *loop = l.b.create(OpCode::While, inits, afterTypes, {}, 2);
  std::vector<Value *> beforeArgs, afterArgs;
  for (Value *v : inits)
    beforeArgs.push_back(loop->region(0)->addArgument(v->type()));
  for (Type t : afterTypes)
    afterArgs.push_back(loop->region(1)->addArgument(t));
  bindValues(l, before->arguments(), beforeLayouts, beforeArgs, 0);
  if (!lowerRegion(l, before, loop->region(0), OpCode::Condition, afterLayouts, 1))
    return false;
  bindValues(l, after->arguments(), afterLayouts, afterArgs, 0);
  if (!lowerRegion(l, after, loop->region(1), OpCode::Yield, beforeLayouts))
    return false;
  bindValues(l, op->results(), afterLayouts, loop->results(), 0);
  return true;
}

} // namespace trident::simt
