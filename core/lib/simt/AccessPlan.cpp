#include "AccessPlan.h"

#include <algorithm>

namespace trident::simt {

AccessPlan planAccess(const Op *memoryOp, const AxisInfoAnalysis &axisInfo, const TargetDesc &target,
                      unsigned numThreads) {
  AccessPlan plan;
  const Value *ptr = memoryOp->operand(0);
  for (unsigned d : axisInfo.contiguityOrder(ptr))
    plan.order.push_back(d);
  Type element = ptr->type().element().pointee();
  // Atomics access one element at a time; i1 lives in memory as bytes.
  if (memoryOp->is(OpCode::AtomicRMW) || memoryOp->is(OpCode::AtomicCAS) || element == Type::i1())
    return plan;
  const Value *mask = nullptr;
  if (memoryOp->is(OpCode::Load) && memoryOp->numOperands() > 1)
    mask = memoryOp->operand(1);
  if (memoryOp->is(OpCode::Store) && memoryOp->numOperands() > 2)
    mask = memoryOp->operand(2);
  int64_t vec = axisInfo.vectorWidth(ptr, mask, target.maxVectorBytes, static_cast<int>(plan.order[0]));
  // Every thread should get work before any thread gets a vector (as Triton's coalescing does).
  int64_t perThread = std::max<int64_t>(1, ptr->type().numElements() / numThreads);
  plan.vectorElements = std::max<int64_t>(1, std::min(vec, perThread));
  return plan;
}

} // namespace trident::simt
