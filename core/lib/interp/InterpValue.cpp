// Element slots: rounding to a float type, the memory form of each element type,
// and the text form tt.print writes.

#include "InterpImpl.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace trident::interp {

bool elementwiseExtent(std::initializer_list<const RtValue *> operands, size_t &n,
                       std::vector<int64_t> &shape) {
  n = 1;
  shape.clear();
  for (const RtValue *v : operands)
    if (v && v->size() > n) {
      n = v->size();
      shape = v->shape;
    }
  if (shape.empty()) // all scalars, or broadcasting scalars only
    for (const RtValue *v : operands)
      if (v && !v->shape.empty() && v->size() == n) {
        shape = v->shape;
        break;
      }
  for (const RtValue *v : operands)
    if (v && v->size() != n && v->size() != 1)
      return false;
  return true;
}

FloatFormat narrowFormat(TypeKind kind) {
  switch (kind) {
  case TypeKind::F16: return FloatFormat::F16;
  case TypeKind::BF16: return FloatFormat::BF16;
  case TypeKind::F8E4M3: return FloatFormat::F8E4M3;
  case TypeKind::F8E5M2: return FloatFormat::F8E5M2;
  default: assert(false && "not a narrow float type"); return FloatFormat::F32;
  }
}

double roundToType(Type elem, double v, FloatRounding rounding) {
  switch (elem.kind()) {
  case TypeKind::F64: return v;
  case TypeKind::F32:
    if (rounding == FloatRounding::NearestEven)
      return static_cast<double>(static_cast<float>(v));
    return roundToFormat(v, FloatFormat::F32, rounding);
  default: return roundToFormat(v, narrowFormat(elem.kind()), rounding);
  }
}

unsigned byteSize(Type elem) {
  if (elem.isPtr())
    return 8;
  unsigned bits = elem.bitWidth();
  return bits < 8 ? 1 : bits / 8;
}

uint64_t slotToRaw(Type elem, uint64_t slot) {
  switch (elem.kind()) {
  case TypeKind::F64:
  case TypeKind::Ptr: return slot;
  case TypeKind::F32: {
    double d = slotToDouble(slot);
    if (std::isnan(d)) // keep the payload bits, which a conversion may quiet
      return encodeFloat(d, FloatFormat::F32);
    return std::bit_cast<uint32_t>(static_cast<float>(d));
  }
  case TypeKind::F16:
  case TypeKind::BF16:
  case TypeKind::F8E4M3:
  case TypeKind::F8E5M2: return encodeFloat(slotToDouble(slot), narrowFormat(elem.kind()));
  default: return slot & widthMask(elem.bitWidth());
  }
}

uint64_t rawToSlot(Type elem, uint64_t raw) {
  switch (elem.kind()) {
  case TypeKind::F64:
  case TypeKind::Ptr: return raw;
  case TypeKind::F32: {
    float f = std::bit_cast<float>(static_cast<uint32_t>(raw));
    if (std::isnan(f))
      return doubleToSlot(decodeFloat(static_cast<uint32_t>(raw), FloatFormat::F32));
    return doubleToSlot(static_cast<double>(f));
  }
  case TypeKind::F16:
  case TypeKind::BF16:
  case TypeKind::F8E4M3:
  case TypeKind::F8E5M2:
    return doubleToSlot(decodeFloat(static_cast<uint32_t>(raw) & uint32_t(widthMask(elem.bitWidth())),
                                    narrowFormat(elem.kind())));
  case TypeKind::I1: return (raw & 0xff) != 0 ? 1 : 0; // a bool is a byte in memory
  default: return raw & widthMask(elem.bitWidth());
  }
}

std::string formatSlot(Type elem, uint64_t slot, bool hex) {
  char buf[64];
  if (hex || elem.isPtr()) {
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(slotToRaw(elem, slot)));
    return buf;
  }
  if (elem.isInteger())
    return std::to_string(elem.bitWidth() == 1 ? static_cast<int64_t>(slot)
                                               : signExtend(slot, elem.bitWidth()));
  double d = slotToDouble(slot);
  std::to_chars_result r = elem.kind() == TypeKind::F64
                               ? std::to_chars(buf, buf + sizeof buf, d)
                               : std::to_chars(buf, buf + sizeof buf, static_cast<float>(d));
  return std::string(buf, r.ptr);
}

} // namespace trident::interp
