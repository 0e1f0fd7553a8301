#pragma once
// The host CPU as a Trident target: what the SIMT lowering knows of it (warps of one
// thread, no matrix units) and what LLVM needs (the triple, the CPU
// name and its features, from LLVM's host detection).
//
// A program has many threads, each a warp of one lane (so no shuffles); the plugin
// runs them as loops between barriers (ThreadLoops.h), which LLVM's loop vectorizer
// spreads over the host's SIMD lanes.

#include "trident/simt/TargetDesc.h"

#include <string>
#include <string_view>

namespace trident::cpu {

struct HostCpu {
  std::string triple;   // "x86_64-pc-linux-gnu"
  std::string name;     // "znver3", "skylake-avx512", "neoverse-v1"
  std::string features; // LLVM's "+avx2,+fma,-avx512f,..."
};

// This machine, as LLVM detects it (once per process).
const HostCpu &hostCpu();
// The widest SIMD register of the host in bytes (64 with AVX-512, 32 with AVX2, else
// 16) and how many it has.
unsigned simdBytes();
unsigned simdRegisters();
// The device's target string: "cpu:<name>".
std::string hostTarget();
// True for "cpu" (this host) and for "cpu:<this host's name>".
bool acceptsTarget(std::string_view target);
// The lowering's view of the CPU.
TargetDesc targetDesc();

} // namespace trident::cpu
