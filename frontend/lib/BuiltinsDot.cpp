// tl.dot: block matrix multiply-accumulate, with Triton's rules for input
// types, accumulator types, shapes and input precision.

#include "CodeGen.h"

namespace trident::frontend {

namespace {

std::string shapeStr(std::span<const int64_t> s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

Object dot(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"input", "other",
                          "acc=", "input_precision=", "allow_tf32=", "max_num_imprecise_acc=", "out_dtype="});
  auto present = [](const std::optional<Arg> &x) { return x && !x->value.is(Object::Kind::None); };
  Tensor x = cg.tensorArg(*a[0]), y = cg.tensorArg(*a[1]);
  size_t rank = x.shape().size();
  if ((rank != 2 && rank != 3) || y.shape().size() != rank)
    cg.error(args.span, "tl.dot's inputs must both be 2-D (or both 3-D, batched), got shapes " +
                            shapeStr(x.shape()) + " and " + shapeStr(y.shape()));
  int64_t m = x.shape()[rank - 2], k = x.shape()[rank - 1], k2 = y.shape()[rank - 2], n = y.shape()[rank - 1];
  if (k != k2)
    cg.error(args.span,
             "first input shape " + shapeStr(x.shape()) + " and second input shape " + shapeStr(y.shape()) +
                 " are not compatible for matmul (second index of first shape (" + std::to_string(k) +
                 ") must be equal to first index of second shape (" + std::to_string(k2) + "))");
  if (rank == 3 && x.shape()[0] != y.shape()[0])
    cg.error(args.span,
             "tl.dot's batch dimensions differ: " + shapeStr(x.shape()) + " and " + shapeStr(y.shape()));
  if (m < 16 || n < 16 || k < 16)
    cg.error(args.span, "all non-batch values in both first input shape " + shapeStr(x.shape()) +
                            " and second input shape " + shapeStr(y.shape()) + " must be >= 16");
  // The fp8 formats held as bits (float8e4b15, float8e4b8, float8e5b16) multiply as
  // fp16, which holds every one of their values (and their products sum in fp32).
  if (x.dtype.isSoftFp8() && y.dtype.isFp8()) {
    x = cg.cast(x, DType::f16(), a[0]->span);
    y = cg.cast(y, DType::f16(), a[1]->span);
  } else if (y.dtype.isSoftFp8() && x.dtype.isFp8()) {
    x = cg.cast(x, DType::f16(), a[0]->span);
    y = cg.cast(y, DType::f16(), a[1]->span);
  }
  DType in = x.dtype;
  if (!(in.isFp8() && y.dtype.isFp8()) && in != y.dtype)
    cg.error(args.span,
             "both inputs of tl.dot must have the same dtype, got " + in.name() + " and " + y.dtype.name());
  if (in.isBool() || in.isPtr() || (in.isInt() && in.bits() != 8))
    cg.error(args.span, "tl.dot does not support " + in.name() + " inputs");
  DType outDtype = present(a[6]) ? cg.dtypeArg(*a[6], "out_dtype") : DType::f32();
  DType ret;
  if (in.isInt()) {
    ret = DType::i32();
  } else if (outDtype.type == Type::bf16()) {
    cg.error(a[6]->span,
             "out_dtype=bfloat16 is unsupported; use out_dtype=tl.float32 and cast with .to(tl.bfloat16)");
  } else if (in.type == Type::f64()) {
    ret = DType::f64();
  } else if (in.type == Type::f32() || in.type == Type::bf16()) {
    ret = DType::f32();
  } else {
    if (outDtype.type != Type::f16() && outDtype.type != Type::f32())
      cg.error(a[6]->span, "tl.dot's out_dtype must be tl.float16 or tl.float32, got " + outDtype.name());
    ret = outDtype;
  }
  if (present(a[3]) && present(a[4]))
    cg.error(args.span, "only one of input_precision and allow_tf32 can be given");
  std::string precision = "tf32";
  if (present(a[4]))
    precision = cg.boolArg(*a[4], "allow_tf32") ? "tf32" : "ieee";
  if (present(a[3])) {
    precision = cg.stringArg(*a[3], "input_precision");
    if (precision != "tf32" && precision != "tf32x3" && precision != "ieee")
      cg.error(a[3]->span, "input_precision must be 'tf32', 'tf32x3' or 'ieee', got '" + precision + "'");
  }
  if (in.type != Type::f32())
    precision = "ieee"; // only fp32 inputs have a choice
  std::vector<int64_t> shape(x.shape().begin(), x.shape().end() - 2);
  shape.push_back(m);
  shape.push_back(n);
  Tensor acc;
  if (present(a[2])) {
    acc = cg.tensorArg(*a[2]);
    if (acc.dtype != ret || !std::equal(shape.begin(), shape.end(), acc.shape().begin(), acc.shape().end()))
      cg.error(a[2]->span, "tl.dot's acc must be " + ret.name() + shapeStr(shape) +
                               " (the type of the product), got " + Object::ofTensor(acc).describe());
  } else {
    acc = cg.constant(Object::integer(0), ret, shape, args.span);
  }
  Value *r = cg.builder().dot(x.value, y.value, acc.value, precision);
  if (present(a[5])) {
    int64_t imprecise = cg.intArg(*a[5], "max_num_imprecise_acc");
    if (imprecise < 0)
      cg.error(a[5]->span, "max_num_imprecise_acc must not be negative");
    r->definingOp()->setAttr("max_num_imprecise_acc", Attribute::integer(imprecise));
  }
  return Object::ofTensor(r, ret);
}

} // namespace

void registerDotBuiltins(BuiltinTable &t) { t["tl.dot"] = dot; }

} // namespace trident::frontend
