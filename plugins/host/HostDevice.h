#pragma once
// The host plugin's objects behind the ABI handles. Host "device memory" is
// host memory; every device keeps the list of its allocations, which both the
// copy functions and the interpreter's bounds checks use.

#include "ThreadPool.h"
#include "trident/plugin.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace trident::host {

// Sets this thread's last error and returns `status`.
trident_status fail(trident_status status, std::string message);
// Runs `body`, turning escaping exceptions into statuses (none may cross the ABI).
template <class F> trident_status guarded(F &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception &e) {
    return fail(TRIDENT_ERROR_INTERNAL, std::string("internal error: ") + e.what());
  }
}

struct Allocation {
  size_t bytes = 0;
  bool owned = true; // false: imported with mem_import
};

class InterpreterPool; // HostLaunch.cpp

struct Device {
  trident_context_s *context = nullptr;
  uint32_t ordinal = 0;
  std::string name; // "host:0"

  std::mutex mutex;
  std::map<uint64_t, Allocation> allocations; // by base address
  std::atomic<uint64_t> generation{0};       // bumped when allocations change
  std::atomic<int> openCount{0};
  std::unique_ptr<InterpreterPool> interpreters;

  Device();
  ~Device();

  // Checks that [addr, addr + bytes) lies in one allocation of this device.
  bool contains(uint64_t addr, size_t bytes);
  // A snapshot of the allocations (base, bytes), for the interpreter.
  std::vector<std::pair<uint64_t, size_t>> snapshot(uint64_t &generationOut);
};

} // namespace trident::host

struct trident_context_s {
  std::vector<std::unique_ptr<trident::host::Device>> devices;
  std::unique_ptr<trident::host::ThreadPool> pool;
};

struct trident_device_s {}; // never instantiated: handles point at host::Device
struct trident_stream_s {
  trident::host::Device *device = nullptr;
};
struct trident_event_s {
  trident::host::Device *device = nullptr;
  std::atomic<bool> recorded{false};
  std::atomic<int64_t> nanoseconds{0};
};

namespace trident::host {
inline Device *fromHandle(trident_device d) { return reinterpret_cast<Device *>(d); }
inline trident_device toHandle(Device *d) { return reinterpret_cast<trident_device>(d); }

// Compile, modules and launch (HostLaunch.cpp).
trident_status hostSupportsTarget(trident_context ctx, const char *target);
trident_status hostCompile(trident_context ctx, const char *target, const char *ir, size_t size, const char *kernel,
                           const trident_compile_options *options, trident_binary *out);
trident_status hostBinaryRelease(trident_context ctx, trident_binary *binary);
trident_status hostModuleLoad(trident_device device, const void *binary, size_t size, trident_module *out);
trident_status hostModuleUnload(trident_module module);
trident_status hostModuleGetKernel(trident_module module, const char *name, trident_kernel *out);
trident_status hostLaunch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params);
} // namespace trident::host
