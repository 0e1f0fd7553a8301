// Axis-info rules of the ops that build and reshape blocks: splat, broadcast,
// expand_dims, reshape, trans, join, split, cat.

#include "AxisInfoMath.h"
#include "AxisInfoRules.h"

#include <algorithm>

namespace trident::axis {

namespace {

using DimVector = AxisInfo::DimVector;

AxisInfo inferSplat(const AxisInfo &s, Type type) {
  DimVector shape = shapeOf(type);
  int64_t div = s.elementDivisibility(unitBytes(type));
  return AxisInfo(DimVector(shape.size(), div), DimVector(shape.size(), 1), shape, s.constantValue(),
                  s.nonNegative());
}

// Dimensions of size 1 grow into runs of equal elements.
AxisInfo inferBroadcast(const AxisInfo &a, Type from, Type type) {
  DimVector src = shapeOf(from), shape = shapeOf(type);
  if (src.size() != shape.size())
    return AxisInfo::unknown(type);
  DimVector div = a.divisibility(), contig = a.contiguity(), constancy = a.constancy();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (src[d] == shape[d])
      continue;
    if (src[d] != 1)
      return AxisInfo::unknown(type);
    // A size-1 dimension has contiguity 1, so its divisibility holds for every element.
    contig[d] = 1;
    constancy[d] = shape[d];
  }
  return AxisInfo(div, contig, constancy, a.constantValue(), a.nonNegative());
}

AxisInfo inferExpandDims(const AxisInfo &a, const Op *op, Type type) {
  const Attribute &axisAttr = op->attr("axis");
  int64_t axis = axisAttr.isInt() ? axisAttr.getInt() : -1;
  if (axis < 0 || axis > static_cast<int64_t>(a.rank()) || a.rank() + 1 != rankOf(type))
    return AxisInfo::unknown(type);
  if (!op->operand(0)->type().isBlock()) // a scalar has no dimension to keep
    return inferSplat(a, type);
  DimVector div = a.divisibility(), contig = a.contiguity(), constancy = a.constancy();
  div.insert(div.begin() + axis, a.elementDivisibility(unitBytes(type)));
  contig.insert(contig.begin() + axis, 1);
  constancy.insert(constancy.begin() + axis, 1);
  return AxisInfo(div, contig, constancy, a.constantValue(), a.nonNegative());
}

// Exact when the reshape only adds or drops size-1 dimensions; otherwise only what holds
// for every element survives.
AxisInfo inferReshape(const AxisInfo &a, const Op *op, Type type) {
  DimVector src = shapeOf(op->operand(0)->type()), shape = shapeOf(type);
  int64_t unit = unitBytes(type);
  std::vector<unsigned> srcDims, dstDims;
  for (unsigned d = 0; d < src.size(); ++d)
    if (src[d] != 1)
      srcDims.push_back(d);
  for (unsigned d = 0; d < shape.size(); ++d)
    if (shape[d] != 1)
      dstDims.push_back(d);
  bool reorders = op->attr("allow_reorder").isBool() && op->attr("allow_reorder").getBool();
  bool sameDims = srcDims.size() == dstDims.size();
  for (size_t i = 0; sameDims && i < srcDims.size(); ++i)
    sameDims = src[srcDims[i]] == shape[dstDims[i]];
  int64_t every = a.elementDivisibility(unit);
  DimVector div(shape.size(), every), contig(shape.size(), 1), constancy(shape.size(), 1);
  if (sameDims && !reorders) {
    for (size_t i = 0; i < srcDims.size(); ++i) {
      div[dstDims[i]] = a.divisibility(srcDims[i]);
      contig[dstDims[i]] = a.contiguity(srcDims[i]);
      constancy[dstDims[i]] = a.constancy(srcDims[i]);
    }
  } else {
    bool allEqual = true;
    for (unsigned d = 0; d < src.size(); ++d)
      allEqual = allEqual && a.constancy(d) == src[d];
    if (allEqual)
      constancy = shape;
  }
  return AxisInfo(div, contig, constancy, a.constantValue(), a.nonNegative());
}

AxisInfo inferTrans(const AxisInfo &a, const Op *op, Type type) {
  const Attribute &order = op->attr("order");
  if (!order.isInts() || order.getInts().size() != a.rank())
    return AxisInfo::unknown(type);
  DimVector div, contig, constancy;
  for (int64_t d : order.getInts()) {
    if (d < 0 || d >= static_cast<int64_t>(a.rank()))
      return AxisInfo::unknown(type);
    div.push_back(a.divisibility(d));
    contig.push_back(a.contiguity(d));
    constancy.push_back(a.constancy(d));
  }
  return AxisInfo(div, contig, constancy, a.constantValue(), a.nonNegative());
}

// join(a, b)[..., 0] = a, [..., 1] = b: along the old dimensions both halves keep
// their runs; the new dimension of two knows only what holds for every element.
AxisInfo inferJoin(const AxisInfo &a, const AxisInfo &b, Type type) {
  if (a.rank() != b.rank() || a.rank() + 1 != rankOf(type))
    return AxisInfo::unknown(type);
  if (a.constantValue() && a.constantValue() == b.constantValue())
    return AxisInfo::constant(*a.constantValue(), type);
  int64_t unit = unitBytes(type);
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    int64_t c = std::min(a.contiguity(d), b.contiguity(d));
    contig.push_back(c);
    constancy.push_back(std::min(a.constancy(d), b.constancy(d)));
    div.push_back(std::min(a.divisibilityAt(d, c, unit), b.divisibilityAt(d, c, unit)));
  }
  div.push_back(std::min(a.elementDivisibility(unit), b.elementDivisibility(unit)));
  contig.push_back(1);
  constancy.push_back(1);
  return AxisInfo(div, contig, constancy, std::nullopt, a.nonNegative() && b.nonNegative());
}

// tt.cat may reorder elements (as Triton's can_reorder), so only facts about every
// element survive.
AxisInfo inferCat(const AxisInfo &a, const AxisInfo &b, Type type) {
  if (a.constantValue() && a.constantValue() == b.constantValue())
    return AxisInfo::constant(*a.constantValue(), type);
  int64_t unit = unitBytes(type);
  unsigned rank = rankOf(type);
  int64_t div = std::min(a.elementDivisibility(unit), b.elementDivisibility(unit));
  return AxisInfo(DimVector(rank, div), DimVector(rank, 1), DimVector(rank, 1), std::nullopt,
                  a.nonNegative() && b.nonNegative());
}

} // namespace

AxisInfo inferShapeOp(const Op *op, std::span<const AxisInfo *const> in) {
  Type type = op->result()->type();
  switch (op->code()) {
  case OpCode::Splat: return inferSplat(*in[0], type);
  case OpCode::Broadcast: return inferBroadcast(*in[0], op->operand(0)->type(), type);
  case OpCode::ExpandDims: return inferExpandDims(*in[0], op, type);
  case OpCode::Reshape: return inferReshape(*in[0], op, type);
  case OpCode::Trans: return inferTrans(*in[0], op, type);
  case OpCode::Join: return inferJoin(*in[0], *in[1], type);
  case OpCode::Cat: return inferCat(*in[0], *in[1], type);
  default: return AxisInfo::unknown(type);
  }
}

} // namespace trident::axis
