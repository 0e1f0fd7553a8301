#pragma once
// An in-order queue of copies and launches on one device. Streams of one device
// run concurrently with each other; an Event orders work across streams.

#include "trident/Export.h"
#include "trident/Device.h"

#include <memory>

namespace trident {

namespace detail { struct StreamImpl; }
class Event;

class TRIDENT_API Stream {
public:
  Stream() = default; // a null stream
  // A new stream on `device`.
  explicit Stream(const Device &device);
  // Wraps a native stream (CUstream, hipStream_t) that the caller keeps owning, so
  // Trident kernels can run inside an existing CUDA or HIP program. The Vulkan plugin
  // refuses (Error(NotSupported)): its work runs on a VkDevice of its own.
  static Stream import(const Device &device, void *nativeStream);

  explicit operator bool() const { return impl_ != nullptr; }
  const Device &device() const;
  // Blocks until all work enqueued so far is done.
  void synchronize() const;
  // Work enqueued after this waits until `event` completes (any device).
  void wait(const Event &event) const;

  bool operator==(const Stream &o) const { return impl_ == o.impl_; }
  const std::shared_ptr<detail::StreamImpl> &impl() const { return impl_; }
  explicit Stream(std::shared_ptr<detail::StreamImpl> impl) : impl_(std::move(impl)) {}

private:
  std::shared_ptr<detail::StreamImpl> impl_;
};

} // namespace trident
