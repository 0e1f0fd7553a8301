// tt.print and tt.assert.
//
// tt.print writes one line per element to the interpreter's output:
//   pid (x, y, z) idx (i, j) <prefix><value>
// (scalars have no idx; with several operands each line ends in "(operand k)").

#include "InterpImpl.h"

namespace trident::interp {

namespace {

std::string indexText(const std::vector<int64_t> &shape, size_t linear) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = static_cast<int64_t>(linear % static_cast<size_t>(shape[d]));
    linear /= static_cast<size_t>(shape[d]);
  }
  std::string s = "(";
  for (size_t d = 0; d < index.size(); ++d)
    s += (d ? ", " : "") + std::to_string(index[d]);
  return s + ")";
}

bool print(Exec &ex, const Op *op) {
  const Attribute &prefixAttr = op->attr("prefix"), &hexAttr = op->attr("hex");
  const std::string prefix = prefixAttr.isString() ? prefixAttr.getString() : std::string();
  const bool hex = hexAttr.isBool() && hexAttr.getBool();
  const std::string pid = "pid (" + std::to_string(ex.pid[0]) + ", " + std::to_string(ex.pid[1]) + ", " +
                          std::to_string(ex.pid[2]) + ")";
  if (op->numOperands() == 0)
    ex.out << pid << " " << prefix << "\n";
  for (unsigned k = 0; k < op->numOperands(); ++k) {
    const RtValue &v = ex.get(op->operand(k));
    std::string suffix = op->numOperands() > 1 ? " (operand " + std::to_string(k) + ")" : "";
    for (size_t i = 0; i < v.size(); ++i) {
      ex.out << pid;
      if (!v.shape.empty())
        ex.out << " idx " << indexText(v.shape, i);
      ex.out << " " << prefix << formatSlot(v.elem, v.data[i], hex) << suffix << "\n";
    }
  }
  ex.out.flush();
  return true;
}

bool assertion(Exec &ex, const Op *op) {
  const RtValue &cond = ex.get(op->operand(0));
  const Attribute &messageAttr = op->attr("message");
  const std::string message = messageAttr.isString() ? messageAttr.getString() : std::string("tt.assert");
  for (size_t i = 0; i < cond.size(); ++i)
    if (!(cond.data[i] & 1))
      return ex.fail(op, "assertion failed: " + message +
                             (cond.shape.empty() ? std::string() : " at index " + indexText(cond.shape, i)));
  return true;
}

} // namespace

bool execDebug(Exec &ex, const Op *op) {
  if (op->is(OpCode::Print))
    return print(ex, op);
  return assertion(ex, op);
}

} // namespace trident::interp
