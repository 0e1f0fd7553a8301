#pragma once
// NVIDIA targets: sm_80, sm_86, sm_89 and sm_90, named "cuda:sm_90" in target strings.
//
//   std::optional<TargetDesc> t = nvptx::targetDesc("cuda:sm_90");   // or "sm_90"

#include "trident/simt/TargetDesc.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace trident::nvptx {

// The architectures this backend generates code for, oldest first.
std::span<const std::string_view> supportedArchitectures();
// "sm_90" from "cuda:sm_90" or "sm_90"; nullopt when not a supported architecture.
std::optional<std::string> architecture(std::string_view target);
// The description of a supported architecture (warp size, shared memory, matrix atoms).
std::optional<TargetDesc> targetDesc(std::string_view target);
// The PTX ISA version feature LLVM is asked for: "+ptx80" (PTX 8.0, which CUDA 12 and 13
// drivers accept and which covers every supported architecture), "+ptx84" for kernels
// with fp8 tensor-core atoms (mma.sync .e4m3/.e5m2 needs PTX 8.4: drivers 550 and later).
std::string ptxFeatures(std::string_view arch, bool fp8MatrixUnits = false);
// The processor the PTX targets (its .target line, and what ptxas -arch must name):
// "sm_90a" for sm_90, whose matrix atoms (wgmma) exist only there; the architecture itself
// otherwise.
std::string llvmProcessor(std::string_view arch);

} // namespace trident::nvptx
