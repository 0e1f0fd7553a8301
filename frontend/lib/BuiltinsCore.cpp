// The program model and tensor creation (tl.program_id, tl.arange, tl.full...),
// casts, tl.where, tl.cdiv, and Python's builtins on compile-time values.

#include "CodeGen.h"

#include <cctype>
#include <cerrno>
#include <cmath>

namespace trident::frontend {

namespace {

Object programQuery(CodeGen &cg, const CallArgs &args, bool numPrograms) {
  auto a = args.bind(cg, {"axis"});
  int64_t axis = cg.intArg(*a[0], "axis");
  if (axis < 0 || axis > 2)
    cg.error(a[0]->span, std::string(numPrograms ? "num_programs" : "program_id") +
                             " axis must be 0, 1, or 2 but got " + std::to_string(axis));
  Builder &b = cg.builder();
  return Object::ofTensor(numPrograms ? b.numPrograms(static_cast<int>(axis))
                                      : b.programId(static_cast<int>(axis)),
                          DType::i32());
}

int64_t arangeBound(CodeGen &cg, const Arg &a) {
  if (a.value.is(Object::Kind::Int))
    return static_cast<int64_t>(std::clamp<PyInt>(a.value.intValue, INT64_MIN / 2, INT64_MAX / 2));
  if (a.value.isTensor() && a.expr && a.expr->kind == ExprKind::Name)
    cg.error(a.span, "'" + a.expr->name + "' is used as a shape but is not a tl.constexpr");
  cg.error(a.span, "tl.arange's arguments must be tl.constexpr integers, got " + a.value.describe());
}

Object arange(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"start", "end"});
  int64_t start = arangeBound(cg, *a[0]), end = arangeBound(cg, *a[1]);
  if (start < INT32_MIN || start > INT32_MAX || end < INT32_MIN || end > (int64_t(1) << 31))
    cg.error(args.span, "tl.arange's arguments must be within the int32 range, got start=" +
                            std::to_string(start) + ", end=" + std::to_string(end));
  if (end <= start)
    cg.error(args.span, "tl.arange's end argument must be greater than the start argument, got start=" +
                            std::to_string(start) + ", end=" + std::to_string(end));
  int64_t range = end - start;
  if ((range & (range - 1)) != 0)
    cg.error(args.span, "tl.arange's range must be a power of two, got " + std::to_string(range));
  if (range > (int64_t(1) << 20))
    cg.error(args.span,
             "tl.arange's range " + std::to_string(range) + " exceeds Triton's maximum of 1048576");
  if (start < 0)
    cg.error(args.span, "tl.arange's start must not be negative in Trident, got " + std::to_string(start));
  return Object::ofTensor(cg.builder().makeRange(start, end), DType::i32());
}

Object full(CodeGen &cg, const Arg &shapeArg, const Arg &value, DType dtype, const Span &span) {
  std::vector<int64_t> shape = cg.shapeArg(shapeArg, "the shape");
  cg.checkBlockShape(shape, span);
  if (value.value.isPyNumber())
    return Object::ofTensor(cg.constant(value.value, dtype, shape, span));
  if (!value.value.isTensor())
    cg.error(value.span,
             "tl.full's value must be a number or a scalar tensor, got " + value.value.describe());
  if (value.value.tensor.isBlock())
    cg.error(value.span, "tl.full's value must be a scalar, got " + value.value.describe());
  Tensor t = cg.cast(value.value.tensor, dtype, span);
  return Object::ofTensor(cg.broadcastTo(t, shape, span));
}

Object cast(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"input", "dtype", "fp_downcast_rounding=", "bitcast="});
  Tensor t = cg.tensorArg(*a[0]);
  DType to = cg.dtypeArg(*a[1], "the dtype");
  bool bitcast = a[3] && cg.boolArg(*a[3], "bitcast");
  std::string rounding = a[2] ? cg.stringArg(*a[2], "fp_downcast_rounding") : "";
  if (bitcast)
    return Object::ofTensor(cg.bitcast(t, to, args.span));
  return Object::ofTensor(cg.cast(t, to, args.span, rounding));
}

Object cdiv(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"x", "div"});
  const Object &x = a[0]->value, &d = a[1]->value;
  Object sum = cg.binary(BinOpKind::Add, x, d, args.span);
  Object minusOne = cg.binary(BinOpKind::Sub, sum, Object::integer(1), args.span);
  return cg.binary(BinOpKind::FloorDiv, minusOne, d, args.span);
}

// Python's min and max: on constants the Python result, otherwise tl.minimum / tl.maximum.
Object pyMinMax(CodeGen &cg, const CallArgs &args, bool isMax) {
  std::vector<Arg> items = args.positional;
  if (items.size() == 1 && items[0].value.is(Object::Kind::Tuple)) {
    std::vector<Arg> expanded;
    for (const Object &o : items[0].value.items)
      expanded.push_back(Arg{o, items[0].span, nullptr});
    items = expanded;
  }
  if (items.empty())
    cg.error(args.span, std::string(isMax ? "max" : "min") + "() expects at least one argument");
  if (!args.keywords.empty())
    cg.error(args.keywords[0].second.span,
             std::string(isMax ? "max" : "min") + "() takes no keyword arguments here");
  Object cur = items[0].value;
  for (size_t i = 1; i < items.size(); ++i) {
    const Object &next = items[i].value;
    if (cur.isConstexpr() && next.isConstexpr()) {
      Object less = *cg.foldCompare(CmpOpKind::Lt, isMax ? cur : next, isMax ? next : cur, args.span);
      if (less.boolValue)
        cur = next;
      continue;
    }
    cur = Object::ofTensor(cg.minMax(isMax, cur, next, false, args.span));
  }
  return cur;
}

double toDouble(const Object &o) {
  return o.is(Object::Kind::Float)  ? o.floatValue
         : o.is(Object::Kind::Bool) ? o.boolValue
                                    : double(o.intValue);
}

Object mathFunction(CodeGen &cg, const CallArgs &args, const std::string &name) {
  std::vector<double> x;
  for (const Arg &a : args.positional) {
    if (!a.value.isPyNumber())
      cg.error(a.span, "math." + name + "() needs compile-time numbers inside a kernel, got " +
                           a.value.describe() + "; use the tl.* function for tensors");
    x.push_back(toDouble(a.value));
  }
  auto need = [&](size_t n) {
    if (x.size() != n)
      cg.error(args.span, "math." + name + "() takes " + std::to_string(n) + " argument(s)");
  };
  auto domain = [&](bool ok) {
    if (!ok)
      cg.error(args.span, "math domain error in math." + name + "()");
  };
  if (name == "ceil" || name == "floor" || name == "trunc") {
    need(1);
    double r = name == "ceil" ? std::ceil(x[0]) : name == "floor" ? std::floor(x[0]) : std::trunc(x[0]);
    if (!std::isfinite(r) || std::fabs(r) > 1.8e19)
      cg.error(args.span, "cannot convert " + std::to_string(x[0]) + " to an integer");
    return Object::integer(static_cast<PyInt>(r));
  }
  if (name == "isinf" || name == "isnan" || name == "isfinite") {
    need(1);
    return Object::boolean(name == "isinf"   ? std::isinf(x[0])
                           : name == "isnan" ? std::isnan(x[0])
                                             : std::isfinite(x[0]));
  }
  if (name == "pow") {
    need(2);
    return Object::floating(std::pow(x[0], x[1]));
  }
  need(1);
  if (name == "log" || name == "log2" || name == "log10") {
    domain(x[0] > 0);
    return Object::floating(name == "log"    ? std::log(x[0])
                            : name == "log2" ? std::log2(x[0])
                                             : std::log10(x[0]));
  }
  if (name == "sqrt") {
    domain(x[0] >= 0);
    return Object::floating(std::sqrt(x[0]));
  }
  if (name == "exp")
    return Object::floating(std::exp(x[0]));
  if (name == "exp2")
    return Object::floating(std::exp2(x[0]));
  if (name == "fabs")
    return Object::floating(std::fabs(x[0]));
  if (name == "sin")
    return Object::floating(std::sin(x[0]));
  if (name == "cos")
    return Object::floating(std::cos(x[0]));
  if (name == "tanh")
    return Object::floating(std::tanh(x[0]));
  cg.error(args.span, "math." + name + "() is not supported");
}

} // namespace

void registerCoreBuiltins(BuiltinTable &t) {
  t["tl.program_id"] = [](CodeGen &cg, const CallArgs &args) { return programQuery(cg, args, false); };
  t["tl.num_programs"] = [](CodeGen &cg, const CallArgs &args) { return programQuery(cg, args, true); };
  t["tl.arange"] = arange;
  t["tl.full"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"shape", "value", "dtype"});
    return full(cg, *a[0], *a[1], cg.dtypeArg(*a[2], "tl.full's dtype"), args.span);
  };
  t["tl.zeros"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"shape", "dtype"});
    return full(cg, *a[0], Arg{Object::integer(0), args.span, nullptr},
                cg.dtypeArg(*a[1], "tl.zeros's dtype"), args.span);
  };
  t["tl.zeros_like"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"input"});
    Tensor x = cg.tensorArg(*a[0]);
    return Object::ofTensor(cg.constant(Object::integer(0), x.dtype, x.shape(), args.span));
  };
  t["tl.full_like"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"input", "value", "dtype="});
    Tensor x = cg.tensorArg(*a[0]);
    DType d = a[2] && !a[2]->value.is(Object::Kind::None) ? cg.dtypeArg(*a[2], "dtype") : x.dtype;
    std::vector<Object> dims;
    for (int64_t s : x.shape())
      dims.push_back(Object::integer(s));
    return full(cg, Arg{Object::tuple(dims), args.span, nullptr}, *a[1], d, args.span);
  };
  t["tl.cast"] = cast;
  t["tensor.to"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"self", "dtype", "fp_downcast_rounding=", "bitcast="});
    CallArgs forward = args;
    forward.keywords.clear();
    forward.positional = {*a[0], *a[1]};
    if (a[2])
      forward.keywords.emplace_back("fp_downcast_rounding", *a[2]);
    if (a[3])
      forward.keywords.emplace_back("bitcast", *a[3]);
    forward.callee = "tensor.to";
    return cast(cg, forward);
  };
  t["tl.to_tensor"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x"});
    return Object::ofTensor(cg.tensorArg(*a[0]));
  };
  t["tl.constexpr"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"value"});
    if (!a[0]->value.isConstexpr())
      cg.error(a[0]->span, "tl.constexpr() needs a compile-time value, got " + a[0]->value.describe());
    return a[0]->value;
  };
  t["tl.pointer_type"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"element_ty", "address_space="});
    return Object::ofDType(cg.dtypeArg(*a[0], "the element type").pointerTo());
  };
  t["tl.where"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"condition", "x", "y"});
    return Object::ofTensor(cg.where(a[0]->value, a[1]->value, a[2]->value, args.span));
  };
  t["tl.cdiv"] = cdiv;
  t["triton.cdiv"] = [](CodeGen &cg, const CallArgs &args) {
    for (const Arg &a : args.positional)
      if (!a.value.isConstexpr())
        cg.error(a.span, "triton.cdiv works on compile-time values; use tl.cdiv for tensors");
    return cdiv(cg, args);
  };
  t["triton.next_power_of_2"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"n"});
    int64_t n = cg.intArg(*a[0], "triton.next_power_of_2's argument");
    if (n > (int64_t(1) << 62))
      cg.error(a[0]->span, "triton.next_power_of_2's argument is too large");
    int64_t p = 1;
    while (p < n)
      p <<= 1;
    return Object::integer(p);
  };
  for (const char *range : {"tl.range", "tl.static_range", "py.range"})
    t[range] = [](CodeGen &cg, const CallArgs &args) -> Object {
      cg.error(args.span, args.callee + "() can only be used as the iterable of a for loop");
    };
  t["py.min"] = [](CodeGen &cg, const CallArgs &args) { return pyMinMax(cg, args, false); };
  t["py.max"] = [](CodeGen &cg, const CallArgs &args) { return pyMinMax(cg, args, true); };
  t["py.abs"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x"});
    const Object &x = a[0]->value;
    if (x.isConstexpr()) {
      if (x.is(Object::Kind::Float))
        return Object::floating(std::fabs(x.floatValue));
      if (x.is(Object::Kind::Int) || x.is(Object::Kind::Bool)) {
        PyInt v = x.is(Object::Kind::Bool) ? PyInt(x.boolValue) : x.intValue;
        return Object::integer(v < 0 ? -v : v);
      }
      cg.error(a[0]->span, "bad operand type for abs(): " + x.describe());
    }
    return cg.builtins().at("tl.abs")(cg, args);
  };
  t["py.len"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"obj"});
    const Object &x = a[0]->value;
    if (x.is(Object::Kind::Tuple))
      return Object::integer(static_cast<PyInt>(x.items.size()));
    if (x.is(Object::Kind::String))
      return Object::integer(static_cast<PyInt>(x.name.size()));
    if (x.isTensor() && x.tensor.isBlock())
      return Object::integer(x.tensor.shape()[0]);
    cg.error(a[0]->span, "object of type " + x.describe() + " has no len()");
  };
  t["py.int"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x"});
    const Object &x = a[0]->value;
    if (x.is(Object::Kind::Int))
      return x;
    if (x.is(Object::Kind::Bool))
      return Object::integer(x.boolValue);
    if (x.is(Object::Kind::Float)) {
      if (!std::isfinite(x.floatValue) || std::fabs(x.floatValue) > 1.8e19)
        cg.error(a[0]->span, "cannot convert " + pythonStr(x) + " to an integer");
      return Object::integer(static_cast<PyInt>(x.floatValue));
    }
    if (x.is(Object::Kind::String)) {
      errno = 0;
      char *end = nullptr;
      long long v = std::strtoll(x.name.c_str(), &end, 10);
      if (x.name.empty() || *end || errno)
        cg.error(a[0]->span, "invalid literal for int(): '" + x.name + "'");
      return Object::integer(v);
    }
    cg.error(a[0]->span, "int() of " + x.describe() + " is not supported inside a kernel; use .to(tl.int32)");
  };
  t["py.float"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x="});
    if (!a[0])
      return Object::floating(0.0);
    const Object &x = a[0]->value;
    if (x.isPyNumber())
      return Object::floating(toDouble(x));
    if (x.is(Object::Kind::String)) {
      std::string s;
      for (char c : x.name)
        if (!std::isspace(static_cast<unsigned char>(c)))
          s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (s == "inf" || s == "+inf" || s == "infinity" || s == "+infinity")
        return Object::floating(INFINITY);
      if (s == "-inf" || s == "-infinity")
        return Object::floating(-INFINITY);
      if (s == "nan" || s == "+nan" || s == "-nan")
        return Object::floating(NAN);
      char *end = nullptr;
      double v = std::strtod(s.c_str(), &end);
      if (s.empty() || *end)
        cg.error(a[0]->span, "could not convert string to float: '" + x.name + "'");
      return Object::floating(v);
    }
    cg.error(a[0]->span,
             "float() of " + x.describe() + " is not supported inside a kernel; use .to(tl.float32)");
  };
  t["py.bool"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x"});
    return Object::boolean(cg.truthy(a[0]->value, a[0]->span));
  };
  t["py.print"] = [](CodeGen &cg, const CallArgs &args) {
    // Triton maps print() inside a kernel to tl.device_print.
    CallArgs forward = args;
    forward.callee = "print";
    if (forward.positional.empty() || !forward.positional[0].value.is(Object::Kind::String))
      forward.positional.insert(forward.positional.begin(), Arg{Object::string(""), args.span, nullptr});
    return cg.builtins().at("tl.device_print")(cg, forward);
  };
  for (const char *name : {"ceil", "floor", "trunc", "isinf", "isnan", "isfinite", "pow", "log", "log2",
                           "log10", "sqrt", "exp", "exp2", "fabs", "sin", "cos", "tanh"}) {
    std::string n = name;
    t["math." + n] = [n](CodeGen &cg, const CallArgs &args) { return mathFunction(cg, args, n); };
  }
}

} // namespace trident::frontend
