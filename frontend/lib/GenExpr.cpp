// Expressions: names, literals, operators, calls, attributes and subscripts.

#include "CodeGen.h"

#include <cmath>

namespace trident::frontend {

namespace {

const char *unsupportedName(ExprKind k) {
  switch (k) {
  case ExprKind::Dict: return "dict";
  case ExprKind::Set: return "set";
  case ExprKind::Lambda: return "lambda";
  case ExprKind::Starred: return "starred expression";
  case ExprKind::DoubleStarred: return "** unpacking";
  default: return "expression";
  }
}

// Tensor methods (x.sum(), x.to(...)) and the tl function each one calls.
const char *const kTensorMethods[] = {"to",
                                      "reshape",
                                      "view",
                                      "permute",
                                      "trans",
                                      "broadcast_to",
                                      "expand_dims",
                                      "split",
                                      "ravel",
                                      "sum",
                                      "max",
                                      "min",
                                      "argmax",
                                      "argmin",
                                      "xor_sum",
                                      "reduce",
                                      "associative_scan",
                                      "cumsum",
                                      "cumprod",
                                      "exp",
                                      "exp2",
                                      "log",
                                      "log2",
                                      "cos",
                                      "sin",
                                      "sqrt",
                                      "sqrt_rn",
                                      "rsqrt",
                                      "abs",
                                      "floor",
                                      "ceil",
                                      "erf",
                                      "sigmoid",
                                      "softmax",
                                      "logical_and",
                                      "logical_or",
                                      "fma",
                                      "umulhi",
                                      "cast",
                                      "join",
                                      "flip",
                                      "sort",
                                      "topk",
                                      "histogram",
                                      "item"};

} // namespace

Object CodeGen::eval(const Expr &e) {
  DepthGuard depth(*this, e.span);
  tick(e.span);
  setLoc(e.span);
  switch (e.kind) {
  case ExprKind::Name: return lookupName(e.name, e.span);
  case ExprKind::Int:
    if (e.intTooLarge || e.intValue > (static_cast<unsigned __int128>(1) << 64))
      error(e.span, "integer literal too large");
    return Object::integer(static_cast<PyInt>(e.intValue));
  case ExprKind::Float: return Object::floating(e.floatValue);
  case ExprKind::String: return Object::string(e.name);
  case ExprKind::Bool: return Object::boolean(e.boolValue);
  case ExprKind::None: return Object::none();
  case ExprKind::Ellipsis: {
    Object o;
    o.kind = Object::Kind::Ellipsis;
    return o;
  }
  case ExprKind::Attribute: {
    Object v = eval(*e.value);
    setLoc(e.span);
    return getAttribute(v, e.name, e.span);
  }
  case ExprKind::Call: return evalCall(e);
  case ExprKind::Subscript: {
    Object v = eval(*e.value);
    Object index = eval(*e.index);
    setLoc(e.span);
    return subscript(v, index, e.span);
  }
  case ExprKind::Slice: {
    Object s;
    s.kind = Object::Kind::Slice;
    for (const ExprPtr &part : e.items)
      s.items.push_back(part ? eval(*part) : Object::none());
    return s;
  }
  case ExprKind::BinOp: {
    Object a = eval(*e.value);
    Object b = eval(*e.index);
    setLoc(e.span);
    return binary(e.binOp, a, b, e.span);
  }
  case ExprKind::UnaryOp: {
    Object a = eval(*e.value);
    setLoc(e.span);
    return unary(e.unaryOp, a, e.span);
  }
  case ExprKind::BoolOp: {
    bool isAnd = e.boolValue;
    Object cur = eval(*e.items[0]);
    for (size_t i = 1; i < e.items.size(); ++i) {
      if (cur.isConstexpr()) {
        // Python: 'and' stops at the first false operand, 'or' at the first true one.
        if (isAnd != truthy(cur, e.items[i - 1]->span))
          return cur;
        cur = eval(*e.items[i]);
        continue;
      }
      if (!cur.isTensor())
        error(e.span, std::string("'") + (isAnd ? "and" : "or") + "' is not supported on " + cur.describe());
      Object rhs = eval(*e.items[i]);
      setLoc(e.span);
      if (!rhs.isTensor() && !rhs.isPyNumber())
        error(e.items[i]->span,
              std::string("'") + (isAnd ? "and" : "or") + "' is not supported on " + rhs.describe());
      cur = Object::ofTensor(logical(isAnd, cur.tensor, toTensor(rhs, e.items[i]->span), e.span));
    }
    return cur;
  }
  case ExprKind::Compare: {
    Object left = eval(*e.items[0]);
    Object result;
    for (size_t i = 0; i < e.cmpOps.size(); ++i) {
      Object right = eval(*e.items[i + 1]);
      setLoc(e.span);
      Object r = compare(e.cmpOps[i], left, right, e.span);
      if (i == 0) {
        result = r;
      } else if (result.isConstexpr() && r.isConstexpr()) {
        result = r;
      } else {
        result = Object::ofTensor(logical(true, toTensor(result, e.span), toTensor(r, e.span), e.span));
      }
      if (result.isConstexpr() && !truthy(result, e.span))
        return result; // a chain stops at the first false comparison
      left = right;
    }
    return result;
  }
  case ExprKind::IfExp: return evalIfExp(e);
  case ExprKind::Tuple:
  case ExprKind::List: {
    std::vector<Object> items;
    for (const ExprPtr &item : e.items) {
      if (item->kind == ExprKind::Starred) {
        Object v = eval(*item->value);
        if (!v.is(Object::Kind::Tuple))
          error(item->span, "only tuples can be unpacked with '*', got " + v.describe());
        items.insert(items.end(), v.items.begin(), v.items.end());
        continue;
      }
      items.push_back(eval(*item));
    }
    return Object::tuple(std::move(items));
  }
  case ExprKind::Unsupported: error(e.span, "unsupported Python construct '" + e.name + "'");
  default: error(e.span, std::string("unsupported Python construct '") + unsupportedName(e.kind) + "'");
  }
}

Object CodeGen::evalIfExp(const Expr &e) {
  Object cond = eval(*e.items[0]);
  if (cond.isConstexpr())
    return eval(truthy(cond, e.items[0]->span) ? *e.items[1] : *e.items[2]);
  if (!cond.isTensor())
    error(e.items[0]->span, "the condition must be a scalar, got " + cond.describe());
  if (cond.tensor.isBlock())
    error(e.items[0]->span, "the condition of a conditional expression must be a scalar, got " +
                                cond.describe() + "; use tl.where for blocks");
  setLoc(e.span);
  Tensor c = toBool(cond.tensor, e.span);
  Op *ifOp = b_.ifOp(c.value, {});
  b_.setInsertionPointToEnd(ifOp->region(0));
  Object thenValue = materialize(eval(*e.items[1]), e.items[1]->span);
  std::vector<Value *> thenValues;
  flatten(thenValue, thenValues, e.span);
  setLoc(e.span);
  b_.yield(thenValues);
  b_.setInsertionPointToEnd(ifOp->region(1));
  Object elseValue = eval(*e.items[2]);
  std::vector<Value *> elseValues;
  if (!flattenLike(elseValue, thenValue, elseValues, e.span))
    error(e.span, "the two branches of a conditional expression have different types: " +
                      thenValue.describe() + " and " + materialize(elseValue, e.span).describe());
  setLoc(e.span);
  b_.yield(elseValues);
  for (Value *v : thenValues)
    ifOp->addResult(v->type());
  b_.setInsertionPointAfter(ifOp);
  std::vector<Value *> results = ifOp->results();
  size_t idx = 0;
  return rebuild(thenValue, results, idx);
}

Object CodeGen::evalCall(const Expr &e) {
  Object callee = eval(*e.value);
  CallArgs args;
  args.span = e.span;
  if (callee.is(Object::Kind::Builtin))
    args.callee = callee.name.rfind("py.", 0) == 0 ? callee.name.substr(3) : callee.name;
  else if (callee.is(Object::Kind::BoundMethod))
    args.callee = callee.name;
  else if (callee.is(Object::Kind::JitFunction))
    args.callee = callee.function->name;
  for (const ExprPtr &item : e.items) {
    if (item->kind == ExprKind::Starred) {
      Object v = eval(*item->value);
      if (!v.is(Object::Kind::Tuple))
        error(item->span, "only tuples can be unpacked into arguments, got " + v.describe());
      for (Object &x : v.items)
        args.positional.push_back(Arg{x, item->span, nullptr});
      continue;
    }
    if (item->kind == ExprKind::DoubleStarred)
      error(item->span, "unsupported Python construct '** unpacking'");
    args.positional.push_back(Arg{eval(*item), item->span, item.get()});
  }
  for (const Keyword &k : e.keywords)
    args.keywords.emplace_back(k.name, Arg{eval(*k.value), k.value->span, k.value.get()});
  setLoc(e.span);
  return call(callee, args);
}

Object CodeGen::call(const Object &callee, const CallArgs &args) {
  switch (callee.kind) {
  case Object::Kind::Builtin: {
    auto it = builtins_.find(callee.name);
    if (it == builtins_.end()) {
      std::string shown = callee.name.rfind("py.", 0) == 0 ? callee.name.substr(3) : callee.name;
      error(args.span, "'" + shown + "' is not supported inside a @triton.jit function");
    }
    return it->second(*this, args);
  }
  case Object::Kind::JitFunction: return callJit(*callee.function, *callee.functionModule, args);
  case Object::Kind::BoundMethod: return tensorMethod(callee.items[0], callee.name, args);
  default: error(args.span, "'" + callee.describe() + "' is not callable");
  }
}

Object CodeGen::tensorMethod(const Object &self, const std::string &method, const CallArgs &args) {
  if (self.is(Object::Kind::String))
    return stringMethod(*this, self.name, method, args);
  if (self.is(Object::Kind::DType)) {
    if (!args.positional.empty() || !args.keywords.empty())
      error(args.span, "dtype." + method + "() takes no arguments");
    const DType &d = self.dtype;
    if (method == "is_floating")
      return Object::boolean(d.isFloat());
    if (method == "is_int")
      return Object::boolean(d.isInt());
    if (method == "is_int_signed")
      return Object::boolean(d.isInt() && !d.isUnsigned);
    if (method == "is_int_unsigned")
      return Object::boolean(d.isInt() && d.isUnsigned);
    if (method == "is_bool")
      return Object::boolean(d.isBool());
    if (method == "is_ptr")
      return Object::boolean(d.isPtr());
    if (method == "is_fp8")
      return Object::boolean(d.isFp8());
    if (method == "is_fp16")
      return Object::boolean(d.type == Type::f16());
    if (method == "is_bf16")
      return Object::boolean(d.type == Type::bf16());
    if (method == "is_fp32")
      return Object::boolean(d.type == Type::f32());
    if (method == "is_fp64")
      return Object::boolean(d.type == Type::f64());
    if (method == "is_block")
      return Object::boolean(false);
    if (method == "is_void")
      return Object::boolean(d.isVoid());
    if (method.rfind("is_int", 0) == 0 || method.rfind("is_uint", 0) == 0) {
      bool u = method.rfind("is_uint", 0) == 0;
      std::string bits = method.substr(u ? 7 : 6);
      return Object::boolean(d.isInt() && !d.isBool() && d.isUnsigned == u &&
                             std::to_string(d.bits()) == bits);
    }
    error(args.span, "dtype has no method '" + method + "'");
  }
  CallArgs withSelf = args;
  withSelf.callee = "tensor." + method;
  withSelf.positional.insert(withSelf.positional.begin(), Arg{self, args.span, nullptr});
  std::string fn = method == "to"                        ? "tensor.to"
                   : method.rfind("tensordesc.", 0) == 0 ? method
                                                         : "tl." + method;
  auto it = builtins_.find(fn);
  if (it == builtins_.end())
    error(args.span, "tensor method '" + method + "' is not supported by Trident");
  return it->second(*this, withSelf);
}

Object CodeGen::getAttribute(const Object &obj, const std::string &name, const Span &span) {
  switch (obj.kind) {
  case Object::Kind::Module: {
    if (obj.functionModule)
      return fileModuleMember(*obj.functionModule, name, span, false);
    const std::string &path = obj.name;
    auto builtin = [&](const std::string &full) { return Object::named(Object::Kind::Builtin, full); };
    if (path == "triton") {
      if (name == "__version__")
        return Object::string(kTritonVersion);
      if (name == "language")
        return Object::named(Object::Kind::Module, "triton.language");
      if (name == "cdiv" || name == "next_power_of_2" || name == "jit" || name == "autotune" ||
          name == "heuristics" || name == "Config")
        return builtin("triton." + name);
      if (name == "runtime" || name == "testing" || name == "compiler" || name == "tools")
        return Object::named(Object::Kind::Module, "triton." + name);
      error(span, "module 'triton' has no attribute '" + name + "'");
    }
    if (path == "triton.language" || path == "triton.language.core" || path == "triton.language.standard" ||
        path == "triton.language.semantic") {
      if (auto d = dtypeFromTritonAttribute(name))
        return Object::ofDType(*d);
      if (name == "math" || name == "extra" || name == "random" || name == "standard" || name == "core" ||
          name == "target_info")
        return Object::named(Object::Kind::Module, "triton.language." + name);
      if (name == "PropagateNan")
        return Object::named(Object::Kind::Module, "triton.language.PropagateNan");
      if (builtins_.count("tl." + name))
        return builtin("tl." + name);
      if (name == "tensor" || name == "dtype" || name == "block_type" || name == "pointer_type" ||
          name == "constexpr" || name == "const" || name == "constexpr_type" || name == "tensor_descriptor")
        return builtin("tl." + name);
      if (name == "TRITON_MAX_TENSOR_NUMEL")
        return Object::integer(1048576);
      error(span, "tl." + name + " is not supported by Trident (or does not exist in triton.language)");
    }
    if (path == "triton.language.math" || path == "triton.language.random") {
      if (builtins_.count("tl." + name))
        return builtin("tl." + name);
      error(span, "tl.math." + name + " is not supported by Trident");
    }
    if (path == "triton.language.target_info") {
      if (builtins_.count("tl.target_info." + name))
        return builtin("tl.target_info." + name);
      error(span, "tl.target_info." + name + " is not supported by Trident (or does not exist in "
                  "triton.language.target_info)");
    }
    if (path.rfind("triton.language.extra", 0) == 0) {
      if (name == "cuda" || name == "hip" || name == "libdevice" || name == "intel")
        return Object::named(Object::Kind::Module, path + "." + name);
      if (path == "triton.language.extra.cuda" && (name == "gdc_wait" || name == "gdc_launch_dependents"))
        return builtin("tl.extra.cuda." + name);
      if (builtins_.count("libdevice." + name) && path.size() >= 9 &&
          path.compare(path.size() - 9, 9, "libdevice") == 0)
        return builtin("libdevice." + name);
      error(span, "libdevice function '" + name + "' is not supported by Trident (or does not exist in libdevice)");
    }
    if (path == "triton.language.PropagateNan") {
      if (name == "ALL" || name == "NONE")
        return Object::named(Object::Kind::Enum, "PropagateNan." + name);
      error(span, "tl.PropagateNan has no member '" + name + "'");
    }
    if (path == "math") {
      if (name == "pi")
        return Object::floating(M_PI);
      if (name == "e")
        return Object::floating(M_E);
      if (name == "tau")
        return Object::floating(2 * M_PI);
      if (name == "inf")
        return Object::floating(INFINITY);
      if (name == "nan")
        return Object::floating(NAN);
      if (builtins_.count("math." + name))
        return builtin("math." + name);
      error(span, "math." + name + " is not supported inside a @triton.jit function");
    }
    if (path == "typing" && name == "TYPE_CHECKING")
      return Object::boolean(false);
    if (path == "packaging" && name == "version")
      return Object::named(Object::Kind::Module, "packaging.version");
    if (path == "packaging.version" && (name == "parse" || name == "Version"))
      return builtin("packaging.version.parse");
    error(span, "module '" + path + "' cannot be used inside a @triton.jit function");
  }
  case Object::Kind::Tensor: {
    const Tensor &t = obj.tensor;
    if (name == "dtype")
      return Object::ofDType(t.dtype);
    if (name == "type")
      return Object::ofDType(t.dtype);
    if (name == "shape") {
      std::vector<Object> dims;
      for (int64_t d : t.shape())
        dims.push_back(Object::integer(d));
      return Object::tuple(std::move(dims));
    }
    if (name == "numel")
      return Object::integer(t.type().numElements());
    if (name == "ndim" || name == "rank")
      return Object::integer(t.type().rank());
    if (name == "T") {
      CallArgs args;
      args.callee = "tensor.T";
      args.span = span;
      args.positional.push_back(Arg{obj, span, nullptr});
      return builtins_.at("tl.trans")(*this, args);
    }
    for (const char *m : kTensorMethods)
      if (name == m) {
        Object bound = Object::named(Object::Kind::BoundMethod, name);
        bound.items.push_back(obj);
        return bound;
      }
    error(span, "tensor has no attribute '" + name + "'");
  }
  case Object::Kind::DType: {
    const DType &d = obj.dtype;
    if (name == "element_ty") {
      if (!d.isPtr())
        error(span, "dtype " + d.name() + " has no attribute 'element_ty' (it is not a pointer)");
      return Object::ofDType(d.pointee());
    }
    if (name == "primitive_bitwidth")
      return Object::integer(d.bits());
    if (name == "int_bitwidth") {
      if (!d.isInt())
        error(span, "dtype " + d.name() + " has no attribute 'int_bitwidth'");
      return Object::integer(d.bits());
    }
    if (name == "fp_mantissa_width" && !d.isVoid())
      return Object::integer(d.mantissaBits());
    if (name == "exponent_bias" && d.isFloat()) {
      int bias = d.softFp8 == SoftFp8::E4B8 ? 8 : d.softFp8 == SoftFp8::E5B16 ? 16 : d.softFp8 == SoftFp8::E4B15 ? 15
                 : d.type == Type::f8e4m3()                                                                   ? 7
                 : d.type == Type::f8e5m2() || d.type == Type::f16()                                          ? 15
                 : d.type == Type::f64()                                                                      ? 1023
                                                                                                              : 127;
      return Object::integer(bias);
    }
    if (name == "scalar")
      return obj;
    if (name == "name")
      return Object::string(d.name());
    if (name.rfind("is_", 0) == 0) {
      Object bound = Object::named(Object::Kind::BoundMethod, name);
      bound.items.push_back(obj);
      return bound;
    }
    error(span, "dtype has no attribute '" + name + "'");
  }
  case Object::Kind::String:
    if (isStringMethod(name)) {
      Object bound = Object::named(Object::Kind::BoundMethod, name);
      bound.items.push_back(obj);
      return bound;
    }
    error(span, "'str' object has no attribute '" + name + "'");
  case Object::Kind::Tuple:
    if (obj.name == "Version") { // packaging.version.parse(...): its release numbers
      if (name == "release")
        return Object::tuple(obj.items);
      static const char *parts[] = {"major", "minor", "micro"};
      for (size_t i = 0; i < 3; ++i)
        if (name == parts[i])
          return i < obj.items.size() ? obj.items[i] : Object::integer(0);
    }
    error(span, "'" + obj.describe() + "' has no attribute '" + name + "'");
  case Object::Kind::Slice: { // tl.slice: start, stop, step
    static const char *parts[] = {"start", "stop", "step"};
    for (size_t i = 0; i < 3; ++i)
      if (name == parts[i])
        return obj.items[i];
    error(span, "'slice' object has no attribute '" + name + "'");
  }
  case Object::Kind::BlockPtr:
    if (obj.blockPtr->isDescriptor)
      return descriptorAttribute(obj, name, span);
    // Triton's is pointer<block<shape, elem>>, whose element_ty casts as elem does;
    // Trident's is pointer<elem> (it has no block dtypes).
    if (name == "dtype" || name == "type")
      return Object::ofDType(obj.blockPtr->base.dtype);
    error(span, "a block pointer has no attribute '" + name + "'");
  default: error(span, "'" + obj.describe() + "' has no attribute '" + name + "'");
  }
}

Object CodeGen::subscript(const Object &obj, const Object &index, const Span &span) {
  if (obj.is(Object::Kind::Tuple) || obj.is(Object::Kind::String)) {
    PyInt n = obj.is(Object::Kind::Tuple) ? static_cast<PyInt>(obj.items.size())
                                          : static_cast<PyInt>(obj.name.size());
    if (index.is(Object::Kind::Int) || index.is(Object::Kind::Bool)) {
      PyInt i = index.is(Object::Kind::Bool) ? PyInt(index.boolValue) : index.intValue;
      if (i < 0)
        i += n;
      if (i < 0 || i >= n)
        error(span, obj.is(Object::Kind::Tuple) ? "tuple index out of range" : "string index out of range");
      if (obj.is(Object::Kind::String))
        return Object::string(std::string(1, obj.name[static_cast<size_t>(i)]));
      return obj.items[static_cast<size_t>(i)];
    }
    if (index.is(Object::Kind::Slice)) {
      auto part = [&](size_t k, PyInt dflt) -> PyInt {
        const Object &p = index.items[k];
        if (p.is(Object::Kind::None))
          return dflt;
        if (!p.is(Object::Kind::Int))
          error(span, "slice indices must be integers or None");
        return p.intValue;
      };
      PyInt step = part(2, 1);
      if (step == 0)
        error(span, "slice step cannot be zero");
      // Defaults are indices already: a negative step without a stop runs down to index 0.
      PyInt lo = part(0, step > 0 ? 0 : n - 1), hi = part(1, step > 0 ? n : -1);
      auto clampIdx = [&](PyInt v, bool isLower) {
        if (v < 0)
          v += n;
        if (step > 0)
          return std::clamp<PyInt>(v, 0, n);
        (void)isLower;
        return std::clamp<PyInt>(v, -1, n - 1);
      };
      if (!index.items[0].is(Object::Kind::None))
        lo = clampIdx(lo, true);
      if (!index.items[1].is(Object::Kind::None))
        hi = clampIdx(hi, false);
      std::vector<Object> items;
      std::string chars;
      for (PyInt i = lo; step > 0 ? i < hi : i > hi; i += step) {
        if (obj.is(Object::Kind::Tuple))
          items.push_back(obj.items[static_cast<size_t>(i)]);
        else
          chars += obj.name[static_cast<size_t>(i)];
      }
      return obj.is(Object::Kind::Tuple) ? Object::tuple(std::move(items)) : Object::string(chars);
    }
    error(span, "indices must be integers or slices, got " + index.describe());
  }
  if (obj.isTensor()) {
    std::vector<Object> parts = index.is(Object::Kind::Tuple) ? index.items : std::vector<Object>{index};
    Tensor t = obj.tensor;
    size_t dim = 0;
    for (const Object &p : parts) {
      if (p.is(Object::Kind::None)) {
        if (t.shape().size() >= 8)
          error(span, "blocks may have at most 8 dimensions");
        if (!t.isBlock()) {
          int64_t one[] = {1};
          t = Tensor{b_.splat(t.value, one), t.dtype};
        } else {
          t = Tensor{b_.expandDims(t.value, static_cast<int>(dim)), t.dtype};
        }
        ++dim;
        continue;
      }
      if (p.is(Object::Kind::Slice) && p.items[0].is(Object::Kind::None) &&
          p.items[1].is(Object::Kind::None) && p.items[2].is(Object::Kind::None)) {
        if (dim >= t.shape().size())
          error(span, "too many indices for a tensor of rank " + std::to_string(obj.tensor.shape().size()));
        ++dim;
        continue;
      }
      std::string shown = p.isConstexpr() ? pythonStr(p) : p.describe();
      if (p.is(Object::Kind::Slice)) {
        shown = "slice(";
        for (size_t k = 0; k < 3; ++k)
          shown += (k ? ", " : "") + (p.items[k].isConstexpr() ? pythonStr(p.items[k]) : p.items[k].describe());
        shown += ")";
      }
      error(span, "unsupported tensor index: " + shown + " (only None and ':' are supported)");
    }
    return Object::ofTensor(t);
  }
  error(span, "'" + obj.describe() + "' is not subscriptable");
}

} // namespace trident::frontend
