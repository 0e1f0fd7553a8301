#pragma once
// The targets the IR tools (trident-opt, trident-translate) know by name, from the
// backends this build has: cuda:sm_80 ... cuda:sm_90 (nvptx), hip:gfx90a, hip:gfx942,
// hip:gfx1100 (amdgpu), vulkan (spirv: the generic Vulkan device).
//
//   std::string error;
//   std::optional<TargetDesc> t = tools::findTarget("cuda:sm_90", error);

#include "trident/simt/TargetDesc.h"

#include <optional>
#include <string>
#include <string_view>

namespace trident::tools {

// The description of `name`; nothing, with `error` saying why, when no backend of
// this build has it.
std::optional<TargetDesc> findTarget(std::string_view name, std::string &error);
// The target names this build knows, comma-separated.
std::string knownTargets();

} // namespace trident::tools
