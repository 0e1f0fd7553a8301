// Rules of pointer arithmetic, bit reinterpretation and memory access:
// tt.addptr, tt.ptr_to_int, tt.int_to_ptr, tt.bitcast, tt.load, tt.store,
// tt.atomic_rmw and tt.atomic_cas.

#include "OpChecker.h"

#include "trident/ir/Verifier.h"

namespace trident::verifier {

namespace {

bool expectPointerLike(OpChecker &c, Type t, std::string_view what) {
  if (t.element().isPtr())
    return true;
  c.error(std::string(what) + " must have pointer elements, got " + t.str());
  return false;
}

// The mask, operand `i` when present, must have i1 elements in the shape of `shapeOf`.
void checkMask(OpChecker &c, unsigned i, Type shapeOf) {
  if (c.op()->numOperands() <= i)
    return;
  Type mask = c.operand(i);
  if (mask != shapeOf.withElement(Type::i1()))
    c.error("mask type must be " + shapeOf.withElement(Type::i1()).str() + ", got " + mask.str());
}

// The type a memory op reads or writes through `ptr`: its pointees in its shape.
Type accessType(Type ptr) { return ptr.withElement(ptr.element().pointee()); }

void checkCacheAttrs(OpChecker &c, bool isLoad) {
  if (isLoad)
    c.stringAttr("cache", false, {"", "ca", "cg", "cv"});
  else
    c.stringAttr("cache", false, {"", "wb", "cg", "cs", "wt"});
  c.stringAttr("eviction", false, {"", "evict_normal", "evict_first", "evict_last"});
}

void checkAtomicOrdering(OpChecker &c) {
  c.stringAttr("sem", false, {"relaxed", "acquire", "release", "acq_rel"});
  c.stringAttr("scope", false, {"gpu", "cta", "sys"});
}

void verifyAddPtr(OpChecker &c) {
  Type ptr = c.operand(0), offset = c.operand(1);
  bool ok = expectPointerLike(c, ptr, "pointer operand");
  ok = c.expectIntegerLike(offset, "offset") && ok;
  if (!ok)
    return;
  if (!sameShape(ptr, offset)) {
    c.error("offset shape must match the pointer shape, got " + ptr.str() + " and " + offset.str());
    return;
  }
  c.expectResultType(0, ptr);
}

void verifyPtrToInt(OpChecker &c) {
  Type in = c.operand(0);
  if (expectPointerLike(c, in, "operand"))
    c.expectResultType(0, in.withElement(Type::i64()));
}

void verifyIntToPtr(OpChecker &c) {
  Type in = c.operand(0), out = c.result();
  if (in.element() != Type::i64()) {
    c.error("operand must have i64 elements, got " + in.str());
    return;
  }
  if (expectPointerLike(c, out, "result") && !sameShape(in, out))
    c.error("result shape must match the operand shape, got " + in.str() + " and " + out.str());
}

void verifyBitcast(OpChecker &c) {
  Type in = c.operand(0), out = c.result();
  if (!sameShape(in, out)) {
    c.error("result shape must match the operand shape, got " + in.str() + " and " + out.str());
    return;
  }
  bool inPtr = in.element().isPtr(), outPtr = out.element().isPtr();
  if (inPtr != outPtr)
    c.error("cannot bitcast between pointers and non-pointers (" + in.str() + " to " + out.str() +
            "), use tt.ptr_to_int or tt.int_to_ptr");
  else if (in.bitWidth() != out.bitWidth())
    c.error("operand and result must have one bit width, got " + in.str() + " and " + out.str());
}

void verifyLoad(OpChecker &c) {
  Type ptr = c.operand(0);
  checkCacheAttrs(c, true);
  c.boolAttr("volatile");
  if (!expectPointerLike(c, ptr, "pointer operand"))
    return;
  checkMask(c, 1, ptr);
  Type loaded = accessType(ptr);
  c.expectResultType(0, loaded);
  if (c.op()->numOperands() > 2 && c.operand(2) != loaded)
    c.error("'other' type must be " + loaded.str() + ", got " + c.operand(2).str());
}

// tt.descriptor_load %base, %shape..., %strides..., %offsets...: a scalar pointer, then
// r i64 sizes, r i64 strides (in elements) and r i32 offsets; the result is a block of
// rank r of the pointee type. `checked` (optional, a mask of dimensions; all when absent)
// says which dimensions are bounds-checked; a load's cache attributes may follow.
void verifyDescriptorLoad(OpChecker &c) {
  c.stringAttr("padding", true, {"zero", "nan"});
  checkCacheAttrs(c, true);
  c.boolAttr("volatile");
  unsigned n = c.op()->numOperands();
  if ((n - 1) % 3 != 0 || n < 4 || n > 16) {
    c.error("expects a base and 1 to 5 sizes, strides and offsets, got " + std::to_string(n) + " operands");
    return;
  }
  unsigned rank = (n - 1) / 3;
  if (std::optional<int64_t> checked = c.intAttr("checked", false); checked && (*checked < 0 || *checked >> rank))
    c.error("'checked' must be a mask of the " + std::to_string(rank) + " dimensions, got " +
            std::to_string(*checked));
  Type base = c.operand(0);
  if (base.isBlock() || !base.isPtr()) {
    c.error("base must be a scalar pointer, got " + base.str());
    return;
  }
  for (unsigned i = 1; i < n; ++i) {
    Type want = i <= 2 * rank ? Type::i64() : Type::i32();
    if (c.operand(i) != want)
      c.error("operand " + std::to_string(i) + " must be " + want.str() + ", got " + c.operand(i).str());
  }
  Type r = c.result();
  if (!r.isBlock() || r.shape().size() != rank || r.element() != base.pointee())
    c.error("result must be a rank-" + std::to_string(rank) + " block of " + base.pointee().str() + ", got " +
            r.str());
}

void verifyStore(OpChecker &c) {
  Type ptr = c.operand(0);
  checkCacheAttrs(c, false);
  if (!expectPointerLike(c, ptr, "pointer operand"))
    return;
  Type stored = accessType(ptr);
  if (c.operand(1) != stored)
    c.error("value type must be " + stored.str() + " to store through " + ptr.str() + ", got " +
            c.operand(1).str());
  checkMask(c, 2, ptr);
}

bool is32Or64(Type t) { return t.bitWidth() == 32 || t.bitWidth() == 64; }

void verifyAtomicRMW(OpChecker &c) {
  Type ptr = c.operand(0);
  std::optional<std::string> kind = c.stringAttr("kind", true, kAtomicRMWKinds);
  checkAtomicOrdering(c);
  if (!expectPointerLike(c, ptr, "pointer operand"))
    return;
  Type accessed = accessType(ptr);
  if (c.operand(1) != accessed) {
    c.error("value type must be " + accessed.str() + " to update through " + ptr.str() + ", got " +
            c.operand(1).str());
    return;
  }
  checkMask(c, 2, ptr);
  c.expectResultType(0, accessed);
  if (!kind)
    return;
  Type e = accessed.element();
  if (!atomicKindSupports(*kind, e))
    c.error("kind \"" + *kind + "\" does not support " + e.str() + " elements");
}

void verifyAtomicCAS(OpChecker &c) {
  Type ptr = c.operand(0);
  checkAtomicOrdering(c);
  if (!expectPointerLike(c, ptr, "pointer operand"))
    return;
  Type accessed = accessType(ptr);
  if (c.operand(1) != accessed || c.operand(2) != accessed) {
    c.error("compare and value types must be " + accessed.str() + " to update through " + ptr.str() +
            ", got " + c.operand(1).str() + " and " + c.operand(2).str());
    return;
  }
  c.expectResultType(0, accessed);
  Type e = accessed.element();
  if (e.isPtr() || (e.bitWidth() != 16 && !is32Or64(e)))
    c.error("does not support " + e.str() + " elements (16-, 32- or 64-bit integers and floats only)");
}

} // namespace

void verifyMemoryOp(OpChecker &c) {
  switch (c.op()->code()) {
  case OpCode::AddPtr: return verifyAddPtr(c);
  case OpCode::PtrToInt: return verifyPtrToInt(c);
  case OpCode::IntToPtr: return verifyIntToPtr(c);
  case OpCode::Bitcast: return verifyBitcast(c);
  case OpCode::Load: return verifyLoad(c);
  case OpCode::DescriptorLoad: return verifyDescriptorLoad(c);
  case OpCode::Store: return verifyStore(c);
  case OpCode::AtomicRMW: return verifyAtomicRMW(c);
  case OpCode::AtomicCAS: return verifyAtomicCAS(c);
  default: return;
  }
}

} // namespace trident::verifier

namespace trident {

bool atomicKindSupports(std::string_view kind, Type e) {
  bool wide = verifier::is32Or64(e);
  if (kind == "fadd")
    return e == Type::f16() || e == Type::f32() || e == Type::f64();
  if (kind == "xchg")
    return (e.isInteger() || e.isFloat()) && wide;
  return e.isInteger() && wide;
}

} // namespace trident
