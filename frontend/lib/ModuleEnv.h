#pragma once
// A parsed source file and what its module-level names stand for: @triton.jit
// functions, constants (NAME = expression, NAME: tl.constexpr = ...), imports.
// Constants are evaluated lazily, when a kernel first uses them.

#include "AST.h"

#include <map>
#include <memory>
#include <string>

namespace trident::frontend {

struct GlobalEntry {
  enum class Kind : uint8_t {
    Function,   // a def (jit or not: FunctionDef::parsed tells)
    Constant,   // NAME = value
    Module,     // import a.b as c  (path = "a.b")
    ImportFrom, // from path import member
    Opaque,     // assigned by a statement the frontend cannot evaluate
  };
  Kind kind = Kind::Opaque;
  const FunctionDef *function = nullptr;
  const Expr *value = nullptr;
  std::string path, member;
  Span span;
};

struct ModuleEnv {
  std::unique_ptr<SourceBuffer> source;
  ModuleAST ast;
  std::map<std::string, GlobalEntry, std::less<>> globals;

  const GlobalEntry *lookup(std::string_view name) const {
    auto it = globals.find(name);
    return it == globals.end() ? nullptr : &it->second;
  }
  // The jit functions, in source order.
  std::vector<const FunctionDef *> jitFunctions() const;
};

// Parses `text` into `env` (which owns the source, so that errors, which point
// into it, stay valid) and builds its global table. Lexical errors throw CompileError.
void loadModule(ModuleEnv &env, std::string name, std::string text);

// True when `e` names tl.constexpr (tl.constexpr, triton.language.constexpr, constexpr).
bool isConstexprAnnotation(const Expr *e);

} // namespace trident::frontend
