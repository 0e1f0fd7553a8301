// Cache hints on global loads and stores. LLVM 19 has no NVPTX intrinsic for PTX's
// cache operators or eviction priorities, so a hinted access is one inline-asm
// instruction on 32-bit words (16-bit and 8-bit for narrow scalars), e.g.
//
//   th.load %p {cache = "cg"} : vector<4xf32>
// ->
//   ld.global.cg.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];
//
// A masked store is one predicated instruction (@p st.global ...), hinted or not; a
// masked load stays the translation's branch around the access. PTX takes either a
// cache operator or an L1 eviction priority on one instruction, not both: the cache
// operator wins (it decides whether L1 is used at all); evict_normal is the default
// and adds nothing.
#include "NVPTXHooks.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <span>

namespace trident::nvptx {

namespace {

// ".cg", ".L1::evict_last" ...: the qualifier for `hints`, or nullopt when none applies.
std::optional<std::string> qualifier(const llvmgen::CacheHints &hints, bool isLoad) {
  static const char *const loadOps[] = {"ca", "cg", "cs", "lu", "cv"};
  static const char *const storeOps[] = {"wb", "cg", "cs", "wt"};
  for (const char *op : isLoad ? std::span<const char *const>(loadOps) : std::span<const char *const>(storeOps))
    if (hints.cache == op)
      return "." + hints.cache;
  if (hints.eviction == "evict_first" || hints.eviction == "evict_last")
    return ".L1::" + hints.eviction;
  return std::nullopt;
}

// How an access of `bytes` moves through registers: the PTX type, the vector
// suffix, how many registers, their LLVM type and inline-asm constraint letter.
struct Words {
  const char *ptxType;
  const char *vector;
  unsigned count;
  unsigned bits;
  char constraint;
};

std::optional<Words> wordsFor(uint64_t bytes) {
  switch (bytes) {
  case 1: return Words{"u8", "", 1, 16, 'h'}; // a byte moves in a 16-bit register
  case 2: return Words{"b16", "", 1, 16, 'h'};
  case 4: return Words{"b32", "", 1, 32, 'r'};
  case 8: return Words{"b64", "", 1, 64, 'l'};
  case 16: return Words{"b32", ".v4", 4, 32, 'r'};
  default: return std::nullopt;
  }
}

bool holdsPointers(llvm::Type *t) { return t->getScalarType()->isPointerTy(); }

std::string registerList(unsigned first, unsigned count) {
  std::string s = count > 1 ? "{" : "";
  for (unsigned i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + (count > 1 ? "}" : "");
}

} // namespace

llvm::Value *NVPTXHooks::cachedLoad(llvm::IRBuilder<> &b, llvm::Type *type, llvm::Value *ptr, llvm::Align,
                                    const llvmgen::CacheHints &hints) {
  std::optional<std::string> q = qualifier(hints, true);
  const llvm::DataLayout &dl = b.GetInsertBlock()->getModule()->getDataLayout();
  std::optional<Words> w = wordsFor(dl.getTypeStoreSize(type));
  if (!q || !w || holdsPointers(type))
    return nullptr;
  llvm::Type *word = b.getIntNTy(w->bits);
  std::string constraints;
  for (unsigned i = 0; i < w->count; ++i)
    constraints += std::string("=") + w->constraint + ",";
  constraints += "l";
  llvm::Type *resultType = w->count == 1 ? word : llvm::StructType::get(b.getContext(),
                                                                        std::vector<llvm::Type *>(w->count, word));
  std::string text = "ld.global" + *q + w->vector + "." + w->ptxType + " " + registerList(0, w->count) + ", [$" +
                     std::to_string(w->count) + "];";
  auto *fnType = llvm::FunctionType::get(resultType, {ptr->getType()}, false);
  llvm::CallInst *call = b.CreateCall(llvm::InlineAsm::get(fnType, text, constraints, /*hasSideEffects=*/false), {ptr});
  call->setOnlyReadsMemory(); // may move among loads, never across a store or barrier
  llvm::Value *bits;
  if (w->count == 1) {
    bits = dl.getTypeStoreSize(type) == 1 ? b.CreateTrunc(call, b.getInt8Ty()) : static_cast<llvm::Value *>(call);
  } else {
    bits = llvm::PoisonValue::get(llvm::FixedVectorType::get(word, w->count));
    for (unsigned i = 0; i < w->count; ++i)
      bits = b.CreateInsertElement(bits, b.CreateExtractValue(call, i), b.getInt32(i));
  }
  return b.CreateBitCast(bits, type);
}

bool NVPTXHooks::cachedStore(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *ptr, llvm::Align,
                             const llvmgen::CacheHints &hints, llvm::Value *pred) {
  llvm::Type *type = value->getType();
  std::optional<std::string> q = hints.empty() ? std::optional<std::string>("") : qualifier(hints, false);
  const llvm::DataLayout &dl = b.GetInsertBlock()->getModule()->getDataLayout();
  uint64_t bytes = dl.getTypeStoreSize(type);
  std::optional<Words> w = wordsFor(bytes);
  if (!q || !w || holdsPointers(type) || (q->empty() && !pred))
    return false;
  llvm::Type *word = b.getIntNTy(w->bits);
  std::vector<llvm::Value *> operands = {ptr};
  std::vector<llvm::Type *> operandTypes = {ptr->getType()};
  std::string constraints = "l";
  if (w->count == 1) {
    llvm::Value *bits = b.CreateBitCast(value, b.getIntNTy(static_cast<unsigned>(bytes * 8)));
    operands.push_back(bytes == 1 ? b.CreateZExt(bits, word) : bits);
  } else {
    llvm::Value *words = b.CreateBitCast(value, llvm::FixedVectorType::get(word, w->count));
    for (unsigned i = 0; i < w->count; ++i)
      operands.push_back(b.CreateExtractElement(words, b.getInt32(i)));
  }
  for (unsigned i = 0; i < w->count; ++i) {
    operandTypes.push_back(word);
    constraints += std::string(",") + w->constraint;
  }
  std::string text =
      "st.global" + *q + w->vector + "." + w->ptxType + " [$0], " + registerList(1, w->count) + ";";
  if (pred) {
    // "@p st.global ...": the predicate from an i1 operand, inside a scope of its own.
    std::string p = "$" + std::to_string(w->count + 1);
    text = "{\n.reg .pred p;\nsetp.ne.b16 p, " + p + ", 0;\n@p " + text + "\n}";
    operands.push_back(b.CreateZExt(pred, b.getInt16Ty()));
    operandTypes.push_back(b.getInt16Ty());
    constraints += ",h";
  }
  constraints += ",~{memory}";
  auto *fnType = llvm::FunctionType::get(b.getVoidTy(), operandTypes, false);
  b.CreateCall(llvm::InlineAsm::get(fnType, text, constraints, /*hasSideEffects=*/true), operands);
  return true;
}

} // namespace trident::nvptx
