// Memory: tl.load, tl.store (masks, other, cache and eviction hints, volatile),
// the atomics, and block pointers (tl.make_block_ptr, tl.advance): loads through them
// are tt.descriptor_load boxes, stores plain pointer arithmetic and boundary masks.

#include "CodeGen.h"

#include <algorithm>
#include <cmath>

namespace trident::frontend {

namespace {

AttributeList cacheAttrs(CodeGen &cg, const std::optional<Arg> &cache, const std::optional<Arg> &eviction,
                         const std::optional<Arg> &isVolatile, bool isLoad) {
  AttributeList attrs;
  if (cache) {
    std::string c = cg.stringArg(*cache, "cache_modifier");
    bool ok = isLoad ? (c.empty() || c == ".ca" || c == ".cg" || c == ".cv")
                     : (c.empty() || c == ".wb" || c == ".cg" || c == ".cs" || c == ".wt");
    if (!ok)
      cg.error(cache->span, std::string("cache_modifier must be one of ") +
                                (isLoad ? "'', '.ca', '.cg' or '.cv'" : "'', '.wb', '.cg', '.cs' or '.wt'") +
                                ", got '" + c + "'");
    if (!c.empty()) // the block IR spells Triton's modifiers without the dot
      attrs.set("cache", Attribute::string(c.substr(1)));
  }
  if (eviction) {
    std::string e = cg.stringArg(*eviction, "eviction_policy");
    if (!e.empty() && e != "evict_normal" && e != "evict_first" && e != "evict_last")
      cg.error(eviction->span,
               "eviction_policy must be one of '', 'evict_normal', 'evict_first' or 'evict_last', got '" + e +
                   "'");
    if (!e.empty())
      attrs.set("eviction", Attribute::string(e));
  }
  if (isVolatile && cg.boolArg(*isVolatile, "volatile"))
    attrs.set("volatile", Attribute::boolean(true));
  return attrs;
}

std::vector<int64_t> boundaryCheck(CodeGen &cg, const std::optional<Arg> &a, size_t rank) {
  std::vector<int64_t> dims;
  if (!a || a->value.is(Object::Kind::None))
    return dims;
  std::vector<Object> items =
      a->value.is(Object::Kind::Tuple) ? a->value.items : std::vector<Object>{a->value};
  for (const Object &o : items) {
    int64_t d = cg.intArg(Arg{o, a->span, nullptr}, "boundary_check");
    if (d < 0 || d >= static_cast<int64_t>(rank))
      cg.error(a->span, "boundary_check dimension " + std::to_string(d) +
                            " is out of range for a block pointer of rank " + std::to_string(rank));
    dims.push_back(d);
  }
  return dims;
}

// A block pointer argument; a tensor descriptor is refused (it has its own methods).
const BlockPointer *blockPtrOf(CodeGen &cg, const Arg &a, const std::string &op) {
  if (!a.value.is(Object::Kind::BlockPtr))
    return nullptr;
  if (a.value.blockPtr->isDescriptor)
    cg.error(a.span,
             op + " does not take a tensor descriptor; use the descriptor's methods (desc.load(offsets), "
                  "desc.store(offsets, value), desc.atomic_add(offsets, value))");
  return a.value.blockPtr.get();
}

Tensor pointerArg(CodeGen &cg, const Arg &a, const char *op) {
  if (!a.value.isTensor() || !a.value.tensor.dtype.isPtr())
    cg.error(a.span, std::string(op) + " needs a pointer or a block of pointers, got " + a.value.describe());
  return a.value.tensor;
}

// Masks broadcast to the pointer block; a block mask with a scalar pointer is an error.
Tensor maskArg(CodeGen &cg, const Arg &a, const Tensor &ptr, const char *op) {
  Tensor mask = cg.tensorArg(a);
  if (!mask.dtype.isBool())
    cg.error(a.span, std::string(op) + "'s mask must have boolean (int1) elements, got " + mask.dtype.name());
  if (!ptr.isBlock() && mask.isBlock())
    cg.error(a.span, std::string(op) + "'s mask cannot be a block when the pointer is a scalar");
  return cg.broadcastTo(mask, ptr.shape(), a.span);
}

// A load through a block pointer is one tt.descriptor_load: its dimensions in
// boundary_check are `checked` (read as padding outside the shape), the others read
// wherever they point. The SIMT lowering expands it as blockPointerAccess would, or, on
// sm_90, hands it to the tensor-copy engine (docs/simt.md, "Tensor copies").
Tensor blockPointerLoad(CodeGen &cg, const BlockPointer &bp, std::span<const int64_t> check, bool padNan,
                        AttributeList attrs) {
  std::vector<Value *> operands{bp.base.value};
  for (const std::vector<Tensor> *part : {&bp.shape, &bp.strides, &bp.offsets})
    for (const Tensor &t : *part)
      operands.push_back(t.value);
  int64_t checked = 0;
  for (int64_t d : check)
    checked |= int64_t(1) << d;
  attrs.set("padding", Attribute::string(padNan ? "nan" : "zero"));
  attrs.set("checked", Attribute::integer(checked));
  DType elem = bp.base.dtype.pointee();
  Type result = Type::block(bp.blockShape, elem.type);
  Op *load = cg.builder().create(OpCode::DescriptorLoad, operands, std::span<const Type>(&result, 1), attrs);
  return Tensor{load->result(), elem};
}

Object load(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"pointer", "mask=", "other=", "boundary_check=", "padding_option=",
                          "cache_modifier=", "eviction_policy=", "volatile="});
  auto present = [](const std::optional<Arg> &x) { return x && !x->value.is(Object::Kind::None); };
  AttributeList attrs = cacheAttrs(cg, a[5], a[6], a[7], true);
  Builder &b = cg.builder();
  std::optional<Tensor> mask, other;
  Tensor ptr;
  if (const BlockPointer *bp = blockPtrOf(cg, *a[0], "tl.load")) {
    if (present(a[1]) || present(a[2]))
      cg.error(args.span,
               "mask and other cannot be given when loading through a block pointer; use boundary_check "
               "and padding_option");
    std::vector<int64_t> check = boundaryCheck(cg, a[3], bp->blockShape.size());
    std::string padding = a[4] ? cg.stringArg(*a[4], "padding_option") : "";
    if (!padding.empty() && padding != "zero" && padding != "nan")
      cg.error(a[4]->span, "padding_option must be 'zero' or 'nan', got '" + padding + "'");
    DType elem = bp->base.dtype.pointee();
    if (padding == "nan" && !check.empty() && !elem.isFloat())
      cg.error(a[4]->span, "padding_option='nan' needs a floating-point block, got " + elem.name());
    if (!elem.isBool() && bp->blockShape.size() <= 5)
      return Object::ofTensor(blockPointerLoad(cg, *bp, check, padding == "nan", attrs));
    auto access = cg.blockPointerAccess(*bp, check, args.span);
    ptr = access.first;
    mask = access.second;
    if (mask && !padding.empty()) {
      Object value = padding == "nan" ? Object::floating(NAN) : Object::integer(0);
      other = cg.constant(value, elem, ptr.shape(), args.span);
    }
  } else {
    if (present(a[3]) && !(a[3]->value.is(Object::Kind::Tuple) && a[3]->value.items.empty()))
      cg.error(a[3]->span, "boundary_check is only supported when loading through a block pointer "
                           "(tl.make_block_ptr)");
    if (a[4] && !cg.stringArg(*a[4], "padding_option").empty())
      cg.error(a[4]->span, "padding_option is only supported when loading through a block pointer "
                           "(tl.make_block_ptr)");
    ptr = pointerArg(cg, *a[0], "tl.load");
    if (present(a[1]))
      mask = maskArg(cg, *a[1], ptr, "tl.load");
    if (present(a[2])) {
      if (!mask)
        cg.error(a[2]->span, "tl.load's other cannot be given without a mask");
      Tensor o = cg.tensorArg(*a[2]);
      if (!ptr.isBlock() && o.isBlock())
        cg.error(a[2]->span, "tl.load's other cannot be a block when the pointer is a scalar");
      DType elem = ptr.dtype.pointee();
      if (elem.isBool())
        elem = DType{Type::i8(), false};
      other = cg.broadcastTo(cg.cast(o, elem, a[2]->span), ptr.shape(), a[2]->span);
    }
  }
  // Booleans live in memory as bytes.
  bool isBool = ptr.dtype.pointee().isBool();
  if (isBool)
    ptr = cg.cast(ptr, DType{Type::i8(), false}.pointerTo(), args.span);
  Tensor result{b.load(ptr.value, mask ? mask->value : nullptr, other ? other->value : nullptr, attrs),
                ptr.dtype.pointee()};
  if (isBool)
    result = cg.cast(result, DType::i1(), args.span);
  return Object::ofTensor(result);
}

Object store(CodeGen &cg, const CallArgs &args) {
  auto a =
      args.bind(cg, {"pointer", "value", "mask=", "boundary_check=", "cache_modifier=", "eviction_policy="});
  auto present = [](const std::optional<Arg> &x) { return x && !x->value.is(Object::Kind::None); };
  AttributeList attrs = cacheAttrs(cg, a[4], a[5], std::nullopt, false);
  std::optional<Tensor> mask;
  Tensor ptr;
  if (const BlockPointer *bp = blockPtrOf(cg, *a[0], "tl.store")) {
    if (present(a[2]))
      cg.error(a[2]->span, "mask cannot be given when storing through a block pointer; use boundary_check");
    auto access = cg.blockPointerAccess(*bp, boundaryCheck(cg, a[3], bp->blockShape.size()), args.span);
    ptr = access.first;
    mask = access.second;
  } else {
    if (present(a[3]) && !(a[3]->value.is(Object::Kind::Tuple) && a[3]->value.items.empty()))
      cg.error(a[3]->span, "boundary_check is only supported when storing through a block pointer "
                           "(tl.make_block_ptr)");
    ptr = pointerArg(cg, *a[0], "tl.store");
    if (present(a[2]))
      mask = maskArg(cg, *a[2], ptr, "tl.store");
  }
  Tensor value = cg.tensorArg(*a[1]);
  if (!ptr.isBlock() && value.isBlock())
    cg.error(a[1]->span, "tl.store's value cannot be a block when the pointer is a scalar");
  DType elem = ptr.dtype.pointee();
  if (elem.isBool()) {
    elem = DType{Type::i8(), false};
    ptr = cg.cast(ptr, elem.pointerTo(), args.span);
  }
  value = cg.broadcastTo(cg.cast(value, elem, a[1]->span), ptr.shape(), a[1]->span);
  cg.builder().store(ptr.value, value.value, mask ? mask->value : nullptr, attrs);
  return Object::none();
}

std::string semArg(CodeGen &cg, const std::optional<Arg> &a) {
  if (!a || a->value.is(Object::Kind::None))
    return "acq_rel";
  std::string s = cg.stringArg(*a, "sem");
  if (s != "acquire" && s != "release" && s != "acq_rel" && s != "relaxed")
    cg.error(a->span, "sem must be 'acquire', 'release', 'acq_rel' or 'relaxed', got '" + s + "'");
  return s;
}

std::string scopeArg(CodeGen &cg, const std::optional<Arg> &a) {
  if (!a || a->value.is(Object::Kind::None))
    return "gpu";
  std::string s = cg.stringArg(*a, "scope");
  if (s != "gpu" && s != "cta" && s != "sys")
    cg.error(a->span, "scope must be 'gpu', 'cta' or 'sys', got '" + s + "'");
  return s;
}

// Triton's atom_red_typechecking_impl: the pointer, the value cast to its
// element type and broadcast, and the mask.
struct AtomicOperands {
  Tensor ptr, value;
  std::optional<Tensor> mask;
};

AtomicOperands atomicOperands(CodeGen &cg, const std::string &op, const Arg &ptrArg, const Arg &valArg,
                              const std::optional<Arg> &maskArg, const Span &span) {
  if (blockPtrOf(cg, ptrArg, "tl.atomic_" + op))
    cg.error(ptrArg.span, "tl.atomic_" + op + " does not accept block pointers");
  AtomicOperands r;
  r.ptr = pointerArg(cg, ptrArg, ("tl.atomic_" + op).c_str());
  DType elem = r.ptr.dtype.pointee();
  if (elem.type == Type::f16() && op != "add")
    cg.error(span, "tl.atomic_" + op + " does not support fp16");
  if (elem.isBool() || elem.bits() == 8 || elem.type == Type::i16() || elem.type == Type::bf16() ||
      elem.isFp8() || elem.isPtr())
    cg.error(span, "tl.atomic_" + op + " does not support " + elem.name());
  Tensor v = cg.tensorArg(valArg);
  if (!r.ptr.isBlock() && v.isBlock())
    cg.error(valArg.span, "tl.atomic_" + op + "'s value cannot be a block when the pointer is a scalar");
  r.value = cg.broadcastTo(cg.cast(v, elem, valArg.span), r.ptr.shape(), valArg.span);
  if (maskArg && !maskArg->value.is(Object::Kind::None)) {
    Tensor m = cg.tensorArg(*maskArg);
    if (!m.dtype.isBool())
      cg.error(maskArg->span,
               "tl.atomic_" + op + "'s mask must have boolean (int1) elements, got " + m.dtype.name());
    if (!r.ptr.isBlock() && m.isBlock())
      cg.error(maskArg->span, "tl.atomic_" + op + "'s mask cannot be a block when the pointer is a scalar");
    r.mask = cg.broadcastTo(m, r.ptr.shape(), maskArg->span);
  }
  return r;
}

Object atomicRMW(CodeGen &cg, const CallArgs &args, const std::string &op) {
  auto a = args.bind(cg, {"pointer", "val", "mask=", "sem=", "scope="});
  std::string sem = semArg(cg, a[3]), scope = scopeArg(cg, a[4]);
  AtomicOperands o = atomicOperands(cg, op, *a[0], *a[1], a[2], args.span);
  Builder &b = cg.builder();
  DType elem = o.value.dtype;
  Value *mask = o.mask ? o.mask->value : nullptr;
  auto rmw = [&](const std::string &kind, Value *ptr, Value *val, Value *m, DType d) {
    return Tensor{b.atomicRMW(kind, ptr, val, m, sem, scope), d};
  };
  if (op == "add")
    return Object::ofTensor(rmw(elem.isFloat() ? "fadd" : "add", o.ptr.value, o.value.value, mask, elem));
  if (op == "xchg")
    return Object::ofTensor(rmw("xchg", o.ptr.value, o.value.value, mask, elem));
  if (op == "and" || op == "or" || op == "xor") {
    if (!elem.isInt())
      cg.error(args.span, "tl.atomic_" + op + " does not support " + elem.name());
    return Object::ofTensor(rmw(op, o.ptr.value, o.value.value, mask, elem));
  }
  bool isMax = op == "max";
  if (elem.isInt())
    return Object::ofTensor(rmw(elem.isUnsigned ? (isMax ? "umax" : "umin") : (isMax ? "max" : "min"),
                                o.ptr.value, o.value.value, mask, elem));
  if (elem.type != Type::f32() && elem.type != Type::f64())
    cg.error(args.span, "tl.atomic_" + op + " does not support " + elem.name());
  // Floats through integer atomics, as Triton does: non-negative values order like
  // signed integers, negative ones in reverse like unsigned integers.
  DType it = elem.type == Type::f32() ? DType::i32() : DType::i64();
  DType ut = elem.type == Type::f32() ? DType::u32() : DType::u64();
  Tensor zero = cg.constant(Object::floating(0.0), elem, o.value.shape(), args.span);
  Tensor iVal = cg.bitcast(o.value, it, args.span), uVal = cg.bitcast(o.value, ut, args.span);
  Tensor iPtr = cg.bitcast(o.ptr, it.pointerTo(), args.span),
         uPtr = cg.bitcast(o.ptr, ut.pointerTo(), args.span);
  Tensor pos{b.cmpf("oge", o.value.value, zero.value), DType::i1()};
  Tensor neg{b.cmpf("olt", o.value.value, zero.value), DType::i1()};
  auto withMask = [&](Tensor cond) {
    return o.mask ? cg.logical(true, *o.mask, cond, args.span).value : cond.value;
  };
  Tensor posRet = rmw(isMax ? "max" : "min", iPtr.value, iVal.value, withMask(pos), it);
  Tensor negRet = rmw(isMax ? "umin" : "umax", uPtr.value, uVal.value, withMask(neg), ut);
  Tensor negAsInt = cg.bitcast(negRet, it, args.span);
  Tensor merged{b.select(pos.value, posRet.value, negAsInt.value), it};
  return Object::ofTensor(cg.bitcast(merged, elem, args.span));
}

Object atomicCAS(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"pointer", "cmp", "val", "sem=", "scope="});
  std::string sem = semArg(cg, a[3]), scope = scopeArg(cg, a[4]);
  if (blockPtrOf(cg, *a[0], "tl.atomic_cas"))
    cg.error(a[0]->span, "tl.atomic_cas does not accept block pointers");
  Tensor ptr = pointerArg(cg, *a[0], "tl.atomic_cas");
  DType elem = ptr.dtype.pointee();
  if (elem.isPtr() || (elem.bits() != 16 && elem.bits() != 32 && elem.bits() != 64))
    cg.error(args.span, "tl.atomic_cas only supports elements of 16, 32 or 64 bits, got " + elem.name());
  Tensor cmp = cg.tensorArg(*a[1]), val = cg.tensorArg(*a[2]);
  if (!ptr.isBlock() && (cmp.isBlock() || val.isBlock()))
    cg.error(args.span, "tl.atomic_cas's values cannot be blocks when the pointer is a scalar");
  cmp = cg.broadcastTo(cg.cast(cmp, elem, a[1]->span), ptr.shape(), a[1]->span);
  val = cg.broadcastTo(cg.cast(val, elem, a[2]->span), ptr.shape(), a[2]->span);
  return Object::ofTensor(cg.builder().atomicCAS(ptr.value, cmp.value, val.value, sem, scope), elem);
}

// shape/strides become int64 scalars; offsets must be int32, as in Triton.
Tensor blockPtrScalar(CodeGen &cg, const Object &o, const Span &span, bool i64, const char *what) {
  if (o.isPyNumber()) {
    if (o.is(Object::Kind::Float))
      cg.error(span, std::string("block pointer ") + what + " must be integers, got " + o.describe());
    PyInt v = o.is(Object::Kind::Bool) ? PyInt(o.boolValue) : o.intValue;
    if (!i64 && (v < INT32_MIN || v > INT32_MAX))
      cg.error(span, std::string("block pointers only support 32-bit ") + what + ", got " + pyIntStr(v));
    if (v < INT64_MIN || v > INT64_MAX)
      cg.error(span, std::string("block pointer ") + what + " must fit in 64 bits, got " + pyIntStr(v));
    return cg.constant(o, i64 ? DType::i64() : DType::i32(), {}, span);
  }
  if (!o.isTensor() || o.tensor.isBlock() || !o.tensor.dtype.isInt())
    cg.error(span, std::string("block pointer ") + what + " must be integer scalars, got " + o.describe());
  if (i64)
    return cg.cast(o.tensor, DType::i64(), span);
  if (o.tensor.dtype.bits() != 32)
    cg.error(span, std::string("block pointers only support 32-bit ") + what + ", got " +
                       o.tensor.dtype.name() +
                       "; add .to(tl.int32) or use regular indexing for 64-bit offsets");
  return Tensor{o.tensor.value, DType::i32()};
}

std::vector<Object> tupleItems(CodeGen &cg, const Arg &a, const char *what) {
  if (a.value.is(Object::Kind::Tuple))
    return a.value.items;
  cg.error(a.span,
           std::string("tl.make_block_ptr's ") + what + " must be a tuple, got " + a.value.describe());
}

Object makeBlockPtr(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"base", "shape", "strides", "offsets", "block_shape", "order"});
  Tensor base = pointerArg(cg, *a[0], "tl.make_block_ptr");
  if (base.isBlock())
    cg.error(a[0]->span, "tl.make_block_ptr's base must be a scalar pointer, got " + a[0]->value.describe());
  std::vector<int64_t> blockShape = cg.shapeArg(*a[4], "block_shape");
  cg.checkBlockShape(blockShape, a[4]->span);
  size_t rank = blockShape.size();
  std::vector<Object> shape = tupleItems(cg, *a[1], "shape"), strides = tupleItems(cg, *a[2], "strides"),
                      offsets = tupleItems(cg, *a[3], "offsets");
  std::vector<int64_t> order = cg.shapeArg(*a[5], "order");
  if (shape.size() != rank || strides.size() != rank || offsets.size() != rank || order.size() != rank)
    cg.error(args.span, "tl.make_block_ptr: shape, strides, offsets, block_shape and order must all have " +
                            std::to_string(rank) + " elements");
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < rank; ++i)
    if (sorted[i] != static_cast<int64_t>(i))
      cg.error(a[5]->span, "tl.make_block_ptr's order must be a permutation of the dimensions");
  auto bp = std::make_shared<BlockPointer>();
  bp->base = base;
  for (size_t i = 0; i < rank; ++i) {
    bp->shape.push_back(blockPtrScalar(cg, shape[i], a[1]->span, true, "shapes"));
    bp->strides.push_back(blockPtrScalar(cg, strides[i], a[2]->span, true, "strides"));
    bp->offsets.push_back(blockPtrScalar(cg, offsets[i], a[3]->span, false, "offsets"));
  }
  bp->blockShape = blockShape;
  bp->order = order;
  Object o;
  o.kind = Object::Kind::BlockPtr;
  o.blockPtr = bp;
  return o;
}

Object advance(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"base", "offsets"});
  const BlockPointer *bp = blockPtrOf(cg, *a[0], "tl.advance");
  if (!bp)
    cg.error(a[0]->span,
             "tl.advance needs a block pointer from tl.make_block_ptr, got " + a[0]->value.describe());
  std::vector<Object> deltas =
      a[1]->value.is(Object::Kind::Tuple) ? a[1]->value.items : std::vector<Object>{};
  if (deltas.size() != bp->offsets.size())
    cg.error(a[1]->span,
             "tl.advance needs " + std::to_string(bp->offsets.size()) + " offsets, one per dimension");
  auto next = std::make_shared<BlockPointer>(*bp);
  for (size_t i = 0; i < deltas.size(); ++i) {
    // A zero offset leaves the dimension alone.
    if (deltas[i].is(Object::Kind::Int) && deltas[i].intValue == 0)
      continue;
    Tensor d = blockPtrScalar(cg, deltas[i], a[1]->span, false, "offsets");
    next->offsets[i] = Tensor{cg.builder().binary(OpCode::AddI, bp->offsets[i].value, d.value), DType::i32()};
  }
  Object o;
  o.kind = Object::Kind::BlockPtr;
  o.blockPtr = next;
  return o;
}

} // namespace

std::pair<Tensor, std::optional<Tensor>> CodeGen::blockPointerAccess(const BlockPointer &bp,
                                                                     std::span<const int64_t> boundaryCheck,
                                                                     const Span &span) {
  size_t rank = bp.blockShape.size();
  std::vector<int64_t> full = bp.blockShape;
  Tensor offsetSum;
  std::optional<Tensor> mask;
  for (size_t d = 0; d < rank; ++d) {
    // index_d = offset_d + arange(0, block_d), in int64, shaped to broadcast along d.
    Tensor range{b_.makeRange(0, bp.blockShape[d]), DType::i32()};
    Tensor range64 = cast(range, DType::i64(), span);
    Tensor off64 = cast(bp.offsets[d], DType::i64(), span);
    Tensor index{b_.binary(OpCode::AddI, broadcastTo(off64, range64.shape(), span).value, range64.value),
                 DType::i64()};
    auto spread = [&](Tensor t) {
      for (size_t k = 0; k < rank; ++k)
        if (k != d)
          t = Tensor{b_.expandDims(t.value, static_cast<int>(k)), t.dtype};
      return t;
    };
    Tensor stride = broadcastTo(bp.strides[d], index.shape(), span);
    Tensor term = spread(Tensor{b_.binary(OpCode::MulI, index.value, stride.value), DType::i64()});
    term = broadcastTo(term, full, span);
    offsetSum = d == 0 ? term : Tensor{b_.binary(OpCode::AddI, offsetSum.value, term.value), DType::i64()};
    if (std::find(boundaryCheck.begin(), boundaryCheck.end(), static_cast<int64_t>(d)) !=
        boundaryCheck.end()) {
      Tensor zero = constantInt(0, DType::i64(), index.shape());
      Tensor limit = broadcastTo(bp.shape[d], index.shape(), span);
      Tensor inside{b_.binary(OpCode::AndI, b_.cmpi("sge", index.value, zero.value),
                              b_.cmpi("slt", index.value, limit.value)),
                    DType::i1()};
      inside = broadcastTo(spread(inside), full, span);
      mask = mask ? Tensor{b_.binary(OpCode::AndI, mask->value, inside.value), DType::i1()} : inside;
    }
  }
  Tensor base = broadcastTo(bp.base, full, span);
  return {Tensor{b_.addPtr(base.value, offsetSum.value), bp.base.dtype}, mask};
}

void registerMemoryBuiltins(BuiltinTable &t) {
  t["tl.load"] = load;
  t["tl.store"] = store;
  for (const char *op : {"add", "max", "min", "and", "or", "xor", "xchg"}) {
    std::string name = op;
    t["tl.atomic_" + name] = [name](CodeGen &cg, const CallArgs &args) { return atomicRMW(cg, args, name); };
  }
  t["tl.atomic_cas"] = atomicCAS;
  t["tl.make_block_ptr"] = makeBlockPtr;
  t["tl.advance"] = advance;
}

} // namespace trident::frontend
