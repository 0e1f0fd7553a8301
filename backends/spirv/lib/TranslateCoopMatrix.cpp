// Cooperative matrices (SPV_KHR_cooperative_matrix, subgroup scope): th.coop_load and
// th.coop_store move a tile between a shared-memory allocation and a coopmat value,
// th.coop_mma is OpCooperativeMatrixMulAddKHR, th.coop_fill an OpCompositeConstruct of
// one element, arith.mulf of two matrices an OpFMul of them (element by element),
// th.coop_extract / th.coop_insert an OpCompositeExtract / OpCompositeInsert of one
// component (the same words in SPV_NV_cooperative_matrix, which bookworm validates). The
// extension needs the Vulkan memory model; the module declares it (ModuleWriter picks
// the Vulkan memory model when the capability is there), with device scope, which
// Trident's atomics use. Matrices of bf16 (SPV_KHR_bfloat16: A and B only) have
// `OpTypeFloat 16 BFloat16KHR` components and are loaded from the u16 words that hold
// bf16 in shared memory (the load's pointer type need not be its component type; the
// stride counts u16 elements, which are bf16 elements).
//
//   %a = th.coop_load %sa, %i {layout = "row", stride = 32} : coopmat<16x16xf16, a>
// ->
//   %p = OpAccessChain %ptr_Workgroup_half %sa %uint_0 %i
//   %a = OpCooperativeMatrixLoadKHR %coopmat_a %p %uint_0(RowMajorKHR) %uint_32
#include "Translator.h"

#include <algorithm>

namespace trident::spirv {

namespace {

// The Workgroup pointer to element `index` of allocation `alloc` (explicit layouts only:
// the lowering offers cooperative matrices only where the device has them).
bool elementPointer(Translator &t, Op *op, uint32_t &out) {
  if (t.sharedLayout() != SharedLayout::Block)
    return t.error(op, "needs VK_KHR_workgroup_memory_explicit_layout with placed allocations (the SIMT lowering "
                       "uses cooperative matrices only where the device has it)");
  Value *alloc = op->operand(0);
  uint32_t mem = t.memoryType(alloc->type().pointee());
  out = t.emit(Spv::AccessChain, t.w.pointerType(StorageClass::Workgroup, mem),
               {t.scalar(alloc), t.u32(0), t.scalar(op->operand(1))});
  return true;
}

uint32_t layoutOf(Translator &t, Op *op) {
  return t.u32(op->stringAttr("layout") == "col" ? kCoopMatrixColumnMajor : kCoopMatrixRowMajor);
}

} // namespace

bool translateCoopMatrix(Translator &t, Op *op) {
  t.require(kCooperativeMatrix); // the Vulkan memory model: CodeGen.cpp declares it
  // A bf16 matrix is only loaded and multiplied: its other uses would need bf16 scalars
  // (fills) or arithmetic that SPV_KHR_bfloat16 does not give, and no bf16 shape has a bf16 result.
  auto bf16Matrix = [](Value *v) { return v->type().isCoopMatrix() && v->type().element() == Type::bf16(); };
  bool touchesBf16 = std::any_of(op->operands().begin(), op->operands().end(), bf16Matrix) ||
                     (op->numResults() && bf16Matrix(op->result()));
  if (touchesBf16 && !op->is(OpCode::ThCoopLoad) && !(op->is(OpCode::ThCoopMma) && !bf16Matrix(op->result())))
    return t.error(op, "bf16 cooperative matrices are only loaded and multiplied");
  switch (op->code()) {
  case OpCode::ThCoopLoad: {
    uint32_t ptr = 0;
    if (!elementPointer(t, op, ptr))
      return false;
    uint32_t stride = t.u32(uint32_t(op->intAttr("stride")));
    t.set(op->result(), {t.emit(Spv::CooperativeMatrixLoadKHR, t.valueType(op->result()->type()),
                                {ptr, layoutOf(t, op), stride})});
    return true;
  }
  case OpCode::ThCoopStore: {
    uint32_t ptr = 0;
    if (!elementPointer(t, op, ptr))
      return false;
    uint32_t stride = t.u32(uint32_t(op->intAttr("stride")));
    t.emitVoid(Spv::CooperativeMatrixStoreKHR, {ptr, t.scalar(op->operand(2)), layoutOf(t, op), stride});
    return true;
  }
  case OpCode::ThCoopMma: {
    Type result = op->result()->type();
    // Trident's integer dots are signed (i8 x i8 -> i32).
    uint32_t operands = result.element().isInteger()
                            ? kCoopMatrixSignedA | kCoopMatrixSignedB | kCoopMatrixSignedC | kCoopMatrixSignedResult
                            : 0;
    std::vector<uint32_t> args{t.scalar(op->operand(0)), t.scalar(op->operand(1)), t.scalar(op->operand(2))};
    if (operands)
      args.push_back(operands);
    t.set(op->result(), {t.emit(Spv::CooperativeMatrixMulAddKHR, t.valueType(result), args)});
    return true;
  }
  case OpCode::MulF: // component-wise on matrices of one type (the SPV_KHR_cooperative_matrix arithmetic)
    t.set(op->result(), {t.emit(Spv::FMul, t.valueType(op->result()->type()),
                                {t.scalar(op->operand(0)), t.scalar(op->operand(1))})});
    return true;
  case OpCode::ThCoopFill:
    t.set(op->result(), {t.emit(Spv::CompositeConstruct, t.valueType(op->result()->type()),
                                {t.scalar(op->operand(0))})});
    return true;
  case OpCode::ThCoopExtract: // one component of this invocation's part (SPIR-V: an implementation's choice)
    t.require(kCoopMatrixNvidiaLayouts); // the lowering's only source of known layouts
    t.set(op->result(), {t.emit(Spv::CompositeExtract, t.valueType(op->result()->type()),
                                {t.scalar(op->operand(0)), uint32_t(op->intAttr("index"))})});
    return true;
  case OpCode::ThCoopInsert:
    t.require(kCoopMatrixNvidiaLayouts);
    t.set(op->result(), {t.emit(Spv::CompositeInsert, t.valueType(op->result()->type()),
                                {t.scalar(op->operand(1)), t.scalar(op->operand(0)), uint32_t(op->intAttr("index"))})});
    return true;
  default: return t.error(op, "cannot be translated");
  }
}

} // namespace trident::spirv
