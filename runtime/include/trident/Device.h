#pragma once
// A device of a loaded plugin: "host:0", "cuda:1", "vulkan:0". Device is a cheap,
// copyable handle; the device's context is created on first use (allocating,
// launching), not when devices are listed.

#include "trident/Export.h"
#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace trident {

namespace detail { struct DeviceImpl; }
class Stream;

// How a copy between two buffers travels (Buffer::copyFrom); docs/multi-device.md.
enum class CopyRoute {
  SameDevice, // within one device
  Peer,       // directly between two devices of one plugin (CUDA peer access, host devices)
  Host,       // staged through host memory (other plugins, or no peer access)
};
// "same device", "peer", "host"
TRIDENT_API const char *copyRouteName(CopyRoute route);

struct TRIDENT_API DeviceInfo {
  std::string name;   // the vendor's name: "NVIDIA H200", "Trident host interpreter"
  std::string target; // "host", "cuda:sm_90", "hip:gfx942", "vulkan:..."
  std::array<uint8_t, 16> uuid{};
  uint32_t warpSize = 0;
  uint32_t multiprocessors = 0;
  uint32_t maxThreadsPerProgram = 0;
  std::array<uint32_t, 3> maxGrid{};
  uint64_t sharedMemoryPerProgram = 0; // bytes
  uint64_t globalMemory = 0;           // bytes
  bool isGpu = false;
  bool hostMemory = false; // device addresses are host addresses

  // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string uuidString() const;
};

class TRIDENT_API Device {
public:
  Device() = default; // a null device; using it throws
  explicit operator bool() const { return impl_ != nullptr; }

  // The device of the default runtime named `nameOrUuid` ("cuda:0", a UUID string,
  // or "default"); throws Error(NotFound) with the devices present when unknown.
  static Device get(const std::string &nameOrUuid);
  // The default device of the default runtime (see Runtime::defaultDevice).
  static Device defaultDevice();

  const std::string &name() const;   // "host:0"
  const std::string &plugin() const; // "host"
  uint32_t ordinal() const;
  const DeviceInfo &info() const;

  // The stream launches and copies use when none is given.
  Stream defaultStream() const;
  // Waits for all work on all streams of this device.
  void synchronize() const;
  // How copies from `src` into this device travel. Asks the plugin once per pair,
  // which enables peer access where the driver allows it (CUDA).
  CopyRoute copyRouteFrom(const Device &src) const;

  bool operator==(const Device &o) const { return impl_ == o.impl_; }
  bool operator!=(const Device &o) const { return impl_ != o.impl_; }

  // Internal: the implementation behind the handle.
  const std::shared_ptr<detail::DeviceImpl> &impl() const { return impl_; }
  explicit Device(std::shared_ptr<detail::DeviceImpl> impl) : impl_(std::move(impl)) {}

private:
  std::shared_ptr<detail::DeviceImpl> impl_;
};

} // namespace trident
