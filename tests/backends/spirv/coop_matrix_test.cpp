// A matmul on cooperative matrices runs on vulkan:0 and agrees with the reference
// interpreter bit for bit (small integers: every summation order gives the same sums).
// Devices without VK_KHR_cooperative_matrix shapes for f16 x f16 -> f32 (lavapipe) keep
// the multiply-add lowering, which this test then skips loudly: it is for the H200.

#include "CoopMatmulKernel.h"
#include "VulkanHarness.h"

#include "trident/interp/Interpreter.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"
#include "trident/support/FloatFormats.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <random>
#include <set>
#include <sstream>

using namespace trident;
using namespace trident::test;

namespace trident::test {
extern VulkanHarness *harness;
}

TEST_CASE("a matmul on cooperative matrices agrees with the interpreter") {
  VulkanHarness &h = *harness;
  const int M = 64, N = 64, K = 128, BK = 32;
  std::string text = coopMatmulKernel(M, N, K, BK);
  std::vector<uint8_t> ir = h.compile(text, "mm", "thread-ir", 4);
  if (std::string(ir.begin(), ir.end()).find("th.coop_mma") == std::string::npos) {
    std::printf("SKIPPED: a matmul on cooperative matrices: %s has no VK_KHR_cooperative_matrix shape for "
                "f16 x f16 -> f32 (its dots run on multiply-adds)\n",
                h.props.target);
    return;
  }
  std::mt19937 gen(14);
  std::vector<uint16_t> a(M * K), b(K * N);
  for (uint16_t &x : a)
    x = uint16_t(encodeFloat(double(int(gen() % 7) - 3), FloatFormat::F16));
  for (uint16_t &x : b)
    x = uint16_t(encodeFloat(double(int(gen() % 7) - 3) * 0.5, FloatFormat::F16));
  std::vector<float> expected(M * N, -1.0f);
  std::vector<uint16_t> expectedHalf(M * N, 0);
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "mm", diags);
  REQUIRE_MESSAGE((m && verify(*m, diags)), diags.str());
  {
    Interpreter interp;
    interp.addBuffer(a.data(), a.size() * 2);
    interp.addBuffer(b.data(), b.size() * 2);
    interp.addBuffer(expected.data(), expected.size() * 4);
    interp.addBuffer(expectedHalf.data(), expectedHalf.size() * 2);
    std::vector<KernelArg> args{KernelArg::pointer(a.data(), Type::f16()), KernelArg::pointer(b.data(), Type::f16()),
                                KernelArg::pointer(expected.data(), Type::f32()),
                                KernelArg::pointer(expectedHalf.data(), Type::f16())};
    REQUIRE_MESSAGE(interp.run(*m, "mm", args, {1, 1, 1}, diags), diags.str());
  }
  trident_devptr da = h.upload(a), db = h.upload(b);
  trident_devptr dc = h.upload(std::vector<float>(M * N, -7.0f)), dd = h.upload(std::vector<uint16_t>(M * N, 0x7e00));
  VulkanHarness::Kernel k = h.load(text, "mm", 4);
  h.launch(k, {1, 1, 1}, {h.ptr(da), h.ptr(db), h.ptr(dc), h.ptr(dd)});
  std::vector<float> got = h.download<float>(dc, M * N);
  std::vector<uint16_t> gotHalf = h.download<uint16_t>(dd, M * N);
  h.unload(k);
  for (trident_devptr p : {da, db, dc, dd})
    h.free(p);
  int bad = 0;
  for (int i = 0; i < M * N; ++i)
    if (got[i] != expected[i] || gotHalf[i] != expectedHalf[i]) {
      if (bad++ < 8)
        MESSAGE("element (", i / N, ", ", i % N, "): expected ", expected[i], ", got ", got[i]);
    }
  CHECK_MESSAGE(bad == 0, bad, " of ", M * N, " elements differ");
  MESSAGE("a 64x64x128 matmul on cooperative matrices of ", h.props.target, " matches the interpreter");
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
// subnormals are kept) for a matmul kernel on cooperative matrices. On an NVIDIA device
// the lines that differ are printed; elsewhere the test says it skips.
TEST_CASE("the vulkan:nvidia profile matches an NVIDIA device") {
  VulkanHarness &h = *harness;
  if (std::string(h.props.name).find("NVIDIA") == std::string::npos) {
    std::printf("SKIPPED: the vulkan:nvidia profile: vulkan:0 is %s, not an NVIDIA GPU\n", h.props.name);
    return;
  }
  std::string text = coopMatmulKernel(32, 32, 64, 32);
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
  CHECK_MESSAGE(differ.empty(), "the profile and the device differ:\n", differ);
}
