// Statements, function definitions, and the module-level reader that keeps what
// kernels need and skips host code.

#include "ParserImpl.h"

namespace trident::frontend {

namespace {

bool isAugOp(const Token &t, BinOpKind &op) {
  if (t.kind != Tok::Op || t.text.size() < 2 || t.text.back() != '=')
    return false;
  std::string base = t.text.substr(0, t.text.size() - 1);
  static const std::pair<const char *, BinOpKind> ops[] = {
      {"+", BinOpKind::Add},    {"-", BinOpKind::Sub},       {"*", BinOpKind::Mul},
      {"/", BinOpKind::Div},    {"//", BinOpKind::FloorDiv}, {"%", BinOpKind::Mod},
      {"**", BinOpKind::Pow},   {"<<", BinOpKind::LShift},   {">>", BinOpKind::RShift},
      {"&", BinOpKind::BitAnd}, {"|", BinOpKind::BitOr},     {"^", BinOpKind::BitXor},
      {"@", BinOpKind::MatMul}};
  for (auto [text, kind] : ops)
    if (base == text) {
      op = kind;
      return true;
    }
  return false;
}

// True for a decorator that makes a Triton jit function: jit, triton.jit, triton.jit(...).
// @triton.constexpr_function helpers are parsed like jit functions too.
bool isJitDecorator(const Expr &e) {
  const Expr *callee = e.kind == ExprKind::Call ? e.value.get() : &e;
  if (callee->kind == ExprKind::Name || callee->kind == ExprKind::Attribute)
    return callee->name == "jit" || callee->name == "constexpr_function";
  return false;
}

bool isConstexprFunctionDecorator(const Expr &e) {
  const Expr *callee = e.kind == ExprKind::Call ? e.value.get() : &e;
  return (callee->kind == ExprKind::Name || callee->kind == ExprKind::Attribute) &&
         callee->name == "constexpr_function";
}

bool isClauseKeyword(const Token &t) {
  return t.isName("elif") || t.isName("else") || t.isName("except") || t.isName("finally") ||
         t.isName("case");
}

} // namespace

void ParserImpl::skipStatement() {
  while (true) {
    while (tok().kind != Tok::Newline && tok().kind != Tok::End)
      next();
    if (tok().kind == Tok::Newline)
      next();
    if (tok().kind == Tok::Indent) {
      int depth = 0;
      do {
        if (tok().kind == Tok::Indent)
          ++depth;
        else if (tok().kind == Tok::Dedent)
          --depth;
        next();
      } while (depth > 0 && tok().kind != Tok::End);
    }
    // The clauses of a compound statement (else, except...) belong to it.
    if (!isClauseKeyword(tok()))
      return;
  }
}

StmtList ParserImpl::parseBlock() {
  expect(":", "to start the block");
  StmtList body;
  if (tok().kind != Tok::Newline) {
    // Simple statements on the same line: "if x: return"
    while (true) {
      body.push_back(parseSimpleStatement());
      if (!accept(";") || tok().kind == Tok::Newline)
        break;
    }
    if (tok().kind != Tok::Newline)
      unexpected("after statement");
    next();
    return body;
  }
  next();
  if (tok().kind != Tok::Indent)
    error(tok(), "expected an indented block");
  next();
  while (tok().kind != Tok::Dedent && tok().kind != Tok::End)
    parseStatement(body);
  if (tok().kind == Tok::Dedent)
    next();
  return body;
}

void ParserImpl::parseStatement(StmtList &out) {
  const Token &t = tok();
  Span s = spanOf(t);
  if (t.kind == Tok::Newline) {
    next();
    return;
  }
  if (t.kind == Tok::Indent)
    error(t, "unexpected indent");
  auto unsupported = [&](std::string construct) {
    auto st = std::make_unique<Stmt>(StmtKind::Unsupported, s);
    st->module = std::move(construct);
    skipStatement();
    out.push_back(std::move(st));
  };
  if (t.kind == Tok::Name) {
    if (t.text == "if" || t.text == "elif") {
      next();
      auto st = std::make_unique<Stmt>(StmtKind::If, s);
      st->value = parseExpr();
      st->body = parseBlock();
      if (atName("elif")) {
        if (++elifDepth_ > 200)
          error(tok(), "too many elif branches (more than 200)");
        parseStatement(st->orelse);
        --elifDepth_;
      } else if (acceptName("else")) {
        st->orelse = parseBlock();
      }
      out.push_back(std::move(st));
      return;
    }
    if (t.text == "for") {
      next();
      auto st = std::make_unique<Stmt>(StmtKind::For, s);
      st->targets.push_back(parseTargetList());
      if (!acceptName("in"))
        error(tok(), "expected 'in' in for statement");
      st->value = parseExprList();
      st->body = parseBlock();
      if (acceptName("else"))
        st->orelse = parseBlock();
      out.push_back(std::move(st));
      return;
    }
    if (t.text == "while") {
      next();
      auto st = std::make_unique<Stmt>(StmtKind::While, s);
      st->value = parseExpr();
      st->body = parseBlock();
      if (acceptName("else"))
        st->orelse = parseBlock();
      out.push_back(std::move(st));
      return;
    }
    if (t.text == "def")
      return unsupported("nested function definition");
    if (t.text == "with") {
      // `with a, b:` (tl.async_task); `with ... as x:` and what does not parse stay
      // unsupported (host code such as `with torch.no_grad():` is never compiled).
      size_t start = pos_;
      next();
      auto st = std::make_unique<Stmt>(StmtKind::With, s);
      bool ok = true;
      try {
        do
          st->targets.push_back(parseExpr());
        while (!atName("as") && accept(","));
        ok = !atName("as") && atOp(":");
      } catch (CompileError &) {
        ok = false;
      }
      if (!ok) {
        pos_ = start;
        return unsupported("with");
      }
      st->body = parseBlock();
      out.push_back(std::move(st));
      return;
    }
    if (t.text == "try" || t.text == "class" || t.text == "async")
      return unsupported(t.text);
    if ((t.text == "match") && tok(1).kind != Tok::Op)
      return unsupported("match");
  }
  if (t.isOp("@"))
    return unsupported("nested function definition");
  while (true) {
    out.push_back(parseSimpleStatement());
    if (!accept(";") || tok().kind == Tok::Newline)
      break;
  }
  if (tok().kind != Tok::Newline && tok().kind != Tok::End)
    unexpected("after statement");
  if (tok().kind == Tok::Newline)
    next();
}

StmtPtr ParserImpl::parseSimpleStatement() {
  const Token &t = tok();
  Span s = spanOf(t);
  if (t.kind == Tok::Name) {
    if (t.text == "pass" || t.text == "break" || t.text == "continue") {
      next();
      return std::make_unique<Stmt>(t.text == "pass"    ? StmtKind::Pass
                                    : t.text == "break" ? StmtKind::Break
                                                        : StmtKind::Continue,
                                    s);
    }
    if (t.text == "return") {
      next();
      auto st = std::make_unique<Stmt>(StmtKind::Return, s);
      if (tok().kind != Tok::Newline && !atOp(";") && tok().kind != Tok::End)
        st->value = parseExprList();
      return st;
    }
    if (t.text == "assert") {
      next();
      auto st = std::make_unique<Stmt>(StmtKind::Assert, s);
      st->value = parseExpr();
      if (accept(","))
        st->annotation = parseExpr();
      return st;
    }
    if (t.text == "import") {
      next();
      auto st = std::make_unique<Stmt>(StmtKind::Import, s);
      do {
        Alias a;
        a.span = spanOf(tok());
        if (tok().kind != Tok::Name)
          error(tok(), "expected a module name after 'import'");
        a.name = next().text;
        while (accept(".")) {
          if (tok().kind != Tok::Name)
            error(tok(), "expected a module name after '.'");
          a.name += "." + next().text;
        }
        if (acceptName("as")) {
          if (tok().kind != Tok::Name)
            error(tok(), "expected a name after 'as'");
          a.asName = next().text;
        }
        st->aliases.push_back(std::move(a));
      } while (accept(","));
      return st;
    }
    if (t.text == "from") {
      next();
      auto st = std::make_unique<Stmt>(StmtKind::ImportFrom, s);
      while (atOp(".") || atOp("...")) {
        st->importLevel += atOp(".") ? 1 : 3;
        next();
      }
      if (tok().kind == Tok::Name && !atName("import")) {
        st->module = next().text;
        while (accept(".")) {
          if (tok().kind != Tok::Name)
            error(tok(), "expected a module name after '.'");
          st->module += "." + next().text;
        }
      }
      if (!acceptName("import"))
        error(tok(), "expected 'import'");
      bool paren = accept("(");
      do {
        if (paren && atOp(")"))
          break;
        Alias a;
        a.span = spanOf(tok());
        if (accept("*")) {
          a.name = "*";
        } else {
          if (tok().kind != Tok::Name)
            error(tok(), "expected a name to import");
          a.name = next().text;
          if (acceptName("as")) {
            if (tok().kind != Tok::Name)
              error(tok(), "expected a name after 'as'");
            a.asName = next().text;
          }
        }
        st->aliases.push_back(std::move(a));
      } while (accept(","));
      if (paren)
        expect(")", "to close the import list");
      return st;
    }
    if (t.text == "del" || t.text == "global" || t.text == "nonlocal" || t.text == "raise") {
      auto st = std::make_unique<Stmt>(StmtKind::Unsupported, s);
      st->module = t.text;
      // Skip the rest of this simple statement.
      next();
      while (tok().kind != Tok::Newline && tok().kind != Tok::End && !atOp(";"))
        next();
      return st;
    }
  }
  ExprPtr first = parseExprList();
  if (atOp(":")) {
    next();
    auto st = std::make_unique<Stmt>(StmtKind::AnnAssign, s);
    st->targets.push_back(std::move(first));
    st->annotation = parseExpr();
    if (accept("="))
      st->value = parseExprList();
    return st;
  }
  BinOpKind op;
  if (isAugOp(tok(), op)) {
    next();
    auto st = std::make_unique<Stmt>(StmtKind::AugAssign, s);
    st->augOp = op;
    st->targets.push_back(std::move(first));
    st->value = parseExprList();
    return st;
  }
  if (atOp("=")) {
    auto st = std::make_unique<Stmt>(StmtKind::Assign, s);
    ExprPtr value = std::move(first);
    while (accept("=")) {
      st->targets.push_back(std::move(value));
      value = parseExprList();
    }
    st->value = std::move(value);
    return st;
  }
  auto st = std::make_unique<Stmt>(StmtKind::Expr, s);
  st->value = std::move(first);
  return st;
}

std::unique_ptr<FunctionDef> ParserImpl::parseFunctionDef(std::vector<ExprPtr> decorators, bool parseBody) {
  auto fn = std::make_unique<FunctionDef>();
  fn->source = &src_;
  fn->decorators = std::move(decorators);
  fn->span = spanOf(tok());
  if (!acceptName("def"))
    error(tok(), "expected 'def'");
  if (tok().kind != Tok::Name || isKeyword(tok().text))
    error(tok(), "expected a function name after 'def'");
  fn->name = next().text;
  expect("(", "after the function name");
  while (!atOp(")")) {
    Param p;
    p.span = spanOf(tok());
    if (accept("**"))
      p.isKwArgs = true;
    else if (accept("*"))
      p.isVarArgs = true;
    if (atOp("/") || (p.isVarArgs && (atOp(",") || atOp(")")))) {
      // '/' or a bare '*': markers, not parameters.
      if (atOp("/"))
        next();
      if (!accept(","))
        break;
      continue;
    }
    if (tok().kind != Tok::Name || isKeyword(tok().text))
      error(tok(), "expected a parameter name");
    p.name = next().text;
    if (accept(":"))
      p.annotation = parseExpr();
    if (accept("="))
      p.defaultValue = parseExpr();
    fn->params.push_back(std::move(p));
    if (!accept(","))
      break;
  }
  expect(")", "to close the parameter list");
  if (accept("->"))
    parseExpr();
  if (!parseBody) {
    fn->parsed = false;
    skipStatement();
    return fn;
  }
  size_t bodyStart = pos_;
  unsigned savedElif = elifDepth_;
  try {
    fn->body = parseBlock();
  } catch (CompileError &e) {
    elifDepth_ = savedElif;
    fn->parseError = std::move(e);
    fn->body.clear();
    pos_ = bodyStart;
    skipStatement();
  }
  return fn;
}

ModuleAST ParserImpl::parseModule() {
  ModuleAST m;
  m.source = &src_;
  m.body = parseModuleStatements(false);
  return m;
}

StmtList ParserImpl::parseModuleStatements(bool nested) {
  StmtList body;
  while (tok().kind != Tok::End) {
    const Token &t = tok();
    Span s = spanOf(t);
    size_t start = pos_;
    unsigned savedElif = elifDepth_; // restored when the statement does not parse
    auto skipped = [&]() {
      pos_ = start;
      skipStatement();
      body.push_back(std::make_unique<Stmt>(StmtKind::Skipped, s));
    };
    if (t.kind == Tok::Dedent && nested) {
      next();
      break;
    }
    if (t.kind == Tok::Newline || t.kind == Tok::Dedent) {
      next();
      continue;
    }
    if (t.kind == Tok::Indent) {
      skipped();
      continue;
    }
    if (t.isOp("@") || t.isName("def")) {
      try {
        std::vector<ExprPtr> decorators;
        while (accept("@")) {
          decorators.push_back(parseExpr());
          if (tok().kind != Tok::Newline)
            unexpected("after decorator");
          next();
        }
        if (!atName("def")) {
          // A decorated class or async def: skip it.
          skipped();
          continue;
        }
        bool jit = false, constexprFunction = false;
        for (const ExprPtr &d : decorators) {
          jit = jit || isJitDecorator(*d);
          constexprFunction = constexprFunction || isConstexprFunctionDecorator(*d);
        }
        auto st = std::make_unique<Stmt>(StmtKind::FunctionDef, s);
        st->function = parseFunctionDef(std::move(decorators), jit);
        st->function->constexprFunction = constexprFunction;
        body.push_back(std::move(st));
      } catch (CompileError &) {
        elifDepth_ = savedElif;
        // Skip the decorators and the definition they decorate.
        pos_ = start;
        while (atOp("@"))
          skipStatement();
        skipStatement();
        body.push_back(std::make_unique<Stmt>(StmtKind::Skipped, s));
      }
      continue;
    }
    if (t.isName("if") || t.isName("try")) {
      // Evaluated when the module's names are bound (ModuleEnv); one that does not
      // parse is skipped with all its clauses.
      try {
        body.push_back(t.isName("if") ? parseModuleIf() : parseModuleTry());
      } catch (CompileError &) {
        elifDepth_ = savedElif;
        skipped();
      }
      continue;
    }
    bool simple = t.kind != Tok::Name || !isKeyword(t.text) || t.text == "import" || t.text == "from" ||
                  t.text == "None" || t.text == "True" || t.text == "False";
    if (!simple) {
      skipped();
      continue;
    }
    try {
      StmtPtr st = parseSimpleStatement();
      if (tok().kind != Tok::Newline && tok().kind != Tok::End)
        unexpected("after statement");
      bool keep = st->kind == StmtKind::Import || st->kind == StmtKind::ImportFrom ||
                  ((st->kind == StmtKind::Assign || st->kind == StmtKind::AnnAssign) && st->value);
      if (!keep) {
        skipped();
        continue;
      }
      if (tok().kind == Tok::Newline)
        next();
      body.push_back(std::move(st));
    } catch (CompileError &) {
      elifDepth_ = savedElif;
      skipped();
    }
  }
  return body;
}

StmtList ParserImpl::parseModuleSuite() {
  expect(":", "to start the block");
  if (tok().kind != Tok::Newline) {
    // Simple statements on the same line: "if HAS_X: from x import y"
    StmtList body;
    while (true) {
      StmtPtr st = parseSimpleStatement();
      if (st->kind == StmtKind::Import || st->kind == StmtKind::ImportFrom ||
          ((st->kind == StmtKind::Assign || st->kind == StmtKind::AnnAssign) && st->value))
        body.push_back(std::move(st));
      if (!accept(";") || tok().kind == Tok::Newline)
        break;
    }
    if (tok().kind != Tok::Newline && tok().kind != Tok::End)
      unexpected("after statement");
    if (tok().kind == Tok::Newline)
      next();
    return body;
  }
  next();
  if (tok().kind != Tok::Indent)
    error(tok(), "expected an indented block");
  next();
  return parseModuleStatements(true);
}

StmtPtr ParserImpl::parseModuleIf() {
  auto st = std::make_unique<Stmt>(StmtKind::If, spanOf(tok()));
  next(); // if / elif
  st->value = parseExpr();
  st->body = parseModuleSuite();
  if (atName("elif")) {
    if (++elifDepth_ > 200)
      error(tok(), "too many elif branches (more than 200)");
    st->orelse.push_back(parseModuleIf());
    --elifDepth_;
  } else if (acceptName("else")) {
    st->orelse = parseModuleSuite();
  }
  return st;
}

StmtPtr ParserImpl::parseModuleTry() {
  auto st = std::make_unique<Stmt>(StmtKind::Try, spanOf(tok()));
  next(); // try
  st->body = parseModuleSuite();
  while (atName("except")) {
    ExceptHandler h;
    h.span = spanOf(tok());
    next();
    accept("*"); // except* groups match like except here
    if (!atOp(":")) {
      h.type = parseExpr();
      if (acceptName("as")) {
        if (tok().kind != Tok::Name)
          unexpected("after 'as'");
        next();
      }
    }
    h.body = parseModuleSuite();
    st->handlers.push_back(std::move(h));
  }
  if (acceptName("else"))
    st->orelse = parseModuleSuite();
  if (acceptName("finally"))
    st->finalbody = parseModuleSuite();
  if (st->handlers.empty() && st->finalbody.empty())
    error(tok(), "expected 'except' or 'finally' after the try block");
  return st;
}

ModuleAST parseModule(const SourceBuffer &source) {
  ParserImpl p(source, tokenize(source));
  return p.parseModule();
}

std::unique_ptr<FunctionDef> parseFunctionAt(const SourceBuffer &source, uint32_t offset) {
  ParserImpl p(source, tokenize(source));
  while (p.tok().kind != Tok::End && !(p.atName("def") && p.tok().begin == offset))
    p.next();
  if (p.tok().kind == Tok::End)
    return nullptr;
  return p.parseFunctionDef({}, true);
}

ExprPtr parseExpression(const SourceBuffer &source) {
  ParserImpl p(source, tokenize(source));
  while (p.tok().kind == Tok::Indent)
    p.next();
  ExprPtr e = p.parseExprList();
  while (p.tok().kind == Tok::Newline || p.tok().kind == Tok::Dedent)
    p.next();
  if (p.tok().kind != Tok::End)
    p.unexpected("after expression");
  return e;
}

} // namespace trident::frontend
