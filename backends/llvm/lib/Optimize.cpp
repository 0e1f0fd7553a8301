#include "trident/backends/llvm/Optimize.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

namespace trident::llvmgen {

void optimize(llvm::Module &m, llvm::TargetMachine &tm, unsigned optLevel, const OptimizeOptions &options) {
  if (optLevel == 0)
    return;
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
}

std::string llvmText(const llvm::Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  return os.str();
}

} // namespace trident::llvmgen
