#include "trident/Device.h"

#include "Impl.h"
#include "trident/Event.h"
#include "trident/Runtime.h"
#include "trident/Stream.h"

namespace trident {

using namespace detail;

namespace detail {

void requireHandle(bool present, const char *what) {
  if (!present)
    throw Error(ErrorCode::InvalidArgument, std::string("use of a null ") + what +
                                                " (a default-constructed handle); create it first");
}

DeviceImpl::DeviceImpl(std::shared_ptr<Plugin> p, std::shared_ptr<RuntimeShared> s, uint32_t ord, DeviceInfo i)
    : plugin(std::move(p)), shared(std::move(s)), ordinal(ord), name(plugin->name() + ":" + std::to_string(ord)),
      info(std::move(i)) {}

DeviceImpl::~DeviceImpl() {
  if (defaultStream_)
    plugin->tryCall(&trident_plugin_api::stream_destroy, defaultStream_);
  if (handle_)
    plugin->tryCall(&trident_plugin_api::device_close, handle_);
}

trident_device DeviceImpl::handle() {
  std::call_once(openOnce_, [&] {
    TRIDENT_CALL(*plugin, device_open, "opening device " + name, plugin->context(), ordinal, &handle_);
  });
  return handle_;
}

trident_stream DeviceImpl::defaultStream() {
  std::call_once(streamOnce_, [&] {
    trident_device dev = handle();
    TRIDENT_CALL(*plugin, stream_create, "creating the default stream of " + name, dev, &defaultStream_);
  });
  return defaultStream_;
}

StreamImpl::~StreamImpl() {
  if (owned && stream)
    device->plugin->tryCall(&trident_plugin_api::stream_destroy, stream);
}

EventImpl::~EventImpl() {
  if (event)
    device->plugin->tryCall(&trident_plugin_api::event_destroy, event);
}

} // namespace detail

std::string DeviceInfo::uuidString() const {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      s += '-';
    s += digits[uuid[i] >> 4];
    s += digits[uuid[i] & 15];
  }
  return s;
}

Device Device::get(const std::string &nameOrUuid) { return Runtime::get().device(nameOrUuid); }
Device Device::defaultDevice() { return Runtime::get().defaultDevice(); }

const std::string &Device::name() const {
  requireHandle(impl_ != nullptr, "Device");
  return impl_->name;
}
const std::string &Device::plugin() const {
  requireHandle(impl_ != nullptr, "Device");
  return impl_->plugin->name();
}
uint32_t Device::ordinal() const {
  requireHandle(impl_ != nullptr, "Device");
  return impl_->ordinal;
}
const DeviceInfo &Device::info() const {
  requireHandle(impl_ != nullptr, "Device");
  return impl_->info;
}

Stream Device::defaultStream() const {
  requireHandle(impl_ != nullptr, "Device");
  auto s = std::make_shared<StreamImpl>();
  s->device = impl_;
  s->deviceHandle = *this;
  s->stream = impl_->defaultStream();
  s->owned = false;
  return Stream(std::move(s));
}

void Device::synchronize() const {
  requireHandle(impl_ != nullptr, "Device");
  TRIDENT_CALL(*impl_->plugin, device_synchronize, "synchronizing " + impl_->name, impl_->handle());
}

// ---- Stream ----

Stream::Stream(const Device &device) {
  requireHandle(bool(device), "Device");
  auto s = std::make_shared<StreamImpl>();
  s->device = device.impl();
  s->deviceHandle = device;
  TRIDENT_CALL(*s->device->plugin, stream_create, "creating a stream on " + device.name(),
               s->device->handle(), &s->stream);
  impl_ = std::move(s);
}

Stream Stream::import(const Device &device, void *nativeStream) {
  requireHandle(bool(device), "Device");
  auto s = std::make_shared<StreamImpl>();
  s->device = device.impl();
  s->deviceHandle = device;
  TRIDENT_CALL(*s->device->plugin, stream_import, "importing a native stream on " + device.name(),
               s->device->handle(), nativeStream, &s->stream);
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
  if (ev->device->plugin == impl_->device->plugin &&
      impl_->device->plugin->has(&trident_plugin_api::stream_wait_event)) {
    TRIDENT_CALL(*impl_->device->plugin, stream_wait_event,
                 "making a stream of " + impl_->device->name + " wait for an event of " + ev->device->name,
                 impl_->stream, ev->event);
    return;
  }
  // Another plugin (or none offers device-side waits): wait on the host.
  event.synchronize();
}

// ---- Event ----

Event::Event(const Device &device) {
  requireHandle(bool(device), "Device");
  auto e = std::make_shared<EventImpl>();
  e->device = device.impl();
  e->deviceHandle = device;
  TRIDENT_CALL(*e->device->plugin, event_create, "creating an event on " + device.name(), e->device->handle(),
               &e->event);
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
