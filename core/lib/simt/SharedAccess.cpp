// Block values through shared memory: each thread writes the registers it owns at
// their offsets in a SharedLayout and reads back those of another layout, both as
// wide as the arrangement allows. Conversions pick a swizzled arrangement (rows along
// the dimension the writer holds contiguous), so that the writes stay 16 bytes wide
// and reads across rows, a transpose or a matrix-unit operand, are free of bank
// conflicts. Where the target has ldmatrix and the reader's layout is made of 8x8
// matrices of 16-bit elements (every dot operand layout is), one th.ldmatrix reads
// four of them for a whole warp:
//
//   block<64x32xf16> (8 contiguous per thread) -> the A operand of m16n8k16:
//   %s = th.shared_alloc {offset = -1, size = 4096} : ptr<f16, 3>
//   th.store_shared %s, %o0, %v0 : vector<8xf16>           (16 bytes, swizzled offset)
//   %f = th.ldmatrix %s, %row {count = 4, trans = 0} : vector<8xf16>   (one atom's A)
#include "LowerContext.h"
#include "SharedLayout.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace trident::simt {

namespace {

// The dimension along which `layout`'s first registers hold consecutive elements
// (nothing when each thread's first two registers are not neighbours).
std::optional<unsigned> vectorDimension(const LinearLayout &layout) {
  for (unsigned d = 0; d < layout.rank(); ++d)
    if (layout.dimBits(d) > 0 && layout.contiguousRegisters(d) > 1)
      return d;
  return std::nullopt;
}

// The dimension neighbouring lanes step along (for writers of one element per access).
std::optional<unsigned> laneDimension(const LinearLayout &layout) {
  if (layout.laneBases().empty() || !isPowerOfTwo(layout.laneBases()[0]))
    return std::nullopt;
  unsigned bit = log2Exact(layout.laneBases()[0]);
  for (unsigned d = 0; d < layout.rank(); ++d)
    if (bit >= layout.dimOffset(d) && bit < layout.dimOffset(d) + layout.dimBits(d))
      return d;
  return std::nullopt;
}

// How one th.ldmatrix reads registers of a layout: the lane bits' address bases (lane
// bits 0-2 pick a row of an 8x8 matrix, bits 3-4 the matrix) and the register bits
// that select the matrices.
struct LdMatrixPlan {
  bool trans = false;
  int64_t count = 1;                 // matrices per instruction: 1, 2 or 4
  std::vector<int64_t> addressBases; // 5 offsets, one per lane bit
};

// A plan when every 8x8 matrix of `offsets` (a register layout composed with its
// shared arrangement) is a 16-byte row per row: registers bit 0 and lanes bits 0-1
// along a row (ldmatrix), or lanes bits 2-4 along it (ldmatrix.trans).
std::optional<LdMatrixPlan> planLdMatrix(const LinearLayout &offsets) {
  const std::vector<int64_t> &reg = offsets.regBases(), &lane = offsets.laneBases();
  if (reg.empty() || lane.size() != 5)
    return std::nullopt;
  auto multiplesOf8 = [](std::initializer_list<int64_t> bases) {
    return std::all_of(bases.begin(), bases.end(), [](int64_t b) { return b % 8 == 0; });
  };
  for (int64_t b : offsets.warpBases())
    if (b % 8)
      return std::nullopt;
  for (size_t i = 1; i < reg.size(); ++i)
    if (reg[i] % 8)
      return std::nullopt;
  LdMatrixPlan plan;
  if (reg[0] == 1 && lane[0] == 2 && lane[1] == 4 && multiplesOf8({lane[2], lane[3], lane[4]})) {
    plan.addressBases = {lane[2], lane[3], lane[4]};
  } else if (lane[2] == 1 && lane[3] == 2 && lane[4] == 4 && multiplesOf8({reg[0], lane[0], lane[1]})) {
    plan.trans = true;
    plan.addressBases = {reg[0], lane[0], lane[1]};
  } else {
    return std::nullopt;
  }
  plan.count = std::min<int64_t>(4, int64_t(1) << (reg.size() - 1));
  for (size_t i = 1; i < 3; ++i)
    plan.addressBases.push_back(i < reg.size() && plan.count > int64_t(1) << (i - 1) ? reg[i] : 0);
  return plan;
}

// `offsets` (of elements of `bits` bits) counted in 16-bit units, the view ldmatrix
// reads in: a 32-bit element is two units (a new first register bit), two neighbouring
// bytes are one (the first register bit must pair them). Nothing when bytes do not
// pair up.
std::optional<LinearLayout> inHalfWordUnits(const LinearLayout &offsets, unsigned bits) {
  if (bits == 16)
    return offsets;
  auto scaled = [&](const std::vector<int64_t> &bases, size_t from) -> std::optional<std::vector<int64_t>> {
    std::vector<int64_t> out;
    for (size_t i = from; i < bases.size(); ++i) {
      if (bits == 8 && bases[i] % 2)
        return std::nullopt;
      out.push_back(bits == 8 ? bases[i] / 2 : bases[i] * 2);
    }
    return out;
  };
  const std::vector<int64_t> &reg = offsets.regBases();
  if (bits == 8 && (reg.empty() || reg[0] != 1))
    return std::nullopt;
  std::optional<std::vector<int64_t>> r = scaled(reg, bits == 8 ? 1 : 0), lanes = scaled(offsets.laneBases(), 0),
                                      warps = scaled(offsets.warpBases(), 0);
  if (!r || !lanes || !warps)
    return std::nullopt;
  if (bits == 32)
    r->insert(r->begin(), 1);
  int64_t units = bits == 8 ? offsets.numElements() / 2 : offsets.numElements() * 2;
  return LinearLayout({units}, *r, *lanes, *warps);
}

// How readShared reads `offsets` (of `bits`-bit elements) with th.ldmatrix, if it can.
// ldmatrix moves 16-bit units: 8-bit elements in neighbouring pairs (int8 and fp8
// operands along k) and 32-bit ones in halves (tf32) read untransposed only.
std::optional<LdMatrixPlan> ldMatrixPlan(const TargetDesc &target, const LinearLayout &offsets, unsigned bits) {
  if (!target.ldmatrix || target.warpSize != 32 || (bits != 8 && bits != 16 && bits != 32))
    return std::nullopt;
  std::optional<LinearLayout> units = inHalfWordUnits(offsets, bits);
  std::optional<LdMatrixPlan> ld = units ? planLdMatrix(*units) : std::nullopt;
  if (ld && bits != 16 && (ld->trans || ld->count * 32 / bits < 2))
    return std::nullopt; // no byte transposes; a single 32-bit register is a plain load
  return ld;
}

// The shared-memory traffic of one warp reading (or writing) `layout` from a tile
// arranged as `shared`, as the simulator counts it (ThreadSim.h): 32 banks of 4 bytes;
// accesses as wide as the registers are contiguous there (up to 16 bytes), served by
// phases of 32, 16 or 8 lanes for up to 4, 8 and 16 bytes; a phase takes as many
// wavefronts as its busiest bank has distinct words. {conflicts, wavefronts}: the
// wavefronts beyond one per phase, and all of them.
std::pair<int64_t, int64_t> sharedTraffic(const SharedLayout &shared, const LinearLayout &layout,
                                          unsigned elementBytes) {
  LinearLayout at = shared.offsets(layout.withoutDuplicateRegisters());
  int64_t width = std::min<int64_t>(contiguousSharedRegisters(at), std::max<int64_t>(1, 16 / elementBytes));
  int64_t bytes = width * elementBytes, lanes = int64_t(1) << at.laneBases().size();
  int64_t perPhase = std::min<int64_t>(lanes, bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8);
  std::pair<int64_t, int64_t> out{0, 0};
  for (int64_t r = 0; r < at.numRegisters(); r += width)
    for (int64_t first = 0; first < lanes; first += perPhase) {
      std::map<int64_t, std::set<int64_t>> words; // bank -> words
      for (int64_t lane = first; lane < first + perPhase; ++lane) {
        int64_t byte = at.apply(r, lane, 0) * elementBytes;
        for (int64_t w = byte / 4; w < (byte + bytes + 3) / 4; ++w)
          words[w % 32].insert(w);
      }
      size_t busiest = 1;
      for (const auto &[bank, ws] : words)
        busiest = std::max(busiest, ws.size());
      out.first += static_cast<int64_t>(busiest) - 1;
      out.second += static_cast<int64_t>(busiest);
    }
  return out;
}

} // namespace

Value *Lowering::writeShared(const Lowered &src) {
  return writeShared(src, SharedLayout::rowMajor(src.layout.numElements()));
}

Value *Lowering::writeShared(const Lowered &src, const SharedLayout &shared) {
  Type element = src.regs[0]->type();
  Type storage = storageType(element);
  int64_t maxWidth = std::max<int64_t>(1, target.maxVectorBytes / (storage.bitWidth() / 8));
  Value *buffer = sharedAlloc(element, src.layout.numElements(), shared.isRowMajor() ? 16 : 1024);
  LinearLayout offsets = shared.offsets(src.layout);
  int64_t width = std::min(contiguousSharedRegisters(offsets), maxWidth);
  int64_t dups = src.layout.registerReplicationMask();
  Value *owner = ownerPredicate(src.layout);
  for (int64_t r = 0; r < src.layout.numRegisters(); r += width) {
    if (r & dups)
      continue;
    std::vector<Value *> stored;
    for (int64_t i = 0; i < width; ++i)
      stored.push_back(toStorage(src.regs[r + i]));
    std::vector<Value *> operands{buffer, elementIndex(offsets, r), packRegisters(*this, stored, 0, width)};
    if (owner)
      operands.push_back(owner);
    b.create(OpCode::ThStoreShared, operands, std::span<const Type>{});
  }
  return buffer;
}

Lowered Lowering::readShared(Value *buffer, Type element, const LinearLayout &dst) {
  return readShared(buffer, element, dst, SharedLayout::rowMajor(dst.numElements()));
}

Lowered Lowering::readShared(Value *buffer, Type element, const LinearLayout &dst, const SharedLayout &shared,
                             const std::vector<bool> *only, Value *base) {
  auto at = [&](Value *index) { return base ? b.binary(OpCode::AddI, base, index) : index; };
  // Whether any register of [r, r + n) is asked for.
  auto wanted = [&](int64_t r, int64_t n) {
    if (!only)
      return true;
    for (int64_t i = r; i < r + n; ++i)
      if ((*only)[static_cast<size_t>(i)])
        return true;
    return false;
  };
  Type storage = storageType(element);
  LinearLayout offsets = shared.offsets(dst);
  Lowered out{dst, std::vector<Value *>(dst.numRegisters(), nullptr)};
  int64_t dups = dst.registerReplicationMask();
  unsigned bits = storage.bitWidth();
  std::optional<LdMatrixPlan> ld = ldMatrixPlan(target, offsets, bits);
  if (ld) {
    // Row addresses: lane bits as the plan says (in elements), warps as the layout
    // places them.
    for (int64_t &a : ld->addressBases)
      a = bits == 8 ? a * 2 : bits == 32 ? a / 2 : a;
    LinearLayout rows({offsets.numElements()}, offsets.regBases(), ld->addressBases, offsets.warpBases());
    int64_t group = ld->count * 32 / bits; // registers one instruction fills
    for (int64_t r = 0; r < dst.numRegisters(); r += group) {
      if (!wanted(r, group))
        continue;
      Value *operands[] = {buffer, at(elementIndex(rows, r))};
      Type types[] = {Type::vector(group, storage)};
      Value *v = b.create(OpCode::ThLdMatrix, operands, types,
                          {{"count", Attribute::integer(ld->count)}, {"trans", Attribute::integer(ld->trans)}})
                     ->result();
      unpackInto(*this, v, group, out.regs, r);
    }
  } else {
    int64_t maxWidth = std::max<int64_t>(1, target.maxVectorBytes / (storage.bitWidth() / 8));
    int64_t width = std::min(contiguousSharedRegisters(offsets), maxWidth);
    for (int64_t r = 0; r < dst.numRegisters(); r += width) {
      if ((r & dups) || !wanted(r, width))
        continue;
      Value *operands[] = {buffer, at(elementIndex(offsets, r))};
      Type types[] = {width > 1 ? Type::vector(width, storage) : storage};
      Value *v = b.create(OpCode::ThLoadShared, operands, types)->result();
      unpackInto(*this, v, width, out.regs, r);
    }
  }
  for (int64_t r = 0; r < dst.numRegisters(); ++r) {
    if (r & dups)
      out.regs[r] = out.regs[r & ~dups];
    else if (out.regs[r])
      out.regs[r] = fromStorage(out.regs[r], element);
  }
  return out;
}

SharedLayout Lowering::conversionLayout(const LinearLayout &src, const LinearLayout &dst, Type element,
                                        unsigned chunkBytes) const {
  // Rows along what the writer holds contiguous, else along what its lanes write
  // side by side (so scalar writes stay conflict-free), else along the reader's vectors.
  std::optional<unsigned> dim = vectorDimension(src);
  if (!dim)
    dim = laneDimension(src);
  if (!dim)
    dim = vectorDimension(dst);
  unsigned bytes = storageType(element).bitWidth() / 8;
  if (!dim || src.rank() < 2 || bytes == 0)
    return SharedLayout::rowMajor(src.numElements());
  return SharedLayout::swizzled(src.shape(), *dim, bytes, chunkBytes);
}

SharedLayout Lowering::matrixTileLayout(const LinearLayout &src, unsigned kDim, Type element, bool kMajor) const {
  unsigned bytes = storageType(element).bitWidth() / 8;
  if (kMajor)
    return SharedLayout::swizzled(src.shape(), kDim, bytes);
  std::optional<unsigned> dim = vectorDimension(src);
  if (!dim)
    dim = laneDimension(src);
  SharedLayout tile = SharedLayout::swizzled(src.shape(), dim.value_or(kDim), bytes);
  if (!matrixDescriptor(tile, src.shape(), kDim, bytes))
    tile = SharedLayout::swizzled(src.shape(), kDim, bytes);
  return tile;
}

// The tile a dot operand goes through: conversionLayout's where the reader takes its
// fragments with th.ldmatrix from it (16-byte chunks of rows along what the writer holds
// contiguous, permuted by the row: what ldmatrix and 16-byte row writes need). Where each
// lane reads its own fragment (AMD's MFMA and WMMA; on NVIDIA f64 operands, and 8- or
// 32-bit ones read across their rows) the tile is chosen among rows along the writer's or
// the reader's contiguous dimension with swizzles of 32-, 16-, 8- or 4-byte units: the one
// with the fewest bank conflicts of a warp's writes and reads together, then the least
// traffic, among those that keep `minWriterWidth` elements contiguous for the writer (a
// pipeline's copies). MFMA's A is read 8 bytes (4 consecutive k) at a time by 16 lanes at
// 16 rows, which 16-byte units would put two to a bank; 8-byte ones do not. The A of
// mma.m8n8k4.f64 is read 32 bytes per row (4 lanes) by 16 lanes at 4 rows: 32-byte units.
SharedLayout Lowering::operandTile(const LinearLayout &writer, const LinearLayout &reader, Type element,
                                   int64_t minWriterWidth) const {
  SharedLayout best = conversionLayout(writer, reader, element);
  unsigned bytes = storageType(element).bitWidth() / 8;
  if (ldMatrixPlan(target, best.offsets(reader), bytes * 8))
    return best;
  auto cost = [&](const SharedLayout &s) {
    std::pair<int64_t, int64_t> w = sharedTraffic(s, writer, bytes), r = sharedTraffic(s, reader, bytes);
    return std::pair(w.first + r.first, w.second + r.second);
  };
  std::pair<int64_t, int64_t> lowest = cost(best);
  auto consider = [&](const SharedLayout &candidate) {
    if (contiguousSharedRegisters(candidate.offsets(writer)) < minWriterWidth)
      return;
    if (std::pair<int64_t, int64_t> c = cost(candidate); c < lowest) {
      best = candidate;
      lowest = c;
    }
  };
  for (unsigned chunk : {32u, 8u, 4u})
    consider(conversionLayout(writer, reader, element, chunk));
  if (reader.rank() == 2)
    for (unsigned d = 0; d < 2; ++d)
      if (reader.contiguousRegisters(d) > 1)
        for (unsigned chunk : {32u, 16u, 8u, 4u})
          consider(SharedLayout::swizzled(reader.shape(), d, bytes, chunk));
  return best;
}

Lowered Lowering::convertThroughShared(const Lowered &src, const LinearLayout &dst) {
  Type element = src.regs[0]->type();
  SharedLayout shared = conversionLayout(src.layout, dst, element);
  return readShared(writeShared(src, shared), element, dst, shared);
}

} // namespace trident::simt
