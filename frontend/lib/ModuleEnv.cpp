#include "ModuleEnv.h"

#include "Parser.h"

namespace trident::frontend {

std::vector<const FunctionDef *> ModuleEnv::jitFunctions() const {
  std::vector<const FunctionDef *> result;
  for (const StmtPtr &s : ast.body)
    if (s->kind == StmtKind::FunctionDef && s->function->parsed)
      result.push_back(s->function.get());
  return result;
}

bool isConstexprAnnotation(const Expr *e) {
  if (!e)
    return false;
  if (e->kind == ExprKind::Name)
    return e->name == "constexpr";
  if (e->kind == ExprKind::Attribute)
    return e->name == "constexpr";
  if (e->kind == ExprKind::String) // "tl.constexpr" written as a string annotation
    return e->name.size() >= 9 && e->name.compare(e->name.size() - 9, 9, "constexpr") == 0;
  return false;
}

namespace {

void bindTarget(ModuleEnv &env, const Expr &target, const Expr *value) {
  if (target.kind == ExprKind::Name) {
    GlobalEntry g;
    g.kind = value ? GlobalEntry::Kind::Constant : GlobalEntry::Kind::Opaque;
    g.value = value;
    g.span = target.span;
    env.globals[target.name] = g;
    return;
  }
  if (target.kind == ExprKind::Tuple || target.kind == ExprKind::List) {
    // a, b = 1, 2 binds element-wise when the value is a tuple of the same length.
    bool matches = value && (value->kind == ExprKind::Tuple || value->kind == ExprKind::List) &&
                   value->items.size() == target.items.size();
    for (size_t i = 0; i < target.items.size(); ++i)
      bindTarget(env, *target.items[i], matches ? value->items[i].get() : nullptr);
  }
}

} // namespace

void loadModule(ModuleEnv &envRef, std::string name, std::string text) {
  ModuleEnv *env = &envRef;
  env->source = std::make_unique<SourceBuffer>(std::move(name), std::move(text));
  env->ast = parseModule(*env->source);
  for (const StmtPtr &s : env->ast.body) {
    switch (s->kind) {
    case StmtKind::FunctionDef: {
      GlobalEntry g;
      g.kind = GlobalEntry::Kind::Function;
      g.function = s->function.get();
      g.span = s->function->span;
      env->globals[s->function->name] = g;
      break;
    }
    case StmtKind::Assign:
      for (const ExprPtr &t : s->targets)
        bindTarget(*env, *t, s->value.get());
      break;
    case StmtKind::AnnAssign: bindTarget(*env, *s->targets[0], s->value.get()); break;
    case StmtKind::Import:
      for (const Alias &a : s->aliases) {
        GlobalEntry g;
        g.kind = GlobalEntry::Kind::Module;
        g.span = a.span;
        if (!a.asName.empty()) {
          g.path = a.name;
          env->globals[a.asName] = g;
        } else {
          // "import triton.language" binds "triton".
          g.path = a.name.substr(0, a.name.find('.'));
          env->globals[g.path] = g;
        }
      }
      break;
    case StmtKind::ImportFrom:
      for (const Alias &a : s->aliases) {
        if (a.name == "*" || s->importLevel > 0)
          continue;
        GlobalEntry g;
        g.kind = GlobalEntry::Kind::ImportFrom;
        g.span = a.span;
        g.path = s->module;
        g.member = a.name;
        env->globals[a.asName.empty() ? a.name : a.asName] = g;
      }
      break;
    default: break;
    }
  }
}

} // namespace trident::frontend
