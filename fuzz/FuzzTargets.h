#pragma once
// The fuzz targets: each runs one input reader of Trident on arbitrary bytes. A
// target must return for every input (a bad input is a diagnostic, never a crash, a
// hang or an unbounded allocation); where a property must hold (printed IR parses
// back to the same text, passes leave valid IR) a target traps when it does not.
// libFuzzer (trident_fuzz_<name>, built with TRIDENT_FUZZ=ON) and the corpus replay
// (trident-fuzz-replay, built with the tests) call the same functions.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace trident::fuzz {

using FuzzFunction = void (*)(const uint8_t *data, size_t size);

struct FuzzTarget {
  std::string_view name;
  std::string_view corpus; // the folder of its seeds under fuzz/corpus/ ("": elsewhere)
  FuzzFunction run;
};

// Every target, in a fixed order.
std::span<const FuzzTarget> allFuzzTargets();
const FuzzTarget *lookupFuzzTarget(std::string_view name);

// A broken property of an input that parsed: stops the run like a crash would.
[[noreturn]] void fuzzFailure(std::string_view what);

void fuzzBlockIR(const uint8_t *data, size_t size);
void fuzzThreadIR(const uint8_t *data, size_t size);
void fuzzSignature(const uint8_t *data, size_t size);
void fuzzCacheEntry(const uint8_t *data, size_t size);
#if TRIDENT_FUZZ_HAS_SPIRV
void fuzzSpirv(const uint8_t *data, size_t size); // with the SPIR-V backend only
#endif

} // namespace trident::fuzz
