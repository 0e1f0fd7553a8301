#include "DiskCache.h"

#include "ByteIO.h"
#include "Sha256.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <unistd.h>

namespace trident::detail {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'T', 'R', 'I', 'D', 'E', 'N', 'T', 'K'};
constexpr uint32_t kFormatVersion = 2; // 1: before build ids

bool readFile(const std::string &path, std::vector<uint8_t> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  // In blocks, not a character at a time through istreambuf_iterator (which was most of
  // the time the cache fuzz target spent in its own code).
  out.clear();
  char block[1 << 14];
  do {
    in.read(block, sizeof(block));
    out.insert(out.end(), block, block + in.gcount());
  } while (in);
  return !in.bad();
}

// Parses and checks a whole entry file of format 1 or 2. `key` empty: accept any key
// (listing). The caller compares out.buildId with its own.
bool parseEntry(const std::vector<uint8_t> &bytes, const std::string &key, CacheEntry &out, bool withPayload) {
  if (bytes.size() < sizeof(kMagic) + 4 + 32 || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return false;
  size_t body = bytes.size() - 32;
  Sha256 sha;
  sha.update(bytes.data(), body);
  auto sum = sha.digest();
  if (std::memcmp(sum.data(), bytes.data() + body, 32) != 0)
    return false;
  Reader r{bytes.data() + sizeof(kMagic), bytes.data() + body};
  uint32_t format = r.u32();
  if (format != 1 && format != kFormatVersion)
    return false;
  std::string storedKey = r.str();
  out.buildId = format >= 2 ? r.str() : std::string();
  out.kind = r.str();
  out.kernel = r.str();
  out.plugin = r.str();
  out.target = r.str();
  out.threadsPerProgram = r.u32();
  out.sharedMemory = r.u32();
  uint64_t n = r.u64();
  if (!r.ok || !r.need(n) || size_t(r.end - r.p) != n)
    return false;
  if (!key.empty() && storedKey != key)
    return false;
  if (withPayload)
    out.payload.assign(r.p, r.p + n);
  return true;
}

// Writes all of `bytes` to a new file `path` (which must not exist); false with errno set.
bool writeNewFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int saved = n < 0 ? errno : ENOSPC;
      ::close(fd);
      errno = saved;
      return false;
    }
    done += size_t(n);
  }
  return ::close(fd) == 0; // NFS and quotas may report a failed write only here
}

} // namespace

DiskCache::DiskCache(std::string dir, std::string buildId) : dir_(std::move(dir)), buildId_(std::move(buildId)) {}

std::string DiskCache::pathOf(const std::string &key) const {
  return (fs::path(dir_) / "kernels" / key.substr(0, 2) / (key + ".tkc")).string();
}

DiskCache::Lookup DiskCache::load(const std::string &key, CacheEntry &out) const {
  std::string path = pathOf(key);
  std::vector<uint8_t> bytes;
  if (!readFile(path, bytes))
    return Lookup::Miss;
  if (!parseEntry(bytes, key, out, true)) {
    std::error_code ec;
    fs::remove(path, ec); // a later store replaces it with a good entry
    return Lookup::Damaged;
  }
  if (out.buildId != buildId_) { // sound, but another build's: a later store replaces it
    out = CacheEntry{};
    return Lookup::Miss;
  }
  return Lookup::Hit;
}

bool DiskCache::store(const std::string &key, const CacheEntry &entry, std::string *why) const {
  std::vector<uint8_t> bytes(kMagic, kMagic + sizeof(kMagic));
  putU32(bytes, kFormatVersion);
  putStr(bytes, key);
  putStr(bytes, buildId_);
  putStr(bytes, entry.kind);
  putStr(bytes, entry.kernel);
  putStr(bytes, entry.plugin);
  putStr(bytes, entry.target);
  putU32(bytes, entry.threadsPerProgram);
  putU32(bytes, entry.sharedMemory);
  putU64(bytes, entry.payload.size());
  bytes.insert(bytes.end(), entry.payload.begin(), entry.payload.end());
  Sha256 sha;
  sha.update(bytes.data(), bytes.size());
  auto sum = sha.digest();
  bytes.insert(bytes.end(), sum.begin(), sum.end());

  auto failed = [&](const std::string &what, const std::string &reason) {
    if (why)
      *why = what + ": " + reason;
    return false;
  };
  fs::path final = pathOf(key);
  std::error_code ec;
  fs::create_directories(final.parent_path(), ec);
  if (ec)
    return failed("creating " + final.parent_path().string(), ec.message());
  // A name no other writer uses: process id, thread, and a counter.
  static std::atomic<uint64_t> counter{0};
  std::string tmpName = "." + key + ".tmp." + std::to_string(::getpid()) + "." +
                        std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id())) + "." +
                        std::to_string(counter++);
  fs::path tmp = final.parent_path() / tmpName;
  if (!writeNewFile(tmp.string(), bytes)) {
    std::string reason = std::strerror(errno);
    fs::remove(tmp, ec); // a partial file is never left behind
    return failed("writing " + tmp.string(), reason);
  }
  if (std::rename(tmp.c_str(), final.c_str()) != 0) {
    std::string reason = std::strerror(errno);
    fs::remove(tmp, ec);
    return failed("renaming " + tmp.string() + " to " + final.filename().string(), reason);
  }
  return true;
}

std::vector<CacheListing> DiskCache::list() const {
  std::vector<CacheListing> out;
  std::error_code ec;
  fs::path root = fs::path(dir_) / "kernels";
  if (!fs::is_directory(root, ec))
    return out;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".tkc")
      continue;
    CacheListing l;
    l.path = it->path().string();
    l.bytes = it->file_size(ec);
    std::vector<uint8_t> bytes;
    l.valid = readFile(l.path, bytes) && parseEntry(bytes, {}, l.entry, false);
    out.push_back(std::move(l));
  }
  std::sort(out.begin(), out.end(), [](const CacheListing &a, const CacheListing &b) { return a.path < b.path; });
  return out;
}

size_t DiskCache::clear() const {
  size_t n = 0;
  std::error_code ec;
  fs::path root = fs::path(dir_) / "kernels";
  if (!fs::is_directory(root, ec))
    return 0;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec))
      files.push_back(it->path());
  for (const fs::path &f : files)
    if (fs::remove(f, ec) && f.extension() == ".tkc")
      ++n;
  return n;
}

size_t DiskCache::removeStale() const {
  size_t n = 0;
  std::error_code ec;
  for (const CacheListing &l : list())
    if ((!l.valid || l.entry.buildId != buildId_) && fs::remove(l.path, ec))
      ++n;
  return n;
}

std::string defaultCacheDir() {
  if (const char *d = std::getenv("TRIDENT_CACHE_DIR"); d && *d)
    return d;
  if (const char *h = std::getenv("HOME"); h && *h)
    return (fs::path(h) / ".cache" / "trident").string();
  return (fs::temp_directory_path() / "trident-cache").string();
}

} // namespace trident::detail
