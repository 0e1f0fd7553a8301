// Scans: not lowered yet.
#include "LowerContext.h"

namespace trident::simt {

bool lowerScan(Lowering &l, Op *op) { return l.error(op, "tt.scan is not supported by the SIMT lowering yet"); }

} // namespace trident::simt
