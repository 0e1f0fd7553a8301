#pragma once
// Whether a device keeps cooperative-matrix components where a table says
// (CoopMatrixShape::layouts, e.g. nvidiaCoopLayouts; SPIR-V leaves the mapping to the
// implementation). The Vulkan plugin runs the probe once per device whose shapes have
// layouts to check and gives the compiler a shape's layouts only where the device
// matched every component of them (plugins/vulkan/VulkanCoopProbe.cpp).
//
// The probe is a thread-IR kernel of one subgroup (`coop_layout_probe(ptr<f32> out)`):
// for every distinct matrix type of those shapes (a tile of A, of B, of the
// accumulator) it stores a tile whose element (r, c) holds r * cols + c to shared
// memory, loads it as that type and writes component i of lane l as f32 to
// out[first + l * components + i]. In the simulator (ThreadSim with the same layouts)
// it confirms them; with other layouts it does not (tests/backends/spirv).

#include "trident/simt/TargetDesc.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace trident::spirv {

struct CoopProbe {
  std::string threadIR;                   // the module's text
  static constexpr const char *kKernel = "coop_layout_probe";
  unsigned subgroupSize = 32;             // the one subgroup that runs it (num_threads)
  std::vector<Type> matrices;             // the coopmat types checked, in output order
  std::vector<CoopComponentMap> maps;     // the layout expected of each
  std::vector<int64_t> first;             // where each one's components start in the output
  int64_t outputFloats = 0;
};

// The probe of the layouts of `shapes` (shapes without layouts are left out); nothing
// when none has any.
std::optional<CoopProbe> coopProbe(const std::vector<CoopMatrixShape> &shapes, unsigned subgroupSize);

// `shapes` less the layouts `output` (what the probe wrote) contradicts: a shape keeps its
// layouts only where all three of its matrix types matched. `report` gets a line for each
// type that did not match (its first wrong component).
std::vector<CoopMatrixShape> confirmCoopLayouts(const CoopProbe &probe, std::vector<CoopMatrixShape> shapes,
                                                std::span<const float> output, std::string &report);

} // namespace trident::spirv
