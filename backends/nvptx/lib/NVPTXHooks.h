#pragma once
// Internal to backends/nvptx: how the shared LLVM translation reaches NVIDIA's
// special registers, barriers, shuffles, libdevice math and kernel annotations.

#include "trident/backends/llvm/Target.h"

#include <llvm/IR/GlobalVariable.h>

#include <map>
#include <string>

namespace trident::nvptx {

class NVPTXHooks : public llvmgen::TargetHooks {
public:
  // Whether warpId() reads the id through a lane-0 shuffle (see NVPTXHooks.cpp).
  explicit NVPTXHooks(bool uniformWarpId = false) : uniformWarpId_(uniformWarpId) {}
  std::string_view triple() const override { return "nvptx64-nvidia-cuda"; }
  unsigned warpSize() const override { return 32; }
  std::string_view inlineAsmLanguage() const override { return "PTX"; }
  llvm::Value *threadId(llvm::IRBuilder<> &b) override;
  llvm::Value *warpId(llvm::IRBuilder<> &b) override;
  llvm::Value *programId(llvm::IRBuilder<> &b, int axis) override;
  llvm::Value *numPrograms(llvm::IRBuilder<> &b, int axis) override;
  void barrier(llvm::IRBuilder<> &b) override;
  bool atomicFence(llvm::IRBuilder<> &b, llvm::AtomicOrdering ordering, std::string_view scope,
                   bool before) override;
  llvm::Value *shuffle(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *lane,
                       std::string_view mode) override;
  llvm::Value *mathFunction(llvm::IRBuilder<> &b, OpCode code, llvm::ArrayRef<llvm::Value *> args) override;
  llvm::Value *approximateDivide(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) override;
  // ld.global / st.global with a cache operator or L1 eviction priority (NVPTXCacheHints.cpp).
  llvm::Value *cachedLoad(llvm::IRBuilder<> &b, llvm::Type *type, llvm::Value *ptr, llvm::Align align,
                          const llvmgen::CacheHints &hints) override;
  bool cachedStore(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *ptr, llvm::Align align,
                   const llvmgen::CacheHints &hints, llvm::Value *pred) override;
  // vprintf and __assertfail, the CUDA driver's device functions (NVPTXDebug.cpp).
  bool printf(llvm::IRBuilder<> &b, std::string_view format, llvm::ArrayRef<llvm::Value *> args) override;
  bool assertFail(llvm::IRBuilder<> &b, std::string_view message, std::string_view file, unsigned line,
                  std::string_view function) override;
  // mma.sync, ldmatrix and cp.async as inline PTX (NVPTXMatrix.cpp).
  std::vector<llvm::Value *> matrixMultiply(llvm::IRBuilder<> &b, std::string_view atom,
                                            llvm::ArrayRef<llvm::Value *> a, llvm::ArrayRef<llvm::Value *> bv,
                                            llvm::ArrayRef<llvm::Value *> c) override;
  llvm::Value *loadMatrix(llvm::IRBuilder<> &b, llvm::Value *address, unsigned count, bool trans,
                          llvm::Type *type) override;
  bool asyncCopy(llvm::IRBuilder<> &b, llvm::Value *destination, llvm::Value *source, unsigned bytes,
                 llvm::Value *pred) override;
  bool asyncCommit(llvm::IRBuilder<> &b) override;
  bool asyncWait(llvm::IRBuilder<> &b, unsigned pending) override;
  bool barrierInit(llvm::IRBuilder<> &b, llvm::Value *barrier, unsigned count, llvm::Value *pred) override;
  bool asyncArrive(llvm::IRBuilder<> &b, llvm::Value *barrier) override;
  bool barrierWait(llvm::IRBuilder<> &b, llvm::Value *barrier, llvm::Value *parity) override;
  bool tensorArrive(llvm::IRBuilder<> &b, llvm::Value *barrier, llvm::Value *bytes, llvm::Value *pred) override;
  bool barrierArrive(llvm::IRBuilder<> &b, llvm::Value *barrier, llvm::Value *pred) override;
  bool partitionBarrier(llvm::IRBuilder<> &b, unsigned id, unsigned threads) override;
  bool setMaxRegisters(llvm::IRBuilder<> &b, unsigned count, bool increase) override;
  bool tensorCopy(llvm::IRBuilder<> &b, llvm::Value *destination, llvm::Value *map, llvm::Value *barrier,
                  llvm::Value *pred, llvm::ArrayRef<llvm::Value *> coords) override;
  // wgmma.mma_async (sm_90a) and its fence, commit and wait; fence.proxy.async.
  std::vector<llvm::Value *> warpgroupMultiply(llvm::IRBuilder<> &b, std::string_view atom, const MatrixTile *aTile,
                                               llvm::ArrayRef<llvm::Value *> aRegisters, const MatrixTile &bTile,
                                               llvm::ArrayRef<llvm::Value *> c) override;
  std::vector<llvm::Value *> warpgroupFence(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> values) override;
  bool warpgroupCommit(llvm::IRBuilder<> &b) override;
  std::vector<llvm::Value *> warpgroupWait(llvm::IRBuilder<> &b, unsigned pending,
                                           llvm::ArrayRef<llvm::Value *> values) override;
  bool fenceAsyncShared(llvm::IRBuilder<> &b) override;
  void markKernel(llvm::Function *f, unsigned numThreads) override;

private:
  bool uniformWarpId_;
  llvm::Value *globalString(llvm::IRBuilder<> &b, std::string_view text, const char *name);
  std::map<std::string, llvm::GlobalVariable *> strings_; // of the module being translated
};

// Vectors of f16/bf16 lanes converted from f32 one lane at a time become paired
// `cvt.rn.f16x2.f32` conversions (NVPTXPack.cpp). Runs before LLVM's optimizer, which
// would otherwise move single conversions apart (into both sides of a branch, say).
void pairNarrowingConversions(llvm::Module &m);

} // namespace trident::nvptx
