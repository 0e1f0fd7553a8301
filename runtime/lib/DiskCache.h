#pragma once
// The on-disk kernel cache: one file per entry under <dir>/kernels/<2 hex>/,
// named by the entry's key (a SHA-256 in hex). Writes go to a temporary file in
// the same folder and are renamed into place, so readers in other processes see
// a whole entry or none. Every entry carries a SHA-256 of its contents; an entry
// that fails the check is reported Damaged and removed, and its kernel recompiled.
//
// File layout (little-endian):
//   "TRIDENTK" u32 formatVersion
//   str key  str kind  str kernel  str plugin  str target      (str = u32 length + bytes)
//   u32 threadsPerProgram  u32 sharedMemory  u64 payloadBytes  payload
//   32-byte SHA-256 of everything before it

#include <cstdint>
#include <string>
#include <vector>

namespace trident::detail {

struct CacheEntry {
  std::string kind = "kernel"; // "kernel": a plugin binary; "autotune": a chosen config
  std::string kernel;          // the kernel's name, for `trident cache show`
  std::string plugin;
  std::string target;
  uint32_t threadsPerProgram = 0;
  uint32_t sharedMemory = 0;
  std::vector<uint8_t> payload;
};

struct CacheListing {
  std::string path;
  uint64_t bytes = 0;
  bool valid = false;
  CacheEntry entry; // without payload
};

class DiskCache {
public:
  enum class Lookup { Hit, Miss, Damaged };

  explicit DiskCache(std::string dir);
  const std::string &dir() const { return dir_; }

  Lookup load(const std::string &key, CacheEntry &out) const;
  // Writes atomically; returns false (and leaves no partial file) when it cannot.
  bool store(const std::string &key, const CacheEntry &entry) const;
  // Every entry file, sorted by path.
  std::vector<CacheListing> list() const;
  // Removes every entry; returns how many.
  size_t clear() const;
  // The file an entry lives in (for tests that damage one).
  std::string pathOf(const std::string &key) const;

private:
  std::string dir_;
};

// The default folder: TRIDENT_CACHE_DIR, else ~/.cache/trident.
std::string defaultCacheDir();

} // namespace trident::detail
