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

} // namespace trident::e2e
