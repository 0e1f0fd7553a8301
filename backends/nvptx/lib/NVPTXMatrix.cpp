// NVIDIA's matrix units and asynchronous copies as inline PTX (LLVM 19's NVVM
// intrinsics cover mma and ldmatrix only in part, and cp.async without its
// zero-filling source size):
//
//   th.mma (m16n8k16 f16, 8 + 4 + 4 registers) ->
//     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, ...}, {%r1, ...}, {%r5, %r6}, {%f5, ...};
//   th.ldmatrix {count = 4, trans = 1} -> ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {...}, [%rd1];
//   th.async_copy {bytes = 16}, %pred  -> cp.async.cg.shared.global [%rd1], [%rd2], 16, %r1;  (%r1 = pred ? 16 : 0)
//
// Operands narrower than 32 bits travel packed in 32-bit registers, in order (the
// fragment layouts of the PTX ISA number elements within a register from its low half).
// tf32 operands are rounded from f32 with cvt.rna.tf32.f32 first.
#include "NVPTXHooks.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Module.h>

#include <sstream>

namespace trident::nvptx {

namespace {

llvm::Value *inlineAsm(llvm::IRBuilder<> &b, llvm::Type *result, const std::string &text,
                       const std::string &constraints, llvm::ArrayRef<llvm::Value *> args, bool sideEffects) {
  std::vector<llvm::Type *> types;
  for (llvm::Value *v : args)
    types.push_back(v->getType());
  auto *fn = llvm::FunctionType::get(result, types, false);
  return b.CreateCall(llvm::InlineAsm::get(fn, text, constraints, sideEffects), args);
}

// Elements packed into 32-bit words, `32 / bits` per word, the first in the low bits.
std::vector<llvm::Value *> packWords(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> elements, bool tf32) {
  std::vector<llvm::Value *> words;
  llvm::Type *t = elements[0]->getType();
  unsigned bits = t->getPrimitiveSizeInBits();
  if (tf32) {
    for (llvm::Value *e : elements)
      words.push_back(inlineAsm(b, b.getInt32Ty(), "cvt.rna.tf32.f32 $0, $1;", "=r,f", {e}, false));
    return words;
  }
  unsigned per = 32 / bits;
  for (size_t i = 0; i < elements.size(); i += per) {
    llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(t, per));
    for (unsigned j = 0; j < per; ++j)
      v = b.CreateInsertElement(v, elements[i + j], b.getInt32(j));
    words.push_back(b.CreateBitCast(v, b.getInt32Ty()));
  }
  return words;
}

std::string registers(unsigned first, unsigned count) {
  std::ostringstream s;
  s << "{";
  for (unsigned i = 0; i < count; ++i)
    s << (i ? ", " : "") << "$" << first + i;
  s << "}";
  return s.str();
}

llvm::Value *sharedAddress(llvm::IRBuilder<> &b, llvm::Value *ptr) { return b.CreatePtrToInt(ptr, b.getInt64Ty()); }

} // namespace

std::vector<llvm::Value *> NVPTXHooks::matrixMultiply(llvm::IRBuilder<> &b, std::string_view atom,
                                                      llvm::ArrayRef<llvm::Value *> a,
                                                      llvm::ArrayRef<llvm::Value *> bv,
                                                      llvm::ArrayRef<llvm::Value *> c) {
  // "mma.m16n8k16.f32.f16": shape, accumulator type, input type.
  std::string name(atom);
  size_t p1 = name.find('.'), p2 = name.find('.', p1 + 1), p3 = name.find('.', p2 + 1);
  if (p1 == std::string::npos || p2 == std::string::npos || p3 == std::string::npos)
    return {};
  std::string shape = name.substr(p1 + 1, p2 - p1 - 1), acc = name.substr(p2 + 1, p3 - p2 - 1),
              in = name.substr(p3 + 1);
  bool tf32 = in == "tf32";
  std::vector<llvm::Value *> wa = packWords(b, a, tf32), wb = packWords(b, bv, tf32);
  // f16 accumulators travel in pairs too; f32 and s32 one per register.
  bool halfAcc = acc == "f16";
  std::vector<llvm::Value *> wc = halfAcc ? packWords(b, c, false) : std::vector<llvm::Value *>(c.begin(), c.end());
  unsigned nd = static_cast<unsigned>(wc.size());
  char accConstraint = acc == "f32" ? 'f' : 'r';
  std::string text = "mma.sync.aligned." + shape + ".row.col." + acc + "." + in + "." + in + "." + acc + " " +
                     registers(0, nd) + ", " + registers(nd, unsigned(wa.size())) + ", " +
                     registers(nd + unsigned(wa.size()), unsigned(wb.size())) + ", " +
                     registers(nd + unsigned(wa.size() + wb.size()), nd) + ";";
  std::string constraints;
  for (unsigned i = 0; i < nd; ++i)
    constraints += std::string(constraints.empty() ? "" : ",") + "=" + accConstraint;
  for (size_t i = 0; i < wa.size() + wb.size(); ++i)
    constraints += ",r";
  for (unsigned i = 0; i < nd; ++i)
    constraints += std::string(",") + accConstraint;
  std::vector<llvm::Value *> args(wa);
  args.insert(args.end(), wb.begin(), wb.end());
  args.insert(args.end(), wc.begin(), wc.end());
  llvm::Type *wordType = wc[0]->getType();
  auto *result = llvm::StructType::get(b.getContext(), std::vector<llvm::Type *>(nd, wordType));
  llvm::Value *r = inlineAsm(b, result, text, constraints, args, false);
  std::vector<llvm::Value *> d;
  for (unsigned i = 0; i < nd; ++i) {
    llvm::Value *word = b.CreateExtractValue(r, i);
    if (!halfAcc) {
      d.push_back(word);
      continue;
    }
    llvm::Value *halves = b.CreateBitCast(word, llvm::FixedVectorType::get(c[0]->getType(), 2));
    for (unsigned j = 0; j < 2; ++j)
      d.push_back(b.CreateExtractElement(halves, b.getInt32(j)));
  }
  return d;
}

llvm::Value *NVPTXHooks::loadMatrix(llvm::IRBuilder<> &b, llvm::Value *address, unsigned count, bool trans,
                                    llvm::Type *type) {
  std::string text = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(count) + (trans ? ".trans" : "") +
                     ".shared.b16 " + registers(0, count) + ", [$" + std::to_string(count) + "];";
  std::string constraints;
  for (unsigned i = 0; i < count; ++i)
    constraints += "=r,";
  constraints += "l,~{memory}";
  llvm::Type *words = count == 1 ? static_cast<llvm::Type *>(b.getInt32Ty())
                                 : llvm::StructType::get(b.getContext(), std::vector<llvm::Type *>(count, b.getInt32Ty()));
  llvm::Value *r = inlineAsm(b, words, text, constraints, {sharedAddress(b, address)}, true);
  auto *vector = llvm::cast<llvm::FixedVectorType>(type);
  llvm::Type *pair = llvm::FixedVectorType::get(vector->getElementType(), 2);
  llvm::Value *out = llvm::PoisonValue::get(type);
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *word = count == 1 ? r : b.CreateExtractValue(r, i);
    llvm::Value *halves = b.CreateBitCast(word, pair);
    for (unsigned j = 0; j < 2; ++j)
      out = b.CreateInsertElement(out, b.CreateExtractElement(halves, b.getInt32(j)), b.getInt32(2 * i + j));
  }
  return out;
}

bool NVPTXHooks::asyncCopy(llvm::IRBuilder<> &b, llvm::Value *destination, llvm::Value *source, unsigned bytes,
                           llvm::Value *pred) {
  // .cg (L2 only) takes 16 bytes alone; smaller copies go through L1 (.ca).
  std::string text = std::string("cp.async.") + (bytes == 16 ? "cg" : "ca") + ".shared.global [$0], [$1], " +
                     std::to_string(bytes) + ", $2;";
  llvm::Value *size = pred ? b.CreateSelect(pred, b.getInt32(bytes), b.getInt32(0)) : b.getInt32(bytes);
  llvm::Value *global = b.CreatePtrToInt(source, b.getInt64Ty());
  inlineAsm(b, b.getVoidTy(), text, "l,l,r,~{memory}", {sharedAddress(b, destination), global, size}, true);
  return true;
}

bool NVPTXHooks::asyncCommit(llvm::IRBuilder<> &b) {
  inlineAsm(b, b.getVoidTy(), "cp.async.commit_group;", "~{memory}", {}, true);
  return true;
}

bool NVPTXHooks::asyncWait(llvm::IRBuilder<> &b, unsigned pending) {
  inlineAsm(b, b.getVoidTy(), "cp.async.wait_group " + std::to_string(pending) + ";", "~{memory}", {}, true);
  return true;
}

} // namespace trident::nvptx
