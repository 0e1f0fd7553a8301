// AMD's matrix units: th.mma on an MFMA (gfx90a, gfx942) or WMMA (gfx1100) atom becomes
// one LLVM AMDGPU intrinsic, the lane's fragment registers packed into its vectors in
// the order of the atom's register bits (element r of a fragment is register r):
//
//   th.mma (v_mfma_f32_32x32x8f16: 4 + 4 + 16 registers) ->
//     %d = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %a, <4 x half> %b,
//                                                               <16 x float> %c, i32 0, i32 0, i32 0)
//     (cbsz, abid, blgp = 0: no broadcast between blocks, B lanes as they are)
//   th.mma (v_wmma_f32_16x16x16_f16: 16 + 16 + 8) ->
//     %d = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half> %a, <16 x half> %b,
//                                                                             <8 x float> %c)
//
// bf16 inputs travel as i16 (LLVM 19's signatures), int8 inputs packed four to a 32-bit
// word (i32, i64 or <4 x i32>), signed (the WMMA iu8 sign flags set, no clamping).
// LLVM places MFMA accumulators in AGPRs (or VGPRs on gfx90a+), as its allocator decides.
#include "AMDGPUHooks.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsAMDGPU.h>
#include <llvm/IR/Module.h>

#include <array>

namespace trident::amdgpu {

namespace {

enum class Unit { Mfma, Wmma, WmmaInt8 };
enum class Input { F16, BF16, I8 };

struct AmdAtom {
  std::string_view name; // MatrixAtom::name, as backends/amdgpu/lib/Target.cpp lists them
  llvm::Intrinsic::ID id;
  Unit unit;
  Input input;
  unsigned inputs, accumulators; // elements of A (and of B), of C, per lane
};

constexpr std::array kAtoms = {
    // gfx90a
    AmdAtom{"v_mfma_f32_32x32x8f16", llvm::Intrinsic::amdgcn_mfma_f32_32x32x8f16, Unit::Mfma, Input::F16, 4, 16},
    AmdAtom{"v_mfma_f32_16x16x16f16", llvm::Intrinsic::amdgcn_mfma_f32_16x16x16f16, Unit::Mfma, Input::F16, 4, 4},
    AmdAtom{"v_mfma_f32_32x32x8bf16_1k", llvm::Intrinsic::amdgcn_mfma_f32_32x32x8bf16_1k, Unit::Mfma, Input::BF16, 4,
            16},
    AmdAtom{"v_mfma_f32_16x16x16bf16_1k", llvm::Intrinsic::amdgcn_mfma_f32_16x16x16bf16_1k, Unit::Mfma, Input::BF16,
            4, 4},
    AmdAtom{"v_mfma_i32_32x32x8i8", llvm::Intrinsic::amdgcn_mfma_i32_32x32x8i8, Unit::Mfma, Input::I8, 4, 16},
    AmdAtom{"v_mfma_i32_16x16x16i8", llvm::Intrinsic::amdgcn_mfma_i32_16x16x16i8, Unit::Mfma, Input::I8, 4, 4},
    // gfx942: gfx940's names for the same intrinsics; its i8 atoms take 8 bytes a lane
    AmdAtom{"v_mfma_f32_32x32x8_f16", llvm::Intrinsic::amdgcn_mfma_f32_32x32x8f16, Unit::Mfma, Input::F16, 4, 16},
    AmdAtom{"v_mfma_f32_16x16x16_f16", llvm::Intrinsic::amdgcn_mfma_f32_16x16x16f16, Unit::Mfma, Input::F16, 4, 4},
    AmdAtom{"v_mfma_f32_32x32x8_bf16", llvm::Intrinsic::amdgcn_mfma_f32_32x32x8bf16_1k, Unit::Mfma, Input::BF16, 4,
            16},
    AmdAtom{"v_mfma_f32_16x16x16_bf16", llvm::Intrinsic::amdgcn_mfma_f32_16x16x16bf16_1k, Unit::Mfma, Input::BF16, 4,
            4},
    AmdAtom{"v_mfma_i32_32x32x16_i8", llvm::Intrinsic::amdgcn_mfma_i32_32x32x16_i8, Unit::Mfma, Input::I8, 8, 16},
    AmdAtom{"v_mfma_i32_16x16x32_i8", llvm::Intrinsic::amdgcn_mfma_i32_16x16x32_i8, Unit::Mfma, Input::I8, 8, 4},
    // gfx1100 (wave32)
    AmdAtom{"v_wmma_f32_16x16x16_f16", llvm::Intrinsic::amdgcn_wmma_f32_16x16x16_f16, Unit::Wmma, Input::F16, 16, 8},
    AmdAtom{"v_wmma_f32_16x16x16_bf16", llvm::Intrinsic::amdgcn_wmma_f32_16x16x16_bf16, Unit::Wmma, Input::BF16, 16,
            8},
    AmdAtom{"v_wmma_i32_16x16x16_iu8", llvm::Intrinsic::amdgcn_wmma_i32_16x16x16_iu8, Unit::WmmaInt8, Input::I8, 16,
            8},
};

const AmdAtom *findAtom(std::string_view name) {
  for (const AmdAtom &a : kAtoms)
    if (a.name == name)
      return &a;
  return nullptr;
}

llvm::Value *vectorOf(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> elements) {
  llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(elements[0]->getType(), elements.size()));
  for (size_t i = 0; i < elements.size(); ++i)
    v = b.CreateInsertElement(v, elements[i], b.getInt32(static_cast<uint32_t>(i)));
  return v;
}

// A or B as the intrinsic takes it: <N x half>, <N x i16> for bf16, and bytes packed into
// i32 (4), i64 (8) or <4 x i32> (16), element 0 in the lowest bits.
llvm::Value *inputOperand(llvm::IRBuilder<> &b, const AmdAtom &atom, llvm::ArrayRef<llvm::Value *> elements) {
  llvm::Value *v = vectorOf(b, elements);
  switch (atom.input) {
  case Input::F16: return v;
  case Input::BF16: return b.CreateBitCast(v, llvm::FixedVectorType::get(b.getInt16Ty(), atom.inputs));
  case Input::I8:
    if (atom.inputs == 16)
      return b.CreateBitCast(v, llvm::FixedVectorType::get(b.getInt32Ty(), 4));
    return b.CreateBitCast(v, b.getIntNTy(8 * atom.inputs));
  }
  return nullptr;
}

} // namespace

bool AMDGPUHooks::matrixFragments(std::string_view atom, unsigned &a, unsigned &b, unsigned &c) const {
  const AmdAtom *found = findAtom(atom);
  if (!found)
    return false;
  a = b = found->inputs;
  c = found->accumulators;
  return true;
}

std::vector<llvm::Value *> AMDGPUHooks::matrixMultiply(llvm::IRBuilder<> &b, std::string_view name,
                                                       llvm::ArrayRef<llvm::Value *> a,
                                                       llvm::ArrayRef<llvm::Value *> bv,
                                                       llvm::ArrayRef<llvm::Value *> c) {
  const AmdAtom *atom = findAtom(name);
  if (!atom || a.size() != atom->inputs || bv.size() != atom->inputs || c.size() != atom->accumulators)
    return {};
  // The MFMA atoms need gfx9's wave64, the WMMA ones gfx11's wave32.
  if ((atom->unit == Unit::Mfma) != !rdna_)
    return {};
  llvm::Value *va = inputOperand(b, *atom, a), *vb = inputOperand(b, *atom, bv), *vc = vectorOf(b, c);
  llvm::Module *m = b.GetInsertBlock()->getModule();
  llvm::Value *d = nullptr;
  switch (atom->unit) {
  case Unit::Mfma: {
    llvm::Function *f = llvm::Intrinsic::getDeclaration(m, atom->id);
    d = b.CreateCall(f, {va, vb, vc, b.getInt32(0), b.getInt32(0), b.getInt32(0)});
    break;
  }
  case Unit::Wmma: {
    llvm::Function *f = llvm::Intrinsic::getDeclaration(m, atom->id, {vc->getType(), va->getType()});
    d = b.CreateCall(f, {va, vb, vc});
    break;
  }
  case Unit::WmmaInt8: {
    llvm::Function *f = llvm::Intrinsic::getDeclaration(m, atom->id, {vc->getType(), va->getType()});
    d = b.CreateCall(f, {b.getTrue(), va, b.getTrue(), vb, vc, b.getFalse()});
    break;
  }
  }
  std::vector<llvm::Value *> out;
  for (unsigned i = 0; i < atom->accumulators; ++i)
    out.push_back(b.CreateExtractElement(d, b.getInt32(i)));
  return out;
}

} // namespace trident::amdgpu
