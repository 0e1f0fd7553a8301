// Python semantics of compile-time values: integers (exact, checked against
// 64-bit range), floats, bools, strings, tuples, dtypes and None.

#include "CodeGen.h"

#include <cmath>

namespace trident::frontend {

namespace {

constexpr PyInt kIntLimit = static_cast<PyInt>(1) << 64;

bool isNumber(const Object &o) { return o.isPyNumber(); }
bool isIntLike(const Object &o) { return o.kind == Object::Kind::Int || o.kind == Object::Kind::Bool; }
PyInt asInt(const Object &o) { return o.kind == Object::Kind::Bool ? PyInt(o.boolValue) : o.intValue; }
double asFloat(const Object &o) {
  if (o.kind == Object::Kind::Float)
    return o.floatValue;
  return static_cast<double>(asInt(o));
}

const char *pyTypeName(const Object &o) {
  switch (o.kind) {
  case Object::Kind::None: return "NoneType";
  case Object::Kind::Bool: return "bool";
  case Object::Kind::Int: return "int";
  case Object::Kind::Float: return "float";
  case Object::Kind::String: return "str";
  case Object::Kind::Tuple: return "tuple";
  case Object::Kind::DType: return "dtype";
  default: return "object";
  }
}

// Python's floor division and modulo on floats (divmod).
std::pair<double, double> floatDivmod(double a, double b) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, b);
  }
  double floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5)
      floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, a / b);
  }
  return {floordiv, mod};
}

} // namespace

PyInt CodeGen::checkedInt(PyInt v, const Span &span) {
  if (v > kIntLimit || v < -kIntLimit)
    error(span, "integer overflow in compile-time expression: the result does not fit in 64 bits");
  return v;
}

bool CodeGen::truthy(const Object &o, const Span &span) {
  switch (o.kind) {
  case Object::Kind::None: return false;
  case Object::Kind::Bool: return o.boolValue;
  case Object::Kind::Int: return o.intValue != 0;
  case Object::Kind::Float: return o.floatValue != 0;
  case Object::Kind::String: return !o.name.empty();
  case Object::Kind::Tuple: return !o.items.empty();
  case Object::Kind::Tensor:
  case Object::Kind::BlockPtr: error(span, "the truth value of a tensor is not known at compile time");
  default: return true;
  }
}

std::optional<Object> CodeGen::foldBinary(BinOpKind op, const Object &a, const Object &b, const Span &span) {
  if (!a.isConstexpr() || !b.isConstexpr())
    return std::nullopt;
  auto unsupported = [&]() -> Object {
    error(span, std::string("unsupported operand type(s) for ") + spelling(op) + ": '" + pyTypeName(a) +
                    "' and '" + pyTypeName(b) + "'");
  };
  if (isIntLike(a) && isIntLike(b)) {
    PyInt x = asInt(a), y = asInt(b);
    switch (op) {
    case BinOpKind::Add: return Object::integer(checkedInt(x + y, span));
    case BinOpKind::Sub: return Object::integer(checkedInt(x - y, span));
    case BinOpKind::Mul: {
      // |x|, |y| <= 2^64, so the product of the magnitudes fits in 128 unsigned bits
      // unless both are exactly 2^64.
      unsigned __int128 ux = x < 0 ? -static_cast<unsigned __int128>(x) : static_cast<unsigned __int128>(x);
      unsigned __int128 uy = y < 0 ? -static_cast<unsigned __int128>(y) : static_cast<unsigned __int128>(y);
      if (ux != 0 && uy > static_cast<unsigned __int128>(kIntLimit) / ux)
        checkedInt(kIntLimit + 1, span);
      unsigned __int128 p = ux * uy;
      PyInt r = static_cast<PyInt>(p);
      return Object::integer(checkedInt((x < 0) != (y < 0) ? -r : r, span));
    }
    case BinOpKind::Div:
      if (y == 0)
        error(span, "division by zero");
      return Object::floating(static_cast<double>(x) / static_cast<double>(y));
    case BinOpKind::FloorDiv:
    case BinOpKind::Mod: {
      if (y == 0)
        error(span, op == BinOpKind::Mod ? "integer modulo by zero" : "integer division by zero");
      PyInt q = x / y, r = x % y;
      if (r != 0 && ((r < 0) != (y < 0))) {
        q -= 1;
        r += y;
      }
      return Object::integer(op == BinOpKind::Mod ? r : q);
    }
    case BinOpKind::Pow: {
      if (y < 0) {
        if (x == 0)
          error(span, "0 cannot be raised to a negative power");
        return Object::floating(std::pow(static_cast<double>(x), static_cast<double>(y)));
      }
      PyInt result = 1;
      for (PyInt i = 0; i < y; ++i) {
        if (result == 0 || x == 1 || (x == -1 && i > 1))
          break;
        result = foldBinary(BinOpKind::Mul, Object::integer(result), Object::integer(x), span)->intValue;
      }
      if (x == -1)
        result = (y % 2) ? -1 : 1;
      if (x == 1)
        result = 1;
      if (x == 0)
        result = y == 0 ? 1 : 0;
      return Object::integer(result);
    }
    case BinOpKind::LShift:
      if (y < 0)
        error(span, "negative shift count");
      if (x != 0) {
        // The result needs bitLength(|x|) + y bits.
        unsigned __int128 ax = x < 0 ? -static_cast<unsigned __int128>(x) : static_cast<unsigned __int128>(x);
        int bits = 0;
        while (bits < 128 && (ax >> bits) != 0)
          ++bits;
        if (y > 128 || bits + static_cast<int>(y) > 65)
          checkedInt(kIntLimit + 1, span);
      }
      return Object::integer(
          checkedInt(x == 0 ? 0 : static_cast<PyInt>(static_cast<unsigned __int128>(x) << y), span));
    case BinOpKind::RShift:
      if (y < 0)
        error(span, "negative shift count");
      return Object::integer(y >= 127 ? (x < 0 ? -1 : 0) : (x >> y));
    case BinOpKind::BitAnd:
      if (a.kind == Object::Kind::Bool && b.kind == Object::Kind::Bool)
        return Object::boolean(a.boolValue && b.boolValue);
      return Object::integer(x & y);
    case BinOpKind::BitOr:
      if (a.kind == Object::Kind::Bool && b.kind == Object::Kind::Bool)
        return Object::boolean(a.boolValue || b.boolValue);
      return Object::integer(x | y);
    case BinOpKind::BitXor:
      if (a.kind == Object::Kind::Bool && b.kind == Object::Kind::Bool)
        return Object::boolean(a.boolValue != b.boolValue);
      return Object::integer(x ^ y);
    case BinOpKind::MatMul: return unsupported();
    }
  }
  if (isNumber(a) && isNumber(b)) {
    double x = asFloat(a), y = asFloat(b);
    switch (op) {
    case BinOpKind::Add: return Object::floating(x + y);
    case BinOpKind::Sub: return Object::floating(x - y);
    case BinOpKind::Mul: return Object::floating(x * y);
    case BinOpKind::Div:
      if (y == 0)
        error(span, "float division by zero");
      return Object::floating(x / y);
    case BinOpKind::FloorDiv:
    case BinOpKind::Mod: {
      if (y == 0)
        error(span, op == BinOpKind::Mod ? "float modulo by zero" : "float floor division by zero");
      auto [q, r] = floatDivmod(x, y);
      return Object::floating(op == BinOpKind::Mod ? r : q);
    }
    case BinOpKind::Pow:
      if (x == 0 && y < 0)
        error(span, "0.0 cannot be raised to a negative power");
      return Object::floating(std::pow(x, y));
    default: return unsupported();
    }
  }
  if (a.kind == Object::Kind::String && b.kind == Object::Kind::String && op == BinOpKind::Add) {
    if (a.name.size() + b.name.size() > 100000)
      error(span, "string too long in compile-time expression");
    return Object::string(a.name + b.name);
  }
  if (a.kind == Object::Kind::Tuple && b.kind == Object::Kind::Tuple && op == BinOpKind::Add) {
    if (a.items.size() + b.items.size() > 10000)
      error(span, "tuple too long in compile-time expression");
    std::vector<Object> items = a.items;
    items.insert(items.end(), b.items.begin(), b.items.end());
    return Object::tuple(std::move(items));
  }
  if (op == BinOpKind::Mul && (a.kind == Object::Kind::String || a.kind == Object::Kind::Tuple) &&
      isIntLike(b)) {
    PyInt n = std::max<PyInt>(asInt(b), 0);
    size_t unit = a.kind == Object::Kind::String ? a.name.size() : a.items.size();
    if (unit != 0 && n > 10000 / static_cast<PyInt>(unit))
      error(span, "sequence too long in compile-time expression");
    Object r = a;
    r.name.clear();
    r.items.clear();
    for (PyInt i = 0; i < n; ++i) {
      r.name += a.name;
      r.items.insert(r.items.end(), a.items.begin(), a.items.end());
    }
    return r;
  }
  if (op == BinOpKind::Mul && isIntLike(a) &&
      (b.kind == Object::Kind::String || b.kind == Object::Kind::Tuple))
    return foldBinary(op, b, a, span);
  return unsupported();
}

std::optional<Object> CodeGen::foldCompare(CmpOpKind op, const Object &a, const Object &b, const Span &span) {
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    // Identity: only None, bools and dtypes are singletons worth comparing.
    bool same;
    if (a.kind != b.kind)
      same = false;
    else if (!a.isConstexpr() || !b.isConstexpr())
      same = a.sameAs(b);
    else
      same = a.sameAs(b);
    return Object::boolean(op == CmpOpKind::Is ? same : !same);
  }
  if (!a.isConstexpr() || !b.isConstexpr()) {
    if (op == CmpOpKind::In || op == CmpOpKind::NotIn)
      error(span, "'in' needs compile-time values");
    return std::nullopt;
  }
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
    bool found = false;
    if (b.kind == Object::Kind::Tuple) {
      for (const Object &item : b.items)
        if (foldCompare(CmpOpKind::Eq, a, item, span)->boolValue)
          found = true;
    } else if (b.kind == Object::Kind::String && a.kind == Object::Kind::String) {
      found = b.name.find(a.name) != std::string::npos;
    } else {
      error(span, std::string("argument of type '") + pyTypeName(b) + "' is not iterable");
    }
    return Object::boolean(op == CmpOpKind::In ? found : !found);
  }
  auto order = [&](auto x, auto y) -> Object {
    switch (op) {
    case CmpOpKind::Eq: return Object::boolean(x == y);
    case CmpOpKind::NotEq: return Object::boolean(x != y);
    case CmpOpKind::Lt: return Object::boolean(x < y);
    case CmpOpKind::LtE: return Object::boolean(x <= y);
    case CmpOpKind::Gt: return Object::boolean(x > y);
    case CmpOpKind::GtE: return Object::boolean(x >= y);
    default: return Object::boolean(false);
    }
  };
  if (isIntLike(a) && isIntLike(b))
    return order(asInt(a), asInt(b));
  if (isNumber(a) && isNumber(b))
    return order(asFloat(a), asFloat(b));
  if (a.kind == Object::Kind::String && b.kind == Object::Kind::String)
    return order(a.name, b.name);
  if (op == CmpOpKind::Eq || op == CmpOpKind::NotEq) {
    bool eq;
    if (a.kind == Object::Kind::Tuple && b.kind == Object::Kind::Tuple) {
      eq = a.items.size() == b.items.size();
      for (size_t i = 0; eq && i < a.items.size(); ++i)
        eq = foldCompare(CmpOpKind::Eq, a.items[i], b.items[i], span)->boolValue;
    } else {
      eq = a.sameAs(b);
    }
    return Object::boolean(op == CmpOpKind::Eq ? eq : !eq);
  }
  if (a.kind == Object::Kind::Tuple && b.kind == Object::Kind::Tuple) {
    size_t n = std::min(a.items.size(), b.items.size());
    for (size_t i = 0; i < n; ++i)
      if (!foldCompare(CmpOpKind::Eq, a.items[i], b.items[i], span)->boolValue)
        return foldCompare(op, a.items[i], b.items[i], span);
    return order(a.items.size(), b.items.size());
  }
  error(span, std::string("'") + spelling(op) + "' not supported between instances of '" + pyTypeName(a) +
                  "' and '" + pyTypeName(b) + "'");
}

std::optional<Object> CodeGen::foldUnary(UnaryOpKind op, const Object &a, const Span &span) {
  if (!a.isConstexpr())
    return std::nullopt;
  if (op == UnaryOpKind::Not)
    return Object::boolean(!truthy(a, span));
  if (isIntLike(a)) {
    PyInt x = asInt(a);
    switch (op) {
    case UnaryOpKind::Neg: return Object::integer(-x);
    case UnaryOpKind::Pos: return Object::integer(x);
    case UnaryOpKind::Invert: return Object::integer(~x);
    default: break;
    }
  }
  if (a.kind == Object::Kind::Float) {
    if (op == UnaryOpKind::Neg)
      return Object::floating(-a.floatValue);
    if (op == UnaryOpKind::Pos)
      return a;
  }
  error(span, std::string("bad operand type for unary ") + spelling(op) + ": '" + pyTypeName(a) + "'");
}

} // namespace trident::frontend
