// Modules (one compute pipeline per binary, run with exactly the subgroup size
// the kernel was lowered for) and launches: the push-constant header, the
// arguments (in push constants, or in a buffer past the device's limit), and
// grids split into dispatches no larger than maxComputeWorkGroupCount, each
// told its base program id through the header.

#include "KernelBinary.h"
#include "VulkanDevice.h"
#include "trident/sdk/KernelArgs.h"

#include <cstdio>
#include <cstring>
#include <iterator>

namespace trident::vulkan {

namespace {

// The TRIDENT_ARG_* code that passes an argument of kind `k`.
uint32_t argumentCode(spirv::ArgKind k) {
  static constexpr uint32_t codes[] = {TRIDENT_ARG_POINTER, TRIDENT_ARG_I1,  TRIDENT_ARG_I8,   TRIDENT_ARG_I16,
                                       TRIDENT_ARG_I32,     TRIDENT_ARG_I64, TRIDENT_ARG_F16,  TRIDENT_ARG_BF16,
                                       TRIDENT_ARG_F32,     TRIDENT_ARG_F64};
  static_assert(std::size(codes) == unsigned(spirv::ArgKind::F64) + 1);
  return codes[unsigned(k)];
}

void destroyModule(trident_module_s &m) {
  Device &d = *m.device;
  if (m.pipeline)
    d.fn.vkDestroyPipeline(d.device, m.pipeline, nullptr);
  if (m.layout)
    d.fn.vkDestroyPipelineLayout(d.device, m.layout, nullptr);
  if (m.shader)
    d.fn.vkDestroyShaderModule(d.device, m.shader, nullptr);
}

} // namespace

// TRIDENT_VULKAN_STATS=1: the driver's statistics of each executable of `pipeline`
// (on NVIDIA: registers, shared memory, local memory for spills...), one line each.
void printStatistics(const Device &d, VkPipeline pipeline, const std::string &what) {
  VkPipelineInfoKHR info = vk<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  info.pipeline = pipeline;
  uint32_t count = 0;
  if (d.getExecutables(d.device, &info, &count, nullptr) != VK_SUCCESS)
    return;
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, vk<VkPipelineExecutablePropertiesKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
  if (d.getExecutables(d.device, &info, &count, executables.data()) != VK_SUCCESS)
    return;
  for (uint32_t e = 0; e < count; ++e) {
    VkPipelineExecutableInfoKHR which = vk<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    which.pipeline = pipeline;
    which.executableIndex = e;
    uint32_t n = 0;
    if (d.getStatistics(d.device, &which, &n, nullptr) != VK_SUCCESS)
      continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        n, vk<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    if (d.getStatistics(d.device, &which, &n, stats.data()) != VK_SUCCESS)
      continue;
    std::string line = "trident vulkan: " + what + " on " + d.name + ": " + executables[e].name + ":";
    for (const VkPipelineExecutableStatisticKHR &st : stats) {
      line += std::string(" ") + st.name + "=";
      switch (st.format) {
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: line += st.value.b32 ? "true" : "false"; break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: line += std::to_string(st.value.i64); break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: line += std::to_string(st.value.u64); break;
      default: line += std::to_string(st.value.f64); break;
      }
      line += ",";
    }
    line.back() = '\n';
    std::fputs(line.c_str(), stderr);
  }
}

trident_status moduleLoad(trident_device device, const void *binary, size_t size, trident_module *out) {
  return guarded([&]() -> trident_status {
    Device &d = *fromHandle(device);
    const PhysicalDevice &p = *d.physical;
    std::string error;
    std::optional<spirv::SpirvKernel> k = decodeBinary(binary, size, error);
    if (!k)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, error);
    const spirv::KernelInterface &i = k->interface;
    std::string what = "kernel '" + i.name + "'";
    if (uint64_t missing = i.requiredFeatures & ~p.info.features)
      return fail(TRIDENT_ERROR_NOT_SUPPORTED,
                  what + " needs " + spirv::featureNames(missing) + ", which " + d.name + " does not support");
    // A kernel lowered for subgroups the device cannot run still runs when only its lane
    // and warp ids depend on their size (the generic target's elementwise kernels on
    // lavapipe): they are rewritten to divide the invocation index, and the device
    // picks its own size (no required size, no full subgroups).
    bool anySubgroupSize = false;
    if (i.subgroupSize != p.info.subgroupSize &&
        !(p.subgroupSizeControl && i.subgroupSize >= p.minSubgroupSize && i.subgroupSize <= p.maxSubgroupSize)) {
      std::string dependence;
      std::optional<std::vector<uint32_t>> free = withoutSubgroupIds(k->words, i.subgroupSize, dependence);
      std::string device = "vulkan:" + std::to_string(d.ordinal);
      if (!free)
        return fail(TRIDENT_ERROR_NOT_SUPPORTED,
                    what + " was compiled for subgroups of " + std::to_string(i.subgroupSize) +
                        " and depends on their size (it has " + dependence + "); " + device + " runs " +
                        std::to_string(p.info.subgroupSize) + " and cannot be asked otherwise: compile it for " +
                        device + "'s own target too (--target " + device + ")");
      k->words = std::move(*free);
      anySubgroupSize = true;
    }
    if (!anySubgroupSize && p.requiresSubgroupSize() && i.numThreads > i.subgroupSize * p.maxSubgroupsPerProgram)
      return fail(TRIDENT_ERROR_NOT_SUPPORTED, what + " has " + std::to_string(i.numThreads) + " threads; " + d.name +
                                                   " runs at most " + std::to_string(p.maxSubgroupsPerProgram) +
                                                   " subgroups of " + std::to_string(i.subgroupSize) + " in a program");
    if (i.numThreads > p.info.maxThreadsPerProgram || i.sharedBytes > p.info.sharedMemoryBytes ||
        i.pushConstantBytes > p.info.pushConstantBytes)
      return fail(TRIDENT_ERROR_NOT_SUPPORTED,
                  what + " needs " + std::to_string(i.numThreads) + " threads, " + std::to_string(i.sharedBytes) +
                      " bytes of workgroup memory and " + std::to_string(i.pushConstantBytes) +
                      " bytes of push constants; " + d.name + " allows " + std::to_string(p.info.maxThreadsPerProgram) +
                      ", " + std::to_string(p.info.sharedMemoryBytes) + " and " +
                      std::to_string(p.info.pushConstantBytes));

    auto m = std::make_unique<trident_module_s>();
    m->device = &d;
    m->interface = i;
    for (const spirv::ArgSlot &slot : i.args)
      m->argumentCodes.push_back(argumentCode(slot.kind));
    auto kernel = std::make_unique<trident_kernel_s>();
    kernel->module = m.get();
    m->kernels.add(i.name, std::move(kernel));
    VkShaderModuleCreateInfo shaderInfo = vk<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    shaderInfo.codeSize = k->words.size() * 4;
    shaderInfo.pCode = k->words.data();
    if (VkResult r = d.fn.vkCreateShaderModule(d.device, &shaderInfo, nullptr, &m->shader); r != VK_SUCCESS)
      return failVk(r, "creating the shader module of " + what + " on " + d.name);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, i.pushConstantBytes};
    VkPipelineLayoutCreateInfo layoutInfo = vk<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    if (VkResult r = d.fn.vkCreatePipelineLayout(d.device, &layoutInfo, nullptr, &m->layout); r != VK_SUCCESS) {
      destroyModule(*m);
      return failVk(r, "creating the pipeline layout of " + what + " on " + d.name);
    }
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfoEXT subgroupSize = vk<VkPipelineShaderStageRequiredSubgroupSizeCreateInfoEXT>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO_EXT);
    subgroupSize.requiredSubgroupSize = i.subgroupSize;
    VkComputePipelineCreateInfo pipelineInfo = vk<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    VkPipelineShaderStageCreateInfo &stage = pipelineInfo.stage;
    stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    stage.module = m->shader;
    stage.pName = m->interface.name.c_str();
    if (p.requiresSubgroupSize() && !anySubgroupSize)
      stage.pNext = &subgroupSize;
    if (p.fullSubgroups && !anySubgroupSize) // the lowering assumes every warp is whole
      stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT;
    pipelineInfo.layout = m->layout;
    if (d.getStatistics)
      pipelineInfo.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    if (VkResult r = d.fn.vkCreateComputePipelines(d.device, d.pipelineCache, 1, &pipelineInfo, nullptr, &m->pipeline);
        r != VK_SUCCESS) {
      destroyModule(*m);
      return failVk(r, "creating the compute pipeline of " + what + " on " + d.name);
    }
    if (d.getStatistics)
      printStatistics(d, m->pipeline, what);
    *out = m.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status moduleUnload(trident_module module) {
  Device &d = *module->device;
  d.flushStreams(); // recorded launches may use the pipeline
  uint64_t last;
  {
    std::lock_guard lock(d.queueMutex);
    last = d.submitted;
  }
  trident_status s = d.wait(last); // launches may still use the pipeline
  destroyModule(*module);
  delete module;
  return s;
}

trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out) {
  if (!name)
    return sdk::missingKernelError("");
  return module->kernels.find(name, out);
}

trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params) {
  return guarded([&]() -> trident_status {
    trident_module_s &m = *kernel->module;
    Device &d = *stream->device;
    const spirv::KernelInterface &k = m.interface;
    if (m.device != &d)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + k.name + "' was loaded on " + m.device->name +
                                                      ", not on " + d.name);
    if (trident_status s = sdk::checkLaunch("vulkan", params); s != TRIDENT_SUCCESS)
      return s;
    if (trident_status s = sdk::checkArgumentCodes(k.name, m.argumentCodes, *params); s != TRIDENT_SUCCESS)
      return s;
    if (params->dynamic_shared_memory)
      return fail(TRIDENT_ERROR_NOT_SUPPORTED, "the vulkan plugin has no dynamic shared memory");

    // The argument block.
    std::vector<uint8_t> block(k.argsInBuffer ? k.argBufferBytes : k.pushConstantBytes, 0);
    for (size_t i = 0; i < k.args.size(); ++i) {
      const trident_kernel_arg &a = params->args[i];
      const spirv::ArgSlot &slot = k.args[i];
      uint64_t bits = slot.kind == spirv::ArgKind::I1 ? uint64_t(a.bits != 0) : a.bits;
      std::memcpy(block.data() + slot.offset, &bits, slot.size); // little-endian: the low bytes
    }
    std::vector<uint8_t> push(k.pushConstantBytes, 0);
    std::vector<Allocation> temporaries;
    if (k.argsInBuffer) {
      Allocation args;
      if (trident_status s = d.createBuffer(block.size(), true, args); s != TRIDENT_SUCCESS)
        return s;
      std::memcpy(args.mapped, block.data(), block.size());
      std::memcpy(push.data() + spirv::kArgBufferAddressOffset, &args.bufferAddress, 8);
      temporaries.push_back(args);
    } else {
      push = block;
    }

    std::lock_guard lock(stream->mutex);
    VkCommandBuffer cmd;
    if (trident_status s = stream->begin(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT); s != TRIDENT_SUCCESS) {
      for (Allocation &a : temporaries)
        d.destroyBuffer(a);
      return s;
    }
    d.fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, m.pipeline);
    const uint32_t *limit = d.physical->info.maxGrid;
    const uint32_t *grid = params->grid;
    uint32_t header[6] = {0, 0, 0, grid[0], grid[1], grid[2]};
    for (uint64_t z = 0; z < grid[2]; z += limit[2])
      for (uint64_t y = 0; y < grid[1]; y += limit[1])
        for (uint64_t x = 0; x < grid[0]; x += limit[0]) {
          header[0] = uint32_t(x);
          header[1] = uint32_t(y);
          header[2] = uint32_t(z);
          std::memcpy(push.data(), header, sizeof header);
          d.fn.vkCmdPushConstants(cmd, m.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(push.size()), push.data());
          d.fn.vkCmdDispatch(cmd, uint32_t(std::min<uint64_t>(limit[0], grid[0] - x)),
                             uint32_t(std::min<uint64_t>(limit[1], grid[1] - y)),
                             uint32_t(std::min<uint64_t>(limit[2], grid[2] - z)));
        }
    return stream->endOperation(std::move(temporaries));
  });
}

} // namespace trident::vulkan
