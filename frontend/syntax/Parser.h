#pragma once
// Builds the syntax tree from tokens, with Python's grammar and precedence.
//
// A file is read statement by statement at module level: imports, assignments
// to names and function definitions are parsed; any other statement (host code,
// classes, `if __name__ == "__main__":`) is skipped as a unit, together with its
// indented block, and so is any module-level statement that does not parse.
// Only the bodies of functions decorated with a `jit` decorator are parsed;
// other function bodies are skipped by indentation.

#include "AST.h"
#include "Lexer.h"

namespace trident::frontend {

ModuleAST parseModule(const SourceBuffer &source);

// Parses the function definition whose `def` keyword starts at byte `offset` of
// `source` again, with its body (for functions made jit by a call, `k = triton.jit(f)`).
std::unique_ptr<FunctionDef> parseFunctionAt(const SourceBuffer &source, uint32_t offset);

// Parses `source` as one expression (a constexpr value of a signature, a default).
ExprPtr parseExpression(const SourceBuffer &source);

} // namespace trident::frontend
