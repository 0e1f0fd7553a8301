// Hints and debugging: tl.multiple_of, tl.max_contiguous, tl.max_constancy,
// tl.assume, tl.static_print, tl.static_assert, tl.device_print,
// tl.device_assert, tl.debug_barrier.

#include "CodeGen.h"

#include <cstdio>

namespace trident::frontend {

namespace {

Object hint(CodeGen &cg, const CallArgs &args, OpCode code, const char *name) {
  auto a = args.bind(cg, {"input", "values"});
  Tensor x = cg.tensorArg(*a[0]);
  std::vector<int64_t> values = cg.shapeArg(*a[1], (std::string(name) + "'s values").c_str());
  size_t expected = x.isBlock() ? x.shape().size() : 1;
  if (values.size() != expected)
    cg.error(a[1]->span, std::string(name) + " needs " + std::to_string(expected) +
                             " value(s), one per dimension, got " + std::to_string(values.size()));
  for (int64_t v : values)
    if (v < 1)
      cg.error(a[1]->span, std::string(name) + "'s values must be positive, got " + std::to_string(v));
  if (!x.dtype.isInt() && !x.dtype.isPtr())
    cg.error(a[0]->span, std::string(name) + " applies to integers and pointers, got " + x.dtype.name());
  Op *op = cg.builder().create(code, {x.value}, {x.type()}, {{"values", Attribute::ints(values)}});
  return Object::ofTensor(op->result(), x.dtype);
}

std::string joined(const Object &values, const std::string &sep) {
  std::string s;
  for (size_t i = 0; i < values.items.size(); ++i) {
    const Object &v = values.items[i];
    s += (i ? sep : "") + (v.isConstexpr() ? pythonStr(v) : v.describe());
  }
  return s;
}

} // namespace

void registerDebugBuiltins(BuiltinTable &t) {
  t["tl.multiple_of"] = [](CodeGen &cg, const CallArgs &args) {
    return hint(cg, args, OpCode::MultipleOf, "tl.multiple_of");
  };
  t["tl.max_contiguous"] = [](CodeGen &cg, const CallArgs &args) {
    return hint(cg, args, OpCode::MaxContiguous, "tl.max_contiguous");
  };
  t["tl.max_constancy"] = [](CodeGen &cg, const CallArgs &args) {
    // A hint the block IR does not record; dropping a hint never changes results.
    auto a = args.bind(cg, {"input", "values"});
    return Object::ofTensor(cg.tensorArg(*a[0]));
  };
  t["tl.assume"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"cond"});
    const Object &c = a[0]->value;
    if (c.isConstexpr()) {
      if (!cg.truthy(c, a[0]->span))
        cg.error(a[0]->span, "tl.assume of a condition that is always false");
      return Object::none();
    }
    Tensor cond = cg.tensorArg(*a[0]);
    if (cond.isBlock() || !cond.dtype.isBool())
      cg.error(a[0]->span, "tl.assume needs a scalar boolean condition, got " + c.describe());
    cg.builder().create(OpCode::Assume, {cond.value}, {});
    return Object::none();
  };
  t["tl.static_print"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"*values", "sep=", "end=", "file=", "flush="});
    std::string sep = a[1] ? cg.stringArg(*a[1], "sep") : " ";
    std::string end = a[2] ? cg.stringArg(*a[2], "end") : "\n";
    cg.staticPrint(joined(a[0] ? a[0]->value : Object::tuple({}), sep) + end);
    return Object::none();
  };
  t["tl.static_assert"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"cond", "msg="});
    const Object &c = a[0]->value;
    if (!c.isConstexpr())
      cg.error(a[0]->span, "tl.static_assert needs a compile-time condition, got " + c.describe() +
                               "; use tl.device_assert for run-time checks");
    if (!cg.truthy(c, a[0]->span)) {
      std::string msg =
          a[1] ? (a[1]->value.isConstexpr() ? pythonStr(a[1]->value) : a[1]->value.describe()) : "";
      cg.error(args.span, "static_assert failed" + (msg.empty() ? std::string() : ": " + msg));
    }
    return Object::none();
  };
  t["tl.device_print"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"prefix", "*args", "hex="});
    std::string prefix = cg.stringArg(*a[0], "device_print's prefix");
    bool hex = a[2] && cg.boolArg(*a[2], "hex");
    std::vector<Value *> operands;
    if (a[1])
      for (const Object &o : a[1]->value.items) {
        if (!o.isTensor() && !o.isPyNumber())
          cg.error(a[1]->span, "tl.device_print prints tensors and numbers, got " + o.describe());
        operands.push_back(cg.toTensor(o, a[1]->span).value);
      }
    AttributeList attrs{{"prefix", Attribute::string(prefix)}};
    if (hex)
      attrs.set("hex", Attribute::boolean(true));
    cg.builder().create(OpCode::Print, operands, std::span<const Type>{}, attrs);
    return Object::none();
  };
  t["tl.device_assert"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"cond", "msg=", "mask="});
    std::string msg = a[1] ? cg.stringArg(*a[1], "msg") : "";
    const Object &c = a[0]->value;
    if (c.isConstexpr()) {
      if (!cg.truthy(c, a[0]->span))
        cg.error(args.span,
                 "device_assert of a condition that is always false" + (msg.empty() ? "" : ": " + msg));
      return Object::none();
    }
    Tensor cond = cg.toBool(cg.tensorArg(*a[0]), a[0]->span);
    // Like Triton, assertions are only compiled in debug mode.
    if (!cg.debug())
      return Object::none();
    if (a[2] && !a[2]->value.is(Object::Kind::None)) {
      // Masked-off elements pass.
      Tensor mask = cg.toBool(cg.tensorArg(*a[2]), a[2]->span);
      Object notMask = cg.unary(UnaryOpKind::Not, Object::ofTensor(mask), args.span);
      cond = cg.logical(false, cond, notMask.tensor, args.span);
    }
    cg.builder().create(OpCode::Assert, {cond.value}, {}, {{"message", Attribute::string(msg)}});
    return Object::none();
  };
  // Programmatic dependent launch (Hopper): Trident launches kernels in stream order,
  // so the previous kernel has finished before this one starts and its memory is
  // visible; waiting for it and releasing the next one are both no-ops.
  for (const char *name : {"tl.extra.cuda.gdc_wait", "tl.extra.cuda.gdc_launch_dependents"})
    t[name] = [](CodeGen &cg, const CallArgs &args) {
      args.bind(cg, {});
      return Object::none();
    };
  // A barrier of all the program's threads that also orders their memory accesses
  // (Triton's gpu.barrier): a lock's release after it publishes every thread's stores.
  t["tl.debug_barrier"] = [](CodeGen &cg, const CallArgs &args) {
    args.bind(cg, {});
    cg.builder().create(OpCode::Barrier, std::span<Value *const>{}, std::span<const Type>{});
    return Object::none();
  };
}

} // namespace trident::frontend
