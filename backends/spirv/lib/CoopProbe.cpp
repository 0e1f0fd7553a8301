#include "trident/backends/spirv/CoopProbe.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace trident::spirv {

namespace {

// The three matrix types of `s`: A (m x k), B (k x n), the accumulator (m x n).
std::vector<Type> matricesOf(const CoopMatrixShape &s) {
  return {Type::coopMatrix(s.m, s.k, s.aType, 0), Type::coopMatrix(s.k, s.n, s.bType, 1),
          Type::coopMatrix(s.m, s.n, s.cType, 2)};
}

// Components the probe reads and checks (floats only: r * cols + c is exact in f16 up to 2048).
bool probeable(Type m, const CoopComponentMap &map, unsigned subgroupSize) {
  Type e = m.element();
  return (e == Type::f16() || e == Type::f32()) && m.numElements() <= 2048 &&
         (int64_t(subgroupSize) << map.componentBits.size()) == m.numElements() &&
         (size_t(1) << map.laneBits.size()) == subgroupSize;
}

} // namespace

std::optional<CoopProbe> coopProbe(const std::vector<CoopMatrixShape> &shapes, unsigned subgroupSize) {
  CoopProbe p;
  p.subgroupSize = subgroupSize;
  for (const CoopMatrixShape &s : shapes) {
    if (!s.layouts)
      continue;
    std::vector<Type> types = matricesOf(s);
    for (unsigned use = 0; use < 3; ++use) {
      const CoopComponentMap &map = s.layouts->of(use);
      auto known = std::find(p.matrices.begin(), p.matrices.end(), types[use]);
      if (known != p.matrices.end() || !probeable(types[use], map, subgroupSize))
        continue; // checked already (under its first shape's map; confirm compares each), or never confirmable
      p.matrices.push_back(types[use]);
      p.maps.push_back(map);
      p.first.push_back(p.outputFloats);
      p.outputFloats += types[use].numElements();
    }
  }
  if (p.matrices.empty())
    return std::nullopt;
  std::ostringstream ir;
  int64_t sharedBytes = 0;
  std::vector<int64_t> offsets;
  for (Type m : p.matrices) {
    offsets.push_back(sharedBytes);
    sharedBytes += (m.numElements() * (m.element().bitWidth() / 8) + 15) / 16 * 16;
  }
  ir << "builtin.module ({\n  tt.func {num_threads = " << subgroupSize << ", shared_bytes = " << sharedBytes
     << ", sym_name = \"" << CoopProbe::kKernel << "\"} ({\n  ^(%out: ptr<f32>):\n    %lane = th.lane_id : i32\n"
     << "    %zero = arith.constant {value = 0} : i32\n";
  for (size_t j = 0; j < p.matrices.size(); ++j) {
    Type m = p.matrices[j];
    std::string e = m.element().str(), a = "%a" + std::to_string(j);
    ir << "    " << a << " = th.shared_alloc {offset = " << offsets[j]
       << ", size = " << m.numElements() * (m.element().bitWidth() / 8) << "} : ptr<" << e << ", 3>\n";
    for (int64_t q = 0; q * subgroupSize < m.numElements(); ++q) {
      std::string n = std::to_string(j) + "_" + std::to_string(q);
      ir << "    %c" << n << " = arith.constant {value = " << q * subgroupSize << "} : i32\n"
         << "    %e" << n << " = arith.addi %lane, %c" << n << " : i32\n"
         << "    %v" << n << " = arith.sitofp %e" << n << " : " << e << "\n"
         << "    th.store_shared " << a << ", %e" << n << ", %v" << n << "\n";
    }
  }
  ir << "    th.barrier\n";
  for (size_t j = 0; j < p.matrices.size(); ++j) {
    Type m = p.matrices[j];
    std::string e = m.element().str(), mj = "%m" + std::to_string(j);
    int64_t components = int64_t(1) << p.maps[j].componentBits.size();
    ir << "    " << mj << " = th.coop_load %a" << j << ", %zero {layout = \"row\", stride = " << m.shape()[1]
       << "} : " << m.str() << "\n"
       << "    %n" << j << " = arith.constant {value = " << components << "} : i32\n"
       << "    %b" << j << " = arith.muli %lane, %n" << j << " : i32\n";
    for (int64_t i = 0; i < components; ++i) {
      std::string n = std::to_string(j) + "_" + std::to_string(i);
      ir << "    %x" << n << " = th.coop_extract " << mj << " {index = " << i << "} : " << e << "\n";
      std::string value = "%x" + n;
      if (m.element() != Type::f32()) {
        ir << "    %f" << n << " = arith.extf %x" << n << " : f32\n";
        value = "%f" + n;
      }
      ir << "    %o" << n << " = arith.constant {value = " << p.first[j] + i << "} : i32\n"
         << "    %i" << n << " = arith.addi %b" << j << ", %o" << n << " : i32\n"
         << "    %p" << n << " = tt.addptr %out, %i" << n << " : ptr<f32>\n"
         << "    th.store %p" << n << ", " << value << "\n";
    }
  }
  ir << "    tt.return\n  })\n})\n";
  p.threadIR = ir.str();
  return p;
}

std::vector<CoopMatrixShape> confirmCoopLayouts(const CoopProbe &probe, std::vector<CoopMatrixShape> shapes,
                                                std::span<const float> output, std::string &report) {
  // Whether matrix type `m` holds its components as `map` says, by the probe's output.
  auto matches = [&](Type m, const CoopComponentMap &map) {
    auto it = std::find(probe.matrices.begin(), probe.matrices.end(), m);
    if (it == probe.matrices.end() || !probeable(m, map, probe.subgroupSize))
      return false;
    size_t j = size_t(it - probe.matrices.begin());
    int64_t components = int64_t(1) << map.componentBits.size(), cols = m.shape()[1];
    for (int64_t lane = 0; lane < int64_t(probe.subgroupSize); ++lane)
      for (int64_t i = 0; i < components; ++i) {
        auto [row, col] = map.elementOf(i, lane);
        size_t at = size_t(probe.first[j] + lane * components + i);
        float want = float(row * cols + col);
        if (at >= output.size() || output[at] != want) {
          std::ostringstream line;
          line << m.str() << ": lane " << lane << " component " << i << " holds "
               << (at < output.size() ? std::to_string(output[at]) : std::string("nothing")) << ", not element ("
               << row << ", " << col << ")\n";
          report += line.str();
          return false;
        }
      }
    return true;
  };
  for (CoopMatrixShape &s : shapes) {
    if (!s.layouts)
      continue;
    std::vector<Type> types = matricesOf(s);
    bool all = true;
    for (unsigned use = 0; use < 3; ++use)
      all = matches(types[use], s.layouts->of(use)) && all;
    if (!all)
      s.layouts.reset();
  }
  return shapes;
}

} // namespace trident::spirv
