#pragma once
// The Vulkan plugin's objects behind the ABI handles.
//
// One VkInstance per context (made in init, so that devices can be listed
// without creating any VkDevice); one VkDevice with one compute queue per opened
// device. Work on every stream of a device goes to that queue. A stream records
// its operations into one open command buffer, each after a memory barrier from
// the stages recorded before it (all of them at a batch's start; an event's
// timestamp needs none), and submits the batch when someone needs its results
// (synchronize, event queries, host copies, frees, unloads) or when it holds
// kMaxBatch operations; each submission signals the device's timeline semaphore
// with the next value. TRIDENT_VULKAN_BATCH=0 submits every operation at once.

#include "VulkanLoader.h"

#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Target.h"
#include "trident/plugin.h"
#include "trident/sdk/GpuModules.h"
#include "trident/sdk/Status.h"

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

struct trident_context_s;

namespace trident::vulkan {

using sdk::fail;    // sets this thread's last error and returns the status (trident/sdk/Status.h)
using sdk::guarded; // turns escaping exceptions into statuses (none may cross the ABI)
// A failed Vulkan call: out-of-memory results give OUT_OF_MEMORY, others DEVICE.
trident_status failVk(VkResult result, const std::string &what);

// What init learns about a usable physical device.
struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  uint8_t uuid[16]{};
  uint32_t queueFamily = 0;
  uint32_t minSubgroupSize = 0, maxSubgroupSize = 0;
  uint32_t maxSubgroupsPerProgram = 0; // maxComputeWorkgroupSubgroups, with subgroup size control
  bool subgroupSizeControl = false; // can require a size for compute shaders
  bool fullSubgroups = false;
  // Pipelines name their subgroup size where the device may pick among several.
  bool requiresSubgroupSize() const { return subgroupSizeControl && minSubgroupSize != maxSubgroupSize; }
  bool subgroupSizeControlExtension = false; // VK_EXT_subgroup_size_control on a 1.2 device
  bool atomicFloatExtension = false;         // VK_EXT_shader_atomic_float
  bool explicitLayoutExtension = false;      // VK_KHR_workgroup_memory_explicit_layout
  bool executableStatsExtension = false;     // VK_KHR_pipeline_executable_properties
  uint32_t timestampValidBits = 0;
  bool hostQueryReset = false; // queries can be reset from the host (no reset command on the queue)
  bool memoryBudgetExtension = false;        // VK_EXT_memory_budget: how much of each heap is free
  bool coopMatrixExtension = false;          // VK_KHR_cooperative_matrix with its feature
  bool bfloat16Extension = false;            // VK_KHR_shader_bfloat16 with shaderBFloat16Type
  VkInstance instance = VK_NULL_HANDLE;      // (for instance-level functions of extensions)
  VkPhysicalDeviceMemoryProperties memory{};
  uint64_t globalMemory = 0;
  uint64_t maxAllocationBytes = 0; // maxMemoryAllocationSize (Vulkan 1.1)
  uint64_t maxBufferBytes = 0;     // maxBufferSize (Vulkan 1.3); 0 where the device does not say
  uint32_t multiprocessors = 1;
  spirv::DeviceInfo info; // what the compiler needs: limits and features
  // The cooperative-matrix layout probe (VulkanCoopProbe.cpp), run once; where it
  // confirms the layouts, `info` gets them (and kCoopMatrixNvidiaLayouts) before any
  // compile for this device reads it. 1: confirmed, -1: not, 0: nothing to probe.
  std::once_flag coopProbeOnce;
  int coopProbeResult = 0;
};

struct Allocation {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t bufferAddress = 0; // the buffer's device address
  uint64_t address = 0;       // what the user sees: bufferAddress rounded up to 256
  size_t bytes = 0;           // the user's size
  void *mapped = nullptr;     // host view of bufferAddress when host-visible
};

struct Device {
  trident_context_s *context = nullptr;
  PhysicalDevice *physical = nullptr; // (its info changes once: the layout probe)
  uint32_t ordinal = 0;
  std::string name; // "vulkan:0" in messages

  std::mutex mutex; // opening, allocations
  int openCount = 0;
  VkDevice device = VK_NULL_HANDLE;
  DeviceFunctions fn;
  VkQueue queue = VK_NULL_HANDLE;
  std::mutex queueMutex; // the queue and the timeline's next value
  VkSemaphore timeline = VK_NULL_HANDLE;
  uint64_t submitted = 0; // the last value a submission signals
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  // TRIDENT_VULKAN_STATS=1 on a driver with VK_KHR_pipeline_executable_properties: the
  // driver's statistics of each pipeline (registers, spills...) go to stderr at load.
  PFN_vkGetPipelineExecutablePropertiesKHR getExecutables = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR getStatistics = nullptr;
  uint32_t deviceMemoryType = 0, hostMemoryType = 0;
  bool deviceMemoryMappable = false;
  std::map<uint64_t, Allocation> allocations; // by user address
  std::mutex streamsMutex;                   // taken before any stream's mutex
  std::set<trident_stream_s *> streams;      // the streams of this device
  // The copy and fill kernels (VulkanCopy.cpp), compiled on first use under
  // copyKernelsMutex; state 0: not tried, 1: ready, -1: failed (transfer commands).
  std::mutex copyKernelsMutex;
  int copyKernelsState = 0;
  trident_module copyModule = nullptr, fillModule = nullptr;
  trident_kernel copyKernel = nullptr, fillKernel = nullptr;

  // Submits every stream's open batch (before waiting for `submitted`).
  trident_status flushStreams();

  // Opens the VkDevice on first use.
  trident_status open();
  void close();
  // A buffer with device-address usage in device (or host-visible) memory. A size the
  // device cannot hold fails with OUT_OF_MEMORY, naming its heap and what is free.
  trident_status createBuffer(size_t size, bool hostVisible, Allocation &out);
  // Fails with OUT_OF_MEMORY for `bytes` of the memory type's heap: "out of memory: ..."
  // with the heap's size and, with VK_EXT_memory_budget, how much of it is free.
  trident_status outOfMemory(size_t bytes, uint32_t memoryType, const std::string &why);
  void destroyBuffer(Allocation &a);
  // The allocation holding [address, address + bytes), or null.
  Allocation *find(uint64_t address, size_t bytes);
  // Waits until the timeline reaches `value`.
  trident_status wait(uint64_t value);
};

// A command buffer sent to the queue, and what must live until it is done.
struct Submission {
  uint64_t value = 0;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  std::vector<Allocation> temporaries;
};

// The validation layer and its messenger, when TRIDENT_VULKAN_VALIDATE=1 (VulkanValidation.cpp).
struct Validation {
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{};
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy = nullptr;
  // Adds the layer and the messenger to `info` when asked for and installed.
  bool prepare(const Loader &l, VkInstanceCreateInfo &info);
  // Creates the messenger on `instance` (after prepare() returned true).
  void start(const Loader &l, VkInstance instance);
  void stop(VkInstance instance);
};
} // namespace trident::vulkan

struct trident_context_s {
  trident::vulkan::Loader loader;
  VkInstance instance = VK_NULL_HANDLE;
  trident::vulkan::Validation validation;
  std::string reason; // why there are no devices
  std::vector<std::unique_ptr<trident::vulkan::PhysicalDevice>> physical;
  std::vector<std::unique_ptr<trident::vulkan::Device>> devices;
  ~trident_context_s();
};

struct trident_device_s {}; // never instantiated: handles point at vulkan::Device

struct trident_stream_s {
  trident::vulkan::Device *device = nullptr;
  std::mutex mutex;
  VkCommandPool pool = VK_NULL_HANDLE;
  std::deque<trident::vulkan::Submission> inFlight;
  std::vector<VkCommandBuffer> spare;
  uint64_t last = 0; // the value of this stream's last submission
  // The batch being recorded: its command buffer, what it must keep alive, how many
  // operations it holds, and the events it records (given its value on submission).
  static constexpr unsigned kMaxBatch = 64;
  bool batching = true;
  VkCommandBuffer open = VK_NULL_HANDLE;
  std::vector<trident::vulkan::Allocation> openTemporaries;
  unsigned openOps = 0;
  std::vector<trident_event_s *> openEvents;
  // The pipeline stages of what the open batch recorded since its last barrier; a new
  // batch starts with all of them, for what was submitted before it on any stream.
  VkPipelineStageFlags unordered = 0;

  // The open batch's command buffer (started when there is none): the next operation,
  // which runs in pipeline stage `stage` (compute or transfer), is recorded into it
  // after a barrier that orders it after every earlier operation's memory accesses.
  // Stage 0: the operation touches no memory (a timestamp) and needs no barrier.
  trident_status begin(VkCommandBuffer &out, VkPipelineStageFlags stage);
  // Ends the operation recorded after begin(); `temporaries` are freed once it is
  // done. Submits the batch when it is full (or when batching is off).
  trident_status endOperation(std::vector<trident::vulkan::Allocation> temporaries = {});
  // Submits the open batch, if any (call with `mutex` held).
  trident_status flush();
  // Starts a new batch in `out` (none open).
  trident_status startBatch(VkCommandBuffer &out);
  // Submits the open batch and waits for everything submitted on this stream.
  trident_status synchronize();
  // Returns finished command buffers and temporaries (call with `mutex` held).
  void recycle();
  ~trident_stream_s();
};

// Recorded and flushed under the stream's mutex, but read without it by waits on other
// streams and threads: atomics. `pending` is cleared after `value` is set (flush()), so
// a reader that sees no pending batch sees the value of the submission.
struct trident_event_s {
  trident::vulkan::Device *device = nullptr;
  VkQueryPool queries = VK_NULL_HANDLE;
  std::atomic<uint64_t> value{0}; // the timeline value of the submission that records it
  std::atomic<bool> recorded{false};
  std::atomic<trident_stream_s *> pending{nullptr}; // the stream whose open batch records it (value not known yet)
};

struct trident_module_s;
struct trident_kernel_s {
  trident_module_s *module = nullptr;
};

// One kernel per module (a TVK1 binary holds one), found by name in the SDK's table.
struct trident_module_s {
  trident::vulkan::Device *device = nullptr;
  trident::spirv::KernelInterface interface;
  std::vector<uint32_t> argumentCodes; // the TRIDENT_ARG_* code of each argument (interface.args)
  VkShaderModule shader = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  trident::sdk::KernelTable<trident_kernel_s> kernels;
};

namespace trident::vulkan {
inline Device *fromHandle(trident_device d) { return reinterpret_cast<Device *>(d); }
inline trident_device toHandle(Device *d) { return reinterpret_cast<trident_device>(d); }

// Device enumeration (VulkanDevices.cpp).
void enumerateDevices(trident_context_s &ctx);

// The cooperative-matrix layout probe (VulkanCoopProbe.cpp): `p`'s shapes with the layouts
// its vendor's driver is known to use (none but on NVIDIA), or nothing; and the probe of
// them on `d` (opened for it), once, before its first compile or at its opening.
std::vector<CoopMatrixShape> coopLayoutCandidates(const PhysicalDevice &p);
void probeCoopLayouts(Device &d);

// Memory (VulkanMemory.cpp).
trident_status memAlloc(trident_device device, size_t bytes, trident_devptr *out);
trident_status memFree(trident_device device, trident_devptr ptr);
trident_status memcpyHtoD(trident_stream stream, trident_devptr dst, const void *src, size_t bytes);
trident_status memcpyDtoH(trident_stream stream, void *dst, trident_devptr src, size_t bytes);
trident_status memcpyDtoD(trident_stream stream, trident_devptr dst, trident_devptr src, size_t bytes);
trident_status memFill(trident_stream stream, trident_devptr dst, uint32_t pattern, uint32_t patternSize, size_t count);

// Copies and fills as compute kernels (VulkanCopy.cpp). Below kMinKernelBytes a
// copy costs the fixed price of one operation either way (and never makes the
// device compile the kernels); above it the kernel reaches the memory bandwidth
// where vkCmdCopyBuffer may not (849 against 4256 GB/s on an H200).
constexpr size_t kMinKernelBytes = size_t(64) << 10;
// How many leading bytes of a copy from `src` (or a fill: src = dst) to `dst` a
// kernel should do: a multiple of 16, or 0 (unaligned, small, a CPU device, or no kernels).
// The caller checks that the ranges do not overlap.
size_t kernelBytes(Device &d, uint64_t dst, uint64_t src, size_t bytes);
// Copies `bytes` (a multiple of 16) from src to dst with the copy kernel, on `stream`
// (not held by the caller).
trident_status copyByKernel(trident_stream stream, uint64_t dst, uint64_t src, size_t bytes);
// Writes `word` over `bytes` (a multiple of 16) from dst with the fill kernel.
trident_status fillByKernel(trident_stream stream, uint64_t dst, uint32_t word, size_t bytes);
// Unloads the copy and fill kernels of `d` (before its VkDevice goes).
void releaseCopyKernels(Device &d);

// Streams and events (VulkanStream.cpp).
trident_status streamCreate(trident_device device, trident_stream *out);
trident_status streamDestroy(trident_stream stream);
trident_status streamSynchronize(trident_stream stream);
trident_status streamWaitEvent(trident_stream stream, trident_event event);
trident_status eventCreate(trident_device device, trident_event *out);
trident_status eventDestroy(trident_event event);
trident_status eventRecord(trident_event event, trident_stream stream);
trident_status eventSynchronize(trident_event event);
trident_status eventElapsedMs(trident_event start, trident_event end, float *ms);

// Compilation (VulkanCompile.cpp).
trident_status supportsTarget(trident_context ctx, const char *target);
trident_status compile(trident_context ctx, const char *target, const char *ir, size_t size, const char *kernel,
                       const trident_compile_options *options, trident_binary *out);
trident_status binaryRelease(trident_context ctx, trident_binary *binary);

// Modules and launches (VulkanLaunch.cpp).
trident_status moduleLoad(trident_device device, const void *binary, size_t size, trident_module *out);
trident_status moduleUnload(trident_module module);
trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out);
trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params);
} // namespace trident::vulkan
