#pragma once
// The thread-IR -> LLVM IR hooks (backends/llvm) for the host CPU. Every kernel gets
// seven parameters after its own: the program id (x, y, z), the grid (x, y, z) and the
// program's shared memory; the thread is the only one of its program, so barriers are
// nothing and a shuffle reads the thread's own value. Assertions call back into the
// plugin (kAssertFailSymbol) and end the program; so do failed bounds checks in the
// debug mode (CpuChecks.h), which reach the hooks as th.printf with a marked format.

#include "trident/backends/llvm/Target.h"

namespace trident::cpu {

struct CheckSite;

inline constexpr unsigned kExtraParameters = 7;
// void (const char *message, const char *file, unsigned line, const char *function)
inline constexpr const char *kAssertFailSymbol = "trident_cpu_assert_fail";

class CpuHooks : public llvmgen::TargetHooks {
public:
  explicit CpuHooks(std::string triple) : triple_(std::move(triple)) {}

  std::string_view triple() const override { return triple_; }
  unsigned globalAddressSpace() const override { return 0; }
  unsigned sharedAddressSpace() const override { return 0; }
  unsigned warpSize() const override { return 1; }
  llvm::Value *threadId(llvm::IRBuilder<> &b) override { return b.getInt32(0); }
  llvm::Value *laneId(llvm::IRBuilder<> &b) override { return b.getInt32(0); }
  llvm::Value *warpId(llvm::IRBuilder<> &b) override { return b.getInt32(0); }
  llvm::Value *programId(llvm::IRBuilder<> &b, int axis) override { return extra(b, unsigned(axis)); }
  llvm::Value *numPrograms(llvm::IRBuilder<> &b, int axis) override { return extra(b, 3 + unsigned(axis)); }
  void barrier(llvm::IRBuilder<> &) override {}
  llvm::Value *shuffle(llvm::IRBuilder<> &, llvm::Value *value, llvm::Value *, std::string_view) override {
    return value; // one lane: idx 0 and xor 0 read it, up and down fall outside the warp
  }
  // The C library's erf; the rest are LLVM's intrinsics (inline code or libm calls).
  llvm::Value *mathFunction(llvm::IRBuilder<> &b, OpCode code, llvm::ArrayRef<llvm::Value *> args) override;
  bool printf(llvm::IRBuilder<> &b, std::string_view format, llvm::ArrayRef<llvm::Value *> args) override;
  bool assertFail(llvm::IRBuilder<> &b, std::string_view message, std::string_view file, unsigned line,
                  std::string_view function) override;
  std::vector<llvm::Type *> extraParameters(llvm::LLVMContext &ctx) override;
  llvm::Value *sharedMemory(llvm::IRBuilder<> &b) override { return extra(b, 6); }
  void markKernel(llvm::Function *f, unsigned numThreads) override;
  bool coopMatricesInOneThread() const override { return true; } // a dot's register tiles (CpuTarget.cpp)

private:
  llvm::Value *extra(llvm::IRBuilder<> &b, unsigned i);
  // A bounds check (CpuChecks.h) of `address`, from the th.printf that carries it.
  void boundsCheck(llvm::IRBuilder<> &b, const CheckSite &site, llvm::Value *address);
  std::string triple_;
};

} // namespace trident::cpu
