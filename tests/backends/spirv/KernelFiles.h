#pragma once
// The hand-written thread-IR kernels of tests/backends/spirv/kernels.

#include "trident/ir/Parser.h"

#include <fstream>
#include <sstream>
#include <string>

namespace trident::test {

inline std::string readKernelFile(const std::string &name) {
  std::ifstream in(std::string(TRIDENT_SPIRV_KERNELS_DIR) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Parses a kernel file; an empty optional (and a failed CHECK) when it does not parse.
inline std::optional<Module> parseKernelFile(const std::string &name, Diagnostics &diags) {
  return parseModule(readKernelFile(name), name, diags);
}

} // namespace trident::test
