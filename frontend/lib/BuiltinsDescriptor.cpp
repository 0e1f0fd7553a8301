// Tensor descriptors: tl.make_tensor_descriptor, tensordesc kernel parameters,
// desc.load/store/atomic_*, tl.load_tensor_descriptor, tl.store_tensor_descriptor.
// Lowered to the block loads and stores a block pointer makes, with every
// dimension bounds-checked: boxes reaching outside the tensor read zero (or NaN
// with padding_option="nan") and stores there are dropped, as Triton's TMA does.
//
//   desc = tl.make_tensor_descriptor(x, [M, N], [N, 1], [64, 32])
//   t = desc.load([m, n])
// becomes
//   %rows = (m + arange(0, 64)) as i64, %cols = (n + arange(0, 32)) as i64
//   %ptr  = addptr(splat(x), rows * N + cols)
//   %mask = (0 <= rows < M) & (0 <= cols < N)
//   %t    = tt.load %ptr, %mask, zeros

#include "CodeGen.h"

#include <cmath>

namespace trident::frontend {

namespace {

const char *const kDescriptorAtomics[] = {"add", "min", "max", "and", "or", "xor"};

const BlockPointer &descriptorArg(CodeGen &cg, const Arg &a, const char *op) {
  if (!a.value.is(Object::Kind::BlockPtr) || !a.value.blockPtr->isDescriptor)
    cg.error(a.span, std::string(op) +
                         " needs a tensor descriptor (tl.make_tensor_descriptor or a tensordesc "
                         "parameter), got " +
                         a.value.describe());
  return *a.value.blockPtr;
}

std::vector<Object> listItems(CodeGen &cg, const Arg &a, const std::string &what) {
  if (a.value.is(Object::Kind::Tuple))
    return a.value.items;
  cg.error(a.span, what + " must be a list or tuple, got " + a.value.describe());
}

// A scalar of `dtype` (int32 or int64) from a Python integer or an integer scalar.
Tensor integerScalar(CodeGen &cg, const Object &o, DType dtype, const Span &span, const std::string &what) {
  if (o.is(Object::Kind::Int) || o.is(Object::Kind::Bool)) {
    PyInt v = o.is(Object::Kind::Bool) ? PyInt(o.boolValue) : o.intValue;
    PyInt lo = dtype.bits() == 32 ? INT32_MIN : INT64_MIN, hi = dtype.bits() == 32 ? INT32_MAX : INT64_MAX;
    if (v < lo || v > hi)
      cg.error(span, what + " " + pyIntStr(v) + " does not fit in " + dtype.name());
    return cg.constant(o, dtype, {}, span);
  }
  if (!o.isTensor() || o.tensor.isBlock() || !o.tensor.dtype.isInt() || o.tensor.dtype.isBool())
    cg.error(span, what + " must be integer scalars, got " + o.describe());
  return cg.cast(o.tensor, dtype, span);
}

// The pointer block and the bounds mask of the box at `offsets`.
std::pair<Tensor, Tensor> descriptorAccess(CodeGen &cg, const BlockPointer &d, const Arg &offsets,
                                           const char *op) {
  std::vector<Object> items = listItems(cg, offsets, std::string(op) + "'s offsets");
  size_t rank = d.blockShape.size();
  if (items.size() != rank)
    cg.error(offsets.span, std::string(op) + " needs " + std::to_string(rank) +
                               " offsets, one per dimension of the "
                               "descriptor, got " +
                               std::to_string(items.size()));
  BlockPointer box = d;
  for (const Object &o : items)
    box.offsets.push_back(integerScalar(cg, o, DType::i32(), offsets.span, std::string(op) + "'s offsets"));
  std::vector<int64_t> all;
  for (size_t k = 0; k < rank; ++k)
    all.push_back(static_cast<int64_t>(k));
  auto [ptr, mask] = cg.blockPointerAccess(box, all, offsets.span);
  return {ptr, *mask};
}

// A load is one tt.descriptor_load (the SIMT lowering expands it as above, or, on sm_90,
// gives it to the tensor-copy engine); stores and atomics are expanded here.
Object descriptorLoad(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"desc", "offsets"});
  const BlockPointer &d = descriptorArg(cg, *a[0], "tl.load_tensor_descriptor");
  std::vector<Object> items = listItems(cg, *a[1], "desc.load's offsets");
  size_t rank = d.blockShape.size();
  if (items.size() != rank)
    cg.error(a[1]->span, "desc.load needs " + std::to_string(rank) +
                             " offsets, one per dimension of the descriptor, got " + std::to_string(items.size()));
  std::vector<Value *> operands{d.base.value};
  for (const Tensor &s : d.shape)
    operands.push_back(s.value);
  for (const Tensor &s : d.strides)
    operands.push_back(s.value);
  for (const Object &o : items)
    operands.push_back(integerScalar(cg, o, DType::i32(), a[1]->span, "desc.load's offsets").value);
  DType elem = d.base.dtype.pointee();
  Type result = Type::block(d.blockShape, elem.type);
  Op *load = cg.builder().create(OpCode::DescriptorLoad, operands, std::span<const Type>(&result, 1),
                                 {{"padding", Attribute::string(d.padNan ? "nan" : "zero")}});
  return Object::ofTensor(Tensor{load->result(), elem});
}

// The value to store or reduce: the descriptor's block, cast to its element type.
Tensor descriptorValue(CodeGen &cg, const Arg &a, const Tensor &ptr, const char *op) {
  Tensor v = cg.tensorArg(a);
  if (v.isBlock() && std::vector<int64_t>(v.shape().begin(), v.shape().end()) !=
                         std::vector<int64_t>(ptr.shape().begin(), ptr.shape().end()))
    cg.error(a.span, std::string(op) + "'s value must have the descriptor's block shape " +
                         Object::ofTensor(ptr).describe().substr(ptr.dtype.name().size()) + ", got " +
                         Object::ofTensor(v).describe());
  return cg.broadcastTo(cg.cast(v, ptr.dtype.pointee(), a.span), ptr.shape(), a.span);
}

Object descriptorStore(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"desc", "offsets", "value"});
  const BlockPointer &d = descriptorArg(cg, *a[0], "tl.store_tensor_descriptor");
  auto [ptr, mask] = descriptorAccess(cg, d, *a[1], "desc.store");
  Tensor value = descriptorValue(cg, *a[2], ptr, "desc.store");
  cg.builder().store(ptr.value, value.value, mask.value, {});
  return Object::none();
}

// desc.atomic_add(offsets, value) ...: the elementwise atomics on the box, masked to
// the tensor; they return nothing, as in Triton.
Object descriptorAtomic(CodeGen &cg, const CallArgs &args, const std::string &op) {
  auto a = args.bind(cg, {"desc", "offsets", "value"});
  std::string name = "desc.atomic_" + op;
  const BlockPointer &d = descriptorArg(cg, *a[0], name.c_str());
  auto [ptr, mask] = descriptorAccess(cg, d, *a[1], name.c_str());
  Tensor value = descriptorValue(cg, *a[2], ptr, name.c_str());
  CallArgs rmw;
  rmw.callee = "tl.atomic_" + op;
  rmw.span = args.span;
  rmw.positional = {Arg{Object::ofTensor(ptr), a[0]->span, nullptr},
                    Arg{Object::ofTensor(value), a[2]->span, nullptr},
                    Arg{Object::ofTensor(mask), args.span, nullptr}};
  rmw.keywords.emplace_back("sem", Arg{Object::string("relaxed"), args.span, nullptr});
  cg.call(Object::named(Object::Kind::Builtin, "tl.atomic_" + op), rmw);
  return Object::none();
}

Object makeTensorDescriptor(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"base", "shape", "strides", "block_shape", "padding_option="});
  const Object &base = a[0]->value;
  if (!base.isTensor() || base.tensor.isBlock() || !base.tensor.dtype.isPtr())
    cg.error(a[0]->span, "tl.make_tensor_descriptor's base must be a scalar pointer, got " + base.describe());
  std::vector<Object> shape = listItems(cg, *a[1], "tl.make_tensor_descriptor's shape");
  std::vector<Object> strides = listItems(cg, *a[2], "tl.make_tensor_descriptor's strides");
  std::vector<int64_t> blockShape = cg.shapeArg(*a[3], "block_shape");
  size_t rank = shape.size();
  if (strides.size() != rank)
    cg.error(a[2]->span, "tl.make_tensor_descriptor: expected " + std::to_string(rank) + " strides, got " +
                             std::to_string(strides.size()));
  if (blockShape.size() != rank)
    cg.error(a[3]->span, "tl.make_tensor_descriptor: expected a block_shape of " + std::to_string(rank) +
                             " dimensions, got " + std::to_string(blockShape.size()));
  if (!strides.empty()) {
    const Object &last = strides.back();
    bool one =
        (last.is(Object::Kind::Int) && last.intValue == 1) || (last.is(Object::Kind::Bool) && last.boolValue);
    if (!one)
      cg.error(a[2]->span,
               "a tensor descriptor's last stride must be the constant 1, got " + last.describe());
  }
  bool padNan = false;
  if (a[4]) {
    std::string p = cg.stringArg(*a[4], "padding_option");
    if (p != "zero" && p != "nan")
      cg.error(a[4]->span, "padding_option must be 'zero' or 'nan', got '" + p + "'");
    padNan = p == "nan";
    if (padNan && !base.tensor.dtype.pointee().isFloat())
      cg.error(a[4]->span, "padding_option='nan' needs floating-point elements, got " +
                               base.tensor.dtype.pointee().name());
  }
  std::vector<Tensor> shapeT, stridesT;
  for (const Object &o : shape)
    shapeT.push_back(integerScalar(cg, o, DType::i32(), a[1]->span, "tensor descriptor shapes"));
  for (const Object &o : strides)
    stridesT.push_back(integerScalar(cg, o, DType::i64(), a[2]->span, "tensor descriptor strides"));
  return cg.makeDescriptor(base.tensor, shapeT, stridesT, blockShape, padNan, args.span);
}

} // namespace

Object CodeGen::makeDescriptor(Tensor base, std::vector<Tensor> shape, std::vector<Tensor> strides,
                               std::vector<int64_t> blockShape, bool padNan, const Span &span) {
  size_t rank = blockShape.size();
  if (rank < 1 || rank > 5)
    error(span, "a tensor descriptor has 1 to 5 dimensions, got " + std::to_string(rank));
  DType elem = base.dtype.pointee();
  if (elem.isBool() || elem.isPtr())
    error(span, "tensor descriptors of " + elem.name() + " elements are not supported");
  checkBlockShape(blockShape, span);
  int64_t lastBytes = blockShape.back() * elem.bits() / 8;
  if (lastBytes < 16)
    error(span, "a tensor descriptor's block needs at least 16 bytes in its last dimension, got " +
                    std::to_string(blockShape.back()) + " * " + std::to_string(elem.bits() / 8) + " = " +
                    std::to_string(lastBytes) + " bytes");
  auto d = std::make_shared<BlockPointer>();
  d->base = base;
  for (Tensor &s : shape)
    d->shape.push_back(cast(s, DType::i64(), span));
  d->strides = std::move(strides);
  d->strides.back() = constantInt(1, DType::i64());
  d->blockShape = std::move(blockShape);
  d->isDescriptor = true;
  d->padNan = padNan;
  Object o;
  o.kind = Object::Kind::BlockPtr;
  o.blockPtr = d;
  return o;
}

Object CodeGen::descriptorAttribute(const Object &desc, const std::string &name, const Span &span) {
  const BlockPointer &d = *desc.blockPtr;
  if (name == "dtype")
    return Object::ofDType(d.base.dtype.pointee());
  if (name == "block_shape") {
    std::vector<Object> dims;
    for (int64_t n : d.blockShape)
      dims.push_back(Object::integer(n));
    return Object::tuple(std::move(dims));
  }
  if (name == "shape" || name == "strides") {
    std::vector<Object> items;
    for (const Tensor &t : name == "shape" ? d.shape : d.strides)
      items.push_back(Object::ofTensor(name == "shape" ? cast(t, DType::i32(), span) : t));
    return Object::tuple(std::move(items));
  }
  bool method = name == "load" || name == "store";
  for (const char *op : kDescriptorAtomics)
    method = method || name == std::string("atomic_") + op;
  if (!method)
    error(span, "tensor descriptor has no attribute '" + name + "'");
  Object bound = Object::named(Object::Kind::BoundMethod, "tensordesc." + name);
  bound.items.push_back(desc);
  return bound;
}

void registerDescriptorBuiltins(BuiltinTable &t) {
  t["tl.make_tensor_descriptor"] = makeTensorDescriptor;
  t["tl.load_tensor_descriptor"] = descriptorLoad;
  t["tl.store_tensor_descriptor"] = descriptorStore;
  t["tensordesc.load"] = descriptorLoad;
  t["tensordesc.store"] = descriptorStore;
  for (const char *op : kDescriptorAtomics) {
    std::string name = op;
    t["tensordesc.atomic_" + name] = [name](CodeGen &cg, const CallArgs &args) {
      return descriptorAtomic(cg, args, name);
    };
  }
}

} // namespace trident::frontend
