#include "FuzzTarget.h"

#include "trident/frontend/Frontend.h"

#include <string_view>

namespace trident::fuzz {

void runFrontendOnInput(const uint8_t *data, size_t size) {
  std::string_view source(reinterpret_cast<const char *>(data), size);
  Diagnostics diags;
  auto kernels = listKernels(source, "fuzz.py", diags);
  (void)kernels;
}

} // namespace trident::fuzz
