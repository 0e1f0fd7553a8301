#pragma once
// Shared-memory allocation by liveness, on thread IR.
//
// Before:  %a = th.shared_alloc {offset = -1, size = 512} : ptr<f32, 3>   ... uses of %a ...
//          %b = th.shared_alloc {offset = -1, size = 16} : ptr<f32, 3>    ... (after %a's last use)
// After:   %a = th.shared_alloc {offset = 0, size = 512} ...
//          %b = th.shared_alloc {offset = 0, size = 16} ...   (%a is dead: its bytes are reused)
//
// An allocation lives from its definition to its last use; a use inside a loop
// keeps it live for the whole loop. Offsets are multiples of 16 bytes.

#include "trident/ir/IR.h"

#include <cstdint>

namespace trident::simt {

// Sets the offset of every th.shared_alloc in `func`; returns the bytes the function needs.
// Each goes to the lowest offset where it fits; with `spreadLimit` > 0, to the place below
// that many bytes whose earlier occupants died longest ago (more memory, fewer barriers
// between the accesses of allocations that would otherwise share bytes one after another),
// or the lowest offsets again where that placement goes over the limit.
int64_t allocateSharedMemory(Op *func, int64_t spreadLimit = 0);

} // namespace trident::simt
