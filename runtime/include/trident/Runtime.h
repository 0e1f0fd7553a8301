#pragma once
// The runtime: loads the plugins, lists their devices, owns the kernel caches'
// settings. Most programs use the process-wide Runtime::get(); tests and tools
// may create their own with explicit options.
//
// Plugins are searched in the install's plugin folder (lib/trident/plugins next
// to the runtime library), then in each folder of TRIDENT_PLUGIN_PATH (':'-
// separated). TRIDENT_PLUGINS (','-separated names, e.g. "host,cuda") restricts
// which are loaded. A plugin that cannot be used is skipped with a reason.

#include "trident/Export.h"
#include "trident/Device.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace trident {

namespace detail { struct RuntimeImpl; }

// A message of the runtime: what autotuning measured and chose, configs it skipped.
struct LogMessage {
  enum class Level : uint8_t { Info, Warning };
  Level level = Level::Info;
  std::string topic; // "autotune"
  std::string text;  // one line, without "trident: " and without a newline
};

struct TRIDENT_API RuntimeOptions {
  // Folders searched for plugins, in order; empty: the default folders above.
  std::vector<std::string> pluginDirs;
  // Names of the plugins to load; nullopt: all (or TRIDENT_PLUGINS when set).
  std::optional<std::vector<std::string>> pluginNames;
  // The on-disk cache folder; empty: TRIDENT_CACHE_DIR, else ~/.cache/trident.
  std::string cacheDir;
  // False turns the on-disk cache off (TRIDENT_CACHE=0 does the same).
  bool diskCache = true;
  // The build id in cache keys and entries; empty: this build's, trident::buildId().
  // Another value makes the runtime cache as another build would (for tests).
  std::string buildId;
  // Receives the runtime's messages (from any thread, one at a time); empty: they
  // are printed to stderr as "trident: <text>".
  std::function<void(const LogMessage &)> log;
  // Print (log) each autotuning config's time and the pick, as Triton's
  // TRITON_PRINT_AUTOTUNING does; TRIDENT_PRINT_AUTOTUNING=1 turns it on too.
  bool printAutotuning = false;
  // Options from the environment (TRIDENT_PLUGIN_PATH, TRIDENT_PLUGINS,
  // TRIDENT_CACHE_DIR, TRIDENT_CACHE) with the defaults above.
  static RuntimeOptions fromEnvironment();
};

// What happened to one plugin file.
struct PluginReport {
  std::string path;
  std::string name;    // the plugin's name, or the file name when it has none
  std::string version; // the plugin's version, when it answered
  std::string buildId; // the GNU build id of its file, when loaded (in every cache key); "" without one
  bool loaded = false;
  std::string reason;  // why it was skipped, or notes ("0 devices: ...")
  uint32_t deviceCount = 0;
};

// Counters of the kernel caches and compilers (process-wide per Runtime).
struct CacheStats {
  uint64_t memoryHits = 0;   // launches served by the in-memory cache
  uint64_t diskHits = 0;     // binaries loaded from the disk cache
  uint64_t diskMisses = 0;   // disk lookups that found nothing usable
  uint64_t damagedEntries = 0; // disk entries rejected by their checksum or format
  uint64_t diskWrites = 0;
  uint64_t frontendCompiles = 0; // source -> block IR
  uint64_t backendCompiles = 0;  // block IR -> binary, by a plugin
};

// One file of the on-disk cache.
struct DiskCacheEntryInfo {
  std::string path;
  uint64_t bytes = 0;
  bool valid = false; // its checksum and format check out
  std::string buildId; // the build that wrote it; "" for entries older than build ids
  std::string kind;   // "kernel"
  std::string kernel;
  std::string plugin;
  std::string target;
};

class TRIDENT_API Runtime {
public:
  explicit Runtime(const RuntimeOptions &options = RuntimeOptions::fromEnvironment());
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  // The process-wide runtime, created on first use from the environment.
  static Runtime &get();

  // Every plugin file found, loaded or skipped, in search order.
  const std::vector<PluginReport> &plugins() const;
  // Devices of the loaded plugins, ordered by plugin then ordinal.
  const std::vector<Device> &devices() const;
  // A device by name ("cuda:0", "host:1"), UUID string, target string (its first
  // device) or "default"; throws Error(NotFound) listing what exists.
  Device device(const std::string &nameOrUuid) const;
  // The first GPU in the order cuda, hip, vulkan, then host:0; TRIDENT_DEVICE
  // (a name as device() takes) overrides it.
  Device defaultDevice() const;

  // The folder of the on-disk cache ("" when disabled).
  const std::string &cacheDir() const;
  CacheStats cacheStats() const;
  // The entries of the on-disk cache, sorted by path.
  std::vector<DiskCacheEntryInfo> diskCacheEntries() const;
  // Removes every entry of the on-disk cache; returns how many.
  size_t clearDiskCache() const;
  // Removes the entries this build would never load (written by other builds of
  // Trident, or damaged); returns how many. `trident cache clear --stale`.
  size_t clearStaleDiskCacheEntries() const;

  const std::shared_ptr<detail::RuntimeImpl> &impl() const { return impl_; }

private:
  std::shared_ptr<detail::RuntimeImpl> impl_;
};

// Trident's version string, TRIDENT_VERSION_STRING of trident/Version.h ("0.1.0").
TRIDENT_API const char *version();
// This build's id: a SHA-256 (64 hex digits), computed when Trident is built, of the
// sources of the compiler, runtime and plugins, the code-generating libraries they
// link, and the LLVM and C++ compiler versions. Part of every disk-cache key: binaries
// cached by another build are never loaded.
TRIDENT_API const char *buildId();
// The source revision this build was made from (`git describe --always --dirty`),
// "" when it was not built from a git checkout. For people; caches use buildId().
TRIDENT_API const char *sourceRevision();
// Whether this runtime compiles Triton-language source (false in a runtime built
// with -DTRIDENT_ENABLE_COMPILER=OFF, which loads bundles and block IR only).
TRIDENT_API bool hasCompiler();

} // namespace trident
