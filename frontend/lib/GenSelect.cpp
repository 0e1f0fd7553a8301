// tl.map_elementwise(scalar_fn, *args): the function is called once on the whole
// (broadcast) blocks, and an `if` whose condition is a block (one truth value per
// element) is if-converted: both branches are computed, then each name they
// assign, and the value returned, is selected element by element.
//
//   @triton.jit
//   def selu(x, alpha):            y = tl.map_elementwise(selu, x, 1.5)
//       if x > 0:                  becomes
//           return x                 c = x > 0
//       return alpha * (tl.exp(x) - 1)   y = where(c, x, 1.5 * (exp(x) - 1))
//
// Both branches run for every element, so they must not store, and loops whose
// condition depends on the element are refused (their condition is a block).
// Also tl.inline_asm_elementwise, the other per-element function of the language.

#include "CodeGen.h"

namespace trident::frontend {

Object CodeGen::selectObjects(const Tensor &cond, const Object &a, const Object &b, const Span &span) {
  if (a.sameAs(b))
    return a;
  if (a.is(Object::Kind::Tuple) && b.is(Object::Kind::Tuple) && a.items.size() == b.items.size()) {
    Object r = a;
    for (size_t i = 0; i < a.items.size(); ++i)
      r.items[i] = selectObjects(cond, a.items[i], b.items[i], span);
    return r;
  }
  auto value = [](const Object &o) { return o.isTensor() || o.isPyNumber(); };
  if (!value(a) || !value(b))
    error(span, "in tl.map_elementwise, the two branches of this if give different kinds of values: " +
                    a.describe() + " and " + b.describe());
  return Object::ofTensor(where(Object::ofTensor(cond), a, b, span));
}

std::optional<bool> CodeGen::genIfSelect(const Stmt &s, const Tensor &cond, const StmtList &stmts,
                                         size_t index, const Continuation *next) {
  Continuation rest{&stmts, index + 1, next};
  Frame &f = frame();
  auto snapshot = f.locals;
  setLoc(s.span);
  if (containsReturn(s.body) || containsReturn(s.orelse)) {
    // As for scf.if: the rest of the function runs in both branches; the returned
    // values are selected.
    if (f.loopDepth > 0)
      error(s.span, "return statements inside loops are not supported");
    auto runBranch = [&](const StmtList &body) {
      f.locals = snapshot;
      f.returned.reset();
      if (!execSequence(body, 0, &rest))
        f.returned = Object::none();
      Object r = *f.returned;
      f.returned.reset();
      return r;
    };
    Object thenRet = runBranch(s.body);
    Object elseRet = runBranch(s.orelse);
    f.locals = snapshot;
    f.returned = selectObjects(cond, thenRet, elseRet, s.span);
    return true;
  }
  execSequence(s.body, 0, nullptr);
  auto thenVars = f.locals;
  f.locals = snapshot;
  execSequence(s.orelse, 0, nullptr);
  auto elseVars = f.locals;
  f.locals = snapshot;
  for (const auto &[name, tv] : thenVars) {
    auto e = elseVars.find(name);
    if (e != elseVars.end()) // names only one branch defines are not visible after the if
      f.locals[name] = selectObjects(cond, tv, e->second, s.span);
  }
  return std::nullopt;
}

namespace {

struct ElementwiseGuard {
  explicit ElementwiseGuard(CodeGen &cg) : cg_(cg) { ++cg_.elementwiseDepth; }
  ~ElementwiseGuard() { --cg_.elementwiseDepth; }
  ElementwiseGuard(const ElementwiseGuard &) = delete;
  ElementwiseGuard &operator=(const ElementwiseGuard &) = delete;
  CodeGen &cg_;
};

Object mapElementwise(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"scalar_fn", "*args", "pack="});
  const Object &fn = a[0]->value;
  if (!fn.is(Object::Kind::JitFunction))
    cg.error(a[0]->span, "tl.map_elementwise needs a @triton.jit function, got " + fn.describe());
  if (a[2])
    cg.intArg(*a[2], "pack"); // how many elements one call handles: a scheduling hint here
  std::vector<Arg> items;
  for (const Object &o : a[1] ? a[1]->value.items : std::vector<Object>{})
    items.push_back(Arg{o, a[1]->span, nullptr});
  if (items.empty())
    cg.error(args.span, "tl.map_elementwise needs at least one tensor argument");
  // The arguments broadcast to one shape, as Triton's.
  std::vector<Tensor> tensors;
  Tensor shapeOf = cg.tensorArg(items[0]);
  for (const Arg &item : items) {
    Tensor t = cg.tensorArg(item);
    shapeOf = cg.broadcastPair(shapeOf, t, item.span).first;
    tensors.push_back(t);
  }
  CallArgs call;
  call.callee = fn.function ? fn.function->name : "";
  call.span = args.span;
  for (size_t i = 0; i < tensors.size(); ++i)
    call.positional.push_back(
        Arg{Object::ofTensor(cg.broadcastTo(tensors[i], shapeOf.shape(), items[i].span)), items[i].span,
            nullptr});
  ElementwiseGuard guard(cg);
  return cg.call(fn, call);
}

// tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack): the
// arguments broadcast to one shape (no type promotion, as Triton's
// arithmetic_check=False), one result per dtype (a tuple of tensors when dtype is a
// tuple). The block IR op is target-neutral; backends that cannot run the assembly
// refuse it with its location.
Object inlineAsmElementwise(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"asm", "constraints", "args", "dtype", "is_pure", "pack"});
  std::string text = cg.stringArg(*a[0], "asm");
  std::string constraints = cg.stringArg(*a[1], "constraints");
  bool pure = cg.boolArg(*a[4], "is_pure");
  int64_t pack = cg.intArg(*a[5], "pack");
  if (pack < 1 || pack > 32)
    cg.error(a[5]->span, "tl.inline_asm_elementwise's pack must be between 1 and 32, got " + std::to_string(pack));
  std::vector<Object> argItems;
  if (a[2]->value.is(Object::Kind::Tuple))
    argItems = a[2]->value.items;
  else
    argItems.push_back(a[2]->value); // a single tensor (Triton wants a list; be lenient)
  std::vector<DType> dtypes;
  bool multiple = a[3]->value.is(Object::Kind::Tuple);
  for (const Object &d : multiple ? a[3]->value.items : std::vector<Object>{a[3]->value}) {
    if (!d.is(Object::Kind::DType))
      cg.error(a[3]->span, "tl.inline_asm_elementwise's dtype must be a dtype or a tuple of dtypes, got " +
                               d.describe());
    if (d.dtype.isPtr())
      cg.error(a[3]->span, "tl.inline_asm_elementwise cannot return pointers");
    if (d.dtype.isVoid())
      cg.error(a[3]->span, "tl.inline_asm_elementwise cannot return tl.void: as in Triton, the asm must have at "
                           "least one result (return a dummy one you do not use)");
    dtypes.push_back(d.dtype);
  }
  if (dtypes.empty())
    cg.error(a[3]->span, "tl.inline_asm_elementwise needs at least one result dtype");
  std::vector<Tensor> tensors;
  for (const Object &o : argItems)
    tensors.push_back(cg.tensorArg(Arg{o, a[2]->span, nullptr}));
  std::vector<int64_t> shape; // empty: scalars (also when there are no arguments)
  // Numpy broadcasting of every argument to one shape.
  if (!tensors.empty()) {
    Tensor shapeOf = tensors[0];
    for (const Tensor &t : tensors)
      shapeOf = cg.broadcastPair(shapeOf, t, a[2]->span).first;
    shape.assign(shapeOf.shape().begin(), shapeOf.shape().end());
    for (Tensor &t : tensors)
      t = cg.broadcastTo(t, shape, a[2]->span);
  }
  std::vector<Value *> operands;
  for (const Tensor &t : tensors)
    operands.push_back(t.value);
  std::vector<Type> types;
  for (const DType &d : dtypes)
    types.push_back(Type::block(shape, d.type));
  Op *op = cg.builder().create(OpCode::ElementwiseInlineAsm, operands, types,
                               {{"asm_string", Attribute::string(text)},
                                {"constraints", Attribute::string(constraints)},
                                {"packed_element", Attribute::integer(pack)},
                                {"pure", Attribute::boolean(pure)}});
  std::vector<Object> results;
  for (unsigned i = 0; i < dtypes.size(); ++i)
    results.push_back(Object::ofTensor(op->result(i), dtypes[i]));
  return multiple ? Object::tuple(std::move(results)) : results[0];
}

} // namespace

void registerSelectBuiltins(BuiltinTable &t) {
  t["tl.map_elementwise"] = mapElementwise;
  t["tl.inline_asm_elementwise"] = inlineAsmElementwise;
}

} // namespace trident::frontend
