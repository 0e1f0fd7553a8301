#include "StretchEffects.h"

#include <limits>

namespace trident::cpu {

namespace {

bool overlaps(const std::vector<std::pair<int64_t, int64_t>> &a, const std::vector<std::pair<int64_t, int64_t>> &b) {
  for (auto [a0, a1] : a)
    for (auto [b0, b1] : b)
      if (a0 < b1 && b0 < a1)
        return true;
  return false;
}

} // namespace

void StretchEffects::addShared(Value *alloc, bool write) {
  if (perThread_->count(alloc))
    return;
  Range range{0, std::numeric_limits<int64_t>::max()}; // unknown: all of shared memory
  Op *def = alloc->definingOp();
  if (def && def->is(OpCode::ThSharedAlloc) && def->attr("offset").isInt() && def->attr("size").isInt() &&
      def->intAttr("offset") >= 0)
    range = {def->intAttr("offset"), def->intAttr("offset") + def->intAttr("size")};
  (write ? sharedWrites_ : sharedReads_).push_back(range);
}

void StretchEffects::add(Op *op) {
  op->walk([&](Op *o) {
    switch (o->code()) {
    case OpCode::ThLoad:
      return; // reads global memory: never in conflict with reads
    case OpCode::ThStore:
    case OpCode::ThAtomicRMW:
    case OpCode::ThAtomicCAS:
      writesGlobal_ = true;
      return;
    case OpCode::ThLoadShared:
    case OpCode::ThLdMatrix:
      addShared(o->operand(0), false);
      return;
    case OpCode::ThStoreShared:
      addShared(o->operand(0), true);
      return;
    case OpCode::ThCoopLoad:
    case OpCode::ThCoopStore:
      if (o->operand(0)->type().isPtr() && o->operand(0)->type().addressSpace() == 3)
        addShared(o->operand(0), o->is(OpCode::ThCoopStore));
      else if (o->is(OpCode::ThCoopStore))
        writesGlobal_ = true;
      return;
    case OpCode::Call: // what the callee does is not looked at
      other_ = true;
      return;
    default:
      if (o->has(kReadsMemory) || o->has(kWritesMemory))
        other_ = true;
    }
  });
}

void StretchEffects::merge(const StretchEffects &other) {
  writesGlobal_ = writesGlobal_ || other.writesGlobal_;
  other_ = other_ || other.other_;
  sharedReads_.insert(sharedReads_.end(), other.sharedReads_.begin(), other.sharedReads_.end());
  sharedWrites_.insert(sharedWrites_.end(), other.sharedWrites_.begin(), other.sharedWrites_.end());
}

bool StretchEffects::unordered(const StretchEffects &before, const StretchEffects &after) {
  if (before.other_ || after.other_ || before.writesGlobal_ || after.writesGlobal_)
    return false;
  return !overlaps(before.sharedWrites_, after.sharedReads_) && !overlaps(before.sharedWrites_, after.sharedWrites_) &&
         !overlaps(before.sharedReads_, after.sharedWrites_);
}

} // namespace trident::cpu
