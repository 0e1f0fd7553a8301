// Rules of the ops that make and reshape blocks: program ids, tt.make_range,
// arith.constant, tt.splat, tt.broadcast, tt.expand_dims, tt.reshape, tt.trans,
// tt.join, tt.split and tt.cat.

#include "OpChecker.h"

#include <algorithm>
#include <limits>

namespace trident::verifier {

namespace {

std::vector<int64_t> shapeOf(Type t) { return {t.shape().begin(), t.shape().end()}; }

void verifyProgramQuery(OpChecker &c) {
  if (std::optional<int64_t> axis = c.intAttr("axis"); axis && (*axis < 0 || *axis > 2))
    c.error("attribute 'axis' must be 0, 1 or 2, got " + std::to_string(*axis));
  c.expectResultType(0, Type::i32());
}

void verifyMakeRange(OpChecker &c) {
  std::optional<int64_t> start = c.intAttr("start"), end = c.intAttr("end");
  if (!start || !end)
    return;
  constexpr int64_t kLimit = int64_t(1) << 31;
  if (*start < 0 || *end > kLimit) {
    c.error("range [" + std::to_string(*start) + ", " + std::to_string(*end) + ") must lie within [0, 2^31]");
    return;
  }
  if (*end <= *start) {
    c.error("attribute 'end' (" + std::to_string(*end) + ") must be greater than 'start' (" +
            std::to_string(*start) + ")");
    return;
  }
  int64_t count = *end - *start;
  if (!isPowerOfTwo(count)) {
    c.error("range has " + std::to_string(count) + " elements, which is not a power of two");
    return;
  }
  c.expectResultType(0, Type::block({count}, Type::i32()));
}

// True when `v` fits in `bits` bits read as either signed or unsigned.
bool fitsInteger(int64_t v, unsigned bits) {
  if (bits >= 64)
    return true;
  int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << bits) - 1;
  return v >= lo && v <= hi;
}

void verifyConstant(OpChecker &c) {
  Type t = c.result();
  Type element = t.element();
  const Attribute &value = c.op()->attr("value");
  if (!value.present()) {
    c.error("requires attribute 'value'");
    return;
  }
  if (element.isPtr()) {
    c.error("result must have integer or float elements, got " + t.str());
  } else if (element == Type::i1()) {
    if (!value.isBool())
      c.error("attribute 'value' must be true or false for " + t.str() + ", got " + value.str());
  } else if (element.isInteger()) {
    if (!value.isInt())
      c.error("attribute 'value' must be an integer for " + t.str() + ", got " + value.str());
    else if (!fitsInteger(value.getInt(), element.bitWidth()))
      c.error("value " + value.str() + " does not fit in " + element.str());
  } else if (!value.isFloat()) {
    c.error("attribute 'value' must be a float for " + t.str() + ", got " + value.str());
  }
}

void verifySplat(OpChecker &c) {
  Type in = c.operand(0), out = c.result();
  if (!c.expectScalar(in, "operand") || !c.expectBlock(out, "result"))
    return;
  if (out.element() != in)
    c.error("result elements must have the operand's type " + in.str() + ", got " + out.str());
}

void verifyBroadcast(OpChecker &c) {
  Type in = c.operand(0), out = c.result();
  if (!c.expectBlock(in, "operand") || !c.expectBlock(out, "result"))
    return;
  if (in.element() != out.element()) {
    c.error("result element type must be " + in.element().str() + ", got " + out.str());
    return;
  }
  if (in.rank() != out.rank()) {
    c.error("operand and result must have one rank, got " + in.str() + " and " + out.str());
    return;
  }
  for (unsigned d = 0; d < in.rank(); ++d)
    if (in.shape()[d] != out.shape()[d] && in.shape()[d] != 1) {
      c.error("cannot broadcast " + in.str() + " to " + out.str() + ": dimension " + std::to_string(d) +
              " is neither equal nor 1");
      return;
    }
}

void verifyExpandDims(OpChecker &c) {
  Type in = c.operand(0);
  std::optional<int64_t> axis = c.intAttr("axis");
  if (!c.expectBlock(in, "operand") || !axis)
    return;
  if (*axis < 0 || *axis > static_cast<int64_t>(in.rank())) {
    c.error("attribute 'axis' must be in [0, " + std::to_string(in.rank()) + "], got " +
            std::to_string(*axis));
    return;
  }
  std::vector<int64_t> shape = shapeOf(in);
  shape.insert(shape.begin() + *axis, 1);
  c.expectResultType(0, Type::block(shape, in.element()));
}

void verifyReshape(OpChecker &c) {
  Type in = c.operand(0), out = c.result();
  c.boolAttr("allow_reorder");
  if (!c.expectBlock(in, "operand") || !c.expectBlock(out, "result"))
    return;
  if (in.element() != out.element())
    c.error("result element type must be " + in.element().str() + ", got " + out.str());
  else if (in.numElements() != out.numElements())
    c.error("cannot reshape " + in.str() + " to " + out.str() + ": element counts differ");
}

void verifyTrans(OpChecker &c) {
  Type in = c.operand(0);
  const Attribute::IntArray *order = c.intsAttr("order");
  if (!c.expectBlock(in, "operand") || !order)
    return;
  std::vector<int64_t> sorted = *order;
  std::sort(sorted.begin(), sorted.end());
  bool permutation = sorted.size() == in.rank();
  for (size_t i = 0; permutation && i < sorted.size(); ++i)
    permutation = sorted[i] == static_cast<int64_t>(i);
  if (!permutation) {
    c.error("attribute 'order' must be a permutation of 0.." + std::to_string(in.rank() - 1) + ", got " +
            c.op()->attr("order").str());
    return;
  }
  std::vector<int64_t> shape;
  for (int64_t d : *order)
    shape.push_back(in.shape()[d]);
  c.expectResultType(0, Type::block(shape, in.element()));
}

void verifyJoin(OpChecker &c) {
  if (!c.expectSameOperandTypes(0, 1))
    return;
  Type in = c.operand(0);
  std::vector<int64_t> shape = shapeOf(in);
  shape.push_back(2);
  c.expectResultType(0, Type::block(shape, in.element()));
}

void verifySplit(OpChecker &c) {
  Type in = c.operand(0);
  if (!c.expectBlock(in, "operand"))
    return;
  if (in.shape().back() != 2) {
    c.error("operand's last dimension must be 2, got " + in.str());
    return;
  }
  std::vector<int64_t> shape = shapeOf(in);
  shape.pop_back();
  Type half = Type::block(shape, in.element());
  c.expectResultType(0, half);
  c.expectResultType(1, half);
}

void verifyCat(OpChecker &c) {
  if (!c.expectSameOperandTypes(0, 1) || !c.expectBlock(c.operand(0), "operand"))
    return;
  Type in = c.operand(0);
  std::vector<int64_t> shape = shapeOf(in);
  shape[0] *= 2;
  c.expectResultType(0, Type::block(shape, in.element()));
}

} // namespace

void verifyBlockOp(OpChecker &c) {
  switch (c.op()->code()) {
  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: return verifyProgramQuery(c);
  case OpCode::MakeRange: return verifyMakeRange(c);
  case OpCode::Constant: return verifyConstant(c);
  case OpCode::Splat: return verifySplat(c);
  case OpCode::Broadcast: return verifyBroadcast(c);
  case OpCode::ExpandDims: return verifyExpandDims(c);
  case OpCode::Reshape: return verifyReshape(c);
  case OpCode::Trans: return verifyTrans(c);
  case OpCode::Join: return verifyJoin(c);
  case OpCode::Split: return verifySplit(c);
  case OpCode::Cat: return verifyCat(c);
  default: return;
  }
}

} // namespace trident::verifier
