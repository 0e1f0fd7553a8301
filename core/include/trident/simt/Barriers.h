#pragma once
// Barrier placement, on thread IR after shared-memory allocation.
//
// Before:  th.store_shared %a, %i, %x          After:  th.store_shared %a, %i, %x
//          %y = th.load_shared %a, %j                  th.barrier
//                                                      %y = th.load_shared %a, %j
//
// A barrier goes before a shared-memory access that another thread's earlier access
// could race with: a read after a write to overlapping bytes, or a write after a
// read of them or after a write of another allocation placed over them. Accesses
// before a barrier no longer count. An access inside a loop or scf.if that races with
// what came before it gets one barrier before the loop or if, not one per iteration.
// Loops are followed around their back edge;
// both branches of an scf.if count (their conditions are uniform in thread IR
// produced by the lowering, so a barrier inside one is reached by every thread).
//
// An allocation marked {subgroup = 1} is one whose bytes each warp reads and writes
// alone (the lowering proves it: a conversion between cooperative-matrix tiles and
// registers where both sides give each warp the same part). Its accesses race only with
// their own warp's, so between two of them the barrier is th.barrier {scope =
// "subgroup"}, which waits for the warp, not the program.

#include "trident/ir/IR.h"

namespace trident::simt {

// Inserts the th.barrier ops `func` needs.
void insertBarriers(Op *func);

} // namespace trident::simt
