#pragma once
// Compares a buffer a device left with the one the reference left, as the buffer's
// OutputCheck says: bit for bit, equal float values, or within a tolerance.

#include "RandomKernel.h"

#include <string>
#include <vector>

namespace trident::e2e {

struct BufferComparison {
  size_t mismatches = 0;
  std::string report; // the first few mismatches, one per line ("" when none)
};

BufferComparison compareBuffer(const ArgSpec &spec, const std::vector<uint8_t> &reference,
                               const std::vector<uint8_t> &actual, size_t maxReported = 4);

// Checks the reference's values in an output against what the generator promised
// (OutputCheck::hasRange): "" when they obey it, else the first offending element.
// A broken promise is a generator bug: the comparison modes rest on it.
std::string checkPromise(const ArgSpec &spec, const std::vector<uint8_t> &reference);

// The value of element i (integers read signed, i1 true as -1); `unwritten` when it
// still holds the poison pattern.
double elementValue(const ArgSpec &spec, const std::vector<uint8_t> &buffer, size_t i, bool &unwritten);

} // namespace trident::e2e
