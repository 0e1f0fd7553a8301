#pragma once
// What the SIMT lowering needs to know about a target: plain data that each
// backend fills in (backends/nvptx for sm_80..sm_90, later amdgpu and spirv).
//
//   TargetDesc sm90 = nvptx::targetDesc("sm_90");
//   lowerToThreadIR(blockIR, sm90, options, diags);

#include "trident/ir/Type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trident {

// One matrix-unit instruction ("atom"): D[m x n] = A[m x k] * B[k x n] + C[m x n],
// executed by a whole warp, or by `warps` consecutive warps together (a warpgroup of 4
// for sm_90's wgmma). Each operand is spread over the lanes and registers (and warps);
// the maps below give, for every register, lane (and warp) bit, the element index bit it
// selects, so they are linear layouts over the warp (or warpgroup).
struct MatrixAtom {
  std::string name;            // e.g. "mma.m16n8k16.f32.f16"
  int64_t m = 0, n = 0, k = 0; // the shape of one instruction
  Type aType, bType, cType;    // element types of A, B and C/D
  // Operand lane maps, one per operand (A, B, C): for each register bit then each
  // lane bit, the (row, col) element the bit adds, XOR-combined. Row-major
  // operand shapes: A m x k, B k x n, C m x n.
  struct OperandMap {
    std::vector<std::pair<int64_t, int64_t>> registerBits;
    std::vector<std::pair<int64_t, int64_t>> laneBits;
    std::vector<std::pair<int64_t, int64_t>> warpBits; // log2(warps) entries
  };
  OperandMap a, b, c;
  unsigned warps = 1;    // warps issuing one instruction together (th.mma: 1, th.wgmma: 4)
  bool sharedB = false;  // B is read from shared memory (th.wgmma), never from registers
  bool kMajorOnly = false; // A and B only from shared memory, each K-major there (wgmma on tf32 and 8-bit inputs)
};

// Which element of a cooperative matrix each invocation's component holds, where that is
// known (SPIR-V leaves it to the implementation; NVIDIA's driver keeps mma.sync
// fragments): for each component-index bit, then each lane bit, the (row, col) the bit
// adds, XOR-combined, as a MatrixAtom's maps (registers are the components th.coop_extract
// and th.coop_insert name). Component i of lane l of a 16x16 accumulator on NVIDIA:
// row (l >> 2) + 8 (i >> 2), col 2 (l & 3) + (i & 1) + 8 ((i >> 1) & 1).
struct CoopComponentMap {
  std::vector<std::pair<int64_t, int64_t>> componentBits;
  std::vector<std::pair<int64_t, int64_t>> laneBits;
  bool operator==(const CoopComponentMap &) const = default;
  // The element (row, col) component `component` of lane `lane` holds: the XOR of the
  // elements its set bits add.
  std::pair<int64_t, int64_t> elementOf(int64_t component, int64_t lane) const {
    int64_t row = 0, col = 0;
    for (size_t b = 0; b < componentBits.size(); ++b)
      if (component >> b & 1) {
        row ^= componentBits[b].first;
        col ^= componentBits[b].second;
      }
    for (size_t b = 0; b < laneBits.size(); ++b)
      if (lane >> b & 1) {
        row ^= laneBits[b].first;
        col ^= laneBits[b].second;
      }
    return {row, col};
  }
};
struct CoopLayouts {
  CoopComponentMap a, b, acc; // A (m x k), B (k x n), the accumulator and result (m x n)
  bool operator==(const CoopLayouts &) const = default;
  const CoopComponentMap &of(unsigned use) const { return use == 0 ? a : use == 1 ? b : acc; }
};

// A cooperative-matrix multiply a Vulkan device offers (VK_KHR_cooperative_matrix at
// subgroup scope): one subgroup computes D[m x n] = A[m x k] * B[k x n] + C with the
// matrices spread over its invocations. Without `layouts` that spread is the driver's
// secret, so the lowering moves whole tiles between them and shared memory
// (LowerCoopMatrix.cpp); with them (a profile's, or a device whose probe confirmed
// them: backends/spirv CoopProbe.h) it also reads and writes their components.
struct CoopMatrixShape {
  int64_t m = 0, n = 0, k = 0;
  Type aType, bType, cType, resultType;
  std::optional<CoopLayouts> layouts; // "known layouts"
};

// How a loop feeding a dot on cooperative matrices moves its operands (Pipeline.h,
// "inRegisters"; LowerCoopMatrix.cpp):
//   Late:  the next iteration's tiles are loaded into registers at the top of the body and
//          stored into shared memory after this iteration's matrix operations, so one set
//          of registers is live and none is carried round the loop;
//   Early: the registers of the next iteration are carried round the loop and stored at
//          the top of the next one (two sets live while the loads are in flight);
//   Off:   no prefetch: each iteration loads, stores, waits, multiplies;
//   Auto:  Late where the loop has one dot and its prefetched tiles are at most
//          kCoopLateBytesPerThread bytes a thread, else Off (LowerControlFlow.cpp).
enum class CoopPrefetch { Auto, Late, Early, Off };

// Measured on the H200 (driver 580, fp16 4096^3): late beat off at 128 bytes of tiles a
// thread (128x128x32 on 4 warps 0.484 against 0.534 ms, 64x64x32 on 2 warps 0.808
// against 0.902) and lost at 160 and 192 (64x256x32 on 4 warps 2.425 against 0.601,
// 128x256x64 on 8 warps 7.31 against 6.64).
inline constexpr int64_t kCoopLateBytesPerThread = 128;

// How A and B of a dot on cooperative matrices lie in shared memory (LowerCoopMatrix.cpp,
// OperandArray): Auto pads each row by 16 bytes where that fits and else stores them tile
// by tile (each tile one run of bytes); Padded never tiles (rows unpadded where padding
// does not fit); Tiled always does; Unpadded stores plain rows (the CPU, which has no banks).
enum class CoopSharedLayout { Auto, Padded, Tiled, Unpadded };

struct TargetDesc {
  std::string name;       // "cuda:sm_90", "hip:gfx942", "vulkan" ...
  unsigned warpSize = 32; // lanes per warp (subgroup size)
  unsigned maxThreadsPerProgram = 1024;
  uint64_t sharedMemoryBytes = 48 * 1024;    // per program without opt-in
  uint64_t maxSharedMemoryBytes = 48 * 1024; // per program with opt-in (>= the above)
  unsigned maxVectorBytes = 16;              // widest single global/shared access per thread
  // Per multiprocessor (0: unknown): shared memory for all resident programs (each also
  // takes sharedReservedPerProgram), and 32-bit registers. compileToThreadIR uses them to
  // choose one ring stage fewer where that lets two programs share a multiprocessor.
  uint64_t sharedMemoryPerProcessor = 0, sharedReservedPerProgram = 0;
  unsigned registersPerProcessor = 0;
  std::vector<MatrixAtom> matrixAtoms;       // the target's matrix-unit instructions
  bool emitsMatrixAtoms = false; // the backend translates th.mma: tt.dot runs on the first atom that fits
                                 // (DotLayout.h); AMD's atoms are described but not emitted yet
  bool ldmatrix = false;  // th.ldmatrix: a warp reads 8x8 matrices of 16-bit elements from shared memory
  bool asyncCopy = false; // th.async_copy/commit/wait: global -> shared copies that bypass registers
  // th.mbarrier_init/wait and th.async_arrive: pipelined copies complete on barriers in
  // shared memory instead of th.async_wait and a th.barrier (Pipeline.h)
  bool asyncBarriers = false;
  // th.tma_load/th.tma_arrive: tt.descriptor_load tiles of dot loops copied by the tensor
  // copy engine through tensor maps the plugin encodes at launch (Tma.h)
  bool tensorMaps = false;
  // No asynchronous copies, but loops of dots on matrix atoms with num_stages >= 2 load
  // their operands one iteration ahead into registers (AMD: Pipeline.h's inRegisters)
  bool registerPrefetch = false;
  // ... also for block pointers' loads (their base's terms as outer dimensions, Tma.h), in
  // every kernel (TRIDENT_CUDA_TMA=all), or in kernels of at most blockPointerTensorMapWarps
  // warps (sm_90: 4, where the H200 measured them faster; docs/simt.md, "Tensor copies")
  bool blockPointerTensorMaps = false;
  unsigned blockPointerTensorMapWarps = 0;
  std::vector<CoopMatrixShape> coopMatrices; // th.coop_*: tt.dot on cooperative matrices (Vulkan)
  CoopPrefetch coopPrefetch = CoopPrefetch::Auto;
  // Each k step loads a B tile just before the multiply-adds that read it (A's tiles of the
  // step first), instead of all of the step's tiles first: fewer tiles live at once.
  bool coopLazyB = false;
  CoopSharedLayout coopShared = CoopSharedLayout::Auto;
  // The conversions between cooperative-matrix tiles and registers mark the shared buffers
  // each subgroup writes and reads alone ({subgroup = 1}); the accesses of one such buffer
  // then wait for each other with th.barrier {scope = "subgroup"} (Barriers.h)
  bool subgroupBarriers = false;
  // Shared allocations placed where earlier ones died longest ago, up to sharedMemoryBytes,
  // rather than at the lowest offset that fits (SharedMemory.h): fewer barriers, more bytes
  bool spreadSharedMemory = false;
  // Reductions whose combiner regroups exactly (min/max, integer and bitwise ops) combine a
  // thread's registers and the warps' partials as trees of neighbouring pairs, not left
  // to right (LowerReduce.cpp); the same values, fewer dependent ops. Vulkan:
  // TRIDENT_VULKAN_REDUCE_TREE=off keeps the chains, to measure.
  bool treeReductions = true;

  unsigned log2WarpSize() const;
};

} // namespace trident
