// Device-to-device copies and fills of large 16-byte aligned ranges as compute
// kernels. vkCmdCopyBuffer and vkCmdFillBuffer may run on a slow path: on an H200
// through NVIDIA's driver a 1 GiB vkCmdCopyBuffer moved 849 GB/s where cuMemcpy
// moved 4256 and Trident's vector add 4348. The kernels below are Trident block IR
// (what `trident compile --emit block-ir` gives for a masked load/store loop over
// i32 words, 1024 per program), compiled by this plugin for each device on first
// use and launched through launch(), so the stream orders them like any kernel.
// arg_divisibility says the pointers are 16-byte aligned and the word count a
// multiple of 4: the lowering then moves 16 bytes per access.
//
// Only on GPUs: CPU devices (lavapipe) keep transfer commands, which are memcpy
// there. TRIDENT_VULKAN_COPY_KERNEL=0 keeps every copy and fill on transfer
// commands, =1 uses the kernels on every device (tests run them on lavapipe).
// TRIDENT_VULKAN_COPY_CHUNK=<words> (tests only) caps the words per dispatch, to
// exercise the split of counts beyond i32 range without allocating 8 GiB.

#include "VulkanDevice.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace trident::vulkan {

namespace {

// dst[i] = src[i] for i < n (i32 words).
constexpr const char *kCopyIR = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 4], sym_name = "copy_kernel"} ({
  ^(%0: ptr<i32>, %1: ptr<i32>, %2: i32):
    %3 = tt.get_program_id {axis = 0} : i32
    %4 = arith.constant {value = 1024} : i32
    %5 = arith.muli %3, %4 : i32
    %6 = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %7 = tt.splat %5 : block<1024xi32>
    %8 = arith.addi %7, %6 : block<1024xi32>
    %9 = tt.splat %2 : block<1024xi32>
    %10 = arith.cmpi %8, %9 {predicate = "slt"} : block<1024xi1>
    %11 = tt.splat %0 : block<1024xptr<i32>>
    %12 = tt.addptr %11, %8 : block<1024xptr<i32>>
    %13 = tt.splat %1 : block<1024xptr<i32>>
    %14 = tt.addptr %13, %8 : block<1024xptr<i32>>
    %15 = tt.load %14, %10 : block<1024xi32>
    tt.store %12, %15, %10
    tt.return
  })
})
)";

// dst[i] = value for i < n (i32 words).
constexpr const char *kFillIR = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 1, 4], sym_name = "fill_kernel"} ({
  ^(%0: ptr<i32>, %1: i32, %2: i32):
    %3 = tt.get_program_id {axis = 0} : i32
    %4 = arith.constant {value = 1024} : i32
    %5 = arith.muli %3, %4 : i32
    %6 = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %7 = tt.splat %5 : block<1024xi32>
    %8 = arith.addi %7, %6 : block<1024xi32>
    %9 = tt.splat %2 : block<1024xi32>
    %10 = arith.cmpi %8, %9 {predicate = "slt"} : block<1024xi1>
    %11 = tt.splat %0 : block<1024xptr<i32>>
    %12 = tt.addptr %11, %8 : block<1024xptr<i32>>
    %13 = tt.splat %1 : block<1024xi32>
    tt.store %12, %13, %10
    tt.return
  })
})
)";

constexpr uint64_t kWordsPerProgram = 1024;
// Words per dispatch: a multiple of 4 and of kWordsPerProgram whose offsets
// (program id * 1024 + lane) stay far inside i32.
constexpr uint64_t kMaxChunkWords = uint64_t(1) << 30;

// Launches of the copy and fill kernels, for tests (trident_vulkan_copy_kernel_launches).
std::atomic<uint64_t> kernelLaunches{0};

// GPUs only by default: a CPU device (lavapipe) copies with memcpy at its full
// bandwidth, and emulating the kernel's threads there was 20 times slower.
bool kernelsWanted(const Device &d) {
  const char *v = std::getenv("TRIDENT_VULKAN_COPY_KERNEL");
  if (v && *v)
    return std::strcmp(v, "0") != 0;
  return d.physical->properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

uint64_t chunkWords() {
  const char *v = std::getenv("TRIDENT_VULKAN_COPY_CHUNK");
  if (!v || !*v)
    return kMaxChunkWords;
  uint64_t words = std::strtoull(v, nullptr, 10) / 4 * 4;
  return words ? std::min(words, kMaxChunkWords) : kMaxChunkWords;
}

// Compiles `ir` for `d` and loads it; null when anything fails.
trident_kernel load(Device &d, const char *ir, const char *name, trident_module &module) {
  trident_binary binary{};
  binary.struct_size = sizeof binary;
  if (compile(d.context, d.physical->info.name.c_str(), ir, std::strlen(ir), name, nullptr, &binary) !=
      TRIDENT_SUCCESS)
    return nullptr;
  trident_status s = moduleLoad(toHandle(&d), binary.data, binary.size, &module);
  binaryRelease(d.context, &binary);
  trident_kernel kernel = nullptr;
  if (s != TRIDENT_SUCCESS || moduleGetKernel(module, name, &kernel) != TRIDENT_SUCCESS)
    return nullptr;
  return kernel;
}

// The copy and fill kernels of `d`, compiled on the first call; false when they
// cannot be had (copies then use transfer commands).
bool kernelsReady(Device &d) {
  std::lock_guard lock(d.copyKernelsMutex);
  if (d.copyKernelsState == 0) {
    d.copyKernel = load(d, kCopyIR, "copy_kernel", d.copyModule);
    d.fillKernel = load(d, kFillIR, "fill_kernel", d.fillModule);
    d.copyKernelsState = d.copyKernel && d.fillKernel ? 1 : -1;
    if (d.copyKernelsState < 0) // a bug or a driver failure: say so once, and keep copying
      std::fprintf(stderr, "trident vulkan: the copy kernels do not load on %s (%s); copies use transfer commands\n",
                   d.name.c_str(), sdk::lastError());
  }
  return d.copyKernelsState == 1;
}

// Runs `kernel` over `words` words from dst (and src), in dispatches of at most
// chunkWords() words with the pointers advanced; `value` is the fill word.
trident_status run(trident_stream stream, trident_kernel kernel, uint64_t dst, const uint64_t *src, uint32_t value,
                   uint64_t words) {
  const uint64_t chunk = chunkWords();
  for (uint64_t done = 0; done < words; done += chunk) {
    uint64_t n = std::min(chunk, words - done);
    trident_kernel_arg args[3] = {{TRIDENT_ARG_POINTER, 0, dst + done * 4}, {}, {TRIDENT_ARG_I32, 0, n}};
    args[1] = src ? trident_kernel_arg{TRIDENT_ARG_POINTER, 0, *src + done * 4}
                  : trident_kernel_arg{TRIDENT_ARG_I32, 0, value};
    trident_launch_params params{};
    params.version = TRIDENT_LAUNCH_ABI_VERSION;
    params.grid[0] = uint32_t((n + kWordsPerProgram - 1) / kWordsPerProgram);
    params.grid[1] = params.grid[2] = 1;
    params.num_args = 3;
    params.args = args;
    if (trident_status s = launch(stream, kernel, &params); s != TRIDENT_SUCCESS)
      return s;
    kernelLaunches.fetch_add(1, std::memory_order_relaxed);
  }
  return TRIDENT_SUCCESS;
}

} // namespace

size_t kernelBytes(Device &d, uint64_t dst, uint64_t src, size_t bytes) {
  if (bytes < kMinKernelBytes || dst % 16 || src % 16 || !kernelsWanted(d) || !kernelsReady(d))
    return 0;
  return bytes / 16 * 16;
}

trident_status copyByKernel(trident_stream stream, uint64_t dst, uint64_t src, size_t bytes) {
  return run(stream, stream->device->copyKernel, dst, &src, 0, bytes / 4);
}

trident_status fillByKernel(trident_stream stream, uint64_t dst, uint32_t word, size_t bytes) {
  return run(stream, stream->device->fillKernel, dst, nullptr, word, bytes / 4);
}

void releaseCopyKernels(Device &d) {
  std::lock_guard lock(d.copyKernelsMutex);
  for (trident_module *m : {&d.copyModule, &d.fillModule})
    if (*m)
      moduleUnload(std::exchange(*m, nullptr));
  d.copyKernel = d.fillKernel = nullptr;
  d.copyKernelsState = 0;
}

} // namespace trident::vulkan

// Test-only: how many dispatches the copy and fill kernels have had, over all
// devices, so tests can tell that a copy took the kernel path.
extern "C" TRIDENT_PLUGIN_EXPORT uint64_t trident_vulkan_copy_kernel_launches() {
  return trident::vulkan::kernelLaunches.load();
}
