#pragma once
// The block-IR optimization pipeline: what the compiler runs between the frontend
// and the SIMT lowering, as a list anyone can read top to bottom (Pipeline.cpp).

#include "trident/passes/PassManager.h"

namespace trident {

// Appends the default block-IR pipeline to `pm`.
void addDefaultPipeline(PassManager &pm);

// Marks `m` as the default pipeline's output (`builtin.module {block_pipeline = "default"}`),
// so that a later compile of its text skips the pipeline (it runs once per compile: in
// the runtime, not again in the plugin).
void markBlockPipelineDone(Module &m);
// True when `m` carries that mark.
bool blockPipelineDone(const Module &m);

} // namespace trident
