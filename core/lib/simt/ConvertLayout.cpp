// Layout conversions. When both layouts spread elements over lanes and warps the
// same way, a conversion only renames registers. When they have the same warp
// bases and each warp holds the same elements in both, values move between the
// lanes of a warp with th.shuffle. Otherwise the value goes through
// shared memory: one thread of each group of replicas writes each element at its
// flat index, and every thread reads the elements its new layout gives it, both
// as wide as contiguous registers allow.
//
//   (lanes along rows, 4 per thread) -> (lanes along columns), block<32x4xf32>, 1 warp:
//   destination register r of lane l holds the element of source register
//   s(l) = c_r ^ B(l) of lane L(l) = d_r ^ D(l), both linear in l's bits; every
//   candidate register is shuffled and the lane's own s(l) selects:
//   %a = th.shuffle %x0, %L {mode = "idx"} : f32   ... %x3
//   %y0 = arith.select (%s == 1), %b, %a ...
//
//   (lanes along columns) -> (lanes along rows), block<32x32xf32>:
//   %s = th.shared_alloc {offset = -1, size = 4096} : ptr<f32, 3>
//   th.store_shared %s, %i0, %x0      ...  (barrier placed later)
//   %y0 = th.load_shared %s, %j0 : f32 ...
#include "LowerContext.h"
#include "Recompute.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <set>

namespace trident::simt {

Lowered Lowering::convert(const Lowered &src, const LinearLayout &dst) {
  if (src.layout == dst)
    return src;
  assert(src.layout.shape() == dst.shape());
  if (src.layout.laneBases() == dst.laneBases() && src.layout.warpBases() == dst.warpBases()) {
    std::map<int64_t, int64_t> regOf;
    for (int64_t r = 0; r < src.layout.numRegisters(); ++r)
      regOf.emplace(src.layout.registerOffset(r), r);
    Lowered out{dst, {}};
    for (int64_t r = 0; r < dst.numRegisters(); ++r) {
      auto it = regOf.find(dst.registerOffset(r));
      if (it == regOf.end())
        break;
      out.regs.push_back(src.regs[it->second]);
    }
    if (static_cast<int64_t>(out.regs.size()) == dst.numRegisters())
      return out;
  }
  if (std::optional<Lowered> shuffled = convertByShuffles(src, dst))
    return *shuffled;
  return convertThroughShared(src, dst);
}

namespace {

// Shuffles a conversion may spend per destination register before shared memory
// (a store, a barrier and a load) is cheaper.
constexpr int64_t kMaxShufflesPerRegister = 4;

// A source register and a source lane (of the same warp), as index bits.
struct Place {
  int64_t reg = 0, lane = 0;
};

// Where `src` holds flat index `t` without the warp bits: reg ^ lane bases giving t.
// Prefers a place in register 0 (lane-only) or in lane 0 (register-only) as asked,
// so that lane bits map to lanes and register bits to registers where they can.
std::optional<Place> locate(const LinearLayout &src, const std::map<int64_t, int64_t> &regOf, int64_t t,
                            bool preferLane) {
  int64_t lanes = src.warpSize();
  if (preferLane)
    for (int64_t l = 0; l < lanes; ++l)
      if (src.apply(0, l, 0) == t)
        return Place{0, l};
  for (int64_t l = 0; l < lanes; ++l) {
    auto it = regOf.find(t ^ src.apply(0, l, 0));
    if (it != regOf.end())
      return Place{it->second, l};
  }
  return std::nullopt;
}

} // namespace

Value *Lowering::laneFunction(const std::vector<int64_t> &bases) {
  // layoutBase computes exactly this for a layout with these lane bases and no warp bits.
  std::vector<int64_t> noWarps(log2Exact(layouts.numWarps), 0);
  return layoutBase(LinearLayout({int64_t(1) << 40}, {}, bases, noWarps));
}

std::optional<Lowered> Lowering::convertByShuffles(const Lowered &src, const LinearLayout &dst) {
  const LinearLayout &from = src.layout;
  if (from.warpBases() != dst.warpBases() || from.laneBases().size() != dst.laneBases().size())
    return std::nullopt;
  Type element = src.regs[0]->type();
  unsigned bits = element.bitWidth();
  if (!(element.isInteger() || element.isFloat()) || bits < 8 || bits > 64)
    return std::nullopt;

  std::map<int64_t, int64_t> regOf; // flat offset -> the lowest source register holding it
  for (int64_t r = 0; r < from.numRegisters(); ++r)
    regOf.emplace(from.registerOffset(r), r);
  // Each destination basis's place in the source; by linearity a destination
  // register and lane find their element at the XOR of their bits' places.
  std::vector<Place> regPlace, lanePlace;
  for (int64_t basis : dst.regBases()) {
    std::optional<Place> p = locate(from, regOf, basis, false);
    if (!p)
      return std::nullopt; // the element is in another warp
    regPlace.push_back(*p);
  }
  for (int64_t basis : dst.laneBases()) {
    std::optional<Place> p = locate(from, regOf, basis, true);
    if (!p)
      return std::nullopt;
    lanePlace.push_back(*p);
  }

  // The source register's lane-dependent part takes values in `candidates`.
  std::vector<int64_t> regByLane, laneByLane;
  std::set<int64_t> candidates{0};
  bool laneIdentity = true;
  for (size_t j = 0; j < lanePlace.size(); ++j) {
    regByLane.push_back(lanePlace[j].reg);
    laneByLane.push_back(lanePlace[j].lane);
    laneIdentity = laneIdentity && lanePlace[j].lane == (int64_t(1) << j);
    std::set<int64_t> more = candidates;
    for (int64_t c : candidates)
      more.insert(c ^ lanePlace[j].reg);
    candidates = std::move(more);
  }
  auto placeOf = [&](int64_t r) {
    Place p;
    for (size_t i = 0; i < regPlace.size(); ++i)
      if ((r >> i) & 1) {
        p.reg ^= regPlace[i].reg;
        p.lane ^= regPlace[i].lane;
      }
    return p;
  };
  int64_t dups = dst.registerReplicationMask();
  int64_t wordsPerShuffle = bits > 32 ? 2 : 1, shuffles = 0;
  for (int64_t r = 0; r < dst.numRegisters(); ++r) {
    if (r & dups)
      continue;
    bool stays = candidates.size() == 1 && laneIdentity && placeOf(r).lane == 0;
    if (!stays)
      shuffles += static_cast<int64_t>(candidates.size()) * wordsPerShuffle;
  }
  if (shuffles > kMaxShufflesPerRegister * dst.numRegisters())
    return std::nullopt;

  Value *sourceLane = laneIdentity ? nullptr : laneFunction(laneByLane);
  Value *sourceReg = candidates.size() > 1 ? laneFunction(regByLane) : nullptr;
  std::map<int64_t, Value *> picks; // candidate -> "this lane reads it", made once
  Lowered out{dst, std::vector<Value *>(dst.numRegisters(), nullptr)};
  for (int64_t r = 0; r < dst.numRegisters(); ++r) {
    if (r & dups)
      continue;
    Place p = placeOf(r);
    if (candidates.size() == 1 && laneIdentity && p.lane == 0) {
      out.regs[r] = src.regs[p.reg];
      continue;
    }
    // lane_id ^ constant is an xor shuffle; any other lane function an indexed one.
    Value *lane = laneIdentity ? constI32(p.lane)
                  : p.lane     ? b.binary(OpCode::XOrI, sourceLane, constI32(p.lane))
                               : sourceLane;
    Attribute mode = Attribute::string(laneIdentity ? "xor" : "idx");
    Value *result = nullptr;
    for (int64_t c : candidates) {
      Value *operands[] = {src.regs[p.reg ^ c], lane};
      Type types[] = {element};
      Value *moved = b.create(OpCode::ThShuffle, operands, types, {{"mode", mode}})->result();
      if (!result) {
        result = moved;
        continue;
      }
      Value *&pick = picks[c];
      if (!pick)
        pick = b.cmpi("eq", sourceReg, constI32(c));
      result = b.select(pick, moved, result);
    }
    out.regs[r] = result;
  }
  for (int64_t r = 0; r < dst.numRegisters(); ++r)
    if (r & dups)
      out.regs[r] = out.regs[r & ~dups];
  return out;
}

bool Lowering::canRematerialize(const Value *v, int &budget) const {
  if (!v->type().isBlock())
    return true; // scalars are the same in every thread already
  const Op *def = v->definingOp();
  if (!def || --budget < 0)
    return false;
  switch (recomputeKind(def, /*throughHints=*/false)) {
  case Recompute::No: return false;
  case Recompute::Scalars: return true;
  case Recompute::Operand: return canRematerialize(def->operand(0), budget);
  case Recompute::Operands: break;
  }
  for (const Value *o : def->operands())
    if (!canRematerialize(o, budget))
      return false;
  return true;
}

Lowered Lowering::rematerialize(Value *v, const LinearLayout &layout) {
  Lowered original = values_.at(v);
  LinearLayout assignedBefore = layouts.layout(v);
  layouts.set(v, layout);
  [[maybe_unused]] bool ok = lowerOp(v->definingOp());
  assert(ok && "an op lowered once lowers again");
  Lowered again = values_.at(v);
  values_[v] = std::move(original);
  layouts.set(v, assignedBefore);
  return again;
}

} // namespace trident::simt
