#pragma once
// Erases ops the frontend built but nothing uses (constants materialized for
// typing, unused broadcasts): pure ops whose results are all unused, innermost
// and last first. The frontend's output is then free of such noise without
// waiting for the DCE pass.

#include "trident/ir/IR.h"

namespace trident::frontend {

void eraseDeadPureOps(Module &m);

} // namespace trident::frontend
