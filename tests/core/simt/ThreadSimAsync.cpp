// The asynchrony of th.wgmma in registers (ThreadSimImpl.h, WgmmaGroups): which values
// are still in flight, and who may take them.
#include "ThreadSimImpl.h"

namespace trident::simt::test::detail {

int64_t WgmmaGroups::groupOf(const Value *v) const {
  auto it = group_.find(v);
  return it == group_.end() ? -1 : it->second;
}

void WgmmaGroups::setGroup(const Value *v, int64_t group) {
  if (group < 0)
    group_.erase(v);
  else
    group_[v] = group;
}

void WgmmaGroups::issue(const Op *wgmma) {
  for (unsigned i = 0; i < wgmma->numResults(); ++i)
    group_[wgmma->result(i)] = open_;
  lastIssued_ = open_;
}

void WgmmaGroups::commit() { committed_.push_back(open_++); }

int64_t WgmmaGroups::wait(size_t pending) {
  while (committed_.size() > pending) {
    completed_ = committed_.front();
    committed_.pop_front();
  }
  return completed_;
}

void WgmmaGroups::checkReads(const Op *op) const {
  // Operands from #carried on may be in flight: the accumulators of th.wgmma (its last
  // operands, one per result), everything th.wgmma_fence, th.wgmma_wait and scf.while
  // take, and the initial values of scf.for.
  unsigned carried = op->is(OpCode::ThWgmma)                                          ? op->numOperands() - op->numResults()
                     : op->is(OpCode::ThWgmmaFence) || op->is(OpCode::ThWgmmaWait) ||
                             op->is(OpCode::While)                                    ? 0
                     : op->is(OpCode::For)                                            ? 3
                                                                                      : op->numOperands();
  for (unsigned i = 0; i < carried && i < op->numOperands(); ++i)
    if (groupOf(op->operand(i)) >= 0)
      fail(op, "operand #" + std::to_string(i) + " is the result of a th.wgmma still in flight (no " +
                   "th.wgmma_wait has completed its group and passed it on)");
}

void WgmmaGroups::checkAllDone(const Op *func) const {
  if (lastIssued_ > completed_)
    fail(func, "the program ends with a th.wgmma in flight (group " + std::to_string(lastIssued_) +
                   " was never completed by a th.wgmma_wait)");
}

} // namespace trident::simt::test::detail
