// Matrix units and asynchronous copies: th.mma, th.ldmatrix and th.async_* go to the
// target's hooks, which know the instructions; what is left here is operand plumbing
// (shared-memory addresses, predicates) and the error for a target without them.
#include "Translator.h"

#include <cstdio>

namespace trident::llvmgen {

namespace {

// "mma.m16n8k16.f32.f16" -> {16, 8, 16}
bool atomShape(std::string_view name, unsigned &m, unsigned &n, unsigned &k) {
  return std::sscanf(std::string(name).c_str(), "mma.m%un%uk%u", &m, &n, &k) == 3;
}

} // namespace

bool Translator::translateMatrix(Op *op) {
  auto x = [&](unsigned i) { return value(op->operand(i)); };
  auto unsupported = [&] {
    return error(op, std::string(op->name()) + " is not supported on target " + std::string(hooks.triple()));
  };
  switch (op->code()) {
  case OpCode::ThMma: {
    std::string atom = op->stringAttr("atom");
    unsigned m = 0, n = 0, k = 0;
    if (!atomShape(atom, m, n, k))
      return error(op, "th.mma atom '" + atom + "' is not of the form mma.mMnNkK...");
    unsigned lanes = hooks.warpSize();
    unsigned numA = m * k / lanes, numB = k * n / lanes, numC = m * n / lanes;
    if (op->numOperands() != numA + numB + numC || op->numResults() != numC)
      return error(op, "th.mma " + atom + " takes " + std::to_string(numA) + " + " + std::to_string(numB) +
                           " + " + std::to_string(numC) + " operands and gives " + std::to_string(numC) + " results");
    std::vector<llvm::Value *> all;
    for (unsigned i = 0; i < op->numOperands(); ++i)
      all.push_back(x(i));
    llvm::ArrayRef<llvm::Value *> ops(all);
    std::vector<llvm::Value *> d = hooks.matrixMultiply(b, atom, ops.slice(0, numA), ops.slice(numA, numB),
                                                        ops.slice(numA + numB, numC));
    if (d.size() != numC)
      return unsupported();
    for (unsigned i = 0; i < numC; ++i)
      define(op->result(i), d[i]);
    return true;
  }
  case OpCode::ThLdMatrix: {
    llvm::Type *element = type(op->operand(0)->type().pointee());
    llvm::Value *address = b.CreateInBoundsGEP(element, x(0), x(1));
    llvm::Value *r = hooks.loadMatrix(b, address, static_cast<unsigned>(op->intAttr("count")),
                                      op->intAttr("trans") != 0, type(op->result()->type()));
    if (!r)
      return unsupported();
    define(op->result(), r);
    return true;
  }
  case OpCode::ThAsyncCopy: {
    llvm::Type *element = type(op->operand(0)->type().pointee());
    llvm::Value *destination = b.CreateInBoundsGEP(element, x(0), x(1));
    llvm::Value *pred = op->numOperands() > 3 ? x(3) : nullptr;
    return hooks.asyncCopy(b, destination, x(2), static_cast<unsigned>(op->intAttr("bytes")), pred) ||
           unsupported();
  }
  case OpCode::ThAsyncCommit: return hooks.asyncCommit(b) || unsupported();
  case OpCode::ThAsyncWait: return hooks.asyncWait(b, static_cast<unsigned>(op->intAttr("pending"))) || unsupported();
  default: return error(op, std::string(op->name()) + " is not a matrix or async-copy op");
  }
}

} // namespace trident::llvmgen
