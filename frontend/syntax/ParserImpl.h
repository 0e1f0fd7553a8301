#pragma once
// Internal to the parser: the token cursor and the grammar, split between
// ParseExpr.cpp (expressions) and ParseStmt.cpp (statements and the module).

#include "Parser.h"

namespace trident::frontend {

class ParserImpl {
public:
  ParserImpl(const SourceBuffer &source, std::vector<Token> tokens)
      : src_(source), toks_(std::move(tokens)) {}

  // ---- statements (ParseStmt.cpp) ----
  ModuleAST parseModule();
  // Module-level statements up to the end of the file or, when `nested`, up to
  // the dedent that closes the block (consumed).
  StmtList parseModuleStatements(bool nested);
  StmtList parseModuleSuite(); // ':' then module-level statements
  StmtPtr parseModuleIf();     // at 'if' or 'elif'
  StmtPtr parseModuleTry();    // at 'try'
  StmtList parseBlock(); // ':' then a suite
  void parseStatement(StmtList &out);
  StmtPtr parseSimpleStatement();
  std::unique_ptr<FunctionDef> parseFunctionDef(std::vector<ExprPtr> decorators, bool parseBody);
  void skipStatement(); // the rest of the logical line and its indented block

  // ---- expressions (ParseExpr.cpp) ----
  ExprPtr parseExpr();       // a full expression (lambda, conditional)
  ExprPtr parseExprList();   // expressions separated by commas (a tuple when there is a comma)
  ExprPtr parseTargetList(); // assignment / for targets
  ExprPtr parseOr();
  ExprPtr parseBitOr(); // up to '|', without comparisons (for 'for x in')

  // ---- token cursor ----
  const Token &tok(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return toks_[i < toks_.size() ? i : toks_.size() - 1];
  }
  const Token &next() {
    const Token &t = tok();
    if (pos_ + 1 < toks_.size())
      ++pos_;
    return t;
  }
  bool atOp(std::string_view op) const { return tok().isOp(op); }
  bool atName(std::string_view n) const { return tok().isName(n); }
  bool accept(std::string_view op) {
    if (!atOp(op))
      return false;
    next();
    return true;
  }
  bool acceptName(std::string_view n) {
    if (!atName(n))
      return false;
    next();
    return true;
  }
  const Token &expect(std::string_view op, std::string_view context);
  [[noreturn]] void error(const Token &at, std::string message) const;
  [[noreturn]] void unexpected(std::string_view context) const;
  SourcePos posOf(const Token &t) const { return SourcePos{&src_, t.line, t.col}; }
  static Span spanOf(const Token &t) { return Span{t.line, t.col, t.begin, t.end}; }
  // The end offset of the last consumed token.
  uint32_t lastEnd() const { return pos_ > 0 ? toks_[pos_ - 1].end : 0; }
  ExprPtr make(ExprKind kind, Span span) const { return std::make_unique<Expr>(kind, span); }
  // Sets the node's end and depth from its children; bounds the depth.
  ExprPtr finish(ExprPtr e);
  // Skips tokens up to (not including) the bracket that closes the current one.
  void skipToClose();

  const SourceBuffer &src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  unsigned nesting_ = 0; // recursion depth of the expression grammar
  unsigned elifDepth_ = 0;
};

// Bounds recursion of the expression grammar (deeply nested brackets).
class NestingGuard {
public:
  NestingGuard(ParserImpl &p);
  ~NestingGuard() { --p_.nesting_; }
  NestingGuard(const NestingGuard &) = delete;
  NestingGuard &operator=(const NestingGuard &) = delete;

private:
  ParserImpl &p_;
};

} // namespace trident::frontend
