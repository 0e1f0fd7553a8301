#pragma once
// Devices whose memory is host memory (the host interpreter, the CPU plugin): the
// allocations of each device (which copies and bounds checks consult), copies, fills,
// streams that run work when it is enqueued, events that record the time, and the
// thread pool their launches share. A plugin built on it writes only its compiler,
// its modules and its launch:
//
//   trident_status init(const trident_init_params *, trident_context *out) {
//     return sdk::initHostDevices({"cpu", "TRIDENT_CPU_DEVICES", "TRIDENT_CPU_THREADS"}, out);
//   }
//   ...
//   sdk::fillHostDeviceApi(api);   // devices, memory, streams, events
//   api.init = init; api.device_props = props; api.compile = ...; api.launch = ...;

#include "trident/sdk/DeviceProps.h"
#include "trident/sdk/ThreadPool.h"
#include "trident/plugin.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace trident::sdk {

// What a plugin keeps per device besides the SDK's state (interpreters, JIT state).
struct DeviceExtension {
  virtual ~DeviceExtension() = default;
};

struct Allocation {
  size_t bytes = 0;
  bool owned = true; // false: imported with mem_import
};

struct HostDevice {
  trident_context_s *context = nullptr;
  uint32_t ordinal = 0;
  std::string name; // "host:0"

  std::mutex mutex;
  std::map<uint64_t, Allocation> allocations; // by base address
  std::atomic<uint64_t> generation{0};       // bumped when allocations change
  std::atomic<int> openCount{0};
  std::unique_ptr<DeviceExtension> extension;

  ~HostDevice();
  // Checks that [addr, addr + bytes) lies in one allocation of this device.
  bool contains(uint64_t addr, size_t bytes);
  // A snapshot of the allocations (base, bytes).
  std::vector<std::pair<uint64_t, size_t>> snapshot(uint64_t &generationOut);
};

struct HostDeviceConfig {
  const char *plugin;           // "host": devices "host:0", ...
  const char *devicesVariable;  // how many devices (0 to 64, default 1)
  const char *threadsVariable;  // the pool's size (default: one per core)
};

// A context with the configured number of devices and the thread pool.
trident_status initHostDevices(const HostDeviceConfig &config, trident_context *out);
// Fills what every host-memory device shares: flags, a UUID stable per plugin and
// ordinal, the grid limits, the cores and the memory size. The plugin then sets its
// name, target and program limits; sdk::writeDeviceProps copies the result out.
trident_status baseDeviceProps(trident_context ctx, uint32_t ordinal, trident_device_props &p);
// Sets every entry but init, device_props, the compiler, modules and launch.
void fillHostDeviceApi(trident_plugin_api &api);

ThreadPool &threadPool(trident_context ctx);
inline HostDevice *fromHandle(trident_device d) { return reinterpret_cast<HostDevice *>(d); }
HostDevice &streamDevice(trident_stream s);

// Reads a count from the environment (fallback when unset or out of [0, limit]).
unsigned envCount(const char *name, unsigned fallback, unsigned limit);

} // namespace trident::sdk
