// The driver of the thread-IR -> LLVM IR translation: functions, types, value
// bookkeeping, predication, op dispatch and structured control flow.
#include "Translator.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

namespace trident::llvmgen {

Translator::Translator(const Op *func, llvm::Module &module, TargetHooks &hooks, Diagnostics &diags)
    : ctx(module.getContext()), module(module), hooks(hooks), diags(diags), b(module.getContext()),
      func_(func) {}

bool Translator::error(const Op *op, const std::string &message) {
  diags.error(op->loc(), message);
  return false;
}

llvm::Type *Translator::type(Type t) {
  switch (t.kind()) {
  case TypeKind::I1: return b.getInt1Ty();
  case TypeKind::I8: return b.getInt8Ty();
  case TypeKind::I16: return b.getInt16Ty();
  case TypeKind::I32: return b.getInt32Ty();
  case TypeKind::I64: return b.getInt64Ty();
  case TypeKind::F16: return b.getHalfTy();
  case TypeKind::BF16: return b.getBFloatTy();
  case TypeKind::F32: return b.getFloatTy();
  case TypeKind::F64: return b.getDoubleTy();
  case TypeKind::F8E4M3:
  case TypeKind::F8E5M2: return b.getInt8Ty(); // storage only
  case TypeKind::Ptr:
    return llvm::PointerType::get(ctx, t.addressSpace() == 3 ? hooks.sharedAddressSpace()
                                                             : hooks.globalAddressSpace());
  case TypeKind::Vector:
    return llvm::FixedVectorType::get(type(t.element()), static_cast<unsigned>(t.numElements()));
  case TypeKind::CoopMatrix: // a whole tile in one thread (TargetHooks::coopMatricesInOneThread)
    if (!hooks.coopMatricesInOneThread())
      break; // Vulkan's cooperative matrices have no LLVM form
    return llvm::ArrayType::get(llvm::FixedVectorType::get(type(t.element()), static_cast<unsigned>(t.shape()[1])),
                                static_cast<uint64_t>(t.shape()[0]));
  case TypeKind::Block: break;
  }
  return nullptr; // blocks never reach the translation (verifyThreadIR)
}

llvm::Value *Translator::value(const Value *v) const {
  auto it = values_.find(v);
  assert(it != values_.end() && "value used before it was translated");
  return it->second;
}

llvm::Function *Translator::intrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Type *> types) {
  return llvm::Intrinsic::getDeclaration(&module, id, types);
}

llvm::Value *Translator::predicated(llvm::Value *pred, const std::function<llvm::Value *()> &access,
                                    llvm::Value *otherwise, llvm::Type *resultType) {
  if (!pred)
    return access();
  if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(pred); c && c->isOne())
    return access();
  llvm::BasicBlock *from = b.GetInsertBlock();
  auto *then = llvm::BasicBlock::Create(ctx, "pred.then", function);
  auto *merge = llvm::BasicBlock::Create(ctx, "pred.merge", function);
  b.CreateCondBr(pred, then, merge);
  b.SetInsertPoint(then);
  llvm::Value *result = access();
  llvm::BasicBlock *thenEnd = b.GetInsertBlock();
  b.CreateBr(merge);
  b.SetInsertPoint(merge);
  if (!resultType || resultType->isVoidTy())
    return nullptr;
  llvm::PHINode *phi = b.CreatePHI(resultType, 2);
  phi->addIncoming(result, thenEnd);
  phi->addIncoming(otherwise ? otherwise : llvm::PoisonValue::get(resultType), from);
  return phi;
}

bool Translator::translateBlock(Block *block) {
  for (Op *op : *block) {
    if (op->has(kTerminator))
      break;
    if (!translateOp(op))
      return false;
  }
  return true;
}

bool Translator::translateOp(Op *op) {
  switch (op->code()) {
  case OpCode::For: return translateFor(op);
  case OpCode::If: return translateIf(op);
  case OpCode::While: return translateWhile(op);
  case OpCode::ThWarpSpecialize: return translateWarpSpecialize(op);
  case OpCode::ThLoad:
  case OpCode::ThStore:
  case OpCode::ThAtomicRMW:
  case OpCode::ThAtomicCAS:
  case OpCode::ThSharedAlloc:
  case OpCode::ThLoadShared:
  case OpCode::ThStoreShared: return translateMemory(op);
  case OpCode::ThThreadId:
  case OpCode::ThLaneId:
  case OpCode::ThWarpId:
  case OpCode::ThPack:
  case OpCode::ThExtract:
  case OpCode::ThShuffle:
  case OpCode::ThBarrier:
  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: return translateThreadOp(op);
  case OpCode::ThPrintf:
  case OpCode::ThAssert: return translateDebug(op);
  case OpCode::ElementwiseInlineAsm: return translateInlineAsm(op);
  case OpCode::ThMma:
  case OpCode::ThLdMatrix:
  case OpCode::ThAsyncCopy:
  case OpCode::ThAsyncCommit:
  case OpCode::ThMbarrierInit:
  case OpCode::ThAsyncArrive:
  case OpCode::ThMbarrierWait:
  case OpCode::ThTmaArrive:
  case OpCode::ThTmaLoad:
  case OpCode::ThMbarrierArrive:
  case OpCode::ThSetMaxNReg:
  case OpCode::ThAsyncWait:
  case OpCode::ThWgmma:
  case OpCode::ThWgmmaFence:
  case OpCode::ThWgmmaCommit:
  case OpCode::ThWgmmaWait:
  case OpCode::ThFenceAsyncShared:
  case OpCode::ThCoopLoad:
  case OpCode::ThCoopStore:
  case OpCode::ThCoopMma:
  case OpCode::ThCoopFill: return translateMatrix(op);
  default:
    // arith.mulf of two cooperative matrices (a scale per row, LowerCoopMatrix.cpp).
    if (op->numResults() == 1 && op->result()->type().isCoopMatrix() && hooks.coopMatricesInOneThread())
      return translateCoop(op);
    return translateArith(op);
  }
}

// ---- structured control flow ---------------------------------------------------

namespace {
std::vector<llvm::Value *> operandsOf(const Translator &t, const Op *op, unsigned first = 0) {
  std::vector<llvm::Value *> out;
  for (unsigned i = first; i < op->numOperands(); ++i)
    out.push_back(t.value(op->operand(i)));
  return out;
}
} // namespace

bool Translator::translateWarpSpecialize(Op *op) {
  if (partition_)
    return error(op, "cannot be nested in another th.warp_specialize");
  auto consumers = static_cast<unsigned>(op->intAttr("consumer_threads"));
  auto threads = static_cast<unsigned>(func_->intAttr("num_threads"));
  auto *producer = llvm::BasicBlock::Create(ctx, "ws.producer", function);
  auto *consumer = llvm::BasicBlock::Create(ctx, "ws.consumer", function);
  auto *exit = llvm::BasicBlock::Create(ctx, "ws.exit", function);
  b.CreateCondBr(b.CreateICmpUGE(hooks.threadId(b), b.getInt32(consumers)), producer, consumer);
  llvm::BasicBlock *entry[] = {producer, consumer};
  for (unsigned k = 0; k < 2; ++k) {
    b.SetInsertPoint(entry[k]);
    partition_ = Partition{k ? 1u : 2u, k ? consumers : threads - consumers}; // the consumers': barrier 1
    bool ok = translateBlock(op->region(k));
    partition_.reset();
    if (!ok)
      return false;
    b.CreateBr(exit);
  }
  b.SetInsertPoint(exit);
  return true;
}

// A subgroup barrier too: every thread reaches it, and the program's barrier orders what
// the warp's would (no LLVM target's lowering marks subgroup buffers yet).
bool Translator::barrier(Op *op) {
  if (!partition_) {
    hooks.barrier(b);
    return true;
  }
  if (!hooks.partitionBarrier(b, partition_->id, partition_->threads))
    return error(op, "this target has no barrier of some of a program's threads (th.warp_specialize)");
  return true;
}

bool Translator::translateFor(Op *op) {
  llvm::BasicBlock *pre = b.GetInsertBlock();
  auto *header = llvm::BasicBlock::Create(ctx, "for.header", function);
  auto *body = llvm::BasicBlock::Create(ctx, "for.body", function);
  auto *exit = llvm::BasicBlock::Create(ctx, "for.exit", function);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  Block *region = op->region();
  std::vector<llvm::PHINode *> phis;
  for (unsigned i = 0; i < region->numArguments(); ++i) {
    llvm::PHINode *phi = b.CreatePHI(type(region->argument(i)->type()), 2);
    phi->addIncoming(value(i == 0 ? op->operand(0) : op->operand(2 + i)), pre);
    define(region->argument(i), phi);
    phis.push_back(phi);
  }
  b.CreateCondBr(b.CreateICmpSLT(phis[0], value(op->operand(1))), body, exit);
  b.SetInsertPoint(body);
  llvm::BasicBlock *before = &function->back(); // blocks of the body come after it
  if (!translateBlock(region))
    return false;
  std::vector<llvm::Value *> yielded = operandsOf(*this, region->terminator());
  llvm::Value *next = b.CreateAdd(phis[0], value(op->operand(2)));
  llvm::BasicBlock *latch = b.GetInsertBlock();
  phis[0]->addIncoming(next, latch);
  for (size_t i = 0; i < yielded.size(); ++i)
    phis[i + 1]->addIncoming(yielded[i], latch);
  llvm::BranchInst *backedge = b.CreateBr(header);
  if (op->attr("parallel").isBool() && op->attr("parallel").getBool())
    markParallel(backedge, body, before);
  b.SetInsertPoint(exit);
  for (unsigned i = 0; i < op->numResults(); ++i)
    define(op->result(i), phis[i + 1]);
  return true;
}

// A loop whose iterations touch memory independently (the CPU's loops over a program's
// threads): every access of its body joins one access group, which the loop's
// metadata declares parallel, so LLVM's vectorizer needs no dependence checks.
void Translator::markParallel(llvm::BranchInst *backedge, llvm::BasicBlock *body, llvm::BasicBlock *before) {
  llvm::MDNode *group = llvm::MDNode::getDistinct(ctx, {});
  auto mark = [&](llvm::BasicBlock &block) {
    for (llvm::Instruction &inst : block)
      if (inst.mayReadOrWriteMemory())
        inst.setMetadata(llvm::LLVMContext::MD_access_group, group);
  };
  mark(*body);
  for (auto it = std::next(before->getIterator()); it != function->end(); ++it)
    mark(*it);
  llvm::Metadata *parallel[] = {llvm::MDString::get(ctx, "llvm.loop.parallel_accesses"), group};
  llvm::TempMDTuple self = llvm::MDNode::getTemporary(ctx, {});
  llvm::Metadata *loop[] = {self.get(), llvm::MDNode::get(ctx, parallel)};
  llvm::MDNode *id = llvm::MDNode::getDistinct(ctx, loop);
  id->replaceOperandWith(0, id);
  backedge->setMetadata(llvm::LLVMContext::MD_loop, id);
}

bool Translator::translateIf(Op *op) {
  auto *thenBlock = llvm::BasicBlock::Create(ctx, "if.then", function);
  auto *elseBlock = llvm::BasicBlock::Create(ctx, "if.else", function);
  auto *merge = llvm::BasicBlock::Create(ctx, "if.end", function);
  b.CreateCondBr(value(op->operand(0)), thenBlock, elseBlock);
  std::vector<std::pair<std::vector<llvm::Value *>, llvm::BasicBlock *>> arms;
  for (unsigned k = 0; k < 2; ++k) {
    b.SetInsertPoint(k == 0 ? thenBlock : elseBlock);
    Block *region = op->region(k);
    if (!translateBlock(region))
      return false;
    std::vector<llvm::Value *> yielded;
    if (Op *term = region->terminator())
      yielded = operandsOf(*this, term);
    arms.push_back({yielded, b.GetInsertBlock()});
    b.CreateBr(merge);
  }
  b.SetInsertPoint(merge);
  for (unsigned i = 0; i < op->numResults(); ++i) {
    llvm::PHINode *phi = b.CreatePHI(type(op->result(i)->type()), 2);
    for (auto &[yielded, from] : arms)
      phi->addIncoming(yielded[i], from);
    define(op->result(i), phi);
  }
  return true;
}

bool Translator::translateWhile(Op *op) {
  llvm::BasicBlock *pre = b.GetInsertBlock();
  auto *before = llvm::BasicBlock::Create(ctx, "while.before", function);
  auto *after = llvm::BasicBlock::Create(ctx, "while.after", function);
  auto *exit = llvm::BasicBlock::Create(ctx, "while.exit", function);
  b.CreateBr(before);
  b.SetInsertPoint(before);
  Block *beforeRegion = op->region(0), *afterRegion = op->region(1);
  std::vector<llvm::PHINode *> phis;
  for (unsigned i = 0; i < beforeRegion->numArguments(); ++i) {
    llvm::PHINode *phi = b.CreatePHI(type(beforeRegion->argument(i)->type()), 2);
    phi->addIncoming(value(op->operand(i)), pre);
    define(beforeRegion->argument(i), phi);
    phis.push_back(phi);
  }
  if (!translateBlock(beforeRegion))
    return false;
  Op *cond = beforeRegion->terminator();
  std::vector<llvm::Value *> forwarded = operandsOf(*this, cond, 1);
  b.CreateCondBr(value(cond->operand(0)), after, exit);
  // The after region and the exit are reached only from here: the forwarded values
  // dominate both, so they need no phis.
  for (unsigned i = 0; i < afterRegion->numArguments(); ++i)
    define(afterRegion->argument(i), forwarded[i]);
  for (unsigned i = 0; i < op->numResults(); ++i)
    define(op->result(i), forwarded[i]);
  b.SetInsertPoint(after);
  if (!translateBlock(afterRegion))
    return false;
  std::vector<llvm::Value *> yielded = operandsOf(*this, afterRegion->terminator());
  for (size_t i = 0; i < yielded.size(); ++i)
    phis[i]->addIncoming(yielded[i], b.GetInsertBlock());
  b.CreateBr(before);
  b.SetInsertPoint(exit);
  return true;
}

// ---- functions ---------------------------------------------------------------------

bool Translator::run() {
  // Tensor maps (the last parameters, simt/Tma.h): 128-byte parameters passed by value,
  // read in place through their generic address (NVPTX marks them grid constants).
  const Attribute &maps = func_->attr("tensor_maps");
  unsigned numArgs = func_->region()->numArguments();
  unsigned firstMap = numArgs - (maps.isInts() ? unsigned(maps.getInts().size() / 19) : 0);
  std::vector<llvm::Type *> params;
  for (Type t : func::argumentTypes(func_))
    params.push_back(params.size() < firstMap ? type(t) : llvm::PointerType::get(ctx, 0));
  for (llvm::Type *t : hooks.extraParameters(ctx))
    params.push_back(t);
  auto *fnType = llvm::FunctionType::get(b.getVoidTy(), params, false);
  function =
      llvm::Function::Create(fnType, llvm::Function::ExternalLinkage, std::string(func::name(func_)), module);
  for (unsigned i = 0; i < func_->region()->numArguments(); ++i)
    define(func_->region()->argument(i), function->getArg(i));
  for (unsigned i = firstMap; i < numArgs; ++i) {
    function->addParamAttr(i, llvm::Attribute::getWithByValType(ctx, llvm::ArrayType::get(b.getInt8Ty(), 128)));
    function->addParamAttr(i, llvm::Attribute::getWithAlignment(ctx, llvm::Align(64)));
  }
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", function));
  if (!translateBlock(func_->region()))
    return false;
  b.CreateRetVoid();
  const Attribute &threads = func_->attr("num_threads");
  hooks.markKernel(function, threads.isInt() ? static_cast<unsigned>(threads.getInt()) : 128);
  return true;
}

std::unique_ptr<llvm::Module> translateToLLVM(const Module &threadIR, llvm::LLVMContext &context,
                                              TargetHooks &hooks, Diagnostics &diags) {
  auto module = std::make_unique<llvm::Module>("trident", context);
  module->setTargetTriple(std::string(hooks.triple()));
  for (Op *f : threadIR.functions()) {
    Translator t(f, *module, hooks, diags);
    if (!t.run())
      return nullptr;
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*module, &os)) {
    diags.error(Location(), "internal error: the LLVM IR translated from thread IR is invalid: " + os.str());
    return nullptr;
  }
  return module;
}

} // namespace trident::llvmgen
