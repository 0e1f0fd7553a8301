// NVIDIA's matrix units and asynchronous copies as inline PTX (LLVM 19's NVVM
// intrinsics cover mma and ldmatrix only in part, and cp.async without its
// zero-filling source size):
//
//   th.mma (m16n8k16 f16, 8 + 4 + 4 registers) ->
//     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, ...}, {%r1, ...}, {%r5, %r6}, {%f5, ...};
//   th.ldmatrix {count = 4, trans = 1} -> ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {...}, [%rd1];
//   th.async_copy {bytes = 16}, %pred  -> cp.async.cg.shared.global [%rd1], [%rd2], 16, %r1;  (%r1 = pred ? 16 : 0)
//
//   th.wgmma (m64n256k16 f32, A and B in shared memory) ->
//     wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%f1, ... %f128}, %rd1, %rd2, p, 1, 1, 0, 1;
//     (%rd1, %rd2: matrix descriptors; the accumulators are tied in and out)
//   th.wgmma_wait {pending = 0} %v... -> wgmma.wait_group.sync.aligned 0;  (%v tied through it,
//     so that nothing reads them before the wait)
//
// Operands narrower than 32 bits travel packed in 32-bit registers, in order (the
// fragment layouts of the PTX ISA number elements within a register from its low half).
// tf32 operands are rounded from f32 with cvt.rna.tf32.f32 first.
#include "NVPTXHooks.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <optional>
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

// An atom's name, "mma.m16n8k16.f32.f16" or "wgmma.m64n256k16.f32.f16": its shape, then the
// accumulator's and the inputs' PTX types.
struct AtomName {
  std::string shape, acc, in;
};

std::optional<AtomName> parseAtomName(std::string_view atom) {
  std::string name(atom);
  size_t p1 = name.find('.'), p2 = name.find('.', p1 + 1), p3 = name.find('.', p2 + 1);
  if (p1 == std::string::npos || p2 == std::string::npos || p3 == std::string::npos)
    return std::nullopt;
  return AtomName{name.substr(p1 + 1, p2 - p1 - 1), name.substr(p2 + 1, p3 - p2 - 1), name.substr(p3 + 1)};
}

// f16 accumulator words back into their two halves each, the first from the low bits.
std::vector<llvm::Value *> unpackHalves(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> words, llvm::Type *half) {
  std::vector<llvm::Value *> out;
  for (llvm::Value *word : words) {
    llvm::Value *halves = b.CreateBitCast(word, llvm::FixedVectorType::get(half, 2));
    for (unsigned j = 0; j < 2; ++j)
      out.push_back(b.CreateExtractElement(halves, b.getInt32(j)));
  }
  return out;
}

} // namespace

std::vector<llvm::Value *> NVPTXHooks::matrixMultiply(llvm::IRBuilder<> &b, std::string_view atom,
                                                      llvm::ArrayRef<llvm::Value *> a,
                                                      llvm::ArrayRef<llvm::Value *> bv,
                                                      llvm::ArrayRef<llvm::Value *> c) {
  std::optional<AtomName> parsed = parseAtomName(atom);
  if (!parsed)
    return {};
  const auto &[shape, acc, in] = *parsed;
  bool tf32 = in == "tf32", f64 = in == "f64";
  // f64 operands are one register each; narrower ones are packed into 32-bit words.
  auto words = [&](llvm::ArrayRef<llvm::Value *> v) {
    return f64 ? std::vector<llvm::Value *>(v.begin(), v.end()) : packWords(b, v, tf32);
  };
  std::vector<llvm::Value *> wa = words(a), wb = words(bv);
  // f16 accumulators travel in pairs too; f32, f64 and s32 one per register.
  bool halfAcc = acc == "f16";
  std::vector<llvm::Value *> wc = halfAcc ? packWords(b, c, false) : std::vector<llvm::Value *>(c.begin(), c.end());
  unsigned nd = static_cast<unsigned>(wc.size());
  char accConstraint = acc == "f32" ? 'f' : acc == "f64" ? 'd' : 'r';
  char inConstraint = f64 ? 'd' : 'r';
  std::string text = "mma.sync.aligned." + shape + ".row.col." + acc + "." + in + "." + in + "." + acc + " " +
                     registers(0, nd) + ", " + registers(nd, unsigned(wa.size())) + ", " +
                     registers(nd + unsigned(wa.size()), unsigned(wb.size())) + ", " +
                     registers(nd + unsigned(wa.size() + wb.size()), nd) + ";";
  std::string constraints;
  for (unsigned i = 0; i < nd; ++i)
    constraints += std::string(constraints.empty() ? "" : ",") + "=" + accConstraint;
  for (size_t i = 0; i < wa.size() + wb.size(); ++i)
    constraints += std::string(",") + inConstraint;
  for (unsigned i = 0; i < nd; ++i)
    constraints += std::string(",") + accConstraint;
  std::vector<llvm::Value *> args(wa);
  args.insert(args.end(), wb.begin(), wb.end());
  args.insert(args.end(), wc.begin(), wc.end());
  llvm::Type *wordType = wc[0]->getType();
  auto *result = llvm::StructType::get(b.getContext(), std::vector<llvm::Type *>(nd, wordType));
  llvm::Value *r = inlineAsm(b, result, text, constraints, args, false);
  std::vector<llvm::Value *> d;
  for (unsigned i = 0; i < nd; ++i)
    d.push_back(b.CreateExtractValue(r, i));
  return halfAcc ? unpackHalves(b, d, c[0]->getType()) : d;
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
  // Each lane receives `count` 32-bit words: two 16-bit elements each, four bytes, or
  // one 32-bit element.
  auto *vector = llvm::cast<llvm::FixedVectorType>(type);
  llvm::Type *element = vector->getElementType();
  unsigned per = 32 / element->getPrimitiveSizeInBits();
  llvm::Type *parts = per == 1 ? element : llvm::FixedVectorType::get(element, per);
  llvm::Value *out = llvm::PoisonValue::get(type);
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *word = b.CreateBitCast(count == 1 ? r : b.CreateExtractValue(r, i), parts);
    for (unsigned j = 0; j < per; ++j)
      out = b.CreateInsertElement(out, per == 1 ? word : b.CreateExtractElement(word, b.getInt32(j)),
                                  b.getInt32(per * i + j));
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

bool NVPTXHooks::barrierInit(llvm::IRBuilder<> &b, llvm::Value *barrier, unsigned count, llvm::Value *pred) {
  std::string init = "mbarrier.init.shared::cta.b64 [$0], " + std::to_string(count) + ";";
  if (!pred) {
    inlineAsm(b, b.getVoidTy(), init, "l,~{memory}", {sharedAddress(b, barrier)}, true);
    return true;
  }
  inlineAsm(b, b.getVoidTy(), "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p " + init + " }", "l,r,~{memory}",
            {sharedAddress(b, barrier), b.CreateZExt(pred, b.getInt32Ty())}, true);
  return true;
}

bool NVPTXHooks::asyncArrive(llvm::IRBuilder<> &b, llvm::Value *barrier) {
  inlineAsm(b, b.getVoidTy(), "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];", "l,~{memory}",
            {sharedAddress(b, barrier)}, true);
  return true;
}

bool NVPTXHooks::tensorArrive(llvm::IRBuilder<> &b, llvm::Value *barrier, llvm::Value *bytes, llvm::Value *pred) {
  inlineAsm(b, b.getVoidTy(),
            "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1; }",
            "l,r,r,~{memory}", {sharedAddress(b, barrier), bytes, b.CreateZExt(pred, b.getInt32Ty())}, true);
  return true;
}

bool NVPTXHooks::barrierArrive(llvm::IRBuilder<> &b, llvm::Value *barrier, llvm::Value *pred) {
  // A release at the CTA's scope (the default semantics of mbarrier.arrive).
  if (!pred) {
    inlineAsm(b, b.getVoidTy(), "mbarrier.arrive.shared::cta.b64 _, [$0];", "l,~{memory}",
              {sharedAddress(b, barrier)}, true);
    return true;
  }
  inlineAsm(b, b.getVoidTy(), "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p mbarrier.arrive.shared::cta.b64 _, [$0]; }",
            "l,r,~{memory}", {sharedAddress(b, barrier), b.CreateZExt(pred, b.getInt32Ty())}, true);
  return true;
}

bool NVPTXHooks::partitionBarrier(llvm::IRBuilder<> &b, unsigned id, unsigned threads) {
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier_sync_cnt, {}, {b.getInt32(id), b.getInt32(threads)});
  return true;
}

bool NVPTXHooks::setMaxRegisters(llvm::IRBuilder<> &b, unsigned count, bool increase) {
  inlineAsm(b, b.getVoidTy(),
            std::string("setmaxnreg.") + (increase ? "inc" : "dec") + ".sync.aligned.u32 " + std::to_string(count) + ";",
            "~{memory}", {}, true);
  return true;
}

bool NVPTXHooks::tensorCopy(llvm::IRBuilder<> &b, llvm::Value *destination, llvm::Value *map, llvm::Value *barrier,
                            llvm::Value *pred, llvm::ArrayRef<llvm::Value *> coords) {
  // The map's generic address (a grid-constant parameter: cvta.param); coordinates go
  // innermost first.
  size_t rank = coords.size();
  std::string list;
  for (size_t k = 0; k < rank; ++k)
    list += (k ? ", $" : "$") + std::to_string(4 + k);
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $3, 0; @p cp.async.bulk.tensor." + std::to_string(rank) +
                     "d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {" + list + "}], [$2]; }";
  std::string constraints = "l,l,l,r";
  std::vector<llvm::Value *> operands{sharedAddress(b, destination), b.CreatePtrToInt(map, b.getInt64Ty()),
                                      sharedAddress(b, barrier), b.CreateZExt(pred, b.getInt32Ty())};
  for (size_t k = rank; k-- > 0;) {
    constraints += ",r";
    operands.push_back(coords[k]);
  }
  inlineAsm(b, b.getVoidTy(), text, constraints + ",~{memory}", operands, true);
  return true;
}

bool NVPTXHooks::barrierWait(llvm::IRBuilder<> &b, llvm::Value *barrier, llvm::Value *parity) {
  // try_wait suspends the thread for a while (a time the hardware picks) before it says
  // the phase is not complete yet; the loop asks again. The labels are local to the braces.
  inlineAsm(b, b.getVoidTy(),
            "{ .reg .pred done; waiting: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1; "
            "@!done bra waiting; }",
            "l,r,~{memory}", {sharedAddress(b, barrier), parity}, true);
  return true;
}

namespace {

// The 64-bit matrix descriptor of a tile (PTX ISA, "Matrix Descriptor Format"): start
// address, leading and stride byte offsets (each >> 4, 14 bits), the swizzle mode.
// A tile `offset` bytes past its address (a multiple of 16) has the address's descriptor
// plus offset >> 4: both lie in shared memory (below 2^18 bytes), so the 14-bit start
// field does not carry. The k steps of a dot then share one descriptor and each adds a
// constant (one 64-bit add, not a mask, shift and or each).
llvm::Value *matrixDescriptor(llvm::IRBuilder<> &b, const llvmgen::TargetHooks::MatrixTile &t) {
  uint64_t mode = t.swizzle == 128 ? 1 : t.swizzle == 64 ? 2 : 3;
  uint64_t fixed = (uint64_t(t.lbo >> 4) & 0x3FFF) << 16 | (uint64_t(t.sbo >> 4) & 0x3FFF) << 32 | mode << 62;
  bool folds = t.offset > 0 && t.offset % 16 == 0 && t.offset < (int64_t(1) << 18);
  llvm::Value *ptr = t.address;
  if (t.offset && !folds)
    ptr = b.CreateGEP(b.getInt8Ty(), ptr, b.getInt64(t.offset));
  llvm::Value *address = b.CreateLShr(b.CreateAnd(sharedAddress(b, ptr), b.getInt64(0x3FFFF)), b.getInt64(4));
  llvm::Value *desc = b.CreateOr(address, b.getInt64(fixed));
  return folds ? b.CreateAdd(desc, b.getInt64(uint64_t(t.offset) >> 4), "", true, true) : desc;
}

// Register constraints of values carried in and out of inline PTX unchanged: f32 in .f32
// registers, everything else as integers of its width.
char constraintOf(llvm::Type *t) {
  if (t->isFloatTy())
    return 'f';
  unsigned bits = t->getPrimitiveSizeInBits();
  return bits == 64 ? 'l' : bits == 16 ? 'h' : 'r';
}

llvm::Value *asCarried(llvm::IRBuilder<> &b, llvm::Value *v) {
  llvm::Type *t = v->getType();
  if (t->isFloatTy() || t->isIntegerTy())
    return v;
  return b.CreateBitCast(v, b.getIntNTy(t->getPrimitiveSizeInBits()));
}

// Inline PTX `text` whose first `tied.size()` operands are `tied`, read and written in
// place; `inputs` follow. Returns the written values, of `tied`'s types.
std::vector<llvm::Value *> tiedAsm(llvm::IRBuilder<> &b, const std::string &text, llvm::ArrayRef<llvm::Value *> tied,
                                   llvm::ArrayRef<llvm::Value *> inputs, const std::string &inputConstraints) {
  std::vector<llvm::Value *> carried, args;
  std::vector<llvm::Type *> types;
  std::string outs, ins;
  for (llvm::Value *v : tied) {
    carried.push_back(asCarried(b, v));
    types.push_back(carried.back()->getType());
    outs += std::string(outs.empty() ? "=" : ",=") + constraintOf(carried.back()->getType());
  }
  args.insert(args.end(), inputs.begin(), inputs.end());
  for (size_t i = 0; i < carried.size(); ++i)
    ins += "," + std::to_string(i);
  args.insert(args.end(), carried.begin(), carried.end());
  std::string constraints = outs + (inputConstraints.empty() ? "" : "," + inputConstraints) + ins + ",~{memory}";
  llvm::Type *result = types.size() == 1 ? types[0] : static_cast<llvm::Type *>(llvm::StructType::get(b.getContext(), types));
  llvm::Value *r = inlineAsm(b, result, text, constraints, args, true);
  std::vector<llvm::Value *> out;
  for (size_t i = 0; i < tied.size(); ++i) {
    llvm::Value *v = types.size() == 1 ? r : b.CreateExtractValue(r, unsigned(i));
    out.push_back(v->getType() == tied[i]->getType() ? v : b.CreateBitCast(v, tied[i]->getType()));
  }
  return out;
}

} // namespace

std::vector<llvm::Value *> NVPTXHooks::warpgroupMultiply(llvm::IRBuilder<> &b, std::string_view atom,
                                                         const MatrixTile *aTile,
                                                         llvm::ArrayRef<llvm::Value *> aRegisters,
                                                         const MatrixTile &bTile, llvm::ArrayRef<llvm::Value *> c) {
  std::optional<AtomName> parsed = parseAtomName(atom);
  if (!parsed)
    return {};
  const auto &[shape, acc, in] = *parsed;
  bool halfAcc = acc == "f16";
  // A zero accumulator (the first k step of a dot that starts from zeros) is not read:
  // scale-d is false and the tied registers start undefined, so that nothing writes the
  // zeros first. (D = A * B then, which is A * B + (-0.0): an exact-zero sum keeps its
  // sign where adding +0.0 would make it +0.0.)
  bool zero = std::all_of(c.begin(), c.end(), [](llvm::Value *v) {
    auto *k = llvm::dyn_cast<llvm::Constant>(v);
    return k && k->isNullValue();
  });
  std::vector<llvm::Value *> cIn(c.begin(), c.end());
  if (zero)
    for (llvm::Value *&v : cIn)
      v = llvm::UndefValue::get(v->getType());
  std::vector<llvm::Value *> words = halfAcc ? packWords(b, cIn, false) : cIn;
  unsigned nd = unsigned(words.size());
  std::vector<llvm::Value *> inputs;
  std::string inputConstraints, aText;
  if (aTile) {
    inputs.push_back(matrixDescriptor(b, *aTile));
    inputConstraints = "l";
    aText = "$" + std::to_string(nd);
  } else {
    std::vector<llvm::Value *> wa = packWords(b, aRegisters, false);
    inputs.insert(inputs.end(), wa.begin(), wa.end());
    for (size_t i = 0; i < wa.size(); ++i)
      inputConstraints += std::string(i ? "," : "") + "r";
    aText = registers(nd, unsigned(wa.size()));
  }
  inputs.push_back(matrixDescriptor(b, bTile));
  inputConstraints += ",l";
  unsigned bAt = nd + unsigned(inputs.size()) - 1;
  // scale-d is a predicate: accumulate unless the accumulator is zero. Float
  // inputs scale A and B by +1; only 16-bit ones may be MN-major (the transposes);
  // integers take neither.
  std::string immediates;
  if (in == "f16" || in == "bf16")
    immediates = std::string(", 1, 1, ") + (aTile ? std::string(aTile->mnMajor ? "1, " : "0, ") : std::string()) +
                 (bTile.mnMajor ? "1" : "0");
  else if (in == "tf32" || in == "e4m3" || in == "e5m2")
    immediates = ", 1, 1";
  std::string text = std::string("{\n.reg .pred p;\nsetp.") + (zero ? "ne" : "eq") + ".u32 p, 1, 1;\nwgmma.mma_async.sync.aligned." + shape + "." + acc + "." +
                     in + "." + in + " " + registers(0, nd) + ", " + aText + ", $" + std::to_string(bAt) + ", p" +
                     immediates + ";\n}";
  std::vector<llvm::Value *> d = tiedAsm(b, text, words, inputs, inputConstraints);
  return halfAcc ? unpackHalves(b, d, c[0]->getType()) : d;
}

std::vector<llvm::Value *> NVPTXHooks::warpgroupFence(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> values) {
  const std::string text = "wgmma.fence.sync.aligned;";
  if (values.empty()) {
    inlineAsm(b, b.getVoidTy(), text, "~{memory}", {}, true);
    return {};
  }
  // The registers the atoms read pass through the fence as the atoms read them: 16-bit
  // halves paired into words (the pack must happen before the fence too), others as they are.
  std::vector<llvm::Value *> words;
  std::vector<bool> paired;
  for (size_t i = 0; i < values.size(); ++i) {
    bool half = values[i]->getType()->getPrimitiveSizeInBits() == 16;
    if (half && i + 1 < values.size() && values[i + 1]->getType() == values[i]->getType()) {
      words.push_back(packWords(b, values.slice(i, 2), false)[0]);
      paired.push_back(true);
      ++i;
    } else {
      words.push_back(values[i]);
      paired.push_back(false);
    }
  }
  std::vector<llvm::Value *> through = tiedAsm(b, text, words, {}, ""), out;
  for (size_t w = 0, i = 0; w < through.size(); ++w) {
    if (!paired[w]) {
      out.push_back(through[w]);
      ++i;
      continue;
    }
    for (llvm::Value *h : unpackHalves(b, through[w], values[i]->getType()))
      out.push_back(h);
    i += 2;
  }
  return out;
}

bool NVPTXHooks::warpgroupCommit(llvm::IRBuilder<> &b) {
  inlineAsm(b, b.getVoidTy(), "wgmma.commit_group.sync.aligned;", "~{memory}", {}, true);
  return true;
}

std::vector<llvm::Value *> NVPTXHooks::warpgroupWait(llvm::IRBuilder<> &b, unsigned pending,
                                                     llvm::ArrayRef<llvm::Value *> values) {
  std::string text = "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";";
  if (values.empty()) {
    inlineAsm(b, b.getVoidTy(), text, "~{memory}", {}, true);
    return {};
  }
  return tiedAsm(b, text, values, {}, "");
}

bool NVPTXHooks::fenceAsyncShared(llvm::IRBuilder<> &b) {
  inlineAsm(b, b.getVoidTy(), "fence.proxy.async.shared::cta;", "~{memory}", {}, true);
  return true;
}

} // namespace trident::nvptx
