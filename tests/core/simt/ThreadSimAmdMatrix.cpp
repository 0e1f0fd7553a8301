// AMD's matrix atoms in the thread-IR simulator: which element of A, B and C/D each
// register of each lane holds, written from AMD's documents (CDNA3 ISA, "Dense Matrix
// Layouts", and the matrix instruction calculator for MFMA; RDNA3 ISA, "Wave Matrix
// Multiply Accumulate", for WMMA) as index arithmetic, not read from the atoms' bit maps
// in backends/amdgpu: a lowering that builds its layouts from wrong maps computes wrong
// products here, and the dot tests compare them with the interpreter.
//
//   v_mfma_*_MxNxK (wave64, M = N = 16 or 32), kl = K * M / 64 elements per lane:
//     A[i][k]: lane = i + M * (k / kl), register k % kl
//     B[k][j]: lane = j + N * (k / kl), register k % kl
//     D[i][j] (M = 32): lane = j + 32 * ((i / 4) % 2), register 4 * (i / 8) + i % 4
//     D[i][j] (M = 16): lane = j + 16 * (i / 4), register i % 4
//   v_wmma_*_16x16x16_* (wave32): lanes 16-31 repeat lanes 0-15 for A and B
//     A[i][k]: lane i (and i + 16), register k;  B[k][j]: lane j (and j + 16), register k
//     D[i][j]: lane = j + 16 * (i % 2), register i / 2
#include "ThreadSimImpl.h"

#include <cstdio>

namespace trident::simt::test::detail {

std::optional<IsaFragments> isaFragments(const Op *op, const MatrixAtom &atom, unsigned warpSize) {
  std::string_view name = atom.name;
  bool mfma = name.starts_with("v_mfma_"), wmma = name.starts_with("v_wmma_");
  if (!mfma && !wmma)
    return std::nullopt;
  // "v_mfma_f32_32x32x8f16", "v_mfma_i32_16x16x32_i8", "v_wmma_f32_16x16x16_f16"
  unsigned m = 0, n = 0, k = 0;
  if (name.size() < 11 || std::sscanf(std::string(name.substr(11)).c_str(), "%ux%ux%u", &m, &n, &k) != 3)
    fail(op, "AMD atom name '" + atom.name + "' has no MxNxK shape");
  if (m != atom.m || n != atom.n || k != atom.k)
    fail(op, "atom '" + atom.name + "' is described as " + std::to_string(atom.m) + "x" + std::to_string(atom.n) +
                 "x" + std::to_string(atom.k));
  unsigned wave = mfma ? 64 : 32;
  if (warpSize != wave)
    fail(op, "atom '" + atom.name + "' runs on waves of " + std::to_string(wave) + " lanes, not " +
                 std::to_string(warpSize));
  IsaFragments f;
  if (mfma) {
    if (m != n || (m != 16 && m != 32))
      fail(op, "MFMA atom '" + atom.name + "': only 16x16 and 32x32 results are modelled");
    unsigned kl = k * m / 64;
    f.registers = {kl, kl, m * n / 64};
    f.element = [m, kl](unsigned operand, unsigned reg, unsigned lane) -> std::pair<int64_t, int64_t> {
      switch (operand) {
      case 0: return {lane % m, kl * (lane / m) + reg};
      case 1: return {kl * (lane / m) + reg, lane % m};
      default:
        if (m == 32)
          return {8 * (reg / 4) + 4 * (lane / 32) + reg % 4, lane % 32};
        return {4 * (lane / 16) + reg, lane % 16};
      }
    };
  } else {
    if (m != 16 || n != 16 || k != 16)
      fail(op, "WMMA atom '" + atom.name + "': only 16x16x16 is modelled");
    f.registers = {16, 16, 8};
    f.element = [](unsigned operand, unsigned reg, unsigned lane) -> std::pair<int64_t, int64_t> {
      switch (operand) {
      case 0: return {lane % 16, reg};
      case 1: return {reg, lane % 16};
      default: return {2 * reg + lane / 16, lane % 16};
      }
    };
  }
  return f;
}

} // namespace trident::simt::test::detail
