#pragma once
// Thread IR -> SPIR-V for Vulkan compute (docs/vulkan.md).
//
// One tt.func of thread IR becomes one GLCompute entry point of the same name:
//   - global pointers are 64-bit device addresses, turned into PhysicalStorageBuffer
//     pointers at each access (OpConvertUToPtr, Aligned);
//   - kernel arguments arrive in push constants (or, past the device's
//     push-constant limit, in a buffer whose address is in push constants), after a
//     24-byte header: the program-id base and the grid size, so that the plugin can
//     split a grid larger than the device allows into several dispatches;
//   - th.shared_alloc is a Workgroup array, th.shuffle a GroupNonUniform shuffle,
//     th.barrier an OpControlBarrier, scf.* structured control flow.
//
//   std::optional<SpirvKernel> k = generateSpirv(threadIR, "add_kernel", device, diags);
//   validate(k->words, diags);

#include "trident/ir/IR.h"
#include "trident/backends/spirv/Target.h"
#include "trident/support/Diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trident::spirv {

// How one argument is stored in the argument block: 8 bytes for pointers, i64 and
// f64; 4 bytes (the value in the low bits, i1 as 0 or 1) for everything else.
enum class ArgKind : uint8_t { Pointer, I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

struct ArgSlot {
  ArgKind kind = ArgKind::I32;
  uint32_t offset = 0; // in the push-constant block, or in the argument buffer
  uint32_t size = 4;
};

// The push-constant header every kernel reads: u32 base[3] at 0 (added to
// WorkgroupId), u32 grid[3] at 12 (tt.get_num_programs).
constexpr uint32_t kHeaderBytes = 24;
// With arguments in a buffer, its u64 device address follows the header.
constexpr uint32_t kArgBufferAddressOffset = kHeaderBytes;

// What the plugin needs to launch a compiled kernel.
struct KernelInterface {
  std::string name;
  uint32_t numThreads = 0;        // the workgroup size (x)
  uint32_t subgroupSize = 0;      // the warp size the kernel was lowered for
  uint32_t sharedBytes = 0;       // workgroup memory the module declares
  uint32_t pushConstantBytes = 0; // size of the push-constant range
  bool argsInBuffer = false;
  uint32_t argBufferBytes = 0;    // with argsInBuffer: size of the argument buffer
  std::vector<ArgSlot> args;
  uint64_t requiredFeatures = 0;  // Feature bits the device must have
};

struct SpirvKernel {
  std::vector<uint32_t> words;
  KernelInterface interface;
};

struct SpirvOptions {
  unsigned numWarps = 0;  // 0: Triton's default (simt::defaultNumWarps)
  bool optimize = false;  // run SPIRV-Tools' performance passes
};

// Block IR (verified) to verified thread IR for `device`.
std::optional<Module> lowerToThreadIR(const Module &blockIR, const DeviceInfo &device, const SpirvOptions &options,
                                      Diagnostics &diags);

// The whole pipeline: block IR (or thread IR, recognized by its tt.func's
// num_threads attribute, which is used as is) -> SPIR-V validated for Vulkan,
// optimized when asked. An invalid module is reported, never returned.
std::optional<SpirvKernel> compileToSpirv(const Module &ir, std::string_view kernel, const DeviceInfo &device,
                                          const SpirvOptions &options, Diagnostics &diags);

// True when `f` is a thread-IR tt.func (it carries num_threads).
bool isThreadIR(const Op *f);

// Translates tt.func `kernel` of the (verified) thread-IR module `threadIR` for
// `device`. Constructs the backend cannot translate give diagnostics.
std::optional<SpirvKernel> generateSpirv(const Module &threadIR, std::string_view kernel, const DeviceInfo &device,
                                         Diagnostics &diags);

// The argument layout of a kernel with parameters `params` for a device with
// `pushConstantBytes` of push constants (fills args, argsInBuffer, argBufferBytes,
// pushConstantBytes).
void layoutArguments(std::span<const Type> params, unsigned pushConstantBytes, KernelInterface &out);

} // namespace trident::spirv
