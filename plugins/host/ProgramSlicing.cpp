#include "ProgramSlicing.h"

#include "trident/ir/Builder.h"

#include <vector>

namespace trident::host {

void addProgramSlicing(Module &m) {
  for (Op *f : m.functions()) {
    Block *body = f->region();
    std::vector<Value *> extra;
    for (unsigned i = 0; i < kSliceParams; ++i)
      extra.push_back(body->addArgument(Type::i32()));
    if (f->attrs().has("arg_divisibility")) {
      Attribute::IntArray div = f->attr("arg_divisibility").getInts();
      div.resize(body->numArguments(), 1);
      f->setAttr("arg_divisibility", Attribute::ints(std::move(div)));
    }
    std::vector<Op *> ops;
    f->walk([&](Op *op) { ops.push_back(op); });
    for (Op *op : ops) {
      if (op->is(OpCode::GetProgramId)) {
        int64_t axis = op->intAttr("axis");
        Builder b;
        b.setInsertionPointAfter(op);
        b.setLoc(op->loc());
        Value *pid = op->result();
        Value *sum = b.binary(OpCode::AddI, pid, extra[axis]);
        pid->replaceAllUsesWith(sum);
        sum->definingOp()->setOperand(0, pid);
      } else if (op->is(OpCode::GetNumPrograms)) {
        int64_t axis = op->intAttr("axis");
        op->result()->replaceAllUsesWith(extra[3 + axis]);
        op->erase();
      } else if (op->is(OpCode::Call)) {
        for (Value *v : extra)
          op->addOperand(v);
      }
    }
  }
}

bool usesAtomics(const Module &m) {
  bool found = false;
  m.op()->walk([&](Op *op) { found |= op->is(OpCode::AtomicRMW) || op->is(OpCode::AtomicCAS); });
  return found;
}

} // namespace trident::host
