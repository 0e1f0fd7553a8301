#include "NVPTXHooks.h"

#include "trident/ir/MathOps.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

namespace trident::nvptx {

namespace {

llvm::Value *readRegister(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id) {
  llvm::Module *m = b.GetInsertBlock()->getModule();
  return b.CreateCall(llvm::Intrinsic::getDeclaration(m, id));
}

template <size_t N> llvm::Intrinsic::ID byAxis(int axis, const llvm::Intrinsic::ID (&ids)[N]) {
  return ids[axis >= 0 && axis < static_cast<int>(N) ? axis : 0];
}

} // namespace

llvm::Value *NVPTXHooks::threadId(llvm::IRBuilder<> &b) {
  return readRegister(b, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
}

llvm::Value *NVPTXHooks::programId(llvm::IRBuilder<> &b, int axis) {
  static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
  return readRegister(b, byAxis(axis, ids));
}

llvm::Value *NVPTXHooks::numPrograms(llvm::IRBuilder<> &b, int axis) {
  static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                            llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
  return readRegister(b, byAxis(axis, ids));
}

// With uniformWarpId_, the warp id is read from lane 0: the same value, but ptxas then
// knows it is uniform across the warp and keeps what is computed from it (wgmma
// descriptors, shared-memory bases) in uniform registers instead of one copy per thread.
// Measured on the H200: attention D=128 with 8 warps on wgmma 406 -> 444 TFLOP/s; but
// mma.sync kernels lost a fifth (tf32 matmul 134 -> 105, int8 342 -> 277), whose ldmatrix
// addresses mix warp and lane bits that LLVM otherwise folds into masks of the thread id.
// So the code generator turns it on only for kernels with warpgroup dots.
llvm::Value *NVPTXHooks::warpId(llvm::IRBuilder<> &b) {
  llvm::Value *warp = b.CreateLShr(threadId(b), 5);
  return uniformWarpId_ ? shuffle(b, warp, b.getInt32(0), "idx") : warp;
}

void NVPTXHooks::barrier(llvm::IRBuilder<> &b) { readRegister(b, llvm::Intrinsic::nvvm_barrier0); }

// The PTX memory model's fence-based mapping: a release is `fence.acq_rel` then the
// (relaxed, strong) atomic, an acquire the atomic then `fence.acq_rel`, at the atomic's
// scope. Without them a spin lock's acquire could read stale L1 lines and its release
// could pass the critical section's stores (layer norm's backward lost partial sums).
bool NVPTXHooks::atomicFence(llvm::IRBuilder<> &b, llvm::AtomicOrdering ordering, std::string_view scope,
                             bool before) {
  using O = llvm::AtomicOrdering;
  bool releases = ordering == O::Release || ordering == O::AcquireRelease || ordering == O::SequentiallyConsistent;
  bool acquires = ordering == O::Acquire || ordering == O::AcquireRelease || ordering == O::SequentiallyConsistent;
  if (before ? !releases : !acquires)
    return true;
  std::string text = std::string("fence.acq_rel.") + (scope == "cta" ? "cta" : scope == "sys" ? "sys" : "gpu") + ";";
  // A block's atomics are one instruction per register: the fence after one is the fence
  // before the next when nothing between them touches memory.
  llvm::BasicBlock *block = b.GetInsertBlock();
  for (auto it = b.GetInsertPoint(); it != block->begin();) {
    llvm::Instruction &prev = *--it;
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&prev))
      if (auto *asm_ = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()); asm_ && asm_->getAsmString() == text)
        return true;
    if (prev.mayReadOrWriteMemory() || prev.mayHaveSideEffects())
      break;
  }
  auto *type = llvm::FunctionType::get(b.getVoidTy(), false);
  b.CreateCall(llvm::InlineAsm::get(type, text, "~{memory}", /*hasSideEffects=*/true));
  return true;
}

llvm::Value *NVPTXHooks::shuffle(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *lane,
                                 std::string_view mode) {
  llvm::Intrinsic::ID id = llvm::Intrinsic::nvvm_shfl_sync_idx_i32;
  unsigned clamp = 0x1f; // the highest lane a shuffle may read (segment mask 0)
  if (mode == "xor") {
    id = llvm::Intrinsic::nvvm_shfl_sync_bfly_i32;
  } else if (mode == "down") {
    id = llvm::Intrinsic::nvvm_shfl_sync_down_i32;
  } else if (mode == "up") {
    id = llvm::Intrinsic::nvvm_shfl_sync_up_i32;
    clamp = 0;
  }
  llvm::Module *m = b.GetInsertBlock()->getModule();
  return b.CreateCall(llvm::Intrinsic::getDeclaration(m, id),
                      {b.getInt32(0xffffffffu), value, lane, b.getInt32(clamp)});
}

llvm::Value *NVPTXHooks::mathFunction(llvm::IRBuilder<> &b, OpCode code, llvm::ArrayRef<llvm::Value *> args) {
  const MathOpInfo *math = mathOpInfo(code);
  if (!math || !math->devlib)
    return nullptr; // the LLVM intrinsic
  llvm::Type *t = args[0]->getType();
  // f32 2^x as Triton computes it: ex2.approx.ftz.f32, within 2 ulp, results below 2^-126
  // flushed to zero. libdevice's exp2f is the same instruction without .ftz, which costs a
  // compare, a select and two multiplies around each one (a third of attention's softmax).
  if (code == OpCode::Exp2 && t->isFloatTy())
    return b.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_ftz_f, {}, args);
  // libdevice (MathOps.def's devlib): __nv_expf for float, __nv_exp for double.
  std::string fn = std::string("__nv_") + math->devlib + (t->isFloatTy() ? "f" : "");
  llvm::Module *m = b.GetInsertBlock()->getModule();
  std::vector<llvm::Type *> params(args.size(), t);
  llvm::FunctionCallee callee = m->getOrInsertFunction(fn, llvm::FunctionType::get(t, params, false));
  return b.CreateCall(callee, args);
}

llvm::Value *NVPTXHooks::approximateDivide(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
  if (!x->getType()->isFloatTy())
    return nullptr;
  // div.full.f32: Triton's f32 division, within 2 ulp, a few instructions instead of div.rn's dozens.
  auto *fnType = llvm::FunctionType::get(b.getFloatTy(), {b.getFloatTy(), b.getFloatTy()}, false);
  auto *asmCall = llvm::InlineAsm::get(fnType, "div.full.f32 $0, $1, $2;", "=f,f,f", false);
  return b.CreateCall(asmCall, {x, y});
}

void NVPTXHooks::markKernel(llvm::Function *f, unsigned numThreads) {
  llvm::LLVMContext &ctx = f->getContext();
  llvm::NamedMDNode *annotations = f->getParent()->getOrInsertNamedMetadata("nvvm.annotations");
  auto i32 = [&](unsigned v) {
    return llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), v));
  };
  llvm::Metadata *fn = llvm::ConstantAsMetadata::get(f);
  annotations->addOperand(llvm::MDNode::get(ctx, {fn, llvm::MDString::get(ctx, "kernel"), i32(1)}));
  annotations->addOperand(
      llvm::MDNode::get(ctx, {fn, llvm::MDString::get(ctx, "maxntidx"), i32(numThreads)}));
  // Parameters passed by value (tensor maps) are grid constants: their address is taken
  // (cvta.param) instead of copying them to local memory.
  std::vector<llvm::Metadata *> byval;
  for (unsigned i = 0; i < f->arg_size(); ++i)
    if (f->hasParamAttribute(i, llvm::Attribute::ByVal))
      byval.push_back(i32(i + 1));
  if (!byval.empty())
    annotations->addOperand(
        llvm::MDNode::get(ctx, {fn, llvm::MDString::get(ctx, "grid_constant"), llvm::MDNode::get(ctx, byval)}));
}

} // namespace trident::nvptx
