#pragma once
// The HIP plugin's binary format, read by both builds of the plugin (the compiler
// writes it, HipCompile.cpp; the loader reads it, HipModules.cpp): a text header, one
// line per kernel, then the code object's bytes:
//   trident-hip-binary 1
//   kernel add_kernel threads 256 shared 0 params 4
//   hsaco 5120
//   \x7fELF...

#include "trident/sdk/GpuModules.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace trident::hip {

using BinaryKernel = sdk::GpuKernelInfo;

std::string encodeBinary(const std::vector<BinaryKernel> &kernels, const std::string &hsaco);
// Splits a binary into its kernels and its code object; false when it is not one of
// this plugin's binaries (or its kernel list or size is malformed).
bool decodeBinary(std::string_view binary, std::vector<BinaryKernel> &kernels, std::string &hsaco);

} // namespace trident::hip
