#pragma once
// The CPU backend's pipeline, top to bottom (each stage timed and dumped by
// trident/support/StageTimer.h, "cpu"):
//
//   block IR --simt::compileToThreadIR (CpuTarget's TargetDesc: warps of one thread)-->
//   thread IR --ThreadLoops.h: the program's threads as loops between its barriers-->
//   thread IR of one thread (+ bounds checks in the debug mode: CpuChecks.h) "thread loops"
//            --llvmgen::translateToLLVM (CpuHooks)--> "to LLVM IR"
//   + one entry per kernel that unpacks the launch's arguments and loops over a range
//     of programs, calling the kernel (inlined)                       "entry"
//   --LLVM's O3 pipeline for the host CPU (its vectorizers)-->         "optimize"
//   --the host's code generator--> an ELF object                       "object"
//
// The object is what a CPU binary carries (CpuBinary.h); the plugin JIT-links it.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trident::cpu {

// void entry(const trident_kernel_arg *args, int64_t begin, int64_t end,
//            const uint32_t grid[3], void *shared): programs begin .. end-1 of the grid,
// numbered x fastest.
using EntryFunction = void (*)(const void *, int64_t, int64_t, const uint32_t *, void *);
std::string entrySymbol(std::string_view kernel);

struct KernelInfo {
  std::string name;
  uint64_t sharedBytes = 0;
  std::vector<Type> params; // the runtime parameters, in order
};

struct CompileOptions {
  std::string kernel; // only this tt.func
  unsigned numStages = 1;
  unsigned optLevel = 3;
  // "binary" (an object), "thread-ir", "llvm" (optimized), "asm"
  std::string emit = "binary";
  bool boundsChecks = false; // the debug mode's checks of global accesses (CpuChecks.h)
};

struct CompiledModule {
  std::vector<KernelInfo> kernels;
  std::string output; // the object, or the text `emit` asked for
};

std::optional<CompiledModule> compile(const Module &blockIR, const CompileOptions &options, Diagnostics &diags);

} // namespace trident::cpu
