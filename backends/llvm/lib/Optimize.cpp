#include "trident/backends/llvm/Optimize.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <vector>

namespace trident::llvmgen {

namespace {

// sitofp of an i1 (whose true is -1) as a select of -1.0 and 0.0. LLVM 19's NVPTX backend
// converts it as if unsigned (selp 1, 0, then cvt.rn.f64.s32: +1.0), and the optimizer
// makes such conversions out of sitofp (sext i1) (found by random kernels on the H200).
void rewriteSignedBoolConversions(llvm::Module &m) {
  std::vector<llvm::SIToFPInst *> found;
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *c = llvm::dyn_cast<llvm::SIToFPInst>(&i); c && c->getSrcTy()->isIntOrIntVectorTy(1))
          found.push_back(c);
  for (llvm::SIToFPInst *c : found) {
    llvm::IRBuilder<> b(c);
    llvm::Type *t = c->getType();
    llvm::Value *v = b.CreateSelect(c->getOperand(0), llvm::ConstantFP::get(t, -1.0), llvm::ConstantFP::get(t, 0.0));
    c->replaceAllUsesWith(v);
    c->eraseFromParent();
  }
}

} // namespace

void optimize(llvm::Module &m, llvm::TargetMachine &tm, unsigned optLevel, const OptimizeOptions &options) {
  if (optLevel == 0) {
    rewriteSignedBoolConversions(m);
    return;
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm, options.tuning);
  llvm::Triple triple(tm.getTargetTriple());
  llvm::TargetLibraryInfoImpl library(triple);
  if (options.vectorMath && triple.getArch() == llvm::Triple::x86_64) {
    library.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86, triple);
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(library); });
  }
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm;
  if (!options.first.empty())
    if (llvm::Error e = pb.parsePassPipeline(mpm, options.first))
      llvm::consumeError(std::move(e)); // the targets' fixed pipelines are valid
  mpm.addPass(pb.buildPerModuleDefaultPipeline(level));
  mpm.run(m, mam);
  rewriteSignedBoolConversions(m);
}

std::string llvmText(const llvm::Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  return os.str();
}

} // namespace trident::llvmgen
