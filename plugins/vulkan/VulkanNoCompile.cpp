// The compile entries of a Vulkan plugin built without the compiler
// (-DTRIDENT_ENABLE_COMPILER=OFF, in place of VulkanCompile.cpp): it loads and
// launches SPIR-V compiled ahead of time (bundles) and compiles nothing, so neither
// the SPIR-V backend's lowering nor SPIRV-Tools is linked in. Its copy kernels are
// not available either; copies use transfer commands. Nor is the cooperative-matrix
// layout probe: kernels that read components (kCoopMatrixNvidiaLayouts) do not load.

#include "VulkanDevice.h"

namespace trident::vulkan {

trident_status supportsTarget(trident_context, const char *target) {
  return fail(TRIDENT_ERROR_NOT_SUPPORTED, std::string("this vulkan plugin was built without the compiler; it loads "
                                                       "kernels compiled ahead of time and compiles none (asked for '") +
                                               (target ? target : "") + "')");
}

trident_status compile(trident_context ctx, const char *target, const char *, size_t, const char *,
                       const trident_compile_options *, trident_binary *) {
  return supportsTarget(ctx, target);
}

trident_status binaryRelease(trident_context, trident_binary *) { return TRIDENT_SUCCESS; }

std::vector<CoopMatrixShape> coopLayoutCandidates(const PhysicalDevice &) { return {}; }
void probeCoopLayouts(Device &) {}

} // namespace trident::vulkan

extern "C" TRIDENT_PLUGIN_EXPORT int trident_vulkan_coop_probe_result(trident_context, uint32_t) { return 0; }
