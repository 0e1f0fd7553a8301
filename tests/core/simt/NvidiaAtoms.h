#pragma once
// NVIDIA's matrix atoms for tests of core, which must not link the backends: the
// same bit maps as backends/nvptx/lib/Target.cpp (keep the two in step). Both come
// from the PTX ISA's "Matrix fragments for mma.m16n8k16 / mma.m16n8k8" (lane =
// 4 * group + thread-in-group); sim_matrix_test checks them against its formulas.

#include "trident/simt/TargetDesc.h"

#include <string>
#include <string_view>
#include <vector>

namespace trident::simt::test {

// mma.sync.m16n8k16 with 16-bit inputs (f16 or bf16) and f32 accumulators.
inline MatrixAtom nvidiaMma16816(std::string name, Type input, Type acc = Type::f32()) {
  MatrixAtom a;
  a.name = std::move(name);
  a.m = 16, a.n = 8, a.k = 16;
  a.aType = a.bType = input;
  a.cType = acc;
  // A (16x16): registers: col 1, row 8, col 8; lanes: col 2, col 4, then the group's rows.
  a.a.registerBits = {{0, 1}, {8, 0}, {0, 8}};
  a.a.laneBits = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  // B (16x8): registers: row 1, row 8; lanes: row 2, row 4, then the group's columns.
  a.b.registerBits = {{1, 0}, {8, 0}};
  a.b.laneBits = {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}};
  // C (16x8): registers: col 1, row 8; lanes: col 2, col 4, then the group's rows.
  a.c.registerBits = {{0, 1}, {8, 0}};
  a.c.laneBits = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  return a;
}

// mma.sync.m16n8k8 with tf32 inputs (held as f32) and f32 accumulators.
inline MatrixAtom nvidiaMma1688Tf32() {
  MatrixAtom a;
  a.name = "mma.m16n8k8.f32.tf32";
  a.m = 16, a.n = 8, a.k = 8;
  a.aType = a.bType = a.cType = Type::f32();
  a.a.registerBits = {{8, 0}, {0, 4}};
  a.a.laneBits = {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}};
  a.b.registerBits = {{4, 0}};
  a.b.laneBits = {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}};
  a.c.registerBits = {{0, 1}, {8, 0}};
  a.c.laneBits = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  return a;
}

// mma.sync.m16n8k32 with 8-bit inputs: s8 into s32, or fp8 (e4m3, e5m2; sm_89+) into f32.
inline MatrixAtom nvidiaMma16832(const std::string &name, Type input, Type acc) {
  MatrixAtom a;
  a.name = name;
  a.m = 16, a.n = 8, a.k = 32;
  a.aType = a.bType = input;
  a.cType = acc;
  a.a.registerBits = {{0, 1}, {0, 2}, {8, 0}, {0, 16}};
  a.a.laneBits = {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}};
  a.b.registerBits = {{1, 0}, {2, 0}, {16, 0}};
  a.b.laneBits = {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}};
  a.c.registerBits = {{0, 1}, {8, 0}};
  a.c.laneBits = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  return a;
}

// mma.sync.m8n8k4 with f64 inputs and accumulators.
inline MatrixAtom nvidiaMma884F64() {
  MatrixAtom a;
  a.name = "mma.m8n8k4.f64.f64";
  a.m = 8, a.n = 8, a.k = 4;
  a.aType = a.bType = a.cType = Type::f64();
  a.a.laneBits = {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}};
  a.b.laneBits = {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}};
  a.c.registerBits = {{0, 1}};
  a.c.laneBits = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  return a;
}

// wgmma.mma_async.m64nN (sm_90a): per warp the m16n8 A and C fragments of the warp atom
// with the same inputs, C repeated along N, the warpgroup's 4 warps on rows 16 and 32; B
// from shared memory, and A too (both K-major) for tf32 and 8-bit inputs (PTX ISA,
// "Register Fragments" and "Shared Memory Matrix Layout" of the warpgroup-level instructions).
inline MatrixAtom nvidiaWgmma64(const MatrixAtom &warpAtom, int64_t n, const std::string &acc, const std::string &input) {
  MatrixAtom a = warpAtom;
  a.name = "wgmma.m64n" + std::to_string(n) + "k" + std::to_string(a.k) + "." + acc + "." + input;
  a.m = 64, a.n = n;
  a.warps = 4;
  a.sharedB = true;
  a.kMajorOnly = input != "f16" && input != "bf16";
  a.a.warpBits = a.c.warpBits = {{16, 0}, {32, 0}};
  for (int64_t col = 8; col < n; col *= 2)
    a.c.registerBits.push_back({0, col});
  a.b = {};
  return a;
}

// The atoms of nvptx::targetDesc(arch), in its order: sm_90 lists its warpgroup atoms first.
inline std::vector<MatrixAtom> nvidiaAtoms(std::string_view arch = "sm_80") {
  std::vector<MatrixAtom> atoms;
  if (arch == "sm_90")
    for (int64_t n : {256, 128, 64, 32, 16}) {
      atoms.push_back(nvidiaWgmma64(nvidiaMma16816("", Type::f16()), n, "f32", "f16"));
      atoms.push_back(nvidiaWgmma64(nvidiaMma16816("", Type::f16(), Type::f16()), n, "f16", "f16"));
      atoms.push_back(nvidiaWgmma64(nvidiaMma16816("", Type::bf16()), n, "f32", "bf16"));
      atoms.push_back(nvidiaWgmma64(nvidiaMma1688Tf32(), n, "f32", "tf32"));
      atoms.push_back(nvidiaWgmma64(nvidiaMma16832("", Type::i8(), Type::i32()), n, "s32", "s8"));
      atoms.push_back(nvidiaWgmma64(nvidiaMma16832("", Type::f8e4m3(), Type::f32()), n, "f32", "e4m3"));
      atoms.push_back(nvidiaWgmma64(nvidiaMma16832("", Type::f8e5m2(), Type::f32()), n, "f32", "e5m2"));
    }
  for (MatrixAtom &a : std::vector<MatrixAtom>{nvidiaMma16816("mma.m16n8k16.f32.f16", Type::f16()),
                                               nvidiaMma16816("mma.m16n8k16.f16.f16", Type::f16(), Type::f16()),
                                               nvidiaMma16816("mma.m16n8k16.f32.bf16", Type::bf16()),
                                               nvidiaMma1688Tf32(),
                                               nvidiaMma16832("mma.m16n8k32.s32.s8", Type::i8(), Type::i32()),
                                               nvidiaMma884F64()})
    atoms.push_back(std::move(a));
  if (arch == "sm_89" || arch == "sm_90") {
    atoms.push_back(nvidiaMma16832("mma.m16n8k32.f32.e4m3", Type::f8e4m3(), Type::f32()));
    atoms.push_back(nvidiaMma16832("mma.m16n8k32.f32.e5m2", Type::f8e5m2(), Type::f32()));
  }
  return atoms;
}

} // namespace trident::simt::test
