// The Vulkan run tests need a Vulkan device (lavapipe counts). Without one they
// do not run: the binary says so ("SKIPPED: ...") and exits with 77, which CTest
// counts as a skipped test.
#define DOCTEST_CONFIG_IMPLEMENT
#include "VulkanHarness.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

namespace trident::test {
VulkanHarness *harness = nullptr;
}

// TRIDENT_VULKAN_PLUGIN in the environment overrides the plugin path built in.
int main(int argc, char **argv) {
  const char *plugin = std::getenv("TRIDENT_VULKAN_PLUGIN");
  trident::test::VulkanHarness h(plugin && *plugin ? plugin : TRIDENT_VULKAN_PLUGIN);
  if (!h.hasDevice()) {
    std::printf("SKIPPED: backend_vulkan_run_tests: no Vulkan device: %s\n", h.noDeviceReason.c_str());
    return 77;
  }
  std::printf("running on %s (%s), subgroups of %u\n", h.props.name, h.props.target, h.props.warp_size);
  trident::test::harness = &h;
  doctest::Context context(argc, argv);
  return context.run();
}
