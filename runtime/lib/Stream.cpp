#include "trident/Stream.h"

#include "Impl.h"
#include "trident/Event.h"

namespace trident {

using namespace detail;

Stream::Stream(const Device &device) {
  requireHandle(bool(device), "Device");
  auto s = std::make_shared<StreamImpl>();
  s->device = device.impl();
  s->deviceHandle = device;
  trident_stream created = nullptr; // a failed call's output is never kept (nor destroyed)
  TRIDENT_CALL(*s->device->plugin, stream_create, "creating a stream on " + device.name(),
               s->device->handle(), &created);
  s->stream = created;
  impl_ = std::move(s);
}

Stream Stream::import(const Device &device, void *nativeStream) {
  requireHandle(bool(device), "Device");
  auto s = std::make_shared<StreamImpl>();
  s->device = device.impl();
  s->deviceHandle = device;
  trident_stream imported = nullptr;
  TRIDENT_CALL(*s->device->plugin, stream_import, "importing a native stream on " + device.name(),
               s->device->handle(), nativeStream, &imported);
  s->stream = imported;
  return Stream(std::move(s));
}

const Device &Stream::device() const {
  requireHandle(impl_ != nullptr, "Stream");
  return impl_->deviceHandle;
}

void Stream::synchronize() const {
  requireHandle(impl_ != nullptr, "Stream");
  TRIDENT_CALL(*impl_->device->plugin, stream_synchronize, "synchronizing a stream of " + impl_->device->name,
               impl_->stream);
}

void Stream::wait(const Event &event) const {
  requireHandle(impl_ != nullptr, "Stream");
  requireHandle(bool(event), "Event");
  const auto &ev = event.impl();
  if (ev->device->plugin == impl_->device->plugin) {
    // One plugin: the driver orders the streams (CUDA: cuStreamWaitEvent across
    // devices) without blocking this thread; NOT_SUPPORTED falls back to the host.
    Plugin &plugin = *impl_->device->plugin;
    trident_status st = plugin.tryCall(&trident_plugin_api::stream_wait_event, impl_->stream, ev->event);
    if (st == TRIDENT_SUCCESS)
      return;
    if (st != TRIDENT_ERROR_NOT_SUPPORTED)
      plugin.throwStatus(st, "making a stream of " + impl_->device->name + " wait for an event of " +
                                 ev->device->name);
  }
  // Another plugin (or no device-side wait): block this thread until the event
  // completes, so everything enqueued on this stream afterwards runs after it.
  event.synchronize();
}

} // namespace trident
