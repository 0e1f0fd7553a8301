#pragma once
// Ahead-of-time assembly of PTX to a cubin with NVIDIA's ptxas, when it is installed
// and asked for (TRIDENT_CUDA_CUBIN=1). Without it the driver compiles the PTX when
// the module loads, which is the default.

#include <optional>
#include <string>

namespace trident::cuda {

// The ptxas program to use: $TRIDENT_PTXAS, else /usr/local/cuda/bin/ptxas, else the
// first `ptxas` on $PATH; empty when none exists.
std::string findPtxas();
// True when TRIDENT_CUDA_CUBIN asks for cubins ("1", "on").
bool cubinRequested();
// Assembles `ptx` for `arch` ("sm_90"); the cubin's bytes, or nullopt with ptxas's
// own messages in `error`.
std::optional<std::string> assemble(const std::string &ptxas, const std::string &ptx, const std::string &arch,
                                    std::string &error);

} // namespace trident::cuda
