#include "Object.h"

#include "AST.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace trident::frontend {

bool Object::isConstexpr() const {
  switch (kind) {
  case Kind::Tensor:
  case Kind::BlockPtr: return false;
  case Kind::Tuple:
  case Kind::Slice:
  case Kind::BoundMethod:
    for (const Object &i : items)
      if (!i.isConstexpr())
        return false;
    return true;
  default: return true;
  }
}

bool Object::sameAs(const Object &o) const {
  if (kind != o.kind)
    return false;
  switch (kind) {
  case Kind::None:
  case Kind::Ellipsis: return true;
  case Kind::Bool: return boolValue == o.boolValue;
  case Kind::Int: return intValue == o.intValue;
  case Kind::Float: return floatValue == o.floatValue || (std::isnan(floatValue) && std::isnan(o.floatValue));
  case Kind::String:
  case Kind::Builtin:
  case Kind::Enum: return name == o.name;
  case Kind::Module: return name == o.name && functionModule == o.functionModule;
  case Kind::DType: return dtype == o.dtype;
  case Kind::Tensor: return tensor.value == o.tensor.value && tensor.dtype == o.tensor.dtype;
  case Kind::JitFunction: return function == o.function;
  case Kind::BlockPtr: {
    const BlockPointer &a = *blockPtr, &b = *o.blockPtr;
    auto same = [](const std::vector<Tensor> &x, const std::vector<Tensor> &y) {
      if (x.size() != y.size())
        return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (x[i].value != y[i].value)
          return false;
      return true;
    };
    return a.base.value == b.base.value && a.base.dtype == b.base.dtype && same(a.shape, b.shape) &&
           same(a.strides, b.strides) && same(a.offsets, b.offsets) && a.blockShape == b.blockShape &&
           a.order == b.order && a.isDescriptor == b.isDescriptor && a.padNan == b.padNan;
  }
  case Kind::Tuple:
  case Kind::Slice:
  case Kind::BoundMethod:
    if (items.size() != o.items.size() || name != o.name)
      return false;
    for (size_t i = 0; i < items.size(); ++i)
      if (!items[i].sameAs(o.items[i]))
        return false;
    return true;
  }
  return false;
}

std::string pyIntStr(PyInt v) {
  if (v == 0)
    return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u) {
    s += static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  }
  if (neg)
    s += '-';
  return std::string(s.rbegin(), s.rend());
}

namespace {

std::string floatStr(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  // Python's repr: the shortest text that reads back exactly.
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  return s;
}

} // namespace

std::string pythonStr(const Object &o) {
  switch (o.kind) {
  case Object::Kind::None: return "None";
  case Object::Kind::Ellipsis: return "Ellipsis";
  case Object::Kind::Bool: return o.boolValue ? "True" : "False";
  case Object::Kind::Int: return pyIntStr(o.intValue);
  case Object::Kind::Float: return floatStr(o.floatValue);
  case Object::Kind::String: return o.name;
  case Object::Kind::DType: return o.dtype.name();
  case Object::Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < o.items.size(); ++i)
      s += (i ? ", " : "") + pythonStr(o.items[i]);
    return s + (o.items.size() == 1 ? ",)" : ")");
  }
  default: return o.describe();
  }
}

std::string Object::describe() const {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Bool:
  case Kind::Int:
  case Kind::Float:
  case Kind::String: return "constexpr[" + pythonStr(*this) + "]";
  case Kind::Ellipsis: return "Ellipsis";
  case Kind::DType: return "dtype " + dtype.name();
  case Kind::Tensor: {
    std::string s = tensor.dtype.name();
    if (tensor.isBlock()) {
      s += "[";
      for (size_t i = 0; i < tensor.shape().size(); ++i)
        s += (i ? ", " : "") + std::to_string(tensor.shape()[i]);
      s += "]";
    }
    return s;
  }
  case Kind::Tuple: return "tuple";
  case Kind::Slice: return "slice";
  case Kind::JitFunction: return "function '" + (function ? function->name : std::string("?")) + "'";
  case Kind::Builtin: return "function '" + name + "'";
  case Kind::Module: return "module '" + name + "'";
  case Kind::BlockPtr: return blockPtr->isDescriptor ? "tensor descriptor" : "block pointer";
  case Kind::BoundMethod: return "method '" + name + "'";
  case Kind::Enum: return name;
  }
  return "?";
}

} // namespace trident::frontend
