// Dot products. On matrix units (when layout assignment planned one, DotLayout.h):
// the operands are converted to their operand layouts (through swizzled shared
// memory and th.ldmatrix, or not at all when they are there already, as a softmax
// computed from another dot's accumulator is) and each warp issues one th.mma per
// atom of its tile and k step, accumulating in registers of the accumulator layout:
//
//   %d = tt.dot %a, %b, %c : block<64x64xf32>    (a: 64x32xf16, b: 32x64xf16, 4 warps)
// ->
//   %a0 = th.ldmatrix %sa, %ra {count = 4, trans = 0} : vector<8xf16>  ... (A of one atom)
//   %b0 = th.ldmatrix %sb, %rb {count = 4, trans = 1} : vector<8xf16>  ... (B of two)
//   %d0, %d1, %d2, %d3 = th.mma %a.0 ... %a.7, %b.0 ... %b.3, %c0 ... %c3
//                         {atom = "mma.m16n8k16.f32.f16"} : f32, f32, f32, f32
//
// Otherwise with multiply-adds: A and
// B go to shared memory row-major, then each thread loops over k, reading the A
// elements of its rows and the B elements of its columns and accumulating into its
// registers of the result (in the result's layout). Inputs narrower than the
// accumulator are widened first, as the products must be (f8 exactly, so any
// max_num_imprecise_acc is met with full precision).
//
//   %d = tt.dot %a, %b, %c : block<32x32xf32>     (a: 32x16, b: 16x32)
// ->
//   (A, B written to shared memory)
//   %d0, ... = scf.for %c0, %c16, %c1, %c0_0, ... : f32, ... ({
//   ^(%k: i32, %acc0: f32, ...):
//     %a0 = th.load_shared %sa, (row0 * 16 + k) : f32   ... one per row the thread holds
//     %b0 = th.load_shared %sb, (k * 32 + col0) : f32   ... one per column
//     %n0 = math.fma %a0, %b0, %acc0 : f32             ... one per register
//     scf.yield %n0, ...
//   })
#include "LowerContext.h"

#include <cassert>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

namespace trident::simt {

namespace {

bool isNarrowFloat(Type t) { return t == Type::f8e4m3() || t == Type::f8e5m2(); }

// Widens an A or B element to the accumulator's type.
Value *widen(Lowering &l, Value *v, Type acc) {
  Type t = v->type();
  if (t == acc)
    return v;
  if (isNarrowFloat(t))
    return widenNarrowFloat(l, v, acc);
  if (t.isInteger())
    return l.b.cast(OpCode::ExtSI, v, acc);
  return l.b.cast(OpCode::ExtF, v, acc);
}

// For each flat offset a register of `layout` holds at lane 0 of warp 0, that register.
std::unordered_map<int64_t, int64_t> registerAt(const LinearLayout &layout) {
  std::unordered_map<int64_t, int64_t> at;
  for (int64_t r = 0; r < layout.numRegisters(); ++r)
    at.emplace(layout.registerOffset(r), r);
  return at;
}

// 32-bit registers per thread a loop-invariant operand may keep through the loop.
constexpr int64_t kMaxHoistedWords = 32;

// An operand of a dot on matrix units, in its operand layout: its registers when it is
// there already (or costs nothing to put there), else written to shared memory once,
// so that each k step reads only the fragments it needs (fewer registers live).
class DotOperand {
public:
  DotOperand(Lowering &l, Value *v, LinearLayout layout) : l_(l), layout_(std::move(layout)) {
    element_ = v->type().element();
    regs_.assign(static_cast<size_t>(layout_.numRegisters()), nullptr);
    if (auto it = l.pipelined.find(v); it != l.pipelined.end()) {
      buffer_ = it->second.buffer;
      base_ = it->second.base;
      shared_ = it->second.shared;
      return;
    }
    const Lowered &own = l.get(v);
    int budget = 12;
    bool renames = own.layout.laneBases() == layout_.laneBases() && own.layout.warpBases() == layout_.warpBases();
    if (own.layout == layout_ || renames || l.canRematerialize(v, budget)) {
      regs_ = l.get(v, layout_).regs;
      return;
    }
    shared_ = l.operandTile(own.layout, layout_, element_);
    if (Op *loop = outermostInvariantLoop(l, v)) {
      // Invariant in a loop (attention's Q): written once, before it, and read there
      // too when its fragments are few registers; else each k step reads its own
      // fragments in the loop (64 registers of Q at HEAD_DIM 128 would spill).
      InsertionGuard guard(l.b);
      l.b.setInsertionPoint(loop);
      buffer_ = l.writeShared(own, shared_);
      int64_t words = layout_.numRegisters() * Lowering::storageType(element_).bitWidth() / 32;
      if (words <= kMaxHoistedWords) {
        regs_ = l.readShared(buffer_, element_, layout_, shared_).regs;
        buffer_ = nullptr;
      }
      return;
    }
    buffer_ = l.writeShared(own, shared_);
  }
  const LinearLayout &layout() const { return layout_; }
  // Makes the registers in `needed` available (reading them from shared memory).
  void fetch(const std::vector<int64_t> &needed) {
    if (!buffer_)
      return;
    std::vector<bool> only(regs_.size(), false);
    bool any = false;
    for (int64_t r : needed)
      if (!regs_[static_cast<size_t>(r)])
        any = only[static_cast<size_t>(r)] = true;
    if (!any)
      return;
    Lowered read = l_.readShared(buffer_, element_, layout_, shared_, &only, base_);
    for (size_t r = 0; r < regs_.size(); ++r)
      if (!regs_[r] && read.regs[r])
        regs_[r] = read.regs[r];
  }
  Value *reg(int64_t r) const { return regs_[static_cast<size_t>(r)]; }

private:
  Lowering &l_;
  LinearLayout layout_;
  Type element_;
  std::vector<Value *> regs_;
  Value *buffer_ = nullptr, *base_ = nullptr;
  SharedLayout shared_;
};

// tf32x3 (input_precision="tf32x3"): an f32 operand is its tf32 head (the low 13
// mantissa bits cleared) plus the f32 remainder, which is exact; the dot sums three tf32
// products per step, the small ones first: a_lo * b_hi + a_hi * b_lo + a_hi * b_hi,
// within about 2^-21 of f32 products at three times the matrix work. (As in Triton, an
// infinite operand gives NaN: its remainder is inf - inf.)
std::pair<Value *, Value *> splitTf32(Lowering &l, Value *x) {
  Value *bits = l.b.cast(OpCode::Bitcast, x, Type::i32());
  Value *head = l.b.cast(OpCode::Bitcast, l.b.binary(OpCode::AndI, bits, l.b.constInt(int32_t(0xffffe000u), Type::i32())),
                         Type::f32());
  return {head, l.b.binary(OpCode::SubF, x, head)};
}

bool lowerDotMma(Lowering &l, Op *op, const MmaPlan &plan) {
  const MatrixAtom &atom = *plan.atom;
  unsigned numWarps = l.layouts.numWarps;
  std::span<const int64_t> shape = op->result()->type().shape();
  std::span<const int64_t> aShape = op->operand(0)->type().shape(), bShape = op->operand(1)->type().shape();
  LinearLayout lc = mmaAccumulatorLayout(shape, plan, numWarps);
  DotOperand a(l, op->operand(0), mmaOperandLayout(aShape, plan, 0, numWarps));
  DotOperand b(l, op->operand(1), mmaOperandLayout(bShape, plan, 1, numWarps));
  Lowered d = l.get(op->operand(2), lc);
  std::unordered_map<int64_t, int64_t> regA = registerAt(a.layout()), regB = registerAt(b.layout());
  int64_t numA = int64_t(1) << atom.a.registerBits.size(), numB = int64_t(1) << atom.b.registerBits.size(),
          numC = int64_t(1) << atom.c.registerBits.size();
  unsigned kBits = log2Exact(aShape[1]), nBits = log2Exact(shape[1]);
  std::vector<Type> resultTypes(static_cast<size_t>(numC), atom.cType);
  bool split = atom.aType == Type::f32() && op->attr("input_precision").isString() &&
               op->stringAttr("input_precision") == "tf32x3";
  // One k step at a time: its A and B fragments are read, then every atom of the
  // warp's tile issues (independent, back to back).
  for (int64_t k0 = 0; k0 < aShape[1]; k0 += atom.k) {
    std::vector<std::vector<int64_t>> opsA, opsB;
    std::vector<int64_t> neededA, neededB;
    for (int64_t rc = 0; rc < lc.numRegisters(); rc += numC) {
      int64_t at = lc.registerOffset(rc);
      int64_t row0 = at >> nBits, col0 = at & ((int64_t(1) << nBits) - 1);
      std::vector<int64_t> ra, rb;
      for (int64_t e = 0; e < numA; ++e)
        ra.push_back(regA.at(((row0 << kBits) | k0) ^ atomElement(atom.a.registerBits, e, aShape)));
      for (int64_t e = 0; e < numB; ++e)
        rb.push_back(regB.at(((k0 << nBits) | col0) ^ atomElement(atom.b.registerBits, e, bShape)));
      neededA.insert(neededA.end(), ra.begin(), ra.end());
      neededB.insert(neededB.end(), rb.begin(), rb.end());
      opsA.push_back(std::move(ra));
      opsB.push_back(std::move(rb));
    }
    a.fetch(neededA);
    b.fetch(neededB);
    // The (head, remainder) of each register this step reads, split once.
    std::map<std::pair<int, int64_t>, std::pair<Value *, Value *>> parts;
    auto part = [&](int which, int64_t r, bool low) {
      auto it = parts.find({which, r});
      if (it == parts.end())
        it = parts.emplace(std::pair(which, r), splitTf32(l, which ? b.reg(r) : a.reg(r))).first;
      return low ? it->second.second : it->second.first;
    };
    for (int64_t rc = 0, t = 0; rc < lc.numRegisters(); rc += numC, ++t) {
      // One atom, or tf32x3's three: (A low, B high), (A high, B low), (A high, B high).
      for (int product = split ? 0 : 2; product < 3; ++product) {
        std::vector<Value *> operands;
        for (int64_t r : opsA[static_cast<size_t>(t)])
          operands.push_back(split ? part(0, r, product == 0) : a.reg(r));
        for (int64_t r : opsB[static_cast<size_t>(t)])
          operands.push_back(split ? part(1, r, product == 1) : b.reg(r));
        for (int64_t e = 0; e < numC; ++e)
          operands.push_back(d.regs[static_cast<size_t>(rc + e)]);
        Op *mma = l.b.create(OpCode::ThMma, operands, resultTypes, {{"atom", Attribute::string(atom.name)}});
        for (int64_t e = 0; e < numC; ++e)
          d.regs[static_cast<size_t>(rc + e)] = mma->result(static_cast<unsigned>(e));
      }
    }
  }
  l.set(op->result(), std::move(d));
  return true;
}

// ---- warpgroup atoms (th.wgmma) ----

// An operand th.wgmma reads from shared memory: a pipelined stage, or the value written
// there (once, before the loop, when the loop does not change it; then fenced for the
// async proxy th.wgmma reads through).
struct MatrixTile {
  Value *buffer = nullptr, *base = nullptr;
  SharedLayout shared;
  MatrixDescriptor desc;
};

MatrixTile matrixTile(Lowering &l, Value *v, unsigned kDim, bool kMajor) {
  MatrixTile t;
  Type element = v->type().element();
  unsigned bytes = Lowering::storageType(element).bitWidth() / 8;
  if (auto it = l.pipelined.find(v); it != l.pipelined.end()) {
    t.buffer = it->second.buffer;
    t.base = it->second.base;
    t.shared = it->second.shared;
  } else {
    Lowered own = l.get(v);
    t.shared = l.matrixTileLayout(own.layout, kDim, element, kMajor);
    InsertionGuard guard(l.b);
    if (Op *loop = outermostInvariantLoop(l, v))
      l.b.setInsertionPoint(loop);
    // Written already, before an op of this block that comes before the insertion point?
    // (The buffer is written only there, so it still holds v.)
    Op *before = l.b.insertionOp();
    for (const Lowering::StagedTile &s : l.stagedTiles) {
      if (s.value != v || s.bases != t.shared.bases || s.before->parentBlock() != l.b.block())
        continue;
      bool earlier = before == nullptr;
      for (Op *o = s.before; o && !earlier; o = o->next())
        earlier = o == before;
      if (earlier) {
        t.buffer = s.buffer;
        break;
      }
    }
    if (!t.buffer) {
      t.buffer = l.writeShared(own, t.shared);
      l.b.create(OpCode::ThFenceAsyncShared, std::span<Value *const>{}, std::span<const Type>{});
      if (before)
        l.stagedTiles.push_back({v, t.shared.bases, t.buffer, before});
    }
  }
  std::optional<MatrixDescriptor> desc = matrixDescriptor(t.shared, v->type().shape(), kDim, bytes);
  assert(desc && "planMma admits only operands with a canonical tile");
  assert(!(kMajor && desc->mnMajor) && "a K-major-only atom's tile is K-major");
  t.desc = *desc;
  return t;
}

void setLayoutAttrs(AttributeList &attrs, const std::string &x, const MatrixDescriptor &d) {
  attrs.set(x + "_major", Attribute::string(d.mnMajor ? "mn" : "k"));
  attrs.set(x + "_swizzle", Attribute::integer(d.swizzle));
  attrs.set(x + "_sbo", Attribute::integer(d.sbo));
  attrs.set(x + "_lbo", Attribute::integer(d.lbo));
}

// This thread's warpgroup's origin in a tile: `warpFlat` holds, per warp bit, the flat
// element index that bit moves the origin by; the result is its shared-memory offset.
Value *groupOrigin(Lowering &l, const MatrixTile &t, const std::vector<int64_t> &warpFlat, int64_t numElements) {
  std::vector<int64_t> warp;
  bool any = false;
  for (int64_t f : warpFlat) {
    warp.push_back(t.shared.offset(f));
    any = any || f;
  }
  if (!any)
    return t.base ? t.base : l.constI32(0);
  std::vector<int64_t> lanes(l.target.log2WarpSize(), 0);
  Value *origin = l.layoutBase(LinearLayout({numElements}, {}, lanes, warp));
  return t.base ? l.b.binary(OpCode::AddI, t.base, origin) : origin;
}

bool lowerDotWgmma(Lowering &l, Op *op, const MmaPlan &plan) {
  const MatrixAtom &atom = *plan.atom;
  unsigned numWarps = l.layouts.numWarps;
  Value *av = op->operand(0), *bv = op->operand(1);
  std::span<const int64_t> shape = op->result()->type().shape();
  std::span<const int64_t> aShape = av->type().shape(), bShape = bv->type().shape();
  LinearLayout lc = mmaAccumulatorLayout(shape, plan, numWarps);
  LinearLayout la = mmaOperandLayout(aShape, plan, 0, numWarps);
  // A from registers when it is there already (attention's P), else from shared memory
  // (always for tf32 and 8-bit inputs).
  std::optional<Lowered> aRegs;
  if (!l.pipelined.count(av) && !atom.kMajorOnly) {
    const Lowered &own = l.get(av);
    int budget = 12;
    if (own.layout == la || l.canRematerialize(av, budget))
      aRegs = l.get(av, la);
  }
  std::optional<MatrixTile> ta;
  if (!aRegs)
    ta = matrixTile(l, av, 1, atom.kMajorOnly);
  MatrixTile tb = matrixTile(l, bv, 0, atom.kMajorOnly);
  Lowered d = l.get(op->operand(2), lc);

  // The warp bits past the atom's own pick the warpgroup's tiles: M (A), then N (B).
  unsigned atomWarpBits = log2Exact(atom.warps);
  const std::vector<int64_t> &accWarps = lc.warpBases();
  unsigned mBits = log2Exact(plan.warpsM), nBits = log2Exact(plan.warpsN);
  unsigned colBits = log2Exact(shape[1]), kBits = log2Exact(aShape[1]);
  std::vector<int64_t> aWarp(accWarps.size(), 0), bWarp(accWarps.size(), 0);
  for (unsigned i = 0; i < mBits; ++i)
    aWarp[atomWarpBits + i] = (accWarps[atomWarpBits + i] >> colBits) << kBits; // (row, 0) of A
  for (unsigned i = 0; i < nBits; ++i)
    bWarp[atomWarpBits + mBits + i] = accWarps[atomWarpBits + mBits + i] & ((int64_t(1) << colBits) - 1);
  Value *aOrigin = ta ? groupOrigin(l, *ta, aWarp, aShape[0] * aShape[1]) : nullptr;
  Value *bOrigin = groupOrigin(l, tb, bWarp, bShape[0] * bShape[1]);

  AttributeList attrs{{"atom", Attribute::string(atom.name)}, {"a", Attribute::string(ta ? "shared" : "registers")}};
  if (ta)
    setLayoutAttrs(attrs, "a", ta->desc);
  setLayoutAttrs(attrs, "b", tb.desc);
  std::unordered_map<int64_t, int64_t> regA = registerAt(la);
  int64_t numA = int64_t(1) << atom.a.registerBits.size(), numC = int64_t(1) << atom.c.registerBits.size();
  std::vector<Type> resultTypes(static_cast<size_t>(numC), atom.cType);
  auto at = [&](Value *origin, const MatrixTile &t, int64_t flat) {
    int64_t offset = t.shared.offset(flat);
    return offset ? l.b.binary(OpCode::AddI, origin, l.constI32(offset)) : origin;
  };
  // Every register the atoms read goes through the fence, so that all of them are
  // written before it: A fragments (atom by atom, in their pairing order), then the
  // accumulators.
  std::vector<Value *> fenced;
  std::map<int64_t, size_t> aAt; // (row0, k0) of an A fragment -> its first fenced value
  if (!ta) {
    for (int64_t k0 = 0; k0 < aShape[1]; k0 += atom.k)
      for (int64_t rc = 0; rc < lc.numRegisters(); rc += numC) {
        int64_t corner = ((lc.registerOffset(rc) >> colBits) << kBits) | k0;
        if (!aAt.emplace(corner, fenced.size()).second)
          continue;
        for (int64_t e = 0; e < numA; ++e)
          fenced.push_back(aRegs->regs[size_t(regA.at(corner ^ atomElement(atom.a.registerBits, e, aShape)))]);
      }
  }
  // An accumulator of +0 constants (a dot that starts from zeros) is not fenced: the
  // NVPTX backend does not read it (scale-d false), so nothing writes those registers.
  bool zeroAcc = std::all_of(d.regs.begin(), d.regs.end(), [](const Value *v) {
    const Op *def = v->definingOp();
    if (!def || !def->is(OpCode::Constant))
      return false;
    const Attribute &value = def->attr("value");
    return (value.isInt() && value.getInt() == 0) ||
           (value.isFloat() && value.getFloat() == 0.0 && !std::signbit(value.getFloat()));
  });
  size_t accAt = fenced.size();
  if (!zeroAcc)
    fenced.insert(fenced.end(), d.regs.begin(), d.regs.end());
  std::vector<Type> fencedTypes;
  for (Value *v : fenced)
    fencedTypes.push_back(v->type());
  Op *fence = l.b.create(OpCode::ThWgmmaFence, fenced, fencedTypes);
  for (size_t i = 0; i < d.regs.size() && !zeroAcc; ++i)
    d.regs[i] = fence->result(static_cast<unsigned>(accAt + i));
  for (int64_t k0 = 0; k0 < aShape[1]; k0 += atom.k) {
    for (int64_t rc = 0; rc < lc.numRegisters(); rc += numC) {
      int64_t origin = lc.registerOffset(rc);
      int64_t row0 = origin >> colBits, col0 = origin & ((int64_t(1) << colBits) - 1);
      std::vector<Value *> operands{tb.buffer, at(bOrigin, tb, (k0 << colBits) | col0)};
      if (ta) {
        operands.push_back(ta->buffer);
        operands.push_back(at(aOrigin, *ta, (row0 << kBits) | k0));
      } else {
        size_t first = aAt.at((row0 << kBits) | k0);
        for (int64_t e = 0; e < numA; ++e)
          operands.push_back(fence->result(static_cast<unsigned>(first + size_t(e))));
      }
      for (int64_t e = 0; e < numC; ++e)
        operands.push_back(d.regs[static_cast<size_t>(rc + e)]);
      Op *mma = l.b.create(OpCode::ThWgmma, operands, resultTypes, attrs);
      for (int64_t e = 0; e < numC; ++e)
        d.regs[static_cast<size_t>(rc + e)] = mma->result(static_cast<unsigned>(e));
    }
  }
  l.b.create(OpCode::ThWgmmaCommit, std::span<Value *const>{}, std::span<const Type>{});
  std::vector<Type> accTypes;
  for (Value *v : d.regs)
    accTypes.push_back(v->type());
  // A dot whose accumulator only goes round a pipelined loop leaves this group running
  // (waiting for the one before it) and the loop waits for the last after it.
  int pending = l.asyncDots.count(op) ? 1 : 0;
  Op *wait = l.b.create(OpCode::ThWgmmaWait, d.regs, accTypes, {{"pending", Attribute::integer(pending)}});
  for (size_t i = 0; i < d.regs.size(); ++i)
    d.regs[i] = wait->result(static_cast<unsigned>(i));
  l.set(op->result(), std::move(d));
  return true;
}

} // namespace

Op *outermostInvariantLoop(const Lowering &l, const Value *v) {
  const Op *def = v->definingOp() ? v->definingOp() : v->ownerBlock()->parentOp();
  for (auto [blockLoop, threadLoop] : l.loops)
    if (!def || !def->isInside(blockLoop))
      return threadLoop;
  return nullptr;
}

bool lowerDot(Lowering &l, Op *op) {
  if (const MmaPlan *plan = l.layouts.mmaPlan(op))
    return plan->atom->warps > 1 ? lowerDotWgmma(l, op, *plan) : lowerDotMma(l, op, *plan);
  if (lowerDotCoop(l, op)) // Vulkan's cooperative matrices (LowerCoopMatrix.cpp)
    return true;
  Value *result = op->result();
  Type accType = result->type().element();
  Type inType = op->operand(0)->type().element();
  LinearLayout layout = l.assigned(result);
  Lowered acc = l.get(op->operand(2), layout);
  std::span<const int64_t> aShape = op->operand(0)->type().shape(), bShape = op->operand(1)->type().shape();
  unsigned rank = static_cast<unsigned>(aShape.size());
  int64_t m = aShape[rank - 2], k = aShape[rank - 1], n = bShape[rank - 1];
  unsigned batchDim = 0, rowDim = rank - 2, colDim = rank - 1;
  Builder &b = l.b;

  Value *sa = l.writeShared(l.get(op->operand(0)));
  Value *sb = l.writeShared(l.get(op->operand(1)));

  // Per register: the start of its A row and its B column; registers sharing a row
  // (or column) share the loads.
  int64_t dups = layout.registerReplicationMask();
  std::map<std::pair<int64_t, int64_t>, Value *> rowStart, colStart;
  std::vector<std::pair<int64_t, int64_t>> rowOf(layout.numRegisters()), colOf(layout.numRegisters());
  std::vector<int64_t> live;
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    if (r & dups)
      continue;
    live.push_back(r);
    std::vector<int64_t> idx = layout.unflatten(layout.registerOffset(r));
    int64_t batch = rank == 3 ? idx[batchDim] : 0;
    rowOf[r] = {batch, idx[rowDim]};
    colOf[r] = {batch, idx[colDim]};
    Value *bi = rank == 3 ? l.dimIndex(layout, batchDim, r) : nullptr;
    if (!rowStart.count(rowOf[r])) {
      Value *row = l.dimIndex(layout, rowDim, r);
      if (bi)
        row = b.binary(OpCode::AddI, b.binary(OpCode::MulI, bi, l.constI32(m)), row);
      rowStart[rowOf[r]] = b.binary(OpCode::MulI, row, l.constI32(k));
    }
    if (!colStart.count(colOf[r])) {
      Value *col = l.dimIndex(layout, colDim, r);
      if (bi)
        col = b.binary(OpCode::AddI, b.binary(OpCode::MulI, bi, l.constI32(k * n)), col);
      colStart[colOf[r]] = col;
    }
  }

  // for k: acc += A[row, k] * B[k, col]
  std::vector<Value *> operands{l.constI32(0), l.constI32(k), l.constI32(1)};
  std::vector<Type> types;
  for (int64_t r : live) {
    operands.push_back(acc.regs[r]);
    types.push_back(accType);
  }
  Op *loop = b.create(OpCode::For, operands, types, {}, 1);
  Block *body = loop->region();
  Value *kv = body->addArgument(Type::i32());
  std::vector<Value *> carried;
  for (Type t : types)
    carried.push_back(body->addArgument(t));
  Block *outer = b.block();
  Op *after = b.insertionOp();
  b.setInsertionPointToEnd(body);

  Value *kTimesN = b.binary(OpCode::MulI, kv, l.constI32(n));
  std::map<std::pair<int64_t, int64_t>, Value *> aValues, bValues;
  auto loadShared = [&](Value *buffer, Value *index) {
    Value *ops[] = {buffer, index};
    Type elem[] = {Lowering::storageType(inType)};
    return widen(l, l.fromStorage(b.create(OpCode::ThLoadShared, ops, elem)->result(), inType), accType);
  };
  for (auto &[key, start] : rowStart)
    aValues[key] = loadShared(sa, b.binary(OpCode::AddI, start, kv));
  for (auto &[key, start] : colStart)
    bValues[key] = loadShared(sb, b.binary(OpCode::AddI, start, kTimesN));
  std::vector<Value *> next;
  for (size_t i = 0; i < live.size(); ++i) {
    Value *x = aValues[rowOf[live[i]]], *y = bValues[colOf[live[i]]];
    if (accType.isInteger())
      next.push_back(b.binary(OpCode::AddI, carried[i], b.binary(OpCode::MulI, x, y)));
    else
      next.push_back(b.fma(x, y, carried[i]));
  }
  b.yield(next);
  if (after)
    b.setInsertionPoint(after);
  else
    b.setInsertionPointToEnd(outer);

  Lowered out{layout, std::vector<Value *>(layout.numRegisters(), nullptr)};
  for (size_t i = 0; i < live.size(); ++i)
    out.regs[live[i]] = loop->result(static_cast<unsigned>(i));
  for (int64_t r = 0; r < layout.numRegisters(); ++r)
    if (r & dups)
      out.regs[r] = out.regs[r & ~dups];
  l.set(result, std::move(out));
  return true;
}

} // namespace trident::simt
