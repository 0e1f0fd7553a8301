#include "trident/backends/amdgpu/Target.h"

#include <array>

namespace trident::amdgpu {

namespace {

constexpr std::array<std::string_view, 3> kArchitectures = {"gfx90a", "gfx942", "gfx1100"};

bool isGfx9(std::string_view arch) { return arch.starts_with("gfx9"); }

using Bits = std::vector<std::pair<int64_t, int64_t>>;

// The row (or column) bits 1, 2, 4 ... of `count` elements, as (row, col) pairs.
Bits rows(int64_t count, int64_t first = 1) {
  Bits out;
  for (int64_t b = first; b < first * count; b *= 2)
    out.push_back({b, 0});
  return out;
}
Bits cols(int64_t count, int64_t first = 1) {
  Bits out;
  for (int64_t b = first; b < first * count; b *= 2)
    out.push_back({0, b});
  return out;
}
Bits concat(Bits a, const Bits &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// MFMA (CDNA, wave64) with an M x M result, M = 16 or 32, and `kPerLane` consecutive
// k elements in each lane's registers (CDNA3 ISA, "Dense Matrix Layouts"; AMD's matrix
// instruction calculator): A's lane l holds row l % M, B's lane l column l % M, both at
// k = kPerLane * (l / M) + r; C's lane l holds column l % M and rows
// 8 * (r / 4) + 4 * (l / M) + r % 4 for M = 32 (rows 4 * (l / M) + r for M = 16).
// Integer atoms take i8 into i32 (the inputs packed 4 or 8 to a word by the backend).
MatrixAtom mfma(std::string name, int64_t m, int64_t k, Type input) {
  MatrixAtom a;
  a.name = std::move(name);
  a.m = a.n = m;
  a.k = k;
  a.aType = a.bType = input;
  a.cType = input.isInteger() ? Type::i32() : Type::f32();
  int64_t groups = 64 / m;       // lane groups along k
  int64_t kPerLane = k / groups; // consecutive k in one lane's registers
  a.a.registerBits = cols(kPerLane);
  a.a.laneBits = concat(rows(m), cols(groups, kPerLane));
  a.b.registerBits = rows(kPerLane);
  a.b.laneBits = concat(cols(m), rows(groups, kPerLane));
  if (m == 16) {
    a.c.registerBits = rows(4);
    a.c.laneBits = concat(cols(16), rows(4, 4));
  } else {
    a.c.registerBits = {{1, 0}, {2, 0}, {8, 0}, {16, 0}};
    a.c.laneBits = concat(cols(32), {{4, 0}});
  }
  return a;
}

// WMMA (RDNA3, wave32) 16x16x16 (RDNA3 ISA, "Wave Matrix Multiply Accumulate"): A and B
// are replicated in both halves of the wave (lane bit 4 selects nothing); each lane holds
// a whole row of A (column of B) of 16 k elements; C's lane l holds column l % 16 and
// rows 2 * r + l / 16. The int8 atom takes signed bytes into i32.
MatrixAtom wmma(std::string name, Type input) {
  MatrixAtom a;
  a.name = std::move(name);
  a.m = a.n = a.k = 16;
  a.aType = a.bType = input;
  a.cType = input.isInteger() ? Type::i32() : Type::f32();
  a.a.registerBits = cols(16);
  a.a.laneBits = concat(rows(16), {{0, 0}});
  a.b.registerBits = rows(16);
  a.b.laneBits = concat(cols(16), {{0, 0}});
  a.c.registerBits = rows(8, 2);
  a.c.laneBits = concat(cols(16), {{1, 0}});
  return a;
}

// The atoms in the order the lowering tries them (DotLayout.h: the first that keeps every
// wave busy): 32x32 first, which reads half the operand bytes per product of 16x16.
// No fp8 atom: gfx942's MFMA fp8/bf8 are the FNUZ formats (E4M3 with bias 8, one NaN
// 0x80, no infinities or negative zero), not the OCP E4M3FN/E5M2 of Trident's f8 types
// (those are gfx950's); fp8 dots keep the multiply-add lowering there.
std::vector<MatrixAtom> matrixAtoms(std::string_view arch) {
  if (arch == "gfx90a")
    return {mfma("v_mfma_f32_32x32x8f16", 32, 8, Type::f16()),
            mfma("v_mfma_f32_16x16x16f16", 16, 16, Type::f16()),
            mfma("v_mfma_f32_32x32x8bf16_1k", 32, 8, Type::bf16()),
            mfma("v_mfma_f32_16x16x16bf16_1k", 16, 16, Type::bf16()),
            mfma("v_mfma_i32_32x32x8i8", 32, 8, Type::i8()),
            mfma("v_mfma_i32_16x16x16i8", 16, 16, Type::i8())};
  if (arch == "gfx942") // gfx940's names; the i8 atoms doubled their k
    return {mfma("v_mfma_f32_32x32x8_f16", 32, 8, Type::f16()),
            mfma("v_mfma_f32_16x16x16_f16", 16, 16, Type::f16()),
            mfma("v_mfma_f32_32x32x8_bf16", 32, 8, Type::bf16()),
            mfma("v_mfma_f32_16x16x16_bf16", 16, 16, Type::bf16()),
            mfma("v_mfma_i32_32x32x16_i8", 32, 16, Type::i8()),
            mfma("v_mfma_i32_16x16x32_i8", 16, 32, Type::i8())};
  return {wmma("v_wmma_f32_16x16x16_f16", Type::f16()), wmma("v_wmma_f32_16x16x16_bf16", Type::bf16()),
          wmma("v_wmma_i32_16x16x16_iu8", Type::i8())};
}

} // namespace

std::span<const std::string_view> supportedArchitectures() { return kArchitectures; }

std::optional<std::string> architecture(std::string_view target) {
  if (target.starts_with("hip:"))
    target.remove_prefix(4);
  // gcnArchName carries target features after the processor: "gfx90a:sramecc+:xnack-".
  target = target.substr(0, target.find(':'));
  for (std::string_view a : kArchitectures)
    if (a == target)
      return std::string(a);
  return std::nullopt;
}

unsigned wavefrontSize(std::string_view arch) { return isGfx9(arch) ? 64 : 32; }

unsigned isaVersion(std::string_view arch) {
  if (arch == "gfx90a")
    return 9010;
  if (arch == "gfx942")
    return 9402;
  return 11000; // gfx1100
}

std::optional<TargetDesc> targetDesc(std::string_view target) {
  std::optional<std::string> arch = architecture(target);
  if (!arch)
    return std::nullopt;
  TargetDesc t;
  t.name = "hip:" + *arch;
  t.warpSize = wavefrontSize(*arch);
  t.maxThreadsPerProgram = 1024;
  // LDS per work-group: 64 KiB on all three (gfx1100's 128 KiB belong to a WGP, a
  // work-group may use 64 KiB of them).
  t.sharedMemoryBytes = 64 * 1024;
  t.maxSharedMemoryBytes = 64 * 1024;
  t.maxVectorBytes = 16; // global_load_dwordx4 / ds_read_b128
  t.matrixAtoms = matrixAtoms(*arch);
  t.emitsMatrixAtoms = true; // th.mma -> llvm.amdgcn.mfma.* / wmma.* (AMDGPUMatrix.cpp)
  // No ldmatrix and no asynchronous copies: operands reach the atoms through ds_read;
  // with num_stages >= 2 a dot loop's loads go one iteration ahead into registers (their
  // latency overlaps the iteration's LDS stores and matrix operations, as Triton's
  // stream pipeliner does on AMD).
  t.registerPrefetch = true;
  return t;
}

} // namespace trident::amdgpu
