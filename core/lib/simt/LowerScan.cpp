// Scans, in a layout where each thread holds a contiguous run of the axis and
// lanes, then warps, continue it (scanLayout): an inclusive scan of each thread's
// registers, a Hillis-Steele scan of the threads' totals across the lanes
// (th.shuffle up; down for reverse scans), then the warps' totals through shared
// memory. Each level's exclusive prefix is combined into the values below it as
// the left operand, so the combiner only needs to be associative.
//
//   %c = tt.scan %x {axis = 0, reverse = false} : block<1024xf32>  (8 registers, 32 lanes, 4 warps)
// ->
//   %a1 = arith.addf %x0, %x1 ... (7)        running sums within the thread
//   %u = th.shuffle %t, 1 {mode = "up"} ...  (5 steps, selected where lane >= step)
//   th.store_shared %w, %warp, %t, %lastLane ; %p = th.load_shared %w, 0 : vector<4xf32> ...
#include "LowerContext.h"

namespace trident::simt {

namespace {

using Tuple = std::vector<Value *>;

bool alongAxis(const LinearLayout &l, int64_t basis, unsigned axis) {
  return ((basis >> l.dimOffset(axis)) & ((int64_t(1) << l.dimBits(axis)) - 1)) != 0;
}

int64_t spread(int64_t bits, const std::vector<unsigned> &positions) {
  int64_t out = 0;
  for (size_t i = 0; i < positions.size(); ++i)
    if ((bits >> i) & 1)
      out |= int64_t(1) << positions[i];
  return out;
}

// The positions of `bases` along `axis`; true when they are 0, 1, 2 ... of the id and
// select consecutive axis bits starting at `firstBit` (which advances past them).
bool axisBits(const LinearLayout &l, const std::vector<int64_t> &bases, unsigned axis, unsigned &firstBit,
              std::vector<unsigned> &positions, bool fromZero) {
  for (unsigned i = 0; i < bases.size(); ++i)
    if (bases[i] != 0 && alongAxis(l, bases[i], axis))
      positions.push_back(i);
  for (size_t j = 0; j < positions.size(); ++j) {
    if (fromZero && positions[j] != j)
      return false;
    if (bases[positions[j]] != int64_t(1) << (l.dimOffset(axis) + firstBit + j))
      return false;
  }
  firstBit += static_cast<unsigned>(positions.size());
  return true;
}

} // namespace

bool lowerScan(Lowering &l, Op *op) {
  unsigned axis = static_cast<unsigned>(op->intAttr("axis"));
  bool reverse = op->attr("reverse").isBool() && op->attr("reverse").getBool();
  unsigned n = op->numOperands();
  Block *combiner = op->region();
  Builder &b = l.b;
  LinearLayout layout =
      scanLayout(op->operand(0)->type().shape(), axis, l.layouts.warpSize, l.layouts.numWarps);
  std::vector<Lowered> inputs;
  for (Value *v : op->operands())
    inputs.push_back(l.get(v, layout));

  std::vector<unsigned> regAxis, regOther, laneAxis, warpAxis;
  unsigned bit = 0;
  bool ok = axisBits(layout, layout.regBases(), axis, bit, regAxis, false) &&
            axisBits(layout, layout.laneBases(), axis, bit, laneAxis, true) &&
            axisBits(layout, layout.warpBases(), axis, bit, warpAxis, true) && bit == layout.dimBits(axis);
  if (!ok)
    return l.error(op, "internal error: tt.scan's layout does not keep the axis in thread, lane, warp order");
  for (unsigned i = 0; i < layout.regBases().size(); ++i)
    if (!alongAxis(layout, layout.regBases()[i], axis))
      regOther.push_back(i);

  auto combine = [&](const Tuple &a, const Tuple &c) -> std::optional<Tuple> {
    Tuple args = a;
    args.insert(args.end(), c.begin(), c.end());
    return l.inlineCombiner(combiner, args);
  };
  auto select = [&](Value *cond, const Tuple &a, const Tuple &c) {
    Tuple out;
    for (unsigned i = 0; i < n; ++i)
      out.push_back(b.select(cond, a[i], c[i]));
    return out;
  };
  auto shuffle = [&](const Tuple &t, int64_t delta) {
    Tuple out;
    for (Value *v : t) {
      Value *operands[] = {v, l.constI32(delta)};
      Type types[] = {v->type()};
      out.push_back(
          b.create(OpCode::ThShuffle, operands, types, {{"mode", Attribute::string(reverse ? "down" : "up")}})
              ->result());
    }
    return out;
  };
  // A position along the axis in scan order, from the id bits [0, bits).
  auto scanPosition = [&](Value *id, size_t bits) {
    int64_t mask = (int64_t(1) << bits) - 1;
    Value *pos = b.binary(OpCode::AndI, id, l.constI32(mask));
    return reverse ? b.binary(OpCode::SubI, l.constI32(mask), pos) : pos;
  };

  int64_t numRuns = int64_t(1) << regOther.size(), runLength = int64_t(1) << regAxis.size();
  // acc[g][s]: register s (in scan order) of run g.
  std::vector<std::vector<Tuple>> acc(numRuns, std::vector<Tuple>(runLength));
  for (int64_t g = 0; g < numRuns; ++g)
    for (int64_t s = 0; s < runLength; ++s) {
      int64_t k = reverse ? runLength - 1 - s : s;
      int64_t r = spread(g, regOther) | spread(k, regAxis);
      Tuple x;
      for (unsigned i = 0; i < n; ++i)
        x.push_back(inputs[i].regs[r]);
      if (s == 0) {
        acc[g][s] = x;
      } else if (auto c = combine(acc[g][s - 1], x)) {
        acc[g][s] = *c;
      } else {
        return false;
      }
    }

  // Adds `prefix` (where `has` is true) to every value of run g.
  auto addPrefix = [&](int64_t g, const Tuple &prefix, Value *has) -> bool {
    for (Tuple &t : acc[g]) {
      auto c = combine(prefix, t);
      if (!c)
        return false;
      t = select(has, *c, t);
    }
    return true;
  };

  // Across lanes: each thread's total, scanned; the exclusive prefix comes from the lane before.
  std::vector<Tuple> threadTotals(numRuns);
  for (int64_t g = 0; g < numRuns; ++g)
    threadTotals[g] = acc[g][runLength - 1];
  if (!laneAxis.empty()) {
    Value *pos = scanPosition(l.laneId(), laneAxis.size());
    for (int64_t g = 0; g < numRuns; ++g) {
      Tuple v = threadTotals[g];
      for (int64_t d = 1; d < (int64_t(1) << laneAxis.size()); d *= 2) {
        auto c = combine(shuffle(v, d), v);
        if (!c)
          return false;
        v = select(b.cmpi("sge", pos, l.constI32(d)), *c, v);
      }
      Tuple before = shuffle(v, 1);
      if (!addPrefix(g, before, b.cmpi("sge", pos, l.constI32(1))))
        return false;
      threadTotals[g] = v; // in the last lane: the warp's total
    }
  }

  // Across warps: the last lane (in scan order) of each warp writes the warp's total.
  if (!warpAxis.empty()) {
    int64_t numWarps = int64_t(1) << warpAxis.size();
    LinearLayout runs = reducedLayout(layout, axis);
    Value *warpPos = scanPosition(l.warpId(), warpAxis.size());
    Value *writer = l.ownerPredicate(LinearLayout(runs.shape(), {}, layout.laneBases(), layout.warpBases()));
    if (!laneAxis.empty()) {
      Value *lanePos = scanPosition(l.laneId(), laneAxis.size());
      int64_t last = (int64_t(1) << laneAxis.size()) - 1;
      writer = l.andPredicates(writer, b.cmpi("eq", lanePos, l.constI32(last)));
    }
    std::vector<Value *> buffers;
    for (unsigned i = 0; i < n; ++i)
      buffers.push_back(l.sharedAlloc(threadTotals[0][i]->type(), runs.numElements() * numWarps));
    for (int64_t g = 0; g < numRuns; ++g) {
      Value *first = b.binary(OpCode::MulI, l.elementIndex(runs, g), l.constI32(numWarps));
      Value *slot = b.binary(OpCode::AddI, first, warpPos);
      for (unsigned i = 0; i < n; ++i) {
        std::vector<Value *> operands{buffers[i], slot, l.toStorage(threadTotals[g][i])};
        if (writer)
          operands.push_back(writer);
        b.create(OpCode::ThStoreShared, operands, std::span<const Type>{});
      }
    }
    for (int64_t g = 0; g < numRuns; ++g) {
      Value *first = b.binary(OpCode::MulI, l.elementIndex(runs, g), l.constI32(numWarps));
      std::vector<Tuple> prefix(numWarps, Tuple(n));
      for (int64_t w = 0; w + 1 < numWarps; ++w) { // the last warp's total is never needed
        Tuple total(n);
        for (unsigned i = 0; i < n; ++i) {
          Value *index = w ? b.binary(OpCode::AddI, first, l.constI32(w)) : first;
          Value *operands[] = {buffers[i], index};
          Type element = threadTotals[g][i]->type();
          Type types[] = {Lowering::storageType(element)};
          total[i] = l.fromStorage(b.create(OpCode::ThLoadShared, operands, types)->result(), element);
        }
        if (w == 0) {
          prefix[w] = total;
        } else if (auto c = combine(prefix[w - 1], total)) {
          prefix[w] = *c;
        } else {
          return false;
        }
      }
      // This warp's exclusive prefix: the totals of the warps before it.
      Tuple mine = prefix[0];
      for (int64_t w = 2; w < numWarps; ++w)
        mine = select(b.cmpi("eq", warpPos, l.constI32(w)), prefix[w - 1], mine);
      if (!addPrefix(g, mine, b.cmpi("sge", warpPos, l.constI32(1))))
        return false;
    }
  }

  for (unsigned i = 0; i < n; ++i) {
    Lowered out{layout, std::vector<Value *>(layout.numRegisters(), nullptr)};
    for (int64_t g = 0; g < numRuns; ++g)
      for (int64_t s = 0; s < runLength; ++s) {
        int64_t k = reverse ? runLength - 1 - s : s;
        out.regs[spread(g, regOther) | spread(k, regAxis)] = acc[g][s][i];
      }
    l.set(op->result(i), std::move(out));
  }
  return true;
}

} // namespace trident::simt
