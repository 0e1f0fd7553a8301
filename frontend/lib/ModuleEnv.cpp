// Binding a module's names: its module-level statements run in order, with
// imports resolved to files and `if`/`try` blocks decided at compile time.

#include "ModuleEnv.h"

#include "CodeGen.h"
#include "Parser.h"

#include <functional>

namespace trident::frontend {

namespace {

constexpr int kMaxLoadDepth = 64;

SourcePos posIn(const ModuleEnv &env, const Span &s) { return SourcePos{env.source.get(), s.line, s.col}; }

void bindName(ModuleEnv &env, const std::string &name, GlobalEntry g) { env.globals[name] = std::move(g); }

void bindTarget(ModuleEnv &env, const Expr &target, const Expr *value) {
  if (target.kind == ExprKind::Name) {
    GlobalEntry g;
    g.kind = value ? GlobalEntry::Kind::Constant : GlobalEntry::Kind::Opaque;
    g.value = value;
    g.span = target.span;
    if (!value)
      g.reason = "it is not a compile-time constant";
    bindName(env, target.name, g);
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

// The names a statement binds: `import a.b` binds a, `import a.b as c` c.
std::string importBinding(const Alias &a) {
  return !a.asName.empty() ? a.asName : a.name.substr(0, a.name.find('.'));
}

// except:, except ImportError:, except (ImportError, AttributeError):, except Exception:
bool catchesImportError(const Expr *type) {
  if (!type)
    return true;
  if (type->kind == ExprKind::Tuple || type->kind == ExprKind::List) {
    for (const ExprPtr &item : type->items)
      if (catchesImportError(item.get()))
        return true;
    return false;
  }
  if (type->kind == ExprKind::Name || type->kind == ExprKind::Attribute)
    return type->name == "ImportError" || type->name == "ModuleNotFoundError" || type->name == "Exception" ||
           type->name == "BaseException";
  return false;
}

// A member of a Triton module that Python would find. Names of triton.language
// count when Trident understands them, so that a fallback branch is taken for the
// others; host modules (triton.runtime, triton.tools...) are assumed to have it.
bool languageMemberExists(CodeGen &evaluator, const std::string &module, const std::string &member) {
  if (languageModuleExists(module + "." + member))
    return true;
  if (module.rfind("triton.language", 0) != 0)
    return true;
  return evaluator.languageHas(module, member);
}

bool namedCallee(const Expr &callee, std::initializer_list<const char *> names) {
  if (callee.kind != ExprKind::Name && callee.kind != ExprKind::Attribute)
    return false;
  for (const char *n : names)
    if (callee.name == n)
      return true;
  return false;
}

// `k = triton.jit(f, ...)`, `k = triton.autotune(...)(f)`, `k = triton.jit()(f)` and
// chains of them: the def they wrap, with the decorator calls (outermost first), or
// null when `value` is not such a call.
const FunctionDef *decoratorCall(const ModuleEnv &env, const Expr &value,
                                 std::vector<const Expr *> &decorators) {
  const Expr *e = &value;
  bool jit = false;
  while (e->kind == ExprKind::Call) {
    const Expr &callee = *e->value;
    if (callee.kind == ExprKind::Call &&
        namedCallee(*callee.value, {"jit", "autotune", "heuristics", "constexpr_function"})) {
      decorators.push_back(&callee);
      jit = jit || namedCallee(*callee.value, {"jit", "constexpr_function"});
    } else if (namedCallee(callee, {"jit", "constexpr_function"})) {
      decorators.push_back(e);
      jit = true;
    } else {
      return nullptr;
    }
    if (e->items.empty() || e->items[0]->kind == ExprKind::Starred)
      return nullptr;
    e = e->items[0].get();
  }
  if (decorators.empty() || e->kind != ExprKind::Name)
    return nullptr;
  const GlobalEntry *g = env.lookup(e->name);
  if (!g || g->kind != GlobalEntry::Kind::Function || (!jit && !g->function->parsed))
    return nullptr;
  return g->function;
}

} // namespace

std::vector<const FunctionDef *> ModuleEnv::jitFunctions() const {
  std::vector<const FunctionDef *> result;
  for (const FunctionDef *fn : definitions) {
    const GlobalEntry *g = lookup(fn->name);
    // A def that a later statement rebound is not one of the module's functions.
    if (fn->parsed && !fn->constexprFunction && g && g->kind == GlobalEntry::Kind::Function &&
        g->function == fn)
      result.push_back(fn);
  }
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

const ModuleEnv &ModuleSet::load(const ModuleEnv &constModule) {
  if (constModule.state != ModuleEnv::State::Found)
    return constModule;
  // The set owns every module it hands out; reading one fills in its names.
  auto &env = const_cast<ModuleEnv &>(constModule);
  if (loadDepth_ >= kMaxLoadDepth)
    fail(posIn(env, Span{1, 1, 0, 0}),
         "modules import each other more than " + std::to_string(kMaxLoadDepth) + " levels deep");
  env.state = ModuleEnv::State::Loading;
  ++loadDepth_;
  struct Exit {
    int &depth;
    ~Exit() { --depth; }
  } exit{loadDepth_};
  env.ast = parseModule(*env.source);
  std::string why;
  run(env, env.ast.body, false, why);
  env.state = ModuleEnv::State::Loaded;
  return env;
}

bool ModuleSet::run(ModuleEnv &env, const StmtList &stmts, bool inTry, std::string &why) {
  for (const StmtPtr &sp : stmts) {
    const Stmt &s = *sp;
    bool failed = false;
    switch (s.kind) {
    case StmtKind::FunctionDef: {
      GlobalEntry g;
      g.kind = GlobalEntry::Kind::Function;
      g.function = s.function.get();
      g.span = s.function->span;
      bindName(env, s.function->name, g);
      env.definitions.push_back(s.function.get());
      break;
    }
    case StmtKind::Assign: {
      std::vector<const Expr *> decorators;
      const FunctionDef *base = nullptr;
      if (s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Name)
        base = decoratorCall(env, *s.value, decorators);
      if (base) {
        bindDecorated(env, *s.targets[0], *base, std::move(decorators));
        break;
      }
      for (const ExprPtr &t : s.targets)
        bindTarget(env, *t, s.value.get());
      break;
    }
    case StmtKind::AnnAssign: bindTarget(env, *s.targets[0], s.value.get()); break;
    case StmtKind::Import: bindImport(env, s, inTry, why, failed); break;
    case StmtKind::ImportFrom: bindImportFrom(env, s, inTry, why, failed); break;
    case StmtKind::If: {
      std::string reason;
      std::optional<bool> taken = evaluator().moduleCondition(env, *s.value, reason);
      if (!taken) {
        std::string message = "it is assigned under a module-level condition (line " +
                              std::to_string(s.span.line) +
                              ") that Trident cannot evaluate at compile time: " + reason;
        bindOpaque(env, s.body, message);
        bindOpaque(env, s.orelse, message);
        break;
      }
      failed = !run(env, *taken ? s.body : s.orelse, inTry, why);
      break;
    }
    case StmtKind::Try: {
      std::string error;
      if (run(env, s.body, true, error)) {
        failed = !run(env, s.orelse, inTry, why);
      } else {
        const ExceptHandler *handler = nullptr;
        for (const ExceptHandler &h : s.handlers)
          if (!handler && catchesImportError(h.type.get()))
            handler = &h;
        if (handler) {
          failed = !run(env, handler->body, inTry, why);
        } else if (inTry) {
          why = error;
          failed = true;
        } else {
          // Nothing catches it: the names the failed import binds stay unusable, and say why.
          run(env, s.body, false, why);
        }
      }
      if (!failed)
        failed = !run(env, s.finalbody, inTry, why);
      break;
    }
    default: break;
    }
    if (failed)
      return false;
  }
  return true;
}

void ModuleSet::bindDecorated(ModuleEnv &env, const Expr &target, const FunctionDef &base,
                              std::vector<const Expr *> decorators) {
  std::unique_ptr<FunctionDef> fn = parseFunctionAt(*env.source, base.span.begin);
  if (!fn) {
    bindTarget(env, target, nullptr);
    return;
  }
  // Named after the variable the kernel is launched through.
  fn->name = target.name;
  fn->constexprFunction = base.constexprFunction;
  for (const Expr *d : decorators) // each a call: jit(f), jit(...), autotune(...)
    fn->constexprFunction = fn->constexprFunction || d->value->name == "constexpr_function";
  fn->appliedDecorators = std::move(decorators);
  fn->appliedDecorators.insert(fn->appliedDecorators.end(), base.appliedDecorators.begin(),
                               base.appliedDecorators.end());
  for (const ExprPtr &d : base.decorators)
    fn->appliedDecorators.push_back(d.get());
  GlobalEntry g;
  g.kind = GlobalEntry::Kind::Function;
  g.function = fn.get();
  g.span = target.span;
  bindName(env, target.name, g);
  env.definitions.push_back(fn.get());
  env.derived.push_back(std::move(fn));
}

void ModuleSet::bindImport(ModuleEnv &env, const Stmt &s, bool inTry, std::string &why, bool &failed) {
  for (const Alias &a : s.aliases) {
    std::string bound = importBinding(a);
    std::string first = a.name.substr(0, a.name.find('.'));
    auto failure = [&](std::string message) {
      if (inTry) {
        why = std::move(message);
        failed = true;
        return;
      }
      GlobalEntry g;
      g.span = a.span;
      g.reason = std::move(message);
      bindName(env, bound, g);
    };
    GlobalEntry g;
    g.kind = GlobalEntry::Kind::Module;
    g.span = a.span;
    if (isLanguageModule(a.name)) {
      if (!languageModuleExists(a.name)) {
        failure("there is no module '" + a.name + "' in Triton " + kTritonVersion);
        if (failed)
          return;
        continue;
      }
      g.path = a.asName.empty() ? first : a.name;
    } else if (const ModuleEnv *m = findAbsolute(a.name)) {
      g.module = a.asName.empty() ? findAbsolute(first) : m;
      g.path = g.module->name;
    } else if (findAbsolute(first)) {
      failure("no module named '" + a.name + "' (the package '" + first + "' has no such module)");
      if (failed)
        return;
      continue;
    } else {
      // Not a file Trident can read: a host-side module (torch, numpy), fine to
      // import, unusable in kernels.
      g.path = a.asName.empty() ? first : a.name;
    }
    bindName(env, bound, g);
  }
}

void ModuleSet::bindImportFrom(ModuleEnv &env, const Stmt &s, bool inTry, std::string &why, bool &failed) {
  std::string shown = std::string(static_cast<size_t>(s.importLevel), '.') + s.module;
  auto failure = [&](const Alias *only, std::string message) {
    if (inTry) {
      why = std::move(message);
      failed = true;
      return;
    }
    for (const Alias &a : s.aliases)
      if ((!only || &a == only) && a.name != "*") {
        GlobalEntry g;
        g.span = a.span;
        g.reason = message;
        bindName(env, a.asName.empty() ? a.name : a.asName, g);
      }
  };
  auto bindFrom = [&](const Alias &a, const ModuleEnv *m, const std::string &member) {
    GlobalEntry g;
    g.kind = GlobalEntry::Kind::ImportFrom;
    g.span = a.span;
    g.module = m;
    g.path = m ? m->name : s.module;
    g.member = member;
    bindName(env, a.asName.empty() ? member : a.asName, g);
  };
  if (s.importLevel == 0 && isLanguageModule(s.module)) {
    if (!languageModuleExists(s.module))
      return failure(nullptr, "there is no module '" + s.module + "' in Triton " + kTritonVersion);
    for (const Alias &a : s.aliases) {
      if (a.name == "*")
        continue;
      if (inTry && !languageMemberExists(evaluator(), s.module, a.name))
        return failure(&a, "cannot import name '" + a.name + "' from '" + s.module + "'");
      bindFrom(a, nullptr, a.name);
    }
    return;
  }
  const ModuleEnv *m =
      s.importLevel > 0 ? findRelative(env, s.importLevel, s.module) : findAbsolute(s.module);
  if (!m) {
    std::string first = s.module.substr(0, s.module.find('.'));
    if (s.importLevel == 0 && !findAbsolute(first)) {
      // A host-side module: its names may be imported but not used in kernels.
      for (const Alias &a : s.aliases)
        if (a.name != "*")
          bindFrom(a, nullptr, a.name);
      return;
    }
    return failure(nullptr, "no module named '" + shown + "'" +
                                (s.importLevel > 0 ? " next to " + env.source->name()
                                                   : " (searched " + searchedFolders() + ")"));
  }
  for (const Alias &a : s.aliases) {
    if (a.name == "*") {
      // The module's public names, as Python binds them when there is no __all__.
      const ModuleEnv &loaded = load(*m);
      for (const auto &[name, entry] : loaded.globals)
        if (!name.empty() && name[0] != '_')
          bindFrom(Alias{name, "", a.span}, m, name);
      continue;
    }
    submodule(*m, a.name); // found now (a file lookup), so that importedFiles lists it
    if (inTry) {
      const ModuleEnv &loaded = load(*m);
      if (loaded.state == ModuleEnv::State::Loaded && !loaded.lookup(a.name) && !submodule(loaded, a.name))
        return failure(&a, "cannot import name '" + a.name + "' from '" + m->name + "'");
    }
    bindFrom(a, m, a.name);
  }
}

void ModuleSet::bindOpaque(ModuleEnv &env, const StmtList &stmts, const std::string &reason) {
  auto opaque = [&](const std::string &name, const Span &span) {
    GlobalEntry g;
    g.span = span;
    g.reason = reason;
    bindName(env, name, g);
  };
  std::function<void(const Expr &)> target = [&](const Expr &t) {
    if (t.kind == ExprKind::Name)
      opaque(t.name, t.span);
    else if (t.kind == ExprKind::Tuple || t.kind == ExprKind::List)
      for (const ExprPtr &item : t.items)
        target(*item);
  };
  for (const StmtPtr &sp : stmts) {
    const Stmt &s = *sp;
    switch (s.kind) {
    case StmtKind::FunctionDef: opaque(s.function->name, s.function->span); break;
    case StmtKind::Assign:
    case StmtKind::AnnAssign:
      for (const ExprPtr &t : s.targets)
        target(*t);
      break;
    case StmtKind::Import:
      for (const Alias &a : s.aliases)
        opaque(importBinding(a), a.span);
      break;
    case StmtKind::ImportFrom:
      for (const Alias &a : s.aliases)
        if (a.name != "*")
          opaque(a.asName.empty() ? a.name : a.asName, a.span);
      break;
    case StmtKind::If:
      bindOpaque(env, s.body, reason);
      bindOpaque(env, s.orelse, reason);
      break;
    case StmtKind::Try:
      bindOpaque(env, s.body, reason);
      for (const ExceptHandler &h : s.handlers)
        bindOpaque(env, h.body, reason);
      bindOpaque(env, s.orelse, reason);
      bindOpaque(env, s.finalbody, reason);
      break;
    default: break;
    }
  }
}

} // namespace trident::frontend
