#include "CpuTarget.h"

#include <llvm/ADT/StringMap.h>
#include <algorithm>
#include <cstdlib>
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

unsigned simdBytes() {
  const std::string &f = hostCpu().features;
  if (f.find("+avx512f") != std::string::npos)
    return 64;
  if (f.find("+avx2") != std::string::npos || f.find("+avx,") != std::string::npos)
    return 32;
  return 16; // SSE, NEON
}

unsigned simdRegisters() {
  const std::string &f = hostCpu().features;
  bool aarch64 = hostCpu().triple.find("aarch64") != std::string::npos;
  return aarch64 || f.find("+avx512f") != std::string::npos ? 32 : 16;
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
  // Dots: each thread computes one register tile of the result, D[m x n] += A[m x 1] B[1 x n]
  // a k step at a time (th.coop_mma, translated to vector multiply-adds: an n-wide row of
  // B, m broadcasts of A), the tile's n columns two SIMD registers wide and its m rows
  // filling half the vector registers. The lowering tiles the program's result over the
  // threads (CpuCodeGen.cpp picks one thread per tile).
  unsigned lanes = simdBytes() / 4;
  int64_t m = simdRegisters() >= 32 ? 8 : 4, n = 2 * int64_t(lanes);
  if (!std::getenv("TRIDENT_CPU_NO_TILES")) // for measuring: dots on the lowering's multiply-add loop
    for (Type in : {Type::f32(), Type::f16(), Type::bf16()})
      t.coopMatrices.push_back({m, n, 1, in, in, Type::f32(), Type::f32(), {}});
  t.coopPrefetch = CoopPrefetch::Off;
  t.coopLazyB = true;
  t.coopShared = CoopSharedLayout::Unpadded; // no banks: plain rows, stores contiguous across threads
  return t;
}

} // namespace trident::cpu
