// Paired narrowing conversions: a vector of f16 (or bf16) lanes built from f32 values,
//
//   %h0 = fptrunc float %a to half
//   %h1 = fptrunc float %b to half
//   %v  = insertelement <2 x half> (insertelement <2 x half> poison, half %h0, 0), half %h1, 1
//
// becomes one `cvt.rn.f16x2.f32` per pair (llvm.nvvm.ff2f16x2.rn(%b, %a): the first
// argument goes to the high half). Both round to nearest even, so the result is the same
// bit for bit; the code is half the conversions and no separate pack. It matters beyond
// size on sm_90: ptxas serializes every wgmma of a kernel in which scalar conversions read
// wgmma accumulators (its C7514 note), and the stores of a matmul's f16 result are exactly
// that; the paired form does not trigger it.
#include "NVPTXHooks.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace trident::nvptx {

namespace {

// The f32 sources of a vector built lane by lane from poison, each lane an fptrunc of an
// f32; empty when `last` is not such a chain's final insertelement.
std::vector<llvm::Value *> narrowedLanes(llvm::InsertElementInst *last, std::vector<llvm::Instruction *> &chain) {
  auto *type = llvm::cast<llvm::FixedVectorType>(last->getType());
  unsigned n = type->getNumElements();
  std::vector<llvm::Value *> lanes(n, nullptr);
  llvm::Value *v = last;
  while (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(v)) {
    auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
    if (!index || index->getZExtValue() >= n || (insert != last && !insert->hasOneUse()))
      return {};
    uint64_t i = index->getZExtValue();
    if (!lanes[i]) { // a later insert of the same lane wins
      auto *trunc = llvm::dyn_cast<llvm::FPTruncInst>(insert->getOperand(1));
      if (!trunc || !trunc->getSrcTy()->isFloatTy())
        return {};
      lanes[i] = trunc->getOperand(0);
    }
    chain.push_back(insert);
    v = insert->getOperand(0);
  }
  if (!llvm::isa<llvm::PoisonValue>(v) && !llvm::isa<llvm::UndefValue>(v))
    return {};
  for (llvm::Value *lane : lanes)
    if (!lane)
      return {};
  return lanes;
}

bool isPairable(llvm::Type *t) {
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return vt && vt->getNumElements() % 2 == 0 &&
         (vt->getElementType()->isHalfTy() || vt->getElementType()->isBFloatTy());
}

} // namespace

void pairNarrowingConversions(llvm::Module &m) {
  for (llvm::Function &f : m) {
    std::vector<llvm::InsertElementInst *> lasts;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(&i))
          if (isPairable(insert->getType()) &&
              !(insert->hasOneUse() && llvm::isa<llvm::InsertElementInst>(*insert->user_begin())))
            lasts.push_back(insert);
    for (llvm::InsertElementInst *last : lasts) {
      std::vector<llvm::Instruction *> chain;
      std::vector<llvm::Value *> lanes = narrowedLanes(last, chain);
      if (lanes.empty())
        continue;
      auto *type = llvm::cast<llvm::FixedVectorType>(last->getType());
      llvm::IRBuilder<> b(last);
      llvm::Intrinsic::ID id = type->getElementType()->isHalfTy() ? llvm::Intrinsic::nvvm_ff2f16x2_rn
                                                                   : llvm::Intrinsic::nvvm_ff2bf16x2_rn;
      unsigned pairs = type->getNumElements() / 2;
      llvm::Value *result = nullptr;
      if (pairs == 1) {
        result = b.CreateIntrinsic(id, {}, {lanes[1], lanes[0]});
      } else {
        llvm::Value *words = llvm::PoisonValue::get(llvm::FixedVectorType::get(b.getInt32Ty(), pairs));
        for (unsigned p = 0; p < pairs; ++p) {
          llvm::Value *pair = b.CreateIntrinsic(id, {}, {lanes[2 * p + 1], lanes[2 * p]});
          words = b.CreateInsertElement(words, b.CreateBitCast(pair, b.getInt32Ty()), b.getInt32(p));
        }
        result = b.CreateBitCast(words, type);
      }
      last->replaceAllUsesWith(result);
      // The old chain, last insert first, then the conversions nothing else reads.
      for (llvm::Instruction *insert : chain) {
        auto *trunc = llvm::dyn_cast<llvm::Instruction>(insert->getOperand(1));
        insert->eraseFromParent();
        if (trunc && trunc->use_empty())
          trunc->eraseFromParent();
      }
    }
  }
}

} // namespace trident::nvptx
