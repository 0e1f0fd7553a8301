#include "trident/simt/DotLayout.h"

#include <algorithm>
#include <cassert>

namespace trident::simt {

namespace {

using Bits = std::vector<std::pair<int64_t, int64_t>>;

int64_t flatOf(int64_t row, int64_t col, std::span<const int64_t> shape) {
  return (row << log2Exact(shape[1])) | col;
}

std::vector<int64_t> flatBases(const Bits &bits, std::span<const int64_t> shape) {
  std::vector<int64_t> out;
  for (auto [row, col] : bits)
    out.push_back(flatOf(row, col, shape));
  return out;
}

// Bases stepping one dimension from `from` (inclusive) to `to` (exclusive) by doubling.
void appendSteps(std::vector<int64_t> &bases, int64_t from, int64_t to, bool rows,
                 std::span<const int64_t> shape) {
  for (int64_t s = from; s < to; s *= 2)
    bases.push_back(rows ? flatOf(s, 0, shape) : flatOf(0, s, shape));
}

void padWarps(std::vector<int64_t> &warp, unsigned numWarps) {
  while (warp.size() < log2Exact(numWarps))
    warp.push_back(0);
}

bool fits(const MatrixAtom &atom, const Op *dot, std::array<bool, 2> kContiguous) {
  if (atom.kMajorOnly && !(kContiguous[0] && kContiguous[1]))
    return false;
  Type a = dot->operand(0)->type(), b = dot->operand(1)->type(), c = dot->operand(2)->type();
  if (a.element() != atom.aType || b.element() != atom.bType || c.element() != atom.cType)
    return false;
  // f32 inputs reach a tf32 atom only when the dot allows tf32 products (tf32x3: three
  // of them per product, LowerDot.cpp).
  bool tf32 = atom.aType == Type::f32();
  std::string precision = dot->attr("input_precision").isString() ? dot->stringAttr("input_precision") : "ieee";
  if (tf32 != (precision == "tf32" || precision == "tf32x3"))
    return false;
  if (tf32 && precision == "tf32x3" && atom.warps > 1)
    return false; // its operands split in registers: on mma.sync only
  std::span<const int64_t> as = a.shape(), bs = b.shape();
  return as[0] % atom.m == 0 && as[1] % atom.k == 0 && bs[1] % atom.n == 0;
}

// The warp tiling of a `shape` result by `atom`, counted in the atom's issuers (warps,
// or warpgroups of 4): nothing when the warps do not make whole issuers or a tile is
// not a whole number of atoms.
std::optional<MmaPlan> tile(const MatrixAtom &atom, std::span<const int64_t> shape, unsigned numWarps,
                            bool warpsAlongM) {
  if (numWarps % atom.warps)
    return std::nullopt;
  int64_t units = numWarps / atom.warps;
  int64_t tilesM = shape[0] / atom.m, tilesN = shape[1] / atom.n;
  MmaPlan plan{&atom, 1, 1};
  if (atom.warps > 1) {
    // Warpgroups take M first (a wide atom covers N); whatever N is left must still
    // be whole atoms per warpgroup.
    while (plan.warpsM * 2 <= std::min(units, tilesM))
      plan.warpsM *= 2;
    while (plan.warpsM * plan.warpsN * 2 <= units && shape[1] % (plan.warpsN * 2 * atom.n) == 0)
      plan.warpsN *= 2;
    return plan;
  }
  // Triton's choice: split the longer side (counted in atoms, N in pairs for atoms half as
  // wide as tall, m16n8's; square ones, AMD's, one by one), M first on ties; warps that
  // find no room left replicate.
  int64_t perN = atom.n < atom.m ? atom.m / atom.n : 1;
  while (plan.warpsM * plan.warpsN < units) {
    bool roomM = plan.warpsM < tilesM, roomN = plan.warpsN < tilesN;
    if (!roomM && !roomN)
      break;
    bool alongM =
        warpsAlongM ? roomM : roomM && (tilesM / plan.warpsM >= tilesN / perN / plan.warpsN || !roomN);
    (alongM ? plan.warpsM : plan.warpsN) *= 2;
  }
  return plan;
}

} // namespace

int64_t atomElement(const Bits &bases, int64_t bits, std::span<const int64_t> shape) {
  int64_t flat = 0;
  for (size_t i = 0; i < bases.size(); ++i)
    if (bits >> i & 1)
      flat ^= flatOf(bases[i].first, bases[i].second, shape);
  return flat;
}

std::optional<MmaPlan> planMma(const Op *dot, const TargetDesc &target, unsigned numWarps, bool warpsAlongM,
                               std::array<bool, 2> kContiguous) {
  if (!target.emitsMatrixAtoms || dot->operand(0)->type().rank() != 2)
    return std::nullopt;
  // The first atom (the targets list the fastest first) that keeps every warp busy, else
  // the first that fits at all. An atom's lane maps span one warp of the target (32 lanes,
  // or AMD's wave64).
  std::optional<MmaPlan> first;
  for (const MatrixAtom &candidate : target.matrixAtoms) {
    if (!fits(candidate, dot, kContiguous) || candidate.c.laneBits.size() != target.log2WarpSize())
      continue;
    std::optional<MmaPlan> plan = tile(candidate, dot->result()->type().shape(), numWarps, warpsAlongM);
    if (plan && plan->warpsM * plan->warpsN * candidate.warps == numWarps)
      return plan;
    if (!first)
      first = plan;
  }
  return first;
}

LinearLayout mmaAccumulatorLayout(std::span<const int64_t> shape, const MmaPlan &plan, unsigned numWarps) {
  const MatrixAtom &atom = *plan.atom;
  int64_t tileM = shape[0] / plan.warpsM, tileN = shape[1] / plan.warpsN;
  std::vector<int64_t> reg = flatBases(atom.c.registerBits, shape), warp = flatBases(atom.c.warpBits, shape);
  appendSteps(reg, atom.n, tileN, false, shape);
  appendSteps(reg, atom.m, tileM, true, shape);
  appendSteps(warp, tileM, shape[0], true, shape);
  appendSteps(warp, tileN, shape[1], false, shape);
  padWarps(warp, numWarps);
  return LinearLayout({shape[0], shape[1]}, reg, flatBases(atom.c.laneBits, shape), warp);
}

LinearLayout mmaOperandLayout(std::span<const int64_t> shape, const MmaPlan &plan, unsigned operand,
                              unsigned numWarps) {
  const MatrixAtom &atom = *plan.atom;
  assert(operand < 2 && !(operand == 1 && atom.sharedB) && "B of this atom is read from shared memory");
  bool isA = operand == 0;
  const MatrixAtom::OperandMap &map = isA ? atom.a : atom.b;
  std::vector<int64_t> reg = flatBases(map.registerBits, shape), warp = flatBases(map.warpBits, shape);
  if (isA) {
    int64_t tileM = shape[0] / plan.warpsM;
    appendSteps(reg, atom.k, shape[1], false, shape);
    appendSteps(reg, atom.m, tileM, true, shape);
    appendSteps(warp, tileM, shape[0], true, shape);
    warp.resize(warp.size() + log2Exact(plan.warpsN), 0);
  } else {
    int64_t tileN = shape[1] / plan.warpsN;
    appendSteps(reg, atom.k, shape[0], true, shape);
    appendSteps(reg, atom.n, tileN, false, shape);
    warp.resize(log2Exact(plan.warpsM), 0);
    appendSteps(warp, tileN, shape[1], false, shape);
  }
  padWarps(warp, numWarps);
  return LinearLayout({shape[0], shape[1]}, reg, flatBases(map.laneBits, shape), warp);
}

namespace {

// Whether `v` is computed from a dot's result through elementwise ops (up to `depth`).
bool fromDot(const Value *v, int depth) {
  const Op *def = v->definingOp();
  if (!def || depth == 0)
    return false;
  if (def->is(OpCode::Dot))
    return true;
  if (!def->has(kElementwise))
    return false;
  return std::any_of(def->operands().begin(), def->operands().end(),
                     [&](const Value *o) { return o->type().isBlock() && fromDot(o, depth - 1); });
}

// Whether `v` reaches a dot's A operand through elementwise ops (up to `depth`).
bool intoDotA(const Value *v, int depth) {
  if (depth == 0)
    return false;
  for (const Use &u : v->uses()) {
    if (u.user->is(OpCode::Dot) && u.operandIndex == 0)
      return true;
    if (u.user->has(kElementwise) && u.user->numResults() == 1 && intoDotA(u.user->result(), depth - 1))
      return true;
  }
  return false;
}

} // namespace

std::optional<CoopPlan> planCoop(const Op *dot, const TargetDesc &target, unsigned numWarps) {
  if (target.coopMatrices.empty() || !dot->is(OpCode::Dot))
    return std::nullopt;
  Type a = dot->operand(0)->type(), b = dot->operand(1)->type(), c = dot->operand(2)->type();
  if (a.rank() != 2 || c.element() != dot->result()->type().element())
    return std::nullopt;
  int64_t M = a.shape()[0], K = a.shape()[1], N = b.shape()[1];
  for (const CoopMatrixShape &s : target.coopMatrices) {
    if (s.aType != a.element() || s.bType != b.element() || s.cType != c.element() || s.resultType != c.element() ||
        M % s.m || N % s.n || K % s.k)
      continue;
    // Triton's choice: split the side with more tiles left, M first on ties (all along M
    // for chained dots whose components are known).
    CoopPlan plan{&s, 1, 1};
    int64_t tilesM = M / s.m, tilesN = N / s.n;
    bool warpsAlongM = s.layouts && (fromDot(dot->operand(0), 16) || intoDotA(dot->result(), 16));
    while (plan.warpsM * plan.warpsN < numWarps) {
      bool roomM = plan.warpsM < tilesM, roomN = plan.warpsN < tilesN;
      if (!roomM && !roomN)
        break;
      bool alongM = warpsAlongM ? roomM : roomM && (tilesM / plan.warpsM >= tilesN / plan.warpsN || !roomN);
      (alongM ? plan.warpsM : plan.warpsN) *= 2;
    }
    if (plan.warpsM * plan.warpsN == numWarps)
      return plan;
  }
  return std::nullopt;
}

LinearLayout coopResultLayout(std::span<const int64_t> shape, const CoopPlan &plan, unsigned warpSize) {
  int64_t RM = shape[0] / plan.warpsM, RN = shape[1] / plan.warpsN, m = plan.shape->m;
  int64_t vector = std::min<int64_t>(8, RN);
  std::vector<int64_t> reg, lane, warp;
  appendSteps(reg, 1, vector, false, shape);
  int64_t col = vector, row = 1;
  for (unsigned bit = 0; bit < log2Exact(warpSize); ++bit) {
    if (col < RN) {
      lane.push_back(flatOf(0, col, shape));
      col *= 2;
    } else if (row < m) {
      lane.push_back(flatOf(row, 0, shape));
      row *= 2;
    } else {
      lane.push_back(0); // a part smaller than the subgroup: replicas
    }
  }
  appendSteps(reg, col, RN, false, shape);
  appendSteps(reg, row, RM, true, shape); // the rest of a tile's rows, then the rows of tiles
  appendSteps(warp, RM, shape[0], true, shape);
  appendSteps(warp, RN, shape[1], false, shape);
  return LinearLayout({shape[0], shape[1]}, reg, lane, warp);
}

} // namespace trident::simt

namespace trident::simt {

LinearLayout coopComponentLayout(std::span<const int64_t> shape, const CoopPlan &plan, unsigned use) {
  const CoopMatrixShape &s = *plan.shape;
  assert(s.layouts && "a shape without known layouts");
  const CoopComponentMap &map = s.layouts->of(use);
  int64_t RM = shape[0] / plan.warpsM, RN = shape[1] / plan.warpsN;
  std::vector<int64_t> reg = flatBases(map.componentBits, shape), warp;
  if (use == 2) {
    appendSteps(reg, s.n, RN, false, shape);
    appendSteps(reg, s.m, RM, true, shape);
  } else if (use == 0) {
    appendSteps(reg, s.k, shape[1], false, shape);
    appendSteps(reg, s.m, RM, true, shape);
  } else {
    appendSteps(reg, s.k, shape[0], true, shape);
    appendSteps(reg, s.n, RN, false, shape);
  }
  if (use == 1)
    warp.resize(log2Exact(plan.warpsM), 0);
  else
    appendSteps(warp, RM, shape[0], true, shape);
  if (use == 0)
    warp.resize(warp.size() + log2Exact(plan.warpsN), 0);
  else
    appendSteps(warp, RN, shape[1], false, shape);
  return LinearLayout({shape[0], shape[1]}, reg, flatBases(map.laneBits, shape), warp);
}

} // namespace trident::simt
