#pragma once
// Compiling without launching, for tools: source to block IR for a Triton
// signature string, and block IR to a target's artifact through the plugin that
// handles the target (no device needed).

#include "trident/Export.h"
#include "trident/Runtime.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace trident {

// Compiles kernel `kernel` of `source` for `signature` ("*fp32:16, *fp32:16,
// i32, 1024": one entry per parameter, constexprs as values) and runs the core
// passes; returns the printed block IR. Throws Error(Compile) with the
// diagnostics (file:line:col) on failure. `target` ("cuda:sm_90", "vulkan", "host"...)
// is the target tl.target_info.is_cuda(), cuda_capability_geq(...) ... answer for;
// empty: none (they answer False, as Triton's do with no active driver).
TRIDENT_API std::string compileToBlockIR(const std::string &source, const std::string &fileName, const std::string &kernel,
                             const std::string &signature, bool debug = false, const std::string &target = "");

struct Artifact {
  std::string plugin; // the plugin that produced it
  std::string target;
  std::vector<uint8_t> bytes;
  uint32_t threadsPerProgram = 0;
  uint32_t sharedMemory = 0;
};

struct ArtifactRequest {
  std::string target;    // "host", "cuda:sm_90", ... or a device name ("cuda:0")
  std::string emit = "binary"; // "binary", "thread-ir", "llvm", "ptx", "spirv", "hsaco" ...
  int numWarps = 4;
  int numStages = 3;
  bool debug = false;
};

// Asks the first loaded plugin that accepts `request.target` to compile block IR.
// Throws Error(NotSupported) naming the kind when no loaded backend provides it.
TRIDENT_API Artifact compileArtifact(const Runtime &runtime, const std::string &blockIR, const std::string &kernel,
                         const ArtifactRequest &request);

// One @triton.jit function of a source file.
struct KernelSummary {
  std::string name;
  std::vector<std::string> params;
  std::vector<bool> isConstexpr;
  struct Config { // @triton.autotune's triton.Config: each kwarg's value as written
    std::vector<std::pair<std::string, std::string>> kwargs;
    int numWarps = 4, numStages = 3;
  };
  std::vector<Config> autotuneConfigs;
};
// The @triton.jit functions of `source`; throws Error(Compile) when it does not parse.
TRIDENT_API std::vector<KernelSummary> listSourceKernels(const std::string &source, const std::string &fileName);

} // namespace trident
