#include "CpuHooks.h"

#include "CpuChecks.h"

#include "trident/ir/MathOps.h"

#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

namespace trident::cpu {

llvm::Value *CpuHooks::extra(llvm::IRBuilder<> &b, unsigned i) {
  llvm::Function *f = b.GetInsertBlock()->getParent();
  return f->getArg(f->arg_size() - kExtraParameters + i);
}

std::vector<llvm::Type *> CpuHooks::extraParameters(llvm::LLVMContext &ctx) {
  std::vector<llvm::Type *> types(6, llvm::Type::getInt32Ty(ctx));
  types.push_back(llvm::PointerType::get(ctx, 0));
  return types;
}

llvm::Value *CpuHooks::mathFunction(llvm::IRBuilder<> &b, OpCode code, llvm::ArrayRef<llvm::Value *> args) {
  const MathOpInfo *math = mathOpInfo(code);
  if (!math || !math->libm)
    return nullptr; // the LLVM intrinsic
  // The C library (MathOps.def's libm): erff for float, erf for double.
  llvm::Type *t = args[0]->getType();
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  std::string name = std::string(math->libm) + (t->isDoubleTy() ? "" : "f");
  std::vector<llvm::Type *> params(args.size(), t);
  llvm::FunctionCallee fn = m.getOrInsertFunction(name, llvm::FunctionType::get(t, params, false));
  return b.CreateCall(fn, args);
}

bool CpuHooks::printf(llvm::IRBuilder<> &b, std::string_view format, llvm::ArrayRef<llvm::Value *> args) {
  if (CheckSite site; parseCheckFormat(format, site) && args.size() == 1) {
    boundsCheck(b, site, args[0]);
    return true;
  }
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  auto *type = llvm::FunctionType::get(b.getInt32Ty(), {b.getPtrTy()}, /*isVarArg=*/true);
  llvm::FunctionCallee callee = m.getOrInsertFunction("printf", type);
  std::vector<llvm::Value *> operands{b.CreateGlobalStringPtr(format)};
  operands.insert(operands.end(), args.begin(), args.end());
  b.CreateCall(callee, operands);
  return true;
}

// if (!trident_cpu_check(address, bytes, op, where, x, y, z)) return; the access follows.
void CpuHooks::boundsCheck(llvm::IRBuilder<> &b, const CheckSite &site, llvm::Value *address) {
  llvm::Function *f = b.GetInsertBlock()->getParent();
  llvm::Module &m = *f->getParent();
  auto *type = llvm::FunctionType::get(
      b.getInt32Ty(), {b.getInt64Ty(), b.getInt32Ty(), b.getPtrTy(), b.getPtrTy(), b.getInt32Ty(), b.getInt32Ty(),
                       b.getInt32Ty()},
      false);
  llvm::FunctionCallee callee = m.getOrInsertFunction(kCheckSymbol, type);
  if (auto *declared = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
    declared->setDoesNotThrow();
  llvm::Value *ok = b.CreateCall(callee, {address, b.getInt32(site.bytes), b.CreateGlobalStringPtr(site.op),
                                          b.CreateGlobalStringPtr(site.where), extra(b, 0), extra(b, 1), extra(b, 2)});
  auto *pass = llvm::BasicBlock::Create(b.getContext(), "check.ok", f);
  auto *stop = llvm::BasicBlock::Create(b.getContext(), "check.fail", f);
  b.CreateCondBr(b.CreateICmpNE(ok, b.getInt32(0)), pass, stop, llvm::MDBuilder(b.getContext()).createLikelyBranchWeights());
  b.SetInsertPoint(stop);
  b.CreateRetVoid(); // the program ends (thread IR holds only kernels: calls are inlined before the lowering)
  b.SetInsertPoint(pass);
}

bool CpuHooks::assertFail(llvm::IRBuilder<> &b, std::string_view message, std::string_view file, unsigned line,
                          std::string_view function) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  auto *type = llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), b.getPtrTy(), b.getInt32Ty(), b.getPtrTy()},
                                       false);
  llvm::FunctionCallee callee = m.getOrInsertFunction(kAssertFailSymbol, type);
  b.CreateCall(callee, {b.CreateGlobalStringPtr(message), b.CreateGlobalStringPtr(file), b.getInt32(line),
                        b.CreateGlobalStringPtr(function)});
  // The program ends here; the code after it (reached from nowhere) keeps the builder
  // where the translation expects it.
  b.CreateRetVoid();
  b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "after.assert", b.GetInsertBlock()->getParent()));
  return true;
}

void CpuHooks::markKernel(llvm::Function *f, unsigned) {
  // Called only from the program loop of the entry (CpuCodeGen.cpp), which inlines it.
  f->setLinkage(llvm::GlobalValue::InternalLinkage);
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
}

} // namespace trident::cpu
