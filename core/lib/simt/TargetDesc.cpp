#include "trident/simt/TargetDesc.h"

#include "trident/simt/Layout.h"

namespace trident {

unsigned TargetDesc::log2WarpSize() const { return simt::log2Exact(warpSize); }

} // namespace trident
