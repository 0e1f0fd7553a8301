#include "HipBinary.h"

namespace trident::hip {

namespace {
constexpr std::string_view kHeader = "trident-hip-binary 1\n";
} // namespace

std::string encodeBinary(const std::vector<BinaryKernel> &kernels, const std::string &hsaco) {
  return sdk::encodeGpuBinary(kHeader, {kernels, "hsaco", hsaco}, /*sized=*/true);
}

bool decodeBinary(std::string_view binary, std::vector<BinaryKernel> &kernels, std::string &hsaco) {
  static constexpr std::string_view kinds[] = {"hsaco"};
  sdk::GpuBinary decoded;
  if (!sdk::decodeGpuBinary(binary, kHeader, kinds, /*sized=*/true, decoded))
    return false;
  kernels = std::move(decoded.kernels);
  hsaco = std::move(decoded.code);
  return true;
}

} // namespace trident::hip
