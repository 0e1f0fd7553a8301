#include "CudaBinary.h"

namespace trident::cuda {

namespace {
constexpr std::string_view kHeader = "trident-cuda-binary 1\n";
} // namespace

std::string encodeBinary(const std::vector<BinaryKernel> &kernels, const std::string &code, bool isCubin) {
  return sdk::encodeGpuBinary(kHeader, {kernels, isCubin ? "cubin" : "ptx", code}, /*sized=*/false);
}

bool decodeBinary(std::string_view binary, std::vector<BinaryKernel> &kernels, std::string &code) {
  static constexpr std::string_view kinds[] = {"ptx", "cubin"};
  sdk::GpuBinary decoded;
  if (!sdk::decodeGpuBinary(binary, kHeader, kinds, /*sized=*/false, decoded))
    return false;
  kernels = std::move(decoded.kernels);
  code = std::move(decoded.code);
  return true;
}

} // namespace trident::cuda
