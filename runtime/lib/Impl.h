#pragma once
// The objects behind the public handles. Ownership runs one way: buffers,
// streams, events and loaded kernels hold their DeviceImpl, which holds its
// Plugin, so a plugin stays loaded while anything made through it is alive.

#include "DiskCache.h"
#include "Plugin.h"
#include "trident/Buffer.h"
#include "trident/Device.h"
#include "trident/Runtime.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace trident::detail {

// What every device of one Runtime shares: cache settings and counters.
struct RuntimeShared {
  std::string buildId;  // in every disk-cache key (RuntimeOptions::buildId, else trident::buildId())
  std::string cacheDir; // empty: no disk cache
  std::unique_ptr<DiskCache> disk;
  struct Counters {
    std::atomic<uint64_t> memoryHits{0}, diskHits{0}, diskMisses{0}, damagedEntries{0}, diskWrites{0},
        frontendCompiles{0}, backendCompiles{0};
  } counters;
  // Binaries compiled or loaded in this process, by disk-cache key, so that a
  // second device of the same target compiles nothing even without a disk cache.
  std::mutex binariesMutex;
  std::map<std::string, std::shared_ptr<const CacheEntry>> binaries;
  // RuntimeOptions::log and printAutotuning.
  std::function<void(const LogMessage &)> log;
  bool printAutotuning = false;
  std::mutex logMutex; // messages reach the sink one at a time
  void message(LogMessage::Level level, std::string topic, std::string text);
  // Stores an entry in the disk cache (when there is one). A cache that cannot be
  // written (read-only, full, gone) is never an error: the first failure warns once
  // (topic "cache") and later entries are not written; loads go on.
  void storeInDiskCache(const std::string &key, const CacheEntry &entry);
  std::atomic<bool> diskWritesOff{false};
};

struct DeviceImpl {
  std::shared_ptr<Plugin> plugin;
  std::shared_ptr<RuntimeShared> shared;
  uint32_t ordinal = 0;
  std::string name; // "host:0"
  DeviceInfo info;

  DeviceImpl(std::shared_ptr<Plugin> p, std::shared_ptr<RuntimeShared> s, uint32_t ord, DeviceInfo i);
  ~DeviceImpl();
  DeviceImpl(const DeviceImpl &) = delete;
  DeviceImpl &operator=(const DeviceImpl &) = delete;

  // The plugin's device handle, opened on first use (thread-safe).
  trident_device handle();
  // The device's default stream, created on first use.
  trident_stream defaultStream();
  // How copies from `src` reach this device: the same device, directly (a device of
  // the same plugin with peer access; asked once per pair, device_peer_access), or
  // through host memory.
  CopyRoute routeFrom(DeviceImpl &src);

private:
  std::once_flag openOnce_, streamOnce_;
  std::mutex peerMutex_;
  std::map<uint32_t, bool> direct_; // by the source's ordinal
  trident_device handle_ = nullptr;
  trident_stream defaultStream_ = nullptr;
};

struct StreamImpl {
  std::shared_ptr<DeviceImpl> device;
  Device deviceHandle;
  trident_stream stream = nullptr;
  bool owned = true; // false for the default stream (owned by the device)
  ~StreamImpl();
};

struct EventImpl {
  std::shared_ptr<DeviceImpl> device;
  Device deviceHandle;
  trident_event event = nullptr;
  ~EventImpl();
};

struct BufferImpl {
  Device deviceHandle;
  DeviceImpl *device = nullptr; // deviceHandle's implementation
  trident_devptr address = 0;
  size_t size = 0; // elements
  DType dtype = DType::F32;
  bool owned = true;
  // What keeps imported memory alive (a DLPack tensor); released after mem_free.
  std::shared_ptr<void> owner;
  ~BufferImpl();
};

struct RuntimeImpl {
  std::vector<PluginReport> reports;
  std::vector<std::shared_ptr<Plugin>> plugins; // loaded, with or without devices
  std::vector<Device> devices;
  std::shared_ptr<RuntimeShared> shared;
};

// "host plugin: ..." checks that a handle is not null.
void requireHandle(bool present, const char *what);

} // namespace trident::detail
