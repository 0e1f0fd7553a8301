// Shared memory: the thread IR's th.shared_alloc arrays as Workgroup memory.
//
// The SIMT lowering places allocations with disjoint lifetimes at overlapping
// offsets (shared_bytes counts the overlap once), so a kernel fits only if they
// overlap here too. Three layouts, one per kernel:
//   Block     every allocation an Aliased Block whose array starts at its offset
//             (VK_KHR_workgroup_memory_explicit_layout; NVIDIA, AMD, Intel have it);
//   Packed    otherwise, one array of u32 words (of uvec4 units of 4 words when
//             its size allows, so that an aligned 16-byte vector is one access):
//             4- and 8-byte elements are whole words,
//             2- and 1-byte ones parts of a word, read by shifting and written with
//             an atomic and (clearing) then an atomic or (setting), so that threads
//             writing neighbouring elements of one word do not undo each other.
//             A vector of narrow elements that fills whole words (vector accesses
//             are aligned to their size) moves as those words: plain loads and
//             stores, no atomics. This matters most on lavapipe, which compiles
//             every shared access into a loop over the lanes, an atomic one no
//             cheaper: a vector<8xf16> store is one uvec4 store, not 16 atomics,
//             and a vector<4xf32> load one uvec4 load, not 4 (attention's shader
//             compile time grows faster than the count of those loops);
//   Separate  allocations the lowering did not place (offset -1, as in hand-written
//             thread IR) each get an array of their own.
#include "Translator.h"

#include <cstdlib>
#include <cstring>

namespace trident::spirv {

namespace {

// Loads and stores of workgroup memory, non-private under the Vulkan memory model.
uint32_t sharedLoad(Translator &t, uint32_t type, uint32_t pointer) {
  std::vector<uint32_t> operands{pointer};
  for (uint32_t w : t.sharedAccessOperands())
    operands.push_back(w);
  return t.emit(Spv::Load, type, operands);
}
void sharedStore(Translator &t, uint32_t pointer, uint32_t value) {
  std::vector<uint32_t> operands{pointer, value};
  for (uint32_t w : t.sharedAccessOperands())
    operands.push_back(w);
  t.code().emit(Spv::Store, operands);
}

} // namespace

SharedLayout chooseSharedLayout(const Op *func, uint64_t features, uint64_t &packedBytes) {
  bool placed = true, explicitOk = (features & kWorkgroupMemoryExplicitLayout) != 0;
  bool any = false;
  packedBytes = 0;
  const_cast<Op *>(func)->walk([&](Op *op) {
    if (!op->is(OpCode::ThSharedAlloc))
      return;
    any = true;
    unsigned bytes = Translator::memoryBytes(op->result()->type().pointee());
    int64_t offset = op->attr("offset").isInt() ? op->intAttr("offset") : -1;
    placed = placed && offset >= 0 && offset % bytes == 0;
    explicitOk = explicitOk && (bytes != 1 || (features & kWorkgroupMemoryExplicitLayout8BitAccess)) &&
                 (bytes != 2 || (features & kWorkgroupMemoryExplicitLayout16BitAccess));
    if (offset >= 0)
      packedBytes = std::max<uint64_t>(packedBytes, uint64_t(offset + op->intAttr("size")));
  });
  packedBytes = (packedBytes + 3) / 4 * 4;
  if (!any || !placed)
    return SharedLayout::Separate;
  return explicitOk ? SharedLayout::Block : SharedLayout::Packed;
}

namespace {

// Whether the packed array is made of uvec4 units (its size a multiple of 16): a
// 16-byte vector access, aligned to its size, is then one OpLoad/OpStore of a uvec4.
bool quadUnits(Translator &t) { return t.packedSharedBytes() % 16 == 0; }

// A Workgroup variable of an Aliased Block whose one member, an array of `size / stride`
// `element`s (`stride` bytes apart), starts at byte `offset` of the explicit layout: an
// allocation, or a view of one as wider units.
uint32_t aliasedBlock(Translator &t, uint32_t element, int64_t stride, int64_t size, int64_t offset) {
  uint32_t members[] = {t.w.arrayType(element, uint32_t(size / stride), uint32_t(stride))};
  uint32_t block = t.w.structType(members);
  t.w.decorate(block, Decoration::Block);
  t.w.memberDecorate(block, 0, Decoration::Offset, {uint32_t(offset)});
  uint32_t var = t.w.globalVariable(t.w.pointerType(StorageClass::Workgroup, block), StorageClass::Workgroup);
  t.w.decorate(var, Decoration::Aliased);
  t.addInterface(var);
  return var;
}

unsigned lengthOf(Type t) { return t.isVector() ? unsigned(t.numElements()) : 1; }

bool translateAlloc(Translator &t, Op *op) {
  Type element = op->result()->type().pointee();
  int64_t size = op->intAttr("size"), offset = op->intAttr("offset");
  unsigned bytes = Translator::memoryBytes(element);
  uint32_t mem = t.memoryType(element);
  uint32_t var = 0;
  switch (t.sharedLayout()) {
  case SharedLayout::Block: {
    t.w.extension("SPV_KHR_workgroup_memory_explicit_layout");
    t.w.capability(Capability::WorkgroupMemoryExplicitLayoutKHR);
    t.require(kWorkgroupMemoryExplicitLayout);
    if (bytes == 1) {
      t.w.capability(Capability::WorkgroupMemoryExplicitLayout8BitAccessKHR);
      t.require(kWorkgroupMemoryExplicitLayout8BitAccess);
    } else if (bytes == 2) {
      t.w.capability(Capability::WorkgroupMemoryExplicitLayout16BitAccessKHR);
      t.require(kWorkgroupMemoryExplicitLayout16BitAccess);
    }
    var = aliasedBlock(t, mem, bytes, size, offset);
    t.addAliasedShared(uint64_t(offset + size));
    t.setSharedOffset(op->result(), offset);
    break;
  }
  case SharedLayout::Packed: {
    uint32_t &packed = t.packedSharedVariable();
    if (!packed) {
      uint32_t array = quadUnits(t)
                           ? t.w.arrayType(t.w.vectorType(t.u32Type(), 4), uint32_t(t.packedSharedBytes() / 16), 0)
                           : t.w.arrayType(t.u32Type(), uint32_t(t.packedSharedBytes() / 4), 0);
      packed = t.w.globalVariable(t.w.pointerType(StorageClass::Workgroup, array), StorageClass::Workgroup);
      t.w.name(packed, "shared");
      t.addInterface(packed);
      t.addAliasedShared(t.packedSharedBytes());
    }
    var = packed;
    t.setSharedOffset(op->result(), offset);
    break;
  }
  case SharedLayout::Separate: {
    uint32_t array = t.w.arrayType(mem, uint32_t(size / bytes), 0);
    var = t.w.globalVariable(t.w.pointerType(StorageClass::Workgroup, array), StorageClass::Workgroup);
    t.addInterface(var);
    t.addSeparateShared(uint64_t(size));
    break;
  }
  }
  t.set(op->result(), {var});
  return true;
}

// Element `index` of allocation `alloc` (an i32 id), in its memory form.
struct Element {
  Translator &t;
  Value *alloc;
  Type element;
  uint32_t index;

  uint32_t var() const { return t.scalar(alloc); }
  unsigned bytes() const { return Translator::memoryBytes(element); }
  uint32_t wordPointer(uint32_t word) const {
    uint32_t ptr = t.w.pointerType(StorageClass::Workgroup, t.u32Type());
    if (!quadUnits(t))
      return t.emit(Spv::AccessChain, ptr, {var(), word});
    uint32_t u32 = t.u32Type();
    return t.emit(Spv::AccessChain, ptr,
                  {var(), t.emit(Spv::ShiftRightLogical, u32, {word, t.u32(2)}),
                   t.emit(Spv::BitwiseAnd, u32, {word, t.u32(3)})});
  }
  // Packed: the byte address of the element.
  uint32_t byteAddress() const {
    uint32_t u32 = t.u32Type();
    uint32_t scaled = bytes() == 1 ? index : t.emit(Spv::IMul, u32, {index, t.u32(bytes())});
    return t.emit(Spv::IAdd, u32, {scaled, t.u32(uint32_t(t.sharedOffset(alloc)))});
  }

  uint32_t load() const {
    uint32_t mem = t.memoryType(element), u32 = t.u32Type();
    if (t.sharedLayout() != SharedLayout::Packed) {
      uint32_t ptr = t.w.pointerType(StorageClass::Workgroup, mem);
      uint32_t p = t.sharedLayout() == SharedLayout::Block ? t.emit(Spv::AccessChain, ptr, {var(), t.u32(0), index})
                                                           : t.emit(Spv::AccessChain, ptr, {var(), index});
      return sharedLoad(t, mem, p);
    }
    uint32_t address = byteAddress();
    uint32_t word = t.emit(Spv::ShiftRightLogical, u32, {address, t.u32(2)});
    uint32_t w0 = sharedLoad(t, u32, wordPointer(word));
    switch (bytes()) {
    case 4: return mem == u32 ? w0 : t.emit(Spv::Bitcast, mem, {w0});
    case 8: {
      uint32_t w1 = sharedLoad(t, u32, wordPointer(t.emit(Spv::IAdd, u32, {word, t.u32(1)})));
      uint32_t pair = t.emit(Spv::CompositeConstruct, t.w.vectorType(u32, 2), {w0, w1});
      return t.emit(Spv::Bitcast, mem, {pair});
    }
    default: {
      uint32_t bits = bytes() * 8;
      uint32_t shift = t.emit(Spv::ShiftLeftLogical, u32,
                              {t.emit(Spv::BitwiseAnd, u32, {address, t.u32(4 - bytes())}), t.u32(3)});
      uint32_t narrow = t.emit(Spv::UConvert, t.w.intType(bits), {t.emit(Spv::ShiftRightLogical, u32, {w0, shift})});
      return t.w.intType(bits) == mem ? narrow : t.emit(Spv::Bitcast, mem, {narrow});
    }
    }
  }

  void store(uint32_t value) const {
    uint32_t mem = t.memoryType(element), u32 = t.u32Type();
    if (t.sharedLayout() != SharedLayout::Packed) {
      uint32_t ptr = t.w.pointerType(StorageClass::Workgroup, mem);
      uint32_t p = t.sharedLayout() == SharedLayout::Block ? t.emit(Spv::AccessChain, ptr, {var(), t.u32(0), index})
                                                           : t.emit(Spv::AccessChain, ptr, {var(), index});
      sharedStore(t, p, value);
      return;
    }
    uint32_t address = byteAddress();
    uint32_t word = t.emit(Spv::ShiftRightLogical, u32, {address, t.u32(2)});
    switch (bytes()) {
    case 4:
      sharedStore(t, wordPointer(word), mem == u32 ? value : t.emit(Spv::Bitcast, u32, {value}));
      return;
    case 8: {
      uint32_t pair = t.emit(Spv::Bitcast, t.w.vectorType(u32, 2), {value});
      sharedStore(t, wordPointer(word), t.emit(Spv::CompositeExtract, u32, {pair, 0}));
      sharedStore(t, wordPointer(t.emit(Spv::IAdd, u32, {word, t.u32(1)})),
                  t.emit(Spv::CompositeExtract, u32, {pair, 1}));
      return;
    }
    default: {
      uint32_t bits = bytes() * 8, narrowType = t.w.intType(bits);
      uint32_t shift = t.emit(Spv::ShiftLeftLogical, u32,
                              {t.emit(Spv::BitwiseAnd, u32, {address, t.u32(4 - bytes())}), t.u32(3)});
      uint32_t narrow = narrowType == mem ? value : t.emit(Spv::Bitcast, narrowType, {value});
      uint32_t placed = t.emit(Spv::ShiftLeftLogical, u32, {t.emit(Spv::UConvert, u32, {narrow}), shift});
      uint32_t keep = t.emit(Spv::Not, u32, {t.emit(Spv::ShiftLeftLogical, u32, {t.u32((1u << bits) - 1), shift})});
      uint32_t ptr = wordPointer(word), scope = t.u32(uint32_t(Scope::Workgroup)), relaxed = t.u32(semantics::kNone);
      t.emit(Spv::AtomicAnd, u32, {ptr, scope, relaxed, keep});
      t.emit(Spv::AtomicOr, u32, {ptr, scope, relaxed, placed});
      return;
    }
    }
  }
};

// A vector of `length` elements of the packed layout as the whole words it fills:
// the words' count, or 0 to access it element by element (scalars, partial words,
// an allocation off a word boundary; 4- and 8-byte elements unless the vector is one
// aligned uvec4, as their elements are whole words anyway).
unsigned wholeWords(Translator &t, Value *alloc, unsigned bytes, unsigned length) {
  if (t.sharedLayout() != SharedLayout::Packed || length * bytes % 4 != 0 || t.sharedOffset(alloc) % 4 != 0)
    return 0;
  if (bytes >= 4 && !(length * bytes == 16 && quadUnits(t) && t.sharedOffset(alloc) % 16 == 0))
    return 0;
  return length * bytes / 4;
}

// Loads or stores `words` whole words of elements starting at element `index` (a
// multiple of the vector length, as vector accesses are aligned to their size).
struct WordAccess {
  Translator &t;
  Value *alloc;
  Type element;
  uint32_t index;
  unsigned words;

  unsigned bytes() const { return Translator::memoryBytes(element); }
  unsigned perWord() const { return bytes() < 4 ? 4 / bytes() : 1; }
  bool quad() const { return words == 4 && quadUnits(t) && t.sharedOffset(alloc) % 16 == 0; }
  uint32_t firstWord() const {
    uint32_t u32 = t.u32Type();
    uint32_t first = bytes() == 1   ? t.emit(Spv::ShiftRightLogical, u32, {index, t.u32(2)})
                     : bytes() == 2 ? t.emit(Spv::ShiftRightLogical, u32, {index, t.u32(1)})
                     : bytes() == 4 ? index
                                    : t.emit(Spv::ShiftLeftLogical, u32, {index, t.u32(1)});
    return t.emit(Spv::IAdd, u32, {first, t.u32(uint32_t(t.sharedOffset(alloc) / 4))});
  }
  uint32_t quadPointer() const {
    uint32_t quad = t.emit(Spv::ShiftRightLogical, t.u32Type(), {firstWord(), t.u32(2)});
    return t.emit(Spv::AccessChain, t.w.pointerType(StorageClass::Workgroup, t.w.vectorType(t.u32Type(), 4)),
                  {t.scalar(alloc), quad});
  }
  uint32_t wordPointer(uint32_t first, unsigned j) const {
    uint32_t word = j ? t.emit(Spv::IAdd, t.u32Type(), {first, t.u32(j)}) : first;
    return Element{t, alloc, element, 0}.wordPointer(word);
  }

  Ids load() const {
    uint32_t u32 = t.u32Type();
    Ids w;
    if (quad()) {
      uint32_t v = sharedLoad(t, t.w.vectorType(u32, 4), quadPointer());
      for (unsigned j = 0; j < 4; ++j)
        w.push_back(t.emit(Spv::CompositeExtract, u32, {v, j}));
    } else {
      uint32_t first = firstWord();
      for (unsigned j = 0; j < words; ++j)
        w.push_back(sharedLoad(t, u32, wordPointer(first, j)));
    }
    return fromWords(w);
  }

  void store(const Ids &memoryValues) const {
    Ids w = toWords(memoryValues);
    if (quad()) {
      uint32_t v = t.emit(Spv::CompositeConstruct, t.w.vectorType(t.u32Type(), 4), w);
      sharedStore(t, quadPointer(), v);
      return;
    }
    uint32_t first = firstWord();
    for (unsigned j = 0; j < words; ++j)
      sharedStore(t, wordPointer(first, j), w[j]);
  }

  // Elements (memory form) from words and back, the first element in the low bits.
  Ids fromWords(const Ids &w) const {
    uint32_t mem = t.memoryType(element), u32 = t.u32Type();
    Ids out;
    if (bytes() == 8) {
      for (unsigned j = 0; j < w.size(); j += 2) {
        uint32_t pair = t.emit(Spv::CompositeConstruct, t.w.vectorType(u32, 2), {w[j], w[j + 1]});
        out.push_back(t.emit(Spv::Bitcast, mem, {pair}));
      }
      return out;
    }
    uint32_t narrowType = t.w.intType(bytes() * 8);
    for (uint32_t word : w) {
      for (unsigned k = 0; k < perWord(); ++k) {
        if (bytes() == 4) {
          out.push_back(mem == u32 ? word : t.emit(Spv::Bitcast, mem, {word}));
          continue;
        }
        uint32_t part = k ? t.emit(Spv::ShiftRightLogical, u32, {word, t.u32(8 * bytes() * k)}) : word;
        uint32_t narrow = t.emit(Spv::UConvert, narrowType, {part});
        out.push_back(narrowType == mem ? narrow : t.emit(Spv::Bitcast, mem, {narrow}));
      }
    }
    return out;
  }
  Ids toWords(const Ids &values) const {
    uint32_t mem = t.memoryType(element), u32 = t.u32Type();
    Ids w;
    if (bytes() == 8) {
      for (uint32_t v : values) {
        uint32_t pair = t.emit(Spv::Bitcast, t.w.vectorType(u32, 2), {v});
        w.push_back(t.emit(Spv::CompositeExtract, u32, {pair, 0}));
        w.push_back(t.emit(Spv::CompositeExtract, u32, {pair, 1}));
      }
      return w;
    }
    if (bytes() == 4) {
      for (uint32_t v : values)
        w.push_back(mem == u32 ? v : t.emit(Spv::Bitcast, u32, {v}));
      return w;
    }
    uint32_t narrowType = t.w.intType(bytes() * 8);
    for (unsigned j = 0; j < words; ++j) {
      uint32_t word = 0;
      for (unsigned k = 0; k < perWord(); ++k) {
        uint32_t v = values[j * perWord() + k];
        uint32_t narrow = narrowType == mem ? v : t.emit(Spv::Bitcast, narrowType, {v});
        uint32_t part = t.emit(Spv::UConvert, u32, {narrow});
        if (k)
          part = t.emit(Spv::ShiftLeftLogical, u32, {part, t.u32(8 * bytes() * k)});
        word = k ? t.emit(Spv::BitwiseOr, u32, {word, part}) : part;
      }
      w.push_back(word);
    }
    return w;
  }
};

// Block layout: a vector of 1- or 2-byte elements that fills 2 or 4 words moves as one
// access of a word vector (an 8- or 16-byte access instead of one per element), through
// a view of its allocation as an array of such vectors (an Aliased Block at the same
// offset, made on first use); 0 where it cannot.
uint32_t blockVectorView(Translator &t, Value *alloc, unsigned bytes, unsigned length, uint32_t &vectorType) {
  unsigned total = bytes * length;
  if (t.sharedLayout() != SharedLayout::Block || bytes >= 4 || (total != 8 && total != 16))
    return 0;
  int64_t offset = t.sharedOffset(alloc), size = alloc->definingOp()->intAttr("size");
  if (offset % total || size < total)
    return 0;
  vectorType = t.w.vectorType(t.u32Type(), total / 4);
  uint32_t &var = t.sharedView(alloc, vectorType);
  if (!var)
    var = aliasedBlock(t, vectorType, total, size, offset);
  return var;
}

// Block layout: a vector of two or four 4-byte elements (a reduction's partials across
// warps, vector<4xf32>) moves as one 8- or 16-byte access of a vector of them, through a
// view of its allocation as an array of such vectors, as the packed layout's uvec4 units
// do; 0 where it cannot, or with TRIDENT_VULKAN_SHARED_VECTORS=off (one access per
// element, the earlier form: softmax on 16 warps read its 16 partials with 16 loads).
uint32_t blockWideView(Translator &t, Value *alloc, Type element, unsigned length, uint32_t &vectorType) {
  static const bool on = [] {
    const char *v = std::getenv("TRIDENT_VULKAN_SHARED_VECTORS");
    return !v || std::strcmp(v, "off") != 0;
  }();
  unsigned bytes = Translator::memoryBytes(element), total = bytes * length;
  if (!on || t.sharedLayout() != SharedLayout::Block || bytes != 4 || (length != 2 && length != 4))
    return 0;
  int64_t offset = t.sharedOffset(alloc), size = alloc->definingOp()->intAttr("size");
  if (offset % total || size < total)
    return 0;
  vectorType = t.w.vectorType(t.memoryType(element), length);
  uint32_t &var = t.sharedView(alloc, vectorType);
  if (!var)
    var = aliasedBlock(t, vectorType, total, size, offset);
  return var;
}

bool translateAccess(Translator &t, Op *op) {
  Value *alloc = op->operand(0);
  Type element = alloc->type().pointee();
  uint32_t index = t.scalar(op->operand(1));
  auto at = [&](unsigned k) {
    uint32_t i = k ? t.emit(Spv::IAdd, t.u32Type(), {index, t.u32(k)}) : index;
    return Element{t, alloc, element, i};
  };
  unsigned bytes = Translator::memoryBytes(element);
  bool isLoad = op->is(OpCode::ThLoadShared);
  unsigned length = isLoad ? lengthOf(op->result()->type()) : unsigned(t.get(op->operand(2)).size());
  uint32_t vectorType = 0;
  if (uint32_t view = blockWideView(t, alloc, element, length, vectorType)) {
    uint32_t at = t.emit(Spv::ShiftRightLogical, t.u32Type(), {index, t.u32(uint32_t(__builtin_ctz(length)))});
    uint32_t pointer =
        t.emit(Spv::AccessChain, t.w.pointerType(StorageClass::Workgroup, vectorType), {view, t.u32(0), at});
    uint32_t mem = t.memoryType(element);
    if (isLoad) {
      uint32_t v = sharedLoad(t, vectorType, pointer);
      Ids out;
      for (unsigned k = 0; k < length; ++k)
        out.push_back(fromMemory(t, element, t.emit(Spv::CompositeExtract, mem, {v, k})));
      t.set(op->result(), out);
      return true;
    }
    const Ids &values = t.get(op->operand(2));
    uint32_t pred = op->numOperands() > 3 ? t.scalar(op->operand(3)) : 0;
    t.guarded(pred, {}, {}, [&] {
      Ids memoryValues;
      for (uint32_t v : values)
        memoryValues.push_back(toMemory(t, element, v));
      sharedStore(t, pointer, t.emit(Spv::CompositeConstruct, vectorType, memoryValues));
      return Ids{};
    });
    return true;
  }
  if (uint32_t view = blockVectorView(t, alloc, bytes, length, vectorType)) {
    auto pointer = [&] {
      uint32_t at = t.emit(Spv::ShiftRightLogical, t.u32Type(), {index, t.u32(uint32_t(__builtin_ctz(length)))});
      return t.emit(Spv::AccessChain, t.w.pointerType(StorageClass::Workgroup, vectorType), {view, t.u32(0), at});
    };
    unsigned words = bytes * length / 4;
    if (isLoad) {
      Ids out;
      for (uint32_t e : splitWords(t, element, t.emit(Spv::Load, vectorType, {pointer()}), words))
        out.push_back(fromMemory(t, element, e));
      t.set(op->result(), out);
      return true;
    }
    const Ids &values = t.get(op->operand(2));
    uint32_t pred = op->numOperands() > 3 ? t.scalar(op->operand(3)) : 0;
    t.guarded(pred, {}, {}, [&] {
      Ids memoryValues;
      for (uint32_t v : values)
        memoryValues.push_back(toMemory(t, element, v));
      t.emitVoid(Spv::Store, {pointer(), joinWords(t, element, memoryValues)});
      return Ids{};
    });
    return true;
  }
  if (isLoad) {
    if (unsigned words = wholeWords(t, alloc, bytes, lengthOf(op->result()->type()))) {
      Ids out;
      for (uint32_t v : WordAccess{t, alloc, element, index, words}.load())
        out.push_back(fromMemory(t, element, v));
      t.set(op->result(), out);
      return true;
    }
    Ids out;
    for (unsigned k = 0; k < lengthOf(op->result()->type()); ++k)
      out.push_back(fromMemory(t, element, at(k).load()));
    t.set(op->result(), out);
    return true;
  }
  const Ids &values = t.get(op->operand(2));
  uint32_t pred = op->numOperands() > 3 ? t.scalar(op->operand(3)) : 0;
  unsigned words = wholeWords(t, alloc, bytes, unsigned(values.size()));
  t.guarded(pred, {}, {}, [&] {
    if (words) {
      Ids memoryValues;
      for (uint32_t v : values)
        memoryValues.push_back(toMemory(t, element, v));
      WordAccess{t, alloc, element, index, words}.store(memoryValues);
      return Ids{};
    }
    for (unsigned k = 0; k < values.size(); ++k)
      at(k).store(toMemory(t, element, values[k]));
    return Ids{};
  });
  return true;
}

} // namespace

bool translateShared(Translator &t, Op *op) {
  if (op->is(OpCode::ThSharedAlloc))
    return translateAlloc(t, op);
  return translateAccess(t, op);
}

} // namespace trident::spirv
