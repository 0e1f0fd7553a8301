// Device memory: one VkBuffer (with its own VkDeviceMemory) per allocation,
// addressed by its buffer device address rounded up to 256 bytes. Copies from
// and to the host go through host-visible staging buffers, or straight through
// a mapping when device memory is host-visible (integrated GPUs, lavapipe).
// Large aligned device-to-device copies and fills run as compute kernels
// (VulkanCopy.cpp); the rest use transfer commands.

#include "VulkanDevice.h"

#include <cstdint>
#include <cstring>

namespace trident::vulkan {

using sdk::hex;

namespace {

trident_status outOfRange(Device &d, uint64_t addr, size_t bytes) {
  std::string range = "["; // (appended: GCC 12 warns of -Wrestrict for "[" + hex(...))
  range += hex(addr) + ", " + hex(addr + bytes) + ")";
  return fail(TRIDENT_ERROR_INVALID_ARGUMENT, range + " is not inside one allocation of " + d.name);
}

// The host address of device address `addr` in a mapped allocation.
uint8_t *hostView(const Allocation &a, uint64_t addr) {
  return static_cast<uint8_t *>(a.mapped) + (addr - a.bufferAddress);
}

// Copies `bytes` from host `src` to device `dst` inside `a`, on `s` (which the caller holds).
trident_status upload(trident_stream s, const Allocation &a, uint64_t dst, const void *src, size_t bytes) {
  Device &d = *s->device;
  if (a.mapped) {
    if (trident_status st = s->synchronize(); st != TRIDENT_SUCCESS)
      return st;
    std::memcpy(hostView(a, dst), src, bytes);
    return TRIDENT_SUCCESS;
  }
  Allocation staging;
  if (trident_status st = d.createBuffer(bytes, true, staging); st != TRIDENT_SUCCESS)
    return st;
  std::memcpy(staging.mapped, src, bytes);
  VkCommandBuffer cmd;
  if (trident_status st = s->begin(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT); st != TRIDENT_SUCCESS) {
    d.destroyBuffer(staging);
    return st;
  }
  VkBufferCopy region{0, dst - a.bufferAddress, bytes};
  d.fn.vkCmdCopyBuffer(cmd, staging.buffer, a.buffer, 1, &region);
  return s->endOperation({staging});
}

// Copies [src, src + bytes) of `from` to dst in `to` with transfer commands, on `s`
// (which the caller holds).
trident_status copyByTransfer(trident_stream s, const Allocation &to, const Allocation &from, uint64_t dst,
                              uint64_t src, size_t bytes) {
  Device &d = *s->device;
  VkCommandBuffer cmd;
  if (trident_status st = s->begin(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT); st != TRIDENT_SUCCESS)
    return st;
  std::vector<Allocation> temporaries;
  bool overlap = &to == &from && dst < src + bytes && src < dst + bytes;
  if (overlap) { // vkCmdCopyBuffer forbids overlapping regions: go through a scratch buffer
    Allocation scratch;
    if (trident_status st = d.createBuffer(bytes, false, scratch); st != TRIDENT_SUCCESS)
      return st; // the open batch keeps only the barrier begin recorded
    VkBufferCopy in{src - from.bufferAddress, 0, bytes};
    d.fn.vkCmdCopyBuffer(cmd, from.buffer, scratch.buffer, 1, &in);
    VkMemoryBarrier barrier = vk<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    d.fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0,
                              nullptr, 0, nullptr);
    VkBufferCopy out{0, dst - to.bufferAddress, bytes};
    d.fn.vkCmdCopyBuffer(cmd, scratch.buffer, to.buffer, 1, &out);
    temporaries.push_back(scratch);
  } else {
    VkBufferCopy region{src - from.bufferAddress, dst - to.bufferAddress, bytes};
    d.fn.vkCmdCopyBuffer(cmd, from.buffer, to.buffer, 1, &region);
  }
  return s->endOperation(std::move(temporaries));
}

// Writes `count` copies of the low `patternSize` bytes of `pattern` from dst in `a`
// with transfer commands, on `s` (which the caller holds); `word` is the pattern
// repeated over 4 bytes.
trident_status fillByTransfer(trident_stream s, const Allocation &a, uint64_t dst, uint32_t pattern,
                              uint32_t patternSize, size_t count, uint32_t word) {
  Device &d = *s->device;
  size_t bytes = count * patternSize;
  uint64_t offset = dst - a.bufferAddress;
  if (offset % 4 == 0 && bytes % 4 == 0) {
    VkCommandBuffer cmd;
    if (trident_status st = s->begin(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT); st != TRIDENT_SUCCESS)
      return st;
    d.fn.vkCmdFillBuffer(cmd, a.buffer, offset, bytes, word);
    return s->endOperation();
  }
  // Unaligned: the pattern written on the host, then copied. Little-endian: the low bytes.
  std::vector<uint8_t> host(bytes);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(host.data() + i * patternSize, &pattern, patternSize);
  return upload(s, a, dst, host.data(), bytes);
}

} // namespace

trident_status failVk(VkResult result, const std::string &what) {
  bool memory = result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY;
  return fail(memory ? TRIDENT_ERROR_OUT_OF_MEMORY : TRIDENT_ERROR_DEVICE, what + ": " + resultName(result));
}

trident_status memAlloc(trident_device device, size_t bytes, trident_devptr *out) {
  return guarded([&]() -> trident_status {
    Device &d = *fromHandle(device);
    Allocation a;
    if (bytes > SIZE_MAX - 512)
      return d.outOfMemory(bytes, d.deviceMemoryType, "more than its memory");
    size_t size = (std::max<size_t>(bytes, 1) + 3) / 4 * 4 + 256; // room to round the address up to 256
    if (trident_status s = d.createBuffer(size, false, a); s != TRIDENT_SUCCESS)
      return s;
    a.address = (a.bufferAddress + 255) / 256 * 256;
    a.bytes = bytes;
    std::lock_guard lock(d.mutex);
    d.allocations[a.address] = a;
    *out = a.address;
    return TRIDENT_SUCCESS;
  });
}

trident_status memFree(trident_device device, trident_devptr ptr) {
  Device &d = *fromHandle(device);
  Allocation a;
  {
    std::lock_guard lock(d.mutex);
    auto it = d.allocations.find(ptr);
    if (it == d.allocations.end())
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, hex(ptr) + " is not an allocation of " + d.name);
    a = it->second;
    d.allocations.erase(it);
  }
  // Work already recorded or submitted may still use it.
  if (trident_status s = d.flushStreams(); s != TRIDENT_SUCCESS)
    return s;
  uint64_t last;
  {
    std::lock_guard lock(d.queueMutex);
    last = d.submitted;
  }
  trident_status s = d.wait(last);
  d.destroyBuffer(a);
  return s;
}

trident_status memcpyHtoD(trident_stream stream, trident_devptr dst, const void *src, size_t bytes) {
  return guarded([&]() -> trident_status {
    Device &d = *stream->device;
    Allocation *a = d.find(dst, bytes);
    if (!a)
      return outOfRange(d, dst, bytes);
    if (!bytes)
      return TRIDENT_SUCCESS;
    std::lock_guard lock(stream->mutex);
    return upload(stream, *a, dst, src, bytes);
  });
}

trident_status memcpyDtoH(trident_stream stream, void *dst, trident_devptr src, size_t bytes) {
  return guarded([&]() -> trident_status {
    Device &d = *stream->device;
    Allocation *a = d.find(src, bytes);
    if (!a)
      return outOfRange(d, src, bytes);
    if (!bytes)
      return TRIDENT_SUCCESS;
    std::lock_guard lock(stream->mutex);
    if (a->mapped) {
      if (trident_status s = stream->synchronize(); s != TRIDENT_SUCCESS)
        return s;
      std::memcpy(dst, hostView(*a, src), bytes);
      return TRIDENT_SUCCESS;
    }
    Allocation staging;
    if (trident_status s = d.createBuffer(bytes, true, staging); s != TRIDENT_SUCCESS)
      return s;
    VkCommandBuffer cmd;
    trident_status s = stream->begin(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT);
    if (s == TRIDENT_SUCCESS) {
      VkBufferCopy region{src - a->bufferAddress, 0, bytes};
      d.fn.vkCmdCopyBuffer(cmd, a->buffer, staging.buffer, 1, &region);
      s = stream->endOperation();
    }
    if (s == TRIDENT_SUCCESS)
      s = stream->synchronize();
    if (s == TRIDENT_SUCCESS)
      std::memcpy(dst, staging.mapped, bytes);
    d.destroyBuffer(staging);
    return s;
  });
}

// Large aligned copies that do not overlap run as a kernel (VulkanCopy.cpp), and
// what is left past a multiple of 16 bytes as a transfer.
trident_status memcpyDtoD(trident_stream stream, trident_devptr dst, trident_devptr src, size_t bytes) {
  return guarded([&]() -> trident_status {
    Device &d = *stream->device;
    Allocation *to = d.find(dst, bytes), *from = d.find(src, bytes);
    if (!to)
      return outOfRange(d, dst, bytes);
    if (!from)
      return outOfRange(d, src, bytes);
    if (!bytes)
      return TRIDENT_SUCCESS;
    bool overlap = to == from && dst < src + bytes && src < dst + bytes;
    if (size_t body = overlap ? 0 : kernelBytes(d, dst, src, bytes)) {
      if (trident_status s = copyByKernel(stream, dst, src, body); s != TRIDENT_SUCCESS || body == bytes)
        return s;
      dst += body;
      src += body;
      bytes -= body;
    }
    std::lock_guard lock(stream->mutex);
    return copyByTransfer(stream, *to, *from, dst, src, bytes);
  });
}

// Large 16-byte aligned fills run as a kernel (VulkanCopy.cpp), and what is left
// past a multiple of 16 bytes as a transfer (16 is a multiple of every pattern size,
// so the pattern keeps its phase).
trident_status memFill(trident_stream stream, trident_devptr dst, uint32_t pattern, uint32_t patternSize,
                       size_t count) {
  return guarded([&]() -> trident_status {
    Device &d = *stream->device;
    if (patternSize != 1 && patternSize != 2 && patternSize != 4)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                  "fill pattern size must be 1, 2 or 4 bytes, not " + std::to_string(patternSize));
    size_t bytes = count * patternSize;
    Allocation *a = d.find(dst, bytes);
    if (!a)
      return outOfRange(d, dst, bytes);
    if (!bytes)
      return TRIDENT_SUCCESS;
    uint32_t word = patternSize == 1 ? (pattern & 0xff) * 0x01010101u
                    : patternSize == 2 ? (pattern & 0xffff) * 0x00010001u
                                       : pattern;
    if (size_t body = kernelBytes(d, dst, dst, bytes)) {
      if (trident_status s = fillByKernel(stream, dst, word, body); s != TRIDENT_SUCCESS || body == bytes)
        return s;
      dst += body;
      count -= body / patternSize;
    }
    std::lock_guard lock(stream->mutex);
    return fillByTransfer(stream, *a, dst, pattern, patternSize, count, word);
  });
}

} // namespace trident::vulkan
