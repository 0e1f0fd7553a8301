#include "FuzzTargets.h"

#include "FuzzTarget.h" // frontend/fuzz: runFrontendOnInput

#include <cstdio>
#include <cstdlib>

namespace trident::fuzz {

namespace {

const FuzzTarget kTargets[] = {
    {"frontend", runFrontendOnInput}, {"block_ir", fuzzBlockIR},       {"thread_ir", fuzzThreadIR},
    {"signature", fuzzSignature},     {"cache_entry", fuzzCacheEntry},
};

} // namespace

std::span<const FuzzTarget> allFuzzTargets() { return kTargets; }

const FuzzTarget *lookupFuzzTarget(std::string_view name) {
  for (const FuzzTarget &t : kTargets)
    if (t.name == name)
      return &t;
  return nullptr;
}

void fuzzFailure(const char *what) {
  std::fprintf(stderr, "fuzz target property broken: %s\n", what);
  std::fflush(stderr);
  std::abort();
}

} // namespace trident::fuzz
