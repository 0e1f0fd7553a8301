#include "CpuTarget.h"

#include <llvm/ADT/StringMap.h>
#include <algorithm>
#include <vector>

#include <llvm/TargetParser/Host.h>

namespace trident::cpu {

const HostCpu &hostCpu() {
  static const HostCpu cpu = [] {
    HostCpu c;
    c.triple = llvm::sys::getProcessTriple();
    c.name = llvm::sys::getHostCPUName().str();
    const llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    {
      std::vector<std::string> sorted; // deterministic: the string is part of binaries
      for (const auto &f : features)
        sorted.push_back((f.second ? "+" : "-") + f.first().str());
      std::sort(sorted.begin(), sorted.end());
      for (const std::string &f : sorted)
        c.features += (c.features.empty() ? "" : ",") + f;
    }
    return c;
  }();
  return cpu;
}

std::string hostTarget() { return "cpu:" + hostCpu().name; }

bool acceptsTarget(std::string_view target) { return target == "cpu" || target == hostTarget(); }

TargetDesc targetDesc() {
  TargetDesc t;
  t.name = hostTarget();
  t.warpSize = 1;
  t.maxThreadsPerProgram = 1024; // run in loops (ThreadLoops.h)
  // Shared memory is a buffer per worker thread; the lowering uses it only for
  // layout conversions and dot operands of one thread.
  t.sharedMemoryBytes = 1 << 20;
  t.maxSharedMemoryBytes = 1 << 20;
  // One element per access: the threads of a program are the vector lanes (their loops
  // are what LLVM vectorizes, and a loop holding vector-typed accesses does not vectorize).
  t.maxVectorBytes = 1;
  return t;
}

} // namespace trident::cpu
