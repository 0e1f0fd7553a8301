// The CPU pipeline of CpuCodeGen.h.
#include "CpuCodeGen.h"

#include "BF16Moves.h"
#include "CpuChecks.h"
#include "CpuHooks.h"
#include "ThreadLoops.h"
#include "CpuTarget.h"
#include "trident/backends/llvm/CodeGen.h"
#include "trident/backends/llvm/Optimize.h"
#include "trident/ir/Printer.h"
#include "trident/simt/Lowering.h"
#include "trident/support/StageTimer.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <cassert>
#include <cstdlib>
#include <mutex>

namespace trident::cpu {

namespace {

void initializeLLVM() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::unique_ptr<llvm::TargetMachine> createTargetMachine(unsigned optLevel, Diagnostics &diags) {
  initializeLLVM();
  const HostCpu &cpu = hostCpu();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(cpu.triple, error);
  if (!target) {
    diags.error(Location(), "LLVM has no target for this host (" + cpu.triple + "): " + error);
    return nullptr;
  }
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast; // as Triton's enable_fp_fusion=True
  auto level = optLevel == 0 ? llvm::CodeGenOptLevel::None : llvm::CodeGenOptLevel::Aggressive;
  // The thread loops vectorize where a thread's accesses are a stride in its id; where
  // they are not (a tile per thread, CpuTarget.cpp), gathers and scatters across threads
  // cost more than the thread's own contiguous accesses, which the SLP vectorizer takes.
  std::string features = cpu.features;
  if (cpu.triple.find("x86_64") != std::string::npos && !std::getenv("TRIDENT_CPU_GATHERS"))
    features += ",+prefer-no-gather,+prefer-no-scatter";
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      cpu.triple, cpu.name, features, options, llvm::Reloc::PIC_, std::nullopt, level));
}

// Vectorized: warps of one thread run as loops over threads (ThreadLoops.cpp), which the
// loop vectorizer takes first, before instcombine rewrites `base + tid + c` into `or`s
// whose strides it no longer sees (it would gather and scatter). Math functions in loops
// vectorize into glibc's libmvec (which the plugin loads before linking kernels: CpuJit.cpp).
void optimize(llvm::Module &m, llvm::TargetMachine &tm, unsigned optLevel) {
  llvmgen::OptimizeOptions options;
  options.tuning.SLPVectorization = true;
  options.tuning.LoopVectorization = true;
  options.vectorMath = true;
  options.first = "always-inline,function(simplifycfg,early-cse,loop-simplify,lcssa,loop-vectorize)";
  llvmgen::optimize(m, tm, optLevel, options);
  keepBF16Bits(m); // after the optimizer, which would fold the bitcasts back (BF16Moves.h)
  assert(!llvm::verifyModule(m, &llvm::errs()) && "keepBF16Bits made invalid IR");
}

// libmvec's AVX-512 functions (16 floats, 8 doubles), which LLVM's own list for libmvec
// lacks (it has the SSE and AVX2 ones): the vectorizer makes llvm.exp.v16f32 on AVX-512,
// and code generation maps it to _ZGVeN16v_expf through these.
llvm::ArrayRef<llvm::VecDesc> avx512MathFunctions() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    const char *withIntrinsic[] = {"exp", "exp2", "exp10", "log", "log2", "log10", "sin", "cos", "tan"};
    const char *plain[] = {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cosh", "erfc",
                           "erf",  "expm1", "log1p", "sinh", "tanh"};
    for (bool f32 : {true, false}) {
      std::string suffix = f32 ? "f" : "", lanes = f32 ? "16" : "8";
      auto add = [&](const std::string &scalar, const std::string &fn) {
        out.push_back(scalar);
        out.push_back("_ZGVeN" + lanes + "v_" + fn + suffix);
        out.push_back("_ZGV_LLVM_N" + lanes + "v");
      };
      for (const char *fn : withIntrinsic) {
        add(fn + suffix, fn);
        add(std::string("llvm.") + fn + (f32 ? ".f32" : ".f64"), fn);
      }
      for (const char *fn : plain)
        add(fn + suffix, fn);
    }
    return out;
  }();
  static const std::vector<llvm::VecDesc> table = [] {
    std::vector<llvm::VecDesc> out;
    for (size_t i = 0; i < names.size(); i += 3) {
      unsigned lanes = names[i + 2].find("N16") != std::string::npos ? 16 : 8;
      out.emplace_back(names[i], names[i + 1], llvm::ElementCount::getFixed(lanes), false, names[i + 2]);
    }
    return out;
  }();
  return table;
}

// An argument of the launch ABI (trident_kernel_arg: type, reserved, 64 bits) as the
// kernel's parameter type `t`.
llvm::Value *unpackArgument(llvm::IRBuilder<> &b, llvm::Value *args, unsigned i, llvm::Type *t) {
  llvm::Value *slot = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), args, uint64_t(i) * 16 + 8);
  llvm::Value *bits = b.CreateAlignedLoad(b.getInt64Ty(), slot, llvm::Align(8));
  if (t->isPointerTy())
    return b.CreateIntToPtr(bits, t);
  if (t->isIntegerTy())
    return b.CreateTrunc(bits, t);
  unsigned width = t->getPrimitiveSizeInBits().getFixedValue();
  return b.CreateBitCast(width < 64 ? b.CreateTrunc(bits, b.getIntNTy(width)) : bits, t);
}

// entry(args, begin, end, grid, shared): for p in [begin, end): kernel(args..., ids, grid, shared).
void addEntry(llvm::Module &m, llvm::Function *kernel, unsigned numParams) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  auto *type = llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), b.getInt64Ty(), b.getInt64Ty(), b.getPtrTy(),
                                                       b.getPtrTy()},
                                       false);
  auto *entry = llvm::Function::Create(type, llvm::Function::ExternalLinkage, entrySymbol(kernel->getName().str()), m);
  entry->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::Value *args = entry->getArg(0), *begin = entry->getArg(1), *end = entry->getArg(2);
  llvm::Value *gridPtr = entry->getArg(3), *shared = entry->getArg(4);
  auto *start = llvm::BasicBlock::Create(ctx, "entry", entry);
  auto *loop = llvm::BasicBlock::Create(ctx, "program", entry);
  auto *done = llvm::BasicBlock::Create(ctx, "done", entry);
  b.SetInsertPoint(start);
  std::vector<llvm::Value *> operands;
  for (unsigned i = 0; i < numParams; ++i)
    operands.push_back(unpackArgument(b, args, i, kernel->getArg(i)->getType()));
  llvm::Value *grid[3];
  for (unsigned axis = 0; axis < 3; ++axis)
    grid[axis] = b.CreateAlignedLoad(b.getInt32Ty(), b.CreateConstInBoundsGEP1_64(b.getInt32Ty(), gridPtr, axis),
                                     llvm::Align(4));
  llvm::Value *gx = b.CreateZExt(grid[0], b.getInt64Ty()), *gy = b.CreateZExt(grid[1], b.getInt64Ty());
  b.CreateCondBr(b.CreateICmpSLT(begin, end), loop, done);
  b.SetInsertPoint(loop);
  llvm::PHINode *p = b.CreatePHI(b.getInt64Ty(), 2);
  p->addIncoming(begin, start);
  llvm::Value *x = b.CreateURem(p, gx), *rest = b.CreateUDiv(p, gx);
  llvm::Value *y = b.CreateURem(rest, gy), *z = b.CreateUDiv(rest, gy);
  std::vector<llvm::Value *> call = operands;
  for (llvm::Value *id : {x, y, z})
    call.push_back(b.CreateTrunc(id, b.getInt32Ty()));
  call.insert(call.end(), {grid[0], grid[1], grid[2], shared});
  b.CreateCall(kernel, call);
  llvm::Value *next = b.CreateAdd(p, b.getInt64(1));
  p->addIncoming(next, loop);
  b.CreateCondBr(b.CreateICmpSLT(next, end), loop, done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

// Threads per program: enough that each holds about kElementsPerThread elements of the
// kernel's largest block where it reduces or scans: fewer threads make fewer partial
// results to combine across threads (a reduction's second step reads one per thread);
// on softmax 4096x1024 here 32 took a third of the CPU time of 8. Elsewhere one element
// per thread (up to 1024 threads): the thread loop is then one long vectorized loop over
// contiguous elements; vector add 2^25 f32 went from 4 to 6 GB/s with 32 elements per
// thread (on 1 or 2 cores alike: bound by instructions, a masked access and compare per
// register) to 13 to 16 GB/s with one.
constexpr int64_t kElementsPerThread = 32;
constexpr int64_t kElementsPerThreadElementwise = 1;

// A kernel with a dot: one thread per register tile of its largest dot's result, for the
// first of the target's tile shapes that divides it (CpuTarget.cpp), so that the lowering
// gives each thread one tile (simt::planCoop); 0 if none fits, and 0 unless the kernel has
// one dot and no reduction or scan (a matmul): elsewhere every block op of the result's
// shape runs on a tile's 256 elements per thread, and LLVM's scheduler on those bodies
// took attention's forward kernels 80 s to compile against 10 s, and attention_bwd's
// (five dots) many minutes, so their dots stay on the lowering's multiply-add loop.
unsigned threadsForDot(const Module &blockIR, const std::string &kernel) {
  TargetDesc target = targetDesc();
  int64_t best = 0;
  bool reduces = false;
  int dots = 0;
  for (Op *f : blockIR.functions())
    if (kernel.empty() || func::name(f) == kernel)
      f->walk([&](Op *op) {
        reduces = reduces || op->is(OpCode::Reduce) || op->is(OpCode::Scan);
        dots += op->is(OpCode::Dot);
        if (!op->is(OpCode::Dot) || op->operand(0)->type().rank() != 2)
          return;
        Type a = op->operand(0)->type(), c = op->result()->type();
        int64_t M = a.shape()[0], N = c.shape()[1];
        for (const CoopMatrixShape &s : target.coopMatrices)
          if (s.aType == a.element() && s.cType == c.element() && M % s.m == 0 && N % s.n == 0) {
            best = std::max(best, (M / s.m) * (N / s.n));
            break;
          }
      });
  return !reduces && dots == 1 && best > 0 && best <= 1024 && (best & (best - 1)) == 0 ? unsigned(best) : 0;
}

unsigned threadsFor(const Module &blockIR, const std::string &kernel) {
  // TRIDENT_CPU_ELEMENTS_PER_THREAD overrides it, for measuring.
  static const int64_t chosen = [] {
    const char *v = std::getenv("TRIDENT_CPU_ELEMENTS_PER_THREAD");
    int64_t n = v ? std::atoll(v) : 0;
    return n > 0 ? n : 0;
  }();
  int64_t largest = 1;
  bool reduces = false;
  for (Op *f : blockIR.functions())
    if (kernel.empty() || func::name(f) == kernel)
      f->walk([&](Op *op) {
        reduces = reduces || op->is(OpCode::Reduce) || op->is(OpCode::Scan);
        for (unsigned i = 0; i < op->numResults(); ++i)
          if (op->result(i)->type().isBlock())
            largest = std::max(largest, op->result(i)->type().numElements());
      });
  int64_t perThread = chosen ? chosen : reduces ? kElementsPerThread : kElementsPerThreadElementwise;
  unsigned threads = 1;
  while (threads * 2 <= 1024 && int64_t(threads) * 2 * perThread <= largest)
    threads *= 2;
  return threads;
}

} // namespace

std::string entrySymbol(std::string_view kernel) { return "trident_cpu_entry_" + std::string(kernel); }

std::optional<CompiledModule> compile(const Module &blockIR, const CompileOptions &options, Diagnostics &diags) {
  StageTimer timer("cpu", options.kernel);
  simt::LoweringOptions lowering;
  TargetDesc target = targetDesc();
  // Warps of one thread: one per register tile of a dot, else per ~32 elements.
  lowering.numWarps = threadsForDot(blockIR, options.kernel);
  if (!lowering.numWarps) {
    lowering.numWarps = threadsFor(blockIR, options.kernel);
    target.coopMatrices.clear();
  }
  lowering.numStages = options.numStages;
  lowering.onlyFunction = options.kernel;
  std::optional<Module> threadIR = simt::compileToThreadIR(blockIR, target, lowering, diags);
  if (!threadIR)
    return std::nullopt;
  timer.lap("thread IR");
  for (Op *f : threadIR->functions()) {
    if (!formThreadLoops(f, diags))
      return std::nullopt;
    if (options.boundsChecks)
      insertBoundsChecks(f);
  }
  timer.lap("thread loops", "tir", [&] { return print(*threadIR); });
  CompiledModule out;
  for (Op *f : threadIR->functions()) {
    KernelInfo k;
    k.name = std::string(func::name(f));
    k.sharedBytes = static_cast<uint64_t>(f->intAttr("shared_bytes"));
    k.params = func::argumentTypes(f);
    out.kernels.push_back(std::move(k));
  }
  if (options.emit == "thread-ir") {
    out.output = print(*threadIR);
    return out;
  }

  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options.optLevel, diags);
  if (!tm)
    return std::nullopt;
  llvm::LLVMContext ctx;
  CpuHooks hooks(hostCpu().triple);
  std::unique_ptr<llvm::Module> m = llvmgen::translateToLLVM(*threadIR, ctx, hooks, diags);
  if (!m)
    return std::nullopt;
  auto text = [&m] { return llvmgen::llvmText(*m); };
  timer.lap("to LLVM IR", "ll", text);
  m->setDataLayout(tm->createDataLayout());
  for (const KernelInfo &k : out.kernels)
    addEntry(*m, m->getFunction(k.name), static_cast<unsigned>(k.params.size()));
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*m, &os)) {
    diags.error(Location(), "internal error: the CPU entry functions are invalid LLVM IR: " + os.str());
    return std::nullopt;
  }
  timer.lap("entry", "ll", text);
  optimize(*m, *tm, options.optLevel);
  timer.lap("optimize", "ll", text);
  if (options.emit == "llvm") {
    out.output = text();
    return out;
  }
  bool assembly = options.emit == "asm";
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream stream(bytes);
  llvm::legacy::PassManager pm;
  // Code generation replaces vector math intrinsics the vectorizer made (llvm.exp.v16f32)
  // with libmvec's functions only when its library info knows them; without, each became
  // 16 calls of expf (softmax: 512 a program).
  llvm::Triple triple(hostCpu().triple);
  llvm::TargetLibraryInfoImpl library(triple);
  if (triple.getArch() == llvm::Triple::x86_64) {
    library.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86, triple);
    if (simdBytes() == 64)
      library.addVectorizableFunctions(avx512MathFunctions());
  }
  pm.add(new llvm::TargetLibraryInfoWrapperPass(library));
  if (tm->addPassesToEmitFile(pm, stream, nullptr,
                              assembly ? llvm::CodeGenFileType::AssemblyFile : llvm::CodeGenFileType::ObjectFile,
                              /*DisableVerify=*/true)) {
    diags.error(Location(), "LLVM cannot emit code for this host (" + hostCpu().triple + ")");
    return std::nullopt;
  }
  pm.run(*m);
  out.output = bytes.str().str();
  timer.lap("object");
  return out;
}

} // namespace trident::cpu
