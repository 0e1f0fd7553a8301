#pragma once
// Internal to backends/llvm: translation of one thread-IR function. The op
// families live in their own files (CodeGen*.cpp), all members of this class.

#include "trident/backends/llvm/CodeGen.h"

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

namespace trident::llvmgen {

class Translator {
public:
  Translator(const Op *func, llvm::Module &module, TargetHooks &hooks, Diagnostics &diags);
  bool run();

  // ---- shared by the families ----
  llvm::Type *type(Type t);
  llvm::Value *value(const Value *v) const;
  void define(const Value *v, llvm::Value *x) { values_[v] = x; }
  bool error(const Op *op, const std::string &message);
  // Runs `access` only where `pred` is true (always when null); its result, or
  // `otherwise` (poison when null) where it did not run.
  llvm::Value *predicated(llvm::Value *pred, const std::function<llvm::Value *()> &access,
                          llvm::Value *otherwise, llvm::Type *resultType);
  llvm::Function *intrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Type *> types);

  // ---- families: each returns false after a diagnostic ----
  bool translateBlock(Block *block); // every op but the terminator
  bool translateOp(Op *op);
  bool translateArith(Op *op); // arith.*, math.*, casts, tt.addptr ...
  bool translateCast(Op *op);
  bool translateMath(Op *op);
  bool translateMemory(Op *op);   // th.load/store/atomics/shared memory
  bool translateThreadOp(Op *op); // ids, pack/extract, shuffle, barrier
  bool translateDebug(Op *op);    // th.printf, th.assert
  bool translateInlineAsm(Op *op); // tt.elementwise_inline_asm (CodeGenAsm.cpp)
  bool translateCoop(Op *op);     // th.coop_* held by one thread (TargetHooks::coopMatricesInOneThread)
  bool translateMatrix(Op *op);   // th.mma, th.ldmatrix, th.async_copy/commit/wait
  bool translateFor(Op *op);
  bool translateIf(Op *op);
  // scf.for {parallel = true}: iterations independent in memory (see CodeGen.cpp).
  void markParallel(llvm::BranchInst *backedge, llvm::BasicBlock *body, llvm::BasicBlock *before);
  bool translateWhile(Op *op);
  // th.warp_specialize: a branch on the thread id to either region; th.barrier inside
  // one waits for that region's threads (TargetHooks::partitionBarrier).
  bool translateWarpSpecialize(Op *op);
  bool barrier(Op *op);

  llvm::LLVMContext &ctx;
  llvm::Module &module;
  TargetHooks &hooks;
  Diagnostics &diags;
  llvm::IRBuilder<> b;
  llvm::Function *function = nullptr;

private:
  const Op *func_;
  // Inside a region of a th.warp_specialize: its named barrier (1: the consumers', 2: the
  // producer's) of `threads` threads.
  struct Partition {
    unsigned id = 0, threads = 0;
  };
  std::optional<Partition> partition_;
  std::unordered_map<const Value *, llvm::Value *> values_;
};

} // namespace trident::llvmgen
