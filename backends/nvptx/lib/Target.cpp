#include "trident/backends/nvptx/Target.h"

#include <array>
#include <cstdlib>
#include <cstring>

namespace trident::nvptx {

namespace {

constexpr std::array<std::string_view, 4> kArchitectures = {"sm_80", "sm_86", "sm_89", "sm_90"};

// Per-program shared memory with opt-in (CUDA programming guide, compute capabilities).
uint64_t maxSharedBytes(std::string_view arch) {
  if (arch == "sm_80")
    return 163 * 1024;
  if (arch == "sm_90")
    return 227 * 1024;
  return 99 * 1024; // sm_86, sm_89
}

// Ada and Hopper multiply fp8 on their tensor cores (PTX ISA 8.4's mma with .e4m3/.e5m2).
bool hasFp8MatrixUnits(std::string_view arch) { return arch == "sm_89" || arch == "sm_90"; }

using Bits = std::vector<std::pair<int64_t, int64_t>>;

// mma.sync.m16n8k16 with 16-bit inputs and f32 (or f16) accumulators (PTX ISA, "Matrix
// fragments for mma.m16n8k16"): lane = 4 * group + thread-in-group.
MatrixAtom mma16816(std::string name, Type input, Type acc = Type::f32()) {
  MatrixAtom a;
  a.name = std::move(name);
  a.m = 16, a.n = 8, a.k = 16;
  a.aType = a.bType = input;
  a.cType = acc;
  Bits groupRows = {{1, 0}, {2, 0}, {4, 0}};
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

// mma.sync.m16n8k8 with tf32 inputs.
MatrixAtom mma1688tf32() {
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

// mma.sync.m16n8k32 with s8 inputs and s32 accumulators: the m16n8k16 fragments with
// every 16-bit element a pair of bytes (PTX ISA, "Matrix fragments for mma.m16n8k32").
// The same fragments carry fp8 (e4m3, e5m2) inputs with f32 accumulators on sm_89+.
MatrixAtom mma16832(std::string name, Type input, Type acc) {
  MatrixAtom a;
  a.name = std::move(name);
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

// mma.sync.m8n8k4 with f64 inputs and accumulators (sm_80+: twice the FMA rate): one
// element of A and B per lane, two of C.
MatrixAtom mma884f64() {
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

// wgmma.mma_async.m64nN (PTX ISA, "Register Fragments" of the warpgroup-level
// instructions): per warp, the fragments of the warp atom `warpAtom` (m16n8 with the same
// k) for A and C, C repeated along N; the warpgroup's 4 warps take 16 rows each. B comes
// from shared memory; with tf32 and 8-bit inputs A does too, and both are K-major there.
MatrixAtom wgmma64(const MatrixAtom &warpAtom, int64_t n, std::string_view acc, std::string_view input) {
  MatrixAtom a = warpAtom;
  a.name = "wgmma.m64n" + std::to_string(n) + "k" + std::to_string(a.k) + "." + std::string(acc) + "." +
           std::string(input);
  a.m = 64, a.n = n;
  a.warps = 4;
  a.sharedB = true;
  a.kMajorOnly = a.aType.bitWidth() != 16;
  a.a.warpBits = a.c.warpBits = {{16, 0}, {32, 0}};
  for (int64_t col = 8; col < n; col *= 2)
    a.c.registerBits.push_back({0, col});
  a.b = {};
  return a;
}

} // namespace

std::span<const std::string_view> supportedArchitectures() { return kArchitectures; }

std::optional<std::string> architecture(std::string_view target) {
  if (target.starts_with("cuda:"))
    target.remove_prefix(5);
  for (std::string_view a : kArchitectures)
    if (a == target)
      return std::string(a);
  return std::nullopt;
}

std::optional<TargetDesc> targetDesc(std::string_view target) {
  std::optional<std::string> arch = architecture(target);
  if (!arch)
    return std::nullopt;
  TargetDesc t;
  t.name = "cuda:" + *arch;
  t.warpSize = 32;
  t.maxThreadsPerProgram = 1024;
  t.sharedMemoryBytes = 48 * 1024;
  t.maxSharedMemoryBytes = maxSharedBytes(*arch);
  // The driver keeps 1 KB of each multiprocessor's shared memory per resident block.
  t.sharedReservedPerProgram = 1024;
  t.sharedMemoryPerProcessor = t.maxSharedMemoryBytes + t.sharedReservedPerProgram;
  t.registersPerProcessor = 65536;
  t.maxVectorBytes = 16;
  if (*arch == "sm_90") {
    // Hopper's warpgroup atoms first (PTX for sm_90a), the widest first; those on tf32
    // and 8-bit inputs take K-major operands only (planMma checks that they are).
    for (int64_t n : {256, 128, 64, 32, 16}) {
      t.matrixAtoms.push_back(wgmma64(mma16816("", Type::f16()), n, "f32", "f16"));
      t.matrixAtoms.push_back(wgmma64(mma16816("", Type::f16(), Type::f16()), n, "f16", "f16"));
      t.matrixAtoms.push_back(wgmma64(mma16816("", Type::bf16()), n, "f32", "bf16"));
      t.matrixAtoms.push_back(wgmma64(mma1688tf32(), n, "f32", "tf32"));
      t.matrixAtoms.push_back(wgmma64(mma16832("", Type::i8(), Type::i32()), n, "s32", "s8"));
      t.matrixAtoms.push_back(wgmma64(mma16832("", Type::f8e4m3(), Type::f32()), n, "f32", "e4m3"));
      t.matrixAtoms.push_back(wgmma64(mma16832("", Type::f8e5m2(), Type::f32()), n, "f32", "e5m2"));
    }
  }
  for (MatrixAtom &a : std::vector<MatrixAtom>{mma16816("mma.m16n8k16.f32.f16", Type::f16()),
                                               mma16816("mma.m16n8k16.f16.f16", Type::f16(), Type::f16()),
                                               mma16816("mma.m16n8k16.f32.bf16", Type::bf16()), mma1688tf32(),
                                               mma16832("mma.m16n8k32.s32.s8", Type::i8(), Type::i32()),
                                               mma884f64()})
    t.matrixAtoms.push_back(std::move(a));
  if (hasFp8MatrixUnits(*arch)) {
    t.matrixAtoms.push_back(mma16832("mma.m16n8k32.f32.e4m3", Type::f8e4m3(), Type::f32()));
    t.matrixAtoms.push_back(mma16832("mma.m16n8k32.f32.e5m2", Type::f8e5m2(), Type::f32()));
  }
  t.emitsMatrixAtoms = true;
  t.ldmatrix = true;  // sm_75+
  t.asyncCopy = true; // cp.async, sm_80+
  // Pipelined copies complete on mbarriers on Hopper (try_wait is sm_90's);
  // TRIDENT_CUDA_MBARRIERS=off keeps cp.async.wait_group there, for measuring the two.
  const char *mbarriers = std::getenv("TRIDENT_CUDA_MBARRIERS");
  t.asyncBarriers = *arch == "sm_90" && !(mbarriers && !std::strcmp(mbarriers, "off"));
  // Descriptor loads of dot loops through the tensor-copy engine (simt/Tma.h), which
  // completes on those mbarriers, and block pointers' loads in kernels of one warpgroup.
  // On the H200 (twelfth session) attention's block pointers through maps ran 1.05x to
  // 1.16x as fast as on cp.async on 4 warps, 0.91x to 0.98x on 8. TRIDENT_CUDA_TMA=off
  // keeps every load on cp.async, =descriptors takes only descriptors to the engine, =all
  // block pointers at every warp count too.
  const char *tma = std::getenv("TRIDENT_CUDA_TMA");
  auto is = [tma](const char *v) { return tma && !std::strcmp(tma, v); };
  t.tensorMaps = t.asyncBarriers && !is("off");
  t.blockPointerTensorMaps = t.tensorMaps && is("all");
  t.blockPointerTensorMapWarps = t.tensorMaps && !is("descriptors") ? 4 : 0;
  return t;
}

std::string ptxFeatures(std::string_view, bool fp8MatrixUnits) { return fp8MatrixUnits ? "+ptx84" : "+ptx80"; }

std::string llvmProcessor(std::string_view arch) {
  // wgmma and setmaxnreg exist only for the architecture-specific sm_90a; its code runs
  // on compute capability 9.0 exactly, which is what a cuda:sm_90 target means here.
  return arch == "sm_90" ? "sm_90a" : std::string(arch);
}

} // namespace trident::nvptx
