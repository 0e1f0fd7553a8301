// Dot products: not lowered yet.
#include "LowerContext.h"

namespace trident::simt {

bool lowerDot(Lowering &l, Op *op) { return l.error(op, "tt.dot is not supported by the SIMT lowering yet"); }

} // namespace trident::simt
