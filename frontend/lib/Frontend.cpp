#include "trident/frontend/Frontend.h"

namespace trident {

std::optional<std::vector<ArgSpec>> parseSignature(std::string_view, Diagnostics &) { return std::nullopt; }

std::optional<Module> compileKernel(std::string_view, std::string_view, const CompileRequest &, Diagnostics &) {
  return std::nullopt;
}

std::optional<std::vector<KernelInfo>> listKernels(std::string_view, std::string_view, Diagnostics &) {
  return std::nullopt;
}

} // namespace trident
