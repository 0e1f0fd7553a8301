#include "trident/simt/Barriers.h"

#include "trident/ir/Builder.h"

#include <algorithm>
#include <vector>

namespace trident::simt {

namespace {

struct Access {
  const Op *alloc;
  int64_t lo, hi; // bytes [lo, hi)
  bool write;
  // Of a {subgroup = 1} allocation, with a subgroup barrier since: ordered before later
  // accesses of that allocation, not before other allocations placed over its bytes.
  bool warpOrdered = false;
  bool operator==(const Access &) const = default;
};

// Shared-memory accesses since the last barrier on some path to here.
using State = std::vector<Access>;

// What an access needs before it: nothing, a barrier of its warp (its race is with an
// earlier access of the same {subgroup = 1} allocation, whose bytes no other warp
// touches, so it can only be with its own warp's), or one of the whole program.
enum class Need { None, Subgroup, Program };

bool subgroupPrivate(const Op *alloc) { return alloc->attr("subgroup").isInt(); }

// The allocations `op` reads or writes: operand 0's, and a th.wgmma's A in shared memory.
std::vector<Access> accessesOf(const Op *op) {
  auto at = [&](unsigned operand) -> Access {
    const Op *alloc = op->operand(operand)->definingOp();
    int64_t lo = alloc->intAttr("offset");
    return {alloc, lo, lo + alloc->intAttr("size"), op->is(OpCode::ThStoreShared) || op->is(OpCode::ThAsyncCopy) ||
                                                         op->is(OpCode::ThCoopStore)};
  };
  std::vector<Access> out{at(0)};
  if (op->is(OpCode::ThWgmma) && op->attr("a").isString() && op->stringAttr("a") == "shared")
    out.push_back(at(2));
  return out;
}

bool isSharedAccess(const Op *op) {
  return op->is(OpCode::ThLoadShared) || op->is(OpCode::ThStoreShared) || op->is(OpCode::ThLdMatrix) ||
         op->is(OpCode::ThAsyncCopy) || op->is(OpCode::ThWgmma) || op->is(OpCode::ThCoopLoad) ||
         op->is(OpCode::ThCoopStore);
}

// The stages of a pipelined ring buffer are ordered by the loop that fills them (its
// wait and barrier at the top of each iteration): accesses to one such allocation never
// need a barrier between them here. Against other allocations they count as usual.
bool pipelined(const Op *alloc) { return alloc->attr("pipelined").isInt(); }

Need races(const Access &a, const State &state) {
  Need need = Need::None;
  for (const Access &s : state) {
    if (s.hi <= a.lo || a.hi <= s.lo)
      continue;
    if (s.alloc == a.alloc && (pipelined(a.alloc) || s.warpOrdered))
      continue;
    if (a.write ? (!s.write || s.alloc != a.alloc) : s.write) {
      if (s.alloc != a.alloc || !subgroupPrivate(a.alloc))
        return Need::Program;
      need = Need::Subgroup;
    }
  }
  return need;
}

Need racesAll(const std::vector<Access> &accesses, const State &state) {
  Need need = Need::None;
  for (const Access &a : accesses)
    need = std::max(need, races(a, state));
  return need;
}

void merge(State &into, const State &from) {
  for (const Access &a : from)
    if (std::find(into.begin(), into.end(), a) == into.end())
      into.push_back(a);
}

// Forgets what a barrier of `need`'s scope orders.
void passBarrier(State &state, Need need) {
  if (need == Need::Program) {
    state.clear();
    return;
  }
  for (Access &a : state)
    a.warpOrdered = a.warpOrdered || subgroupPrivate(a.alloc);
  State ordered;
  merge(ordered, state); // marking may have made two accesses equal
  state = std::move(ordered);
}

// What an access anywhere inside `op` needs before `op`, against `state`.
Need racesInside(Op *op, const State &state) {
  Need need = Need::None;
  op->walk([&](Op *inner) {
    if (isSharedAccess(inner))
      need = std::max(need, racesAll(accessesOf(inner), state));
  });
  return need;
}

class Placer {
public:
  explicit Placer(bool insert) : insert_(insert) {}

  // A barrier of `need`'s scope before `op` (none for Need::None), and `state` after it.
  void barrierBefore(Op *op, Need need, State &state) {
    if (need == Need::None)
      return;
    passBarrier(state, need);
    if (!insert_)
      return;
    Builder b;
    b.setLoc(op->loc());
    b.setInsertionPoint(op);
    Op *barrier = b.create(OpCode::ThBarrier, {}, {});
    if (need == Need::Subgroup)
      barrier->setAttr("scope", Attribute::string("subgroup"));
  }

  State walk(Block *block, State state) {
    for (Op *op : block->ops()) {
      switch (op->code()) {
      case OpCode::ThBarrier:
        passBarrier(state, op->attr("scope").isString() ? Need::Subgroup : Need::Program);
        break;
      case OpCode::ThLoadShared:
      case OpCode::ThStoreShared:
      case OpCode::ThLdMatrix:
      case OpCode::ThAsyncCopy:
      case OpCode::ThWgmma:
      case OpCode::ThCoopLoad:
      case OpCode::ThCoopStore: {
        std::vector<Access> accesses = accessesOf(op);
        barrierBefore(op, racesAll(accesses, state), state);
        state.insert(state.end(), accesses.begin(), accesses.end());
        break;
      }
      case OpCode::For:
      case OpCode::While: {
        // What races with the accesses before the loop waits once, before it, not in
        // every iteration (conditions are uniform, so every thread reaches it).
        barrierBefore(op, racesInside(op, state), state);
        // Around the back edge: the body starts with what reaches the loop plus what
        // is left at the end of an iteration (found by a dry run).
        State end = Placer(false).iteration(op, state);
        State start = state;
        merge(start, end);
        State out = iteration(op, start);
        merge(state, out);
        break;
      }
      case OpCode::ThWarpSpecialize: {
        // Both regions run at once, in different threads, and order their shared memory
        // by mbarriers alone (the producer's is tensor copies into rings): each region is
        // walked on its own, and a barrier inside one waits for its threads only.
        barrierBefore(op, racesInside(op, state), state);
        State producer = walk(op->region(0), state);
        state = walk(op->region(1), state);
        merge(state, producer);
        break;
      }
      case OpCode::If: {
        barrierBefore(op, racesInside(op, state), state);
        State thenState = walk(op->region(0), state);
        State elseState = walk(op->region(1), state);
        state = thenState;
        merge(state, elseState);
        break;
      }
      default: break;
      }
    }
    return state;
  }

  // One trip through a loop's regions, from `state`.
  State iteration(Op *loop, State state) {
    if (loop->is(OpCode::For))
      return walk(loop->region(0), std::move(state));
    State afterBefore = walk(loop->region(0), std::move(state));
    State end = walk(loop->region(1), afterBefore);
    merge(end, afterBefore);
    return end;
  }

private:
  bool insert_;
};

} // namespace

void insertBarriers(Op *func) { Placer(true).walk(func->region(), {}); }

} // namespace trident::simt
