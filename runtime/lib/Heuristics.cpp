#include "Heuristics.h"

#include "Parser.h"
#include "trident/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace trident::detail {

using Kind = HeuristicValue::Kind;

// Turns the frontend parser's syntax tree of `lambda args: ...` into the node list.
struct HeuristicParser {
  Heuristic &h;
  std::string argsName;

  [[noreturn]] void fail(const std::string &what) {
    throw Error(ErrorCode::Compile, "@triton.heuristics for '" + h.param_ + "': " + what + " in `" + h.source_ +
                                        "` (supported: numbers, args['name'], arithmetic, comparisons, "
                                        "and/or/not, if-else, next_power_of_2, cdiv, min, max, abs, int, float, bool)");
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
  int32_t constant(HeuristicValue v) {
    int32_t n = node(Heuristic::Op::Const);
    h.nodes_[size_t(n)].value = v;
    return n;
  }

  int32_t lambda() {
    frontend::ExprPtr e;
    try {
      // In brackets, as the lambda was in its dict: its text may span lines.
      e = frontend::parseExpression(frontend::SourceBuffer("<heuristic>", "(" + h.source_ + ")"));
    } catch (const frontend::CompileError &error) {
      fail(error.message);
    }
    if (e->kind != frontend::ExprKind::Lambda)
      fail("expected 'lambda'");
    if (e->items.size() != 1)
      fail("expected a lambda of one parameter");
    argsName = e->items[0]->name;
    return expr(*e->value);
  }

  int32_t expr(const frontend::Expr &e) {
    using frontend::ExprKind;
    switch (e.kind) {
    case ExprKind::Int:
      if (e.intTooLarge || e.intValue > uint64_t(INT64_MAX))
        fail("integer literal out of range");
      return constant({Kind::Int, int64_t(e.intValue), 0});
    case ExprKind::Float: return constant({Kind::Float, 0, e.floatValue});
    case ExprKind::Bool: return constant({Kind::Bool, e.boolValue, 0});
    case ExprKind::Subscript: return parameter(e);
    case ExprKind::UnaryOp: return unary(e);
    case ExprKind::BinOp: return binary(e);
    case ExprKind::Compare: return comparison(e);
    case ExprKind::BoolOp: {
      int32_t a = expr(*e.items[0]);
      for (size_t i = 1; i < e.items.size(); ++i)
        a = node(e.boolValue ? Heuristic::Op::And : Heuristic::Op::Or, a, expr(*e.items[i]));
      return a;
    }
    case ExprKind::IfExp: {
      int32_t cond = expr(*e.items[0]), value = expr(*e.items[1]);
      return node(Heuristic::Op::Cond, value, expr(*e.items[2]), cond);
    }
    case ExprKind::Call: return call(e);
    default: fail("'" + text(e) + "' is not supported");
    }
  }
  std::string text(const frontend::Expr &e) const {
    // Spans count from the '(' put before the lambda.
    size_t begin = e.span.begin > 0 ? e.span.begin - 1 : 0;
    return h.source_.substr(std::min(begin, h.source_.size()), e.span.end - e.span.begin);
  }
  int32_t parameter(const frontend::Expr &e) {
    if (e.value->kind != frontend::ExprKind::Name || e.value->name != argsName)
      fail("'" + text(e) + "' is not supported");
    if (e.index->kind != frontend::ExprKind::String)
      fail("expected a quoted parameter name after " + argsName + "[");
    for (size_t i = 0; i < h.paramNames_.size(); ++i)
      if (h.paramNames_[i] == e.index->name) {
        int32_t n = node(Heuristic::Op::Param);
        h.nodes_[size_t(n)].param = uint32_t(i);
        return n;
      }
    fail("'" + e.index->name + "' is not a parameter of the kernel");
  }
  int32_t unary(const frontend::Expr &e) {
    switch (e.unaryOp) {
    case frontend::UnaryOpKind::Neg: return node(Heuristic::Op::Neg, expr(*e.value));
    case frontend::UnaryOpKind::Pos: return expr(*e.value);
    case frontend::UnaryOpKind::Not: return node(Heuristic::Op::Not, expr(*e.value));
    default: fail(std::string("'") + frontend::spelling(e.unaryOp) + "' is not supported");
    }
  }
  int32_t binary(const frontend::Expr &e) {
    static const std::pair<frontend::BinOpKind, Heuristic::Op> ops[] = {
        {frontend::BinOpKind::Add, Heuristic::Op::Add},      {frontend::BinOpKind::Sub, Heuristic::Op::Sub},
        {frontend::BinOpKind::Mul, Heuristic::Op::Mul},      {frontend::BinOpKind::Div, Heuristic::Op::Div},
        {frontend::BinOpKind::FloorDiv, Heuristic::Op::FloorDiv}, {frontend::BinOpKind::Mod, Heuristic::Op::Mod},
        {frontend::BinOpKind::Pow, Heuristic::Op::Pow}};
    for (const auto &[kind, op] : ops)
      if (e.binOp == kind) {
        int32_t a = expr(*e.value);
        return node(op, a, expr(*e.index));
      }
    fail(std::string("'") + frontend::spelling(e.binOp) + "' is not supported");
  }
  // a < b <= c is (a < b) and (b <= c), as in Python.
  int32_t comparison(const frontend::Expr &e) {
    static const std::pair<frontend::CmpOpKind, Heuristic::Op> ops[] = {
        {frontend::CmpOpKind::Eq, Heuristic::Op::Eq}, {frontend::CmpOpKind::NotEq, Heuristic::Op::Ne},
        {frontend::CmpOpKind::Lt, Heuristic::Op::Lt}, {frontend::CmpOpKind::LtE, Heuristic::Op::Le},
        {frontend::CmpOpKind::Gt, Heuristic::Op::Gt}, {frontend::CmpOpKind::GtE, Heuristic::Op::Ge}};
    int32_t result = -1;
    for (size_t i = 0; i < e.cmpOps.size(); ++i) {
      const auto *op = std::find_if(std::begin(ops), std::end(ops), [&](const auto &o) { return o.first == e.cmpOps[i]; });
      if (op == std::end(ops))
        fail(std::string("'") + frontend::spelling(e.cmpOps[i]) + "' is not supported");
      int32_t a = expr(*e.items[i]);
      int32_t test = node(op->second, a, expr(*e.items[i + 1]));
      result = result < 0 ? test : node(Heuristic::Op::And, result, test);
    }
    return result;
  }
  int32_t call(const frontend::Expr &e) {
    const frontend::Expr &callee = *e.value;
    std::string fn = callee.kind == frontend::ExprKind::Name ? callee.name
                     : callee.kind == frontend::ExprKind::Attribute && callee.value->kind == frontend::ExprKind::Name
                         ? callee.value->name + "." + callee.name
                         : text(callee);
    static const std::pair<const char *, Heuristic::Op> calls[] = {
        {"triton.next_power_of_2", Heuristic::Op::NextPow2}, {"next_power_of_2", Heuristic::Op::NextPow2},
        {"triton.cdiv", Heuristic::Op::Cdiv}, {"cdiv", Heuristic::Op::Cdiv}, {"min", Heuristic::Op::Min},
        {"max", Heuristic::Op::Max}, {"abs", Heuristic::Op::Abs}, {"int", Heuristic::Op::ToInt},
        {"float", Heuristic::Op::ToFloat}, {"bool", Heuristic::Op::ToBool}};
    for (const auto &[name, op] : calls) {
      if (fn != name)
        continue;
      bool binary = op == Heuristic::Op::Cdiv || op == Heuristic::Op::Min || op == Heuristic::Op::Max;
      if (e.items.size() != (binary ? 2u : 1u) || !e.keywords.empty())
        fail(fn + " takes " + (binary ? "two arguments" : "one argument"));
      int32_t a = expr(*e.items[0]);
      return node(op, a, binary ? expr(*e.items[1]) : -1);
    }
    fail("'" + fn + "' is not supported");
  }
};

Heuristic::Heuristic(const std::string &param, const std::string &lambdaSource, const std::vector<std::string> &params)
    : param_(param), source_(lambdaSource), paramNames_(params) {
  HeuristicParser p{*this, {}};
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
