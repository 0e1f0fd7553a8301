// Reductions and scans: tl.sum/max/min/argmax/argmin/xor_sum, tl.reduce with a
// combine function, tl.cumsum/cumprod, tl.associative_scan. Each is one
// tt.reduce / tt.scan op whose combiner region is built here or by calling the
// user's @triton.jit combine function on scalars.

#include "CodeGen.h"

namespace trident::frontend {

namespace {

using Combine =
    std::function<std::vector<Value *>(CodeGen &, std::span<Value *const>, std::span<Value *const>)>;

// Triton's _wrap_axis: a negative axis counts from the end.
int normalizeAxis(CodeGen &cg, int64_t axis, size_t rank, const Span &span) {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    cg.error(span,
             "axis " + std::to_string(axis) + " is out of range for a block of rank " + std::to_string(rank));
  return static_cast<int>(axis < 0 ? axis + r : axis);
}

// Runs `combine` with the CodeGen's builder inside `region` (the combiner body).
std::vector<Value *> inRegion(CodeGen &cg, Builder &inner, const Combine &combine,
                              std::span<Value *const> lhs, std::span<Value *const> rhs) {
  Builder &b = cg.builder();
  Block *savedBlock = b.block();
  Op *savedBefore = b.insertionOp();
  b.setInsertionPointToEnd(inner.block());
  std::vector<Value *> result = combine(cg, lhs, rhs);
  if (savedBefore)
    b.setInsertionPoint(savedBefore);
  else
    b.setInsertionPointToEnd(savedBlock);
  return result;
}

// The reduce (or scan) of `inputs` along `axis` (nullopt: all elements).
std::vector<Tensor> combineAlong(CodeGen &cg, std::vector<Tensor> inputs, std::optional<int64_t> axisArg,
                                 bool scan, bool reverse, bool keepDims, const Combine &combine,
                                 const Span &span, const std::string &name) {
  Builder &b = cg.builder();
  for (Tensor &t : inputs) {
    if (!t.isBlock())
      cg.error(span, name + " needs a block, got a scalar " + t.dtype.name());
    if (t.dtype.isFp8() || t.dtype.isPtr())
      cg.error(span, name + " does not support " + t.dtype.name() + " blocks");
  }
  for (const Tensor &t : inputs)
    if (!std::equal(t.shape().begin(), t.shape().end(), inputs[0].shape().begin(), inputs[0].shape().end()))
      cg.error(span, name + ": all inputs must have the same shape");
  std::vector<int64_t> originalShape(inputs[0].shape().begin(), inputs[0].shape().end());
  int axis;
  if (!axisArg) {
    if (scan)
      cg.error(span, name + " needs an axis");
    int64_t numel = inputs[0].type().numElements();
    if (inputs[0].shape().size() != 1)
      for (Tensor &t : inputs)
        t = Tensor{b.reshape(t.value, std::span<const int64_t>(&numel, 1), true), t.dtype};
    axis = 0;
  } else {
    axis = normalizeAxis(cg, *axisArg, inputs[0].shape().size(), span);
  }
  std::vector<Value *> values;
  std::vector<DType> dtypes;
  for (const Tensor &t : inputs) {
    values.push_back(t.value);
    dtypes.push_back(t.dtype);
  }
  Builder::Combiner body = [&](Builder &inner, std::span<Value *const> lhs, std::span<Value *const> rhs) {
    return inRegion(cg, inner, combine, lhs, rhs);
  };
  Op *op = scan ? b.scan(values, axis, reverse, body) : b.reduce(values, axis, body);
  std::vector<Tensor> results;
  for (unsigned i = 0; i < op->numResults(); ++i) {
    Tensor r{op->result(i), dtypes[i]};
    if (!scan && keepDims) {
      if (!axisArg) {
        std::vector<int64_t> ones(originalShape.size(), 1);
        r = cg.broadcastTo(r, ones, span);
      } else if (r.isBlock()) {
        r = Tensor{b.expandDims(r.value, axis), r.dtype};
      } else {
        int64_t one[] = {1};
        r = Tensor{b.splat(r.value, one), r.dtype};
      }
    }
    results.push_back(r);
  }
  return results;
}

std::optional<int64_t> axisOf(CodeGen &cg, const std::optional<Arg> &a) {
  if (!a || a->value.is(Object::Kind::None))
    return std::nullopt;
  return cg.intArg(*a, "axis");
}

bool keepDimsOf(CodeGen &cg, const std::optional<Arg> &a) { return a && cg.boolArg(*a, "keep_dims"); }

Tensor promoteBf16(CodeGen &cg, Tensor t, const Span &span) {
  return t.dtype.type == Type::bf16() ? cg.cast(t, DType::f32(), span) : t;
}

// Elementwise combiners on scalars.
Value *add(CodeGen &cg, Value *a, Value *b, DType d) {
  return cg.builder().binary(d.isFloat() ? OpCode::AddF : OpCode::AddI, a, b);
}
Value *mul(CodeGen &cg, Value *a, Value *b, DType d) {
  return cg.builder().binary(d.isFloat() ? OpCode::MulF : OpCode::MulI, a, b);
}
Value *minMax(CodeGen &cg, Value *a, Value *b, DType d, bool isMax) {
  OpCode code = d.isFloat()                  ? (isMax ? OpCode::MaxNumF : OpCode::MinNumF)
                : d.isUnsigned || d.isBool() ? (isMax ? OpCode::MaxUI : OpCode::MinUI)
                                             : (isMax ? OpCode::MaxSI : OpCode::MinSI);
  return cg.builder().binary(code, a, b);
}

Combine elementwise(DType d, std::function<Value *(CodeGen &, Value *, Value *, DType)> f) {
  return [d, f](CodeGen &cg, std::span<Value *const> lhs, std::span<Value *const> rhs) {
    return std::vector<Value *>{f(cg, lhs[0], rhs[0], d)};
  };
}

// (value, index) pairs: the larger (smaller) value wins, ties go to the lower index.
Combine argCombine(DType d, bool isMax, bool tieBreakLeft) {
  return [d, isMax, tieBreakLeft](CodeGen &cg, std::span<Value *const> lhs, std::span<Value *const> rhs) {
    Builder &b = cg.builder();
    Value *v1 = lhs[0], *i1 = lhs[1], *v2 = rhs[0], *i2 = rhs[1];
    bool u = d.isUnsigned || d.isBool();
    Value *better = d.isFloat() ? b.cmpf(isMax ? "ogt" : "olt", v1, v2)
                                : b.cmpi(isMax ? (u ? "ugt" : "sgt") : (u ? "ult" : "slt"), v1, v2);
    if (tieBreakLeft) {
      Value *eq = d.isFloat() ? b.cmpf("oeq", v1, v2) : b.cmpi("eq", v1, v2);
      Value *lower = b.cmpi("slt", i1, i2);
      better = b.binary(OpCode::OrI, better, b.binary(OpCode::AndI, eq, lower));
    }
    return std::vector<Value *>{b.select(better, v1, v2), b.select(better, i1, i2)};
  };
}

// sum / cumsum accumulate small integers in 32 bits, as Triton does.
Tensor sumInput(CodeGen &cg, Tensor t, const std::optional<Arg> &dtypeArg, const Span &span) {
  if (dtypeArg && !dtypeArg->value.is(Object::Kind::None))
    return cg.cast(t, cg.dtypeArg(*dtypeArg, "dtype"), span);
  if (t.dtype.isInt() && t.dtype.bits() < 32)
    return cg.cast(t, t.dtype.isUnsigned ? DType::u32() : DType::i32(), span);
  return promoteBf16(cg, t, span);
}

Object sum(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"input", "axis=", "keep_dims=", "dtype="});
  Tensor x = sumInput(cg, cg.tensorArg(*a[0]), a[3], args.span);
  return Object::ofTensor(combineAlong(cg, {x}, axisOf(cg, a[1]), false, false, keepDimsOf(cg, a[2]),
                                       elementwise(x.dtype, add), args.span, "tl.sum")[0]);
}

Object maxMin(CodeGen &cg, const CallArgs &args, bool isMax) {
  auto a =
      args.bind(cg, {"input", "axis=", "return_indices=", "return_indices_tie_break_left=", "keep_dims="});
  std::string name = isMax ? "tl.max" : "tl.min";
  Tensor x = promoteBf16(cg, cg.tensorArg(*a[0]), args.span);
  std::optional<int64_t> axis = axisOf(cg, a[1]);
  bool keep = keepDimsOf(cg, a[4]);
  if (a[2] && cg.boolArg(*a[2], "return_indices")) {
    bool tieLeft = !a[3] || cg.boolArg(*a[3], "return_indices_tie_break_left");
    if (!axis)
      cg.error(args.span, name + " with return_indices needs an axis");
    int ax = normalizeAxis(cg, *axis, x.shape().size(), args.span);
    // The index of every element along the axis, broadcast to the input's shape.
    Builder &b = cg.builder();
    Tensor index{b.makeRange(0, x.shape()[ax]), DType::i32()};
    for (size_t d = 0; d < x.shape().size(); ++d)
      if (static_cast<int>(d) != ax)
        index = Tensor{b.expandDims(index.value, static_cast<int>(d)), index.dtype};
    index = cg.broadcastTo(index, x.shape(), args.span);
    std::vector<Tensor> r = combineAlong(cg, {x, index}, axis, false, false, keep,
                                         argCombine(x.dtype, isMax, tieLeft), args.span, name);
    return Object::tuple({Object::ofTensor(r[0]), Object::ofTensor(r[1])});
  }
  if (x.dtype.bits() < 32 && !x.dtype.isPtr())
    x = cg.cast(x, x.dtype.isFloat() ? DType::f32() : DType::i32(), args.span);
  if (x.dtype.isPtr())
    cg.error(args.span, name + " does not support pointers");
  return Object::ofTensor(
      combineAlong(cg, {x}, axis, false, false, keep,
                   elementwise(x.dtype, [isMax](CodeGen &c, Value *l, Value *r,
                                                DType d) { return minMax(c, l, r, d, isMax); }),
                   args.span, name)[0]);
}

Object argMaxMin(CodeGen &cg, const CallArgs &args, bool isMax) {
  auto a = args.bind(cg, {"input", "axis", "tie_break_left=", "keep_dims="});
  CallArgs forward;
  forward.callee = isMax ? "tl.argmax" : "tl.argmin";
  forward.span = args.span;
  forward.positional = {*a[0], *a[1]};
  forward.keywords.emplace_back("return_indices", Arg{Object::boolean(true), args.span, nullptr});
  forward.keywords.emplace_back("return_indices_tie_break_left",
                                a[2] ? *a[2] : Arg{Object::boolean(true), args.span, nullptr});
  if (a[3])
    forward.keywords.emplace_back("keep_dims", *a[3]);
  Object pair = maxMin(cg, forward, isMax);
  return pair.items[1];
}

// The inputs of tl.reduce / tl.associative_scan: one tensor or a tuple of them.
std::vector<Tensor> tensorsOf(CodeGen &cg, const Arg &a, bool &isTuple) {
  std::vector<Tensor> result;
  isTuple = a.value.is(Object::Kind::Tuple);
  if (isTuple) {
    if (a.value.items.empty())
      cg.error(a.span, "expected at least one tensor");
    for (const Object &o : a.value.items)
      result.push_back(cg.tensorArg(Arg{o, a.span, nullptr}));
  } else {
    result.push_back(cg.tensorArg(a));
  }
  return result;
}

Combine userCombine(const Arg &fn, const std::vector<DType> &dtypes, const Span &span) {
  Object combineFn = fn.value;
  return [combineFn, dtypes, span](CodeGen &cg, std::span<Value *const> lhs, std::span<Value *const> rhs) {
    return cg.buildCombiner(combineFn, lhs, rhs, dtypes, span);
  };
}

Object packResults(const std::vector<Tensor> &r, bool isTuple) {
  if (!isTuple)
    return Object::ofTensor(r[0]);
  std::vector<Object> items;
  for (const Tensor &t : r)
    items.push_back(Object::ofTensor(t));
  return Object::tuple(std::move(items));
}

Object reduce(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"input", "axis", "combine_fn", "keep_dims="});
  bool isTuple;
  std::vector<Tensor> inputs = tensorsOf(cg, *a[0], isTuple);
  std::vector<DType> dtypes;
  for (const Tensor &t : inputs)
    dtypes.push_back(t.dtype);
  return packResults(combineAlong(cg, inputs, axisOf(cg, a[1]), false, false, keepDimsOf(cg, a[3]),
                                  userCombine(*a[2], dtypes, args.span), args.span, "tl.reduce"),
                     isTuple);
}

Object associativeScan(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"input", "axis", "combine_fn", "reverse="});
  bool isTuple;
  std::vector<Tensor> inputs = tensorsOf(cg, *a[0], isTuple);
  std::vector<DType> dtypes;
  for (const Tensor &t : inputs)
    dtypes.push_back(t.dtype);
  bool reverse = a[3] && cg.boolArg(*a[3], "reverse");
  return packResults(combineAlong(cg, inputs, cg.intArg(*a[1], "axis"), true, reverse, false,
                                  userCombine(*a[2], dtypes, args.span), args.span, "tl.associative_scan"),
                     isTuple);
}

Object cumulative(CodeGen &cg, const CallArgs &args, bool product) {
  auto a = args.bind(cg, {"input", "axis=", "reverse=", "dtype="});
  Tensor x = cg.tensorArg(*a[0]);
  x = product ? promoteBf16(cg, x, args.span) : sumInput(cg, x, a[3], args.span);
  int64_t axis = a[1] && !a[1]->value.is(Object::Kind::None) ? cg.intArg(*a[1], "axis") : 0;
  bool reverse = a[2] && cg.boolArg(*a[2], "reverse");
  return Object::ofTensor(combineAlong(cg, {x}, axis, true, reverse, false,
                                       elementwise(x.dtype, product ? mul : add), args.span,
                                       product ? "tl.cumprod" : "tl.cumsum")[0]);
}

} // namespace

std::vector<Value *> CodeGen::buildCombiner(const Object &combine, std::span<Value *const> lhs,
                                            std::span<Value *const> rhs, const std::vector<DType> &dtypes,
                                            const Span &span) {
  if (!combine.is(Object::Kind::JitFunction))
    error(span, "combine_fn must be a @triton.jit function, got " + combine.describe());
  CallArgs args;
  args.callee = combine.function->name;
  args.span = span;
  for (size_t i = 0; i < lhs.size(); ++i)
    args.positional.push_back(Arg{Object::ofTensor(lhs[i], dtypes[i]), span, nullptr});
  for (size_t i = 0; i < rhs.size(); ++i)
    args.positional.push_back(Arg{Object::ofTensor(rhs[i], dtypes[i]), span, nullptr});
  Object r = callJit(*combine.function, *combine.functionModule, args);
  std::vector<Object> items = r.is(Object::Kind::Tuple) ? r.items : std::vector<Object>{r};
  if (items.size() != dtypes.size())
    error(span, "the combine function '" + combine.function->name + "' returns " +
                    std::to_string(items.size()) + (items.size() == 1 ? " value" : " values") +
                    ", but the operation has " + std::to_string(dtypes.size()) +
                    (dtypes.size() == 1 ? " input" : " inputs"));
  std::vector<Value *> values;
  for (size_t i = 0; i < items.size(); ++i) {
    Tensor t = items[i].isPyNumber() ? constant(items[i], dtypes[i], {}, span) : toTensor(items[i], span);
    if (t.isBlock() || t.dtype != dtypes[i])
      error(span, "the combine function '" + combine.function->name + "' returns " +
                      Object::ofTensor(t).describe() + " for an input of type " + dtypes[i].name() +
                      "; it must return scalars of the input types");
    values.push_back(t.value);
  }
  return values;
}

void registerReduceBuiltins(BuiltinTable &t) {
  t["tl.sum"] = sum;
  t["tl.max"] = [](CodeGen &cg, const CallArgs &args) { return maxMin(cg, args, true); };
  t["tl.min"] = [](CodeGen &cg, const CallArgs &args) { return maxMin(cg, args, false); };
  t["tl.argmax"] = [](CodeGen &cg, const CallArgs &args) { return argMaxMin(cg, args, true); };
  t["tl.argmin"] = [](CodeGen &cg, const CallArgs &args) { return argMaxMin(cg, args, false); };
  t["tl.xor_sum"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"input", "axis=", "keep_dims="});
    Tensor x = cg.tensorArg(*a[0]);
    if (!x.dtype.isInt())
      cg.error(a[0]->span, "tl.xor_sum is only supported for integers, got " + x.dtype.name());
    return Object::ofTensor(
        combineAlong(cg, {x}, axisOf(cg, a[1]), false, false, keepDimsOf(cg, a[2]),
                     elementwise(x.dtype, [](CodeGen &c, Value *l, Value *r,
                                             DType) { return c.builder().binary(OpCode::XOrI, l, r); }),
                     args.span, "tl.xor_sum")[0]);
  };
  t["tl.reduce"] = reduce;
  t["tl.associative_scan"] = associativeScan;
  t["tl.cumsum"] = [](CodeGen &cg, const CallArgs &args) { return cumulative(cg, args, false); };
  t["tl.cumprod"] = [](CodeGen &cg, const CallArgs &args) { return cumulative(cg, args, true); };
}

} // namespace trident::frontend
