#include "AMDGPUHooks.h"

#include "trident/backends/amdgpu/Target.h"
#include "trident/ir/MathOps.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsAMDGPU.h>
#include <llvm/IR/Module.h>

namespace trident::amdgpu {

namespace {

// DPP controls (AMD ISA manuals, "DPP_CTRL"): quad_perm selects a lane of the quad
// for each of its four lanes; row_* act within rows of 16 lanes.
constexpr unsigned quadPerm(unsigned l0, unsigned l1, unsigned l2, unsigned l3) {
  return l0 | l1 << 2 | l2 << 4 | l3 << 6;
}
constexpr unsigned kRowRotateRight8 = 0x128; // row_ror:8 (lane i reads lane (i + 8) % 16: xor 8)
constexpr unsigned kRowMirror = 0x140;       // lane i reads lane 15 - i: xor 15
constexpr unsigned kRowHalfMirror = 0x141;   // lane i reads lane 7 - i within 8: xor 7
constexpr unsigned kRowXMask0 = 0x160;       // gfx10+: row_xmask:m, lane i reads lane i ^ m

llvm::Function *declaration(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id, llvm::Type *overload = nullptr) {
  llvm::Module *m = b.GetInsertBlock()->getModule();
  if (llvm::Intrinsic::isOverloaded(id))
    return llvm::Intrinsic::getDeclaration(m, id, {overload ? overload : b.getInt32Ty()});
  return llvm::Intrinsic::getDeclaration(m, id);
}

template <size_t N> llvm::Intrinsic::ID byAxis(int axis, const llvm::Intrinsic::ID (&ids)[N]) {
  return ids[axis >= 0 && axis < static_cast<int>(N) ? axis : 0];
}

} // namespace

AMDGPUHooks::AMDGPUHooks(std::string arch)
    : arch_(std::move(arch)), waveSize_(wavefrontSize(arch_)), rdna_(!arch_.starts_with("gfx9")) {}

llvm::Value *AMDGPUHooks::threadId(llvm::IRBuilder<> &b) {
  return b.CreateCall(declaration(b, llvm::Intrinsic::amdgcn_workitem_id_x));
}

llvm::Value *AMDGPUHooks::programId(llvm::IRBuilder<> &b, int axis) {
  static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::amdgcn_workgroup_id_x,
                                            llvm::Intrinsic::amdgcn_workgroup_id_y,
                                            llvm::Intrinsic::amdgcn_workgroup_id_z};
  return b.CreateCall(declaration(b, byAxis(axis, ids)));
}

llvm::Value *AMDGPUHooks::numPrograms(llvm::IRBuilder<> &b, int axis) {
  // ockl reads the work-group count from the implicit kernel arguments of the code
  // object ABI in use (__oclc_ABI_version), so the kernel need not know their layout.
  llvm::Module *m = b.GetInsertBlock()->getModule();
  llvm::FunctionCallee fn = m->getOrInsertFunction(
      "__ockl_get_num_groups", llvm::FunctionType::get(b.getInt64Ty(), {b.getInt32Ty()}, false));
  llvm::Value *groups =
      b.CreateCall(fn, {b.getInt32(static_cast<uint32_t>(axis >= 0 && axis < 3 ? axis : 0))});
  return b.CreateTrunc(groups, b.getInt32Ty());
}

void AMDGPUHooks::barrier(llvm::IRBuilder<> &b) {
  // s_barrier alone does not order memory: release the work-group's LDS and global
  // writes before it and acquire them after it.
  llvm::SyncScope::ID workgroup = b.getContext().getOrInsertSyncScopeID("workgroup");
  b.CreateFence(llvm::AtomicOrdering::Release, workgroup);
  b.CreateCall(declaration(b, llvm::Intrinsic::amdgcn_s_barrier));
  b.CreateFence(llvm::AtomicOrdering::Acquire, workgroup);
}

llvm::Value *AMDGPUHooks::dpp(llvm::IRBuilder<> &b, llvm::Value *value, unsigned control) {
  // All rows and banks written; a lane whose source is disabled keeps its own value.
  return b.CreateCall(declaration(b, llvm::Intrinsic::amdgcn_update_dpp),
                      {value, value, b.getInt32(control), b.getInt32(0xf), b.getInt32(0xf), b.getFalse()});
}

llvm::Value *AMDGPUHooks::permute(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *source) {
  // ds_bpermute addresses lanes in bytes; it reaches every lane of the wave.
  llvm::Value *address = b.CreateShl(source, 2);
  return b.CreateCall(declaration(b, llvm::Intrinsic::amdgcn_ds_bpermute), {address, value});
}

llvm::Value *AMDGPUHooks::xorShuffle(llvm::IRBuilder<> &b, llvm::Value *value, uint64_t mask) {
  mask &= waveSize_ - 1;
  if (mask == 0)
    return value;
  switch (mask) {
  case 1: return dpp(b, value, quadPerm(1, 0, 3, 2));
  case 2: return dpp(b, value, quadPerm(2, 3, 0, 1));
  case 3: return dpp(b, value, quadPerm(3, 2, 1, 0));
  default: break;
  }
  if (rdna_) {
    // Wave32: row_xmask within 16 lanes, v_permlanex16 across the two rows.
    if (mask & 16) {
      // Lane i of one row reads lane i of the other: nibble i of the selectors is i.
      value = b.CreateCall(declaration(b, llvm::Intrinsic::amdgcn_permlanex16),
                           {value, value, b.getInt32(0x76543210),
                            b.getInt32(static_cast<int32_t>(0xfedcba98u)), b.getFalse(), b.getFalse()});
      return xorShuffle(b, value, mask & 15);
    }
    return dpp(b, value, kRowXMask0 + static_cast<unsigned>(mask));
  }
  // Wave64 (gfx9): DPP row ops where one equals the xor, ds_swizzle within 32
  // lanes, ds_bpermute across the halves.
  if (mask == 7)
    return dpp(b, value, kRowHalfMirror);
  if (mask == 8)
    return dpp(b, value, kRowRotateRight8);
  if (mask == 15)
    return dpp(b, value, kRowMirror);
  if (mask < 32) {
    // Bit-mask mode: lane' = ((lane & and_mask) | or_mask) ^ xor_mask within 32 lanes.
    unsigned offset = 0x1f | static_cast<unsigned>(mask) << 10;
    return b.CreateCall(declaration(b, llvm::Intrinsic::amdgcn_ds_swizzle), {value, b.getInt32(offset)});
  }
  return permute(b, value, b.CreateXor(laneId(b), b.getInt32(static_cast<uint32_t>(mask))));
}

llvm::Value *AMDGPUHooks::shuffle(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *lane,
                                  std::string_view mode) {
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(lane);
  if (mode == "xor") {
    if (constant)
      return xorShuffle(b, value, constant->getZExtValue());
    return permute(b, value, b.CreateXor(laneId(b), lane));
  }
  if (mode == "idx") {
    // A broadcast of one known lane is a scalar read of that lane.
    if (constant)
      return b.CreateCall(
          declaration(b, llvm::Intrinsic::amdgcn_readlane),
          {value, b.getInt32(static_cast<uint32_t>(constant->getZExtValue() & (waveSize_ - 1)))});
    return permute(b, value, lane);
  }
  // up / down: lanes whose source falls outside the wave keep their own value.
  llvm::Value *self = laneId(b);
  llvm::Value *source, *inside;
  if (mode == "up") {
    source = b.CreateSub(self, lane);
    inside = b.CreateICmpUGE(self, lane);
  } else {
    source = b.CreateAdd(self, lane);
    inside = b.CreateICmpULT(source, b.getInt32(waveSize_));
  }
  return permute(b, value, b.CreateSelect(inside, source, self));
}

llvm::Value *AMDGPUHooks::mathFunction(llvm::IRBuilder<> &b, OpCode code,
                                       llvm::ArrayRef<llvm::Value *> args) {
  const MathOpInfo *math = mathOpInfo(code);
  if (!math || !math->devlib)
    return nullptr; // the LLVM intrinsic
  // ocml (MathOps.def's devlib): __ocml_exp_f32 for float, __ocml_exp_f64 for double.
  llvm::Type *t = args[0]->getType();
  std::string fn = std::string("__ocml_") + math->devlib + (t->isFloatTy() ? "_f32" : "_f64");
  llvm::Module *m = b.GetInsertBlock()->getModule();
  std::vector<llvm::Type *> params(args.size(), t);
  llvm::FunctionCallee callee = m->getOrInsertFunction(fn, llvm::FunctionType::get(t, params, false));
  return b.CreateCall(callee, args);
}

void AMDGPUHooks::markKernel(llvm::Function *f, unsigned numThreads) {
  f->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
  // Every launch uses exactly numThreads work-items per work-group, in whole work-groups.
  f->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(numThreads));
  f->addFnAttr("uniform-work-group-size", "true");
  if (wavesPerEU_ > 0)
    f->addFnAttr("amdgpu-waves-per-eu", std::to_string(wavesPerEU_));
}

// Cache hints: AMD GPUs have no counterpart of most of PTX's cache operators. What
// maps is "use once": streaming stores (cs), loads and stores marked evict_first
// become !nontemporal (LLVM sets the slc/nt bits); cv loads (fetch again, do not
// cache) become volatile (glc). The rest (ca, cg, wb, wt, evict_last) only tune
// caching and are dropped.
namespace {
bool isStreaming(const llvmgen::CacheHints &hints, bool isLoad) {
  return hints.eviction == "evict_first" || (!isLoad && hints.cache == "cs");
}
void markNontemporal(llvm::Instruction *access) {
  llvm::LLVMContext &ctx = access->getContext();
  llvm::Metadata *one =
      llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1));
  access->setMetadata(llvm::LLVMContext::MD_nontemporal, llvm::MDNode::get(ctx, {one}));
}
} // namespace

llvm::Value *AMDGPUHooks::cachedLoad(llvm::IRBuilder<> &b, llvm::Type *type, llvm::Value *ptr, llvm::Align align,
                                     const llvmgen::CacheHints &hints) {
  bool refetch = hints.cache == "cv", streaming = isStreaming(hints, true);
  if (!refetch && !streaming)
    return nullptr;
  llvm::LoadInst *load = b.CreateAlignedLoad(type, ptr, align, /*isVolatile=*/refetch);
  if (streaming)
    markNontemporal(load);
  return load;
}

bool AMDGPUHooks::cachedStore(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Value *ptr, llvm::Align align,
                              const llvmgen::CacheHints &hints, llvm::Value *pred) {
  if (pred || !isStreaming(hints, false))
    return false; // masked: the translation's branch, with this hook inside it
  markNontemporal(b.CreateAlignedStore(value, ptr, align));
  return true;
}

bool AMDGPUHooks::assertFail(llvm::IRBuilder<> &b, std::string_view, std::string_view, unsigned,
                             std::string_view) {
  llvm::Module *m = b.GetInsertBlock()->getModule();
  b.CreateCall(llvm::Intrinsic::getDeclaration(m, llvm::Intrinsic::trap));
  return true;
}

} // namespace trident::amdgpu
