// libFuzzer entry: the frontend on mutated kernel sources (see docs/frontend.md).
#include "FuzzTarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  trident::fuzz::runFrontendOnInput(data, size);
  return 0;
}
