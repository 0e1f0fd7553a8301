// Axis-info rules: the dispatch over ops, the seeds (constants, ranges, program ids),
// casts, hints and loads. Arithmetic and block construction have their own files.

#include "AxisInfoRules.h"

#include "AxisInfoMath.h"
#include "trident/ir/ArithOps.h"

#include <algorithm>

namespace trident::axis {

namespace {

using DimVector = AxisInfo::DimVector;

AxisInfo inferConstant(const Op *op, Type type) {
  const Attribute &value = op->attr("value");
  if (value.isInt() && type.element().isInteger())
    return AxisInfo::constant(wrapToWidth(value.getInt(), type), type);
  if (value.isBool())
    return AxisInfo::constant(value.getBool() ? 1 : 0, type);
  // Floats: only the equality of the elements is worth knowing.
  return AxisInfo(DimVector(rankOf(type), 1), DimVector(rankOf(type), 1), shapeOf(type));
}

AxisInfo inferMakeRange(const Op *op, Type type) {
  const Attribute &start = op->attr("start");
  if (!start.isInt() || rankOf(type) != 1)
    return AxisInfo::unknown(type);
  int64_t length = shapeOf(type)[0];
  if (length == 1)
    return AxisInfo::constant(start.getInt(), type);
  return AxisInfo({pow2Divisor(start.getInt())}, {length}, {1}, std::nullopt, start.getInt() >= 0);
}

// ext/trunc/bitcast/ptr_to_int/int_to_ptr keep the bits that matter here: low zero
// bits, equal elements, and (when the unit does not change) steps of one.
AxisInfo inferCast(const Op *op, const AxisInfo &a, Type type) {
  Type from = op->operand(0)->type();
  Type fromElement = from.element(), toElement = type.element();
  bool fromBits = fromElement.isInteger() || fromElement.isPtr();
  bool toBits = toElement.isInteger() || toElement.isPtr();
  if (!fromBits || !toBits) {
    const AxisInfo *operands[] = {&a};
    return elementwiseConstancy(type, operands);
  }
  DimVector contig = a.contiguity();
  if (unitBytes(from) != unitBytes(type))
    std::fill(contig.begin(), contig.end(), 1);
  std::optional<int64_t> constant;
  bool nonNegative = false;
  if (toElement.isInteger() && fromElement.isInteger()) {
    if (a.constantValue()) {
      int64_t v = *a.constantValue();
      if (op->is(OpCode::ExtUI))
        v = static_cast<int64_t>(asUnsigned(v, from));
      constant = wrapToWidth(v, type);
    }
    if (op->is(OpCode::ExtUI))
      nonNegative = toElement.bitWidth() > fromElement.bitWidth() || a.nonNegative();
    else if (op->is(OpCode::ExtSI))
      nonNegative = a.nonNegative();
  }
  return AxisInfo(a.divisibility(), contig, a.constancy(), constant, nonNegative);
}

// The hint's values, one per dimension (a single value applies to every dimension).
std::optional<DimVector> hintValues(const Op *op, unsigned rank) {
  const Attribute &values = op->attr("values");
  if (!values.isInts() || values.getInts().empty())
    return std::nullopt;
  const DimVector &v = values.getInts();
  if (v.size() != rank && v.size() != 1)
    return std::nullopt;
  DimVector out;
  for (unsigned d = 0; d < rank; ++d)
    out.push_back(v[v.size() == 1 ? 0 : d]);
  return out;
}

// tt.multiple_of states the divisibility and tt.max_contiguous the contiguity; what the
// user states replaces what the analysis found.
AxisInfo inferHint(const Op *op, const AxisInfo &a, Type type) {
  std::optional<DimVector> values = hintValues(op, a.rank());
  if (!values || a.rank() != rankOf(type))
    return a;
  DimVector shape = shapeOf(type);
  DimVector div = a.divisibility(), contig = a.contiguity(), constancy = a.constancy();
  for (unsigned d = 0; d < a.rank(); ++d) {
    int64_t v = (*values)[d];
    if (v <= 0)
      continue;
    if (op->is(OpCode::MultipleOf)) {
      div[d] = pow2Divisor(v);
    } else {
      contig[d] = std::min(floorPow2(v), shape[d]);
      // Longer runs start at old run starts; shorter ones start inside old runs.
      div[d] = a.divisibilityAt(d, contig[d], unitBytes(type));
      if (contig[d] > 1)
        constancy[d] = 1;
    }
  }
  return AxisInfo(div, contig, constancy, std::nullopt, a.nonNegative());
}

// Equal addresses (under an equal mask) load equal values.
AxisInfo inferLoad(const Op *op, std::span<const AxisInfo *const> in) {
  Type type = op->result()->type();
  AxisInfo r = AxisInfo::unknown(type);
  if (!type.isBlock() || !op->operand(0)->type().isBlock())
    return r;
  DimVector constancy = shapeOf(type);
  for (unsigned i = 0; i < in.size(); ++i) {
    if (!op->operand(i)->type().isBlock() || in[i]->rank() != r.rank())
      continue;
    for (unsigned d = 0; d < r.rank(); ++d)
      constancy[d] = std::min(constancy[d], in[i]->constancy(d));
  }
  return AxisInfo(r.divisibility(), r.contiguity(), constancy);
}

} // namespace

AxisInfo elementwiseConstancy(Type result, std::span<const AxisInfo *const> operands) {
  AxisInfo r = AxisInfo::unknown(result);
  DimVector constancy = shapeOf(result);
  for (const AxisInfo *a : operands) {
    if (a->rank() != r.rank())
      return r;
    for (unsigned d = 0; d < r.rank(); ++d)
      constancy[d] = std::min(constancy[d], a->constancy(d));
  }
  return AxisInfo(r.divisibility(), r.contiguity(), constancy);
}

AxisInfo inferCastOp(const Op *op, std::span<const AxisInfo *const> in) {
  return inferCast(op, *in[0], op->result()->type());
}

std::vector<AxisInfo> inferResults(const Op *op, std::span<const AxisInfo *const> in) {
  std::vector<AxisInfo> out;
  if (op->numResults() == 0)
    return out;
  Type type = op->result()->type();
  if (const ArithOpInfo *arith = arithOpInfo(op->code()); arith && arith->elements == ArithElements::Integer) {
    out.push_back(inferIntegerOp(op, in));
    return out;
  }
  switch (op->code()) {
  case OpCode::Constant: out.push_back(inferConstant(op, type)); break;
  case OpCode::MakeRange: out.push_back(inferMakeRange(op, type)); break;
  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: out.push_back(AxisInfo({1}, {1}, {1}, std::nullopt, true)); break;
  case OpCode::Splat:
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::Trans:
  case OpCode::Join:
  case OpCode::Cat: out.push_back(inferShapeOp(op, in)); break;
  case OpCode::Split: {
    const AxisInfo &a = *in[0];
    if (a.rank() < 2) {
      out.push_back(AxisInfo::unknown(type));
    } else {
      DimVector div = a.divisibility(), contig = a.contiguity(), constancy = a.constancy();
      div.pop_back();
      contig.pop_back();
      constancy.pop_back();
      out.push_back(AxisInfo(div, contig, constancy, a.constantValue(), a.nonNegative()));
    }
    out.push_back(out.back());
    break;
  }
  case OpCode::CmpI:
  case OpCode::Select:
  case OpCode::AddPtr: out.push_back(inferIntegerOp(op, in)); break;
  case OpCode::ExtSI:
  case OpCode::ExtUI:
  case OpCode::TruncI:
  case OpCode::Bitcast:
  case OpCode::PtrToInt:
  case OpCode::IntToPtr: out.push_back(inferCastOp(op, in)); break;
  case OpCode::MultipleOf:
  case OpCode::MaxContiguous: out.push_back(inferHint(op, *in[0], type)); break;
  case OpCode::Load: out.push_back(inferLoad(op, in)); break;
  default:
    if (op->has(kElementwise) && op->numResults() == 1) {
      out.push_back(elementwiseConstancy(type, in));
      break;
    }
    for (Value *r : op->results())
      out.push_back(AxisInfo::unknown(r->type()));
    break;
  }
  return out;
}

} // namespace trident::axis
