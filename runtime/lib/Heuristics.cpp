#include "Heuristics.h"

#include "trident/Error.h"

#include <cctype>
#include <cmath>

namespace trident::detail {

using Kind = HeuristicValue::Kind;

struct HeuristicParser {
  Heuristic &h;
  const std::string &s;
  size_t pos = 0;
  std::string argsName;

  [[noreturn]] void fail(const std::string &what) {
    throw Error(ErrorCode::Compile, "@triton.heuristics for '" + h.param_ + "': " + what + " in `" + s +
                                        "` (supported: numbers, args['name'], arithmetic, comparisons, "
                                        "and/or/not, if-else, next_power_of_2, cdiv, min, max, abs, int, float, bool)");
  }
  void skip() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos])))
      ++pos;
  }
  bool peek(const std::string &tok) {
    skip();
    if (s.compare(pos, tok.size(), tok) != 0)
      return false;
    // Keywords must end at a word boundary.
    if (std::isalpha(static_cast<unsigned char>(tok.back())) && pos + tok.size() < s.size() &&
        (std::isalnum(static_cast<unsigned char>(s[pos + tok.size()])) || s[pos + tok.size()] == '_'))
      return false;
    return true;
  }
  bool accept(const std::string &tok) {
    if (!peek(tok))
      return false;
    pos += tok.size();
    return true;
  }
  void expect(const std::string &tok) {
    if (!accept(tok))
      fail("expected '" + tok + "'");
  }
  std::string name() {
    skip();
    size_t start = pos;
    while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '.'))
      ++pos;
    if (start == pos)
      fail("expected a name");
    return s.substr(start, pos - start);
  }
  int32_t node(Heuristic::Op op, int32_t a = -1, int32_t b = -1, int32_t c = -1) {
    Heuristic::Node n;
    n.op = op;
    n.a = a;
    n.b = b;
    n.c = c;
    h.nodes_.push_back(n);
    return int32_t(h.nodes_.size() - 1);
  }

  int32_t lambda() {
    expect("lambda");
    argsName = name();
    expect(":");
    int32_t root = conditional();
    skip();
    if (pos != s.size())
      fail("unexpected text '" + s.substr(pos) + "'");
    return root;
  }
  int32_t conditional() {
    int32_t value = orExpr();
    if (!accept("if"))
      return value;
    int32_t cond = orExpr();
    expect("else");
    int32_t other = conditional();
    return node(Heuristic::Op::Cond, value, other, cond);
  }
  int32_t orExpr() {
    int32_t a = andExpr();
    while (accept("or"))
      a = node(Heuristic::Op::Or, a, andExpr());
    return a;
  }
  int32_t andExpr() {
    int32_t a = notExpr();
    while (accept("and"))
      a = node(Heuristic::Op::And, a, notExpr());
    return a;
  }
  int32_t notExpr() {
    if (accept("not"))
      return node(Heuristic::Op::Not, notExpr());
    return comparison();
  }
  int32_t comparison() {
    int32_t a = arith();
    static const std::pair<const char *, Heuristic::Op> ops[] = {
        {"==", Heuristic::Op::Eq}, {"!=", Heuristic::Op::Ne}, {"<=", Heuristic::Op::Le},
        {">=", Heuristic::Op::Ge}, {"<", Heuristic::Op::Lt},  {">", Heuristic::Op::Gt}};
    for (const auto &[tok, op] : ops)
      if (accept(tok))
        return node(op, a, arith());
    return a;
  }
  int32_t arith() {
    int32_t a = term();
    for (;;) {
      if (accept("+"))
        a = node(Heuristic::Op::Add, a, term());
      else if (accept("-"))
        a = node(Heuristic::Op::Sub, a, term());
      else
        return a;
    }
  }
  int32_t term() {
    int32_t a = unary();
    for (;;) {
      if (peek("**"))
        return a;
      if (accept("//"))
        a = node(Heuristic::Op::FloorDiv, a, unary());
      else if (accept("*"))
        a = node(Heuristic::Op::Mul, a, unary());
      else if (accept("/"))
        a = node(Heuristic::Op::Div, a, unary());
      else if (accept("%"))
        a = node(Heuristic::Op::Mod, a, unary());
      else
        return a;
    }
  }
  int32_t unary() {
    if (accept("-"))
      return node(Heuristic::Op::Neg, unary());
    if (accept("+"))
      return unary();
    int32_t base = primary();
    if (accept("**"))
      return node(Heuristic::Op::Pow, base, unary());
    return base;
  }
  int32_t primary() {
    skip();
    if (accept("(")) {
      int32_t e = conditional();
      expect(")");
      return e;
    }
    if (pos < s.size() && (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '.')) {
      size_t used = 0;
      std::string rest = s.substr(pos);
      HeuristicValue v;
      size_t intEnd = 0;
      long long iv = std::stoll(rest, &intEnd, 0);
      double fv = std::stod(rest, &used);
      if (used > intEnd) {
        v.kind = Kind::Float;
        v.f = fv;
      } else {
        v.kind = Kind::Int;
        v.i = iv;
        used = intEnd;
      }
      pos += used;
      int32_t n = node(Heuristic::Op::Const);
      h.nodes_[size_t(n)].value = v;
      return n;
    }
    std::string id = name();
    if (id == "True" || id == "False") {
      int32_t n = node(Heuristic::Op::Const);
      h.nodes_[size_t(n)].value = {Kind::Bool, id == "True", 0};
      return n;
    }
    if (id == argsName) {
      expect("[");
      skip();
      if (pos >= s.size() || (s[pos] != '\'' && s[pos] != '"'))
        fail("expected a quoted parameter name after " + argsName + "[");
      char quote = s[pos++];
      size_t end = s.find(quote, pos);
      if (end == std::string::npos)
        fail("unterminated string");
      std::string param = s.substr(pos, end - pos);
      pos = end + 1;
      expect("]");
      for (size_t i = 0; i < h.paramNames_.size(); ++i)
        if (h.paramNames_[i] == param) {
          int32_t n = node(Heuristic::Op::Param);
          h.nodes_[size_t(n)].param = uint32_t(i);
          return n;
        }
      fail("'" + param + "' is not a parameter of the kernel");
    }
    static const std::pair<const char *, Heuristic::Op> calls[] = {
        {"triton.next_power_of_2", Heuristic::Op::NextPow2}, {"next_power_of_2", Heuristic::Op::NextPow2},
        {"triton.cdiv", Heuristic::Op::Cdiv}, {"cdiv", Heuristic::Op::Cdiv}, {"min", Heuristic::Op::Min},
        {"max", Heuristic::Op::Max}, {"abs", Heuristic::Op::Abs}, {"int", Heuristic::Op::ToInt},
        {"float", Heuristic::Op::ToFloat}, {"bool", Heuristic::Op::ToBool}};
    for (const auto &[fn, op] : calls) {
      if (id != fn)
        continue;
      expect("(");
      int32_t a = conditional(), b = -1;
      if (accept(","))
        b = conditional();
      expect(")");
      bool binary = op == Heuristic::Op::Cdiv || op == Heuristic::Op::Min || op == Heuristic::Op::Max;
      if (binary != (b >= 0))
        fail(std::string(fn) + " takes " + (binary ? "two arguments" : "one argument"));
      return node(op, a, b);
    }
    fail("'" + id + "' is not supported");
  }
};

Heuristic::Heuristic(const std::string &param, const std::string &lambdaSource, const std::vector<std::string> &params)
    : param_(param), source_(lambdaSource), paramNames_(params) {
  HeuristicParser p{*this, source_, 0, {}};
  root_ = p.lambda();
}

HeuristicValue Heuristic::apply(const Node &node, const HeuristicValue &x, const HeuristicValue &y) const {
  auto bad = [&](const char *what) -> HeuristicValue {
    throw Error(ErrorCode::InvalidArgument, "@triton.heuristics for '" + param_ + "': " + what + " in `" + source_ +
                                                "`");
  };
  if ((node.a >= 0 && x.kind == Kind::None) || (node.b >= 0 && y.kind == Kind::None))
    bad("a parameter it reads has no integer, float or bool value in this launch");
  bool isFloat = x.kind == Kind::Float || y.kind == Kind::Float;
  auto fx = x.kind == Kind::Float ? x.f : double(x.i), fy = y.kind == Kind::Float ? y.f : double(y.i);
  auto num = [](int64_t v) { return HeuristicValue{Kind::Int, v, 0}; };
  auto real = [](double v) { return HeuristicValue{Kind::Float, 0, v}; };
  auto boolean = [](bool v) { return HeuristicValue{Kind::Bool, v, 0}; };
  auto truth = [](const HeuristicValue &v) { return v.kind == Kind::Float ? v.f != 0 : v.i != 0; };
  switch (node.op) {
  case Op::Neg: return x.kind == Kind::Float ? real(-x.f) : num(-x.i);
  case Op::Not: return boolean(!truth(x));
  case Op::Add: return isFloat ? real(fx + fy) : num(x.i + y.i);
  case Op::Sub: return isFloat ? real(fx - fy) : num(x.i - y.i);
  case Op::Mul: return isFloat ? real(fx * fy) : num(x.i * y.i);
  case Op::Div:
    if (fy == 0)
      return bad("division by zero");
    return real(fx / fy);
  case Op::FloorDiv:
  case Op::Mod: {
    if (fy == 0)
      return bad("division by zero");
    if (isFloat)
      return node.op == Op::FloorDiv ? real(std::floor(fx / fy)) : real(fx - fy * std::floor(fx / fy));
    int64_t q = x.i / y.i, r = x.i % y.i;
    if (r != 0 && ((r < 0) != (y.i < 0))) { // Python rounds toward negative infinity
      --q;
      r += y.i;
    }
    return num(node.op == Op::FloorDiv ? q : r);
  }
  case Op::Pow: {
    if (!isFloat && y.i >= 0) {
      int64_t r = 1;
      for (int64_t k = 0; k < y.i; ++k)
        r *= x.i;
      return num(r);
    }
    return real(std::pow(fx, fy));
  }
  case Op::Eq: return boolean(fx == fy);
  case Op::Ne: return boolean(fx != fy);
  case Op::Lt: return boolean(fx < fy);
  case Op::Le: return boolean(fx <= fy);
  case Op::Gt: return boolean(fx > fy);
  case Op::Ge: return boolean(fx >= fy);
  case Op::And: return truth(x) ? y : x;
  case Op::Or: return truth(x) ? x : y;
  case Op::NextPow2: {
    int64_t v = x.kind == Kind::Float ? int64_t(std::ceil(x.f)) : x.i, p = 1;
    while (p < v)
      p <<= 1;
    return num(p);
  }
  case Op::Cdiv:
    if (isFloat || y.i == 0)
      return bad("cdiv needs nonzero integers");
    return num((x.i + y.i - 1) / y.i);
  case Op::Min: return isFloat ? real(std::min(fx, fy)) : num(std::min(x.i, y.i));
  case Op::Max: return isFloat ? real(std::max(fx, fy)) : num(std::max(x.i, y.i));
  case Op::Abs: return x.kind == Kind::Float ? real(std::abs(x.f)) : num(x.i < 0 ? -x.i : x.i);
  case Op::ToInt: return num(x.kind == Kind::Float ? int64_t(x.f) : x.i);
  case Op::ToFloat: return real(fx);
  case Op::ToBool: return boolean(truth(x));
  default: return bad("internal: unexpected node");
  }
}

} // namespace trident::detail
