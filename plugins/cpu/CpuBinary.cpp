#include "CpuBinary.h"

#include "trident/sdk/BinaryContainer.h"

#include <sstream>

namespace trident::cpu {

namespace {
constexpr std::string_view kHeader = "// trident-cpu-binary 1\n";
} // namespace

std::string writeBinary(const Binary &binary) {
  std::ostringstream lines;
  lines << "cpu " << binary.cpu << " " << (binary.features.empty() ? "-" : binary.features) << "\n";
  for (const BinaryKernel &k : binary.kernels) {
    lines << "kernel " << k.name << " " << k.sharedBytes << " " << k.argumentCodes.size();
    for (uint32_t c : k.argumentCodes)
      lines << " " << c;
    lines << "\n";
  }
  if (binary.checks != CheckMode::Off)
    lines << "checks " << checkModeName(binary.checks) << "\n";
  return sdk::writeContainer(kHeader, lines.str(), "object", binary.object, /*sized=*/true);
}

std::optional<Binary> readBinary(std::string_view bytes, std::string &why) {
  Binary out;
  auto line = [&](const std::string &word, std::istringstream &fields) {
    if (word == "cpu") {
      fields >> out.cpu >> out.features;
      if (out.features == "-")
        out.features.clear();
    } else if (word == "kernel") {
      BinaryKernel k;
      size_t n = 0;
      fields >> k.name >> k.sharedBytes >> n;
      k.argumentCodes.resize(n);
      for (uint32_t &c : k.argumentCodes)
        fields >> c;
      if (!fields) {
        why = "the CPU binary's kernel line is malformed";
        return false;
      }
      out.kernels.push_back(std::move(k));
    } else if (word == "checks") {
      std::string mode;
      fields >> mode;
      if (!parseCheckMode(mode, out.checks)) {
        why = "the CPU binary's checks line is malformed";
        return false;
      }
    } else {
      why = "the CPU binary has an unknown line '" + word + "'";
      return false;
    }
    return true;
  };
  static constexpr std::string_view kinds[] = {"object"};
  std::string kind;
  switch (sdk::readContainer(bytes, kHeader, kinds, /*sized=*/true, line, kind, out.object)) {
  case sdk::ContainerError::None: return out;
  case sdk::ContainerError::Header: why = "not a CPU-plugin binary (its header is missing)"; break;
  case sdk::ContainerError::Line: break; // `line` said why
  case sdk::ContainerError::Code: why = "the CPU binary has no object"; break;
  case sdk::ContainerError::Size: why = "the CPU binary's object is truncated"; break;
  }
  return std::nullopt;
}

} // namespace trident::cpu
