#pragma once
// @triton.heuristics: a parameter's value computed from the launch's other
// values by a Python lambda, e.g.
//   'EVEN_N': lambda args: args['N'] % args['BLOCK_N'] == 0
//   'BLOCK':  lambda args: triton.next_power_of_2(args['n_cols'])
// The lambda is parsed once, by the frontend's parser (frontend/syntax, also in a
// runtime without the compiler), into a small expression tree evaluated on each
// launch without allocating. Supported: integer, float and bool literals,
// args['name'] of integer, float and bool parameters, + - * / // % **, comparisons,
// and / or / not, `x if c else y`, and next_power_of_2, cdiv, min, max, abs,
// int, float, bool.

#include "trident/Kernel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trident::detail {

struct HeuristicValue {
  enum class Kind : uint8_t { Int, Float, Bool, None } kind = Kind::None;
  int64_t i = 0;
  double f = 0;
};

class Heuristic {
public:
  // Parses `lambda args: ...`; `params` maps names in args['...'] to indices.
  // Throws Error(Compile) naming what is not supported.
  Heuristic(const std::string &param, const std::string &lambdaSource, const std::vector<std::string> &params);

  const std::string &param() const { return param_; }
  // Evaluates with `valueOf(index)` giving parameter values; throws Error(InvalidArgument)
  // when a value it reads is missing or of the wrong kind.
  template <class F> HeuristicValue evaluate(const F &valueOf) const { return eval(root_, valueOf); }

private:
  enum class Op : uint8_t {
    Const, Param, Neg, Not, Add, Sub, Mul, Div, FloorDiv, Mod, Pow, Eq, Ne, Lt, Le, Gt, Ge, And, Or, Cond,
    NextPow2, Cdiv, Min, Max, Abs, ToInt, ToFloat, ToBool,
  };
  struct Node {
    Op op = Op::Const;
    HeuristicValue value;    // Const
    uint32_t param = 0;      // Param
    int32_t a = -1, b = -1, c = -1;
  };
  friend struct HeuristicParser;

  template <class F> HeuristicValue eval(int32_t n, const F &valueOf) const;
  HeuristicValue apply(const Node &node, const HeuristicValue &x, const HeuristicValue &y) const;

  std::string param_;
  std::string source_;
  std::vector<std::string> paramNames_;
  std::vector<Node> nodes_;
  int32_t root_ = -1;
};

template <class F> HeuristicValue Heuristic::eval(int32_t n, const F &valueOf) const {
  const Node &node = nodes_[size_t(n)];
  switch (node.op) {
  case Op::Const: return node.value;
  case Op::Param: return valueOf(node.param);
  case Op::And: {
    HeuristicValue x = eval(node.a, valueOf);
    return apply(node, x, (x.kind == HeuristicValue::Kind::Bool && !x.i) ? x : eval(node.b, valueOf));
  }
  case Op::Or: {
    HeuristicValue x = eval(node.a, valueOf);
    return apply(node, x, (x.kind == HeuristicValue::Kind::Bool && x.i) ? x : eval(node.b, valueOf));
  }
  case Op::Cond: {
    HeuristicValue c = eval(node.c, valueOf);
    bool truth = c.kind == HeuristicValue::Kind::Float ? c.f != 0 : c.i != 0;
    return eval(truth ? node.a : node.b, valueOf);
  }
  default: break;
  }
  HeuristicValue x = node.a >= 0 ? eval(node.a, valueOf) : HeuristicValue{};
  HeuristicValue y = node.b >= 0 ? eval(node.b, valueOf) : HeuristicValue{};
  return apply(node, x, y);
}

} // namespace trident::detail
