#include "CudaBinary.h"

#include <cstring>
#include <sstream>

namespace trident::cuda {

namespace {
constexpr const char *kHeader = "trident-cuda-binary 1\n";
} // namespace

std::string encodeBinary(const std::vector<BinaryKernel> &kernels, const std::string &code, bool isCubin) {
  std::string out = kHeader;
  for (const BinaryKernel &k : kernels)
    out += "kernel " + k.name + " threads " + std::to_string(k.threads) + " shared " + std::to_string(k.shared) +
           " params " + std::to_string(k.params) + "\n";
  out += isCubin ? "cubin\n" : "ptx\n";
  out += code;
  return out;
}

bool decodeBinary(std::string_view binary, std::vector<BinaryKernel> &kernels, std::string &code) {
  if (!binary.starts_with(kHeader))
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
    kernels.push_back(k);
  }
  return false;
}

} // namespace trident::cuda
