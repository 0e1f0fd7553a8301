#pragma once
// The block-IR optimization pipeline: what the compiler runs between the frontend
// and the SIMT lowering, as a list anyone can read top to bottom (Pipeline.cpp).

#include "trident/passes/PassManager.h"

namespace trident {

// Appends the default block-IR pipeline to `pm`.
void addDefaultPipeline(PassManager &pm);

} // namespace trident
