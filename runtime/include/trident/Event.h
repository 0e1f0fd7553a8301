#pragma once
// A point in a stream: record it, wait for it, time the work between two of them.

#include "trident/Export.h"
#include "trident/Stream.h"

#include <memory>

namespace trident {

namespace detail { struct EventImpl; }

class TRIDENT_API Event {
public:
  Event() = default;
  explicit Event(const Device &device);

  explicit operator bool() const { return impl_ != nullptr; }
  const Device &device() const;
  // Marks the current end of `stream` (which must be on this event's device).
  void record(const Stream &stream) const;
  // Marks the current end of the device's default stream.
  void record() const;
  // Blocks until the recorded work is done.
  void synchronize() const;
  // Milliseconds between two recorded events of one device; waits for both.
  static float elapsedMs(const Event &start, const Event &end);

  const std::shared_ptr<detail::EventImpl> &impl() const { return impl_; }

private:
  std::shared_ptr<detail::EventImpl> impl_;
};

} // namespace trident
