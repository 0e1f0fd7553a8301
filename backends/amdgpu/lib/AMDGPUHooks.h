#pragma once
// Internal to backends/amdgpu: how the shared LLVM translation reaches AMD's work-item
// ids, barriers, cross-lane moves (DPP, ds_swizzle, permlanex16, ds_bpermute),
// ocml/ockl functions, kernel attributes and matrix units (MFMA, WMMA).

#include "trident/backends/llvm/Target.h"

#include <string>

namespace trident::amdgpu {

class AMDGPUHooks : public llvmgen::TargetHooks {
public:
  explicit AMDGPUHooks(std::string arch);

  std::string_view triple() const override { return "amdgcn-amd-amdhsa"; }
  // tl.inline_asm_elementwise: AMDGPU assembly (VGPR constraints "v", SGPR "s"), which
  // LLVM's integrated assembler checks when the code object is made (emitFile).
  std::string_view inlineAsmLanguage() const override { return "AMDGPU"; }
  unsigned warpSize() const override { return waveSize_; }
  llvm::Value *threadId(llvm::IRBuilder<> &b) override;
  llvm::Value *programId(llvm::IRBuilder<> &b, int axis) override;
  llvm::Value *numPrograms(llvm::IRBuilder<> &b, int axis) override;
  void barrier(llvm::IRBuilder<> &b) override;
  llvm::Value *shuffle(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *lane,
                       std::string_view mode) override;
  llvm::Value *mathFunction(llvm::IRBuilder<> &b, OpCode code, llvm::ArrayRef<llvm::Value *> args) override;
  // Plain loads and stores marked !nontemporal for streaming hints (the slc/nt bits).
  llvm::Value *cachedLoad(llvm::IRBuilder<> &b, llvm::Type *type, llvm::Value *ptr, llvm::Align align,
                          const llvmgen::CacheHints &hints) override;
  bool cachedStore(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *ptr, llvm::Align align,
                   const llvmgen::CacheHints &hints, llvm::Value *pred) override;
  // A failed assertion traps (s_trap): without the device libraries' hostcall buffer the
  // message cannot be printed; printf is refused (the default hook) for the same reason.
  bool assertFail(llvm::IRBuilder<> &b, std::string_view message, std::string_view file, unsigned line,
                  std::string_view function) override;
  void markKernel(llvm::Function *f, unsigned numThreads) override;
  // th.mma on MFMA (gfx9) and WMMA (gfx11) atoms: llvm.amdgcn.mfma.* / wmma.* (AMDGPUMatrix.cpp).
  bool matrixFragments(std::string_view atom, unsigned &a, unsigned &b, unsigned &c) const override;
  std::vector<llvm::Value *> matrixMultiply(llvm::IRBuilder<> &b, std::string_view atom,
                                            llvm::ArrayRef<llvm::Value *> a, llvm::ArrayRef<llvm::Value *> bv,
                                            llvm::ArrayRef<llvm::Value *> c) override;

  // "amdgpu-waves-per-eu" for every kernel marked after this (0: leave it to LLVM).
  void setWavesPerEU(unsigned waves) { wavesPerEU_ = waves; }

private:
  // value of lane (lane ^ mask), through the cheapest instruction the architecture has.
  llvm::Value *xorShuffle(llvm::IRBuilder<> &b, llvm::Value *value, uint64_t mask);
  // value of lane `source` (any lane of the wave), through ds_bpermute_b32.
  llvm::Value *permute(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *source);
  // One DPP move within rows of 16 lanes (dpp_ctrl as the ISA encodes it).
  llvm::Value *dpp(llvm::IRBuilder<> &b, llvm::Value *value, unsigned control);

  std::string arch_;
  unsigned waveSize_;
  bool rdna_; // gfx10+: row_xmask DPP and v_permlanex16
  unsigned wavesPerEU_ = 0;
};

} // namespace trident::amdgpu
