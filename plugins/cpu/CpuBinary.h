#pragma once
// The CPU plugin's binary: a few header lines and the ELF object the pipeline made.
//
//   // trident-cpu-binary 1
//   cpu znver3 +adx,+aes,...,-avx512f
//   kernel add_kernel 0 1 1 1 5          (name, shared bytes, TRIDENT_ARG_* per parameter)
//   checks debug                         (only when checked: "debug" or "env", CpuChecks.h)
//   object 2312
//   <2312 bytes>
//
// Self-contained, as the ABI wants: loading needs nothing else. The object runs only
// on a CPU with the features it was compiled for, so loading checks them.

#include "CpuChecks.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trident::cpu {

struct BinaryKernel {
  std::string name;
  uint64_t sharedBytes = 0;
  std::vector<uint32_t> argumentCodes;
};

struct Binary {
  std::string cpu, features;
  std::vector<BinaryKernel> kernels;
  CheckMode checks = CheckMode::Off;
  std::string object;
};

std::string writeBinary(const Binary &binary);
// Null with `why` set when `bytes` is not a CPU binary.
std::optional<Binary> readBinary(std::string_view bytes, std::string &why);

} // namespace trident::cpu
