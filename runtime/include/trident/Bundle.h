#pragma once
// Bundles: one kernel compiled ahead of time for several targets, in one file
// (`trident compile FILE --kernel K --signature S --target T [--target T2 ...]
// --emit bundle -o k.tbundle`). Kernel::fromBundle loads it in any runtime, one
// built without the compiler (-DTRIDENT_ENABLE_COMPILER=OFF) included, and picks
// the best entry for each device a launch names. docs/bundles.md has the format.

#include "trident/Export.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace trident {

class Runtime;

struct BundleParam {
  std::string name;
  bool isConstexpr = false;
};

// One compiled binary: what the plugin `plugin` made for `target` from the
// kernel specialized on `signature`, and what a launch needs to know about it.
struct BundleEntry {
  std::string plugin;    // the plugin that loads it: "host", "cuda", "hip", "vulkan"
  std::string target;    // "host", "cuda:sm_90", "hip:gfx942", "vulkan" (generic), "vulkan:<device>"
  std::string signature; // "*fp32:16, *fp32:16, *fp32:16, i32, 1024" (Triton's form, constexpr values included)
  uint32_t numWarps = 4;
  uint32_t numStages = 3;
  uint32_t threadsPerProgram = 0;
  uint32_t sharedMemory = 0; // static shared memory, bytes
  std::vector<uint8_t> binary; // the plugin's binary, as its compile returned it
};

// One @triton.autotune config: its keyword arguments as Python source and options.
struct BundleConfig {
  std::vector<std::pair<std::string, std::string>> kwargs; // {"BLOCK_SIZE", "128"}
  uint32_t numWarps = 4;
  uint32_t numStages = 3;
};

struct Bundle {
  std::string kernel; // the kernel's name
  std::vector<BundleParam> params;
  std::vector<BundleEntry> entries;
  // @triton.autotune: the configs (an entry per config and target) and the key; a
  // launch tunes among the entries as it would among compiled configs.
  std::vector<BundleConfig> configs;
  std::vector<std::string> tuneKey;
  // @triton.heuristics: parameter -> lambda source, evaluated at each launch.
  std::vector<std::pair<std::string, std::string>> heuristics;
};

// The bytes of a .tbundle file holding `bundle`.
TRIDENT_API std::vector<uint8_t> writeBundle(const Bundle &bundle);
// The bundle in `bytes`; throws Error(InvalidArgument), naming `what` and the fault,
// when they are not a whole, undamaged bundle of a format this runtime reads.
TRIDENT_API Bundle readBundle(std::span<const uint8_t> bytes, const std::string &what = "<bundle>");
// readBundle of a file; Error(NotFound) when it cannot be read.
TRIDENT_API Bundle readBundleFile(const std::string &path);

// The entries of a Triton signature string, split at its top-level commas and trimmed:
// "*fp32:16, i32, (1, 2)" -> {"*fp32:16", "i32", "(1, 2)"}.
TRIDENT_API std::vector<std::string> signatureEntries(const std::string &signature);

// Compiles kernel `kernel` of Triton-language `source` for `signature` once to block
// IR, then for each of `targets` (a target string or a device name, as
// compileArtifact takes) through the plugin that accepts it. Needs the compiler
// (Error(NotSupported) without it).
TRIDENT_API Bundle compileBundle(const Runtime &runtime, const std::string &source, const std::string &fileName,
                                 const std::string &kernel, const std::string &signature,
                                 const std::vector<std::string> &targets, int numWarps = 4, int numStages = 3,
                                 bool debug = false);

} // namespace trident
