// The code generator at module level: members of modules read from files,
// module-level `if` tests evaluated at compile time, and @triton.constexpr_function
// helpers run as Python.

#include "CodeGen.h"

namespace trident::frontend {

Object CodeGen::fileModuleMember(const ModuleEnv &env, const std::string &member, const Span &span,
                                 bool fromImport) {
  const ModuleEnv &m = modules_.load(env);
  if (const GlobalEntry *g = m.lookup(member)) {
    try {
      return evalGlobal(m, member, *g, span);
    } catch (CompileError &e) {
      // Errors about the module's own names point into it; say which use led there.
      if (e.pos.buffer == m.source.get() && e.pos.buffer != source_)
        e.message +=
            " (used as '" + member + "' from " + source_->name() + ":" + std::to_string(span.line) + ")";
      throw;
    }
  }
  if (member == "__name__")
    return Object::string(m.name);
  if (const ModuleEnv *sub = modules_.submodule(m, member)) {
    Object o = Object::named(Object::Kind::Module, sub->name);
    o.functionModule = sub;
    return o;
  }
  if (fromImport)
    error(span, "cannot import name '" + member + "' from '" + m.name + "' (" + m.source->name() + ")");
  error(span, "module '" + m.name + "' has no attribute '" + member + "'");
}

std::optional<bool> CodeGen::moduleCondition(const ModuleEnv &env, const Expr &test, std::string &why) {
  static const FunctionDef moduleScope;
  try {
    FrameGuard guard(*this, moduleScope, env);
    Object v = eval(test);
    if (!v.isConstexpr()) {
      why = "its value is a tensor";
      return std::nullopt;
    }
    return truthy(v, test.span);
  } catch (CompileError &e) {
    why = e.message;
    return std::nullopt;
  }
}

bool CodeGen::languageHas(const std::string &path, const std::string &member) {
  try {
    getAttribute(Object::named(Object::Kind::Module, path), member, Span{});
    return true;
  } catch (CompileError &) {
    return false;
  }
}

void CodeGen::enterScratchFunction() {
  b_.setInsertionPointToEnd(module_.body());
  Op *f = b_.func("module_scope", {}, {});
  b_.setInsertionPointToEnd(f->region());
}

Object CodeGen::callConstexprFunction(const FunctionDef &fn, const ModuleEnv &module, const CallArgs &args) {
  for (const Arg &a : args.positional)
    if (!a.value.isConstexpr())
      error(a.span, "@triton.constexpr_function '" + fn.name + "' takes compile-time values, got " +
                        a.value.describe());
  for (const auto &[name, a] : args.keywords)
    if (!a.value.isConstexpr())
      error(a.span, "@triton.constexpr_function '" + fn.name + "' takes compile-time values, got " +
                        a.value.describe());
  FrameGuard guard(*this, fn, module);
  frame().constexprFunction = true;
  bindParameters(fn, module, args);
  execSequence(fn.body, 0, nullptr);
  Object result = frame().returned ? *frame().returned : Object::none();
  if (!result.isConstexpr())
    error(args.span, "@triton.constexpr_function '" + fn.name + "' must return a compile-time value, got " +
                         result.describe());
  return result;
}

} // namespace trident::frontend
