#pragma once
// How much memory the host has for allocations: RAM and swap, bounded by the
// memory limit of the control group the process runs in (containers). The host
// plugin refuses an allocation larger than what is free before making it: with
// overcommit the allocator would hand it out, and the kernel's OOM killer would end
// the process when the pages are touched.

#include <cstdint>

namespace trident::sdk {

struct HostMemory {
  uint64_t total = 0;     // RAM + swap, or the control group's limit when lower
  uint64_t available = 0; // what can still be allocated now (MemAvailable + SwapFree)
};

HostMemory queryHostMemory();

} // namespace trident::sdk
