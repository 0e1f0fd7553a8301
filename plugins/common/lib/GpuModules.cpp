#include "trident/sdk/GpuModules.h"

#include "trident/sdk/BinaryContainer.h"
#include "trident/sdk/Status.h"

#include <algorithm>
#include <sstream>

namespace trident::sdk {

std::string encodeGpuBinary(std::string_view header, const GpuBinary &binary, bool sized) {
  std::string lines;
  for (const GpuKernelInfo &k : binary.kernels) {
    lines += "kernel " + k.name + " threads " + std::to_string(k.threads) + " shared " + std::to_string(k.shared) +
             " params " + std::to_string(k.params);
    if (!k.tensorMaps.empty()) {
      lines += " maps " + std::to_string(k.tensorMaps.size());
      for (int64_t w : k.tensorMaps)
        lines += " " + std::to_string(w);
    }
    lines += "\n";
  }
  return writeContainer(header, lines, binary.kind, binary.code, sized);
}

bool decodeGpuBinary(std::string_view bytes, std::string_view header, std::span<const std::string_view> kinds,
                     bool sized, GpuBinary &out) {
  auto kernelLine = [&](const std::string &word, std::istringstream &fields) {
    GpuKernelInfo k;
    std::string threadsWord, sharedWord, paramsWord;
    if (word != "kernel" ||
        !(fields >> k.name >> threadsWord >> k.threads >> sharedWord >> k.shared >> paramsWord >> k.params))
      return false;
    std::string next;
    if (fields >> next) {
      size_t words = 0;
      if (next != "maps" || !(fields >> words) || words % 19 || words > 19 * 16)
        return false;
      k.tensorMaps.resize(words);
      for (int64_t &w : k.tensorMaps)
        if (!(fields >> w))
          return false;
    }
    out.kernels.push_back(std::move(k));
    return true;
  };
  return readContainer(bytes, header, kinds, sized, kernelLine, out.kind, out.code) == ContainerError::None;
}

trident_status missingKernelError(const char *name) {
  return fail(TRIDENT_ERROR_NOT_FOUND, std::string("the module has no kernel '") + name + "'");
}

trident_status checkGpuLaunch(const std::string &kernel, uint32_t numParams, const trident_launch_params *params) {
  if (!params || params->version != TRIDENT_LAUNCH_ABI_VERSION)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "launch parameters of another launch ABI version");
  if (params->grid[0] == 0 || params->grid[1] == 0 || params->grid[2] == 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "every grid dimension must be at least 1");
  if (params->num_args != numParams)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel + "' takes " + std::to_string(numParams) +
                                                    " arguments, got " + std::to_string(params->num_args));
  return TRIDENT_SUCCESS;
}

ArgumentPointers::ArgumentPointers(const trident_launch_params &params) {
  if (params.num_args > kInline)
    heap_.resize(params.num_args);
  void **out = data();
  for (uint32_t i = 0; i < params.num_args; ++i)
    out[i] = const_cast<uint64_t *>(&params.args[i].bits);
}

void ImportTable::add(uint64_t address) {
  std::lock_guard lock(mutex_);
  ++counts_[address];
}

bool ImportTable::forget(uint64_t address) {
  std::lock_guard lock(mutex_);
  auto it = counts_.find(address);
  if (it == counts_.end())
    return false;
  if (--it->second == 0)
    counts_.erase(it);
  return true;
}

} // namespace trident::sdk
