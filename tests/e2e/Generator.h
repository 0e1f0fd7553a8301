#pragma once
// The random-kernel generator's state, shared by its files: GenArith.cpp (elementwise
// ops and casts), GenShape.cpp (shape ops, reductions, scans), GenMemory.cpp (loads,
// stores, masks, gathers, atomics), GenControlFlow.cpp (scf.for, scf.if), GenDot.cpp
// (tt.dot) and GenDotLoop.cpp (K loops, their tensor descriptors and block pointers),
// both behind GenDot.h, and Generator.cpp (the kernel's frame, value facts, outputs).
//
// The generator keeps a pool of values visible at the insertion point and the Facts
// of every value it made; each step picks a value from the pool and builds an op on
// it, asking the Facts transfer functions first whether the result stays comparable.

#include "Facts.h"
#include "RandomKernel.h"
#include "Rng.h"

#include "trident/ir/Builder.h"

#include <map>
#include <optional>
#include <unordered_map>

namespace trident::e2e {

class Generator {
public:
  Generator(uint64_t seed, const GeneratorOptions &options);
  RandomKernel run();

  // ---- Generator.cpp: frame, pool, facts ----
  bool enabled(const std::string &feature) const { return !options_.disabled.count(feature); }
  void use(const std::string &feature) { kernel_.features.insert(feature); }
  // Adds `v` (just built) to the pool with facts inferred from its op.
  Value *record(Value *v);
  // Records facts for values whose op has none to infer (loads, atomics, arguments).
  Value *recordWith(Value *v, const Facts &f, bool addToPool = true);
  const Facts &facts(const Value *v) const;
  Facts infer(const Op *op, unsigned result);
  void inferBlock(const Block *block);
  // A value of the pool matching `accept`, biased towards recent ones; null if none.
  template <class F> Value *pickValue(F accept);
  void enterScope();
  void exitScope();
  int depth() const { return int(scopes_.size()); }
  bool budgetLeft() const { return opsLeft_ > 0; }
  // Room for steps that add parameters (loads, stores, loops, dots): kernels take at
  // most 64, and the outputs at the end add a dozen.
  bool paramsLeft() const { return kernel_.args.size() < 44; }

  Value *constInt(int64_t v, Type t);
  Value *constFloat(double v, Type t);
  // The row-major linear index of every element of `shape` (i32), and the index along
  // one axis; cached per scope.
  Value *linearIndex(const std::vector<int64_t> &shape);
  Value *axisIndex(const std::vector<int64_t> &shape, int axis);
  // A new kernel parameter.
  Value *addBufferParam(ArgSpec spec);
  Value *addScalarParam(Type t, uint64_t bits, const Facts &f, const std::string &prefix);
  ArgSpec &argOf(Value *param);

  // ---- GenArith.cpp ----
  bool genElementwise();
  bool genIntOp(Value *a);
  bool genFloatOp(Value *a);
  bool genCast(Value *a);
  // A value of type `t` for a binary op with `like`: from the pool, a cast, a
  // broadcast, a constant or a scalar argument. `exactOnly`: an exact float.
  Value *operandOfType(Type t, bool exactOnly);
  Value *randomConstant(Type t, bool exactOnly);
  Value *castTo(Value *v, Type element);
  // Guards: |x| + c (>= c), and x clamped to [-bound, bound].
  Value *positive(Value *x, double c);
  Value *clamp(Value *x, double bound);
  bool acceptable(Type t, const Facts &f) const;

  // ---- GenShape.cpp ----
  bool genShapeOp();
  bool genReduce();
  bool genScan();
  Value *broadcastTo(Value *v, const std::vector<int64_t> &shape);
  std::vector<Combine> pickCombiners(std::vector<Value *> &inputs, int axis);
  std::vector<Value *> emitCombiner(Builder &b, const std::vector<Combine> &kinds, std::span<Value *const> lhs,
                                    std::span<Value *const> rhs);

  // ---- GenMemory.cpp ----
  // Loads a new input of `t` (its shape and element); may mask it.
  Value *genLoad(Type t, bool allowMask = true, bool exactData = false);
  bool genLoadStep();
  bool genGather();
  bool genAtomic();
  bool genStoreStep();
  // Stores `v` into a new output buffer (one slot per program and loop iteration).
  void storeOutput(Value *v, bool allowMask);
  // Offsets of this program's tile of a buffer holding one tile per program and
  // loop-iteration slot (the slot of the current scope).
  Value *tileOffsets(const std::vector<int64_t> &shape);
  // A random i1 mask of `shape`, and the bound it compares with.
  Value *dataMask(const std::vector<int64_t> &shape);
  // Random contents for `count` elements and the facts they obey; floats are exact
  // (small dyadic numbers) or approximate (uniform in a range) unless forced exact.
  std::vector<uint8_t> inputData(Type element, size_t count, Facts &facts, bool forceExact = false);
  std::vector<uint8_t> poison(Type element, size_t count) const;

  // ---- GenControlFlow.cpp ----
  bool genFor();
  bool genIf();
  void genBody(int steps);
  // A value of type `t` to yield from a region: computed in the region or derived.
  Value *yieldValue(Type t);
  Facts inferFor(const Op *op, unsigned result);
  Facts inferIf(const Op *op, unsigned result);

  // ---- GenDot.cpp, GenDotLoop.cpp ----
  // A tt.dot with its operands (loads, pool values, elementwise ops, transposes), its
  // accumulator and an epilogue, stored; or a K loop of loads feeding a dot.
  bool genDot();

  // One generation step at the insertion point.
  bool step();
  bool typeEnabled(Type element) const;
  // A random enabled element type: integers (i8..i64) or floats (f16..f64).
  Type randomElement(bool wantFloat);
  // Sets each output's OutputCheck from the facts of everything stored into it.
  void finishOutputs();

  // State.
  GeneratorOptions options_;
  Rng rng_;
  RandomKernel kernel_;
  Builder b_;
  Op *func_ = nullptr;
  Value *program_ = nullptr; // the linear program index (i32)
  int64_t numPrograms_ = 1;
  std::vector<int64_t> tileShape_;
  int opsLeft_ = 0;

  std::vector<Value *> pool_;
  struct Scope {
    size_t poolStart;
    std::map<std::vector<int64_t>, Value *> linearIndex;
    std::map<std::pair<std::vector<int64_t>, int>, Value *> axisIndex;
    Value *slot = nullptr; // loop-iteration slot index (i32 scalar) or null (slot 0)
    int64_t slotCount = 1;
  };
  std::vector<Scope> scopes_;

  std::unordered_map<const Value *, Facts> facts_;
  std::unordered_map<const Op *, std::vector<Combine>> combiners_;
  struct LoopInfo {
    int64_t lb, step, trips;
  };
  std::unordered_map<const Op *, LoopInfo> loops_;
  std::unordered_map<const Value *, size_t> params_; // parameter -> index in kernel_.args
  std::vector<std::pair<size_t, Value *>> stores_;    // (output argument, value stored)
};

template <class F> Value *Generator::pickValue(F accept) {
  std::vector<Value *> candidates;
  for (Value *v : pool_)
    if (accept(v))
      candidates.push_back(v);
  if (candidates.empty())
    return nullptr;
  // Mostly values nothing uses yet, so that little of the kernel is dead; else one of
  // the most recent, so chains grow deep; else any.
  size_t n = candidates.size();
  double r = rng_.unit();
  if (r < 0.45) {
    std::vector<Value *> unused;
    for (Value *v : candidates)
      if (!v->hasUses())
        unused.push_back(v);
    if (!unused.empty())
      return unused[unused.size() - 1 - size_t(rng_.range(0, int64_t(std::min<size_t>(unused.size(), 6)) - 1))];
  }
  if (r < 0.75)
    return candidates[n - 1 - size_t(rng_.range(0, int64_t(std::min<size_t>(n, 4)) - 1))];
  return rng_.pick(candidates);
}

// Helpers shared by the generator's files.
bool isFloatType(Type t);
bool isIntType(Type t);
std::vector<int64_t> shapeOf(Type t);
int64_t numElements(const std::vector<int64_t> &shape);

} // namespace trident::e2e
