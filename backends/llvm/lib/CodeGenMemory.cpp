// Memory: predicated, vectorized global loads and stores, atomics, and shared
// memory (one dynamic array of bytes; each th.shared_alloc is an offset into it).
#include "Translator.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

namespace trident::llvmgen {

namespace {

// Bytes of one access of type `t` (a scalar or vector); i1 lives in memory as a byte.
uint64_t accessBytes(Type t) {
  uint64_t elementBits = std::max(8u, t.element().bitWidth());
  return elementBits / 8 * static_cast<uint64_t>(t.numElements());
}

llvm::AtomicOrdering ordering(const Op *op) {
  const Attribute &sem = op->attr("sem");
  std::string s = sem.isString() ? sem.getString() : "acq_rel";
  if (s == "relaxed")
    return llvm::AtomicOrdering::Monotonic;
  if (s == "acquire")
    return llvm::AtomicOrdering::Acquire;
  if (s == "release")
    return llvm::AtomicOrdering::Release;
  return llvm::AtomicOrdering::AcquireRelease;
}

// Triton's `scope` of an atomic: "gpu" (the default), "cta" or "sys".
std::string scope(const Op *op) {
  const Attribute &a = op->attr("scope");
  return a.isString() ? a.getString() : "gpu";
}

std::optional<llvm::AtomicRMWInst::BinOp> rmwKind(const std::string &kind) {
  using K = llvm::AtomicRMWInst::BinOp;
  if (kind == "add")
    return K::Add;
  if (kind == "fadd")
    return K::FAdd;
  if (kind == "and")
    return K::And;
  if (kind == "or")
    return K::Or;
  if (kind == "xor")
    return K::Xor;
  if (kind == "max")
    return K::Max;
  if (kind == "min")
    return K::Min;
  if (kind == "umax")
    return K::UMax;
  if (kind == "umin")
    return K::UMin;
  if (kind == "xchg")
    return K::Xchg;
  return std::nullopt;
}

CacheHints cacheHints(const Op *op) {
  CacheHints hints;
  if (const Attribute &c = op->attr("cache"); c.isString())
    hints.cache = c.getString();
  if (const Attribute &e = op->attr("eviction"); e.isString())
    hints.eviction = e.getString();
  return hints;
}

} // namespace

bool Translator::translateMemory(Op *op) {
  auto x = [&](unsigned i) { return value(op->operand(i)); };
  auto optional = [&](unsigned i) { return op->numOperands() > i ? x(i) : nullptr; };
  switch (op->code()) {
  case OpCode::ThLoad: {
    Type t = op->result()->type();
    bool isBool = t == Type::i1();
    llvm::Type *memType = isBool ? b.getInt8Ty() : type(t);
    bool isVolatile = op->attr("volatile").isBool() && op->attr("volatile").getBool();
    llvm::Value *ptr = x(0);
    CacheHints hints = cacheHints(op);
    llvm::Align align(accessBytes(t));
    llvm::Value *loaded = predicated(
        optional(1),
        [&]() -> llvm::Value * {
          // Volatile loads take no cache hints (PTX has no ld.volatile with a cache operator).
          llvm::Value *v = !isVolatile && !hints.empty() ? hooks.cachedLoad(b, memType, ptr, align, hints) : nullptr;
          if (!v)
            v = b.CreateAlignedLoad(memType, ptr, align, isVolatile);
          return isBool ? b.CreateICmpNE(v, b.getInt8(0)) : v;
        },
        optional(2), type(t));
    define(op->result(), loaded);
    return true;
  }
  case OpCode::ThStore: {
    Type t = op->operand(1)->type();
    llvm::Value *v = x(1);
    if (t == Type::i1())
      v = b.CreateZExt(v, b.getInt8Ty());
    llvm::Value *ptr = x(0);
    CacheHints hints = cacheHints(op);
    llvm::Align align(accessBytes(t));
    // A masked store as one predicated instruction where the target has it: no branch
    // for LLVM to sink the stored value's computation into.
    if (llvm::Value *pred = optional(2); pred && hooks.cachedStore(b, v, ptr, align, hints, pred))
      return true;
    predicated(
        optional(2),
        [&]() -> llvm::Value * {
          if (hints.empty() || !hooks.cachedStore(b, v, ptr, align, hints, nullptr))
            b.CreateAlignedStore(v, ptr, align);
          return nullptr;
        },
        nullptr, nullptr);
    return true;
  }
  case OpCode::ThAtomicRMW: {
    auto kind = rmwKind(op->stringAttr("kind"));
    if (!kind)
      return error(op, "th.atomic_rmw kind '" + op->stringAttr("kind") +
                           "' is not supported by the LLVM backend");
    Type t = op->result()->type();
    llvm::Value *v = x(1);
    // Exchanges of floats go through the integer of their width.
    bool viaInt = *kind == llvm::AtomicRMWInst::Xchg && t.isFloat();
    llvm::Type *opType = viaInt ? b.getIntNTy(t.bitWidth()) : type(t);
    if (viaInt)
      v = b.CreateBitCast(v, opType);
    llvm::Value *ptr = x(0);
    // The fences (where the target needs them) only where the atomic runs.
    llvm::Value *old = predicated(
        optional(2),
        [&]() -> llvm::Value * {
          hooks.atomicFence(b, ordering(op), scope(op), true);
          llvm::Value *result = b.CreateAtomicRMW(*kind, ptr, v, llvm::MaybeAlign(t.bitWidth() / 8), ordering(op));
          hooks.atomicFence(b, ordering(op), scope(op), false);
          return result;
        },
        nullptr, opType);
    define(op->result(), viaInt ? b.CreateBitCast(old, type(t)) : old);
    return true;
  }
  case OpCode::ThAtomicCAS: {
    Type t = op->result()->type();
    llvm::Type *intType = b.getIntNTy(t.bitWidth());
    llvm::Value *cmp = b.CreateBitCast(x(1), intType), *v = b.CreateBitCast(x(2), intType);
    llvm::AtomicOrdering success = ordering(op);
    llvm::AtomicOrdering failure = success == llvm::AtomicOrdering::Release ? llvm::AtomicOrdering::Monotonic
                                   : success == llvm::AtomicOrdering::AcquireRelease
                                       ? llvm::AtomicOrdering::Acquire
                                       : success;
    llvm::Value *ptr = x(0);
    llvm::Value *old = predicated(
        optional(3),
        [&]() -> llvm::Value * {
          hooks.atomicFence(b, success, scope(op), true);
          llvm::Value *pair =
              b.CreateAtomicCmpXchg(ptr, cmp, v, llvm::MaybeAlign(t.bitWidth() / 8), success, failure);
          hooks.atomicFence(b, success, scope(op), false);
          return b.CreateExtractValue(pair, 0);
        },
        nullptr, intType);
    define(op->result(), b.CreateBitCast(old, type(t)));
    return true;
  }
  case OpCode::ThSharedAlloc: {
    llvm::Value *shared = hooks.sharedMemory(b);
    if (!shared)
      shared = module.getGlobalVariable(kSharedMemoryName, true);
    if (!shared) {
      auto *arrayType = llvm::ArrayType::get(b.getInt8Ty(), 0);
      auto *global = new llvm::GlobalVariable(module, arrayType, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                              kSharedMemoryName, nullptr, llvm::GlobalValue::NotThreadLocal,
                                              hooks.sharedAddressSpace());
      // 1024: swizzled tiles (th.shared_alloc's `align`) rely on the address bits.
      global->setAlignment(llvm::Align(1024));
      shared = global;
    }
    int64_t offset = op->intAttr("offset");
    if (offset < 0)
      return error(op, "th.shared_alloc has no offset: shared memory was not allocated");
    define(op->result(), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), shared, static_cast<uint64_t>(offset)));
    return true;
  }
  case OpCode::ThLoadShared: {
    Type t = op->result()->type();
    llvm::Type *element = type(op->operand(0)->type().pointee());
    llvm::Value *address = b.CreateInBoundsGEP(element, x(0), x(1));
    define(op->result(), b.CreateAlignedLoad(type(t), address, llvm::Align(accessBytes(t))));
    return true;
  }
  case OpCode::ThStoreShared: {
    Type t = op->operand(2)->type();
    llvm::Type *element = type(op->operand(0)->type().pointee());
    llvm::Value *address = b.CreateInBoundsGEP(element, x(0), x(1));
    llvm::Value *v = x(2);
    predicated(
        optional(3),
        [&]() -> llvm::Value * {
          b.CreateAlignedStore(v, address, llvm::Align(accessBytes(t)));
          return nullptr;
        },
        nullptr, nullptr);
    return true;
  }
  default: return error(op, std::string(op->name()) + " is not a memory op");
  }
}

bool Translator::translateThreadOp(Op *op) {
  llvm::Value *r = nullptr;
  switch (op->code()) {
  case OpCode::ThThreadId: r = hooks.threadId(b); break;
  case OpCode::ThLaneId: r = hooks.laneId(b); break;
  case OpCode::ThWarpId: r = hooks.warpId(b); break;
  case OpCode::GetProgramId: r = hooks.programId(b, static_cast<int>(op->intAttr("axis"))); break;
  case OpCode::GetNumPrograms: r = hooks.numPrograms(b, static_cast<int>(op->intAttr("axis"))); break;
  case OpCode::ThBarrier: return barrier(op);
  case OpCode::ThPack: {
    r = llvm::PoisonValue::get(type(op->result()->type()));
    for (unsigned i = 0; i < op->numOperands(); ++i)
      r = b.CreateInsertElement(r, value(op->operand(i)), b.getInt32(i));
    break;
  }
  case OpCode::ThExtract:
    r = b.CreateExtractElement(value(op->operand(0)),
                               b.getInt32(static_cast<uint32_t>(op->intAttr("index"))));
    break;
  case OpCode::ThShuffle: {
    // Shuffles move 32-bit words: narrower values widen, 64-bit ones move as two words.
    Type t = op->result()->type();
    std::string mode = op->stringAttr("mode");
    llvm::Value *v = value(op->operand(0)), *lane = value(op->operand(1));
    unsigned bits = t.bitWidth();
    llvm::Type *intType = b.getIntNTy(bits);
    llvm::Value *asInt = t.isPtr() ? b.CreatePtrToInt(v, intType) : b.CreateBitCast(v, intType);
    llvm::Value *moved;
    if (bits <= 32) {
      llvm::Value *word = bits < 32 ? b.CreateZExt(asInt, b.getInt32Ty()) : asInt;
      llvm::Value *w = hooks.shuffle(b, word, lane, mode);
      moved = bits < 32 ? b.CreateTrunc(w, intType) : w;
    } else {
      llvm::Value *lo = b.CreateTrunc(asInt, b.getInt32Ty());
      llvm::Value *hi = b.CreateTrunc(b.CreateLShr(asInt, 32), b.getInt32Ty());
      lo = b.CreateZExt(hooks.shuffle(b, lo, lane, mode), intType);
      hi = b.CreateZExt(hooks.shuffle(b, hi, lane, mode), intType);
      moved = b.CreateOr(lo, b.CreateShl(hi, 32));
    }
    r = t.isPtr() ? b.CreateIntToPtr(moved, type(t)) : b.CreateBitCast(moved, type(t));
    break;
  }
  default: return error(op, std::string(op->name()) + " is not a thread op");
  }
  define(op->result(), r);
  return true;
}

} // namespace trident::llvmgen
