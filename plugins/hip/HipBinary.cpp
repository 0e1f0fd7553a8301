#include "HipBinary.h"

#include <sstream>

namespace trident::hip {

namespace {
constexpr std::string_view kHeader = "trident-hip-binary 1\n";
} // namespace

std::string encodeBinary(const std::vector<BinaryKernel> &kernels, const std::string &hsaco) {
  std::string out(kHeader);
  for (const BinaryKernel &k : kernels)
    out += "kernel " + k.name + " threads " + std::to_string(k.threads) + " shared " + std::to_string(k.shared) +
           " params " + std::to_string(k.params) + "\n";
  out += "hsaco " + std::to_string(hsaco.size()) + "\n";
  out += hsaco;
  return out;
}

// Splits a binary into its kernels and its code object.
bool decodeBinary(std::string_view binary, std::vector<BinaryKernel> &kernels, std::string &hsaco) {
  if (!binary.starts_with(kHeader))
    return false;
  binary.remove_prefix(kHeader.size());
  while (!binary.empty()) {
    size_t eol = binary.find('\n');
    if (eol == std::string_view::npos)
      return false;
    std::istringstream fields{std::string(binary.substr(0, eol))};
    binary.remove_prefix(eol + 1);
    std::string word;
    fields >> word;
    if (word == "hsaco") {
      size_t bytes = 0;
      if (!(fields >> bytes) || bytes != binary.size())
        return false;
      hsaco.assign(binary);
      return true;
    }
    std::string threadsWord, sharedWord, paramsWord;
    BinaryKernel k;
    if (word != "kernel" ||
        !(fields >> k.name >> threadsWord >> k.threads >> sharedWord >> k.shared >> paramsWord >> k.params))
      return false;
    kernels.push_back(k);
  }
  return false;
}

} // namespace trident::hip
