// Streams and events. A stream records its operations into one open command
// buffer and submits the batch when its results are needed or it is full; the
// device's timeline semaphore numbers the submissions, so waiting for a stream or
// an event is waiting for a value. Events write a timestamp query for
// event_elapsed_ms; an event in an open batch gets its value when the batch is
// submitted, and asking about it submits the batch.

#include "VulkanDevice.h"

#include <cstdlib>
#include <cstring>

namespace trident::vulkan {

namespace {

// Submits the open batch that records `event`, if any, so that its value is known.
trident_status resolve(trident_event event) {
  trident_stream s = event->pending;
  if (!s)
    return TRIDENT_SUCCESS;
  std::lock_guard lock(s->mutex);
  return event->pending ? s->flush() : TRIDENT_SUCCESS;
}

} // namespace

trident_status streamCreate(trident_device device, trident_stream *out) {
  return guarded([&]() -> trident_status {
    Device *d = fromHandle(device);
    auto s = std::make_unique<trident_stream_s>();
    s->device = d;
    VkCommandPoolCreateInfo info = vk<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    info.queueFamilyIndex = d->physical->queueFamily;
    if (VkResult r = d->fn.vkCreateCommandPool(d->device, &info, nullptr, &s->pool); r != VK_SUCCESS)
      return failVk(r, "creating a command pool on " + d->name);
    const char *batch = std::getenv("TRIDENT_VULKAN_BATCH");
    s->batching = !(batch && std::strcmp(batch, "0") == 0);
    {
      std::lock_guard lock(d->streamsMutex);
      d->streams.insert(s.get());
    }
    *out = s.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status streamDestroy(trident_stream stream) {
  delete stream;
  return TRIDENT_SUCCESS;
}

trident_status streamSynchronize(trident_stream stream) {
  std::lock_guard lock(stream->mutex);
  return stream->synchronize();
}

trident_status streamWaitEvent(trident_stream stream, trident_event event) {
  if (!event->recorded)
    return TRIDENT_SUCCESS;
  // Submitted before anything `stream` records from now on.
  if (event->pending != stream)
    if (trident_status s = resolve(event); s != TRIDENT_SUCCESS)
      return s;
  // On one device every submission already runs after the ones before it.
  if (event->device == stream->device)
    return TRIDENT_SUCCESS;
  return event->device->wait(event->value);
}

trident_status eventCreate(trident_device device, trident_event *out) {
  return guarded([&]() -> trident_status {
    Device *d = fromHandle(device);
    auto e = std::make_unique<trident_event_s>();
    e->device = d;
    if (d->physical->timestampValidBits) {
      VkQueryPoolCreateInfo info = vk<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
      info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      info.queryCount = 1;
      if (VkResult r = d->fn.vkCreateQueryPool(d->device, &info, nullptr, &e->queries); r != VK_SUCCESS)
        return failVk(r, "creating a timestamp query on " + d->name);
    }
    *out = e.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status eventDestroy(trident_event event) {
  resolve(event); // no open batch may keep a pointer to it
  if (event->queries) {
    Device *d = event->device;
    d->wait(event->value); // the query may still be written
    d->fn.vkDestroyQueryPool(d->device, event->queries, nullptr);
  }
  delete event;
  return TRIDENT_SUCCESS;
}

trident_status eventRecord(trident_event event, trident_stream stream) {
  if (event->device != stream->device)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "an event of " + event->device->name + " cannot be recorded on a stream of " +
                                                    stream->device->name);
  // Recorded again: the batch holding the earlier recording goes first.
  if (event->pending && event->pending != stream)
    if (trident_status s = resolve(event); s != TRIDENT_SUCCESS)
      return s;
  std::lock_guard lock(stream->mutex);
  VkCommandBuffer cmd;
  // A timestamp touches no memory, and one written at the bottom of the pipe already
  // waits for every earlier command: no barrier (a barrier here would be timed too).
  if (trident_status s = stream->begin(cmd, 0); s != TRIDENT_SUCCESS)
    return s;
  if (event->queries) {
    Device *d = stream->device;
    // A reset on the queue adds about 7 us to the timed work on NVIDIA (measured on
    // an H200: a one-program kernel timed 8.4 us, 2.7 us with host resets): reset from
    // the host when the query's last write is done (it is, unless the event is
    // recorded again before its last recording ran).
    uint64_t done = 0;
    if (d->physical->hostQueryReset && !event->pending &&
        (!event->recorded || (d->fn.vkGetSemaphoreCounterValue(d->device, d->timeline, &done) == VK_SUCCESS &&
                              done >= event->value)))
      d->fn.vkResetQueryPool(d->device, event->queries, 0, 1);
    else
      d->fn.vkCmdResetQueryPool(cmd, event->queries, 0, 1);
    d->fn.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, event->queries, 0);
  }
  event->recorded = true;
  if (event->pending != stream) {
    event->pending = stream;
    stream->openEvents.push_back(event);
  }
  return stream->endOperation(); // gives the event its value when the batch goes
}

trident_status eventSynchronize(trident_event event) {
  if (trident_status s = resolve(event); s != TRIDENT_SUCCESS)
    return s;
  return event->device->wait(event->value);
}

trident_status eventElapsedMs(trident_event start, trident_event end, float *ms) {
  if (!start->recorded || !end->recorded)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "elapsed time of an event that was never recorded");
  if (start->device != end->device)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "elapsed time between events of two devices");
  Device *d = start->device;
  if (!start->queries)
    return fail(TRIDENT_ERROR_NOT_SUPPORTED, d->name + " has no timestamps on its compute queue");
  for (trident_event e : {start, end})
    if (trident_status s = resolve(e); s != TRIDENT_SUCCESS)
      return s;
  uint64_t ticks[2];
  for (int i = 0; i < 2; ++i) {
    trident_event e = i ? end : start;
    if (trident_status s = d->wait(e->value); s != TRIDENT_SUCCESS)
      return s;
    if (VkResult r = d->fn.vkGetQueryPoolResults(d->device, e->queries, 0, 1, sizeof ticks[i], &ticks[i], sizeof ticks[i],
                                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        r != VK_SUCCESS)
      return failVk(r, "reading a timestamp of " + d->name);
  }
  unsigned bits = d->physical->timestampValidBits;
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  uint64_t delta = (ticks[1] - ticks[0]) & mask;
  *ms = float(double(delta) * double(d->physical->properties.limits.timestampPeriod) / 1e6);
  return TRIDENT_SUCCESS;
}

} // namespace trident::vulkan

using trident::vulkan::Allocation;
using trident::vulkan::failVk;
using trident::vulkan::vk;

namespace {

// The writes that operations in `stages` may make.
VkAccessFlags writesOf(VkPipelineStageFlags stages) {
  if (stages & VK_PIPELINE_STAGE_ALL_COMMANDS_BIT)
    return VK_ACCESS_MEMORY_WRITE_BIT;
  VkAccessFlags access = 0;
  if (stages & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT)
    access |= VK_ACCESS_SHADER_WRITE_BIT;
  if (stages & VK_PIPELINE_STAGE_TRANSFER_BIT)
    access |= VK_ACCESS_TRANSFER_WRITE_BIT;
  return access;
}

void recordBarrier(const trident::vulkan::DeviceFunctions &fn, VkCommandBuffer cmd, VkPipelineStageFlags from,
                   VkPipelineStageFlags to, VkAccessFlags toAccess) {
  VkMemoryBarrier barrier = vk<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = writesOf(from);
  barrier.dstAccessMask = toAccess;
  fn.vkCmdPipelineBarrier(cmd, from, to, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

} // namespace

trident_status trident_stream_s::begin(VkCommandBuffer &out, VkPipelineStageFlags stage) {
  if (open) {
    out = open;
  } else if (trident_status s = startBatch(out); s != TRIDENT_SUCCESS) {
    return s;
  }
  if (!stage)
    return TRIDENT_SUCCESS;
  // Write-after-read needs the execution dependency, read- and write-after-write the
  // memory one: kernels and copies may do all of them.
  VkAccessFlags access = stage == VK_PIPELINE_STAGE_TRANSFER_BIT
                             ? VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT
                             : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  recordBarrier(device->fn, out, unordered, stage, access);
  unordered = stage;
  return TRIDENT_SUCCESS;
}

trident_status trident_stream_s::startBatch(VkCommandBuffer &out) {
  const trident::vulkan::DeviceFunctions &fn = device->fn;
  recycle();
  if (!spare.empty()) {
    out = spare.back();
    spare.pop_back();
  } else {
    VkCommandBufferAllocateInfo info = vk<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    info.commandPool = pool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    if (VkResult r = fn.vkAllocateCommandBuffers(device->device, &info, &out); r != VK_SUCCESS)
      return failVk(r, "allocating a command buffer on " + device->name);
  }
  VkCommandBufferBeginInfo begin = vk<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = fn.vkBeginCommandBuffer(out, &begin); r != VK_SUCCESS) {
    spare.push_back(out);
    return failVk(r, "recording a command buffer on " + device->name);
  }
  open = out;
  unordered = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  return TRIDENT_SUCCESS;
}

trident_status trident_stream_s::endOperation(std::vector<Allocation> temporaries) {
  for (Allocation &a : temporaries)
    openTemporaries.push_back(a);
  ++openOps;
  if (!batching || openOps >= kMaxBatch)
    return flush();
  return TRIDENT_SUCCESS;
}

trident_status trident_stream_s::flush() {
  if (!open)
    return TRIDENT_SUCCESS;
  const trident::vulkan::DeviceFunctions &fn = device->fn;
  VkCommandBuffer cmd = open;
  std::vector<Allocation> temporaries = std::move(openTemporaries);
  std::vector<trident_event_s *> events = std::move(openEvents);
  open = VK_NULL_HANDLE;
  openTemporaries.clear();
  openEvents.clear();
  openOps = 0;
  // Until the batch is submitted its events stay pending (a waiter on another thread
  // then locks this stream's mutex, held by the caller, and finds them flushed).
  auto dropEvents = [&] {
    for (trident_event_s *e : events)
      e->pending = nullptr;
  };
  // The host reads results (staging buffers, mapped memory) once the batch is done:
  // waiting for the semaphore alone does not make device writes visible to it.
  recordBarrier(fn, cmd, unordered, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  if (VkResult r = fn.vkEndCommandBuffer(cmd); r != VK_SUCCESS) {
    spare.push_back(cmd);
    for (Allocation &a : temporaries)
      device->destroyBuffer(a);
    dropEvents();
    return failVk(r, "recording a command buffer on " + device->name);
  }
  uint64_t value;
  {
    std::lock_guard lock(device->queueMutex);
    value = device->submitted + 1;
    VkTimelineSemaphoreSubmitInfo timelineInfo = vk<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    timelineInfo.signalSemaphoreValueCount = 1;
    timelineInfo.pSignalSemaphoreValues = &value;
    VkSubmitInfo info = vk<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    info.pNext = &timelineInfo;
    info.commandBufferCount = 1;
    info.pCommandBuffers = &cmd;
    info.signalSemaphoreCount = 1;
    info.pSignalSemaphores = &device->timeline;
    if (VkResult r = fn.vkQueueSubmit(device->queue, 1, &info, VK_NULL_HANDLE); r != VK_SUCCESS) {
      spare.push_back(cmd);
      for (Allocation &a : temporaries)
        device->destroyBuffer(a);
      dropEvents();
      return failVk(r, "submitting work to " + device->name);
    }
    device->submitted = value;
  }
  inFlight.push_back({value, cmd, std::move(temporaries)});
  last = value;
  for (trident_event_s *e : events)
    e->value = value;
  dropEvents(); // after the values: seq_cst stores, so no reader sees one without the other
  return TRIDENT_SUCCESS;
}

trident_status trident_stream_s::synchronize() {
  if (trident_status s = flush(); s != TRIDENT_SUCCESS)
    return s;
  if (trident_status s = device->wait(last); s != TRIDENT_SUCCESS)
    return s;
  recycle();
  return TRIDENT_SUCCESS;
}

void trident_stream_s::recycle() {
  if (inFlight.empty())
    return;
  uint64_t done = 0;
  device->fn.vkGetSemaphoreCounterValue(device->device, device->timeline, &done);
  while (!inFlight.empty() && inFlight.front().value <= done) {
    for (Allocation &a : inFlight.front().temporaries)
      device->destroyBuffer(a);
    spare.push_back(inFlight.front().commands);
    inFlight.pop_front();
  }
}

trident_stream_s::~trident_stream_s() {
  if (!device)
    return;
  {
    std::lock_guard lock(device->streamsMutex);
    device->streams.erase(this);
  }
  if (!device->device)
    return;
  synchronize();
  const trident::vulkan::DeviceFunctions &fn = device->fn;
  if (!spare.empty())
    fn.vkFreeCommandBuffers(device->device, pool, uint32_t(spare.size()), spare.data());
  if (pool)
    fn.vkDestroyCommandPool(device->device, pool, nullptr);
}

trident_status trident::vulkan::Device::flushStreams() {
  std::lock_guard streamsLock(streamsMutex);
  trident_status result = TRIDENT_SUCCESS;
  for (trident_stream_s *s : streams) {
    std::lock_guard lock(s->mutex);
    if (trident_status st = s->flush(); st != TRIDENT_SUCCESS && result == TRIDENT_SUCCESS)
      result = st;
  }
  return result;
}
