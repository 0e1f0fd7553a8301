// libFuzzer entry of one target, chosen when it is compiled (TRIDENT_FUZZ_TARGET).
#include "FuzzTargets.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const trident::fuzz::FuzzTarget *target = [] {
    const trident::fuzz::FuzzTarget *t = trident::fuzz::lookupFuzzTarget(TRIDENT_FUZZ_TARGET);
    if (!t) {
      std::fprintf(stderr, "no fuzz target '%s'\n", TRIDENT_FUZZ_TARGET);
      std::abort();
    }
    return t;
  }();
  target->run(data, size);
  return 0;
}
