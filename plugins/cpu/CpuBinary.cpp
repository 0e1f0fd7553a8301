#include "CpuBinary.h"

#include <sstream>

namespace trident::cpu {

namespace {
constexpr std::string_view kHeader = "// trident-cpu-binary 1\n";
} // namespace

std::string writeBinary(const Binary &binary) {
  std::ostringstream os;
  os << kHeader << "cpu " << binary.cpu << " " << (binary.features.empty() ? "-" : binary.features) << "\n";
  for (const BinaryKernel &k : binary.kernels) {
    os << "kernel " << k.name << " " << k.sharedBytes << " " << k.argumentCodes.size();
    for (uint32_t c : k.argumentCodes)
      os << " " << c;
    os << "\n";
  }
  if (binary.checks != CheckMode::Off)
    os << "checks " << checkModeName(binary.checks) << "\n";
  os << "object " << binary.object.size() << "\n";
  os.write(binary.object.data(), std::streamsize(binary.object.size()));
  return os.str();
}

std::optional<Binary> readBinary(std::string_view bytes, std::string &why) {
  if (!bytes.starts_with(kHeader)) {
    why = "not a CPU-plugin binary (its header is missing)";
    return std::nullopt;
  }
  bytes.remove_prefix(kHeader.size());
  Binary out;
  while (!bytes.empty()) {
    size_t eol = bytes.find('\n');
    if (eol == std::string_view::npos)
      break;
    std::istringstream line{std::string(bytes.substr(0, eol))};
    bytes.remove_prefix(eol + 1);
    std::string word;
    line >> word;
    if (word == "cpu") {
      line >> out.cpu >> out.features;
      if (out.features == "-")
        out.features.clear();
    } else if (word == "kernel") {
      BinaryKernel k;
      size_t n = 0;
      line >> k.name >> k.sharedBytes >> n;
      k.argumentCodes.resize(n);
      for (uint32_t &c : k.argumentCodes)
        line >> c;
      if (!line) {
        why = "the CPU binary's kernel line is malformed";
        return std::nullopt;
      }
      out.kernels.push_back(std::move(k));
    } else if (word == "checks") {
      std::string mode;
      line >> mode;
      if (!parseCheckMode(mode, out.checks)) {
        why = "the CPU binary's checks line is malformed";
        return std::nullopt;
      }
    } else if (word == "object") {
      size_t size = 0;
      line >> size;
      if (!line || size != bytes.size()) {
        why = "the CPU binary's object is truncated";
        return std::nullopt;
      }
      out.object = std::string(bytes);
      return out;
    } else {
      why = "the CPU binary has an unknown line '" + word + "'";
      return std::nullopt;
    }
  }
  why = "the CPU binary has no object";
  return std::nullopt;
}

} // namespace trident::cpu
