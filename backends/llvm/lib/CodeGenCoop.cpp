// Cooperative matrices held whole by one thread (TargetHooks::coopMatricesInOneThread:
// warps of one lane, the CPU): a coopmat<RxCxT> is an LLVM [R x <C x T>], its rows as
// vectors (an aggregate, so that no shuffle ever moves a whole tile). Loads and stores move
// it a row at a time (a column at a time for layout = "col"); th.coop_mma is, for each row r
// of the result and each k, row_r += broadcast(A[r][k]) * row_k(B): vector multiply-adds as
// wide as the tile's rows, which the target splits into its registers; arith.mulf
// multiplies row by row.
#include "Translator.h"

namespace trident::llvmgen {

namespace {

unsigned rowsOf(Type t) { return static_cast<unsigned>(t.shape()[0]); }
unsigned colsOf(Type t) { return static_cast<unsigned>(t.shape()[1]); }

std::vector<llvm::Value *> rowsOf(llvm::IRBuilder<> &b, llvm::Value *m, unsigned rows) {
  std::vector<llvm::Value *> out;
  for (unsigned r = 0; r < rows; ++r)
    out.push_back(b.CreateExtractValue(m, r));
  return out;
}

llvm::Value *fromRows(llvm::IRBuilder<> &b, llvm::Type *t, const std::vector<llvm::Value *> &rows) {
  llvm::Value *m = llvm::PoisonValue::get(t);
  for (unsigned r = 0; r < rows.size(); ++r)
    m = b.CreateInsertValue(m, rows[r], r);
  return m;
}

// `lines` vectors of `length` as `length` vectors of `lines` (a transpose).
std::vector<llvm::Value *> transpose(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &lines, unsigned length) {
  std::vector<llvm::Value *> out;
  llvm::Type *element = llvm::cast<llvm::FixedVectorType>(lines[0]->getType())->getElementType();
  for (unsigned i = 0; i < length; ++i) {
    llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(element, unsigned(lines.size())));
    for (unsigned j = 0; j < lines.size(); ++j)
      v = b.CreateInsertElement(v, b.CreateExtractElement(lines[j], uint64_t(i)), uint64_t(j));
    out.push_back(v);
  }
  return out;
}

} // namespace

bool Translator::translateCoop(Op *op) {
  auto x = [&](unsigned i) { return value(op->operand(i)); };
  switch (op->code()) {
  case OpCode::ThCoopFill: {
    Type t = op->result()->type();
    llvm::Value *row = b.CreateVectorSplat(colsOf(t), x(0));
    define(op->result(), fromRows(b, type(t), std::vector<llvm::Value *>(rowsOf(t), row)));
    return true;
  }
  case OpCode::ThCoopLoad:
  case OpCode::ThCoopStore: {
    bool store = op->is(OpCode::ThCoopStore);
    Type t = store ? op->operand(2)->type() : op->result()->type();
    unsigned rows = rowsOf(t), cols = colsOf(t);
    bool byColumn = op->stringAttr("layout") == "col";
    // Lines of `length` elements `stride` apart in the allocation.
    unsigned lines = byColumn ? cols : rows, length = byColumn ? rows : cols;
    llvm::Type *element = type(t.element());
    llvm::Type *line = llvm::FixedVectorType::get(element, length);
    llvm::Align align(element->getPrimitiveSizeInBits().getFixedValue() / 8);
    int64_t stride = op->intAttr("stride");
    auto address = [&](unsigned i) {
      llvm::Value *index = b.CreateAdd(x(1), b.getInt32(static_cast<uint32_t>(i * stride)));
      return b.CreateInBoundsGEP(element, x(0), b.CreateSExt(index, b.getInt64Ty()));
    };
    if (store) {
      std::vector<llvm::Value *> parts = rowsOf(b, x(2), rows);
      if (byColumn)
        parts = transpose(b, parts, cols);
      for (unsigned i = 0; i < lines; ++i)
        b.CreateAlignedStore(parts[i], address(i), align);
      return true;
    }
    std::vector<llvm::Value *> parts;
    for (unsigned i = 0; i < lines; ++i)
      parts.push_back(b.CreateAlignedLoad(line, address(i), align));
    if (byColumn)
      parts = transpose(b, parts, rows);
    define(op->result(), fromRows(b, type(t), parts));
    return true;
  }
  case OpCode::ThCoopMma: {
    Type at = op->operand(0)->type(), bt = op->operand(1)->type(), ct = op->result()->type();
    unsigned M = rowsOf(ct), K = colsOf(at);
    llvm::Type *element = type(ct.element());
    bool isFloat = ct.element().isFloat();
    auto widen = [&](llvm::Value *v, Type from) -> llvm::Value * {
      if (from.element() == ct.element())
        return v;
      auto *to = llvm::FixedVectorType::get(element, llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements());
      return isFloat ? b.CreateFPExt(v, to) : b.CreateSExt(v, to); // Triton's integer dots are signed
    };
    std::vector<llvm::Value *> a = rowsOf(b, x(0), M), bRows = rowsOf(b, x(1), K), c = rowsOf(b, x(2), M);
    for (llvm::Value *&row : a)
      row = widen(row, at);
    for (llvm::Value *&row : bRows)
      row = widen(row, bt);
    unsigned N = colsOf(ct);
    for (unsigned r = 0; r < M; ++r)
      for (unsigned k = 0; k < K; ++k) {
        llvm::Value *s = b.CreateVectorSplat(N, b.CreateExtractElement(a[r], uint64_t(k)));
        c[r] = isFloat ? b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {c[r]->getType()}, {s, bRows[k], c[r]})
                       : b.CreateAdd(b.CreateMul(s, bRows[k]), c[r]);
      }
    define(op->result(), fromRows(b, type(ct), c));
    return true;
  }
  case OpCode::MulF: {
    Type t = op->result()->type();
    std::vector<llvm::Value *> l = rowsOf(b, x(0), rowsOf(t)), r = rowsOf(b, x(1), rowsOf(t));
    for (unsigned i = 0; i < l.size(); ++i)
      l[i] = b.CreateFMul(l[i], r[i]);
    define(op->result(), fromRows(b, type(t), l));
    return true;
  }
  default: return error(op, std::string(op->name()) + " is not an op of cooperative matrices held by one thread");
  }
}

} // namespace trident::llvmgen
