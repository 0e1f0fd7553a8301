#pragma once
// SPIRV-Tools on the backend's output: validation for Vulkan, the optimizer and
// the disassembler.

#include <cstdint>
#include <string>
#include <vector>

namespace trident::spirv {

// The SPIR-V environment modules are validated for: Vulkan 1.2 (SPIR-V 1.5).
constexpr const char *kTargetEnvironment = "vulkan1.2";

// Empty when `words` is a valid Vulkan 1.2 module, else the validator's messages.
std::string validate(const std::vector<uint32_t> &words);

// SPIRV-Tools' performance passes; on failure returns false and leaves `words` unchanged.
bool optimize(std::vector<uint32_t> &words, std::string &error);

// The textual form (spirv-dis style, with friendly names).
std::string disassemble(const std::vector<uint32_t> &words);

} // namespace trident::spirv
