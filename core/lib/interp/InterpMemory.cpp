// Host memory: the registry of buffers kernels may touch, and the bounds-checked
// tt.load, tt.store, tt.atomic_rmw and tt.atomic_cas.

#include "InterpImpl.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace trident::interp {

// ---- the buffer registry -----------------------------------------------------

void Memory::add(uint64_t base, uint64_t size, std::string name) {
  buffers_[base] = Buffer{base, size, std::move(name)};
  lastHit_ = nullptr;
}

void Memory::remove(uint64_t base) {
  buffers_.erase(base);
  lastHit_ = nullptr;
}

void Memory::clear() {
  buffers_.clear();
  lastHit_ = nullptr;
}

namespace {

bool inside(uint64_t base, uint64_t size, uint64_t addr, uint64_t bytes) {
  return addr >= base && size >= bytes && addr - base <= size - bytes;
}

std::string hexAddress(uint64_t addr) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
  return buf;
}

} // namespace

bool Memory::contains(uint64_t addr, uint64_t bytes) const {
  if (lastHit_ && inside(lastHit_->base, lastHit_->size, addr, bytes))
    return true;
  auto it = buffers_.upper_bound(addr);
  if (it != buffers_.begin()) {
    const Buffer &b = std::prev(it)->second;
    if (inside(b.base, b.size, addr, bytes)) {
      lastHit_ = &b;
      return true;
    }
  }
  // Overlapping registrations: a buffer with a lower base may still hold the access.
  for (const auto &[base, b] : buffers_) {
    if (base > addr)
      break;
    if (inside(b.base, b.size, addr, bytes)) {
      lastHit_ = &b;
      return true;
    }
  }
  return false;
}

std::string Memory::describeOutside(uint64_t addr, uint64_t bytes) const {
  auto name = [](const Buffer &b) {
    return "buffer " + (b.name.empty() ? "at " + hexAddress(b.base) : "'" + b.name + "'") + " (size " +
           std::to_string(b.size) + ")";
  };
  const std::string address = "address " + hexAddress(addr);
  if (buffers_.empty())
    return address + " is not in any registered buffer";
  auto above = buffers_.upper_bound(addr);
  const Buffer *below = above != buffers_.begin() ? &std::prev(above)->second : nullptr;
  // Distances from the access to the buffer below it and the one above it.
  uint64_t end = below ? below->base + below->size : 0;
  if (below && addr < end)
    return "the " + std::to_string(bytes) + "-byte access at " + address + " runs " +
           std::to_string(addr + bytes - end) + " bytes past the end of " + name(*below);
  uint64_t distBelow = below ? addr - end : UINT64_MAX;
  uint64_t distAbove = above != buffers_.end() ? above->second.base - addr : UINT64_MAX;
  if (distBelow <= distAbove)
    return address + " is " + std::to_string(addr + bytes - end) + " bytes past the end of " + name(*below);
  return address + " is " + std::to_string(distAbove) + " bytes before the start of " + name(above->second);
}

// ---- loads, stores, atomics --------------------------------------------------

namespace {

uint64_t readRaw(uint64_t addr, unsigned bytes) {
  uint64_t raw = 0;
  std::memcpy(&raw, reinterpret_cast<const void *>(static_cast<uintptr_t>(addr)), bytes);
  return raw;
}

void writeRaw(uint64_t addr, unsigned bytes, uint64_t raw) {
  std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(addr)), &raw, bytes);
}

const RtValue *optionalOperand(Exec &ex, const Op *op, unsigned i) {
  return i < op->numOperands() ? &ex.get(op->operand(i)) : nullptr;
}

bool checkPointers(Exec &ex, const Op *op, const RtValue &ptr) {
  if (!ptr.elem.isPtr())
    return ex.fail(op, "'" + std::string(op->name()) + "' needs pointer operands, got " + ptr.elem.str());
  return true;
}

// Checks every active element's address before any memory is touched.
bool checkBounds(Exec &ex, const Op *op, const char *what, const RtValue &ptr, const RtValue *mask, size_t n,
                 unsigned bytes) {
  size_t sp = strideOf(ptr), sm = mask ? strideOf(*mask) : 0;
  for (size_t i = 0; i < n; ++i) {
    if (mask && !(mask->data[i * sm] & 1))
      continue;
    uint64_t addr = ptr.data[i * sp];
    if (!ex.memory.contains(addr, bytes))
      return ex.fail(op, std::string("out-of-bounds ") + what + " of element " + std::to_string(i) + ": " +
                             ex.memory.describeOutside(addr, bytes));
  }
  return true;
}

bool execLoad(Exec &ex, const Op *op) {
  const RtValue &ptr = ex.get(op->operand(0));
  const RtValue *mask = optionalOperand(ex, op, 1), *other = optionalOperand(ex, op, 2);
  if (!checkPointers(ex, op, ptr))
    return false;
  size_t n;
  std::vector<int64_t> shape;
  if (!elementwiseExtent({&ptr, mask, other}, n, shape))
    return ex.fail(op, "'tt.load' operands have different shapes");
  Type elem = op->result()->type().element();
  unsigned bytes = byteSize(elem);
  if (!checkBounds(ex, op, "load", ptr, mask, n, bytes))
    return false;
  RtValue out{elem, std::move(shape), std::vector<uint64_t>(n)};
  size_t sp = strideOf(ptr), sm = mask ? strideOf(*mask) : 0, so = other ? strideOf(*other) : 0;
  for (size_t i = 0; i < n; ++i) {
    if (mask && !(mask->data[i * sm] & 1))
      out.data[i] = other ? other->data[i * so] : 0; // slot 0 is zero in every type
    else
      out.data[i] = rawToSlot(elem, readRaw(ptr.data[i * sp], bytes));
  }
  ex.set(op->result(), std::move(out));
  return true;
}

// tt.descriptor_load: the box of the result's shape at the offsets, each element read
// where every checked coordinate lies inside the tensor's shape and `padding` (zero or
// NaN) elsewhere; addresses are base + sum(coordinate * stride) elements. An unchecked
// dimension (a block pointer's, without boundary_check) reads where it points, so that
// leaving the allocation there is reported as a plain load's would be.
bool execDescriptorLoad(Exec &ex, const Op *op) {
  const RtValue &base = ex.get(op->operand(0));
  if (!checkPointers(ex, op, base))
    return false;
  size_t rank = (op->numOperands() - 1) / 3;
  auto scalar = [&](size_t i) { return signExtend(ex.get(op->operand(unsigned(i))).data[0], 64); };
  std::vector<int64_t> shape(rank), strides(rank), offsets(rank);
  for (size_t k = 0; k < rank; ++k) {
    shape[k] = scalar(1 + k);
    strides[k] = scalar(1 + rank + k);
    offsets[k] = signExtend(ex.get(op->operand(unsigned(1 + 2 * rank + k))).data[0], 32);
  }
  Type elem = op->result()->type().element();
  unsigned bytes = byteSize(elem);
  std::span<const int64_t> box = op->result()->type().shape();
  size_t n = size_t(op->result()->type().numElements());
  RtValue ptr{base.elem, {box.begin(), box.end()}, std::vector<uint64_t>(n)};
  RtValue mask{Type::i1(), ptr.shape, std::vector<uint64_t>(n)};
  const Attribute &checkedAttr = op->attr("checked");
  int64_t checked = checkedAttr.isInt() ? checkedAttr.getInt() : (int64_t(1) << rank) - 1;
  for (size_t i = 0; i < n; ++i) {
    int64_t offset = 0, rest = int64_t(i);
    bool inside = true;
    for (size_t k = rank; k-- > 0;) {
      int64_t c = offsets[k] + rest % box[k];
      rest /= box[k];
      inside = inside && (!(checked >> k & 1) || (c >= 0 && c < shape[k]));
      offset += c * strides[k];
    }
    mask.data[i] = inside;
    ptr.data[i] = base.data[0] + uint64_t(offset) * bytes;
  }
  if (!checkBounds(ex, op, "load", ptr, &mask, n, bytes))
    return false;
  uint64_t pad = op->stringAttr("padding") == "nan" ? doubleToSlot(std::nan("")) : 0;
  RtValue out{elem, ptr.shape, std::vector<uint64_t>(n)};
  for (size_t i = 0; i < n; ++i)
    out.data[i] = mask.data[i] ? rawToSlot(elem, readRaw(ptr.data[i], bytes)) : pad;
  ex.set(op->result(), std::move(out));
  return true;
}

bool execStore(Exec &ex, const Op *op) {
  const RtValue &ptr = ex.get(op->operand(0)), &value = ex.get(op->operand(1));
  const RtValue *mask = optionalOperand(ex, op, 2);
  if (!checkPointers(ex, op, ptr))
    return false;
  size_t n;
  std::vector<int64_t> shape;
  if (!elementwiseExtent({&ptr, &value, mask}, n, shape))
    return ex.fail(op, "'tt.store' operands have different shapes");
  Type elem = ptr.elem.pointee();
  unsigned bytes = byteSize(elem);
  if (!checkBounds(ex, op, "store", ptr, mask, n, bytes))
    return false;
  size_t sp = strideOf(ptr), sv = strideOf(value), sm = mask ? strideOf(*mask) : 0;
  for (size_t i = 0; i < n; ++i)
    if (!mask || (mask->data[i * sm] & 1))
      writeRaw(ptr.data[i * sp], bytes, slotToRaw(elem, value.data[i * sv]));
  return true;
}

// a + b computed in the float type `elem`.
uint64_t floatAdd(Type elem, uint64_t a, uint64_t b) {
  double x = slotToDouble(a), y = slotToDouble(b);
  if (elem.kind() == TypeKind::F64)
    return doubleToSlot(x + y);
  float sum = static_cast<float>(x) + static_cast<float>(y);
  return doubleToSlot(roundToType(elem, sum));
}

// The new memory value of an atomic read-modify-write, or false for an unknown kind.
bool combineAtomic(const std::string &kind, Type elem, uint64_t old, uint64_t val, uint64_t &result) {
  if (kind == "xchg") {
    result = val;
    return true;
  }
  if (elem.isFloat()) {
    double a = slotToDouble(old), b = slotToDouble(val);
    if (kind == "fadd" || kind == "add")
      result = floatAdd(elem, old, val);
    else if (kind == "max" || kind == "fmax")
      result = doubleToSlot(std::fmax(a, b));
    else if (kind == "min" || kind == "fmin")
      result = doubleToSlot(std::fmin(a, b));
    else
      return false;
    return true;
  }
  unsigned w = elem.bitWidth();
  int64_t sa = signExtend(old, w), sb = signExtend(val, w);
  if (kind == "add")
    result = old + val;
  else if (kind == "and")
    result = old & val;
  else if (kind == "or")
    result = old | val;
  else if (kind == "xor")
    result = old ^ val;
  else if (kind == "max")
    result = static_cast<uint64_t>(std::max(sa, sb));
  else if (kind == "min")
    result = static_cast<uint64_t>(std::min(sa, sb));
  else if (kind == "umax")
    result = std::max(old, val);
  else if (kind == "umin")
    result = std::min(old, val);
  else
    return false;
  result &= widthMask(w);
  return true;
}

bool execAtomicRMW(Exec &ex, const Op *op) {
  const RtValue &ptr = ex.get(op->operand(0)), &value = ex.get(op->operand(1));
  const RtValue *mask = optionalOperand(ex, op, 2);
  if (!checkPointers(ex, op, ptr))
    return false;
  const Attribute &kindAttr = op->attr("kind");
  std::string kind = kindAttr.isString() ? kindAttr.getString() : std::string();
  size_t n;
  std::vector<int64_t> shape;
  if (!elementwiseExtent({&ptr, &value, mask}, n, shape))
    return ex.fail(op, "'tt.atomic_rmw' operands have different shapes");
  Type elem = ptr.elem.pointee();
  unsigned bytes = byteSize(elem);
  uint64_t probe;
  if (!combineAtomic(kind, elem, 0, 0, probe))
    return ex.fail(op, "'tt.atomic_rmw' kind \"" + kind + "\" is not supported on " + elem.str());
  if (!checkBounds(ex, op, "atomic_rmw", ptr, mask, n, bytes))
    return false;
  RtValue out{elem, std::move(shape), std::vector<uint64_t>(n)};
  size_t sp = strideOf(ptr), sv = strideOf(value), sm = mask ? strideOf(*mask) : 0;
  // Elements apply one at a time in element order: duplicates see each other.
  for (size_t i = 0; i < n; ++i) {
    if (mask && !(mask->data[i * sm] & 1))
      continue;
    uint64_t addr = ptr.data[i * sp];
    uint64_t old = rawToSlot(elem, readRaw(addr, bytes)), updated = 0;
    combineAtomic(kind, elem, old, value.data[i * sv], updated);
    writeRaw(addr, bytes, slotToRaw(elem, updated));
    out.data[i] = old;
  }
  ex.set(op->result(), std::move(out));
  return true;
}

bool execAtomicCAS(Exec &ex, const Op *op) {
  const RtValue &ptr = ex.get(op->operand(0)), &cmp = ex.get(op->operand(1)), &value = ex.get(op->operand(2));
  if (!checkPointers(ex, op, ptr))
    return false;
  size_t n;
  std::vector<int64_t> shape;
  if (!elementwiseExtent({&ptr, &cmp, &value}, n, shape))
    return ex.fail(op, "'tt.atomic_cas' operands have different shapes");
  Type elem = ptr.elem.pointee();
  unsigned bytes = byteSize(elem);
  if (!checkBounds(ex, op, "atomic_cas", ptr, nullptr, n, bytes))
    return false;
  RtValue out{elem, std::move(shape), std::vector<uint64_t>(n)};
  size_t sp = strideOf(ptr), sc = strideOf(cmp), sv = strideOf(value);
  for (size_t i = 0; i < n; ++i) {
    uint64_t addr = ptr.data[i * sp];
    uint64_t raw = readRaw(addr, bytes);
    // Compared bit for bit, as the hardware does (so NaN can match and -0 != +0).
    if (raw == slotToRaw(elem, cmp.data[i * sc]))
      writeRaw(addr, bytes, slotToRaw(elem, value.data[i * sv]));
    out.data[i] = rawToSlot(elem, raw);
  }
  ex.set(op->result(), std::move(out));
  return true;
}

} // namespace

bool execMemory(Exec &ex, const Op *op) {
  switch (op->code()) {
  case OpCode::Load: return execLoad(ex, op);
  case OpCode::DescriptorLoad: return execDescriptorLoad(ex, op);
  case OpCode::Store: return execStore(ex, op);
  case OpCode::AtomicRMW: return execAtomicRMW(ex, op);
  case OpCode::AtomicCAS: return execAtomicCAS(ex, op);
  default: return ex.fail(op, "'" + std::string(op->name()) + "' is not a memory op");
  }
}

} // namespace trident::interp
