// Statements: assignment, if (constexpr, dynamic, and with early returns), for
// (range/tl.range as scf.for, tl.static_range unrolled), while, return.

#include "CodeGen.h"

#include <algorithm>

namespace trident::frontend {

namespace {

void collectTargets(const Expr &t, std::set<std::string> &out) {
  if (t.kind == ExprKind::Name)
    out.insert(t.name);
  else if (t.kind == ExprKind::Tuple || t.kind == ExprKind::List)
    for (const ExprPtr &i : t.items)
      collectTargets(*i, out);
  else if (t.kind == ExprKind::Starred && t.value)
    collectTargets(*t.value, out);
}

void collectAssigned(const StmtList &stmts, std::set<std::string> &out) {
  for (const StmtPtr &s : stmts) {
    switch (s->kind) {
    case StmtKind::Assign:
    case StmtKind::AugAssign:
    case StmtKind::AnnAssign:
    case StmtKind::For:
      for (const ExprPtr &t : s->targets)
        collectTargets(*t, out);
      break;
    default: break;
    }
    collectAssigned(s->body, out);
    collectAssigned(s->orelse, out);
  }
}

bool hasReturn(const StmtList &stmts) {
  for (const StmtPtr &s : stmts)
    if (s->kind == StmtKind::Return || hasReturn(s->body) || hasReturn(s->orelse))
      return true;
  return false;
}

std::string typeNames(const Object &o) { return o.describe(); }

} // namespace

std::set<std::string> assignedNames(const StmtList &stmts) {
  std::set<std::string> out;
  collectAssigned(stmts, out);
  return out;
}

bool containsReturn(const StmtList &stmts) { return hasReturn(stmts); }

bool CodeGen::execSequence(const StmtList &stmts, size_t start, const Continuation *next) {
  DepthGuard depth(*this, stmts.empty() ? Span{} : stmts[std::min(start, stmts.size() - 1)]->span);
  for (size_t i = start; i < stmts.size(); ++i) {
    const Stmt &s = *stmts[i];
    tick(s.span);
    setLoc(s.span);
    switch (s.kind) {
    case StmtKind::Expr: eval(*s.value); break;
    case StmtKind::Assign: {
      Object value = eval(*s.value);
      for (const ExprPtr &t : s.targets)
        assignTarget(*t, value);
      break;
    }
    case StmtKind::AugAssign: {
      const Expr &t = *s.targets[0];
      if (t.kind != ExprKind::Name)
        error(t.span, "unsupported Python construct 'augmented assignment to " +
                          std::string(t.kind == ExprKind::Subscript ? "an item" : "an attribute") + "'");
      Object cur = lookupName(t.name, t.span);
      Object rhs = eval(*s.value);
      setLoc(s.span);
      assignTarget(t, binary(s.augOp, cur, rhs, s.span));
      break;
    }
    case StmtKind::AnnAssign: {
      if (!s.value)
        break;
      const Expr &t = *s.targets[0];
      Object value = eval(*s.value);
      if (isConstexprAnnotation(s.annotation.get())) {
        if (t.kind != ExprKind::Name)
          error(t.span, "only names can be annotated with tl.constexpr");
        if (!value.isConstexpr())
          error(s.value->span, "'" + t.name +
                                   "' is annotated tl.constexpr but its value is not a compile-time "
                                   "constant");
        frame().locals[t.name] = value;
      } else {
        assignTarget(t, value);
      }
      break;
    }
    case StmtKind::Pass: break;
    case StmtKind::Return: {
      if (frame().loopDepth > 0)
        error(s.span, "return statements inside loops are not supported");
      Object value = s.value ? eval(*s.value) : Object::none();
      frame().returned = frame().constexprFunction ? value : materialize(value, s.span);
      return true;
    }
    case StmtKind::If:
      if (std::optional<bool> done = genIf(s, stmts, i, next))
        return *done;
      break;
    case StmtKind::For: genFor(s); break;
    case StmtKind::While: genWhile(s); break;
    case StmtKind::With: return genWith(s, stmts, i, next);
    case StmtKind::Assert: {
      Object test = eval(*s.value);
      std::string message;
      if (s.annotation) {
        Object m = eval(*s.annotation);
        message = m.isConstexpr() ? pythonStr(m) : m.describe();
      }
      if (test.isConstexpr()) {
        if (!truthy(test, s.value->span))
          error(s.span, "assertion failed" + (message.empty() ? std::string() : ": " + message));
        break;
      }
      CallArgs args;
      args.callee = "tl.device_assert";
      args.span = s.span;
      args.positional.push_back(Arg{test, s.value->span, s.value.get()});
      args.positional.push_back(Arg{Object::string(message), s.span, nullptr});
      builtins_.at("tl.device_assert")(*this, args);
      break;
    }
    case StmtKind::Break: error(s.span, "unsupported Python construct 'break'");
    case StmtKind::Continue: error(s.span, "unsupported Python construct 'continue'");
    case StmtKind::Unsupported: error(s.span, "unsupported Python construct '" + s.module + "'");
    case StmtKind::Try: error(s.span, "unsupported Python construct 'try'");
    case StmtKind::Import:
    case StmtKind::ImportFrom:
      error(s.span, "unsupported Python construct 'import' inside a @triton.jit function");
    case StmtKind::FunctionDef: error(s.span, "unsupported Python construct 'nested function definition'");
    case StmtKind::Skipped: break;
    }
  }
  if (next)
    return execSequence(*next->stmts, next->start, next->next);
  return false;
}

bool CodeGen::genWith(const Stmt &s, const StmtList &stmts, size_t index, const Continuation *next) {
  for (const ExprPtr &item : s.targets) {
    Object manager;
    {
      HintSiteGuard site(*this, item.get(), HintKind::WithItem); // tl.async_task(...) may be called here
      manager = eval(*item);
    }
    if (!manager.is(Object::Kind::Enum) || manager.name != "tl.async_task")
      error(item->span, "'with' inside a @triton.jit function needs tl.async_task([...]), the language's context "
                        "manager; got " + manager.describe());
  }
  // Trident does not warp-specialize: the body is ordinary code (what it computes under Triton too).
  Continuation rest{&stmts, index + 1, next};
  return execSequence(s.body, 0, &rest);
}

void CodeGen::assignTarget(const Expr &target, const Object &value) {
  switch (target.kind) {
  case ExprKind::Name:
    // Triton's rule: a Python number assigned to a name becomes a tensor; use
    // `x: tl.constexpr = ...` to keep it a compile-time constant.
    // (A @triton.constexpr_function is plain Python: its names keep Python values.)
    frame().locals[target.name] = value.isPyNumber() && !frame().constexprFunction
                                      ? Object::ofTensor(toTensor(value, target.span))
                                      : value;
    return;
  case ExprKind::Tuple:
  case ExprKind::List: {
    if (!value.is(Object::Kind::Tuple))
      error(target.span,
            "cannot unpack " + value.describe() + " into " + std::to_string(target.items.size()) + " names");
    if (value.items.size() != target.items.size())
      error(target.span, "cannot unpack " + std::to_string(value.items.size()) + " values into " +
                             std::to_string(target.items.size()) + " names");
    for (size_t i = 0; i < target.items.size(); ++i)
      assignTarget(*target.items[i], value.items[i]);
    return;
  }
  case ExprKind::Subscript: error(target.span, "unsupported Python construct 'item assignment'");
  case ExprKind::Attribute: error(target.span, "unsupported Python construct 'attribute assignment'");
  case ExprKind::Starred: error(target.span, "unsupported Python construct 'starred assignment'");
  default: error(target.span, "cannot assign to this expression");
  }
}

std::optional<bool> CodeGen::genIf(const Stmt &s, const StmtList &stmts, size_t index,
                                   const Continuation *next) {
  Object cond = eval(*s.value);
  Continuation rest{&stmts, index + 1, next};
  if (cond.isConstexpr()) {
    // Only the taken branch is compiled; the statements after the if follow it.
    return execSequence(truthy(cond, s.value->span) ? s.body : s.orelse, 0, &rest);
  }
  if (!cond.isTensor())
    error(s.value->span, "the condition of an if statement must be a scalar, got " + cond.describe());
  if (cond.tensor.isBlock() && elementwiseDepth > 0)
    return genIfSelect(s, toBool(cond.tensor, s.value->span), stmts, index, next);
  if (cond.tensor.isBlock())
    error(s.value->span, "the condition of an if statement must be a scalar, got a block " + cond.describe() +
                             "; use tl.where to select between blocks");
  setLoc(s.span);
  Value *c = toBool(cond.tensor, s.value->span).value;
  Frame &f = frame();
  auto snapshot = f.locals;
  Op *ifOp = b_.ifOp(c, {});

  if (containsReturn(s.body) || containsReturn(s.orelse)) {
    // A branch returns: the rest of the function becomes part of both branches,
    // and the scf.if yields the function's return value.
    if (f.loopDepth > 0)
      error(s.span, "return statements inside loops are not supported");
    auto runBranch = [&](unsigned region, const StmtList &body) {
      b_.setInsertionPointToEnd(ifOp->region(region));
      f.locals = snapshot;
      f.returned.reset();
      if (!execSequence(body, 0, &rest))
        f.returned = Object::none();
      Object r = *f.returned;
      f.returned.reset();
      return r;
    };
    Object thenRet = runBranch(0, s.body);
    std::vector<Value *> thenValues;
    flatten(thenRet, thenValues, s.span);
    setLoc(s.span);
    b_.yield(thenValues);
    Object elseRet = runBranch(1, s.orelse);
    std::vector<Value *> elseValues;
    if (!flattenLike(elseRet, thenRet, elseValues, s.span))
      error(s.span, "the function returns " + typeNames(thenRet) + " when this condition holds and " +
                        typeNames(elseRet) + " otherwise; every return must give the same types");
    setLoc(s.span);
    b_.yield(elseValues);
    for (Value *v : thenValues)
      ifOp->addResult(v->type());
    b_.setInsertionPointAfter(ifOp);
    std::vector<Value *> results = ifOp->results();
    size_t idx = 0;
    f.locals = snapshot;
    f.returned = rebuild(thenRet, results, idx);
    return true;
  }

  b_.setInsertionPointToEnd(ifOp->region(0));
  execSequence(s.body, 0, nullptr);
  auto thenVars = f.locals;
  f.locals = snapshot;
  b_.setInsertionPointToEnd(ifOp->region(1));
  execSequence(s.orelse, 0, nullptr);
  auto elseVars = f.locals;
  // Names changed by a branch and visible after the if become results.
  std::vector<std::pair<std::string, Object>> merged, yielded;
  std::vector<Value *> thenValues, elseValues;
  for (const auto &[name, tv] : thenVars) {
    auto e = elseVars.find(name);
    if (e == elseVars.end())
      continue; // defined only in the then branch: not visible after the if
    const Object &ev = e->second;
    if (tv.sameAs(ev)) {
      merged.emplace_back(name, tv);
      continue;
    }
    if (tv.isConstexpr() && ev.isConstexpr() && !(tv.isPyNumber() && ev.isPyNumber()))
      error(s.span, "'" + name +
                        "' has different compile-time values in the two branches of an if whose condition "
                        "is only known at run time");
    b_.setInsertionPointToEnd(ifOp->region(0));
    Object skeleton = materialize(tv, s.span);
    b_.setInsertionPointToEnd(ifOp->region(1));
    std::vector<Value *> candidate;
    if (!flattenLike(ev, skeleton, candidate, s.span))
      error(s.span, "mismatched type for '" + name + "' between then block (" + typeNames(skeleton) +
                        ") and else block (" + typeNames(materialize(ev, s.span)) + ")");
    elseValues.insert(elseValues.end(), candidate.begin(), candidate.end());
    b_.setInsertionPointToEnd(ifOp->region(0));
    flatten(skeleton, thenValues, s.span);
    yielded.emplace_back(name, skeleton);
  }
  b_.setInsertionPointToEnd(ifOp->region(0));
  setLoc(s.span);
  b_.yield(thenValues);
  b_.setInsertionPointToEnd(ifOp->region(1));
  setLoc(s.span);
  b_.yield(elseValues);
  for (Value *v : thenValues)
    ifOp->addResult(v->type());
  b_.setInsertionPointAfter(ifOp);
  f.locals = snapshot;
  for (auto &[name, value] : merged)
    f.locals[name] = value;
  std::vector<Value *> results = ifOp->results();
  size_t idx = 0;
  for (auto &[name, skeleton] : yielded)
    f.locals[name] = rebuild(skeleton, results, idx);
  return std::nullopt;
}

} // namespace trident::frontend
