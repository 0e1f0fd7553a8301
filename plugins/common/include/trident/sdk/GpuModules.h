#pragma once
// What the plugins of driver APIs shaped like CUDA's (the CUDA and HIP plugins) share
// about binaries, modules and launches: the binary container, the kernel table of a
// loaded module, the launch checks, the argument array such drivers take, and the
// table of memory imported with mem_import. Needs nothing of the compiler, so the
// compiler-less plugins use it too (docs/plugin-sdk.md).
//
// The binary is the SDK's binary container (BinaryContainer.h) whose lines are the
// kernels, and whose code is the rest of the binary after its kind (CUDA: "ptx" or
// "cubin") or, `sized`, after its kind and size (HIP: "hsaco 1234"):
//   trident-cuda-binary 1
//   kernel add_kernel threads 128 shared 0 params 4
//   kernel matmul threads 256 shared 98304 params 9 maps 38 2 2 128 0 ...   (CUDA's tensor maps)
//   ptx
//   <the code>

#include "trident/plugin.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace trident::sdk {

struct GpuKernelInfo {
  std::string name;
  uint32_t threads = 0, shared = 0, params = 0;
  // CUDA: the tensor maps the kernel takes after its `params` (simt/Tma.h, 19 words
  // each), on its line as "maps N w0 w1 ...".
  std::vector<int64_t> tensorMaps;
};

struct GpuBinary {
  std::vector<GpuKernelInfo> kernels;
  std::string kind; // which of the plugin's code kinds ("ptx", "cubin", "hsaco")
  std::string code;
};

// `header` ends with a newline ("trident-cuda-binary 1\n").
std::string encodeGpuBinary(std::string_view header, const GpuBinary &binary, bool sized);
// False when `bytes` does not start with `header`, a kernel line is malformed, or the
// code's line is missing, of a kind not in `kinds`, or (sized) of the wrong size.
bool decodeGpuBinary(std::string_view bytes, std::string_view header, std::span<const std::string_view> kinds,
                     bool sized, GpuBinary &out);

// NOT_FOUND: "the module has no kernel 'name'".
trident_status missingKernelError(const char *name);

// A loaded module's kernels by name.
template <class Kernel> class KernelTable {
public:
  void add(const std::string &name, std::unique_ptr<Kernel> kernel) { kernels_[name] = std::move(kernel); }
  // The kernel, or NOT_FOUND naming it.
  trident_status find(const char *name, Kernel **out) const {
    auto it = kernels_.find(name);
    if (it == kernels_.end())
      return missingKernelError(name);
    *out = it->second.get();
    return TRIDENT_SUCCESS;
  }

private:
  std::map<std::string, std::unique_ptr<Kernel>> kernels_;
};

// The launch ABI version, the grid (every dimension at least 1) and the number of
// arguments of a kernel that takes `numParams`.
trident_status checkGpuLaunch(const std::string &kernel, uint32_t numParams, const trident_launch_params *params);

// What cuLaunchKernel and hipModuleLaunchKernel take: a pointer to each argument. The
// driver reads each parameter's size from the kernel, so each points at the low bytes
// of the argument's 64 bits (little-endian).
class ArgumentPointers {
public:
  explicit ArgumentPointers(const trident_launch_params &params);
  void **data() { return heap_.empty() ? inline_ : heap_.data(); }

private:
  static constexpr uint32_t kInline = 64;
  void *inline_[kInline];
  std::vector<void *> heap_;
};

// Addresses made usable by mem_import, each with how many imports hold it: mem_free of
// one only forgets it (the memory belongs to whoever allocated it).
class ImportTable {
public:
  void add(uint64_t address);
  // True when `address` was imported (one import of it is forgotten).
  bool forget(uint64_t address);

private:
  std::mutex mutex_;
  std::map<uint64_t, uint32_t> counts_;
};

} // namespace trident::sdk
