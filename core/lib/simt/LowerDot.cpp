// Dot products with multiply-adds (matrix units come later, through th.mma): A and
// B go to shared memory row-major, then each thread loops over k, reading the A
// elements of its rows and the B elements of its columns and accumulating into its
// registers of the result (in the result's layout). Inputs narrower than the
// accumulator are widened first, as the products must be (f8 exactly, so any
// max_num_imprecise_acc is met with full precision).
//
//   %d = tt.dot %a, %b, %c : block<32x32xf32>     (a: 32x16, b: 16x32)
// ->
//   (A, B written to shared memory)
//   %d0, ... = scf.for %c0, %c16, %c1, %c0_0, ... : f32, ... ({
//   ^(%k: i32, %acc0: f32, ...):
//     %a0 = th.load_shared %sa, (row0 * 16 + k) : f32   ... one per row the thread holds
//     %b0 = th.load_shared %sb, (k * 32 + col0) : f32   ... one per column
//     %n0 = math.fma %a0, %b0, %acc0 : f32             ... one per register
//     scf.yield %n0, ...
//   })
#include "LowerContext.h"

#include <map>

namespace trident::simt {

namespace {

bool isNarrowFloat(Type t) { return t == Type::f8e4m3() || t == Type::f8e5m2(); }

// Widens an A or B element to the accumulator's type.
Value *widen(Lowering &l, Value *v, Type acc) {
  Type t = v->type();
  if (t == acc)
    return v;
  if (isNarrowFloat(t))
    return widenNarrowFloat(l, v, acc);
  if (t.isInteger())
    return l.b.cast(OpCode::ExtSI, v, acc);
  return l.b.cast(OpCode::ExtF, v, acc);
}

} // namespace

bool lowerDot(Lowering &l, Op *op) {
  Value *result = op->result();
  Type accType = result->type().element();
  Type inType = op->operand(0)->type().element();
  LinearLayout layout = l.assigned(result);
  Lowered acc = l.get(op->operand(2), layout);
  std::span<const int64_t> aShape = op->operand(0)->type().shape(), bShape = op->operand(1)->type().shape();
  unsigned rank = static_cast<unsigned>(aShape.size());
  int64_t m = aShape[rank - 2], k = aShape[rank - 1], n = bShape[rank - 1];
  unsigned batchDim = 0, rowDim = rank - 2, colDim = rank - 1;
  Builder &b = l.b;

  Value *sa = l.writeShared(l.get(op->operand(0)));
  Value *sb = l.writeShared(l.get(op->operand(1)));

  // Per register: the start of its A row and its B column; registers sharing a row
  // (or column) share the loads.
  int64_t dups = layout.registerReplicationMask();
  std::map<std::pair<int64_t, int64_t>, Value *> rowStart, colStart;
  std::vector<std::pair<int64_t, int64_t>> rowOf(layout.numRegisters()), colOf(layout.numRegisters());
  std::vector<int64_t> live;
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    if (r & dups)
      continue;
    live.push_back(r);
    std::vector<int64_t> idx = layout.unflatten(layout.registerOffset(r));
    int64_t batch = rank == 3 ? idx[batchDim] : 0;
    rowOf[r] = {batch, idx[rowDim]};
    colOf[r] = {batch, idx[colDim]};
    Value *bi = rank == 3 ? l.dimIndex(layout, batchDim, r) : nullptr;
    if (!rowStart.count(rowOf[r])) {
      Value *row = l.dimIndex(layout, rowDim, r);
      if (bi)
        row = b.binary(OpCode::AddI, b.binary(OpCode::MulI, bi, l.constI32(m)), row);
      rowStart[rowOf[r]] = b.binary(OpCode::MulI, row, l.constI32(k));
    }
    if (!colStart.count(colOf[r])) {
      Value *col = l.dimIndex(layout, colDim, r);
      if (bi)
        col = b.binary(OpCode::AddI, b.binary(OpCode::MulI, bi, l.constI32(k * n)), col);
      colStart[colOf[r]] = col;
    }
  }

  // for k: acc += A[row, k] * B[k, col]
  std::vector<Value *> operands{l.constI32(0), l.constI32(k), l.constI32(1)};
  std::vector<Type> types;
  for (int64_t r : live) {
    operands.push_back(acc.regs[r]);
    types.push_back(accType);
  }
  Op *loop = b.create(OpCode::For, operands, types, {}, 1);
  Block *body = loop->region();
  Value *kv = body->addArgument(Type::i32());
  std::vector<Value *> carried;
  for (Type t : types)
    carried.push_back(body->addArgument(t));
  Block *outer = b.block();
  Op *after = b.insertionOp();
  b.setInsertionPointToEnd(body);

  Value *kTimesN = b.binary(OpCode::MulI, kv, l.constI32(n));
  std::map<std::pair<int64_t, int64_t>, Value *> aValues, bValues;
  auto loadShared = [&](Value *buffer, Value *index) {
    Value *ops[] = {buffer, index};
    Type elem[] = {Lowering::storageType(inType)};
    return widen(l, l.fromStorage(b.create(OpCode::ThLoadShared, ops, elem)->result(), inType), accType);
  };
  for (auto &[key, start] : rowStart)
    aValues[key] = loadShared(sa, b.binary(OpCode::AddI, start, kv));
  for (auto &[key, start] : colStart)
    bValues[key] = loadShared(sb, b.binary(OpCode::AddI, start, kTimesN));
  std::vector<Value *> next;
  for (size_t i = 0; i < live.size(); ++i) {
    Value *x = aValues[rowOf[live[i]]], *y = bValues[colOf[live[i]]];
    if (accType.isInteger())
      next.push_back(b.binary(OpCode::AddI, carried[i], b.binary(OpCode::MulI, x, y)));
    else
      next.push_back(b.fma(x, y, carried[i]));
  }
  b.yield(next);
  if (after)
    b.setInsertionPoint(after);
  else
    b.setInsertionPointToEnd(outer);

  Lowered out{layout, std::vector<Value *>(layout.numRegisters(), nullptr)};
  for (size_t i = 0; i < live.size(); ++i)
    out.regs[live[i]] = loop->result(static_cast<unsigned>(i));
  for (int64_t r = 0; r < layout.numRegisters(); ++r)
    if (r & dups)
      out.regs[r] = out.regs[r & ~dups];
  l.set(result, std::move(out));
  return true;
}

} // namespace trident::simt
