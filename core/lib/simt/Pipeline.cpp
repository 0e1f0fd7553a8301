#include "Pipeline.h"

#include "trident/simt/DotLayout.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <set>

namespace trident::simt {

namespace {

bool sliceableBranch(const Op *op);

// Ops cheap and side-effect free enough to compute once more per stage ahead.
bool sliceable(const Op *op) {
  if (op->is(OpCode::If))
    return sliceableBranch(op);
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
  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: return true;
  default: return op->has(kElementwise) && op->has(kPure);
  }
}

// An scf.if of such ops alone: a flattened loop's prologue (passes/FlattenLoops.h), the
// addresses of a new tile under the first k step of each, computed again per stage ahead.
bool sliceableBranch(const Op *op) {
  for (unsigned r = 0; r < op->numRegions(); ++r)
    for (const Op *inner : *op->region(r))
      if (!inner->is(OpCode::Yield) && !sliceable(inner))
        return false;
  return true;
}

// The values ops nested in `op` read from outside it.
std::vector<Value *> capturedValues(Op *op) {
  std::vector<Value *> out;
  op->walk([&](Op *inner) {
    if (inner == op)
      return;
    for (Value *v : inner->operands()) {
      const Op *def = v->definingOp() ? v->definingOp() : v->ownerBlock()->parentOp();
      if (def != op && !(def && def->isInside(op)))
        out.push_back(v);
    }
  });
  return out;
}

const Op *topLevelIn(const Op *op, const Block *block) {
  while (op && op->parentBlock() != block)
    op = op->parentOp();
  return op;
}

// True when the dot result `d` goes round the loop as carried value `k` and nowhere
// else: yielded as it is, or through one scf.if (a flattened loop's epilogue, at the
// last k step of a tile) whose one branch yields it as that value and reads it nowhere
// else, while the other may read it (after a th.wgmma_wait, LowerControlFlow.cpp's
// lowerIf) and yields what starts the next tile.
bool onlyCarried(const Value *d, const Op *yield, unsigned k) {
  const Block *body = yield->parentBlock();
  if (d->uses().size() == 1 && d->uses()[0].user == yield)
    return d->uses()[0].operandIndex == k;
  const Value *carried = yield->operand(k);
  const Op *branch = carried->definingOp();
  if (!branch || !branch->is(OpCode::If) || branch->parentBlock() != body || carried->uses().size() != 1)
    return false;
  unsigned at = carried->index();
  const Block *passing = nullptr;
  for (unsigned r = 0; r < 2; ++r)
    if (branch->region(r)->terminator()->operand(at) == d)
      passing = branch->region(r);
  if (!passing)
    return false;
  for (const Use &u : d->uses()) {
    if (topLevelIn(u.user, body) != branch)
      return false;
    if (topLevelIn(u.user, passing) && !(u.user == passing->terminator() && u.operandIndex == at))
      return false;
  }
  return true;
}

bool isZeroConstant(const Value *v) {
  const Op *def = v->definingOp();
  // +0 splatted or narrowed stays +0 (fp8 zeros are f32 constants narrowed: the block IR
  // has no fp8 literals).
  while (def && (def->is(OpCode::Splat) || def->is(OpCode::TruncF)))
    def = def->operand(0)->definingOp();
  if (!def || !def->is(OpCode::Constant))
    return false;
  const Attribute &value = def->attr("value");
  return (value.isInt() && value.getInt() == 0) || (value.isFloat() && value.getFloat() == 0.0);
}

// The load as a pipelined operand, when it is one a dot reads and a copy can move (or,
// inRegisters, when it is an operand of a dot on cooperative matrices).
std::optional<PipelinedLoad> candidate(Lowering &l, Op *load, const Block *body, bool inRegisters) {
  Value *r = load->result();
  if (!r->type().isBlock() || r->uses().empty())
    return std::nullopt;
  if (inRegisters) {
    if (r->uses().size() != 1)
      return std::nullopt;
    const Use &use = r->uses()[0];
    const Op *dot = use.user;
    bool atoms = l.target.coopMatrices.empty() ? l.layouts.mmaPlan(dot) != nullptr
                                               : planCoop(dot, l.target, l.layouts.numWarps).has_value();
    if (use.operandIndex > 1 || !dot->is(OpCode::Dot) || dot->parentBlock() != body || !atoms)
      return std::nullopt;
    PipelinedLoad p;
    p.load = load;
    p.access = l.layouts.accessLayout(load);
    return p;
  }
  // Every use a dot on matrix units in the body reading it as A or B, directly or through
  // a tt.trans only that dot reads (attention's backward reads qT as B of k @ qT and,
  // transposed, as B of dsT @ q): each reads the same stage, the transposed ones as the
  // tile's transpose.
  struct Reader {
    const MmaPlan *plan;
    unsigned operand;
    const Op *trans; // or null
  };
  std::vector<Reader> readers;
  for (const Use &u : r->uses()) {
    const Op *user = u.user, *trans = nullptr;
    unsigned operand = u.operandIndex;
    if (user->is(OpCode::Trans)) {
      if (r->type().shape().size() != 2 || user->parentBlock() != body || user->result()->uses().size() != 1)
        return std::nullopt;
      trans = user;
      operand = user->result()->uses()[0].operandIndex;
      user = user->result()->uses()[0].user;
    }
    const MmaPlan *plan = user->is(OpCode::Dot) ? l.layouts.mmaPlan(user) : nullptr;
    if (!plan || operand > 1 || user->parentBlock() != body)
      return std::nullopt;
    readers.push_back({plan, operand, trans});
  }
  if (load->is(OpCode::DescriptorLoad)) {
    // The tensor-copy engine writes the tile in its own swizzle: every reader is th.wgmma
    // and finds it there.
    PipelinedLoad p;
    p.load = load;
    p.tma = tensorMapSpec(load, l.target, l.layouts.numWarps);
    if (!p.tma || !l.tensorMapArg(*p.tma))
      return std::nullopt;
    p.shared = tensorMapLayout(*p.tma);
    p.asyncProxy = true;
    std::span<const int64_t> shape = r->type().shape();
    for (const Reader &x : readers) {
      std::vector<int64_t> seen(shape.begin(), shape.end());
      if (x.trans)
        std::swap(seen[0], seen[1]);
      std::optional<MatrixDescriptor> d = x.plan->atom->warps > 1
                                              ? matrixDescriptor(x.trans ? p.shared.transposed(shape) : p.shared,
                                                                 seen, x.operand == 0 ? 1 : 0,
                                                                 unsigned(p.tma->elementBytes))
                                              : std::nullopt;
      if (!d || (x.plan->atom->kMajorOnly && d->mnMajor))
        return std::nullopt;
      if (x.trans)
        p.transposes.push_back(x.trans);
    }
    p.tileElements = r->type().numElements();
    return p;
  }
  if (load->numOperands() > 2 && !isZeroConstant(load->operand(2)))
    return std::nullopt; // a copy fills masked elements with zeros only
  PipelinedLoad p;
  p.load = load;
  p.access = l.layouts.accessLayout(load);
  Type element = r->type().element();
  int64_t bytes = Lowering::storageType(element).bitWidth() / 8;
  p.width = accessWidth(l, load, p.access, element);
  int64_t copyBytes = p.width * bytes;
  if (copyBytes != 4 && copyBytes != 8 && copyBytes != 16)
    return std::nullopt;
  if (l.ownerPredicate(p.access))
    return std::nullopt; // replicas would copy the same bytes
  std::span<const int64_t> shape = r->type().shape();
  // The K dimension of the load's own shape for a reader.
  auto kDimOf = [](const Reader &x) { return (x.operand == 0 ? 1u : 0u) ^ (x.trans ? 1u : 0u); };
  const Reader *wgmma = nullptr; // th.wgmma reads the stage itself: a canonical tile
  for (const Reader &x : readers)
    if (x.plan->atom->warps > 1 && (!wgmma || x.plan->atom->kMajorOnly))
      wgmma = &x;
  if (wgmma) {
    // Rows along what the copies write contiguously (K for atoms that read K-major only).
    p.shared = l.matrixTileLayout(p.access, kDimOf(*wgmma), element, wgmma->plan->atom->kMajorOnly);
    p.asyncProxy = true;
    for (const Reader &x : readers) {
      if (x.plan->atom->warps == 1)
        continue;
      std::vector<int64_t> seen(shape.begin(), shape.end());
      if (x.trans)
        std::swap(seen[0], seen[1]);
      std::optional<MatrixDescriptor> d = matrixDescriptor(x.trans ? p.shared.transposed(shape) : p.shared, seen,
                                                           x.operand == 0 ? 1 : 0, unsigned(bytes));
      if (!d || (x.plan->atom->kMajorOnly && d->mnMajor))
        return std::nullopt; // one tile cannot serve both readers
    }
  } else {
    // mma.sync reads fragments from the tile with ldmatrix (or plain loads): the first
    // reader's arrangement (a transposed reader's layout seen in the load's shape).
    const Reader &x = readers[0];
    std::span<const int64_t> seen = x.trans ? x.trans->result()->type().shape() : shape;
    LinearLayout operand = mmaOperandLayout(seen, *x.plan, x.operand, l.layouts.numWarps);
    if (x.trans)
      operand = operand.transpose(std::vector<int64_t>{1, 0});
    p.shared = l.operandTile(p.access, operand, element, p.width);
  }
  for (const Reader &x : readers)
    if (x.trans)
      p.transposes.push_back(x.trans);
  if (contiguousSharedRegisters(p.shared.offsets(p.access)) < p.width)
    return std::nullopt;
  p.tileElements = r->type().numElements();
  return p;
}

} // namespace

std::optional<PipelinePlan> planPipeline(Lowering &l, const Op *loopOp) {
  Op *loop = const_cast<Op *>(loopOp);
  int stages = loop->attr("num_stages").isInt() ? int(loop->intAttr("num_stages")) : l.numStages;
  bool inRegisters = !l.target.asyncCopy && (!l.target.coopMatrices.empty() || l.target.registerPrefetch);
  if ((!l.target.asyncCopy && !inRegisters) || stages < 2)
    return std::nullopt;
  if (inRegisters)
    stages = 2; // one iteration ahead: a stage is the registers of every load
  Block *body = loop->region(0);
  PipelinePlan plan;
  plan.inRegisters = inRegisters;
  plan.stages = stages;
  for (Op *op : *body)
    if (op->is(OpCode::Load) || (op->is(OpCode::DescriptorLoad) && !inRegisters))
      if (std::optional<PipelinedLoad> p = candidate(l, op, body, inRegisters))
        plan.loads.push_back(std::move(*p));
  if (plan.loads.empty())
    return std::nullopt;

  // The ops the loads' operands need, back to the loop's arguments and invariants.
  std::set<const Op *> inSlice;
  std::set<unsigned> carried;
  std::function<bool(Value *)> need = [&](Value *v) {
    if (v->ownerBlock() == body) {
      if (v->index() > 0)
        carried.insert(v->index() - 1);
      return true;
    }
    Op *def = v->definingOp();
    if (!def)
      return true; // an argument of an enclosing region: invariant
    Op *inBody = def;
    while (inBody && inBody->parentBlock() != body)
      inBody = inBody->parentOp();
    if (!inBody)
      return true; // defined before the loop
    if (inBody != def || !sliceable(def))
      return false;
    if (!inSlice.insert(def).second)
      return true;
    std::vector<Value *> captured = capturedValues(def); // what an scf.if's branches read
    return std::all_of(def->operands().begin(), def->operands().end(), need) &&
           std::all_of(captured.begin(), captured.end(), need);
  };
  for (const PipelinedLoad &p : plan.loads)
    for (Value *o : p.load->operands())
      if (!need(o))
        return std::nullopt;
  // The carried values the addresses read must advance by such ops alone.
  Op *yield = body->terminator();
  std::set<unsigned> closed;
  while (closed.size() < carried.size()) {
    for (unsigned c : std::set<unsigned>(carried))
      if (closed.insert(c).second && !need(yield->operand(c)))
        return std::nullopt;
  }
  for (Op *op : *body)
    if (inSlice.count(op))
      plan.slice.push_back(op);
  plan.carried.assign(carried.begin(), carried.end());
  plan.ahead = stages - 1;
  if (stages >= 3 && !inRegisters)
    for (const Op *op : *body) {
      const MmaPlan *mma = op->is(OpCode::Dot) ? l.layouts.mmaPlan(op) : nullptr;
      if (!mma || mma->atom->warps == 1)
        continue;
      // acc = tt.dot(a, b, acc) with acc the loop's argument k and only yielded as k, and
      // a and b pipelined: a group still running may read only ring stages, which the
      // schedule keeps; a tile the threads rewrite every iteration would race with it.
      auto isPipelined = [&](const Value *v) {
        return std::any_of(plan.loads.begin(), plan.loads.end(), [&](const PipelinedLoad &p) {
          return p.load->result() == v || std::any_of(p.transposes.begin(), p.transposes.end(),
                                                      [&](const Op *t) { return t->result() == v; });
        });
      };
      if (!isPipelined(op->operand(0)) || !isPipelined(op->operand(1)))
        continue;
      Value *c = op->operand(2), *d = op->result();
      if (c->ownerBlock() != body || c->index() == 0 || c->uses().size() != 1 || !onlyCarried(d, yield, c->index() - 1))
        continue;
      plan.asyncDots.push_back(op);
    }
  // Tensor copies complete on the rings' mbarriers: a loop with any takes the schedule
  // with barriers (which tensor maps imply: TargetDesc::tensorMaps needs asyncBarriers).
  plan.tensorMaps = std::any_of(plan.loads.begin(), plan.loads.end(),
                                [](const PipelinedLoad &p) { return p.tma.has_value(); });
  return plan;
}

} // namespace trident::simt

namespace trident::simt {

namespace {

// Binds the loop's induction variable to `iv` and its carried arguments to `state`, and
// lowers the slice (the loads' addresses and masks, the state's next values).
void lowerSlice(Lowering &l, Block *body, const PipelinePlan &plan, Value *iv, const std::vector<Lowered> &state) {
  l.setScalar(body->argument(0), iv);
  for (size_t i = 0; i < plan.carried.size(); ++i)
    l.set(body->argument(plan.carried[i] + 1), state[i]);
  for (Op *op : plan.slice) {
    [[maybe_unused]] bool ok = l.lowerOp(op);
    assert(ok && "address ops lower again");
  }
}

std::vector<Lowered> nextState(Lowering &l, Block *body, const PipelinePlan &plan) {
  std::vector<Lowered> next;
  Op *yield = body->terminator();
  for (unsigned c : plan.carried)
    next.push_back(l.get(yield->operand(c), l.assigned(body->argument(c + 1))));
  return next;
}

} // namespace

std::vector<Lowered> issueLoads(Lowering &l, const Op *loopOp, const PipelinePlan &plan, Value *iv,
                                const std::vector<Lowered> &state, Value *inRange, std::vector<Lowered> &loaded) {
  Block *body = const_cast<Op *>(loopOp)->region(0);
  lowerSlice(l, body, plan, iv, state);
  loaded.clear();
  for (const PipelinedLoad &p : plan.loads) {
    [[maybe_unused]] bool ok = lowerLoad(l, p.load, inRange);
    assert(ok && "a load lowers again");
    loaded.push_back(l.get(p.load->result()));
  }
  return nextState(l, body, plan);
}

std::vector<Lowered> issueStage(Lowering &l, const Op *loopOp, const PipelinePlan &plan,
                                const std::vector<Value *> &buffers, Value *iv, const std::vector<Lowered> &state,
                                Value *stage, Value *inRange, Value *barriers) {
  Op *loop = const_cast<Op *>(loopOp);
  Block *body = loop->region(0);
  lowerSlice(l, body, plan, iv, state);
  for (size_t k = 0; k < plan.loads.size(); ++k) {
    const PipelinedLoad &p = plan.loads[k];
    Op *load = p.load;
    if (p.tma) {
      size_t rank = p.tma->tile.size();
      std::vector<Value *> offsets;
      for (const Value *c : tensorMapOuterCoordinates(load))
        offsets.push_back(c ? l.scalar(const_cast<Value *>(c)) : l.constI32(1));
      for (size_t d = 0; d < rank; ++d)
        offsets.push_back(l.scalar(load->operand(unsigned(1 + 2 * rank + d))));
      Value *stageBase = l.b.binary(OpCode::MulI, stage, l.constI32(p.tileElements));
      issueTensorCopies(l, *p.tma, l.tensorMapArg(*p.tma), buffers[k], stageBase, offsets, barriers, stage, inRange);
      continue;
    }
    Type element = load->result()->type().element();
    Lowered ptr = l.get(load->operand(0), p.access);
    std::optional<Lowered> mask;
    if (load->numOperands() > 1)
      mask = l.get(load->operand(1), p.access);
    LinearLayout offsets = p.shared.offsets(p.access);
    Value *stageBase = l.b.binary(OpCode::MulI, stage, l.constI32(p.tileElements));
    int64_t dups = p.access.registerReplicationMask();
    int64_t bytes = p.width * (Lowering::storageType(element).bitWidth() / 8);
    for (int64_t r = 0; r < p.access.numRegisters(); r += p.width) {
      if (r & dups)
        continue;
      Value *pred = l.andPredicates(mask ? mask->regs[size_t(r)] : nullptr, inRange);
      Value *index = l.b.binary(OpCode::AddI, stageBase, l.elementIndex(offsets, r));
      std::vector<Value *> operands{buffers[k], index, ptr.regs[size_t(r)]};
      if (pred)
        operands.push_back(pred);
      l.b.create(OpCode::ThAsyncCopy, operands, std::span<const Type>{}, {{"bytes", Attribute::integer(bytes)}});
    }
  }
  bool copies = std::any_of(plan.loads.begin(), plan.loads.end(), [](const PipelinedLoad &p) { return !p.tma; });
  if (barriers && copies) // (a tensor load's th.tma_arrive is its own arrival)
    l.b.create(OpCode::ThAsyncArrive, std::vector<Value *>{barriers, stage}, std::span<const Type>{});
  else if (!barriers)
    l.b.create(OpCode::ThAsyncCommit, std::span<Value *const>{}, std::span<const Type>{});
  return nextState(l, body, plan);
}

} // namespace trident::simt
