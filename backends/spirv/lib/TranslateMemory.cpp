// Memory: global loads, stores and atomics through PhysicalStorageBuffer
// pointers made from u64 addresses at each access (Aligned to the access size,
// as Vulkan requires); th.barrier as a workgroup control barrier (shared memory
// is TranslateShared.cpp). Predicated accesses become selection constructs, so a
// masked-off lane never touches its address.
#include "Translator.h"

#include <cstdlib>
#include <cstring>

namespace trident::spirv {

// The memory form of a value and back (only i1 differs: a byte 0 or 1).
uint32_t toMemory(Translator &t, Type element, uint32_t v) {
  if (element != Type::i1())
    return v;
  uint32_t u8 = t.w.intType(8);
  return t.emit(Spv::Select, u8, {v, t.constant(u8, 1), t.constant(u8, 0)});
}
uint32_t fromMemory(Translator &t, Type element, uint32_t v) {
  if (element != Type::i1())
    return v;
  return t.emit(Spv::INotEqual, t.boolType(), {v, t.constant(t.w.intType(8), 0)});
}

Ids splitWords(Translator &t, Type element, uint32_t v, unsigned words) {
  uint32_t mem = t.memoryType(element), u32 = t.u32Type();
  unsigned perWord = 4 / Translator::memoryBytes(element);
  uint32_t piece = t.w.vectorType(mem, perWord);
  Ids out;
  for (unsigned w = 0; w < words; ++w) {
    uint32_t word = v;
    if (words > 1) {
      word = t.emit(Spv::CompositeExtract, u32, {v, w});
      t.notePiece(word, v, w, words);
    }
    uint32_t pieces = t.emit(Spv::Bitcast, piece, {word});
    for (unsigned i = 0; i < perWord; ++i) {
      out.push_back(t.emit(Spv::CompositeExtract, mem, {pieces, i}));
      t.notePiece(out.back(), word, i, perWord);
    }
  }
  return out;
}

uint32_t joinWords(Translator &t, Type element, const Ids &memoryValues) {
  uint32_t mem = t.memoryType(element), u32 = t.u32Type();
  unsigned perWord = 4 / Translator::memoryBytes(element);
  unsigned words = unsigned(memoryValues.size()) / perWord;
  // The whole the pieces p[0..n) were split from, in order, or 0.
  auto whole = [&](const uint32_t *p, unsigned n) -> uint32_t {
    uint32_t of = t.pieceOf(p[0]).whole;
    for (unsigned i = 0; i < n; ++i)
      if (!of || !(t.pieceOf(p[i]) == Translator::Piece{of, i, n}))
        return 0;
    return of;
  };
  Ids w;
  for (unsigned j = 0; j < words; ++j) {
    const uint32_t *p = memoryValues.data() + j * perWord;
    uint32_t word = whole(p, perWord);
    if (!word)
      word = t.emit(Spv::Bitcast, u32,
                    {t.emit(Spv::CompositeConstruct, t.w.vectorType(mem, perWord), Ids(p, p + perWord))});
    w.push_back(word);
  }
  if (words == 1)
    return w[0];
  if (uint32_t v = whole(w.data(), words))
    return v;
  return t.emit(Spv::CompositeConstruct, t.w.vectorType(u32, words), w);
}

namespace {

// A PhysicalStorageBuffer pointer type to `type`, with the storage capability its width needs.
uint32_t bufferPointer(Translator &t, uint32_t type, unsigned elementBits) {
  if (elementBits == 8)
    t.w.capability(Capability::StorageBuffer8BitAccess);
  else if (elementBits == 16)
    t.w.capability(Capability::StorageBuffer16BitAccess);
  return t.w.pointerType(StorageClass::PhysicalStorageBuffer, type);
}

// The access type of `n` elements: the element itself, a vector of up to four,
// or (for more, narrower elements) a vector of u32 words.
struct Access {
  uint32_t type = 0;      // what one OpLoad/OpStore moves
  uint32_t pointer = 0;   // PhysicalStorageBuffer pointer to it
  unsigned words = 0;     // > 0: a vector of this many u32 words
  unsigned perWord = 0;   // elements per word then
  uint32_t wordPiece = 0; // vector<perWord x element>, the bitcast of one word
  unsigned bytes = 0;     // total size, also the alignment
};

Access accessOf(Translator &t, Type element, unsigned n) {
  Access a;
  uint32_t mem = t.memoryType(element);
  unsigned size = Translator::memoryBytes(element);
  a.bytes = size * n;
  if (n == 1) {
    a.type = mem;
  } else if (n <= 4) {
    a.type = t.w.vectorType(mem, n);
  } else {
    a.words = a.bytes / 4;
    a.perWord = 4 / size;
    a.type = t.w.vectorType(t.u32Type(), a.words);
    a.wordPiece = t.w.vectorType(mem, a.perWord);
  }
  a.pointer = bufferPointer(t, a.type, size * 8);
  return a;
}

// Under the Vulkan memory model every global access is non-private (so barriers and
// atomics order it), and Volatile is not allowed: a volatile load makes the location
// visible at device scope instead (a spin loop's load sees other programs' writes).
std::vector<uint32_t> memoryOperands(Translator &t, const Access &a, bool isVolatile, bool isLoad) {
  if (!t.vulkanMemoryModel())
    return {memory_access::kAligned | (isVolatile ? memory_access::kVolatile : 0u), a.bytes};
  if (isVolatile && isLoad)
    return {memory_access::kAligned | memory_access::kMakePointerVisible | memory_access::kNonPrivatePointer,
            a.bytes, t.u32(uint32_t(Scope::Device))};
  return {memory_access::kAligned | memory_access::kNonPrivatePointer, a.bytes};
}

// One OpLoad of `a` at `address`: the access type's value.
uint32_t loadAccess(Translator &t, uint32_t address, const Access &a, bool isVolatile) {
  uint32_t ptr = t.emit(Spv::ConvertUToPtr, a.pointer, {address});
  std::vector<uint32_t> operands{ptr};
  for (uint32_t w : memoryOperands(t, a, isVolatile, true))
    operands.push_back(w);
  return t.emit(Spv::Load, a.type, operands);
}

Ids loadGlobal(Translator &t, uint32_t address, Type element, unsigned n, bool isVolatile) {
  Access a = accessOf(t, element, n);
  uint32_t mem = t.memoryType(element);
  uint32_t v = loadAccess(t, address, a, isVolatile);
  Ids out;
  if (n == 1) {
    out.push_back(fromMemory(t, element, v));
  } else if (!a.words) {
    for (unsigned i = 0; i < n; ++i)
      out.push_back(fromMemory(t, element, t.emit(Spv::CompositeExtract, mem, {v, i})));
  } else {
    for (uint32_t e : splitWords(t, element, v, a.words))
      out.push_back(fromMemory(t, element, e));
  }
  return out;
}

void storeGlobal(Translator &t, uint32_t address, Type element, const Ids &values, bool isVolatile) {
  unsigned n = unsigned(values.size());
  Access a = accessOf(t, element, n);
  Ids mem;
  for (uint32_t v : values)
    mem.push_back(toMemory(t, element, v));
  uint32_t v;
  if (n == 1) {
    v = mem[0];
  } else if (!a.words) {
    v = t.emit(Spv::CompositeConstruct, a.type, mem);
  } else {
    v = joinWords(t, element, mem);
  }
  uint32_t ptr = t.emit(Spv::ConvertUToPtr, a.pointer, {address});
  std::vector<uint32_t> operands{ptr, v};
  for (uint32_t w : memoryOperands(t, a, isVolatile, false))
    operands.push_back(w);
  t.code().emit(Spv::Store, operands);
}

unsigned lengthOf(Type t) { return t.isVector() ? unsigned(t.numElements()) : 1; }

Ids nulls(Translator &t, Type type) {
  return Ids(lengthOf(type), t.w.nullConstant(t.valueType(type)));
}

// Whether a masked load of narrow elements in words (vector<8xf16> as a uvec4) merges as
// one phi per element, split inside the guarded block (the default: the fourth session's
// form, f6cf404), or, with TRIDENT_VULKAN_MASKED_WORDS=on, as one phi of the words split
// after. Fewer phis, but NVIDIA's driver made layer norm's forward slower with them: on an
// H100 (driver 580, 2026-12-05) 1837 GB/s against 2122 per element (docs/vulkan.md).
static bool maskedWordsPhi() {
  static const bool on = [] {
    const char *v = std::getenv("TRIDENT_VULKAN_MASKED_WORDS");
    return v && std::strcmp(v, "on") == 0;
  }();
  return on;
}

bool translateLoad(Translator &t, Op *op) {
  Type r = op->result()->type(), element = r.element();
  unsigned n = lengthOf(r);
  if (Translator::memoryBytes(element) * n > 16 || (n > 4 && Translator::memoryBytes(element) * n % 4 != 0))
    return t.error(op, "of " + r.str() + " is wider than one 16-byte access");
  bool isVolatile = op->attr("volatile").isBool() && op->attr("volatile").getBool();
  uint32_t address = t.scalar(op->operand(0));
  uint32_t pred = op->numOperands() > 1 ? t.scalar(op->operand(1)) : 0;
  Ids other = op->numOperands() > 2 ? t.get(op->operand(2)) : nulls(t, r);
  Access a = accessOf(t, element, n);
  if (pred && a.words && maskedWordsPhi()) {
    // A masked vector of words: one phi of the words (not one per element), split after.
    Ids otherMemory;
    for (uint32_t v : other)
      otherMemory.push_back(toMemory(t, element, v));
    uint32_t otherWords = op->numOperands() > 2 ? joinWords(t, element, otherMemory) : t.w.nullConstant(a.type);
    Ids raw = t.guarded(pred, {a.type}, {otherWords}, [&] { return Ids{loadAccess(t, address, a, isVolatile)}; });
    Ids out;
    for (uint32_t e : splitWords(t, element, raw[0], a.words))
      out.push_back(fromMemory(t, element, e));
    t.set(op->result(), out);
    return true;
  }
  t.set(op->result(), t.guarded(pred, std::vector<uint32_t>(n, t.valueType(r)), other,
                                [&] { return loadGlobal(t, address, element, n, isVolatile); }));
  return true;
}

bool translateStore(Translator &t, Op *op) {
  Type v = op->operand(1)->type();
  unsigned n = lengthOf(v);
  if (Translator::memoryBytes(v.element()) * n > 16 || (n > 4 && Translator::memoryBytes(v.element()) * n % 4 != 0))
    return t.error(op, "of " + v.str() + " is wider than one 16-byte access");
  uint32_t address = t.scalar(op->operand(0));
  const Ids &values = t.get(op->operand(1));
  uint32_t pred = op->numOperands() > 2 ? t.scalar(op->operand(2)) : 0;
  t.guarded(pred, {}, {}, [&] {
    storeGlobal(t, address, v.element(), values, false);
    return Ids{};
  });
  return true;
}

// ---- atomics ----

struct Ordering {
  uint32_t scope, semantics, failure; // ids
};

Ordering orderingOf(Translator &t, const Op *op) {
  std::string sem = op->attr("sem").isString() ? op->stringAttr("sem") : "acq_rel";
  std::string scope = op->attr("scope").isString() ? op->stringAttr("scope") : "gpu";
  uint32_t order = sem == "relaxed"   ? semantics::kNone
                   : sem == "acquire" ? semantics::kAcquire
                   : sem == "release" ? semantics::kRelease
                                      : semantics::kAcquireRelease;
  // A failed compare-exchange only reads: no release part.
  uint32_t failure = order == semantics::kAcquireRelease ? semantics::kAcquire
                     : order == semantics::kRelease      ? semantics::kNone
                                                         : order;
  bool vulkanModel = t.vulkanMemoryModel();
  auto withStorage = [&](uint32_t o) {
    if (!o)
      return o;
    o |= semantics::kUniformMemory;
    if (vulkanModel) // a release makes this invocation's writes available, an acquire makes others' visible
      o |= (o & (semantics::kRelease | semantics::kAcquireRelease) ? semantics::kMakeAvailable : 0) |
           (o & (semantics::kAcquire | semantics::kAcquireRelease) ? semantics::kMakeVisible : 0);
    return o;
  };
  return {t.u32(uint32_t(scope == "cta" ? Scope::Workgroup : Scope::Device)), t.u32(withStorage(order)),
          t.u32(withStorage(failure))};
}

// An integer type of `element`'s width, and the capability 64-bit atomics need.
uint32_t atomicIntType(Translator &t, Type element) {
  if (element.bitWidth() == 64)
    t.w.capability(Capability::Int64Atomics);
  return t.w.intType(element.bitWidth());
}

// llvmpipe (Mesa 22.3.6, CI's Vulkan device) builds an atomic on the LLVM type of its
// value operand, and NIR drops OpBitcast, so an integer atomic on the bits of a float
// compared floats: umin(33, 0xbf800000) stored 0xbf800000 (random seed 4464). Adding a
// zero NIR cannot fold (Translator::opaqueZero) makes the value an integer again; one
// integer add beside an atomic, so every device gets it.
uint32_t integerValue(Translator &t, uint32_t intType, unsigned width, uint32_t v) {
  uint32_t zero = t.opaqueZero();
  if (width == 64)
    zero = t.emit(Spv::UConvert, intType, {zero});
  return t.emit(Spv::IAdd, intType, {v, zero});
}

// An atomic's value operand as an integer: a float's bits, or an integer made by
// tt.bitcast of a float, go through integerValue.
uint32_t asInt(Translator &t, uint32_t intType, Type element, uint32_t v, const Value *source = nullptr) {
  if (element.isFloat())
    return integerValue(t, intType, element.bitWidth(), t.emit(Spv::Bitcast, intType, {v}));
  const Op *def = source ? source->definingOp() : nullptr;
  if (def && def->is(OpCode::Bitcast) && def->operand(0)->type().element().isFloat())
    return integerValue(t, intType, element.bitWidth(), v);
  return v;
}
uint32_t fromInt(Translator &t, Type element, uint32_t v) {
  return element.isFloat() ? t.emit(Spv::Bitcast, t.valueType(element), {v}) : v;
}

// A float add as a compare-exchange loop on the bits.
uint32_t casLoopAdd(Translator &t, uint32_t ptr, uint32_t intType, Type element, uint32_t value, const Ordering &o) {
  uint32_t floatType = t.valueType(element);
  uint32_t start = t.currentLabel();
  uint32_t initial = t.emit(Spv::AtomicLoad, intType, {ptr, o.scope, o.failure});
  uint32_t header = t.w.newId(), body = t.w.newId(), cont = t.w.newId(), merge = t.w.newId();
  t.emitVoid(Spv::Branch, {header});
  t.beginBlock(header);
  Translator::PendingPhi expected = t.loopPhi(intType, initial, start);
  t.emitVoid(Spv::LoopMerge, {merge, cont, 0});
  t.emitVoid(Spv::Branch, {body});
  t.beginBlock(body);
  uint32_t sum = t.emit(Spv::FAdd, floatType, {t.emit(Spv::Bitcast, floatType, {expected.id}), value});
  uint32_t desired = t.emit(Spv::Bitcast, intType, {sum});
  uint32_t old = t.emit(Spv::AtomicCompareExchange, intType, {ptr, o.scope, o.semantics, o.failure, desired, expected.id});
  uint32_t done = t.emit(Spv::IEqual, t.boolType(), {old, expected.id});
  t.emitVoid(Spv::BranchConditional, {done, merge, cont});
  t.beginBlock(cont);
  t.emitVoid(Spv::Branch, {header});
  t.patchPhi(expected, old, cont);
  t.beginBlock(merge);
  return t.emit(Spv::Bitcast, floatType, {old});
}

bool translateAtomicRMW(Translator &t, Op *op) {
  Type element = op->result()->type();
  const std::string &kind = op->stringAttr("kind");
  if (element.bitWidth() < 32)
    return t.error(op, "'" + kind + "' on " + element.str() + " is not supported by the SPIR-V backend (Vulkan atomics are 32 or 64 bits)");
  Spv spv{};
  bool floatAdd = kind == "fadd";
  if (kind == "add") spv = Spv::AtomicIAdd;
  else if (kind == "and") spv = Spv::AtomicAnd;
  else if (kind == "or") spv = Spv::AtomicOr;
  else if (kind == "xor") spv = Spv::AtomicXor;
  else if (kind == "max") spv = Spv::AtomicSMax;
  else if (kind == "min") spv = Spv::AtomicSMin;
  else if (kind == "umax") spv = Spv::AtomicUMax;
  else if (kind == "umin") spv = Spv::AtomicUMin;
  else if (kind == "xchg") spv = Spv::AtomicExchange;
  else if (!floatAdd) return t.error(op, "has an unknown kind '" + kind + "'");
  Ordering o = orderingOf(t, op);
  uint32_t address = t.scalar(op->operand(0)), value = t.scalar(op->operand(1));
  uint32_t pred = op->numOperands() > 2 ? t.scalar(op->operand(2)) : 0;
  uint32_t intType = atomicIntType(t, element);
  uint32_t type = t.valueType(element);
  uint64_t nativeFeature = element == Type::f64() ? kShaderBufferFloat64AtomicAdd : kShaderBufferFloat32AtomicAdd;
  bool nativeFloatAdd = floatAdd && (t.device.features & nativeFeature);
  Ids r = t.guarded(pred, {type}, {t.w.nullConstant(type)}, [&]() -> Ids {
    if (nativeFloatAdd) {
      t.w.extension("SPV_EXT_shader_atomic_float_add");
      t.w.capability(element == Type::f64() ? Capability::AtomicFloat64AddEXT : Capability::AtomicFloat32AddEXT);
      uint32_t ptr = t.emit(Spv::ConvertUToPtr, bufferPointer(t, type, element.bitWidth()), {address});
      return {t.emit(Spv::AtomicFAddEXT, type, {ptr, o.scope, o.semantics, value})};
    }
    uint32_t ptr = t.emit(Spv::ConvertUToPtr, bufferPointer(t, intType, element.bitWidth()), {address});
    if (floatAdd)
      return {casLoopAdd(t, ptr, intType, element, value, o)};
    uint32_t old = t.emit(spv, intType, {ptr, o.scope, o.semantics, asInt(t, intType, element, value, op->operand(1))});
    return {fromInt(t, element, old)};
  });
  t.set(op->result(), r);
  return true;
}

bool translateAtomicCAS(Translator &t, Op *op) {
  Type element = op->result()->type();
  if (element.bitWidth() < 32)
    return t.error(op, "on " + element.str() + " is not supported by the SPIR-V backend (Vulkan atomics are 32 or 64 bits)");
  Ordering o = orderingOf(t, op);
  uint32_t address = t.scalar(op->operand(0)), cmp = t.scalar(op->operand(1)), value = t.scalar(op->operand(2));
  uint32_t pred = op->numOperands() > 3 ? t.scalar(op->operand(3)) : 0;
  uint32_t intType = atomicIntType(t, element), type = t.valueType(element);
  Ids r = t.guarded(pred, {type}, {t.w.nullConstant(type)}, [&]() -> Ids {
    uint32_t ptr = t.emit(Spv::ConvertUToPtr, bufferPointer(t, intType, element.bitWidth()), {address});
    uint32_t old = t.emit(Spv::AtomicCompareExchange, intType,
                          {ptr, o.scope, o.semantics, o.failure, asInt(t, intType, element, value, op->operand(2)),
                           asInt(t, intType, element, cmp, op->operand(1))});
    return {fromInt(t, element, old)};
  });
  t.set(op->result(), r);
  return true;
}

} // namespace

bool translateMemory(Translator &t, Op *op) {
  switch (op->code()) {
  case OpCode::ThLoad: return translateLoad(t, op);
  case OpCode::ThStore: return translateStore(t, op);
  case OpCode::ThAtomicRMW: return translateAtomicRMW(t, op);
  case OpCode::ThAtomicCAS: return translateAtomicCAS(t, op);
  case OpCode::ThSharedAlloc:
  case OpCode::ThLoadShared:
  case OpCode::ThStoreShared: return translateShared(t, op);
  case OpCode::ThBarrier: {
    // Every thread of the program waits; shared and global memory (UniformMemory covers
    // PhysicalStorageBuffer) written before are visible to the workgroup after. A
    // subgroup barrier waits for the subgroup and orders its shared-memory accesses only.
    bool subgroup = op->attr("scope").isString();
    uint32_t sem = semantics::kAcquireRelease | semantics::kWorkgroupMemory;
    if (!subgroup)
      sem |= semantics::kUniformMemory;
    if (t.vulkanMemoryModel())
      sem |= semantics::kMakeAvailable | semantics::kMakeVisible;
    uint32_t scope = uint32_t(subgroup ? Scope::Subgroup : Scope::Workgroup);
    t.emitVoid(Spv::ControlBarrier, {t.u32(scope), t.u32(scope), t.u32(sem)});
    return true;
  }
  default: return t.error(op, "cannot be translated");
  }
}

} // namespace trident::spirv
