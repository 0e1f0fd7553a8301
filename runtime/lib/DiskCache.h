#pragma once
// The on-disk kernel cache: one file per entry under <dir>/kernels/<2 hex>/,
// named by the entry's key (a SHA-256 in hex). Writes go to a temporary file in
// the same folder and are renamed into place, so readers in other processes see
// a whole entry or none. Every entry carries a SHA-256 of its contents; an entry
// that fails the check is reported Damaged and removed, and its kernel recompiled.
// Every entry also names the build that wrote it (trident::buildId(), which is in
// the key too); an entry of another build is a miss, never loaded.
//
// File layout (little-endian), format 2:
//   "TRIDENTK" u32 formatVersion
//   str key  str buildId  str kind  str kernel  str plugin  str target   (str = u32 length + bytes)
//   u32 threadsPerProgram  u32 sharedMemory  u64 payloadBytes  payload
//   32-byte SHA-256 of everything before it
// Format 1 (before build ids) had no buildId; such entries are listed, never loaded.

#include <cstdint>
#include <string>
#include <vector>

namespace trident::detail {

struct CacheEntry {
  std::string buildId;         // the build that wrote it (set by DiskCache::store; "" in format 1)
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

  // A cache in `dir` for the build `buildId`: it loads only entries that build wrote.
  DiskCache(std::string dir, std::string buildId);
  const std::string &dir() const { return dir_; }
  const std::string &buildId() const { return buildId_; }

  // An entry of another build (or format) at `key` is a Miss.
  Lookup load(const std::string &key, CacheEntry &out) const;
  // Writes atomically, marked with this cache's build id; returns false (and leaves
  // no partial file) when it cannot, with what failed in `why` ("writing ...: No
  // space left on device").
  bool store(const std::string &key, const CacheEntry &entry, std::string *why = nullptr) const;
  // Every entry file, sorted by path.
  std::vector<CacheListing> list() const;
  // Removes every entry; returns how many.
  size_t clear() const;
  // Removes the entries this build never loads: other builds' (and format 1's) and
  // damaged ones; returns how many.
  size_t removeStale() const;
  // The file an entry lives in (for tests that damage one).
  std::string pathOf(const std::string &key) const;

private:
  std::string dir_;
  std::string buildId_;
};

// The default folder: TRIDENT_CACHE_DIR, else ~/.cache/trident.
std::string defaultCacheDir();

} // namespace trident::detail
