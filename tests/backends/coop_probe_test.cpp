// The cooperative-matrix layout probe (backends/spirv CoopProbe.h), which the Vulkan
// plugin runs on a device before it gives the compiler known layouts: run here in the
// thread-IR simulator, whose cooperative matrices hold their components where the
// layouts it is given say (ThreadSim::setCoopMatrices). Given the layouts the probe
// checks, it confirms them; given others (a device that keeps its components elsewhere),
// it takes the layouts away. Its SPIR-V validates for vulkan:nvidia; lavapipe has no
// cooperative matrices, so there is no probe to run.
#include "../core/simt/ThreadSim.h"

#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/CoopProbe.h"
#include "trident/backends/spirv/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"
#include "trident/simt/VerifyThreadIR.h"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>

using namespace trident;

namespace {

int withLayouts(const std::vector<CoopMatrixShape> &shapes) {
  int n = 0;
  for (const CoopMatrixShape &s : shapes)
    n += s.layouts.has_value();
  return n;
}

// The probe's output when run by a simulator whose matrices are laid out as `device`.
std::vector<float> simulate(const spirv::CoopProbe &probe, const Module &m, const std::vector<CoopMatrixShape> &device) {
  std::vector<float> out(size_t(probe.outputFloats), -1.0f);
  simt::test::ThreadSim sim(probe.subgroupSize);
  sim.setCoopMatrices(device);
  sim.addBuffer(out.data(), out.size() * sizeof(float));
  std::string error;
  CHECK_MESSAGE(sim.run(m, spirv::CoopProbe::kKernel, {uint64_t(reinterpret_cast<uintptr_t>(out.data()))}, {1, 1, 1},
                        error),
                error);
  return out;
}

// The H200's components as the lead's probe shader measured them (driver 580,
// coopprobe_h200.txt: per kind, per lane, the memory index r,c of each component of a tile
// loaded row-major from r * 16 + c), written as this probe's output for `probe`.
std::vector<float> measuredOnH200(const spirv::CoopProbe &probe) {
  std::ifstream in(TRIDENT_COOPPROBE_H200);
  REQUIRE(in);
  std::map<std::string, std::vector<std::vector<int>>> kinds; // kind name -> lane -> components
  std::string line, kind;
  while (std::getline(in, line)) {
    if (line.rfind("kind ", 0) == 0) {
      kind = line.substr(7, line.find(" len") - 7); // "acc f32 (row-major load)", "B f16", ...
      continue;
    }
    if (line.rfind("  lane", 0) != 0)
      continue;
    std::istringstream fields(line.substr(line.find(':') + 1));
    std::vector<int> components;
    for (std::string rc; fields >> rc;)
      components.push_back(std::stoi(rc) * 16 + std::stoi(rc.substr(rc.find(',') + 1)));
    kinds[kind].push_back(components);
  }
  std::vector<float> out(size_t(probe.outputFloats), -1.0f);
  for (size_t j = 0; j < probe.matrices.size(); ++j) {
    Type m = probe.matrices[j];
    std::string name = m.matrixUse() == 0 ? "A f16" : m.matrixUse() == 1 ? "B f16"
                       : m.element() == Type::f32() ? "acc f32 (row-major load)" : "acc f16";
    const std::vector<std::vector<int>> &lanes = kinds[name];
    REQUIRE_MESSAGE(lanes.size() == 32, name);
    for (size_t lane = 0; lane < 32; ++lane)
      for (size_t i = 0; i < lanes[lane].size(); ++i)
        out[size_t(probe.first[j]) + lane * lanes[lane].size() + i] = float(lanes[lane][i]);
  }
  return out;
}

} // namespace

TEST_CASE("the cooperative-matrix layout probe accepts what the H200 measured") {
  // nvidiaCoopLayouts is the table the H200's driver keeps: the probe's check, given the
  // measurement, confirms every shape's layouts.
  spirv::DeviceInfo nvidia = *spirv::profileDevice("vulkan:nvidia");
  std::optional<spirv::CoopProbe> probe = spirv::coopProbe(nvidia.coopShapes, nvidia.subgroupSize);
  REQUIRE(probe);
  std::string report;
  std::vector<CoopMatrixShape> confirmed =
      spirv::confirmCoopLayouts(*probe, nvidia.coopShapes, measuredOnH200(*probe), report);
  CHECK_MESSAGE(report.empty(), report);
  CHECK(withLayouts(confirmed) == 2);
}

TEST_CASE("the cooperative-matrix layout probe confirms the layouts a device has and no others") {
  spirv::DeviceInfo nvidia = *spirv::profileDevice("vulkan:nvidia");
  REQUIRE(withLayouts(nvidia.coopShapes) == 2); // 16x16x16 f16 into f16 and into f32
  std::optional<spirv::CoopProbe> probe = spirv::coopProbe(nvidia.coopShapes, nvidia.subgroupSize);
  REQUIRE(probe);
  CHECK(probe->matrices.size() == 4); // A, B, an f16 and an f32 accumulator
  Diagnostics diags;
  std::optional<Module> m = parseModule(probe->threadIR, "<probe>", diags);
  REQUIRE_MESSAGE(m, diags.str());
  REQUIRE_MESSAGE(verify(*m, diags), diags.str());
  REQUIRE_MESSAGE(simt::verifyThreadIR(*m, diags), diags.str());

  // On a device (here the simulator) that has NVIDIA's layouts: all confirmed.
  std::string report;
  std::vector<CoopMatrixShape> confirmed =
      spirv::confirmCoopLayouts(*probe, nvidia.coopShapes, simulate(*probe, *m, nvidia.coopShapes), report);
  CHECK_MESSAGE(report.empty(), report);
  REQUIRE(confirmed.size() == nvidia.coopShapes.size());
  for (size_t i = 0; i < confirmed.size(); ++i)
    CHECK(confirmed[i].layouts == nvidia.coopShapes[i].layouts);

  // On one whose B is kept transposed (k and n swapped): every shape using that B loses
  // its layouts, and the report names the first wrong component.
  std::vector<CoopMatrixShape> other = nvidia.coopShapes;
  for (CoopMatrixShape &s : other)
    if (s.layouts)
      for (auto *bits : {&s.layouts->b.componentBits, &s.layouts->b.laneBits})
        for (auto &[row, col] : *bits)
          std::swap(row, col);
  report.clear();
  confirmed = spirv::confirmCoopLayouts(*probe, nvidia.coopShapes, simulate(*probe, *m, other), report);
  CHECK(withLayouts(confirmed) == 0);
  CHECK(report.find("coopmat<16x16xf16, b>: lane 0 component 1 holds") != std::string::npos);
  // Nothing written at all (a probe that did not run): nothing confirmed.
  report.clear();
  CHECK(withLayouts(spirv::confirmCoopLayouts(*probe, nvidia.coopShapes, {}, report)) == 0);

  // Its SPIR-V for vulkan:nvidia: components by OpCompositeExtract, validated (in the
  // SPV_NV_cooperative_matrix form where SPIRV-Tools predate the KHR extension).
  std::optional<spirv::SpirvKernel> k = spirv::generateSpirv(*m, spirv::CoopProbe::kKernel, nvidia, diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK((k->interface.requiredFeatures & spirv::kCooperativeMatrix) != 0);

  // No shape with layouts, no probe: the generic target, lavapipe (no cooperative
  // matrices), and every device under TRIDENT_VULKAN_COOP_LAYOUTS=off.
  for (const char *name : {"vulkan", "vulkan:lavapipe"}) {
    spirv::DeviceInfo d = *spirv::profileDevice(name);
    CHECK(!spirv::coopProbe(d.coopShapes, d.subgroupSize));
  }
  std::vector<CoopMatrixShape> opaque = nvidia.coopShapes;
  for (CoopMatrixShape &s : opaque)
    s.layouts.reset();
  CHECK(!spirv::coopProbe(opaque, 32));
}
