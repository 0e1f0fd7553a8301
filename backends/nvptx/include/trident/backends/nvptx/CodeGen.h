#pragma once
// Block IR -> PTX for an NVIDIA target, in stages that `trident compile --emit`
// can stop after:
//
//   block IR --simt lowering--> thread IR --backends/llvm--> LLVM IR
//            --libdevice, O2--> optimized LLVM IR --NVPTX--> PTX
//
//   Diagnostics diags;
//   std::string ptx = nvptx::compileToPTX(blockIR, *nvptx::targetDesc("cuda:sm_90"), {}, diags);

#include "trident/ir/IR.h"
#include "trident/simt/TargetDesc.h"
#include "trident/support/Diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trident::nvptx {

struct PTXOptions {
  unsigned numWarps = 0; // 0: Triton's default (simt::defaultNumWarps)
  unsigned numStages = 3; // software pipelining depth of dot loops (cp.async); 1: none
  // LLVM optimization level, 0-3. 2 by default: for these kernels O3 gives the same PTX
  // hot loops (it unrolls runtime loops further) and costs 8-10% more compile time.
  unsigned optLevel = 2;
  std::string kernel;    // when set, only this tt.func is compiled
};

// What a launch needs to know about each kernel of a compiled module.
struct KernelInfo {
  std::string name;
  unsigned numThreads = 0;  // threads per program (block size)
  uint64_t sharedBytes = 0; // dynamic shared memory per program
  unsigned numParams = 0;   // kernel parameters, as the launch passes them
  // Tensor maps the kernel takes after them (simt/Tma.h), which the plugin builds from
  // those arguments: kTensorMapWords integers each.
  std::vector<int64_t> tensorMaps;
};

struct PTXModule {
  std::string ptx;
  std::vector<KernelInfo> kernels;
};

// Block IR (verified) to verified thread IR for `target`, after the default block-IR
// pipeline (inlining, folding, CSE, LICM, DCE) on a copy.
std::optional<Module> lowerToThreadIR(const Module &blockIR, const TargetDesc &target,
                                      const PTXOptions &options, Diagnostics &diags);
// The thread IR as text ("" after diagnostics).
std::string emitThreadIR(const Module &blockIR, const TargetDesc &target, const PTXOptions &options,
                         Diagnostics &diags);
// The optimized LLVM IR (libdevice linked) as text ("" after diagnostics).
std::string emitLLVM(const Module &blockIR, const TargetDesc &target, const PTXOptions &options,
                     Diagnostics &diags);
// PTX and kernel metadata; nullopt after diagnostics.
std::optional<PTXModule> compileModuleToPTX(const Module &blockIR, const TargetDesc &target,
                                            const PTXOptions &options, Diagnostics &diags);
// The same two from thread IR that verifies (trident-translate's input): the stages
// after the SIMT lowering.
std::string emitLLVMFromThreadIR(const Module &threadIR, const TargetDesc &target, const PTXOptions &options,
                                 Diagnostics &diags);
std::optional<PTXModule> compileThreadIRToPTX(const Module &threadIR, const TargetDesc &target,
                                              const PTXOptions &options, Diagnostics &diags);

// PTX text only ("" after diagnostics).
std::string compileToPTX(const Module &blockIR, const TargetDesc &target, const PTXOptions &options,
                         Diagnostics &diags);

} // namespace trident::nvptx
