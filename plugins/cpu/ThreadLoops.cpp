#include "ThreadLoops.h"

#include "CpuTarget.h"
#include "LaneGroups.h"
#include "StretchEffects.h"

#include "trident/ir/Builder.h"

#include <cstdlib>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace trident::cpu {

namespace {

bool containsBarrier(Op *op) {
  bool found = false;
  op->walk([&](Op *o) { found = found || o->is(OpCode::ThBarrier); });
  return found;
}

// What shared memory holds for a value of type `t` (numbers only, as the lowering's).
Type storageOf(Type t) {
  if (t == Type::i1())
    return Type::i8();
  if (t.isPtr())
    return Type::i64();
  return t;
}

class ThreadLoops {
public:
  explicit ThreadLoops(Op *func)
      : func_(func), threads_(func->intAttr("num_threads")),
        sharedBytes_(func->attr("shared_bytes").isInt() ? func->intAttr("shared_bytes") : 0) {}

  bool run() {
    Block *body = func_->region();
    hoistUniformOps(body);
    forwardShuffles();
    if (threads_ == 1) {
      for (Op *op : collect(OpCode::ThBarrier))
        op->erase();
      return true;
    }
    for (Op *op : collect(OpCode::While))
      if (containsBarrier(op))
        moveWhileCarriedToMemory(op);
    for (Op *loop : collect(OpCode::For))
      if (containsBarrier(loop))
        moveCarriedToMemory(loop);
    for (Op *op : collect(OpCode::If))
      if (containsBarrier(op))
        moveResultsToMemory(op);
    split(body);
    bindThreadIds();
    reloadAcrossLoops();
    for (auto &[op, count] : carriedToErase_) {
      for (unsigned i = count; i-- > 0;) {
        if (op->is(OpCode::For))
          op->region()->eraseArgument(i + 1);
        op->eraseResult(i);
      }
    }
    for (Op *op : whilesToErase_) {
      for (unsigned i = op->region(0)->numArguments(); i-- > 0;)
        op->region(0)->eraseArgument(i);
      for (unsigned i = op->region(1)->numArguments(); i-- > 0;)
        op->region(1)->eraseArgument(i);
      for (unsigned i = op->numResults(); i-- > 0;)
        op->eraseResult(i);
    }
    // Thread loops taking lane and warp parts of the thread id run in groups of one
    // f32 vector's lanes (LaneGroups.h).
    if (!std::getenv("TRIDENT_CPU_NO_LANE_GROUPS"))
      for (Op *loop : collect(OpCode::For))
        if (threadLoops_.count(loop))
          groupLanes(loop, threads_, simdBytes() / 4);
    func_->setAttr("num_threads", Attribute::integer(1));
    func_->setAttr("shared_bytes", Attribute::integer(sharedBytes_));
    return true;
  }

private:
  std::vector<Op *> collect(OpCode code) {
    std::vector<Op *> out;
    func_->walk([&](Op *op) {
      if (op->is(code))
        out.push_back(op);
    });
    return out;
  }

  // Constants, program ids and shared allocations are the same in every thread: they
  // move to the function's start, where every loop sees them.
  void hoistUniformOps(Block *body) {
    std::vector<Op *> uniform;
    func_->walk([&](Op *op) {
      if (op == func_ || op->numOperands() != 0 || op->numRegions() != 0 || op->has(kTerminator))
        return;
      if (op->is(OpCode::ThThreadId) || op->is(OpCode::ThWarpId))
        return;
      if (op->has(kPure) || op->is(OpCode::ThSharedAlloc))
        uniform.push_back(op);
    });
    std::set<Op *> hoisted(uniform.begin(), uniform.end());
    Op *first = nullptr; // the first op that stays where it is
    for (Op *op : body->ops())
      if (!hoisted.count(op)) {
        first = op;
        break;
      }
    for (Op *op : uniform) {
      op->detach();
      body->insertBefore(first, op);
      uniform_.insert(op);
    }
    Builder b;
    b.setInsertionPoint(first);
    zero_ = b.constInt(0, Type::i32());
    one_ = b.constInt(1, Type::i32());
    count_ = b.constInt(threads_, Type::i32());
    for (Value *v : {zero_, one_, count_})
      uniform_.insert(v->definingOp());
    // One lane per warp: the lane is 0.
    for (Op *op : collect(OpCode::ThLaneId)) {
      op->result()->replaceAllUsesWith(zero_);
      op->erase();
    }
  }

  // With warps of one thread, every shuffle reads the thread's own value.
  void forwardShuffles() {
    for (Op *op : collect(OpCode::ThShuffle)) {
      op->result()->replaceAllUsesWith(op->operand(0));
      op->erase();
    }
  }

  // A per-thread array of `t` in shared memory past everything else, allocated at the start.
  // A cooperative matrix (one thread's tile of a dot, CpuTarget.cpp) takes rows x cols.
  static int64_t lanesOf(Type t) {
    return t.isVector() ? t.numElements() : t.isCoopMatrix() ? t.shape()[0] * t.shape()[1] : 1;
  }

  Value *allocate(Type t) {
    Type storage = storageOf(t.isVector() || t.isCoopMatrix() ? t.element() : t);
    int64_t lanes = lanesOf(t);
    int64_t bytes = threads_ * lanes * (storage.bitWidth() / 8);
    int64_t offset = (sharedBytes_ + 15) / 16 * 16;
    sharedBytes_ = offset + bytes;
    Builder b;
    b.setInsertionPointToStart(func_->region()); // no operands: it may go first
    Type types[] = {Type::ptr(storage, 3)};
    Op *alloc = b.create(OpCode::ThSharedAlloc, std::span<Value *const>{}, types,
                         {{"offset", Attribute::integer(offset)}, {"size", Attribute::integer(bytes)}});
    uniform_.insert(alloc);
    perThreadArrays_.insert(alloc->result());
    return alloc->result();
  }

  Value *index(Builder &b, Value *thread, Type t) {
    int64_t lanes = lanesOf(t);
    return lanes > 1 ? b.binary(OpCode::MulI, thread, b.constInt(lanes, Type::i32())) : thread;
  }

  static AttributeList coopAttributes(Type t) {
    return {{"layout", Attribute::string("row")}, {"stride", Attribute::integer(t.shape()[1])}};
  }

  void store(Builder &b, Value *array, Value *thread, Value *v) {
    Type t = v->type();
    if (t.isCoopMatrix()) {
      Value *operands[] = {array, index(b, thread, t), v};
      b.create(OpCode::ThCoopStore, operands, {}, coopAttributes(t));
      return;
    }
    if (t == Type::i1())
      v = b.cast(OpCode::ExtUI, v, Type::i8());
    else if (t.isPtr())
      v = b.cast(OpCode::PtrToInt, v, Type::i64());
    Value *operands[] = {array, index(b, thread, t), v};
    b.create(OpCode::ThStoreShared, operands, {});
  }

  Value *load(Builder &b, Value *array, Value *thread, Type t) {
    Value *operands[] = {array, index(b, thread, t)};
    if (t.isCoopMatrix()) {
      Type types[] = {t};
      return b.create(OpCode::ThCoopLoad, operands, types, coopAttributes(t))->result();
    }
    Type types[] = {t == Type::i1() ? Type::i8() : t.isPtr() ? Type::i64() : t};
    Value *v = b.create(OpCode::ThLoadShared, operands, types)->result();
    if (t == Type::i1())
      return b.cmpi("ne", v, b.constInt(0, Type::i8()));
    if (t.isPtr())
      return b.cast(OpCode::IntToPtr, v, t);
    return v;
  }

  // The values a uniform loop with barriers carries become per-thread arrays: stored
  // before the loop and at the end of each iteration, read where they are used.
  void moveCarriedToMemory(Op *loop) {
    unsigned n = loop->numResults();
    if (n == 0)
      return;
    Block *region = loop->region();
    Op *yield = region->terminator();
    Builder before, atEnd;
    before.setInsertionPoint(loop);
    atEnd.setInsertionPoint(yield);
    // Plain ops with a thread id of their own: split() puts them in the loops around.
    Value *tBefore = before.create(OpCode::ThThreadId, {}, {Type::i32()})->result();
    Value *tEnd = atEnd.create(OpCode::ThThreadId, {}, {Type::i32()})->result();
    for (unsigned i = 0; i < n; ++i) {
      Value *array = allocate(loop->result(i)->type());
      store(before, array, tBefore, loop->operand(3 + i));
      store(atEnd, array, tEnd, yield->operand(i));
      arrayOf_[region->argument(i + 1)] = array;
      arrayOf_[loop->result(i)] = array;
    }
    for (unsigned i = n; i-- > 0;) {
      loop->eraseOperand(3 + i);
      yield->eraseOperand(i);
    }
    carriedToErase_.emplace_back(loop, n);
  }

  // A uniform scf.while with barriers: what it carries lives in per-thread arrays, one
  // per before-region argument (written before the loop and by the after region's
  // yield) and one per value the condition forwards (written before scf.condition, read
  // by the after region and past the loop). The condition itself stays an operand of
  // scf.condition: at the uniform level it reads thread 0's value (reloadAcrossLoops),
  // as a barrier inside the loop makes it the same in every thread.
  void moveWhileCarriedToMemory(Op *loop) {
    Block *before = loop->region(0), *after = loop->region(1);
    Op *condition = before->terminator(), *yield = after->terminator();
    Builder atInit, atCondition, atYield;
    atInit.setInsertionPoint(loop);
    atCondition.setInsertionPoint(condition);
    atYield.setInsertionPoint(yield);
    // Plain ops with a thread id of their own: split() puts them in the loops around.
    auto threadId = [](Builder &b) { return b.create(OpCode::ThThreadId, {}, {Type::i32()})->result(); };
    unsigned inits = loop->numOperands(), results = loop->numResults();
    if (inits > 0) {
      Value *tInit = threadId(atInit), *tYield = threadId(atYield);
      for (unsigned i = 0; i < inits; ++i) {
        Value *array = allocate(before->argument(i)->type());
        store(atInit, array, tInit, loop->operand(i));
        store(atYield, array, tYield, yield->operand(i));
        arrayOf_[before->argument(i)] = array;
      }
    }
    if (results > 0) {
      Value *tCondition = threadId(atCondition);
      for (unsigned i = 0; i < results; ++i) {
        Value *array = allocate(loop->result(i)->type());
        store(atCondition, array, tCondition, condition->operand(1 + i));
        arrayOf_[after->argument(i)] = array;
        arrayOf_[loop->result(i)] = array;
      }
    }
    for (unsigned i = inits; i-- > 0;) {
      loop->eraseOperand(i);
      yield->eraseOperand(i);
    }
    for (unsigned i = results; i-- > 0;)
      condition->eraseOperand(1 + i);
    whilesToErase_.push_back(loop);
  }

  // The results of a uniform scf.if with barriers inside: per-thread arrays that each
  // branch writes at its end.
  void moveResultsToMemory(Op *op) {
    unsigned n = op->numResults();
    if (n == 0)
      return;
    std::vector<Value *> arrays;
    for (unsigned i = 0; i < n; ++i) {
      arrays.push_back(allocate(op->result(i)->type()));
      arrayOf_[op->result(i)] = arrays.back();
    }
    for (unsigned r = 0; r < 2; ++r) {
      Op *yield = op->region(r)->terminator();
      Builder b;
      b.setInsertionPoint(yield);
      Value *thread = b.create(OpCode::ThThreadId, {}, {Type::i32()})->result();
      for (unsigned i = 0; i < n; ++i)
        store(b, arrays[i], thread, yield->operand(i));
      for (unsigned i = n; i-- > 0;)
        yield->eraseOperand(i);
    }
    carriedToErase_.emplace_back(op, n);
  }

  // Splits `block` at its barriers (and ops holding barriers) into loops over the threads.
  // A barrier that orders nothing between the stretches before and after it
  // (StretchEffects.h) is dropped, and the two run as one loop.
  void split(Block *block) {
    std::vector<std::vector<Op *>> stretches(1);
    std::vector<Op *> separators; // barriers and ops holding barriers, between the stretches
    for (Op *op : block->ops()) {
      if (op->has(kTerminator))
        break;
      if (uniform_.count(op))
        continue;
      if (!containsBarrier(op)) {
        stretches.back().push_back(op);
        continue;
      }
      separators.push_back(op);
      stretches.emplace_back();
    }
    static const bool keepBarriers = std::getenv("TRIDENT_CPU_KEEP_BARRIERS") != nullptr;
    std::vector<Op *> stretch = stretches[0];
    StretchEffects effects = effectsOf(stretch);
    for (size_t i = 0; i < separators.size(); ++i) {
      Op *op = separators[i];
      StretchEffects next = effectsOf(stretches[i + 1]);
      if (op->is(OpCode::ThBarrier) && !keepBarriers && StretchEffects::unordered(effects, next)) {
        op->erase();
        stretch.insert(stretch.end(), stretches[i + 1].begin(), stretches[i + 1].end());
        effects.merge(next);
        continue;
      }
      flush(stretch);
      if (op->is(OpCode::ThBarrier))
        op->erase();
      else // a uniform scf.for, scf.if or scf.while
        for (unsigned r = 0; r < op->numRegions(); ++r)
          split(op->region(r));
      stretch = std::move(stretches[i + 1]);
      effects = next;
    }
    flush(stretch);
  }

  StretchEffects effectsOf(const std::vector<Op *> &ops) {
    StretchEffects effects(perThreadArrays_);
    for (Op *op : ops)
      effects.add(op);
    return effects;
  }

  // One loop over the threads holding `stretch`, where its first op was.
  void flush(std::vector<Op *> &stretch) {
    if (stretch.empty())
      return;
    Builder b;
    b.setInsertionPoint(stretch.front());
    Op *loop = b.forOp(zero_, count_, one_, {});
    // Threads between barriers are unordered: their iterations are independent.
    if (!std::getenv("TRIDENT_CPU_SERIAL_THREADS"))
      loop->setAttr("parallel", Attribute::boolean(true));
    Block *region = loop->region();
    for (Op *op : stretch) {
      op->detach();
      region->push_back(op);
    }
    b.setInsertionPointToEnd(region);
    b.yield();
    threadLoops_.insert(loop);
    stretch.clear();
  }

  // The thread loop around `op`, or null at the uniform level.
  Op *threadLoopOf(Op *op) {
    for (Op *p = op; p && p != func_; p = p->parentOp())
      if (threadLoops_.count(p))
        return p;
    return nullptr;
  }

  // Each use of a thread id reads the induction variable of the thread loop around the use.
  void bindThreadIds() {
    std::vector<Op *> ids = collect(OpCode::ThThreadId);
    for (Op *op : collect(OpCode::ThWarpId))
      ids.push_back(op);
    for (Op *id : ids) {
      std::vector<std::pair<Op *, unsigned>> uses;
      for (const Use &u : id->result()->uses())
        uses.emplace_back(u.user, u.operandIndex);
      for (auto [user, k] : uses) {
        Op *loop = threadLoopOf(user);
        assert(loop && "a thread id used outside the thread loops");
        user->setOperand(k, loop->region()->argument(0));
      }
      id->erase();
    }
  }

  // Every use of a value outside the thread loop that defines it reads the value's
  // per-thread array (thread 0's element at the uniform level, where values are uniform).
  void reloadAcrossLoops() {
    std::vector<std::pair<Op *, unsigned>> uses;
    func_->walk([&](Op *op) {
      for (unsigned k = 0; k < op->numOperands(); ++k)
        uses.emplace_back(op, k);
    });
    std::map<std::pair<Value *, Op *>, Value *> reloaded;
    for (auto [user, k] : uses) {
      Value *v = user->operand(k);
      Value *array = nullptr;
      if (auto it = arrayOf_.find(v); it != arrayOf_.end()) {
        array = it->second;
      } else {
        Op *def = v->definingOp();
        Op *loop = def ? def->parentOp() : nullptr;
        if (!loop || !threadLoops_.count(loop) || user->isInside(loop))
          continue;
      }
      Op *useLoop = threadLoopOf(user);
      Value *&r = reloaded[{v, useLoop ? useLoop : user}];
      if (!r && useLoop && !arrayOf_.count(v))
        r = recompute(v, useLoop);
      if (!r) {
        if (!array)
          array = spillArray(v, v->definingOp(), v->definingOp()->parentOp());
        Builder b;
        if (useLoop) {
          b.setInsertionPointToStart(useLoop->region());
          r = load(b, array, useLoop->region()->argument(0), v->type());
        } else {
          b.setInsertionPoint(user);
          r = load(b, array, zero_, v->type());
        }
      }
      user->setOperand(k, r);
    }
  }

  // Integer, boolean and pointer arithmetic of the thread id and uniform values (the
  // lowering's addresses, offsets and masks) is recomputed in a later thread loop rather
  // than stored and read back: recomputed, the loop vectorizer sees its stride in the
  // thread id, while a stored address reads back as a gather. Up to kMaxRecomputed ops
  // per value; the copies go to the start of `useLoop`, once per loop.
  static constexpr size_t kMaxRecomputed = 24;

  // The ops (in order) `v` needs recomputed; false if it cannot be.
  bool recomputable(Value *v, std::vector<Op *> &ops, std::set<Op *> &seen) {
    if (v->isBlockArgument()) {
      if (arrayOf_.count(v))
        return false; // a per-thread value a loop carries (in an array, its argument erased)
      Op *owner = v->ownerBlock()->parentOp();
      return threadLoops_.count(owner) || !threadLoopOf(owner); // a thread id, or uniform
    }
    Op *def = v->definingOp();
    Op *loop = threadLoopOf(def);
    if (!loop)
      return true; // uniform: it dominates every use of what it computes
    if (def->parentOp() != loop || !def->has(kPure) || def->numRegions() != 0 || def->numResults() != 1 ||
        v->type().isFloat() || v->type().isCoopMatrix() || arrayOf_.count(v))
      return false;
    if (seen.count(def))
      return true;
    for (unsigned i = 0; i < def->numOperands(); ++i)
      if (!recomputable(def->operand(i), ops, seen))
        return false;
    seen.insert(def);
    ops.push_back(def);
    return ops.size() <= kMaxRecomputed;
  }

  Value *recompute(Value *v, Op *useLoop) {
    std::vector<Op *> ops;
    std::set<Op *> seen;
    if (!recomputable(v, ops, seen))
      return nullptr;
    Value *&done = recomputed_[{v, useLoop}];
    if (done)
      return done;
    Builder b;
    // After the copies made for earlier values, which these may use.
    Op *&last = lastRecomputed_[useLoop];
    if (last)
      b.setInsertionPointAfter(last);
    else
      b.setInsertionPointToStart(useLoop->region());
    for (Op *op : ops) {
      Value *&copy = recomputed_[{op->result(), useLoop}];
      if (copy)
        continue;
      ValueMap map;
      for (unsigned i = 0; i < op->numOperands(); ++i) {
        Value *w = op->operand(i);
        if (w->isBlockArgument() && threadLoops_.count(w->ownerBlock()->parentOp()))
          map.map(w, useLoop->region()->argument(0));
        else if (Value *c = recomputed_[{w, useLoop}])
          map.map(w, c);
      }
      Op *clone = op->clone(map);
      b.insert(clone);
      b.setInsertionPointAfter(clone);
      last = clone;
      copy = clone->result();
    }
    done = recomputed_[{v, useLoop}];
    return done;
  }

  Value *spillArray(Value *v, Op *def, Op *loop) {
    auto it = spills_.find(v);
    if (it != spills_.end())
      return it->second;
    Value *array = allocate(v->type());
    Builder b;
    b.setInsertionPointAfter(def);
    store(b, array, loop->region()->argument(0), v);
    spills_[v] = array;
    return array;
  }

  Op *func_;
  int64_t threads_;
  int64_t sharedBytes_;
  Value *zero_ = nullptr, *one_ = nullptr, *count_ = nullptr;
  std::set<Op *> uniform_, threadLoops_;
  std::set<Value *> perThreadArrays_; // allocate()'s, each thread at its own index
  std::map<Value *, Value *> arrayOf_, spills_;
  std::map<std::pair<Value *, Op *>, Value *> recomputed_;
  std::map<Op *, Op *> lastRecomputed_;
  std::vector<std::pair<Op *, unsigned>> carriedToErase_;
  std::vector<Op *> whilesToErase_;
};

} // namespace

bool formThreadLoops(Op *func, Diagnostics &) { return ThreadLoops(func).run(); }

} // namespace trident::cpu
