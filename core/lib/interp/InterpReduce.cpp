// Ops that combine elements: tt.reduce and tt.scan (running their combiner region)
// and tt.dot.
//
// Reduce combines along the axis as a tree of adjacent pairs: (x0 op x1), (x2 op x3),
// ... then the pairs of those, so the left operand always covers lower indices.
// Scan is sequential: acc_i = combine(acc_(i-1), x_i) (from the end when reversed).
// When every op of a combiner is elementwise, one run of the region combines all
// independent pairs at once, its arguments holding whole slices.

#include "InterpImpl.h"

#include <cmath>

namespace trident::interp {

namespace {

bool combinerIsElementwise(const Block *region) {
  for (const Op *op : *region)
    if (!op->has(kElementwise) && !op->has(kTerminator) && !op->is(OpCode::Constant))
      return false;
  return true;
}

// Splits the inputs' shape around `axis`: outer x length x inner elements.
struct AxisSplit {
  size_t outer = 1, length = 1, inner = 1;
};

bool splitAroundAxis(Exec &ex, const Op *op, std::vector<const RtValue *> &inputs, AxisSplit &s) {
  for (unsigned i = 0; i < op->numOperands(); ++i)
    inputs.push_back(&ex.get(op->operand(i)));
  const std::vector<int64_t> &shape = inputs[0]->shape;
  for (const RtValue *v : inputs)
    if (v->shape != shape)
      return ex.fail(op, "'" + std::string(op->name()) + "' inputs have different shapes");
  const Attribute &axisAttr = op->attr("axis");
  int64_t axis = axisAttr.isInt() ? axisAttr.getInt() : -1;
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
    return ex.fail(op, "'" + std::string(op->name()) + "' axis is out of range for its input");
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    size_t extent = static_cast<size_t>(shape[d]);
    if (d < axis)
      s.outer *= extent;
    else if (d == axis)
      s.length = extent;
    else
      s.inner *= extent;
  }
  return true;
}

// Runs the combiner on `count` independent (lhs, rhs) pairs per input, held in
// lhs[k] / rhs[k]; the combined values go to `out[k]`.
bool combine(Exec &ex, const Op *op, bool vectorized, const std::vector<Type> &elems,
             std::vector<std::vector<uint64_t>> &lhs, std::vector<std::vector<uint64_t>> &rhs, size_t count,
             std::vector<std::vector<uint64_t>> &out) {
  const size_t n = elems.size();
  const Block *region = op->region();
  std::vector<RtValue> yielded;
  out.assign(n, std::vector<uint64_t>(count));
  auto collect = [&](size_t first, size_t width) {
    if (yielded.size() != n)
      return ex.fail(op, "'" + std::string(op->name()) + "' combiner returns " +
                             std::to_string(yielded.size()) + " values, expected " + std::to_string(n));
    for (size_t k = 0; k < n; ++k) {
      const RtValue &v = yielded[k];
      if (v.size() != width && v.size() != 1)
        return ex.fail(op, "'" + std::string(op->name()) + "' combiner returned a value of the wrong size");
      for (size_t e = 0; e < width; ++e)
        out[k][first + e] = v.data[v.size() == 1 ? 0 : e];
    }
    return true;
  };
  if (vectorized) {
    std::vector<RtValue> args;
    for (size_t k = 0; k < n; ++k)
      args.push_back({elems[k], {static_cast<int64_t>(count)}, std::move(lhs[k])});
    for (size_t k = 0; k < n; ++k)
      args.push_back({elems[k], {static_cast<int64_t>(count)}, std::move(rhs[k])});
    return ex.runRegion(region, std::move(args), &yielded) && collect(0, count);
  }
  for (size_t e = 0; e < count; ++e) {
    std::vector<RtValue> args;
    for (size_t k = 0; k < n; ++k)
      args.push_back({elems[k], {}, {lhs[k][e]}});
    for (size_t k = 0; k < n; ++k)
      args.push_back({elems[k], {}, {rhs[k][e]}});
    if (!ex.runRegion(region, std::move(args), &yielded) || !collect(e, 1))
      return false;
  }
  return true;
}

} // namespace

bool execReduce(Exec &ex, const Op *op) {
  std::vector<const RtValue *> inputs;
  AxisSplit s;
  if (!splitAroundAxis(ex, op, inputs, s))
    return false;
  const size_t n = inputs.size();
  const bool vectorized = combinerIsElementwise(op->region());
  std::vector<Type> elems;
  std::vector<std::vector<uint64_t>> current; // per input: [outer][len][inner]
  for (const RtValue *v : inputs) {
    elems.push_back(v->elem);
    current.push_back(v->data);
  }
  size_t len = s.length;
  std::vector<std::vector<uint64_t>> lhs(n), rhs(n), combined;
  while (len > 1) {
    const size_t half = len / 2, carry = len % 2, count = s.outer * half * s.inner;
    for (size_t k = 0; k < n; ++k) {
      lhs[k].resize(count);
      rhs[k].resize(count);
      size_t e = 0;
      for (size_t o = 0; o < s.outer; ++o)
        for (size_t j = 0; j < half; ++j)
          for (size_t i = 0; i < s.inner; ++i, ++e) {
            lhs[k][e] = current[k][(o * len + 2 * j) * s.inner + i];
            rhs[k][e] = current[k][(o * len + 2 * j + 1) * s.inner + i];
          }
    }
    if (!combine(ex, op, vectorized, elems, lhs, rhs, count, combined))
      return false;
    const size_t next = half + carry;
    for (size_t k = 0; k < n; ++k) {
      std::vector<uint64_t> shrunk(s.outer * next * s.inner);
      for (size_t o = 0; o < s.outer; ++o)
        for (size_t j = 0; j < next; ++j)
          for (size_t i = 0; i < s.inner; ++i)
            shrunk[(o * next + j) * s.inner + i] = j < half ? combined[k][(o * half + j) * s.inner + i]
                                                            : current[k][(o * len + len - 1) * s.inner + i];
      current[k] = std::move(shrunk);
    }
    len = next;
  }
  for (size_t k = 0; k < n; ++k) {
    Type t = op->result(static_cast<unsigned>(k))->type();
    ex.set(op->result(static_cast<unsigned>(k)),
           {elems[k], {t.shape().begin(), t.shape().end()}, std::move(current[k])});
  }
  return true;
}

bool execScan(Exec &ex, const Op *op) {
  std::vector<const RtValue *> inputs;
  AxisSplit s;
  if (!splitAroundAxis(ex, op, inputs, s))
    return false;
  const size_t n = inputs.size(), count = s.outer * s.inner;
  const bool vectorized = combinerIsElementwise(op->region());
  const Attribute &reverseAttr = op->attr("reverse");
  const bool reverse = reverseAttr.isBool() && reverseAttr.getBool();
  std::vector<Type> elems;
  std::vector<std::vector<uint64_t>> results;
  for (const RtValue *v : inputs) {
    elems.push_back(v->elem);
    results.push_back(v->data);
  }
  auto at = [&](size_t o, size_t pos, size_t i) { return (o * s.length + pos) * s.inner + i; };
  std::vector<std::vector<uint64_t>> lhs(n), rhs(n), combined;
  for (size_t step = 1; step < s.length; ++step) {
    const size_t pos = reverse ? s.length - 1 - step : step, prev = reverse ? pos + 1 : pos - 1;
    for (size_t k = 0; k < n; ++k) {
      lhs[k].resize(count);
      rhs[k].resize(count);
      for (size_t o = 0, e = 0; o < s.outer; ++o)
        for (size_t i = 0; i < s.inner; ++i, ++e) {
          lhs[k][e] = results[k][at(o, prev, i)];
          rhs[k][e] = results[k][at(o, pos, i)];
        }
    }
    if (!combine(ex, op, vectorized, elems, lhs, rhs, count, combined))
      return false;
    for (size_t k = 0; k < n; ++k)
      for (size_t o = 0, e = 0; o < s.outer; ++o)
        for (size_t i = 0; i < s.inner; ++i, ++e)
          results[k][at(o, pos, i)] = combined[k][e];
  }
  for (size_t k = 0; k < n; ++k)
    ex.set(op->result(static_cast<unsigned>(k)), {elems[k], inputs[k]->shape, std::move(results[k])});
  return true;
}

// ---- tt.dot ------------------------------------------------------------------

namespace {

// acc[b][i][j] += sum_k a[b][i][k] * b[b][k][j], one fused multiply-add per k in
// order, in the accumulator's compute type T, rounded to `accType` after each step.
template <class T>
void dotFloat(const RtValue &a, const RtValue &b, RtValue &acc, size_t batches, size_t m, size_t n, size_t k,
              Type accType, bool exactProducts) {
  std::vector<T> av(a.size()), bt(b.size());
  for (size_t i = 0; i < a.size(); ++i)
    av[i] = static_cast<T>(slotToDouble(a.data[i]));
  for (size_t p = 0; p < batches; ++p) // b transposed, so the k loop walks memory in order
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j)
        bt[(p * n + j) * k + kk] = static_cast<T>(slotToDouble(b.data[(p * k + kk) * n + j]));
  const bool narrow = accType.kind() != TypeKind::F32 && accType.kind() != TypeKind::F64;
  for (size_t p = 0; p < batches; ++p)
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        uint64_t &slot = acc.data[(p * m + i) * n + j];
        T c = static_cast<T>(slotToDouble(slot));
        const T *arow = &av[(p * m + i) * k], *bcol = &bt[(p * n + j) * k];
        for (size_t kk = 0; kk < k; ++kk) {
          // Products of narrow inputs are exact in T, so a plain multiply-add equals the fma.
          c = exactProducts ? c + arow[kk] * bcol[kk] : std::fma(arow[kk], bcol[kk], c);
          if (narrow)
            c = static_cast<T>(roundToType(accType, c));
        }
        slot = doubleToSlot(static_cast<double>(c));
      }
}

} // namespace

bool execDot(Exec &ex, const Op *op) {
  const RtValue &a = ex.get(op->operand(0)), &b = ex.get(op->operand(1));
  RtValue acc = ex.get(op->operand(2));
  const size_t rank = a.shape.size();
  if (rank < 2 || rank > 3 || b.shape.size() != rank || acc.shape.size() != rank)
    return ex.fail(op, "'tt.dot' needs operands of rank 2 or 3");
  const size_t batches = rank == 3 ? static_cast<size_t>(a.shape[0]) : 1;
  const size_t m = static_cast<size_t>(a.shape[rank - 2]), k = static_cast<size_t>(a.shape[rank - 1]),
               n = static_cast<size_t>(b.shape[rank - 1]);
  if (static_cast<size_t>(b.shape[rank - 2]) != k || static_cast<size_t>(acc.shape[rank - 2]) != m ||
      static_cast<size_t>(acc.shape[rank - 1]) != n ||
      (rank == 3 && (b.shape[0] != a.shape[0] || acc.shape[0] != a.shape[0])))
    return ex.fail(op, "'tt.dot' operand shapes do not multiply");
  Type accType = acc.elem;
  if (accType.isInteger()) {
    if (!a.elem.isInteger() || !b.elem.isInteger())
      return ex.fail(op, "'tt.dot' with an integer accumulator needs integer operands");
    const unsigned wa = a.elem.bitWidth(), wb = b.elem.bitWidth();
    const uint64_t mask = widthMask(accType.bitWidth());
    for (size_t p = 0; p < batches; ++p)
      for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
          uint64_t &c = acc.data[(p * m + i) * n + j];
          for (size_t kk = 0; kk < k; ++kk)
            c += static_cast<uint64_t>(signExtend(a.data[(p * m + i) * k + kk], wa)) *
                 static_cast<uint64_t>(signExtend(b.data[(p * k + kk) * n + j], wb));
          c &= mask;
        }
  } else if (accType.isFloat() && a.elem.isFloat() && b.elem.isFloat()) {
    auto narrowInput = [](Type t) { return t.kind() != TypeKind::F32 && t.kind() != TypeKind::F64; };
    const bool exactProducts = narrowInput(a.elem) && narrowInput(b.elem);
    if (accType.kind() == TypeKind::F64)
      dotFloat<double>(a, b, acc, batches, m, n, k, accType, exactProducts);
    else
      dotFloat<float>(a, b, acc, batches, m, n, k, accType, exactProducts);
  } else {
    return ex.fail(op, "'tt.dot' operand types " + a.elem.str() + " and " + b.elem.str() +
                           " do not suit an accumulator of " + accType.str());
  }
  ex.set(op->result(), std::move(acc));
  return true;
}

} // namespace trident::interp
