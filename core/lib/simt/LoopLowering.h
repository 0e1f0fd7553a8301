#pragma once
// Helpers of the loop lowerings (LowerControlFlow.cpp, LowerWarpSpecialize.cpp): block
// values carried as their registers, regions lowered with their terminators, and the
// slots and parities of pipelined rings.
#include "Pipeline.h"

#include <span>
#include <utility>
#include <vector>

namespace trident::simt {

// The values of `values`, each converted to the matching layout, one after another.
std::vector<Value *> flatten(Lowering &l, std::span<Value *const> values, const std::vector<LinearLayout> &layouts);
std::vector<Type> typesOf(const std::vector<Value *> &values);
// Binds `blockValues` (laid out as `layouts`) to consecutive thread-IR values from `flat`.
void bindValues(Lowering &l, std::span<Value *const> blockValues, const std::vector<LinearLayout> &layouts,
                const std::vector<Value *> &flat, size_t first);
std::vector<LinearLayout> layoutsOf(Lowering &l, std::span<Value *const> values);
// Lowers `from` into `to` and ends it with `terminator` carrying the values of
// `from`'s terminator (after the first `skip` operands) converted to `layouts`, then `extra`.
bool lowerRegion(Lowering &l, Block *from, Block *to, OpCode terminator, const std::vector<LinearLayout> &layouts,
                 unsigned skip = 0, const std::vector<Value *> &extra = {});
void asyncWait(Lowering &l, int pending);
// The body's pipelined loads (and their transposes) read stage `slot` of their rings
// (`buffers`, one per load of `plan`), until unbindRings.
void bindRingStage(Lowering &l, const PipelinePlan &plan, const std::vector<Value *> &buffers, Value *slot);
void unbindRings(Lowering &l, const PipelinePlan &plan);
// After a loop whose `asyncDots` are still in flight: one th.wgmma_wait {pending = 0} on
// the registers of the carried values their accumulators are (`results`, laid out as
// `layouts`), which then stand for the waited values.
void waitForAsyncDots(Lowering &l, const std::vector<const Op *> &asyncDots, const std::vector<LinearLayout> &layouts,
                      std::vector<Value *> &results);
// Slot `slot` + `by` of a ring of S stages (0 <= by < S), and whether it wrapped past
// the end (a stage's next phase: the other parity).
std::pair<Value *, Value *> advanceSlot(Lowering &l, Value *slot, int64_t by, Value *S);
Value *flipIf(Lowering &l, Value *wraps, Value *parity);
void barrierWait(Lowering &l, Value *barriers, Value *slot, Value *parity);
// The mbarriers of a ring's stages, `arrivals` a phase, initialized by thread 0, then a barrier.
Value *ringBarriers(Lowering &l, int stages, int64_t arrivals);
// The registers of `state` one after another, and back.
std::vector<Value *> flattenState(const std::vector<Lowered> &state);
std::vector<Lowered> unflattenState(const std::vector<Lowered> &like, std::span<Value *const> regs);

// A pipelined loop whose flag `warp_specialize` asks for producer and consumer warps
// (LowerWarpSpecialize.cpp): whether `plan` allows it, and the lowering. On success
// the builder is left at the end of the consumers' region, where the rest of the kernel
// (the epilogue) goes; Lowering::specialized names the th.warp_specialize.
bool warpSpecializable(const Lowering &l, const Op *loop, const PipelinePlan &plan);
bool lowerWarpSpecializedFor(Lowering &l, Op *loop, const PipelinePlan &plan);

} // namespace trident::simt
