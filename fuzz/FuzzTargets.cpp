#include "FuzzTargets.h"

#include "FuzzTarget.h" // frontend/fuzz: runFrontendOnInput

#include <cstdio>
#include <cstdlib>

namespace trident::fuzz {

namespace {

// The frontend's seeds live with its tests (tests/frontend/fuzz_corpus); the SPIR-V
// backend starts from the thread-IR seeds.
const FuzzTarget kTargets[] = {
    {"frontend", "", runFrontendOnInput},
    {"block_ir", "block_ir", fuzzBlockIR},
    {"thread_ir", "thread_ir", fuzzThreadIR},
    {"signature", "signature", fuzzSignature},
    {"cache_entry", "cache_entry", fuzzCacheEntry},
#if TRIDENT_FUZZ_HAS_SPIRV
    {"spirv", "thread_ir", fuzzSpirv},
#endif
};

} // namespace

std::span<const FuzzTarget> allFuzzTargets() { return kTargets; }

const FuzzTarget *lookupFuzzTarget(std::string_view name) {
  for (const FuzzTarget &t : kTargets)
    if (t.name == name)
      return &t;
  return nullptr;
}

void fuzzFailure(std::string_view what) {
  // Written whole: a message may quote input bytes, NULs included.
  std::fprintf(stderr, "fuzz target property broken: ");
  std::fwrite(what.data(), 1, what.size(), stderr);
  std::fprintf(stderr, "\n");
  std::fflush(stderr);
  std::abort();
}

} // namespace trident::fuzz
