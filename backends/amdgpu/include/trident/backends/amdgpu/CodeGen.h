#pragma once
// Block IR -> an AMD code object (HSACO) for one architecture, in stages that
// `trident compile --emit` can stop after:
//
//   block IR --simt lowering--> thread IR --backends/llvm--> LLVM IR
//            --ocml/ockl, O3--> optimized LLVM IR --AMDGPU--> ELF object --lld--> HSACO
//
//   Diagnostics diags;
//   std::string hsaco = amdgpu::compileToHSACO(blockIR, *amdgpu::targetDesc("hip:gfx942"), {}, diags);
//
// The code object is an ELF shared object (code object v5): each kernel is a symbol
// with its kernel descriptor <name>.kd, and the AMDGPU metadata note lists its
// arguments (pointers are global buffers, scalars by value) and its LDS size.

#include "trident/ir/IR.h"
#include "trident/simt/TargetDesc.h"
#include "trident/support/Diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trident::amdgpu {

struct HSACOOptions {
  unsigned numWarps = 0;   // wavefronts per program; 0: Triton's default (simt::defaultNumWarps)
  unsigned optLevel = 3;   // LLVM optimization level, 0-3
  unsigned wavesPerEU = 0; // "amdgpu-waves-per-eu" occupancy hint; 0: LLVM's choice
  unsigned numStages = 3;  // num_stages (a loop's own wins): >= 2 loads dot loops' operands an iteration ahead
  std::string kernel;      // when set, only this tt.func is compiled
};

// What a launch needs to know about each kernel of a compiled module.
struct KernelInfo {
  std::string name;
  unsigned numThreads = 0;  // work-items per program (work-group size)
  uint64_t sharedBytes = 0; // LDS per program, fixed in the kernel descriptor
  unsigned numParams = 0;   // kernel parameters, as the launch passes them
};

struct HSACOModule {
  std::string hsaco; // the code object's bytes
  std::vector<KernelInfo> kernels;
};

// Block IR (verified) to verified thread IR for `target`, after the default block-IR
// pipeline (inlining, folding, CSE, LICM, DCE) on a copy.
std::optional<Module> lowerToThreadIR(const Module &blockIR, const TargetDesc &target,
                                      const HSACOOptions &options, Diagnostics &diags);
// The thread IR as text ("" after diagnostics).
std::string emitThreadIR(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                         Diagnostics &diags);
// The optimized LLVM IR (device libraries linked) as text ("" after diagnostics).
std::string emitLLVM(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                     Diagnostics &diags);
// The AMDGPU assembly as text ("" after diagnostics).
std::string emitAssembly(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                         Diagnostics &diags);
// The code object and kernel metadata; nullopt after diagnostics.
std::optional<HSACOModule> compileModuleToHSACO(const Module &blockIR, const TargetDesc &target,
                                                const HSACOOptions &options, Diagnostics &diags);
// The code object of thread IR written by hand or by another tool (verified here:
// every tt.func needs num_threads and shared_bytes); nullopt after diagnostics.
std::optional<HSACOModule> compileThreadIRToHSACO(const Module &threadIR, const TargetDesc &target,
                                                  const HSACOOptions &options, Diagnostics &diags);
// The optimized LLVM IR and the AMDGPU assembly of thread IR that verifies
// (trident-translate's input); "" after diagnostics.
std::string emitLLVMFromThreadIR(const Module &threadIR, const TargetDesc &target, const HSACOOptions &options,
                                 Diagnostics &diags);
std::string emitAssemblyFromThreadIR(const Module &threadIR, const TargetDesc &target,
                                     const HSACOOptions &options, Diagnostics &diags);

// The code object only ("" after diagnostics).
std::string compileToHSACO(const Module &blockIR, const TargetDesc &target, const HSACOOptions &options,
                           Diagnostics &diags);

} // namespace trident::amdgpu
