#pragma once
// Software pipelining of the loads that feed dots (docs/simt.md, "Pipelining"): in an
// scf.for with num_stages = S >= 2 on a target with asynchronous copies, a tt.load whose
// uses are all operands of dots on matrix units (directly, or through a tt.trans the dot
// alone reads: the dot then reads the stage as its transpose) goes global -> shared directly
// (th.async_copy), S - 1 iterations ahead, into a ring of S shared-memory tiles; the dot
// reads its stage in place. The ops computing the loads' addresses (and the loop-carried
// values they advance, such as a_ptrs += BLOCK_K * stride) are lowered once more per
// stage ahead: in a prologue for the first S - 1 iterations and in every iteration for
// iteration i + S - 1, with the state S - 1 iterations ahead carried by the loop.
//
// With asynchronous warpgroup dots (asyncDots) the copies move down instead:
//
//   scf.for i: th.async_wait; th.fence_async_shared; th.barrier
//              th.wgmma_fence; th.wgmma ... (stage `slot`); th.wgmma_commit
//              th.wgmma_wait {pending = 1}; th.barrier    (every group of iteration i - 1 is done)
//              copies of iteration i + S - 1 -> stage (slot + S - 1) % S; th.async_commit
//
//   prologue: copies of iterations 0 .. S-2 -> stages 0 .. S-2, one commit each
//   scf.for i (..., ahead, slot):
//     th.async_wait {pending = S - 2}; th.barrier      (stage `slot` is complete and visible;
//                                                     every thread is done with stage slot-1)
//     copies of iteration i + S - 1 -> stage (slot + S - 1) % S, predicated on it existing;
//     th.async_commit
//     ... th.ldmatrix from stage `slot` ... th.mma ...
//   th.async_wait {pending = 0}

// On targets with asyncBarriers (sm_90), in loops with asynchronous dots, each stage has
// an mbarrier instead of a commit group: every thread's copies into a stage arrive on its
// barrier (th.async_arrive, one arrival a thread), and a thread waits for the stage's
// phase, not for its own copies and a barrier:
//
//   th.mbarrier_init (thread 0, one per stage, count = threads); th.barrier; prologue
//   scf.for i (..., ahead, slot, parity):
//     th.mbarrier_wait stage slot, parity        (stage `slot` is complete and visible)
//     th.fence_async_shared                      (no barrier: the dots' own wait and
//                                                 barrier come before the copies)
//     copies of iteration i + S - 1 -> stage (slot + S - 1) % S; th.async_arrive on it
//     ...; parity flips when the slot wraps to 0
//   th.mbarrier_wait on the S - 1 stages past the end (their arrivals, copies predicated off)

// On targets with tensor maps (sm_90), tt.descriptor_load tiles read by th.wgmma alone go
// through the tensor-copy engine, and their loop takes the mbarrier schedule (with a
// th.barrier before the copies where its dots are not asynchronous): thread 0 issues a
// stage's copies (th.tma_arrive, then th.tma_load per 128-byte column of the tile), and
// each stage's barrier expects one arrival per such load, plus one per thread for the
// loop's cp.async copies when it has any.

// On targets without asynchronous copies whose dots run on cooperative matrices
// (Vulkan), the loads go one iteration ahead into registers instead (inRegisters):
//
//   prologue: loads of iteration 0 -> registers (predicated on it existing)
//   scf.for i (..., ahead, %a_regs, %b_regs):
//     loads of iteration i + 1 -> registers (in flight during this iteration's dots)
//     th.store_shared %a_regs ...; th.barrier; th.coop_load ...; th.coop_mma ...
//     scf.yield ..., next ahead, the registers just loaded
//
// so the global loads' latency overlaps the matrix operations, not the barrier before
// the shared-memory stores.

#include "LowerContext.h"

#include <optional>
#include <vector>

namespace trident::simt {

struct PipelinedLoad {
  Op *load = nullptr;
  LinearLayout access;  // the layout it reads global memory in
  int64_t width = 1;    // elements per copy
  SharedLayout shared;  // the arrangement of one stage (what the dot's operand read expects)
  int64_t tileElements = 0;
  // Read by th.wgmma (through the async proxy): fenced after the copies, unless they are
  // tensor copies (`tma`), which write through the async proxy too.
  bool asyncProxy = false;
  // A tt.descriptor_load the tensor-copy engine serves (Tma.h): thread 0 copies each stage.
  std::optional<TensorMapSpec> tma;
  // tt.trans ops of the load that dots read: they read the same stage as its transpose.
  std::vector<const Op *> transposes;
};

struct PipelinePlan {
  bool inRegisters = false; // loads one iteration ahead into registers, not copies into rings
  // Some loads go through tensor maps: the loop takes the mbarrier schedule, and each
  // stage's barrier expects one arrival per such load (thread 0's th.tma_arrive) besides
  // one from every thread for the cp.async copies (when any).
  bool tensorMaps = false;
  int stages = 0;
  int ahead = 0; // iterations the copies run ahead: S - 1
  // th.wgmma dots whose operands are both pipelined here and whose accumulator is carried
  // by the loop and used nowhere else: each
  // iteration waits only for the previous one's group, so the tensor cores run while the
  // threads go round the loop. The stage that group read is free once every warpgroup has
  // waited for it: the copies go after the last such wait and a second barrier. After the
  // loop, one wait for the last group.
  std::vector<const Op *> asyncDots; // each one's result is yielded, once
  std::vector<PipelinedLoad> loads;
  std::vector<Op *> slice;       // body ops computing the loads' operands and the carried state, in order
  std::vector<unsigned> carried; // iteration arguments (0-based) the slice reads and advances
};

// The plan for `loop` (a block-IR scf.for), or nothing when no load qualifies.
std::optional<PipelinePlan> planPipeline(Lowering &l, const Op *loop);

} // namespace trident::simt

namespace trident::simt {

// Lowers the plan's slice with the loop's induction variable bound to `iv` and its
// carried arguments to `state` (one per plan.carried, in their layouts), starts the
// copies of every pipelined load into stage `stage` (i32) of its buffer (predicated on
// `inRange` and the load's mask), commits them as one group (or, given `barriers`, has
// them arrive on element `stage` of that allocation of mbarriers), and returns the
// carried state one iteration later.
// inRegisters: lowers the slice as issueStage does and the plan's loads (predicated on
// `inRange` besides their masks) into registers; returns the carried state one
// iteration later and sets `loaded` to each load's registers.
std::vector<Lowered> issueLoads(Lowering &l, const Op *loop, const PipelinePlan &plan, Value *iv,
                                const std::vector<Lowered> &state, Value *inRange, std::vector<Lowered> &loaded);

std::vector<Lowered> issueStage(Lowering &l, const Op *loop, const PipelinePlan &plan,
                                const std::vector<Value *> &buffers, Value *iv, const std::vector<Lowered> &state,
                                Value *stage, Value *inRange, Value *barriers);

} // namespace trident::simt
