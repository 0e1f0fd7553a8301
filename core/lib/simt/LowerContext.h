#pragma once
// Shared state of the SIMT lowering and the helpers every op-family file uses.
// Each block-IR value lowers to a Lowered: its layout and one thread-IR value per
// register (a scalar is a rank-0 block with one register, replicated everywhere).

#include "trident/ir/Builder.h"
#include "SharedLayout.h"
#include "Tma.h"
#include "trident/simt/LayoutAssignment.h"
#include "trident/simt/TargetDesc.h"
#include "trident/support/Diagnostic.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace trident::simt {

struct Lowered {
  LinearLayout layout;
  std::vector<Value *> regs; // regs.size() == layout.numRegisters()
};

// A load the loop pipeline moved into shared memory (Pipeline.h): the stage of its ring
// buffer this iteration reads, starting at element `base`, arranged as `shared`.
struct PipelinedOperand {
  Value *buffer = nullptr;
  Value *base = nullptr;
  SharedLayout shared;
};

// Saves the builder's insertion point and restores it on destruction.
class InsertionGuard {
public:
  explicit InsertionGuard(Builder &b) : b_(b), block_(b.block()), before_(b.insertionOp()) {}
  ~InsertionGuard() {
    if (before_)
      b_.setInsertionPoint(before_);
    else
      b_.setInsertionPointToEnd(block_);
  }
  InsertionGuard(const InsertionGuard &) = delete;
  InsertionGuard &operator=(const InsertionGuard &) = delete;

private:
  Builder &b_;
  Block *block_;
  Op *before_;
};

// The warps a warp-specialized loop's producer adds to the kernel: one warpgroup, as
// th.setmaxnreg changes the registers of whole warpgroups (LowerWarpSpecialize.cpp).
constexpr unsigned kProducerWarps = 4;

class Lowering {
public:
  Lowering(const TargetDesc &target, LayoutAssignment &layouts, Diagnostics &diags);

  // Appends the thread-IR form of `blockFunc` to `out`; false after a diagnostic.
  bool lowerFunction(const Op *blockFunc, Module &out);

  // ---- values ----
  // The lowered form of block-IR value `v` in the layout it was lowered to.
  const Lowered &get(Value *v);
  // ... converted to `layout` (cached where the conversion dominates the use).
  Lowered get(Value *v, const LinearLayout &layout);
  // A scalar's thread-IR value.
  Value *scalar(Value *v);
  void set(Value *v, Lowered l);
  void setScalar(Value *v, Value *t);
  // The layout layout assignment chose for `v` (the scalar layout for scalars).
  LinearLayout assigned(const Value *v) const {
    auto it = coopLayouts.find(v);
    return it != coopLayouts.end() ? it->second : layouts.layout(v);
  }
  LinearLayout scalarLayout() const;

  // ---- ops and regions ----
  bool lowerOp(Op *op);
  // Lowers the ops of `block` at the insertion point, stopping before its terminator.
  bool lowerBody(Block *block);
  // Lowers a reduce/scan combiner on scalars: binds its arguments to `args` and
  // returns the thread-IR values its terminator returns.
  std::optional<std::vector<Value *>> inlineCombiner(Block *region, std::span<Value *const> args);
  bool error(const Op *op, std::string message);

  // ---- thread-IR helpers ----
  Value *constI32(int64_t v);
  Value *laneId() const { return lane_; }
  Value *warpId() const { return warp_; }
  Value *threadId() const { return thread_; }
  // The flat index that lane/warp bits contribute in `layout` (i32, in the prologue).
  Value *layoutBase(const LinearLayout &layout);
  // i1 true in the one thread of each group of replicas of `layout`; null when none.
  Value *ownerPredicate(const LinearLayout &layout);
  // The flat index of register `reg` of `layout`: base combined with the register bits.
  Value *elementIndex(const LinearLayout &layout, int64_t reg);
  // Index of dimension `dim` of register `reg` of `layout`.
  Value *dimIndex(const LinearLayout &layout, unsigned dim, int64_t reg);
  Value *andPredicates(Value *a, Value *b); // either may be null
  // A th.barrier at the insertion point, unless one precedes it with only pure ops between.
  void barrier();
  // Moves a value through shared memory in the layouts given (owner threads of `src`
  // write, every thread reads `dst`). The barrier pass orders the accesses.
  Lowered convert(const Lowered &src, const LinearLayout &dst);
  Lowered convertThroughShared(const Lowered &src, const LinearLayout &dst);
  // Within warps by th.shuffle when both layouts keep every element in its warp;
  // nothing when they do not or when it would take too many shuffles (ConvertLayout.cpp).
  std::optional<Lowered> convertByShuffles(const Lowered &src, const LinearLayout &dst);
  // The i32 XOR over the set bits j of the lane id of bases[j] (in the prologue).
  Value *laneFunction(const std::vector<int64_t> &bases);
  // The two halves (SharedAccess.cpp): writes `src` into a new shared array arranged
  // as `shared` (row-major when not given; one thread of each group of replicas per
  // element), and reads one back in `dst` (with th.ldmatrix where the target has it
  // and `dst` is made of 8x8 matrices of 16-bit elements).
  Value *writeShared(const Lowered &src);
  Value *writeShared(const Lowered &src, const SharedLayout &shared);
  Lowered readShared(Value *buffer, Type element, const LinearLayout &dst);
  // `only`, when given, says which registers to read (the others stay null).
  // `base`, when given, is added to every index (a stage of a ring buffer).
  Lowered readShared(Value *buffer, Type element, const LinearLayout &dst, const SharedLayout &shared,
                     const std::vector<bool> *only = nullptr, Value *base = nullptr);
  // The arrangement a conversion from `src` to `dst` goes through: swizzled rows along
  // the dimension `src` (else `dst`) holds contiguous, row-major for blocks of rank 1.
  // `chunkBytes`: the unit the rows' swizzle permutes (SharedLayout::swizzled).
  SharedLayout conversionLayout(const LinearLayout &src, const LinearLayout &dst, Type element,
                                unsigned chunkBytes = 16) const;
  // The arrangement a dot operand goes through from `writer` to `reader` (a matrix
  // unit's operand layout): conversionLayout's where `reader` takes it with ldmatrix, else
  // the swizzle with the fewest bank conflicts that keeps `minWriterWidth` elements
  // contiguous for the writer (SharedAccess.cpp).
  SharedLayout operandTile(const LinearLayout &writer, const LinearLayout &reader, Type element,
                           int64_t minWriterWidth = 1) const;
  // The arrangement of a rank-2 matrix-unit operand that th.wgmma reads from shared
  // memory as `src` writes it: a canonical tile (matrixDescriptor) with rows along what
  // `src` holds contiguous, else along dimension `kDim`; along `kDim` always with
  // `kMajor` (atoms that read K-major tiles only).
  SharedLayout matrixTileLayout(const LinearLayout &src, unsigned kDim, Type element, bool kMajor = false) const;
  // True when `v` is cheaper to compute again in another layout than to convert:
  // constants, splats, ranges and a few elementwise or shape ops over them.
  bool canRematerialize(const Value *v, int &budget) const;
  // Lowers `v`'s defining op again with its result in `layout`.
  Lowered rematerialize(Value *v, const LinearLayout &layout);
  // A shared-memory array of `count` elements of `element`'s storage type, its offset a
  // multiple of `align` bytes (swizzled tiles: 1024, where their pattern repeats).
  Value *sharedAlloc(Type element, int64_t count, int64_t align = 16);
  // Shared memory holds numbers only: i1 as i8, pointers as i64.
  static Type storageType(Type t);
  Value *toStorage(Value *v);
  Value *fromStorage(Value *v, Type type);

  Builder b; // the insertion point inside the body
  const TargetDesc &target;
  int numStages = 3; // software pipelining depth of loops that say none (LoweringOptions)
  // Block-IR load results that live in shared memory in the loop being lowered.
  std::unordered_map<const Value *, PipelinedOperand> pipelined;
  // Block-IR load results a loop loaded into registers one iteration ahead (Pipeline.h,
  // targets without asynchronous copies): the registers this iteration uses, and the
  // loop's i32 that alternates 0, 1, 0, ... (a dot may store such operands into one of
  // two shared buffers by it: LowerCoopMatrix.cpp).
  // With CoopPrefetch::Late (`late`), `regs` are the next iteration's registers (the dot
  // stores them after its matrix operations) and `first` the first iteration's, loaded
  // before the loop (the dot stores them there).
  struct Prefetched {
    Lowered regs;
    Value *parity = nullptr;
    bool late = false;
    Lowered first;
  };
  std::unordered_map<const Value *, Prefetched> prefetched;
  // Dots (th.wgmma) of pipelined loops whose accumulator only goes round the loop: each
  // iteration leaves its group in flight (th.wgmma_wait {pending = 1}) and the loop's
  // result waits for it (Pipeline.h).
  std::unordered_set<const Op *> asyncDots;
  // Block values th.wgmma reads from shared memory that a dot wrote there (matrixTile in
  // LowerDot.cpp): the buffer, its layout, and the op it was written before. A later dot
  // of the same value and layout whose write would go in the same block after that op
  // reads the same buffer (attention's Q, read by the causal kernel's two loops: one
  // write, and no registers of Q live through the first loop).
  struct StagedTile {
    const Value *value;
    std::vector<int64_t> bases;
    Value *buffer;
    Op *before;
  };
  std::vector<StagedTile> stagedTiles;
  // The scf.for loops being lowered, outermost first: the block-IR loop and its
  // thread-IR counterpart (code for a loop-invariant value can go before the latter).
  std::vector<std::pair<const Op *, Op *>> loops;
  // Block values a loop carries as cooperative matrices (LowerCoopMatrix.cpp): their
  // marker layouts (isCoopLayout), which assigned() gives instead of the assignment's.
  std::unordered_map<const Value *, LinearLayout> coopLayouts;
  // The tensor maps the kernel takes after its own parameters (Tma.h), and their
  // thread-IR arguments; tensorMapArg gives the one serving a tt.descriptor_load.
  std::vector<TensorMapSpec> tensorMaps;
  // The i1 that says which thread issues tensor copies (issueTensorCopies); null: thread 0.
  // A warp-specialized loop's producer sets it to its first thread.
  Value *tensorCopyIssuer = nullptr;
  // The th.warp_specialize of the kernel's warp-specialized loop (LowerWarpSpecialize.cpp),
  // whose consumer region holds the rest of the kernel; the kernel returns after it.
  Op *specialized = nullptr;
  std::vector<Value *> tensorMapArgs;
  Value *tensorMapArg(const TensorMapSpec &spec) const;
  LayoutAssignment &layouts;
  Diagnostics &diags;

private:
  struct CacheEntry {
    Lowered value;
    Block *block;
  };
  std::unordered_map<const Value *, Lowered> values_;
  std::map<std::pair<const Value *, std::string>, CacheEntry> conversions_;
  std::map<std::string, Value *> bases_, owners_;
  std::map<int64_t, Value *> constants_;
  Builder prologue_; // ops every body op may use: ids, layout bases, constants
  Value *thread_ = nullptr, *lane_ = nullptr, *warp_ = nullptr;
};

// The thread-IR loop outside which block-IR value `v` is already defined, outermost
// first; null when `v` changes in every loop being lowered.
Op *outermostInvariantLoop(const Lowering &l, const Value *v);
// Registers [first, first + width) as one th.pack vector (the register itself for width 1).
Value *packRegisters(Lowering &l, const std::vector<Value *> &regs, int64_t first, int64_t width);
// The reverse: th.extract each element of `v` into regs[first ...].
void unpackInto(Lowering &l, Value *v, int64_t width, std::vector<Value *> &regs, int64_t first);
// The cache/eviction/volatile attributes of a block-IR memory op.
AttributeList cacheHints(const Op *op);
// Registers one access of `op` may cover in `layout`.
int64_t accessWidth(Lowering &l, const Op *op, const LinearLayout &layout, Type element);

// Conversions no target has instructions for (f8, rounding toward zero): whether `op`
// (arith.extf / arith.truncf) needs one, the conversion of one scalar, and f8 constants.
bool needsNarrowFloatLowering(const Op *op);
Value *lowerNarrowFloatConversion(Lowering &l, const Op *op, Value *v);
Value *narrowFloatConstant(Lowering &l, Type type, double value);
// An f8 scalar converted (exactly) to a wider float type.
Value *widenNarrowFloat(Lowering &l, Value *v, Type to);

// Dots on cooperative matrices (LowerCoopMatrix.cpp, Vulkan): whether `layout` is the
// marker layout of tiles held as coopmat values; a conversion to or from one; the
// accumulators `loop` (a block-IR scf.for) carries as tiles; and a dot on them (false,
// with nothing emitted, when the target has no cooperative matrix for it).
bool isCoopLayout(const LinearLayout &layout);
Lowered convertCoop(Lowering &l, Value *v, const Lowered &own, const LinearLayout &dst);
void planCoopLoop(Lowering &l, const Op *loop);
bool lowerDotCoop(Lowering &l, Op *op);
// An arith.mulf planCoopLoop gave cooperative matrices (tiles times a scale per row);
// false for any other.
bool lowerMulCoop(Lowering &l, Op *op);

// One lowering per op family; each returns false after a diagnostic.
bool lowerElementwise(Lowering &l, Op *op);
bool lowerInlineAsm(Lowering &l, Op *op); // tt.elementwise_inline_asm (LowerElementwise.cpp)
bool lowerConstant(Lowering &l, Op *op);
bool lowerMakeRange(Lowering &l, Op *op);
bool lowerSplat(Lowering &l, Op *op);
bool lowerBroadcast(Lowering &l, Op *op);
bool lowerViewOp(Lowering &l, Op *op); // expand_dims, reshape, trans
bool lowerJoin(Lowering &l, Op *op);
bool lowerSplit(Lowering &l, Op *op);
bool lowerCat(Lowering &l, Op *op);
// `inRange`, when given, predicates every access besides the mask (a load issued
// ahead for an iteration that may not exist).
bool lowerLoad(Lowering &l, Op *op, Value *inRange = nullptr);
bool lowerStore(Lowering &l, Op *op);
bool lowerDescriptorLoad(Lowering &l, Op *op); // LowerTma.cpp
// Thread 0 (or Lowering::tensorCopyIssuer) starts the copies of a tile of `spec` through `map` into `buffer` from element
// `base` (null: 0) at `offsets` (i32, outermost first), arriving on barrier `slot` of
// `barriers` and expecting the tile's bytes (none where `inRange`, when given, is false).
void issueTensorCopies(Lowering &l, const TensorMapSpec &spec, Value *map, Value *buffer, Value *base,
                       std::span<Value *const> offsets, Value *barriers, Value *slot, Value *inRange);
bool lowerAtomic(Lowering &l, Op *op);
bool lowerReduce(Lowering &l, Op *op);
bool lowerScan(Lowering &l, Op *op);
bool lowerDot(Lowering &l, Op *op);
bool lowerFor(Lowering &l, Op *op);
bool lowerIf(Lowering &l, Op *op);
bool lowerWhile(Lowering &l, Op *op);
bool lowerDebug(Lowering &l, Op *op); // tt.print, tt.assert, gpu.barrier (LowerDebug.cpp)

} // namespace trident::simt
