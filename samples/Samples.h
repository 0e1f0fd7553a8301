#pragma once
// The sample programs, one file each: each runs its kernel of samples/*.py on a
// device through the public API and checks it against a float64 reference.

#include "SampleSupport.h"

namespace samples {

Result runVectorAdd(Context &ctx);
Result runFusedSoftmax(Context &ctx);
Result runMatmul(Context &ctx);
Result runLayerNorm(Context &ctx);
Result runDropout(Context &ctx);
Result runAttention(Context &ctx);
Result runAttentionBackward(Context &ctx);
Result runReduceCustom(Context &ctx);
Result runScan(Context &ctx);

} // namespace samples
