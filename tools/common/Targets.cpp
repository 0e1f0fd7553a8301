#include "Targets.h"

#ifdef TRIDENT_TOOLS_NVPTX
#include "trident/backends/nvptx/Target.h"
#endif
#ifdef TRIDENT_TOOLS_AMDGPU
#include "trident/backends/amdgpu/Target.h"
#endif
#ifdef TRIDENT_TOOLS_SPIRV
#include "trident/backends/spirv/Target.h"
#endif

namespace trident::tools {

std::optional<TargetDesc> findTarget(std::string_view name, std::string &error) {
#ifdef TRIDENT_TOOLS_NVPTX
  if (name.starts_with("cuda:"))
    if (std::optional<TargetDesc> t = nvptx::targetDesc(name))
      return t;
#endif
#ifdef TRIDENT_TOOLS_AMDGPU
  if (name.starts_with("hip:"))
    if (std::optional<TargetDesc> t = amdgpu::targetDesc(name))
      return t;
#endif
#ifdef TRIDENT_TOOLS_SPIRV
  if (name.starts_with("vulkan"))
    if (std::optional<spirv::DeviceInfo> d = spirv::profileDevice(name))
      return spirv::targetDesc(*d);
#endif
  std::string known = knownTargets();
  error = "unknown target '" + std::string(name) + "' (this build knows: " + (known.empty() ? "none" : known) + ")";
  return std::nullopt;
}

std::string knownTargets() {
  std::string out;
  auto add = [&](std::string_view t) { out += (out.empty() ? "" : ", ") + std::string(t); };
#ifdef TRIDENT_TOOLS_NVPTX
  for (std::string_view arch : nvptx::supportedArchitectures())
    add("cuda:" + std::string(arch));
#endif
#ifdef TRIDENT_TOOLS_AMDGPU
  for (std::string_view arch : amdgpu::supportedArchitectures())
    add("hip:" + std::string(arch));
#endif
#ifdef TRIDENT_TOOLS_SPIRV
  for (std::string_view profile : {"vulkan", "vulkan:nvidia", "vulkan:lavapipe"})
    add(profile);
#endif
  return out;
}

} // namespace trident::tools
