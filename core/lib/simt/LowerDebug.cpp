// tt.print and tt.assert to th.printf and th.assert; gpu.barrier to th.barrier.
//
// tt.print: one th.printf per element, issued by the one thread of its group of
// replicas that holds it (a register duplicated within a thread prints once), in the
// interpreter's line format:
//
//   tt.print %x {prefix = "x: "} : block<128xf32>     (4 warps, one element a thread)
// ->
//   %v = arith.extf %x0 : f64
//   th.printf %true, %pid0, %pid1, %pid2, %i0, %v
//       {format = "pid (%d, %d, %d) idx (%d) x: %.8g\n"}
//
// Values are widened to what C's variadic calls pass (i32, i64, f64), so a backend
// passes the operands as they are. A print without operands prints its prefix once per
// program (thread 0).
//
// tt.assert: every thread checks the elements it holds; their conditions are combined
// into one th.assert carrying the message, the source position and the kernel's name.
//
// gpu.barrier (tl.debug_barrier): one th.barrier, the program-wide barrier that every
// backend emits with global-memory ordering among the program's threads (NVPTX
// bar.sync, SPIR-V OpControlBarrier with UniformMemory, AMDGPU fenced s_barrier).
// Conditions are uniform, so every thread reaches it.
#include "LowerContext.h"

namespace trident::simt {

namespace {

std::string escapePercent(const std::string &text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

// `v` (a thread-IR scalar of block element type `t`) widened for printf, and its
// conversion specification.
std::pair<Value *, std::string> printable(Lowering &l, Value *v, Type t, bool hex) {
  Builder &b = l.b;
  if (t.isPtr())
    return {b.cast(OpCode::PtrToInt, v, Type::i64()), "0x%llx"};
  if (t.isFloat() && (t.kind() == TypeKind::F8E4M3 || t.kind() == TypeKind::F8E5M2)) {
    if (hex)
      return {b.cast(OpCode::ExtUI, b.cast(OpCode::Bitcast, v, Type::i8()), Type::i32()), "0x%x"};
    return {b.cast(OpCode::ExtF, widenNarrowFloat(l, v, Type::f32()), Type::f64()), "%.8g"};
  }
  if (t.isFloat()) {
    if (hex) {
      Type bits = Type::integer(t.bitWidth());
      Value *raw = b.cast(OpCode::Bitcast, v, bits);
      if (t.bitWidth() == 64)
        return {raw, "0x%llx"};
      return {t.bitWidth() < 32 ? b.cast(OpCode::ExtUI, raw, Type::i32()) : raw, "0x%x"};
    }
    if (t.kind() == TypeKind::F64)
      return {v, "%.17g"};
    return {b.cast(OpCode::ExtF, v, Type::f64()), "%.8g"};
  }
  // Integers: signed decimal (i1 as 0 or 1), or their bits in hex.
  unsigned bits = t.bitWidth();
  if (bits == 64)
    return {v, hex ? "0x%llx" : "%lld"};
  if (bits == 32)
    return {v, hex ? "0x%x" : "%d"};
  OpCode widen = hex || bits == 1 ? OpCode::ExtUI : OpCode::ExtSI;
  return {b.cast(widen, v, Type::i32()), hex ? "0x%x" : "%d"};
}

bool lowerPrint(Lowering &l, Op *op) {
  const Attribute &prefixAttr = op->attr("prefix"), &hexAttr = op->attr("hex");
  const std::string prefix = escapePercent(prefixAttr.isString() ? prefixAttr.getString() : std::string());
  const bool hex = hexAttr.isBool() && hexAttr.getBool();
  Builder &b = l.b;
  std::vector<Value *> pids;
  for (int axis = 0; axis < 3; ++axis) {
    Type i32[] = {Type::i32()};
    pids.push_back(b.create(OpCode::GetProgramId, std::span<Value *const>{}, i32,
                            {{"axis", Attribute::integer(axis)}})
                       ->result());
  }
  auto emit = [&](Value *pred, const std::string &format, std::vector<Value *> args) {
    std::vector<Value *> operands{pred ? pred : b.constBool(true)};
    operands.insert(operands.end(), pids.begin(), pids.end());
    operands.insert(operands.end(), args.begin(), args.end());
    b.create(OpCode::ThPrintf, operands, std::span<const Type>{},
             {{"format", Attribute::string("pid (%d, %d, %d) " + format + "\n")}});
  };
  if (op->numOperands() == 0) {
    emit(l.ownerPredicate(l.scalarLayout()), prefix, {});
    return true;
  }
  for (unsigned k = 0; k < op->numOperands(); ++k) {
    Value *x = op->operand(k);
    Type t = x->type().isBlock() ? x->type().element() : x->type();
    const Lowered &v = l.get(x);
    const LinearLayout &layout = v.layout;
    Value *owner = l.ownerPredicate(layout);
    std::string suffix = op->numOperands() > 1 ? " (operand " + std::to_string(k) + ")" : "";
    int64_t dupMask = layout.registerReplicationMask();
    for (int64_t r = 0; r < layout.numRegisters(); ++r) {
      if (r & dupMask)
        continue;
      std::vector<Value *> args;
      std::string index;
      if (x->type().isBlock()) {
        for (unsigned d = 0; d < layout.rank(); ++d) {
          args.push_back(l.dimIndex(layout, d, r));
          index += d ? ", %d" : "%d";
        }
        index = "idx (" + index + ") ";
      }
      auto [value, spec] = printable(l, v.regs[r], t, hex);
      args.push_back(value);
      emit(owner, index + prefix + spec + suffix, args);
    }
  }
  return true;
}

std::string functionName(const Op *op) {
  for (const Op *p = op->parentOp(); p; p = p->parentOp())
    if (p->is(OpCode::Func))
      return std::string(func::name(p));
  return "<kernel>";
}

bool lowerAssert(Lowering &l, Op *op) {
  const Lowered &cond = l.get(op->operand(0));
  int64_t dupMask = cond.layout.registerReplicationMask();
  Value *all = nullptr;
  for (int64_t r = 0; r < cond.layout.numRegisters(); ++r)
    if (!(r & dupMask))
      all = all ? l.b.binary(OpCode::AndI, all, cond.regs[r]) : cond.regs[r];
  const Attribute &message = op->attr("message");
  Location loc = op->loc();
  l.b.create(OpCode::ThAssert, {all}, {},
             {{"message", Attribute::string(message.isString() ? message.getString() : std::string())},
              {"file", Attribute::string(loc.known() ? std::string(loc.file()) : std::string("<unknown>"))},
              {"line", Attribute::integer(loc.line())},
              {"function", Attribute::string(functionName(op))}});
  return true;
}

} // namespace

bool lowerDebug(Lowering &l, Op *op) {
  if (op->is(OpCode::Barrier)) {
    l.barrier();
    return true;
  }
  return op->is(OpCode::Print) ? lowerPrint(l, op) : lowerAssert(l, op);
}

} // namespace trident::simt
