#pragma once
// How a load, store or atomic should access memory: the dimension order (most
// contiguous first) and how many contiguous elements one thread may access at
// once, from what axis info proves about the pointers, mask and alignment.

#include "trident/analysis/AxisInfo.h"
#include "trident/ir/IR.h"
#include "trident/simt/TargetDesc.h"

#include <vector>

namespace trident::simt {

struct AccessPlan {
  std::vector<int64_t> order; // dimensions, the contiguous one first
  int64_t vectorElements = 1;
};

// The plan for `memoryOp` (its pointer operand is a block) in a program of `numThreads`.
AccessPlan planAccess(const Op *memoryOp, const AxisInfoAnalysis &axisInfo, const TargetDesc &target,
                      unsigned numThreads);

} // namespace trident::simt
