#pragma once
// What the shared thread-IR -> LLVM IR translation asks of an LLVM-based target
// (NVPTX, AMDGPU): the few things the IR itself cannot say portably. Each hook
// inserts its code at the builder's insertion point.

#include "trident/ir/OpInfo.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/Support/MathExtras.h>

#include <string>
#include <string_view>
#include <vector>

namespace trident::llvmgen {

// The cache hints of one global access (th.load / th.store attributes; empty when absent).
struct CacheHints {
  std::string cache;    // loads: "ca", "cg", "cv"; stores: "wb", "cg", "cs", "wt"
  std::string eviction; // "evict_normal", "evict_first", "evict_last"
  bool empty() const { return cache.empty() && eviction.empty(); }
};

class TargetHooks {
public:
  virtual ~TargetHooks() = default;

  virtual std::string_view triple() const = 0;
  // Address spaces of global memory (kernel pointer parameters) and of shared memory.
  virtual unsigned globalAddressSpace() const { return 1; }
  virtual unsigned sharedAddressSpace() const { return 3; }
  virtual unsigned warpSize() const = 0;

  // i32 ids: the thread within its program, the program along `axis`, the grid size.
  virtual llvm::Value *threadId(llvm::IRBuilder<> &b) = 0;
  // The lane within the warp and the warp within the program, from the thread id.
  virtual llvm::Value *laneId(llvm::IRBuilder<> &b) { return b.CreateAnd(threadId(b), warpSize() - 1); }
  virtual llvm::Value *warpId(llvm::IRBuilder<> &b) {
    return b.CreateLShr(threadId(b), llvm::Log2_32(warpSize()));
  }
  virtual llvm::Value *programId(llvm::IRBuilder<> &b, int axis) = 0;
  virtual llvm::Value *numPrograms(llvm::IRBuilder<> &b, int axis) = 0;
  // Waits for all threads of the program; orders shared-memory accesses.
  virtual void barrier(llvm::IRBuilder<> &b) = 0;
  // The fence an atomic of `ordering` at Triton's `scope` ("gpu", "cta", "sys") needs
  // before it (`before`) or after it, for targets whose LLVM backend drops the orderings
  // of atomic instructions (NVPTX in LLVM 19 emits every atomic relaxed and cannot select
  // fence instructions). False: the atomic instruction's own ordering does it.
  virtual bool atomicFence(llvm::IRBuilder<> &, llvm::AtomicOrdering /*ordering*/, std::string_view /*scope*/,
                           bool /*before*/) {
    return false;
  }
  // A warp shuffle of an i32 `value`; `mode` is "idx", "xor", "up" or "down".
  virtual llvm::Value *shuffle(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *lane,
                               std::string_view mode) = 0;
  // A math op (MathOps.def: math.exp, math.sin ...) on float or double `args`, usually the
  // function its devlib or libm column names; null when the target has nothing better
  // than the op's LLVM intrinsic, which the translation falls back to.
  virtual llvm::Value *mathFunction(llvm::IRBuilder<> &b, OpCode code,
                                    llvm::ArrayRef<llvm::Value *> args) = 0;
  // arith.divf (which may be approximate, within 2 ulp); null: a correctly rounded fdiv.
  virtual llvm::Value *approximateDivide(llvm::IRBuilder<> &, llvm::Value *, llvm::Value *) {
    return nullptr;
  }
  // A global load of `type` (a scalar or vector of numbers, `align`-aligned) at `ptr`
  // honouring `hints` (not empty); null: the translation emits a plain load instead.
  virtual llvm::Value *cachedLoad(llvm::IRBuilder<> &, llvm::Type *, llvm::Value *, llvm::Align,
                                  const CacheHints &) {
    return nullptr;
  }
  // The same for a store of `value` (`hints` may be empty), done only where `pred` (when
  // given) is true, as one instruction; false: the translation emits a plain store
  // (behind a branch on `pred`).
  virtual bool cachedStore(llvm::IRBuilder<> &, llvm::Value * /*value*/, llvm::Value * /*ptr*/, llvm::Align,
                           const CacheHints &, llvm::Value * /*pred*/) {
    return false;
  }
  // Prints `format` (C printf syntax) with `args` (i32, i64 or double) from this thread;
  // false when the target cannot print (the translation then reports th.printf).
  virtual bool printf(llvm::IRBuilder<> &, std::string_view /*format*/, llvm::ArrayRef<llvm::Value *>) {
    return false;
  }
  // Reports a failed assertion and stops the program; false when the target cannot.
  virtual bool assertFail(llvm::IRBuilder<> &, std::string_view /*message*/, std::string_view /*file*/,
                          unsigned /*line*/, std::string_view /*function*/) {
    return false;
  }
  // Matrix units and asynchronous copies (th.mma, th.ldmatrix, th.async_*; the SIMT
  // lowering emits them only for targets whose TargetDesc has them). Each returns
  // null / false when the target has no such instruction.
  // One atom named `atom` (MatrixAtom::name): this lane's A, B and C registers in, D out.
  virtual std::vector<llvm::Value *> matrixMultiply(llvm::IRBuilder<> &, std::string_view /*atom*/,
                                                    llvm::ArrayRef<llvm::Value *> /*a*/,
                                                    llvm::ArrayRef<llvm::Value *> /*b*/,
                                                    llvm::ArrayRef<llvm::Value *> /*c*/) {
    return {};
  }
  // How many of this lane's registers the A, B and C fragments of `atom` take; false:
  // the translation reads them off a PTX-style name ("mma.m16n8k16...": m*k, k*n and m*n
  // elements spread evenly over the warp).
  virtual bool matrixFragments(std::string_view /*atom*/, unsigned & /*a*/, unsigned & /*b*/,
                               unsigned & /*c*/) const {
    return false;
  }
  // `count` 8x8 matrices of 16-bit elements from the shared-memory row `address` of
  // this lane, as a vector of `type` (2 * count elements).
  virtual llvm::Value *loadMatrix(llvm::IRBuilder<> &, llvm::Value * /*address*/, unsigned /*count*/,
                                  bool /*trans*/, llvm::Type * /*type*/) {
    return nullptr;
  }
  // Starts a copy of `bytes` from global `source` to shared `destination` (zeros where
  // `pred`, when given, is false); commits this thread's open group; waits until at most
  // `pending` groups are in flight.
  virtual bool asyncCopy(llvm::IRBuilder<> &, llvm::Value * /*destination*/, llvm::Value * /*source*/,
                         unsigned /*bytes*/, llvm::Value * /*pred*/) {
    return false;
  }
  virtual bool asyncCommit(llvm::IRBuilder<> &) { return false; }
  virtual bool asyncWait(llvm::IRBuilder<> &, unsigned /*pending*/) { return false; }
  // Barriers in shared memory (th.mbarrier_init, th.async_arrive, th.mbarrier_wait): the
  // 8-byte object at `barrier`; `pred` (when given) says whether this thread initializes
  // it; `parity` is an i32.
  virtual bool barrierInit(llvm::IRBuilder<> &, llvm::Value * /*barrier*/, unsigned /*count*/,
                           llvm::Value * /*pred*/) {
    return false;
  }
  virtual bool asyncArrive(llvm::IRBuilder<> &, llvm::Value * /*barrier*/) { return false; }
  virtual bool barrierWait(llvm::IRBuilder<> &, llvm::Value * /*barrier*/, llvm::Value * /*parity*/) {
    return false;
  }
  // th.mbarrier_arrive: where `pred` (when given), one arrival on `barrier`, releasing
  // this thread's earlier shared-memory accesses.
  virtual bool barrierArrive(llvm::IRBuilder<> &, llvm::Value * /*barrier*/, llvm::Value * /*pred*/) {
    return false;
  }
  // Warp specialization (th.warp_specialize): a barrier of the `threads` threads running
  // one of its regions (a named barrier, `id` 1 and up), and th.setmaxnreg.
  virtual bool partitionBarrier(llvm::IRBuilder<> &, unsigned /*id*/, unsigned /*threads*/) { return false; }
  virtual bool setMaxRegisters(llvm::IRBuilder<> &, unsigned /*count*/, bool /*increase*/) { return false; }
  // Tensor copies (th.tma_arrive, th.tma_load): where `pred`, one arrival on `barrier`
  // expecting `bytes` (i32) more bytes; where `pred`, a copy of the box at `coords` (i32,
  // outermost first) of the tensor map at `map` (a kernel parameter's address) into shared
  // `destination`, completing on `barrier`.
  virtual bool tensorArrive(llvm::IRBuilder<> &, llvm::Value * /*barrier*/, llvm::Value * /*bytes*/,
                            llvm::Value * /*pred*/) {
    return false;
  }
  virtual bool tensorCopy(llvm::IRBuilder<> &, llvm::Value * /*destination*/, llvm::Value * /*map*/,
                          llvm::Value * /*barrier*/, llvm::Value * /*pred*/, llvm::ArrayRef<llvm::Value *> /*coords*/) {
    return false;
  }
  // Warpgroup matrix units (th.wgmma and its fence, commit and wait; th.fence_async_shared).
  // An operand in shared memory: its first element's address and its canonical layout.
  struct MatrixTile {
    llvm::Value *address = nullptr;
    int64_t offset = 0; // bytes from `address` to the tile (a constant: k steps share an address)
    bool mnMajor = false;
    int64_t swizzle = 0, sbo = 0, lbo = 0;
  };
  // One atom: A from `aTile` when it is given, else this thread's `aRegisters`; D out.
  virtual std::vector<llvm::Value *> warpgroupMultiply(llvm::IRBuilder<> &, std::string_view /*atom*/,
                                                       const MatrixTile * /*aTile*/,
                                                       llvm::ArrayRef<llvm::Value *> /*aRegisters*/,
                                                       const MatrixTile & /*bTile*/,
                                                       llvm::ArrayRef<llvm::Value *> /*c*/) {
    return {};
  }
  // Orders earlier register writes before the next atoms; `values` (the registers they
  // read) come back as the ones to use after it.
  virtual std::vector<llvm::Value *> warpgroupFence(llvm::IRBuilder<> &, llvm::ArrayRef<llvm::Value *> /*values*/) {
    return {};
  }
  virtual bool warpgroupCommit(llvm::IRBuilder<> &) { return false; }
  // Waits for all but `pending` groups; `values` come back as the ones to use after it.
  virtual std::vector<llvm::Value *> warpgroupWait(llvm::IRBuilder<> &, unsigned /*pending*/,
                                                   llvm::ArrayRef<llvm::Value *> /*values*/) {
    return {};
  }
  virtual bool fenceAsyncShared(llvm::IRBuilder<> &) { return false; }
  // Cooperative matrices (th.coop_*) held whole by one thread, on warps of one lane (the
  // CPU): each is an LLVM vector of its elements, row-major, and the translation makes
  // their loads, stores and multiply-adds out of plain vector operations. False: refused.
  virtual bool coopMatricesInOneThread() const { return false; }
  // Parameters the target appends to every kernel after the kernel's own (the CPU's
  // program ids and shared memory); the hooks find them as the function's last arguments.
  virtual std::vector<llvm::Type *> extraParameters(llvm::LLVMContext &) { return {}; }
  // The start of the program's shared memory (1024-byte aligned); null: one external
  // array named kSharedMemoryName in the shared address space.
  virtual llvm::Value *sharedMemory(llvm::IRBuilder<> &) { return nullptr; }
  // The assembly language tl.inline_asm_elementwise's text is in for this target ("PTX"),
  // passed to LLVM as inline assembly; empty: the target refuses inline assembly.
  virtual std::string_view inlineAsmLanguage() const { return {}; }
  // Marks `f` as a kernel that runs with `numThreads` threads per program.
  virtual void markKernel(llvm::Function *f, unsigned numThreads) = 0;
};

} // namespace trident::llvmgen
