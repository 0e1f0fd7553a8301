#include "CudaBinary.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace trident::cuda {

namespace {
// Version 2 adds tensor maps to kernel lines; binaries without any keep version 1, so
// that older plugins, which would launch such kernels without their maps, refuse them.
constexpr const char *kHeader = "trident-cuda-binary 1\n";
constexpr const char *kHeaderMaps = "trident-cuda-binary 2\n";
} // namespace

std::string encodeBinary(const std::vector<BinaryKernel> &kernels, const std::string &code, bool isCubin) {
  bool maps = std::any_of(kernels.begin(), kernels.end(), [](const BinaryKernel &k) { return !k.tensorMaps.empty(); });
  std::string out = maps ? kHeaderMaps : kHeader;
  for (const BinaryKernel &k : kernels)
  {
    out += "kernel " + k.name + " threads " + std::to_string(k.threads) + " shared " + std::to_string(k.shared) +
           " params " + std::to_string(k.params);
    if (!k.tensorMaps.empty()) {
      out += " maps " + std::to_string(k.tensorMaps.size());
      for (int64_t w : k.tensorMaps)
        out += " " + std::to_string(w);
    }
    out += "\n";
  }
  out += isCubin ? "cubin\n" : "ptx\n";
  out += code;
  return out;
}

bool decodeBinary(std::string_view binary, std::vector<BinaryKernel> &kernels, std::string &code) {
  if (!binary.starts_with(kHeader) && !binary.starts_with(kHeaderMaps))
    return false;
  std::istringstream in{std::string(binary.substr(std::strlen(kHeader)))};
  std::string line;
  while (std::getline(in, line)) {
    if (line == "ptx" || line == "cubin") {
      std::ostringstream rest;
      rest << in.rdbuf();
      code = rest.str();
      return true;
    }
    std::istringstream fields(line);
    std::string word, threadsWord, sharedWord, paramsWord;
    BinaryKernel k;
    if (!(fields >> word >> k.name >> threadsWord >> k.threads >> sharedWord >> k.shared >> paramsWord >>
          k.params) ||
        word != "kernel")
      return false;
    size_t words = 0;
    if (fields >> word) {
      if (word != "maps" || !(fields >> words) || words % 19 || words > 19 * 16)
        return false;
      k.tensorMaps.resize(words);
      for (int64_t &w : k.tensorMaps)
        if (!(fields >> w))
          return false;
    }
    kernels.push_back(k);
  }
  return false;
}

} // namespace trident::cuda
