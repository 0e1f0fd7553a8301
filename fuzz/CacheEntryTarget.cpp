// The disk cache's entry reader (runtime/lib/DiskCache.cpp) on arbitrary entry files.
// The input's first byte chooses how the file is made: bit 0 set, the rest is the
// whole file as it is (its checksum almost always wrong: the Damaged path); clear,
// the file is "TRIDENTK" + the rest + the SHA-256 of both, so the fuzzer reaches the
// fields behind the checksum. Properties: a load is a Hit only for this build's
// entries under their own key; a Damaged entry is removed; a Hit stores and loads
// back to the same entry; the listing sees the file and agrees on whether it is sound.
#include "FuzzTargets.h"

#include "../runtime/lib/DiskCache.h"
#include "../runtime/lib/Sha256.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace trident::fuzz {

namespace {

namespace fs = std::filesystem;

constexpr const char *kBuildId = "fuzz-build";
constexpr const char *kKey = "fuzzkey";

// Where the folder goes: TMPDIR where it is set, else /dev/shm (memory) where there is
// one. Every input creates, replaces and removes files, and on a disk file system
// (ext4) finding free inodes for them was most of the target's time.
fs::path cacheParent() {
  std::error_code ec;
  if (!std::getenv("TMPDIR") && fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0)
    return "/dev/shm";
  return fs::temp_directory_path();
}

// One folder per process, removed at exit.
const fs::path &cacheDir() {
  static const fs::path dir = [] {
    fs::path d = cacheParent() / ("trident-fuzz-cache-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    std::atexit([] { std::error_code ec; fs::remove_all(cacheDir(), ec); });
    return d;
  }();
  return dir;
}

bool sameEntry(const detail::CacheEntry &a, const detail::CacheEntry &b) {
  return a.buildId == b.buildId && a.kind == b.kind && a.kernel == b.kernel && a.plugin == b.plugin &&
         a.target == b.target && a.threadsPerProgram == b.threadsPerProgram && a.sharedMemory == b.sharedMemory &&
         a.payload == b.payload;
}

} // namespace

void fuzzCacheEntry(const uint8_t *data, size_t size) {
  if (size == 0)
    return;
  std::string file;
  if (data[0] & 1) {
    file.assign(reinterpret_cast<const char *>(data + 1), size - 1);
  } else {
    file = "TRIDENTK";
    file.append(reinterpret_cast<const char *>(data + 1), size - 1);
    detail::Sha256 sha;
    sha.update(file);
    auto sum = sha.digest();
    file.append(reinterpret_cast<const char *>(sum.data()), sum.size());
  }
  detail::DiskCache cache(cacheDir().string(), kBuildId);
  const std::string path = cache.pathOf(kKey);
  fs::create_directories(fs::path(path).parent_path());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(file.data(), std::streamsize(file.size()));
    if (!out)
      fuzzFailure("cannot write the entry file");
  }

  std::vector<detail::CacheListing> listing = cache.list();
  if (listing.size() != 1 || listing[0].path != path || listing[0].bytes != file.size())
    fuzzFailure("the listing does not show the one entry file");
  bool listedSound = listing[0].valid;

  detail::CacheEntry entry;
  switch (cache.load(kKey, entry)) {
  case detail::DiskCache::Lookup::Hit: {
    if (entry.buildId != kBuildId)
      fuzzFailure("a hit on an entry of another build");
    if (!listedSound)
      fuzzFailure("a hit on an entry the listing calls damaged");
    if (!cache.store(kKey, entry))
      fuzzFailure("a loaded entry cannot be stored again");
    detail::CacheEntry again;
    if (cache.load(kKey, again) != detail::DiskCache::Lookup::Hit || !sameEntry(entry, again))
      fuzzFailure("a stored entry does not load back the same");
    break;
  }
  case detail::DiskCache::Lookup::Damaged:
    if (fs::exists(path))
      fuzzFailure("a damaged entry was not removed");
    break;
  case detail::DiskCache::Lookup::Miss:
    // Sound but another build's (or format 1): the listing must call it sound.
    if (!listedSound)
      fuzzFailure("an entry missed as another build's that the listing calls damaged");
    break;
  }
  std::error_code ec;
  fs::remove(path, ec);
}

} // namespace trident::fuzz
