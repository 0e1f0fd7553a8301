// tt.elementwise_inline_asm (one instance: packed_element values of each operand, then
// of each result) as one LLVM inline-assembly call, packed as Triton packs it: values
// narrower than 32 bits share 32-bit registers, min(32 / bits, packed_element) to a
// vector; the call returns a struct when it has more than one register.
//
//   %r0, %r1 = tt.elementwise_inline_asm %a0, %a1 {packed_element = 2, constraints = "=r,r"} : f16, f16
// ->
//   %v = insertelement (insertelement <2 x half> poison, %a0, 0), %a1, 1
//   %o = call <2 x half> asm "...", "=r,r"(<2 x half> %v)
//   %r0 = extractelement %o, 0    %r1 = extractelement %o, 1
#include "Translator.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/Support/Error.h>

#include <algorithm>

namespace trident::llvmgen {

namespace {
// How many values of `t` share one asm register.
unsigned perRegister(llvm::Type *t, unsigned pack) {
  unsigned bits = (t->isIntegerTy() || t->isFloatingPointTy()) ? t->getPrimitiveSizeInBits().getFixedValue() : 64;
  return std::min(bits < 32 ? 32 / bits : 1u, pack);
}
} // namespace

bool Translator::translateInlineAsm(Op *op) {
  std::string_view language = hooks.inlineAsmLanguage();
  if (language.empty())
    return error(op, "tl.inline_asm_elementwise is not supported for target '" + std::string(hooks.triple()) +
                         "': Trident passes inline assembly through only for NVPTX (PTX) and AMDGPU");
  unsigned pack = static_cast<unsigned>(op->intAttr("packed_element"));
  std::vector<llvm::Value *> operands;
  for (unsigned i = 0; i < op->numOperands(); i += pack) {
    llvm::Type *t = type(op->operand(i)->type());
    unsigned per = perRegister(t, pack);
    for (unsigned j = 0; j < pack; j += per) {
      if (per == 1) {
        operands.push_back(value(op->operand(i + j)));
        continue;
      }
      llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(t, per));
      for (unsigned k = 0; k < per && j + k < pack; ++k)
        v = b.CreateInsertElement(v, value(op->operand(i + j + k)), b.getInt32(k));
      operands.push_back(v);
    }
  }
  std::vector<llvm::Type *> registers;
  for (unsigned i = 0; i < op->numResults(); i += pack) {
    llvm::Type *t = type(op->result(i)->type());
    unsigned per = perRegister(t, pack);
    if (pack % per)
      return error(op, "tl.inline_asm_elementwise: pack=" + std::to_string(pack) + " is not a multiple of the " +
                           std::to_string(per) + " results of this type that share a 32-bit register");
    for (unsigned j = 0; j < pack; j += per)
      registers.push_back(per == 1 ? t : llvm::FixedVectorType::get(t, per));
  }
  llvm::Type *returnType = registers.size() == 1 ? registers[0] : llvm::StructType::get(ctx, registers);
  std::vector<llvm::Type *> argTypes;
  for (llvm::Value *v : operands)
    argTypes.push_back(v->getType());
  auto *fnType = llvm::FunctionType::get(returnType, argTypes, false);
  std::string constraints = op->stringAttr("constraints");
  if (llvm::Error e = llvm::InlineAsm::verify(fnType, constraints)) {
    std::string why = llvm::toString(std::move(e));
    return error(op, "tl.inline_asm_elementwise: the constraints \"" + constraints + "\" do not fit its " +
                         std::to_string(operands.size()) + " input and " + std::to_string(registers.size()) +
                         " output register(s) (" + why + ")");
  }
  bool pure = op->attr("pure").isBool() && op->attr("pure").getBool();
  llvm::Value *call =
      b.CreateCall(llvm::InlineAsm::get(fnType, op->stringAttr("asm_string"), constraints, /*sideEffects=*/!pure),
                   operands);
  unsigned next = 0, reg = 0;
  for (unsigned i = 0; i < op->numResults(); i += pack)
    for (unsigned j = 0; j < pack; ++reg) {
      llvm::Value *r = registers.size() == 1 ? call : b.CreateExtractValue(call, reg);
      if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(r->getType())) {
        for (unsigned k = 0; k < vt->getNumElements(); ++k)
          define(op->result(next++), b.CreateExtractElement(r, b.getInt32(k)));
        j += vt->getNumElements();
      } else {
        define(op->result(next++), r);
        ++j;
      }
    }
  return true;
}

} // namespace trident::llvmgen
