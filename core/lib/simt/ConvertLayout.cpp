// Layout conversions. When both layouts spread elements over lanes and warps the
// same way, a conversion only renames registers. Otherwise the value goes through
// shared memory: one thread of each group of replicas writes each element at its
// flat index, and every thread reads the elements its new layout gives it, both
// as wide as contiguous registers allow.
//
//   (lanes along columns) -> (lanes along rows), block<32x32xf32>:
//   %s = th.shared_alloc {offset = -1, size = 4096} : ptr<f32, 3>
//   th.store_shared %s, %i0, %x0      ...  (barrier placed later)
//   %y0 = th.load_shared %s, %j0 : f32 ...
#include "LowerContext.h"

#include <algorithm>
#include <cassert>
#include <map>

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
  return convertThroughShared(src, dst);
}

bool Lowering::canRematerialize(const Value *v, int &budget) const {
  if (!v->type().isBlock())
    return true; // scalars are the same in every thread already
  const Op *def = v->definingOp();
  if (!def || --budget < 0 || def->numResults() != 1)
    return false;
  switch (def->code()) {
  case OpCode::Constant:
  case OpCode::Splat:
  case OpCode::MakeRange: return true;
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::Trans: return canRematerialize(def->operand(0), budget);
  default: break;
  }
  if (!def->has(kElementwise) || !def->has(kPure))
    return false;
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

Value *Lowering::writeShared(const Lowered &src) {
  Type element = src.regs[0]->type();
  Type storage = storageType(element);
  int64_t maxWidth = std::max<int64_t>(1, target.maxVectorBytes / (storage.bitWidth() / 8));
  Value *buffer = sharedAlloc(element, src.layout.numElements());
  int64_t width = std::min(src.layout.contiguousFlatRegisters(), maxWidth);
  int64_t dups = src.layout.registerReplicationMask();
  Value *owner = ownerPredicate(src.layout);
  for (int64_t r = 0; r < src.layout.numRegisters(); r += width) {
    if (r & dups)
      continue;
    std::vector<Value *> stored;
    for (int64_t i = 0; i < width; ++i)
      stored.push_back(toStorage(src.regs[r + i]));
    std::vector<Value *> operands{buffer, elementIndex(src.layout, r),
                                  packRegisters(*this, stored, 0, width)};
    if (owner)
      operands.push_back(owner);
    b.create(OpCode::ThStoreShared, operands, std::span<const Type>{});
  }
  return buffer;
}

Lowered Lowering::readShared(Value *buffer, Type element, const LinearLayout &dst) {
  Type storage = storageType(element);
  int64_t maxWidth = std::max<int64_t>(1, target.maxVectorBytes / (storage.bitWidth() / 8));
  int64_t width = std::min(dst.contiguousFlatRegisters(), maxWidth);
  int64_t dups = dst.registerReplicationMask();
  Lowered out{dst, std::vector<Value *>(dst.numRegisters(), nullptr)};
  for (int64_t r = 0; r < dst.numRegisters(); r += width) {
    if (r & dups)
      continue;
    Value *operands[] = {buffer, elementIndex(dst, r)};
    Type types[] = {width > 1 ? Type::vector(width, storage) : storage};
    Value *v = b.create(OpCode::ThLoadShared, operands, types)->result();
    unpackInto(*this, v, width, out.regs, r);
    for (int64_t i = 0; i < width; ++i)
      out.regs[r + i] = fromStorage(out.regs[r + i], element);
  }
  for (int64_t r = 0; r < dst.numRegisters(); ++r)
    if (r & dups)
      out.regs[r] = out.regs[r & ~dups];
  return out;
}

Lowered Lowering::convertThroughShared(const Lowered &src, const LinearLayout &dst) {
  return readShared(writeShared(src), src.regs[0]->type(), dst);
}

} // namespace trident::simt
