// Values that cross region boundaries (loop-carried values, branch results):
// an object's IR values in a fixed order, and the object rebuilt from new ones.

#include "CodeGen.h"

namespace trident::frontend {

Object CodeGen::materialize(const Object &o, const Span &span) {
  if (o.isPyNumber())
    return Object::ofTensor(toTensor(o, span));
  if (o.is(Object::Kind::Tuple)) {
    Object r = o;
    for (Object &item : r.items)
      item = materialize(item, span);
    return r;
  }
  return o;
}

void CodeGen::flatten(const Object &o0, std::vector<Value *> &out, const Span &span) {
  Object o = materialize(o0, span);
  switch (o.kind) {
  case Object::Kind::Tensor: out.push_back(o.tensor.value); return;
  case Object::Kind::Tuple:
    for (const Object &item : o.items)
      flatten(item, out, span);
    return;
  case Object::Kind::BlockPtr: {
    const BlockPointer &bp = *o.blockPtr;
    out.push_back(bp.base.value);
    for (const Tensor &t : bp.shape)
      out.push_back(t.value);
    // A descriptor's last stride is the constant 1 (Triton's rule): it stays a constant.
    for (size_t i = 0; i < bp.strides.size() - (bp.isDescriptor ? 1 : 0); ++i)
      out.push_back(bp.strides[i].value);
    for (const Tensor &t : bp.offsets)
      out.push_back(t.value);
    return;
  }
  default: return; // compile-time values carry no IR
  }
}

Object CodeGen::rebuild(const Object &skeleton, std::span<Value *const> values, size_t &idx) {
  switch (skeleton.kind) {
  case Object::Kind::Tensor: return Object::ofTensor(values[idx++], skeleton.tensor.dtype);
  case Object::Kind::Tuple: {
    Object r = skeleton;
    for (Object &item : r.items)
      item = rebuild(item, values, idx);
    return r;
  }
  case Object::Kind::BlockPtr: {
    auto bp = std::make_shared<BlockPointer>(*skeleton.blockPtr);
    bp->base.value = values[idx++];
    for (Tensor &t : bp->shape)
      t.value = values[idx++];
    for (size_t i = 0; i < bp->strides.size(); ++i)
      bp->strides[i].value = bp->isDescriptor && i + 1 == bp->strides.size()
                                 ? constantInt(1, DType::i64()).value
                                 : values[idx++];
    for (Tensor &t : bp->offsets)
      t.value = values[idx++];
    Object r;
    r.kind = Object::Kind::BlockPtr;
    r.blockPtr = bp;
    return r;
  }
  default: return skeleton;
  }
}

bool CodeGen::flattenLike(const Object &o0, const Object &skeleton, std::vector<Value *> &out,
                          const Span &span) {
  Object o = o0.isPyNumber() && skeleton.isTensor() ? Object::ofTensor(toTensor(o0, span)) : o0;
  if (o.kind != skeleton.kind)
    return false;
  switch (o.kind) {
  case Object::Kind::Tensor:
    if (o.tensor.type() != skeleton.tensor.type() || o.tensor.dtype != skeleton.tensor.dtype)
      return false;
    out.push_back(o.tensor.value);
    return true;
  case Object::Kind::Tuple:
    if (o.items.size() != skeleton.items.size())
      return false;
    for (size_t i = 0; i < o.items.size(); ++i)
      if (!flattenLike(o.items[i], skeleton.items[i], out, span))
        return false;
    return true;
  case Object::Kind::BlockPtr: {
    const BlockPointer &a = *o.blockPtr, &b = *skeleton.blockPtr;
    if (a.blockShape != b.blockShape || a.order != b.order || a.base.dtype != b.base.dtype ||
        a.shape.size() != b.shape.size() || a.isDescriptor != b.isDescriptor || a.padNan != b.padNan)
      return false;
    flatten(o, out, span);
    return true;
  }
  default: return o.sameAs(skeleton);
  }
}

} // namespace trident::frontend
