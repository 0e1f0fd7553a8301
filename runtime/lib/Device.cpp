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
    trident_device opened = nullptr; // a failed call's output is never kept
    TRIDENT_CALL(*plugin, device_open, "opening device " + name, plugin->context(), ordinal, &opened);
    handle_ = opened;
  });
  return handle_;
}

trident_stream DeviceImpl::defaultStream() {
  std::call_once(streamOnce_, [&] {
    trident_device dev = handle();
    trident_stream created = nullptr;
    TRIDENT_CALL(*plugin, stream_create, "creating the default stream of " + name, dev, &created);
    defaultStream_ = created;
  });
  return defaultStream_;
}

CopyRoute DeviceImpl::routeFrom(DeviceImpl &src) {
  if (&src == this)
    return CopyRoute::SameDevice;
  if (src.plugin != plugin)
    return CopyRoute::Host;
  std::lock_guard lock(peerMutex_);
  if (auto it = direct_.find(src.ordinal); it != direct_.end())
    return it->second ? CopyRoute::Peer : CopyRoute::Host;
  bool direct = false;
  if (plugin->has(&trident_plugin_api::device_peer_access)) {
    uint32_t answer = 0;
    TRIDENT_CALL(*plugin, device_peer_access, "asking whether " + name + " reads " + src.name + " directly",
                 handle(), src.handle(), &answer);
    direct = answer != 0;
  } else {
    // A plugin older than ABI 1.1: its memcpy_peer, when present, decides per copy.
    direct = plugin->has(&trident_plugin_api::memcpy_peer);
  }
  direct_[src.ordinal] = direct;
  return direct ? CopyRoute::Peer : CopyRoute::Host;
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

const char *copyRouteName(CopyRoute route) {
  switch (route) {
  case CopyRoute::SameDevice: return "same device";
  case CopyRoute::Peer: return "peer";
  case CopyRoute::Host: return "host";
  }
  return "?";
}

CopyRoute Device::copyRouteFrom(const Device &src) const {
  requireHandle(impl_ != nullptr && bool(src), "Device");
  return impl_->routeFrom(*src.impl_);
}

void Device::synchronize() const {
  requireHandle(impl_ != nullptr, "Device");
  TRIDENT_CALL(*impl_->plugin, device_synchronize, "synchronizing " + impl_->name, impl_->handle());
}

} // namespace trident
