// Ops that make blocks or move their elements: arith.constant, tt.make_range,
// tt.splat, tt.broadcast, tt.expand_dims, tt.reshape, tt.trans, tt.join, tt.split
// and tt.cat. Shapes come from the result types.

#include "InterpImpl.h"

namespace trident::interp {

namespace {

std::vector<int64_t> shapeOf(Type t) { return {t.shape().begin(), t.shape().end()}; }

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

// out[j] = src[sum_d j_d * strides[d]] for every index j of `shape`, in row-major order.
std::vector<uint64_t> gatherStrided(const std::vector<uint64_t> &src, const std::vector<int64_t> &shape,
                                    const std::vector<int64_t> &strides) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<uint64_t> out(static_cast<size_t>(n));
  if (n == 0)
    return out;
  const size_t rank = shape.size();
  if (rank == 0) {
    out[0] = src[0];
    return out;
  }
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  const int64_t inner = shape[rank - 1], innerStride = strides[rank - 1];
  for (int64_t i = 0; i < n; i += inner) {
    for (int64_t k = 0; k < inner; ++k)
      out[static_cast<size_t>(i + k)] = src[static_cast<size_t>(offset + k * innerStride)];
    // Advance the odometer over the outer dimensions.
    for (size_t d = rank - 1; d-- > 0;) {
      offset += strides[d];
      if (++index[d] < shape[d])
        break;
      offset -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
  return out;
}

bool constant(Exec &ex, const Op *op) {
  Type type = op->result()->type(), elem = type.element();
  const Attribute &value = op->attr("value");
  uint64_t slot;
  if (value.isBool() || (value.isInt() && elem.isInteger()))
    slot = (value.isBool() ? uint64_t(value.getBool()) : static_cast<uint64_t>(value.getInt())) &
           widthMask(elem.bitWidth());
  else if (value.isFloat() && elem.isFloat())
    slot = doubleToSlot(roundToType(elem, value.getFloat()));
  else if (value.isInt() && elem.isFloat())
    slot = doubleToSlot(roundToType(elem, static_cast<double>(value.getInt())));
  else
    return ex.fail(op, "'arith.constant' value " + value.str() + " does not suit type " + type.str());
  ex.set(op->result(),
         {elem, shapeOf(type), std::vector<uint64_t>(static_cast<size_t>(type.numElements()), slot)});
  return true;
}

bool makeRange(Exec &ex, const Op *op) {
  if (!op->attr("start").isInt() || !op->attr("end").isInt())
    return ex.fail(op, "'tt.make_range' needs integer attributes 'start' and 'end'");
  int64_t start = op->intAttr("start"), end = op->intAttr("end");
  Type type = op->result()->type();
  if (end - start != type.numElements())
    return ex.fail(op, "'tt.make_range' range does not match its result type " + type.str());
  RtValue out{type.element(), shapeOf(type), std::vector<uint64_t>(static_cast<size_t>(end - start))};
  for (int64_t i = 0; i < end - start; ++i)
    out.data[static_cast<size_t>(i)] = static_cast<uint64_t>(start + i) & widthMask(32);
  ex.set(op->result(), std::move(out));
  return true;
}

} // namespace

bool execShape(Exec &ex, const Op *op) {
  switch (op->code()) {
  case OpCode::Constant: return constant(ex, op);
  case OpCode::MakeRange: return makeRange(ex, op);
  default: break;
  }

  const RtValue &in = ex.get(op->operand(0));
  Type resultType = op->result(0)->type();
  std::vector<int64_t> shape = shapeOf(resultType);
  RtValue out{in.elem, shape, {}};
  switch (op->code()) {
  case OpCode::Splat: out.data.assign(static_cast<size_t>(resultType.numElements()), in.data[0]); break;

  case OpCode::Broadcast: {
    std::vector<int64_t> strides(shape.size(), 0);
    if (in.size() != 1) {
      if (in.shape.size() != shape.size())
        return ex.fail(op, "'tt.broadcast' operand and result ranks differ");
      std::vector<int64_t> inStrides = rowMajorStrides(in.shape);
      for (size_t d = 0; d < shape.size(); ++d) {
        if (in.shape[d] != 1 && in.shape[d] != shape[d])
          return ex.fail(op, "'tt.broadcast' cannot broadcast dimension " + std::to_string(d));
        strides[d] = in.shape[d] == 1 ? 0 : inStrides[d];
      }
    }
    out.data = gatherStrided(in.data, shape, strides);
    break;
  }

  case OpCode::ExpandDims:
  case OpCode::Reshape: // row-major order is kept, a valid choice under allow_reorder
    out.data = in.data;
    break;

  case OpCode::Trans: {
    const Attribute &order = op->attr("order");
    if (!order.isInts() || order.getInts().size() != in.shape.size() || shape.size() != in.shape.size())
      return ex.fail(op, "'tt.trans' attribute 'order' must list every dimension");
    std::vector<int64_t> inStrides = rowMajorStrides(in.shape), strides;
    std::vector<bool> seen(in.shape.size(), false);
    for (int64_t d : order.getInts()) {
      if (d < 0 || d >= static_cast<int64_t>(in.shape.size()) || seen[static_cast<size_t>(d)])
        return ex.fail(op, "'tt.trans' attribute 'order' must be a permutation of the dimensions");
      seen[static_cast<size_t>(d)] = true;
      strides.push_back(inStrides[static_cast<size_t>(d)]);
    }
    out.data = gatherStrided(in.data, shape, strides);
    break;
  }

  case OpCode::Join: {
    const RtValue &other = ex.get(op->operand(1));
    if (other.size() != in.size())
      return ex.fail(op, "'tt.join' operands have different shapes");
    out.data.resize(2 * in.size());
    for (size_t i = 0; i < in.size(); ++i) {
      out.data[2 * i] = in.data[i];
      out.data[2 * i + 1] = other.data[i];
    }
    break;
  }

  case OpCode::Split: {
    RtValue second{in.elem, shape, std::vector<uint64_t>(in.size() / 2)};
    out.data.resize(in.size() / 2);
    for (size_t i = 0; i < in.size() / 2; ++i) {
      out.data[i] = in.data[2 * i];
      second.data[i] = in.data[2 * i + 1];
    }
    ex.set(op->result(1), std::move(second));
    break;
  }

  case OpCode::Cat: { // along dimension 0, in operand order
    const RtValue &other = ex.get(op->operand(1));
    out.data = in.data;
    out.data.insert(out.data.end(), other.data.begin(), other.data.end());
    break;
  }

  default: return ex.fail(op, "'" + std::string(op->name()) + "' is not a block-construction op");
  }
  if (static_cast<int64_t>(out.size()) != resultType.numElements())
    return ex.fail(op, "'" + std::string(op->name()) + "' result has " + std::to_string(out.size()) +
                           " elements, but its type " + resultType.str() + " holds " +
                           std::to_string(resultType.numElements()));
  ex.set(op->result(0), std::move(out));
  return true;
}

} // namespace trident::interp
