#include "BF16Moves.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace trident::cpu {

namespace {

bool isBF16(llvm::Type *t) { return t->getScalarType()->isBFloatTy(); }

// bfloat -> i16, <N x bfloat> -> <N x i16>.
llvm::Type *bitsType(llvm::Type *t) {
  llvm::Type *i16 = llvm::Type::getInt16Ty(t->getContext());
  if (auto *v = llvm::dyn_cast<llvm::VectorType>(t))
    return llvm::VectorType::get(i16, v->getElementCount());
  return i16;
}

// The masked memory intrinsics the vectorizer makes of a thread loop's masked accesses.
// `data`: the operand that is the stored value or the pass-through.
std::optional<unsigned> maskedData(llvm::Instruction *i) {
  auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(i);
  if (!call)
    return std::nullopt;
  switch (call->getIntrinsicID()) {
  case llvm::Intrinsic::masked_load:
  case llvm::Intrinsic::masked_gather: return 3;
  case llvm::Intrinsic::masked_store:
  case llvm::Intrinsic::masked_scatter: return 0;
  default: return std::nullopt;
  }
}

// A bf16 value that only moves bits: its i16 form is the same instruction on i16.
bool isMove(llvm::Instruction *i) {
  if (!isBF16(i->getType()))
    return false;
  if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(i))
    return cast->getSrcTy() == bitsType(i->getType());
  return llvm::isa<llvm::LoadInst, llvm::PHINode, llvm::SelectInst, llvm::ExtractElementInst,
                   llvm::InsertElementInst, llvm::ShuffleVectorInst, llvm::FreezeInst>(i) ||
         maskedData(i);
}

// A store of a bf16 value: it stores the i16 form instead.
bool isBF16Store(llvm::Instruction *i) {
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(i))
    return isBF16(store->getValueOperand()->getType());
  std::optional<unsigned> data = maskedData(i);
  return data && *data == 0 && isBF16(i->getOperand(0)->getType());
}

class Rewriter {
public:
  explicit Rewriter(llvm::Function &f) : f_(f) {}

  void run() {
    llvm::SmallVector<llvm::Instruction *> moves, stores;
    for (llvm::BasicBlock &b : f_)
      for (llvm::Instruction &i : b) {
        if (isMove(&i))
          moves.push_back(&i);
        else if (isBF16Store(&i))
          stores.push_back(&i);
      }
    // The i16 forms first, their operands after: phis make cycles.
    llvm::SmallVector<std::pair<llvm::Instruction *, llvm::Instruction *>> made;
    for (llvm::Instruction *m : moves) {
      if (llvm::isa<llvm::BitCastInst>(m)) {
        bits_[m] = m->getOperand(0);
        continue;
      }
      llvm::Instruction *copy = intrinsicCopy(m);
      if (!copy) {
        copy = m->clone();
        copy->mutateType(bitsType(m->getType()));
        if (llvm::isa<llvm::PHINode, llvm::SelectInst>(copy))
          copy->clearSubclassOptionalData(); // fast-math flags belong to floats
        copy->insertBefore(m);
      }
      copy->setName(m->getName() + ".bits");
      bits_[m] = copy;
      made.push_back({m, copy});
    }
    for (auto [m, copy] : made)
      for (unsigned k = 0; k < copy->getNumOperands(); ++k)
        if (isBF16(copy->getOperand(k)->getType()))
          copy->setOperand(k, bits(copy->getOperand(k)));
    for (llvm::Instruction *s : stores)
      storeBits(s);
    // What computes with a moved value reads it back through a bitcast.
    llvm::SmallVector<llvm::Instruction *> casts;
    for (auto [m, copy] : made) {
      auto *back = new llvm::BitCastInst(copy, m->getType(), m->getName());
      back->insertBefore(insertionPointAfter(copy));
      m->replaceAllUsesWith(back);
      casts.push_back(back);
    }
    for (auto [m, copy] : made)
      m->eraseFromParent();
    for (llvm::Instruction *c : casts)
      if (c->use_empty())
        c->eraseFromParent();
  }

private:
  // The masked intrinsics are redeclared on i16 elements (their overloaded type); the
  // stored value or pass-through becomes the i16 form in the operand pass.
  llvm::Instruction *intrinsicCopy(llvm::Instruction *m) {
    if (!maskedData(m))
      return nullptr;
    auto *call = llvm::cast<llvm::IntrinsicInst>(m);
    llvm::IRBuilder<> b(m);
    llvm::Type *type = bitsType(m->getType());
    auto align = llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getAlignValue();
    llvm::Value *pass = llvm::PoisonValue::get(type);
    llvm::CallInst *copy =
        call->getIntrinsicID() == llvm::Intrinsic::masked_load
            ? b.CreateMaskedLoad(type, call->getArgOperand(0), align, call->getArgOperand(2), pass)
            : b.CreateMaskedGather(type, call->getArgOperand(0), align, call->getArgOperand(2), pass);
    copy->setOperand(3, call->getArgOperand(3)); // bf16 still: replaced with its bits below
    copy->copyMetadata(*call);
    return copy;
  }

  void storeBits(llvm::Instruction *s) {
    llvm::Value *value = bits(s->getOperand(0));
    auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(s);
    if (!call) {
      s->setOperand(0, value);
      return;
    }
    llvm::IRBuilder<> b(s);
    auto align = llvm::cast<llvm::ConstantInt>(call->getArgOperand(2))->getAlignValue();
    llvm::CallInst *copy =
        call->getIntrinsicID() == llvm::Intrinsic::masked_store
            ? b.CreateMaskedStore(value, call->getArgOperand(1), align, call->getArgOperand(3))
            : b.CreateMaskedScatter(value, call->getArgOperand(1), align, call->getArgOperand(3));
    copy->copyMetadata(*call);
    call->eraseFromParent();
  }

  static llvm::Instruction *insertionPointAfter(llvm::Instruction *i) {
    if (llvm::isa<llvm::PHINode>(i))
      return &*i->getParent()->getFirstInsertionPt();
    return i->getNextNode();
  }

  // The i16 form of a bf16 value: a move's copy, else a bitcast after its definition.
  llvm::Value *bits(llvm::Value *v) {
    if (auto it = bits_.find(v); it != bits_.end())
      return it->second;
    llvm::Type *type = bitsType(v->getType());
    llvm::Value *out;
    if (auto *c = llvm::dyn_cast<llvm::Constant>(v)) {
      out = llvm::ConstantExpr::getBitCast(c, type);
    } else {
      llvm::Instruction *at = llvm::isa<llvm::Argument>(v)
                                  ? &*f_.getEntryBlock().getFirstInsertionPt()
                                  : insertionPointAfter(llvm::cast<llvm::Instruction>(v));
      auto *cast = new llvm::BitCastInst(v, type, v->getName() + ".bits");
      cast->insertBefore(at);
      out = cast;
    }
    bits_[v] = out;
    return out;
  }

  llvm::Function &f_;
  llvm::DenseMap<llvm::Value *, llvm::Value *> bits_;
};

} // namespace

void keepBF16Bits(llvm::Module &m) {
  for (llvm::Function &f : m)
    if (!f.isDeclaration())
      Rewriter(f).run();
}

} // namespace trident::cpu
