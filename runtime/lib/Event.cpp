#include "trident/Event.h"

#include "Impl.h"
#include "trident/Stream.h"

namespace trident {

using namespace detail;

Event::Event(const Device &device) {
  requireHandle(bool(device), "Device");
  auto e = std::make_shared<EventImpl>();
  e->device = device.impl();
  e->deviceHandle = device;
  trident_event created = nullptr; // a failed call's output is never kept (nor destroyed)
  TRIDENT_CALL(*e->device->plugin, event_create, "creating an event on " + device.name(), e->device->handle(),
               &created);
  e->event = created;
  impl_ = std::move(e);
}

const Device &Event::device() const {
  requireHandle(impl_ != nullptr, "Event");
  return impl_->deviceHandle;
}

void Event::record(const Stream &stream) const {
  requireHandle(impl_ != nullptr, "Event");
  requireHandle(bool(stream), "Stream");
  if (stream.impl()->device != impl_->device)
    throw Error(ErrorCode::InvalidArgument, "cannot record an event of " + impl_->device->name +
                                                " on a stream of " + stream.impl()->device->name +
                                                "; create the event on the stream's device");
  TRIDENT_CALL(*impl_->device->plugin, event_record, "recording an event on " + impl_->device->name,
               impl_->event, stream.impl()->stream);
}

void Event::record() const {
  requireHandle(impl_ != nullptr, "Event");
  TRIDENT_CALL(*impl_->device->plugin, event_record, "recording an event on " + impl_->device->name,
               impl_->event, impl_->device->defaultStream());
}

void Event::synchronize() const {
  requireHandle(impl_ != nullptr, "Event");
  TRIDENT_CALL(*impl_->device->plugin, event_synchronize, "waiting for an event of " + impl_->device->name,
               impl_->event);
}

float Event::elapsedMs(const Event &start, const Event &end) {
  requireHandle(bool(start) && bool(end), "Event");
  if (start.impl()->device != end.impl()->device)
    throw Error(ErrorCode::InvalidArgument, "elapsed time needs two events of one device, got " +
                                                start.impl()->device->name + " and " + end.impl()->device->name);
  float ms = 0;
  TRIDENT_CALL(*start.impl()->device->plugin, event_elapsed_ms, "timing events of " + start.impl()->device->name,
               start.impl()->event, end.impl()->event, &ms);
  return ms;
}

} // namespace trident
