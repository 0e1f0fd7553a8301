// A matmul on cooperative matrices runs on vulkan:0 and agrees with the reference
// interpreter bit for bit (small integers: every summation order gives the same sums),
// in f16 and in bf16. Devices without VK_KHR_cooperative_matrix shapes for f16 x f16 ->
// f32, or bf16 x bf16 -> f32 with VK_KHR_shader_bfloat16 (lavapipe) keep the multiply-add
// lowering, which these tests then skip loudly: they are for the H200.

#include "CoopMatmulKernel.h"
#include "VulkanHarness.h"

#include "trident/interp/Interpreter.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"
#include "trident/support/FloatFormats.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <sstream>

using namespace trident;
using namespace trident::test;

namespace trident::test {
extern VulkanHarness *harness;
}

namespace {

// `bf16`: A, B and D in bf16 (the bf16 x bf16 -> f32 shapes of VK_KHR_shader_bfloat16).
void runMatmul(bool bf16) {
  VulkanHarness &h = *harness;
  const int M = 64, N = 64, K = 128, BK = 32;
  const char *name = bf16 ? "bf16" : "f16";
  FloatFormat format = bf16 ? FloatFormat::BF16 : FloatFormat::F16;
  Type element = bf16 ? Type::bf16() : Type::f16();
  std::string text = coopMatmulKernel(M, N, K, BK, false, false, name);
  std::vector<uint8_t> ir = h.compile(text, "mm", "thread-ir", 4);
  if (std::string(ir.begin(), ir.end()).find("th.coop_mma") == std::string::npos) {
    std::printf("SKIPPED: a %s matmul on cooperative matrices: %s has no VK_KHR_cooperative_matrix shape for "
                "%s x %s -> f32%s (its dots run on multiply-adds)\n",
                name, h.props.target, name, name, bf16 ? " with VK_KHR_shader_bfloat16" : "");
    return;
  }
  std::mt19937 gen(14);
  std::vector<uint16_t> a(M * K), b(K * N);
  for (uint16_t &x : a)
    x = uint16_t(encodeFloat(double(int(gen() % 7) - 3), format));
  for (uint16_t &x : b)
    x = uint16_t(encodeFloat(double(int(gen() % 7) - 3) * 0.5, format));
  std::vector<float> expected(M * N, -1.0f);
  std::vector<uint16_t> expectedNarrow(M * N, 0);
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "mm", diags);
  REQUIRE_MESSAGE((m && verify(*m, diags)), diags.str());
  {
    Interpreter interp;
    interp.addBuffer(a.data(), a.size() * 2);
    interp.addBuffer(b.data(), b.size() * 2);
    interp.addBuffer(expected.data(), expected.size() * 4);
    interp.addBuffer(expectedNarrow.data(), expectedNarrow.size() * 2);
    std::vector<KernelArg> args{KernelArg::pointer(a.data(), element), KernelArg::pointer(b.data(), element),
                                KernelArg::pointer(expected.data(), Type::f32()),
                                KernelArg::pointer(expectedNarrow.data(), element)};
    REQUIRE_MESSAGE(interp.run(*m, "mm", args, {1, 1, 1}, diags), diags.str());
  }
  trident_devptr da = h.upload(a), db = h.upload(b);
  trident_devptr dc = h.upload(std::vector<float>(M * N, -7.0f)), dd = h.upload(std::vector<uint16_t>(M * N, 0x7e00));
  VulkanHarness::Kernel k = h.load(text, "mm", 4);
  h.launch(k, {1, 1, 1}, {h.ptr(da), h.ptr(db), h.ptr(dc), h.ptr(dd)});
  std::vector<float> got = h.download<float>(dc, M * N);
  std::vector<uint16_t> gotNarrow = h.download<uint16_t>(dd, M * N);
  h.unload(k);
  for (trident_devptr p : {da, db, dc, dd})
    h.free(p);
  int bad = 0;
  for (int i = 0; i < M * N; ++i)
    if (got[i] != expected[i] || gotNarrow[i] != expectedNarrow[i]) {
      if (bad++ < 8)
        MESSAGE("element (", i / N, ", ", i % N, "): expected ", expected[i], ", got ", got[i]);
    }
  CHECK_MESSAGE(bad == 0, bad, " of ", M * N, " elements differ");
  MESSAGE("a 64x64x128 ", name, " matmul on cooperative matrices of ", h.props.target,
          " matches the interpreter");
}

} // namespace

TEST_CASE("a matmul on cooperative matrices agrees with the interpreter") { runMatmul(false); }

// bf16 x bf16 -> f32 on the H200 (driver 580 lists 16x16x16 with VK_KHR_shader_bfloat16).
TEST_CASE("a bf16 matmul on bf16 cooperative matrices agrees with the interpreter") { runMatmul(true); }

// The plugin's cooperative-matrix layout probe (plugins/vulkan/VulkanCoopProbe.cpp) ran at
// device_open (unless TRIDENT_VULKAN_COOP_LAYOUTS=off): on an NVIDIA device it must
// confirm the driver's layouts, and the matmul
// compiled for vulkan:0 then reads its result's components (th.coop_extract: the matmul
// case above ran that way), except under TRIDENT_VULKAN_COOP_LAYOUTS=off. A device without
// cooperative matrices (lavapipe) has nothing to probe.
TEST_CASE("the cooperative-matrix layout probe") {
  VulkanHarness &h = *harness;
  using Result = int (*)(trident_context, uint32_t);
  auto result = reinterpret_cast<Result>(dlsym(h.lib, "trident_vulkan_coop_probe_result"));
  REQUIRE(bool(result));
  int probed = result(h.ctx, 0);
  std::string text = coopMatmulKernel(64, 64, 128, 32, false, false, "f16");
  auto threadIR = [&] {
    std::vector<uint8_t> ir = h.compile(text, "mm", "thread-ir", 4);
    return std::string(ir.begin(), ir.end());
  };
  if (probed == 0) {
    const char *knob = std::getenv("TRIDENT_VULKAN_COOP_LAYOUTS");
    std::printf("SKIPPED: the cooperative-matrix layout probe: %s\n",
                knob && std::string(knob) == "off"
                    ? "TRIDENT_VULKAN_COOP_LAYOUTS=off: devices do not probe"
                    : (std::string(h.props.target) + " has no cooperative matrices whose layouts Trident knows "
                                                     "(nothing to probe)").c_str());
    CHECK(threadIR().find("th.coop_extract") == std::string::npos);
    return;
  }
  CHECK_MESSAGE(probed == 1, h.props.target, " keeps cooperative-matrix components elsewhere than NVIDIA's "
                                             "driver is known to (its stderr line names the first that differs)");
  if (probed != 1)
    return;
  CHECK(threadIR().find("th.coop_extract") != std::string::npos);
  setenv("TRIDENT_VULKAN_COOP_LAYOUTS", "off", 1);
  std::string off = threadIR();
  unsetenv("TRIDENT_VULKAN_COOP_LAYOUTS");
  CHECK(off.find("th.coop_extract") == std::string::npos);
  CHECK(off.find("th.coop_store") != std::string::npos);
}

// The compile-only vulkan:lavapipe profile (spirv::profileDevice) describes the lavapipe
// this machine has: a kernel compiles to the same SPIR-V words for both.
TEST_CASE("the vulkan:lavapipe profile matches lavapipe") {
  VulkanHarness &h = *harness;
  if (std::string(h.props.name).find("llvmpipe") == std::string::npos) {
    std::printf("SKIPPED: the vulkan:lavapipe profile: vulkan:0 is %s, not lavapipe\n", h.props.name);
    return;
  }
  std::string text = coopMatmulKernel(32, 32, 64, 32);
  std::vector<uint8_t> device = h.compile(text, "mm", "spirv", 4);
  std::vector<uint8_t> profile = h.compile(text, "mm", "spirv", 4, "vulkan:lavapipe");
  CHECK_MESSAGE(device == profile, "the SPIR-V for ", h.props.target, " and for vulkan:lavapipe differ");
}

// The compile-only vulkan:nvidia profile describes NVIDIA's driver as far as kernels can
// tell: the same capabilities, extensions and execution modes (float controls: which
// subnormals are kept) for a matmul kernel on cooperative matrices, f16 and bf16 (the
// bfloat16 capabilities). On an NVIDIA device the lines that differ are printed;
// elsewhere the test says it skips.
TEST_CASE("the vulkan:nvidia profile matches an NVIDIA device") {
  VulkanHarness &h = *harness;
  if (std::string(h.props.name).find("NVIDIA") == std::string::npos) {
    std::printf("SKIPPED: the vulkan:nvidia profile: vulkan:0 is %s, not an NVIDIA GPU\n", h.props.name);
    return;
  }
  for (const char *element : {"f16", "bf16"}) {
    CAPTURE(element);
    std::string text = coopMatmulKernel(32, 32, 64, 32, false, false, element);
    auto declarations = [&](const char *target) {
      std::vector<uint8_t> bytes = h.compile(text, "mm", "spirv-asm", 4, target);
      std::set<std::string> out;
      std::istringstream in(std::string(bytes.begin(), bytes.end()));
      for (std::string line; std::getline(in, line);)
        if (line.find("OpCapability") != std::string::npos || line.find("OpExtension") != std::string::npos ||
            line.find("OpExecutionMode") != std::string::npos)
          out.insert(line.substr(line.find_first_not_of(' ')));
      return out;
    };
    std::set<std::string> device = declarations(nullptr), profile = declarations("vulkan:nvidia");
    std::string differ;
    for (const std::string &line : device)
      if (!profile.count(line))
        differ += "  only for " + std::string(h.props.target) + ": " + line + "\n";
    for (const std::string &line : profile)
      if (!device.count(line))
        differ += "  only for vulkan:nvidia: " + line + "\n";
    CHECK_MESSAGE(differ.empty(), "the profile and the device differ (", element, " matmul):\n", differ);
  }
}
