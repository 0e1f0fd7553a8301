// Reductions, in three steps: the registers of a thread along the axis, then the
// lanes along it (butterfly th.shuffle xor, after which every lane of the group
// holds the result), then the warps along it through shared memory (one lane per
// warp writes its partial result, every thread reads all partials of its elements).
// The combiner region is inlined on scalars at each step; a combiner that may be
// regrouped exactly (min/max, integer and bitwise ops: regroupable) combines a thread's
// registers and the warps' partials as trees of neighbouring pairs, others left to right.
//
//   %m = tt.reduce %x {axis = 0} ({ ^(%a: f32, %b: f32): ... maxnumf ... }) : f32
//                                  (%x : block<1024xf32>, 8 registers, 32 lanes, 4 warps)
// ->
//   %t = arith.maxnumf %x0, %x1 ...                      (7 ops, a tree of depth 3)
//   %s = th.shuffle %t, 16 {mode = "xor"} ; arith.maxnumf ... (5 times)
//   th.store_shared %w, %warp, %t, %lane0 ; %p = th.load_shared %w, 0 : vector<4xf32> ...
#include "LowerContext.h"

#include <cassert>

namespace trident::simt {

namespace {

bool alongAxis(const LinearLayout &l, int64_t basis, unsigned axis) {
  return ((basis >> l.dimOffset(axis)) & ((int64_t(1) << l.dimBits(axis)) - 1)) != 0;
}

// Bit positions of `bases` whose basis is (in) or is not (out) along `axis`; zero bases in neither.
void classify(const LinearLayout &l, const std::vector<int64_t> &bases, unsigned axis,
              std::vector<unsigned> &in, std::vector<unsigned> &out) {
  for (unsigned i = 0; i < bases.size(); ++i) {
    if (bases[i] == 0)
      continue;
    (alongAxis(l, bases[i], axis) ? in : out).push_back(i);
  }
}

int64_t spread(int64_t bits, const std::vector<unsigned> &positions) {
  int64_t out = 0;
  for (size_t i = 0; i < positions.size(); ++i)
    if ((bits >> i) & 1)
      out |= int64_t(1) << positions[i];
  return out;
}

using Tuple = std::vector<Value *>;

// Whether the combiner is one op on its two arguments whose result is the same however a
// chain of them is grouped: min and max (of floats too: NaN operands and the order of
// signed zeros give the same answer in any grouping) and the bitwise and wrapping integer
// ops. The partials across warps then combine as a tree, depth log2(W) instead of W - 1
// dependent ops (softmax on 16 warps: 4 instead of 15 max sequences, 10 SPIR-V
// instructions each on Vulkan); other combiners (float sums) keep their left-to-right order.
bool regroupable(const Block *combiner) {
  if (combiner->numArguments() != 2 || combiner->size() != 2)
    return false;
  const Op *op = combiner->front(), *ret = combiner->terminator();
  static const OpCode codes[] = {OpCode::MaxNumF, OpCode::MinNumF, OpCode::MaximumF, OpCode::MinimumF,
                                 OpCode::MaxSI,   OpCode::MinSI,   OpCode::MaxUI,    OpCode::MinUI,
                                 OpCode::AndI,    OpCode::OrI,     OpCode::XOrI,     OpCode::AddI};
  bool known = false;
  for (OpCode c : codes)
    known |= op->is(c);
  if (!known || !ret || ret->numOperands() != 1 || ret->operand(0) != op->result() || op->numOperands() != 2)
    return false;
  for (unsigned i = 0; i < 2; ++i)
    if (op->operand(i) != combiner->argument(0) && op->operand(i) != combiner->argument(1))
      return false;
  return true;
}

} // namespace

bool lowerReduce(Lowering &l, Op *op) {
  unsigned axis = static_cast<unsigned>(op->intAttr("axis"));
  unsigned n = op->numOperands();
  Block *combiner = op->region();
  LinearLayout in = l.get(op->operand(0)).layout;
  if (!in.isDisjoint())
    in = LinearLayout::defaultBlocked(op->operand(0)->type().shape(), l.layouts.warpSize, l.layouts.numWarps);
  std::vector<Lowered> inputs;
  for (Value *v : op->operands())
    inputs.push_back(l.get(v, in));
  LinearLayout out = reducedLayout(in, axis);

  auto combine = [&](const Tuple &a, const Tuple &b) -> std::optional<Tuple> {
    Tuple args = a;
    args.insert(args.end(), b.begin(), b.end());
    return l.inlineCombiner(combiner, args);
  };
  // Combines `items` in order: left to right, or where the combiner allows regrouping,
  // neighbours pairwise level by level (the operands keep their order).
  const bool tree = l.target.treeReductions && regroupable(combiner);
  auto combineAll = [&](std::vector<Tuple> items) -> std::optional<Tuple> {
    if (!tree) {
      Tuple r = items[0];
      for (size_t i = 1; i < items.size(); ++i) {
        auto c = combine(r, items[i]);
        if (!c)
          return std::nullopt;
        r = *c;
      }
      return r;
    }
    while (items.size() > 1) {
      std::vector<Tuple> next;
      for (size_t i = 0; i + 1 < items.size(); i += 2) {
        auto c = combine(items[i], items[i + 1]);
        if (!c)
          return std::nullopt;
        next.push_back(*c);
      }
      if (items.size() % 2)
        next.push_back(items.back());
      items = std::move(next);
    }
    return items[0];
  };

  // 1. Within each thread.
  std::vector<unsigned> regIn, regOut;
  classify(in, in.regBases(), axis, regIn, regOut);
  std::vector<Tuple> acc(int64_t(1) << regOut.size());
  for (int64_t g = 0; g < static_cast<int64_t>(acc.size()); ++g) {
    std::vector<Tuple> items;
    for (int64_t k = 0; k < (int64_t(1) << regIn.size()); ++k) {
      int64_t r = spread(g, regOut) | spread(k, regIn);
      Tuple t;
      for (unsigned i = 0; i < n; ++i)
        t.push_back(inputs[i].regs[r]);
      items.push_back(std::move(t));
    }
    auto c = combineAll(std::move(items));
    if (!c)
      return false;
    acc[g] = *c;
  }

  // 2. Across lanes.
  std::vector<unsigned> laneIn, laneOut;
  classify(in, in.laneBases(), axis, laneIn, laneOut);
  for (unsigned bit : laneIn)
    for (Tuple &t : acc) {
      Tuple other;
      for (Value *v : t) {
        Value *operands[] = {v, l.constI32(int64_t(1) << bit)};
        Type types[] = {v->type()};
        other.push_back(
            l.b.create(OpCode::ThShuffle, operands, types, {{"mode", Attribute::string("xor")}})->result());
      }
      auto c = combine(t, other);
      if (!c)
        return false;
      t = *c;
    }

  // 3. Across warps, through shared memory: partial p of result element e at e * W + p.
  std::vector<unsigned> warpIn, warpOut;
  classify(in, in.warpBases(), axis, warpIn, warpOut);
  if (!warpIn.empty()) {
    int64_t numPartials = int64_t(1) << warpIn.size();
    // Which partial this warp holds: its warp bits along the axis, packed.
    Value *partial = nullptr;
    for (size_t i = 0; i < warpIn.size(); ++i) {
      Value *bit = l.b.binary(OpCode::AndI, l.b.binary(OpCode::ShRUI, l.warpId(), l.constI32(warpIn[i])),
                              l.constI32(1));
      if (i)
        bit = l.b.binary(OpCode::ShLI, bit, l.constI32(static_cast<int64_t>(i)));
      partial = partial ? l.b.binary(OpCode::OrI, partial, bit) : bit;
    }
    // One writer per group of lanes that hold the same partial (lanes along the axis
    // after the butterfly, replicated lanes) and per group of replicated warps.
    Value *writer = l.ownerPredicate(LinearLayout(out.shape(), {}, out.laneBases(), in.warpBases()));
    std::vector<Value *> buffers;
    for (unsigned i = 0; i < n; ++i)
      buffers.push_back(l.sharedAlloc(acc[0][i]->type(), out.numElements() * numPartials));
    for (int64_t g = 0; g < static_cast<int64_t>(acc.size()); ++g) {
      Value *slot = l.b.binary(
          OpCode::AddI, l.b.binary(OpCode::MulI, l.elementIndex(out, g), l.constI32(numPartials)), partial);
      for (unsigned i = 0; i < n; ++i) {
        std::vector<Value *> operands{buffers[i], slot, l.toStorage(acc[g][i])};
        if (writer)
          operands.push_back(writer);
        l.b.create(OpCode::ThStoreShared, operands, std::span<const Type>{});
      }
    }
    for (int64_t g = 0; g < static_cast<int64_t>(acc.size()); ++g) {
      Value *first = l.b.binary(OpCode::MulI, l.elementIndex(out, g), l.constI32(numPartials));
      std::vector<Tuple> partials(numPartials, Tuple(n));
      for (unsigned i = 0; i < n; ++i) {
        Type element = acc[g][i]->type();
        Type storage = Lowering::storageType(element);
        int64_t width = std::min<int64_t>(numPartials, l.target.maxVectorBytes / (storage.bitWidth() / 8));
        width = std::max<int64_t>(width, 1);
        for (int64_t p = 0; p < numPartials; p += width) {
          Value *index = p ? l.b.binary(OpCode::AddI, first, l.constI32(p)) : first;
          Value *operands[] = {buffers[i], index};
          Type types[] = {width > 1 ? Type::vector(width, storage) : storage};
          Value *v = l.b.create(OpCode::ThLoadShared, operands, types)->result();
          std::vector<Value *> parts(numPartials);
          unpackInto(l, v, width, parts, p);
          for (int64_t q = p; q < p + width; ++q)
            partials[q][i] = l.fromStorage(parts[q], element);
        }
      }
      auto c = combineAll(std::move(partials));
      if (!c)
        return false;
      acc[g] = *c;
    }
  }

  for (unsigned i = 0; i < n; ++i) {
    Lowered result{out, {}};
    for (const Tuple &t : acc)
      result.regs.push_back(t[i]);
    assert(static_cast<int64_t>(result.regs.size()) == out.numRegisters());
    l.set(op->result(i), std::move(result));
  }
  return true;
}

} // namespace trident::simt
