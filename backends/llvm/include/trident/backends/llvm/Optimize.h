#pragma once
// LLVM's optimizer over a translated module, one pipeline for every LLVM-based target
// (NVPTX, AMDGPU, the CPU plugin): the new pass manager's default per-module pipeline at
// O1..O3 for the target machine, with what a target adds (tuning, a vector math library,
// passes that must run before it).

#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>

#include <string>

namespace trident::llvmgen {

struct OptimizeOptions {
  llvm::PipelineTuningOptions tuning; // LLVM's defaults unless a target sets them
  bool vectorMath = false;            // on x86-64, math calls vectorize into glibc's libmvec
  std::string first;                  // a textual pipeline run before the default one
};

// Runs the pipeline for `optLevel` (0: none) over `m`, then the rewrites every target's
// code generator needs (a signed i1 -> float conversion as a select).
void optimize(llvm::Module &m, llvm::TargetMachine &tm, unsigned optLevel, const OptimizeOptions &options = {});

// `m` as LLVM IR text (TRIDENT_DUMP_IR, --emit llvm).
std::string llvmText(const llvm::Module &m);

} // namespace trident::llvmgen
