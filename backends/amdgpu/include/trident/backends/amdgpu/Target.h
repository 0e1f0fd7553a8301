#pragma once
// AMD targets: gfx90a (MI200) and gfx942 (MI300), wave64, and gfx1100 (RDNA3),
// wave32; named "hip:gfx942" in target strings.
//
//   std::optional<TargetDesc> t = amdgpu::targetDesc("hip:gfx942");   // or "gfx942"

#include "trident/simt/TargetDesc.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace trident::amdgpu {

// The architectures this backend generates code for, oldest first.
std::span<const std::string_view> supportedArchitectures();
// "gfx942" from "hip:gfx942", "gfx942" or a HIP gcnArchName such as
// "gfx942:sramecc+:xnack-"; nullopt when not a supported architecture.
std::optional<std::string> architecture(std::string_view target);
// The description of a supported architecture (wave size, LDS, matrix atoms).
std::optional<TargetDesc> targetDesc(std::string_view target);
// Lanes per wavefront of a supported architecture: 64 on gfx9, 32 on gfx11.
unsigned wavefrontSize(std::string_view arch);
// The value of the device libraries' __oclc_ISA_version for `arch` (9010 for gfx90a).
unsigned isaVersion(std::string_view arch);

} // namespace trident::amdgpu
