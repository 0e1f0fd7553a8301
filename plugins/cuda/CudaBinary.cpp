#include "CudaBinary.h"

#include <algorithm>

namespace trident::cuda {

namespace {
// Version 2 lists tensor maps on kernel lines; binaries without any keep version 1, so
// that older plugins, which would launch such kernels without their maps, refuse them.
constexpr std::string_view kHeader = "trident-cuda-binary 1\n", kHeaderMaps = "trident-cuda-binary 2\n";
} // namespace

std::string encodeBinary(const std::vector<BinaryKernel> &kernels, const std::string &code, bool isCubin) {
  bool maps = std::any_of(kernels.begin(), kernels.end(), [](const BinaryKernel &k) { return !k.tensorMaps.empty(); });
  return sdk::encodeGpuBinary(maps ? kHeaderMaps : kHeader, {kernels, isCubin ? "cubin" : "ptx", code},
                              /*sized=*/false);
}

bool decodeBinary(std::string_view binary, std::vector<BinaryKernel> &kernels, std::string &code) {
  static constexpr std::string_view kinds[] = {"ptx", "cubin"};
  sdk::GpuBinary decoded;
  if (!sdk::decodeGpuBinary(binary, kHeader, kinds, /*sized=*/false, decoded) &&
      !sdk::decodeGpuBinary(binary, kHeaderMaps, kinds, /*sized=*/false, decoded))
    return false;
  kernels = std::move(decoded.kernels);
  code = std::move(decoded.code);
  return true;
}

} // namespace trident::cuda
