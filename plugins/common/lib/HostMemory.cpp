#include "trident/sdk/HostMemory.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace trident::sdk {

namespace {

// The fields of /proc/meminfo the query needs, in bytes.
struct MemInfo {
  uint64_t memTotal = 0, memAvailable = 0, swapTotal = 0, swapFree = 0;
  bool ok = false;
};

MemInfo readMemInfo() {
  MemInfo m;
  std::FILE *f = std::fopen("/proc/meminfo", "r");
  if (!f)
    return m;
  char name[64];
  unsigned long long kib = 0;
  int found = 0;
  while (std::fscanf(f, "%63s %llu kB\n", name, &kib) == 2) {
    uint64_t bytes = uint64_t(kib) * 1024;
    if (!std::strcmp(name, "MemTotal:"))
      m.memTotal = bytes, ++found;
    else if (!std::strcmp(name, "MemAvailable:"))
      m.memAvailable = bytes, ++found;
    else if (!std::strcmp(name, "SwapTotal:"))
      m.swapTotal = bytes, ++found;
    else if (!std::strcmp(name, "SwapFree:"))
      m.swapFree = bytes, ++found;
  }
  std::fclose(f);
  m.ok = found == 4;
  return m;
}

// A number in a control-group file, or 0 when it is absent or says "max".
uint64_t readCgroupValue(const char *path) {
  std::FILE *f = std::fopen(path, "r");
  if (!f)
    return 0;
  unsigned long long v = 0;
  bool ok = std::fscanf(f, "%llu", &v) == 1;
  std::fclose(f);
  // cgroup v1 writes "no limit" as a huge page-aligned number.
  return ok && v < (uint64_t(1) << 62) ? uint64_t(v) : 0;
}

// The value of `key` in a memory.stat file of a control group, or 0.
uint64_t readCgroupStat(const char *path, const char *key) {
  std::FILE *f = std::fopen(path, "r");
  if (!f)
    return 0;
  char name[64];
  unsigned long long v = 0, out = 0;
  while (std::fscanf(f, "%63s %llu\n", name, &v) == 2)
    if (!std::strcmp(name, key))
      out = v;
  std::fclose(f);
  return uint64_t(out);
}

} // namespace

HostMemory queryHostMemory() {
  HostMemory h;
  MemInfo m = readMemInfo();
  if (m.ok) {
    h.total = m.memTotal + m.swapTotal;
    h.available = m.memAvailable + m.swapFree;
  } else { // no /proc: physical memory only
    long pages = ::sysconf(_SC_PHYS_PAGES), avail = ::sysconf(_SC_AVPHYS_PAGES), size = ::sysconf(_SC_PAGE_SIZE);
    h.total = pages > 0 && size > 0 ? uint64_t(pages) * uint64_t(size) : 0;
    h.available = avail > 0 && size > 0 ? uint64_t(avail) * uint64_t(size) : h.total;
  }
  // The process's own control group, as a container sees it (v2, then v1). Its usage
  // counts the page cache; the inactive part of that is reclaimed before anything fails.
  uint64_t limit = readCgroupValue("/sys/fs/cgroup/memory.max"), used = 0, reclaimable = 0;
  if (limit) {
    used = readCgroupValue("/sys/fs/cgroup/memory.current");
    reclaimable = readCgroupStat("/sys/fs/cgroup/memory.stat", "inactive_file");
  } else if ((limit = readCgroupValue("/sys/fs/cgroup/memory/memory.limit_in_bytes"))) {
    used = readCgroupValue("/sys/fs/cgroup/memory/memory.usage_in_bytes");
    reclaimable = readCgroupStat("/sys/fs/cgroup/memory/memory.stat", "total_inactive_file");
  }
  used -= std::min(used, reclaimable);
  if (limit) {
    h.total = std::min(h.total, limit);
    h.available = std::min(h.available, limit > used ? limit - used : 0);
  }
  return h;
}

} // namespace trident::sdk
