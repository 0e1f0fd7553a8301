#pragma once
// The round-trip samples of tests/core/ir/roundtrip/*.tir, shared by the tests here.

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace trident::testing {

// The samples by file name, without their `//` comment lines (the printer writes none).
inline std::map<std::string, std::string> loadRoundTripSamples() {
  std::map<std::string, std::string> samples;
  std::filesystem::path dir = std::filesystem::path(__FILE__).parent_path() / "roundtrip";
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".tir")
      continue;
    std::ifstream in(entry.path());
    std::string line, text;
    while (std::getline(in, line))
      if (line.rfind("//", 0) != 0)
        text += line + "\n";
    samples[entry.path().filename().string()] = text;
  }
  return samples;
}

} // namespace trident::testing
