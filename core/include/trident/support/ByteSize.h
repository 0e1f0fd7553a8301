#pragma once
// Byte counts as messages show them: "512 B", "1.5 KiB", "80.0 GiB", "1.0 PiB"
// (powers of 1024, one decimal).

#include <cstdint>
#include <string>

namespace trident {

std::string formatByteSize(uint64_t bytes);

} // namespace trident
