// Loops: `for` over range / tl.range (scf.for), tl.static_range (unrolled at
// compile time) or a tuple (unrolled), and `while` (scf.while). Names assigned in
// the body that exist before the loop are loop-carried; names first assigned in
// the body are local to it, as in Triton.

#include "CodeGen.h"

namespace trident::frontend {

namespace {

constexpr PyInt kMaxUnroll = 1 << 16;

struct Carried {
  std::string name;
  Object before;               // the value before the loop
  Object skeleton;             // materialized: what flows through the loop
  size_t first = 0, count = 0; // its range in the flattened values
};

bool carriable(const Object &o) {
  if (o.isTensor() || o.is(Object::Kind::BlockPtr) || o.isPyNumber())
    return true;
  if (o.is(Object::Kind::Tuple)) {
    for (const Object &i : o.items)
      if (!carriable(i) && !i.isConstexpr())
        return false;
    return true;
  }
  return false;
}

} // namespace

void CodeGen::genFor(const Stmt &s) {
  const Expr &iter = *s.value;
  const Expr &target = *s.targets[0];
  Frame &f = frame();
  std::string kind;
  CallArgs args;
  if (iter.kind == ExprKind::Call) {
    Object callee = eval(*iter.value);
    if (callee.is(Object::Kind::Builtin) &&
        (callee.name == "py.range" || callee.name == "tl.range" || callee.name == "tl.static_range")) {
      kind = callee.name;
      args.callee = kind == "py.range" ? "range" : kind;
      args.span = iter.span;
      for (const ExprPtr &item : iter.items)
        args.positional.push_back(Arg{eval(*item), item->span, item.get()});
      for (const Keyword &k : iter.keywords)
        args.keywords.emplace_back(k.name, Arg{eval(*k.value), k.value->span, k.value.get()});
    }
  }
  if (kind.empty()) {
    Object seq = eval(iter);
    if (!seq.is(Object::Kind::Tuple))
      error(iter.span,
            "for loops can only iterate over range(), tl.range(), tl.static_range() or a tuple, got " +
                seq.describe());
    ++f.loopDepth;
    for (const Object &item : seq.items) {
      assignTarget(target, item);
      execSequence(s.body, 0, nullptr);
    }
    --f.loopDepth;
    return;
  }
  if (!s.orelse.empty())
    error(s.span, "unsupported Python construct 'for ... else'");
  // Triton's range() takes tl.range's keywords; in a @triton.constexpr_function, ranges
  // run as Python loops (unrolled).
  bool rangeKeywords = kind == "tl.range" || kind == "py.range";
  if (f.constexprFunction)
    kind = "tl.static_range";
  std::vector<std::optional<Arg>> a =
      rangeKeywords ? args.bind(*this, {"arg1", "arg2=", "step=", "num_stages=", "loop_unroll_factor=",
                                        "disallow_acc_multi_buffer=", "flatten=", "warp_specialize="})
                    : args.bind(*this, {"arg1", "arg2=", "step="});
  // range(stop) or range(start, stop[, step])
  Arg start = a[1] ? *a[0] : Arg{Object::integer(0), a[0]->span, nullptr};
  Arg stop = a[1] ? *a[1] : *a[0];
  Arg step = a[2] ? *a[2] : Arg{Object::integer(1), a[0]->span, nullptr};

  if (kind == "tl.static_range") {
    auto bound = [&](const Arg &x) {
      if (x.value.kind != Object::Kind::Int && x.value.kind != Object::Kind::Bool)
        error(x.span, "tl.static_range's bounds must be tl.constexpr integers, got " + x.value.describe());
      return x.value.kind == Object::Kind::Bool ? PyInt(x.value.boolValue) : x.value.intValue;
    };
    PyInt lo = bound(start), hi = bound(stop), st = bound(step);
    if (st == 0)
      error(step.span, "tl.static_range's step must not be zero");
    PyInt trips = st > 0 ? (hi > lo ? (hi - lo + st - 1) / st : 0) : (lo > hi ? (lo - hi - st - 1) / -st : 0);
    if (trips > kMaxUnroll)
      error(s.span, "tl.static_range unrolls " + pyIntStr(trips) + " iterations, more than the limit of " +
                        pyIntStr(kMaxUnroll));
    if (target.kind != ExprKind::Name)
      error(target.span, "the target of a for loop over tl.static_range must be a name");
    ++f.loopDepth;
    for (PyInt i = 0; i < trips; ++i) {
      f.locals[target.name] = Object::integer(lo + i * st); // the induction variable is a constexpr
      execSequence(s.body, 0, nullptr);
    }
    --f.loopDepth;
    return;
  }

  if (target.kind != ExprKind::Name)
    error(target.span, "the target of a for loop over a range must be a name");
  setLoc(s.span);
  bool negative = false;
  if (step.value.kind == Object::Kind::Int) {
    if (step.value.intValue == 0)
      error(step.span, "range() step must not be zero");
    if (step.value.intValue < 0) {
      // Iterate upwards from stop to start and map i to start + stop - i.
      negative = true;
      step.value.intValue = -step.value.intValue;
      std::swap(start, stop);
    }
  }
  Tensor lb = toTensor(start.value, start.span), ub = toTensor(stop.value, stop.span),
         st = toTensor(step.value, step.span);
  for (const Tensor *t : {&lb, &ub, &st})
    if (!t->dtype.isInt() || t->isBlock())
      error(s.span, "for loop bounds and step must be integer scalars, got " + lb.dtype.name() + ", " +
                        ub.dtype.name() + " and " + st.dtype.name());
  DType ivType = integerPromote(integerPromote(lb.dtype, ub.dtype), st.dtype);
  if (ivType.isBool())
    ivType = DType::i32();
  lb = cast(lb, ivType, s.span);
  ub = cast(ub, ivType, s.span);
  st = cast(st, ivType, s.span);

  // Loop-carried values: names assigned in the body that are live before it.
  auto snapshot = f.locals;
  std::vector<Carried> carried;
  std::vector<Value *> inits;
  std::set<std::string> assigned = assignedNames(s.body);
  for (const std::string &name : assigned) {
    auto it = snapshot.find(name);
    if (it == snapshot.end() || name == target.name || !carriable(it->second))
      continue;
    Carried c;
    c.name = name;
    c.before = it->second;
    c.skeleton = materialize(it->second, s.span);
    c.first = inits.size();
    flatten(c.skeleton, inits, s.span);
    c.count = inits.size() - c.first;
    carried.push_back(c);
  }
  setLoc(s.span);
  Op *loop = b_.forOp(lb.value, ub.value, st.value, inits);
  if (rangeKeywords) {
    const char *attrNames[] = {"num_stages", "loop_unroll_factor"};
    for (int k = 0; k < 2; ++k)
      if (a[3 + k] && !a[3 + k]->value.is(Object::Kind::None))
        loop->setAttr(attrNames[k], Attribute::integer(intArg(*a[3 + k], attrNames[k])));
    const char *flagNames[] = {"disallow_acc_multi_buffer", "flatten", "warp_specialize"};
    for (int k = 0; k < 3; ++k)
      if (a[5 + k] && boolArg(*a[5 + k], flagNames[k]))
        loop->setAttr(flagNames[k], Attribute::boolean(true));
  }
  Block *body = loop->region();
  std::vector<Value *> regionArgs = body->arguments();
  b_.setInsertionPointToEnd(body);
  for (Carried &c : carried) {
    size_t idx = 1 + c.first;
    f.locals[c.name] = rebuild(c.skeleton, regionArgs, idx);
  }
  Tensor iv{regionArgs[0], ivType};
  if (negative) {
    setLoc(s.span);
    // start and stop were swapped: i = start + stop - iv
    Value *sum = b_.binary(OpCode::AddI, lb.value, ub.value);
    iv = Tensor{b_.binary(OpCode::SubI, sum, iv.value), ivType};
  }
  f.locals[target.name] = Object::ofTensor(iv);
  ++f.loopDepth;
  execSequence(s.body, 0, nullptr);
  --f.loopDepth;
  std::vector<Value *> yields;
  for (const Carried &c : carried) {
    const Object &end = f.locals[c.name];
    if (!flattenLike(end, c.skeleton, yields, s.span))
      error(s.span, "loop-carried variable '" + c.name + "' has initial type " + c.skeleton.describe() +
                        " but is re-assigned to " + materialize(end, s.span).describe() + " in the loop");
  }
  // Names that cannot be carried (None, dtypes...) must keep their value.
  for (const std::string &name : assigned) {
    auto before = snapshot.find(name);
    auto after = f.locals.find(name);
    if (before == snapshot.end() || name == target.name || carriable(before->second) ||
        after == f.locals.end())
      continue;
    if (!after->second.sameAs(before->second))
      error(s.span, "'" + name + "' is " + before->second.describe() + " before the loop and " +
                        after->second.describe() + " in it; only tensors can change in a loop");
  }
  setLoc(s.span);
  Op *yield = b_.yield(yields);
  b_.setInsertionPointAfter(loop);

  // Drop carried values the body does not change.
  std::vector<Value *> finalValues(inits.size());
  std::vector<bool> unchanged(inits.size());
  for (size_t k = 0; k < inits.size(); ++k)
    unchanged[k] = yield->operand(static_cast<unsigned>(k)) == regionArgs[k + 1];
  for (size_t k = inits.size(); k-- > 0;) {
    if (!unchanged[k]) {
      continue;
    }
    regionArgs[k + 1]->replaceAllUsesWith(inits[k]);
    yield->eraseOperand(static_cast<unsigned>(k));
    body->eraseArgument(static_cast<unsigned>(k + 1));
    loop->eraseResult(static_cast<unsigned>(k));
    loop->eraseOperand(static_cast<unsigned>(3 + k));
  }
  unsigned next = 0;
  for (size_t k = 0; k < inits.size(); ++k)
    finalValues[k] = unchanged[k] ? inits[k] : loop->result(next++);
  f.locals = snapshot;
  for (const Carried &c : carried) {
    bool allSame = true;
    for (size_t k = c.first; k < c.first + c.count; ++k)
      allSame = allSame && unchanged[k];
    if (allSame) {
      f.locals[c.name] = c.before;
      continue;
    }
    size_t idx = c.first;
    f.locals[c.name] = rebuild(c.skeleton, finalValues, idx);
  }
}

void CodeGen::genWhile(const Stmt &s) {
  if (!s.orelse.empty())
    error(s.span, "unsupported Python construct 'while ... else'");
  Frame &f = frame();
  if (f.constexprFunction) { // a Python loop, run now
    ++f.loopDepth;
    while (true) {
      Object test = eval(*s.value);
      if (!test.isConstexpr())
        error(s.value->span, "a @triton.constexpr_function's while condition must be a compile-time value");
      if (!truthy(test, s.value->span))
        break;
      tick(s.span);
      execSequence(s.body, 0, nullptr);
    }
    --f.loopDepth;
    return;
  }
  auto snapshot = f.locals;
  std::vector<Carried> carried;
  std::vector<Value *> inits;
  std::set<std::string> assigned = assignedNames(s.body);
  for (const std::string &name : assigned) {
    auto it = snapshot.find(name);
    if (it == snapshot.end() || !carriable(it->second))
      continue;
    Carried c;
    c.name = name;
    c.before = it->second;
    c.skeleton = materialize(it->second, s.span);
    c.first = inits.size();
    flatten(c.skeleton, inits, s.span);
    c.count = inits.size() - c.first;
    carried.push_back(c);
  }
  std::vector<Type> types;
  for (Value *v : inits)
    types.push_back(v->type());
  setLoc(s.span);
  Op *loop = b_.create(OpCode::While, inits, types, {}, 2);
  Block *before = loop->region(0), *after = loop->region(1);
  for (Type t : types) {
    before->addArgument(t);
    after->addArgument(t);
  }
  auto bindCarried = [&](Block *block) {
    f.locals = snapshot;
    std::vector<Value *> args = block->arguments();
    for (Carried &c : carried) {
      size_t idx = c.first;
      f.locals[c.name] = rebuild(c.skeleton, args, idx);
    }
  };
  bindCarried(before);
  b_.setInsertionPointToEnd(before);
  Object cond;
  bool disableLicm = false;
  {
    HintSiteGuard site(*this, s.value.get(), HintKind::WhileTest); // tl.condition(...) may be called here
    cond = eval(*s.value);
    disableLicm = whileDisableLicm;
  }
  if (disableLicm)
    loop->setAttr("disable_licm", Attribute::boolean(true));
  if (cond.isConstexpr()) {
    if (truthy(cond, s.value->span))
      error(s.value->span, "the condition of this while loop is always true and 'break' is not supported");
    b_.setInsertionPointAfter(loop);
    loop->erase();
    f.locals = snapshot;
    return;
  }
  if (!cond.isTensor() || cond.tensor.isBlock())
    error(s.value->span, "the condition of a while loop must be a scalar, got " + cond.describe());
  setLoc(s.span);
  std::vector<Value *> condOperands{toBool(cond.tensor, s.value->span).value};
  for (Value *v : before->arguments())
    condOperands.push_back(v);
  b_.create(OpCode::Condition, condOperands, std::span<const Type>{});
  bindCarried(after);
  b_.setInsertionPointToEnd(after);
  ++f.loopDepth;
  execSequence(s.body, 0, nullptr);
  --f.loopDepth;
  std::vector<Value *> yields;
  for (const Carried &c : carried) {
    const Object &end = f.locals[c.name];
    if (!flattenLike(end, c.skeleton, yields, s.span))
      error(s.span, "loop-carried variable '" + c.name + "' has initial type " + c.skeleton.describe() +
                        " but is re-assigned to " + materialize(end, s.span).describe() + " in the loop");
  }
  for (const std::string &name : assigned) {
    auto b = snapshot.find(name);
    auto e = f.locals.find(name);
    if (b == snapshot.end() || carriable(b->second) || e == f.locals.end())
      continue;
    if (!e->second.sameAs(b->second))
      error(s.span, "'" + name + "' is " + b->second.describe() + " before the loop and " +
                        e->second.describe() + " in it; only tensors can change in a loop");
  }
  setLoc(s.span);
  b_.yield(yields);
  b_.setInsertionPointAfter(loop);
  f.locals = snapshot;
  std::vector<Value *> results = loop->results();
  for (Carried &c : carried) {
    size_t idx = c.first;
    f.locals[c.name] = rebuild(c.skeleton, results, idx);
  }
}

} // namespace trident::frontend
