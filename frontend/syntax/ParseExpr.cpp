// The expression grammar, lowest precedence first:
//   lambda, x if c else y, or, and, not, comparisons, |, ^, &, << >>, + -,
//   * / // % @, unary + - ~, **, primaries (calls, attributes, subscripts), atoms.

#include "ParserImpl.h"

#include <algorithm>
#include <iterator>
#include <optional>

namespace trident::frontend {

namespace {

constexpr unsigned kMaxNesting = 200;
constexpr unsigned kMaxDepth = 200;

} // namespace

NestingGuard::NestingGuard(ParserImpl &p) : p_(p) {
  if (++p_.nesting_ > kMaxNesting)
    p_.error(p_.tok(), "expression is nested too deeply");
}

const Token &ParserImpl::expect(std::string_view op, std::string_view context) {
  if (!atOp(op))
    error(tok(), "expected '" + std::string(op) + "' " + std::string(context));
  return next();
}

void ParserImpl::error(const Token &at, std::string message) const { fail(posOf(at), std::move(message)); }

void ParserImpl::unexpected(std::string_view context) const {
  const Token &t = tok();
  std::string what;
  switch (t.kind) {
  case Tok::Newline: what = "end of line"; break;
  case Tok::Indent: what = "indentation"; break;
  case Tok::Dedent: what = "end of block"; break;
  case Tok::End: what = "end of file"; break;
  case Tok::String: what = "string literal"; break;
  default: what = "'" + t.text + "'"; break;
  }
  error(t, "invalid syntax: unexpected " + what + " " + std::string(context));
}

ExprPtr ParserImpl::finish(ExprPtr e) {
  unsigned depth = 0;
  auto see = [&](const ExprPtr &c) {
    if (c) {
      depth = std::max(depth, c->depth);
      e->span.end = std::max(e->span.end, c->span.end);
    }
  };
  see(e->value);
  see(e->index);
  for (const ExprPtr &c : e->items)
    see(c);
  for (const ExprPtr &c : e->values)
    see(c);
  for (const Keyword &k : e->keywords)
    see(k.value);
  e->depth = depth + 1;
  e->span.end = std::max(e->span.end, lastEnd());
  if (e->depth > kMaxDepth)
    fail(SourcePos{&src_, e->span.line, e->span.col}, "expression is nested too deeply");
  return e;
}

void ParserImpl::skipToClose() {
  int depth = 0;
  while (tok().kind != Tok::End) {
    const Token &t = tok();
    if (t.kind == Tok::Op) {
      if (t.text == "(" || t.text == "[" || t.text == "{")
        ++depth;
      else if (t.text == ")" || t.text == "]" || t.text == "}") {
        if (depth == 0)
          return;
        --depth;
      }
    }
    next();
  }
}

ExprPtr ParserImpl::parseExprList() {
  Span start = spanOf(tok());
  ExprPtr first = atOp("*") ? nullptr : parseExpr();
  if (!first) {
    next();
    first = make(ExprKind::Starred, start);
    first->value = parseBitOr();
    first = finish(std::move(first));
  }
  if (!atOp(","))
    return first;
  ExprPtr tuple = make(ExprKind::Tuple, first->span);
  tuple->items.push_back(std::move(first));
  while (accept(",")) {
    const Token &t = tok();
    if (t.kind == Tok::Newline || t.isOp("=") || t.isOp(")") || t.isOp(":") || t.isOp(";") ||
        t.kind == Tok::End ||
        (t.kind == Tok::Op && t.text.size() >= 2 && t.text.back() == '=' && t.text != "==" &&
         t.text != "<=" && t.text != ">=" && t.text != "!="))
      break;
    if (atOp("*")) {
      Span s = spanOf(next());
      ExprPtr star = make(ExprKind::Starred, s);
      star->value = parseBitOr();
      tuple->items.push_back(finish(std::move(star)));
    } else {
      tuple->items.push_back(parseExpr());
    }
  }
  return finish(std::move(tuple));
}

ExprPtr ParserImpl::parseTargetList() {
  // Targets are parsed as expressions up to '|' precedence (so that 'for x in y'
  // stops at 'in'); the code generator checks that they are assignable.
  Span start = spanOf(tok());
  ExprPtr first = parseBitOr();
  if (!atOp(","))
    return first;
  ExprPtr tuple = make(ExprKind::Tuple, start);
  tuple->items.push_back(std::move(first));
  while (accept(",")) {
    if (atName("in") || atOp("=") || tok().kind == Tok::Newline)
      break;
    tuple->items.push_back(parseBitOr());
  }
  return finish(std::move(tuple));
}

ExprPtr ParserImpl::parseExpr() {
  NestingGuard guard(*this);
  if (atName("lambda")) {
    ExprPtr e = make(ExprKind::Lambda, spanOf(next()));
    e->name = "lambda";
    // Parameters: names (kept as Name items) with optional defaults (dropped), up to ':'.
    while (!atOp(":") && tok().kind != Tok::Newline && tok().kind != Tok::End) {
      if (accept("=")) {
        parseExpr();
        continue;
      }
      if (const Token &t = next(); t.kind == Tok::Name)
        (e->items.emplace_back(make(ExprKind::Name, spanOf(t))))->name = t.text;
    }
    expect(":", "after the parameters of lambda");
    e->value = parseExpr();
    return finish(std::move(e));
  }
  if (atName("yield") || atName("await")) {
    Span s = spanOf(tok());
    std::string what = next().text;
    ExprPtr e = make(ExprKind::Unsupported, s);
    e->name = what;
    if (!atOp(")") && tok().kind != Tok::Newline && !atOp(","))
      e->value = parseExpr();
    return finish(std::move(e));
  }
  ExprPtr body = parseOr();
  if (atOp(":=")) {
    Span s = spanOf(next());
    ExprPtr e = make(ExprKind::Unsupported, s);
    e->name = "assignment expression ':='";
    e->value = parseExpr();
    return finish(std::move(e));
  }
  if (!atName("if"))
    return body;
  next();
  ExprPtr test = parseOr();
  if (!acceptName("else"))
    error(tok(), "expected 'else' in conditional expression");
  ExprPtr orelse = parseExpr();
  ExprPtr e = make(ExprKind::IfExp, body->span);
  e->items.push_back(std::move(test));
  e->items.push_back(std::move(body));
  e->items.push_back(std::move(orelse));
  return finish(std::move(e));
}

namespace {

ExprPtr parseNot(ParserImpl &p);

ExprPtr parseAnd(ParserImpl &p) {
  ExprPtr first = parseNot(p);
  if (!p.atName("and"))
    return first;
  ExprPtr e = p.make(ExprKind::BoolOp, first->span);
  e->boolValue = true;
  e->items.push_back(std::move(first));
  while (p.acceptName("and"))
    e->items.push_back(parseNot(p));
  return p.finish(std::move(e));
}

std::optional<CmpOpKind> comparisonAt(ParserImpl &p) {
  const Token &t = p.tok();
  if (t.kind == Tok::Op) {
    if (t.text == "==")
      return CmpOpKind::Eq;
    if (t.text == "!=")
      return CmpOpKind::NotEq;
    if (t.text == "<")
      return CmpOpKind::Lt;
    if (t.text == "<=")
      return CmpOpKind::LtE;
    if (t.text == ">")
      return CmpOpKind::Gt;
    if (t.text == ">=")
      return CmpOpKind::GtE;
    return std::nullopt;
  }
  if (t.isName("in"))
    return CmpOpKind::In;
  if (t.isName("is"))
    return p.tok(1).isName("not") ? CmpOpKind::IsNot : CmpOpKind::Is;
  if (t.isName("not") && p.tok(1).isName("in"))
    return CmpOpKind::NotIn;
  return std::nullopt;
}

ExprPtr parseComparison(ParserImpl &p) {
  ExprPtr first = p.parseBitOr();
  std::optional<CmpOpKind> op = comparisonAt(p);
  if (!op)
    return first;
  ExprPtr e = p.make(ExprKind::Compare, first->span);
  e->items.push_back(std::move(first));
  while (op) {
    p.next();
    if (*op == CmpOpKind::IsNot || *op == CmpOpKind::NotIn)
      p.next();
    e->cmpOps.push_back(*op);
    e->items.push_back(p.parseBitOr());
    op = comparisonAt(p);
  }
  return p.finish(std::move(e));
}

ExprPtr parseNot(ParserImpl &p) {
  if (!p.atName("not"))
    return parseComparison(p);
  NestingGuard guard(p);
  Span s = ParserImpl::spanOf(p.next());
  ExprPtr e = p.make(ExprKind::UnaryOp, s);
  e->unaryOp = UnaryOpKind::Not;
  e->value = parseNot(p);
  return p.finish(std::move(e));
}

struct BinLevel {
  std::initializer_list<std::pair<const char *, BinOpKind>> ops;
};

const BinLevel kLevels[] = {
    {{{"|", BinOpKind::BitOr}}},
    {{{"^", BinOpKind::BitXor}}},
    {{{"&", BinOpKind::BitAnd}}},
    {{{"<<", BinOpKind::LShift}, {">>", BinOpKind::RShift}}},
    {{{"+", BinOpKind::Add}, {"-", BinOpKind::Sub}}},
    {{{"*", BinOpKind::Mul},
      {"/", BinOpKind::Div},
      {"//", BinOpKind::FloorDiv},
      {"%", BinOpKind::Mod},
      {"@", BinOpKind::MatMul}}},
};

ExprPtr parseFactor(ParserImpl &p);

ExprPtr parseLevel(ParserImpl &p, size_t level) {
  if (level == std::size(kLevels))
    return parseFactor(p);
  ExprPtr lhs = parseLevel(p, level + 1);
  while (true) {
    std::optional<BinOpKind> found;
    for (auto [text, kind] : kLevels[level].ops)
      if (p.atOp(text))
        found = kind;
    if (!found)
      return lhs;
    p.next();
    ExprPtr e = p.make(ExprKind::BinOp, lhs->span);
    e->binOp = *found;
    e->value = std::move(lhs);
    e->index = parseLevel(p, level + 1);
    lhs = p.finish(std::move(e));
  }
}

ExprPtr parsePrimary(ParserImpl &p);

ExprPtr parseFactor(ParserImpl &p) {
  const Token &t = p.tok();
  if (t.isOp("-") || t.isOp("+") || t.isOp("~")) {
    NestingGuard guard(p);
    Span s = ParserImpl::spanOf(p.next());
    ExprPtr e = p.make(ExprKind::UnaryOp, s);
    e->unaryOp = t.text == "-" ? UnaryOpKind::Neg : t.text == "+" ? UnaryOpKind::Pos : UnaryOpKind::Invert;
    e->value = parseFactor(p);
    return p.finish(std::move(e));
  }
  ExprPtr base = parsePrimary(p);
  if (!p.atOp("**"))
    return base;
  NestingGuard guard(p);
  p.next();
  ExprPtr e = p.make(ExprKind::BinOp, base->span);
  e->binOp = BinOpKind::Pow;
  e->value = std::move(base);
  e->index = parseFactor(p); // right-associative, binds tighter than unary minus on its left
  return p.finish(std::move(e));
}

ExprPtr parseAtom(ParserImpl &p);

// One element of a subscript: an expression or a slice lower:upper:step.
ExprPtr parseSliceItem(ParserImpl &p) {
  Span s = ParserImpl::spanOf(p.tok());
  ExprPtr lower;
  if (!p.atOp(":"))
    lower = p.parseExpr();
  if (!p.atOp(":"))
    return lower;
  ExprPtr slice = p.make(ExprKind::Slice, s);
  p.next();
  ExprPtr upper, step;
  if (!p.atOp(":") && !p.atOp("]") && !p.atOp(","))
    upper = p.parseExpr();
  if (p.accept(":") && !p.atOp("]") && !p.atOp(","))
    step = p.parseExpr();
  slice->items.push_back(std::move(lower));
  slice->items.push_back(std::move(upper));
  slice->items.push_back(std::move(step));
  return p.finish(std::move(slice));
}

void parseCallArguments(ParserImpl &p, Expr &call) {
  while (!p.atOp(")")) {
    const Token &t = p.tok();
    if (t.kind == Tok::Name && p.tok(1).isOp("=") && !isKeyword(t.text)) {
      Keyword k;
      k.name = t.text;
      k.span = ParserImpl::spanOf(t);
      p.next();
      p.next();
      k.value = p.parseExpr();
      call.keywords.push_back(std::move(k));
    } else if (t.isOp("*") || t.isOp("**")) {
      Span s = ParserImpl::spanOf(p.next());
      ExprPtr star = p.make(t.text == "*" ? ExprKind::Starred : ExprKind::DoubleStarred, s);
      star->value = p.parseExpr();
      call.items.push_back(p.finish(std::move(star)));
    } else {
      ExprPtr arg = p.parseExpr();
      if (p.atName("for") || p.atName("async")) {
        Span s = ParserImpl::spanOf(p.tok());
        p.skipToClose();
        ExprPtr e = p.make(ExprKind::Unsupported, s);
        e->name = "generator expression";
        arg = p.finish(std::move(e));
      }
      call.items.push_back(std::move(arg));
    }
    if (!p.accept(","))
      break;
  }
  p.expect(")", "to close the call's arguments");
}

ExprPtr parsePrimary(ParserImpl &p) {
  ExprPtr e = parseAtom(p);
  while (true) {
    if (p.atOp(".")) {
      p.next();
      const Token &name = p.tok();
      if (name.kind != Tok::Name)
        p.error(name, "expected an attribute name after '.'");
      p.next();
      ExprPtr a = p.make(ExprKind::Attribute, e->span);
      a->name = name.text;
      a->value = std::move(e);
      e = p.finish(std::move(a));
    } else if (p.atOp("(")) {
      NestingGuard guard(p);
      p.next();
      ExprPtr c = p.make(ExprKind::Call, e->span);
      c->value = std::move(e);
      parseCallArguments(p, *c);
      e = p.finish(std::move(c));
    } else if (p.atOp("[")) {
      NestingGuard guard(p);
      Span s = ParserImpl::spanOf(p.next());
      ExprPtr sub = p.make(ExprKind::Subscript, e->span);
      sub->value = std::move(e);
      ExprPtr first = parseSliceItem(p);
      if (!first)
        p.unexpected("in subscript");
      if (p.atOp(",")) {
        ExprPtr tuple = p.make(ExprKind::Tuple, s);
        tuple->items.push_back(std::move(first));
        while (p.accept(",") && !p.atOp("]")) {
          ExprPtr item = parseSliceItem(p);
          if (!item)
            p.unexpected("in subscript");
          tuple->items.push_back(std::move(item));
        }
        first = p.finish(std::move(tuple));
      }
      p.expect("]", "to close the subscript");
      sub->index = std::move(first);
      e = p.finish(std::move(sub));
    } else {
      return e;
    }
  }
}

// A bracketed display: (...), [...] or {...}. Comprehensions are skipped whole.
ExprPtr parseDisplay(ParserImpl &p) {
  NestingGuard guard(p);
  const Token &open = p.next();
  Span s = ParserImpl::spanOf(open);
  std::string close = open.text == "(" ? ")" : open.text == "[" ? "]" : "}";
  auto comprehension = [&]() {
    p.skipToClose();
    p.expect(close, "to close the comprehension");
    ExprPtr e = p.make(ExprKind::Unsupported, s);
    e->name = open.text == "(" ? "generator expression" : "comprehension";
    return p.finish(std::move(e));
  };
  if (open.text == "(") {
    if (p.accept(")"))
      return p.finish(p.make(ExprKind::Tuple, s));
    ExprPtr first = p.atOp("*") ? nullptr : p.parseExpr();
    if (first && (p.atName("for") || p.atName("async")))
      return comprehension();
    if (first && p.accept(")")) {
      return first; // parenthesized expression
    }
    ExprPtr tuple = p.make(ExprKind::Tuple, s);
    if (first) {
      tuple->items.push_back(std::move(first));
      if (!p.accept(","))
        p.unexpected("in parenthesized expression");
    }
    while (!p.atOp(")")) {
      if (p.atOp("*")) {
        Span ss = ParserImpl::spanOf(p.next());
        ExprPtr star = p.make(ExprKind::Starred, ss);
        star->value = p.parseBitOr();
        tuple->items.push_back(p.finish(std::move(star)));
      } else {
        tuple->items.push_back(p.parseExpr());
      }
      if (!p.accept(","))
        break;
    }
    p.expect(")", "to close the tuple");
    return p.finish(std::move(tuple));
  }
  if (open.text == "[") {
    ExprPtr list = p.make(ExprKind::List, s);
    while (!p.atOp("]")) {
      if (p.atOp("*")) {
        Span ss = ParserImpl::spanOf(p.next());
        ExprPtr star = p.make(ExprKind::Starred, ss);
        star->value = p.parseBitOr();
        list->items.push_back(p.finish(std::move(star)));
      } else {
        list->items.push_back(p.parseExpr());
      }
      if (list->items.size() == 1 && (p.atName("for") || p.atName("async")))
        return comprehension();
      if (!p.accept(","))
        break;
    }
    p.expect("]", "to close the list");
    return p.finish(std::move(list));
  }
  // '{': a dict or a set.
  if (p.accept("}"))
    return p.finish(p.make(ExprKind::Dict, s));
  ExprPtr result;
  bool first = true;
  while (!p.atOp("}")) {
    if (p.atOp("**")) {
      p.next();
      p.parseBitOr();
      ExprPtr e = p.make(ExprKind::Unsupported, s);
      e->name = "dict unpacking";
      result = std::move(e);
    } else {
      ExprPtr key = p.parseExpr();
      if (first) {
        result = p.make(p.atOp(":") ? ExprKind::Dict : ExprKind::Set, s);
        first = false;
      }
      if (result->kind == ExprKind::Dict) {
        p.expect(":", "after a dict key");
        ExprPtr value = p.parseExpr();
        result->items.push_back(std::move(key));
        result->values.push_back(std::move(value));
      } else if (result->kind == ExprKind::Set) {
        result->items.push_back(std::move(key));
      }
      if (p.atName("for") || p.atName("async"))
        return comprehension();
    }
    if (!p.accept(","))
      break;
  }
  p.expect("}", "to close the dict or set");
  return p.finish(std::move(result));
}

ExprPtr parseAtom(ParserImpl &p) {
  const Token &t = p.tok();
  Span s = ParserImpl::spanOf(t);
  switch (t.kind) {
  case Tok::Name: {
    if (t.text == "True" || t.text == "False") {
      p.next();
      ExprPtr e = p.make(ExprKind::Bool, s);
      e->boolValue = t.text == "True";
      return p.finish(std::move(e));
    }
    if (t.text == "None") {
      p.next();
      return p.finish(p.make(ExprKind::None, s));
    }
    if (isKeyword(t.text))
      p.unexpected("in expression");
    p.next();
    ExprPtr e = p.make(ExprKind::Name, s);
    e->name = t.text;
    return p.finish(std::move(e));
  }
  case Tok::Int: {
    p.next();
    ExprPtr e = p.make(ExprKind::Int, s);
    e->intValue = t.intValue;
    e->intTooLarge = t.intTooLarge;
    return p.finish(std::move(e));
  }
  case Tok::Float: {
    p.next();
    ExprPtr e = p.make(ExprKind::Float, s);
    e->floatValue = t.floatValue;
    return p.finish(std::move(e));
  }
  case Tok::Imaginary: {
    p.next();
    ExprPtr e = p.make(ExprKind::Unsupported, s);
    e->name = "complex number";
    return p.finish(std::move(e));
  }
  case Tok::String: {
    std::string value;
    bool fstring = false, bytes = false;
    while (p.tok().kind == Tok::String) {
      const Token &part = p.next();
      value += part.text;
      fstring |= part.isFString;
      bytes |= part.isBytes;
    }
    ExprPtr e = p.make(fstring || bytes ? ExprKind::Unsupported : ExprKind::String, s);
    e->name = fstring ? "f-string" : bytes ? "bytes literal" : value;
    return p.finish(std::move(e));
  }
  case Tok::Op:
    if (t.text == "(" || t.text == "[" || t.text == "{")
      return parseDisplay(p);
    if (t.text == "...") {
      p.next();
      return p.finish(p.make(ExprKind::Ellipsis, s));
    }
    break;
  default: break;
  }
  p.unexpected("in expression");
}

} // namespace

ExprPtr ParserImpl::parseOr() {
  ExprPtr first = parseAnd(*this);
  if (!atName("or"))
    return first;
  ExprPtr e = make(ExprKind::BoolOp, first->span);
  e->boolValue = false;
  e->items.push_back(std::move(first));
  while (acceptName("or"))
    e->items.push_back(parseAnd(*this));
  return finish(std::move(e));
}

ExprPtr ParserImpl::parseBitOr() { return parseLevel(*this, 0); }

const char *spelling(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add: return "+";
  case BinOpKind::Sub: return "-";
  case BinOpKind::Mul: return "*";
  case BinOpKind::Div: return "/";
  case BinOpKind::FloorDiv: return "//";
  case BinOpKind::Mod: return "%";
  case BinOpKind::Pow: return "**";
  case BinOpKind::LShift: return "<<";
  case BinOpKind::RShift: return ">>";
  case BinOpKind::BitAnd: return "&";
  case BinOpKind::BitOr: return "|";
  case BinOpKind::BitXor: return "^";
  case BinOpKind::MatMul: return "@";
  }
  return "?";
}

const char *spelling(UnaryOpKind op) {
  switch (op) {
  case UnaryOpKind::Neg: return "-";
  case UnaryOpKind::Pos: return "+";
  case UnaryOpKind::Invert: return "~";
  case UnaryOpKind::Not: return "not";
  }
  return "?";
}

const char *spelling(CmpOpKind op) {
  switch (op) {
  case CmpOpKind::Eq: return "==";
  case CmpOpKind::NotEq: return "!=";
  case CmpOpKind::Lt: return "<";
  case CmpOpKind::LtE: return "<=";
  case CmpOpKind::Gt: return ">";
  case CmpOpKind::GtE: return ">=";
  case CmpOpKind::Is: return "is";
  case CmpOpKind::IsNot: return "is not";
  case CmpOpKind::In: return "in";
  case CmpOpKind::NotIn: return "not in";
  }
  return "?";
}

} // namespace trident::frontend
