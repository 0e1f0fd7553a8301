#include "trident/Runtime.h"

#include "Impl.h"
#include "PluginLoader.h"
#include "trident/Version.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace trident {

using namespace detail;

const char *version() { return TRIDENT_VERSION_STRING; }

namespace {

std::vector<std::string> splitList(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string_view::npos)
      end = s.size();
    std::string item(s.substr(start, end - start));
    while (!item.empty() && item.back() == ' ')
      item.pop_back();
    while (!item.empty() && item.front() == ' ')
      item.erase(item.begin());
    if (!item.empty())
      out.push_back(item);
    start = end + 1;
  }
  return out;
}

DeviceInfo infoFromProps(const trident_device_props &p) {
  DeviceInfo i;
  i.name = std::string(p.name, strnlen(p.name, sizeof(p.name)));
  i.target = std::string(p.target, strnlen(p.target, sizeof(p.target)));
  std::memcpy(i.uuid.data(), p.uuid, 16);
  i.warpSize = p.warp_size;
  i.multiprocessors = p.multiprocessor_count;
  i.maxThreadsPerProgram = p.max_threads_per_program;
  for (int d = 0; d < 3; ++d)
    i.maxGrid[d] = p.max_grid[d];
  i.sharedMemoryPerProgram = p.shared_memory_per_program;
  i.globalMemory = p.global_memory;
  i.isGpu = (p.flags & TRIDENT_DEVICE_IS_GPU) != 0;
  i.hostMemory = (p.flags & TRIDENT_DEVICE_HOST_MEMORY) != 0;
  return i;
}

std::string lower(std::string s) {
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

void RuntimeShared::message(LogMessage::Level level, std::string topic, std::string text) {
  LogMessage m{level, std::move(topic), std::move(text)};
  std::lock_guard lock(logMutex);
  if (log)
    log(m);
  else
    std::fprintf(stderr, "trident: %s\n", m.text.c_str());
}

void RuntimeShared::storeInDiskCache(const std::string &key, const CacheEntry &entry) {
  if (!disk || diskWritesOff.load(std::memory_order_relaxed))
    return;
  std::string why;
  if (disk->store(key, entry, &why)) {
    counters.diskWrites++;
    return;
  }
  if (!diskWritesOff.exchange(true))
    message(LogMessage::Level::Warning, "cache",
            "cannot write the disk cache in " + cacheDir + " (" + why +
                "); going on without writing to it (kernels are compiled as usual; TRIDENT_CACHE_DIR "
                "chooses another folder, TRIDENT_CACHE=0 turns the cache off)");
}

RuntimeOptions RuntimeOptions::fromEnvironment() {
  RuntimeOptions o;
  o.pluginDirs.push_back(defaultPluginDir());
  if (const char *p = std::getenv("TRIDENT_PLUGIN_PATH"))
    for (std::string &d : splitList(p, ':'))
      o.pluginDirs.push_back(std::move(d));
  if (const char *n = std::getenv("TRIDENT_PLUGINS"); n && *n)
    o.pluginNames = splitList(n, ',');
  o.cacheDir = defaultCacheDir();
  if (const char *c = std::getenv("TRIDENT_CACHE"); c && (std::strcmp(c, "0") == 0 || std::strcmp(c, "off") == 0))
    o.diskCache = false;
  return o;
}

Runtime::Runtime(const RuntimeOptions &options) : impl_(std::make_shared<RuntimeImpl>()) {
  std::vector<std::string> dirs = options.pluginDirs;
  if (dirs.empty())
    dirs = RuntimeOptions::fromEnvironment().pluginDirs;
  auto shared = std::make_shared<RuntimeShared>();
  shared->buildId = options.buildId.empty() ? std::string(buildId()) : options.buildId;
  if (options.diskCache) {
    shared->cacheDir = options.cacheDir.empty() ? defaultCacheDir() : options.cacheDir;
    shared->disk = std::make_unique<DiskCache>(shared->cacheDir, shared->buildId);
  }
  shared->log = options.log;
  const char *print = std::getenv("TRIDENT_PRINT_AUTOTUNING");
  shared->printAutotuning = options.printAutotuning || (print && *print && std::strcmp(print, "0") != 0);
  impl_->shared = shared;
  LoadedPlugins loaded = loadPlugins(dirs, options.pluginNames);
  impl_->reports = std::move(loaded.reports);
  impl_->plugins = loaded.plugins;
  for (const std::shared_ptr<Plugin> &plugin : loaded.plugins) {
    uint32_t count = 0;
    const char *why = nullptr;
    if (plugin->api().device_count(plugin->context(), &count, &why) != TRIDENT_SUCCESS)
      continue;
    for (uint32_t ord = 0; ord < count; ++ord) {
      trident_device_props props{};
      props.struct_size = sizeof(props);
      if (plugin->api().device_props(plugin->context(), ord, &props) != TRIDENT_SUCCESS) {
        for (PluginReport &r : impl_->reports)
          if (r.path == plugin->path())
            r.reason += (r.reason.empty() ? "" : "; ") + std::string("device ") + std::to_string(ord) +
                        " skipped: " + plugin->lastError();
        continue;
      }
      impl_->devices.emplace_back(
          std::make_shared<DeviceImpl>(plugin, shared, ord, infoFromProps(props)));
    }
  }
}

Runtime::~Runtime() = default;

Runtime &Runtime::get() {
  static Runtime runtime;
  return runtime;
}

const std::vector<PluginReport> &Runtime::plugins() const { return impl_->reports; }
const std::vector<Device> &Runtime::devices() const { return impl_->devices; }
const std::string &Runtime::cacheDir() const { return impl_->shared->cacheDir; }

CacheStats Runtime::cacheStats() const {
  const auto &c = impl_->shared->counters;
  CacheStats s;
  s.memoryHits = c.memoryHits.load();
  s.diskHits = c.diskHits.load();
  s.diskMisses = c.diskMisses.load();
  s.damagedEntries = c.damagedEntries.load();
  s.diskWrites = c.diskWrites.load();
  s.frontendCompiles = c.frontendCompiles.load();
  s.backendCompiles = c.backendCompiles.load();
  return s;
}

std::vector<DiskCacheEntryInfo> Runtime::diskCacheEntries() const {
  std::vector<DiskCacheEntryInfo> out;
  if (!impl_->shared->disk)
    return out;
  for (const CacheListing &l : impl_->shared->disk->list()) {
    DiskCacheEntryInfo i;
    i.path = l.path;
    i.bytes = l.bytes;
    i.valid = l.valid;
    i.buildId = l.entry.buildId;
    i.kind = l.entry.kind;
    i.kernel = l.entry.kernel;
    i.plugin = l.entry.plugin;
    i.target = l.entry.target;
    out.push_back(std::move(i));
  }
  return out;
}

size_t Runtime::clearDiskCache() const {
  size_t n = impl_->shared->disk ? impl_->shared->disk->clear() : 0;
  std::lock_guard lock(impl_->shared->binariesMutex);
  impl_->shared->binaries.clear();
  return n;
}

size_t Runtime::clearStaleDiskCacheEntries() const {
  return impl_->shared->disk ? impl_->shared->disk->removeStale() : 0;
}

Device Runtime::device(const std::string &nameOrUuid) const {
  if (nameOrUuid == "default")
    return defaultDevice();
  std::string key = lower(nameOrUuid);
  for (const Device &d : impl_->devices)
    if (d.name() == key || d.info().uuidString() == key)
      return d;
  // "cuda" alone, or a target string such as "cuda:sm_90": the first matching device.
  for (const Device &d : impl_->devices)
    if (d.plugin() == key || d.info().target == nameOrUuid)
      return d;
  std::ostringstream msg;
  msg << "unknown device '" << nameOrUuid << "'";
  std::string pluginName = key.substr(0, key.find(':'));
  for (const PluginReport &r : impl_->reports)
    if (r.name == pluginName) {
      if (!r.loaded)
        msg << ": the " << pluginName << " plugin (" << r.path << ") was skipped (" << r.reason << ")";
      else if (r.deviceCount == 0)
        msg << ": the " << pluginName << " plugin (" << r.path << ") has no devices (" << r.reason << ")";
      else
        msg << ": the " << pluginName << " plugin has " << r.deviceCount << " device(s)";
    }
  msg << "; devices present:";
  if (impl_->devices.empty())
    msg << " none";
  for (const Device &d : impl_->devices)
    msg << " " << d.name();
  msg << " (run `trident devices` for details)";
  throw Error(ErrorCode::NotFound, msg.str());
}

Device Runtime::defaultDevice() const {
  if (const char *env = std::getenv("TRIDENT_DEVICE"); env && *env && std::string_view(env) != "default")
    return device(env);
  for (const char *plugin : {"cuda", "hip", "vulkan"})
    for (const Device &d : impl_->devices)
      if (d.plugin() == plugin && d.info().isGpu)
        return d;
  for (const Device &d : impl_->devices)
    if (d.info().isGpu)
      return d;
  for (const Device &d : impl_->devices)
    if (d.plugin() == "host")
      return d;
  if (!impl_->devices.empty())
    return impl_->devices.front();
  throw Error(ErrorCode::NotFound,
              "no devices: no plugin with a device was loaded (searched the plugin folder and "
              "TRIDENT_PLUGIN_PATH; run `trident devices` to see why each plugin was skipped)");
}

} // namespace trident
