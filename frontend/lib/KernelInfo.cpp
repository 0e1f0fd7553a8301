#include "KernelInfo.h"

namespace trident::frontend {

namespace {

std::string sourceOf(const ModuleEnv &env, const Expr &e) {
  return std::string(env.source->slice(e.span.begin, e.span.end));
}

[[noreturn]] void failAt(const ModuleEnv &env, const Span &s, std::string message) {
  fail(SourcePos{env.source.get(), s.line, s.col}, std::move(message));
}

// A literal (or a module-level name bound to one), for decorator arguments.
const Expr *literal(const Expr *e, const ModuleEnv &env, int depth = 0) {
  if (!e || depth > 8)
    return nullptr;
  switch (e->kind) {
  case ExprKind::Int:
  case ExprKind::Float:
  case ExprKind::Bool:
  case ExprKind::None:
  case ExprKind::String:
  case ExprKind::List:
  case ExprKind::Tuple:
  case ExprKind::Dict:
  case ExprKind::UnaryOp: return e;
  case ExprKind::Name: {
    const GlobalEntry *g = env.lookup(e->name);
    if (g && g->kind == GlobalEntry::Kind::Constant)
      return literal(g->value, env, depth + 1);
    return nullptr;
  }
  default: return nullptr;
  }
}

int intLiteral(const Expr *e0, const ModuleEnv &env, const char *what, const Span &at) {
  const Expr *e = literal(e0, env);
  bool neg = false;
  if (e && e->kind == ExprKind::UnaryOp && e->unaryOp == UnaryOpKind::Neg) {
    neg = true;
    e = literal(e->value.get(), env);
  }
  if (!e || e->kind != ExprKind::Int || e->intValue > 1000000)
    failAt(env, at, std::string(what) + " must be an integer literal");
  int v = static_cast<int>(e->intValue);
  return neg ? -v : v;
}

bool boolLiteral(const Expr *e0, const ModuleEnv &env, const char *what, const Span &at) {
  const Expr *e = literal(e0, env);
  if (e && e->kind == ExprKind::Bool)
    return e->boolValue;
  if (e && e->kind == ExprKind::Int)
    return e->intValue != 0;
  failAt(env, at, std::string(what) + " must be True or False");
}

std::vector<const Expr *> listItems(const Expr *e0, const ModuleEnv &env) {
  const Expr *e = literal(e0, env);
  std::vector<const Expr *> items;
  if (e && (e->kind == ExprKind::List || e->kind == ExprKind::Tuple))
    for (const ExprPtr &i : e->items)
      items.push_back(i.get());
  else if (e && e->kind == ExprKind::String)
    items.push_back(e);
  return items;
}

const char *decoratorName(const Expr &d) {
  const Expr *callee = d.kind == ExprKind::Call ? d.value.get() : &d;
  if (callee->kind == ExprKind::Name || callee->kind == ExprKind::Attribute)
    return callee->name.c_str();
  return "";
}

// Positional or keyword argument `name` at `index` of a decorator call.
const Expr *argument(const Expr &call, size_t index, std::string_view name) {
  if (call.kind != ExprKind::Call)
    return nullptr;
  for (const Keyword &k : call.keywords)
    if (k.name == name)
      return k.value.get();
  if (index < call.items.size())
    return call.items[index].get();
  return nullptr;
}

KernelInfo::Config parseConfig(const Expr &e, const ModuleEnv &env) {
  KernelInfo::Config c;
  const Expr *callee = e.kind == ExprKind::Call ? e.value.get() : nullptr;
  if (!callee || callee->name != "Config")
    failAt(env, e.span, "@triton.autotune configs must be triton.Config(...) calls");
  const Expr *kwargs = literal(argument(e, 0, "kwargs"), env);
  if (!kwargs || kwargs->kind != ExprKind::Dict)
    failAt(env, e.span, "triton.Config's first argument must be a dict literal of parameter values");
  for (size_t i = 0; i < kwargs->items.size(); ++i) {
    const Expr &key = *kwargs->items[i];
    if (key.kind != ExprKind::String)
      failAt(env, key.span, "triton.Config's keys must be parameter names as strings");
    c.kwargs.emplace_back(key.name, sourceOf(env, *kwargs->values[i]));
  }
  if (const Expr *w = argument(e, 1, "num_warps"))
    if (w->kind != ExprKind::None)
      c.numWarps = intLiteral(w, env, "num_warps", w->span);
  if (const Expr *s = argument(e, 2, "num_stages"))
    if (s->kind != ExprKind::None)
      c.numStages = intLiteral(s, env, "num_stages", s->span);
  return c;
}

} // namespace

KernelInfo kernelInfo(const FunctionDef &fn, const ModuleEnv &env, bool withTuning) {
  KernelInfo info;
  info.name = fn.name;
  for (const Param &p : fn.params) {
    info.params.push_back(p.name);
    info.isConstexpr.push_back(isConstexprAnnotation(p.annotation.get()));
    info.defaults.push_back(p.defaultValue ? sourceOf(env, *p.defaultValue) : "");
  }
  std::vector<const Expr *> decorators = fn.appliedDecorators;
  for (const ExprPtr &d : fn.decorators)
    decorators.push_back(d.get());
  for (const Expr *dp : decorators) {
    const Expr &d = *dp;
    std::string name = decoratorName(d);
    if (name == "jit" && d.kind == ExprKind::Call) {
      for (const Keyword &k : d.keywords) {
        if (k.name == "do_not_specialize") {
          for (const Expr *item : listItems(k.value.get(), env)) {
            if (item->kind == ExprKind::String) {
              info.doNotSpecialize.push_back(item->name);
            } else if (item->kind == ExprKind::Int && item->intValue < fn.params.size()) {
              info.doNotSpecialize.push_back(fn.params[static_cast<size_t>(item->intValue)].name);
            } else {
              failAt(env, item->span, "do_not_specialize entries must be parameter names or indices");
            }
          }
        } else if (k.name == "noinline") {
          info.noinline = boolLiteral(k.value.get(), env, "noinline", k.span);
        }
      }
    } else if (name == "autotune" && d.kind == ExprKind::Call && withTuning) {
      const Expr *configs = argument(d, 0, "configs");
      const Expr *list = literal(configs, env);
      // Configurations computed by host code (a function call) are left to the
      // runtime: only literal lists are recorded.
      if (list && (list->kind == ExprKind::List || list->kind == ExprKind::Tuple))
        for (const ExprPtr &c : list->items)
          info.autotuneConfigs.push_back(parseConfig(*c, env));
      for (const Expr *k : listItems(argument(d, 1, "key"), env)) {
        if (k->kind != ExprKind::String)
          failAt(env, k->span, "@triton.autotune keys must be parameter names");
        info.autotuneKeys.push_back(k->name);
      }
    } else if (name == "heuristics" && d.kind == ExprKind::Call && withTuning) {
      const Expr *values = literal(argument(d, 0, "values"), env);
      if (!values || values->kind != ExprKind::Dict)
        failAt(env, d.span, "@triton.heuristics needs a dict literal of parameter name: lambda");
      for (size_t i = 0; i < values->items.size(); ++i) {
        const Expr &key = *values->items[i];
        if (key.kind != ExprKind::String)
          failAt(env, key.span, "@triton.heuristics keys must be parameter names as strings");
        info.heuristics.emplace_back(key.name, sourceOf(env, *values->values[i]));
      }
    }
  }
  return info;
}

} // namespace trident::frontend
