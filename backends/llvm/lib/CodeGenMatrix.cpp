// Matrix units and asynchronous copies: th.mma, th.wgmma (and its fence, commit and
// wait), th.ldmatrix, th.async_*, th.mbarrier_* and th.fence_async_shared go to the target's hooks, which know the instructions; what is left here is operand plumbing
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
    unsigned numA = 0, numB = 0, numC = 0;
    if (!hooks.matrixFragments(atom, numA, numB, numC)) {
      unsigned m = 0, n = 0, k = 0;
      if (!atomShape(atom, m, n, k))
        return error(op, "th.mma atom '" + atom + "' is not of the form mma.mMnNkK...");
      unsigned lanes = hooks.warpSize();
      numA = m * k / lanes, numB = k * n / lanes, numC = m * n / lanes;
    }
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
  case OpCode::ThWgmma: {
    // "wgmma.m64n256k16.f32.f16": 64 x n accumulators over a warpgroup of 128 threads.
    std::string atom = op->stringAttr("atom");
    unsigned m = 0, n = 0, k = 0;
    if (std::sscanf(atom.c_str(), "wgmma.m%un%uk%u", &m, &n, &k) != 3)
      return error(op, "th.wgmma atom '" + atom + "' is not of the form wgmma.mMnNkK...");
    unsigned numC = m * n / 128, numA = m * k / 128;
    bool aShared = op->stringAttr("a") == "shared";
    unsigned first = aShared ? 4 : 2 + numA;
    if (op->numOperands() != first + numC || op->numResults() != numC)
      return error(op, "th.wgmma " + atom + " takes " + std::to_string(first + numC) + " operands and gives " +
                           std::to_string(numC) + " results");
    auto tile = [&](unsigned operand, const std::string &name) {
      llvm::Type *element = type(op->operand(operand)->type().pointee());
      TargetHooks::MatrixTile t;
      // An index that is another plus a constant (the k steps of a dot, from one origin):
      // the tile at the other's address and the constant's bytes past it.
      const Value *index = op->operand(operand + 1);
      const Op *def = index->definingOp();
      const Op *constant = def && def->is(OpCode::AddI) ? def->operand(1)->definingOp() : nullptr;
      unsigned bytes = unsigned(element->getPrimitiveSizeInBits() / 8);
      if (constant && constant->is(OpCode::Constant) && constant->attr("value").isInt() && bytes) {
        t.address = b.CreateInBoundsGEP(element, x(operand), value(def->operand(0)));
        t.offset = constant->attr("value").getInt() * int64_t(bytes);
      } else {
        t.address = b.CreateInBoundsGEP(element, x(operand), x(operand + 1));
      }
      t.mnMajor = op->stringAttr(name + "_major") == "mn";
      t.swizzle = op->intAttr(name + "_swizzle");
      t.sbo = op->intAttr(name + "_sbo");
      t.lbo = op->intAttr(name + "_lbo");
      return t;
    };
    TargetHooks::MatrixTile bt = tile(0, "b"), at;
    std::vector<llvm::Value *> all;
    for (unsigned i = 0; i < op->numOperands(); ++i)
      all.push_back(x(i));
    llvm::ArrayRef<llvm::Value *> ops(all);
    if (aShared)
      at = tile(2, "a");
    std::vector<llvm::Value *> d = hooks.warpgroupMultiply(b, atom, aShared ? &at : nullptr,
                                                           aShared ? llvm::ArrayRef<llvm::Value *>() : ops.slice(2, numA),
                                                           bt, ops.slice(first, numC));
    if (d.size() != numC)
      return unsupported();
    for (unsigned i = 0; i < numC; ++i)
      define(op->result(i), d[i]);
    return true;
  }
  case OpCode::ThWgmmaCommit: return hooks.warpgroupCommit(b) || unsupported();
  case OpCode::ThFenceAsyncShared: return hooks.fenceAsyncShared(b) || unsupported();
  case OpCode::ThWgmmaFence:
  case OpCode::ThWgmmaWait: {
    std::vector<llvm::Value *> values;
    for (unsigned i = 0; i < op->numOperands(); ++i)
      values.push_back(x(i));
    std::vector<llvm::Value *> out =
        op->is(OpCode::ThWgmmaFence) ? hooks.warpgroupFence(b, values)
                                     : hooks.warpgroupWait(b, static_cast<unsigned>(op->intAttr("pending")), values);
    if (out.size() != values.size())
      return unsupported();
    for (unsigned i = 0; i < op->numResults(); ++i)
      define(op->result(i), out[i]);
    return true;
  }
  case OpCode::ThMbarrierInit:
  case OpCode::ThAsyncArrive:
  case OpCode::ThMbarrierWait: {
    llvm::Value *barrier = b.CreateInBoundsGEP(b.getInt64Ty(), x(0), x(1));
    if (op->is(OpCode::ThMbarrierInit))
      return hooks.barrierInit(b, barrier, static_cast<unsigned>(op->intAttr("count")),
                               op->numOperands() > 2 ? x(2) : nullptr) ||
             unsupported();
    if (op->is(OpCode::ThAsyncArrive))
      return hooks.asyncArrive(b, barrier) || unsupported();
    return hooks.barrierWait(b, barrier, x(2)) || unsupported();
  }
  case OpCode::ThTmaArrive: {
    llvm::Value *barrier = b.CreateInBoundsGEP(b.getInt64Ty(), x(0), x(1));
    return hooks.tensorArrive(b, barrier, x(2), x(3)) || unsupported();
  }
  case OpCode::ThMbarrierArrive: {
    llvm::Value *barrier = b.CreateInBoundsGEP(b.getInt64Ty(), x(0), x(1));
    return hooks.barrierArrive(b, barrier, op->numOperands() > 2 ? x(2) : nullptr) || unsupported();
  }
  case OpCode::ThSetMaxNReg:
    return hooks.setMaxRegisters(b, static_cast<unsigned>(op->intAttr("count")), op->stringAttr("mode") == "inc") ||
           unsupported();
  case OpCode::ThTmaLoad: {
    llvm::Type *element = type(op->operand(0)->type().pointee());
    llvm::Value *destination = b.CreateInBoundsGEP(element, x(0), x(1));
    llvm::Value *barrier = b.CreateInBoundsGEP(b.getInt64Ty(), x(3), x(4));
    std::vector<llvm::Value *> coords;
    for (unsigned i = 6; i < op->numOperands(); ++i)
      coords.push_back(x(i));
    return hooks.tensorCopy(b, destination, x(2), barrier, x(5), coords) || unsupported();
  }
  case OpCode::ThAsyncCommit: return hooks.asyncCommit(b) || unsupported();
  case OpCode::ThAsyncWait: return hooks.asyncWait(b, static_cast<unsigned>(op->intAttr("pending"))) || unsupported();
  case OpCode::ThCoopLoad:
  case OpCode::ThCoopStore:
  case OpCode::ThCoopMma:
  case OpCode::ThCoopFill: return hooks.coopMatricesInOneThread() ? translateCoop(op) : unsupported();
  default: return error(op, std::string(op->name()) + " is not a matrix or async-copy op");
  }
}

} // namespace trident::llvmgen
