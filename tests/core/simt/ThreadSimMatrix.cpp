// Matrix-unit ops of the thread-IR simulator: th.mma (one MatrixAtom per warp) and
// th.ldmatrix, as core/include/trident/ir/ThreadOps.def defines them. AMD's atoms take
// their fragments from the ISA's formulas (ThreadSimAmdMatrix.cpp), others from their maps.
#include "ThreadSimImpl.h"

#include <array>
#include <string_view>

namespace trident::simt::test::detail {

namespace {

using Element = std::pair<int64_t, int64_t>; // (row, col)

// Thread IR's control flow is uniform (the simulator fails on a non-uniform branch),
// so every thread executes each op; a warp-wide op then needs whole warps.
void requireWholeWarps(const Op *op, unsigned threads, unsigned warpSize) {
  if (threads % warpSize)
    fail(op, "runs on whole warps; num_threads " + std::to_string(threads) + " is not a multiple of " +
                 std::to_string(warpSize));
}

std::string elementName(Element e) {
  return "(" + std::to_string(e.first) + ", " + std::to_string(e.second) + ")";
}

// ---- th.mma

unsigned registersOf(const MatrixAtom::OperandMap &map) { return 1u << map.registerBits.size(); }

// The element that register `reg` of lane `lane` holds: the XOR of the elements of
// the set bits of both.
Element elementOf(const MatrixAtom::OperandMap &map, unsigned reg, unsigned lane) {
  Element e{0, 0};
  auto add = [&e](const std::vector<Element> &bits, unsigned index) {
    for (size_t j = 0; j < bits.size(); ++j)
      if ((index >> j) & 1) {
        e.first ^= bits[j].first;
        e.second ^= bits[j].second;
      }
  };
  add(map.registerBits, reg);
  add(map.laneBits, lane);
  return e;
}

// One of A, B and C: its map and shape, and where its registers start among the
// op's operands.
struct Operand {
  const char *name;
  const MatrixAtom::OperandMap &map;
  Type type;
  int64_t rows, cols;
  unsigned first;
  // Where the ISA says (AMD's atoms, ThreadSimAmdMatrix.cpp), else the map.
  const IsaFragments *isa = nullptr;
  unsigned index = 0; // 0 A, 1 B, 2 C

  unsigned registers() const { return isa ? isa->registers[index] : registersOf(map); }
  Element element(unsigned reg, unsigned lane) const {
    return isa ? isa->element(index, reg, lane) : elementOf(map, reg, lane);
  }
};

void checkSignature(const Op *op, const MatrixAtom &atom, const std::array<Operand, 3> &operands,
                    unsigned warpSize) {
  for (const Operand &o : operands)
    if (o.isa && o.registers() != registersOf(o.map))
      fail(op, "atom '" + atom.name + "' gives " + o.name + " " + std::to_string(registersOf(o.map)) +
                   " registers per lane, its ISA " + std::to_string(o.registers()));
  for (const Operand &o : operands)
    if ((1u << o.map.laneBits.size()) != warpSize)
      fail(op, "atom '" + atom.name + "' maps " + std::to_string(1u << o.map.laneBits.size()) + " lanes of " +
                   o.name + ", the warp has " + std::to_string(warpSize));
  const Operand &c = operands[2];
  unsigned total = c.first + registersOf(c.map);
  if (op->numOperands() != total || op->numResults() != registersOf(c.map))
    fail(op, "atom '" + atom.name + "' takes " + std::to_string(total) + " operands and gives " +
                 std::to_string(registersOf(c.map)) + " results");
  for (const Operand &o : operands)
    for (unsigned i = 0; i < registersOf(o.map); ++i)
      if (op->operand(o.first + i)->type() != o.type)
        fail(op, std::string("register ") + std::to_string(i) + " of " + o.name + " must be " + o.type.str() +
                     " for atom '" + atom.name + "'");
  for (unsigned i = 0; i < op->numResults(); ++i)
    if (op->result(i)->type() != c.type)
      fail(op, "results must be " + c.type.str() + " for atom '" + atom.name + "'");
  if (atom.aType.isFloat() != atom.cType.isFloat() || atom.bType.isFloat() != atom.cType.isFloat())
    fail(op, "atom '" + atom.name + "' mixes integer and float types");
}

// One warp's operand as a row-major rows x cols matrix, from its lanes' registers:
// every element must be held, and registers that hold the same one must agree.
Words gather(const Op *op, const MatrixAtom &atom, const Operand &o,
             const std::vector<const Words *> &operands, unsigned firstThread, unsigned warpSize) {
  size_t size = static_cast<size_t>(o.rows * o.cols);
  Words matrix(size);
  std::vector<bool> held(size, false);
  for (unsigned lane = 0; lane < warpSize; ++lane)
    for (unsigned reg = 0; reg < o.registers(); ++reg) {
      Element e = o.element(reg, lane);
      auto where = [&] { return "register " + std::to_string(reg) + " of lane " + std::to_string(lane); };
      if (e.first >= o.rows || e.second >= o.cols)
        fail(op, "atom '" + atom.name + "' maps " + where() + " to " + o.name + elementName(e) +
                     ", outside its " + std::to_string(o.rows) + " x " + std::to_string(o.cols));
      size_t i = static_cast<size_t>(e.first * o.cols + e.second);
      uint64_t w = (*operands[o.first + reg])[firstThread + lane];
      if (held[i] && matrix[i] != w)
        fail(op, where() + " and another register of warp " + std::to_string(firstThread / warpSize) +
                     " hold different values of " + o.name + elementName(e));
      matrix[i] = w;
      held[i] = true;
    }
  for (size_t i = 0; i < size; ++i)
    if (!held[i])
      fail(op, std::string(o.name) + elementName({int64_t(i) / o.cols, int64_t(i) % o.cols}) +
                   " is in no register of atom '" + atom.name + "'");
  return matrix;
}

// cvt.rna.tf32.f32: keeps 10 of the 23 mantissa bits, to nearest with ties away
// from zero (adding half the dropped range to the magnitude does both; a carry into
// the exponent is correct, up to infinity). Infinities and NaNs stay as they are.
uint64_t roundToTf32(uint64_t w) {
  uint32_t x = static_cast<uint32_t>(w);
  if ((x & 0x7f800000u) == 0x7f800000u)
    return x;
  return (x + 0x1000u) & ~0x1fffu;
}

// Integer inputs are signed unless the atom's name says otherwise: PTX-style names
// ("mma.m16n8k32.s32.u8.s8") give D's type, then A's and B's (one field: both).
bool unsignedInput(const MatrixAtom &atom, bool isB) {
  std::vector<std::string_view> fields;
  std::string_view name = atom.name;
  for (size_t dot; (dot = name.find('.')) != std::string_view::npos; name.remove_prefix(dot + 1))
    fields.push_back(name.substr(0, dot));
  fields.push_back(name);
  if (fields.size() < 4)
    return false;
  return fields[isB && fields.size() > 4 ? 4 : 3].starts_with('u');
}

// D = A * B + C of one warp, row-major m x n. Floats: exact inputs (tf32 atoms round
// theirs first), the products and C summed in double, rounded once to C's type;
// f16/bf16/tf32 products are exact in double, and so are their sums unless the
// exponents spread too far. Integers: in 64 bits, wrapped to C's width.
Words multiply(const MatrixAtom &atom, const Words &a, const Words &b, const Words &c) {
  int64_t m = atom.m, n = atom.n, k = atom.k;
  bool tf32 = atom.name.find("tf32") != std::string::npos;
  bool ua = unsignedInput(atom, false), ub = unsignedInput(atom, true);
  auto floatIn = [tf32](uint64_t w, Type t) { return floatOf(tf32 ? roundToTf32(w) : w, t); };
  auto intIn = [](uint64_t w, Type t, bool isUnsigned) {
    return isUnsigned ? mask(w, bitsOf(t)) : static_cast<uint64_t>(signedOf(w, bitsOf(t)));
  };
  Words d(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      uint64_t cw = c[i * n + j];
      if (atom.cType.isFloat()) {
        double sum = floatOf(cw, atom.cType);
        for (int64_t x = 0; x < k; ++x)
          sum += floatIn(a[i * k + x], atom.aType) * floatIn(b[x * n + j], atom.bType);
        d[i * n + j] = wordOf(sum, atom.cType);
      } else { // unsigned arithmetic: wraps modulo 2^64 instead of overflowing
        uint64_t sum = static_cast<uint64_t>(signedOf(cw, bitsOf(atom.cType)));
        for (int64_t x = 0; x < k; ++x)
          sum += intIn(a[i * k + x], atom.aType, ua) * intIn(b[x * n + j], atom.bType, ub);
        d[i * n + j] = mask(sum, bitsOf(atom.cType));
      }
    }
  return d;
}

// ---- th.ldmatrix

using MatrixRows = std::array<std::array<uint16_t, 8>, 8>;

// Matrix j of the warp starting at `firstThread`: the 16-byte rows that lanes
// 8j .. 8j+7 name. Each row's elements go to several lanes, so for the race checks
// every lane of the warp reads every row. The 8 rows are one phase for the banks.
MatrixRows readMatrix(const Op *op, SharedMemory &shared, const Words &offsets, unsigned firstThread,
                      unsigned j, unsigned warpSize, BankCounts &banks) {
  MatrixRows rows;
  std::array<LaneAccess, 8> phase;
  for (unsigned r = 0; r < 8; ++r) {
    unsigned lane = 8 * j + r;
    uint64_t offset = offsets[firstThread + lane];
    if (offset % 16)
      fail(op, "lane " + std::to_string(lane) + " names shared byte " + std::to_string(offset) +
                   ", which is not 16-byte aligned");
    checkInAllocation(op, offset, 16);
    for (unsigned reader = 0; reader < warpSize; ++reader)
      shared.read(op, firstThread + reader, offset, 16, rows[r].data());
    phase[r] = {offset, true};
  }
  countPhase(phase, 16, banks);
  return rows;
}

} // namespace

std::vector<Words> runMma(const Op *op, const MatrixAtom &atom, const std::vector<const Words *> &operands,
                          unsigned threads, unsigned warpSize) {
  requireWholeWarps(op, threads, warpSize);
  unsigned bFirst = registersOf(atom.a), cFirst = bFirst + registersOf(atom.b);
  std::optional<IsaFragments> isa = isaFragments(op, atom, warpSize);
  const IsaFragments *fromIsa = isa ? &*isa : nullptr;
  std::array<Operand, 3> ops = {Operand{"A", atom.a, atom.aType, atom.m, atom.k, 0, fromIsa, 0},
                                Operand{"B", atom.b, atom.bType, atom.k, atom.n, bFirst, fromIsa, 1},
                                Operand{"C", atom.c, atom.cType, atom.m, atom.n, cFirst, fromIsa, 2}};
  checkSignature(op, atom, ops, warpSize);
  const Operand &c = ops[2];
  std::vector<Words> results(registersOf(c.map), Words(threads));
  for (unsigned first = 0; first < threads; first += warpSize) {
    Words d = multiply(atom, gather(op, atom, ops[0], operands, first, warpSize),
                       gather(op, atom, ops[1], operands, first, warpSize),
                       gather(op, atom, c, operands, first, warpSize));
    // D's registers are C's: the same map.
    for (unsigned lane = 0; lane < warpSize; ++lane)
      for (unsigned reg = 0; reg < results.size(); ++reg) {
        Element e = c.element(reg, lane);
        results[reg][first + lane] = d[e.first * atom.n + e.second];
      }
  }
  return results;
}

Words runLdMatrix(const Op *op, SharedMemory &shared, const Words &offsets, unsigned threads,
                  unsigned warpSize, BankCounts &banks) {
  if (warpSize != 32)
    fail(op, "needs warps of 32 lanes, not " + std::to_string(warpSize));
  requireWholeWarps(op, threads, warpSize);
  // Each lane receives one 32-bit word of each matrix (two 16-bit units), split into
  // the result's elements: two 16-bit ones, four bytes or one 32-bit element.
  unsigned count = static_cast<unsigned>(op->intAttr("count"));
  unsigned bits = op->result()->type().element().bitWidth(), per = 32 / bits, n = count * per;
  bool trans = op->intAttr("trans") != 0;
  Words out(static_cast<size_t>(threads) * n);
  for (unsigned first = 0; first < threads; first += warpSize)
    for (unsigned j = 0; j < count; ++j) {
      MatrixRows rows = readMatrix(op, shared, offsets, first, j, warpSize, banks);
      for (unsigned lane = 0; lane < warpSize; ++lane) {
        uint32_t word = 0;
        for (unsigned u = 0; u < 2; ++u) {
          unsigned r = lane / 4, c = 2 * (lane % 4) + u;
          word |= uint32_t(trans ? rows[c][r] : rows[r][c]) << (16 * u);
        }
        for (unsigned e = 0; e < per; ++e)
          out[(first + lane) * n + per * j + e] = bits == 32 ? word : (word >> (bits * e)) & ((1u << bits) - 1);
      }
    }
  return out;
}

// ---- th.wgmma

namespace {

// The shared byte of element (mn, k) of a wgmma operand that starts at byte `start`, in
// the canonical layout its attributes name (PTX ISA, "Shared Memory Matrix Layout":
// K-major ((8,m),(T,2k)) : ((S/16*T, SBO), (1, T)), MN-major ((T,S/16,m),(8,k)) :
// ((1, T, LBO), (S/16*T, SBO)) in elements, T elements per 16 bytes, S the swizzle width),
// then the swizzle: address bits [4, 4 + log2(S/16)) ^= bits [7, 7 + log2(S/16)).
uint64_t canonicalByte(const Op *op, const std::string &x, uint64_t start, int64_t mn, int64_t k, uint64_t eb) {
  bool mnMajor = op->stringAttr(x + "_major") == "mn";
  uint64_t s = static_cast<uint64_t>(op->intAttr(x + "_swizzle"));
  uint64_t sbo = static_cast<uint64_t>(op->intAttr(x + "_sbo")), lbo = static_cast<uint64_t>(op->intAttr(x + "_lbo"));
  uint64_t inner = mnMajor ? static_cast<uint64_t>(mn) : static_cast<uint64_t>(k);
  uint64_t outer = mnMajor ? static_cast<uint64_t>(k) : static_cast<uint64_t>(mn);
  uint64_t perRow = s / eb; // elements of one swizzled row
  uint64_t byte = start + (inner % perRow) * eb + (outer % 8) * s + (outer / 8) * sbo;
  if (mnMajor)
    byte += (inner / perRow) * lbo;
  else if (inner >= perRow)
    fail(op, "K-major operand " + x + " reaches past its " + std::to_string(s) + "-byte rows");
  uint64_t bits = s == 128 ? 3 : s == 64 ? 2 : 1;
  return byte ^ (((byte >> 7) & ((1u << bits) - 1)) << 4);
}

// A rows x cols operand of one warpgroup from shared memory, read by its first thread
// (the race checks see that thread read every element).
Words readTile(const Op *op, SharedMemory &shared, const std::string &x, unsigned allocOperand,
               const std::vector<const Words *> &operands, unsigned first, int64_t rows, int64_t cols,
               bool mnIsRow, uint64_t eb) {
  const Words &base = *operands[allocOperand], &index = *operands[allocOperand + 1];
  auto startOf = [&](unsigned t) { return base[t] + static_cast<uint64_t>(signedOf(index[t], 32)) * eb; };
  uint64_t start = startOf(first);
  for (unsigned t = first; t < first + 128; ++t)
    if (startOf(t) != start)
      fail(op, "the threads of warpgroup " + std::to_string(first / 128) + " name different starts of " + x);
  if (start % 16)
    fail(op, "operand " + x + " starts at shared byte " + std::to_string(start) + ", not 16-byte aligned");
  Words tile(static_cast<size_t>(rows * cols));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      uint64_t byte = canonicalByte(op, x, start, mnIsRow ? r : c, mnIsRow ? c : r, eb);
      checkInAllocation(op, byte, eb, allocOperand);
      uint64_t w = 0;
      shared.read(op, first, byte, eb, &w);
      tile[static_cast<size_t>(r * cols + c)] = w;
    }
  return tile;
}

// Element of a warpgroup operand map for (reg, thread in the warpgroup).
Element groupElement(const MatrixAtom::OperandMap &map, unsigned reg, unsigned thread, unsigned warpSize) {
  Element e = elementOf(map, reg, thread % warpSize);
  unsigned warp = thread / warpSize;
  for (size_t j = 0; j < map.warpBits.size(); ++j)
    if ((warp >> j) & 1) {
      e.first ^= map.warpBits[j].first;
      e.second ^= map.warpBits[j].second;
    }
  return e;
}

Words gatherGroup(const Op *op, const MatrixAtom::OperandMap &map, int64_t rows, int64_t cols, const char *name,
                  const std::vector<const Words *> &operands, unsigned firstOperand, unsigned first,
                  unsigned warpSize) {
  Words matrix(static_cast<size_t>(rows * cols));
  std::vector<bool> held(matrix.size(), false);
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned reg = 0; reg < registersOf(map); ++reg) {
      Element e = groupElement(map, reg, t, warpSize);
      size_t i = static_cast<size_t>(e.first * cols + e.second);
      uint64_t w = (*operands[firstOperand + reg])[first + t];
      if (held[i] && matrix[i] != w)
        fail(op, std::string("two registers of warpgroup ") + std::to_string(first / 128) +
                     " hold different values of " + name + elementName(e));
      matrix[i] = w;
      held[i] = true;
    }
  for (size_t i = 0; i < held.size(); ++i)
    if (!held[i])
      fail(op, std::string(name) + elementName({int64_t(i) / cols, int64_t(i) % cols}) + " is in no register");
  return matrix;
}

} // namespace

std::vector<Words> runWgmma(const Op *op, const MatrixAtom &atom, SharedMemory &shared,
                            const std::vector<const Words *> &operands, unsigned threads, unsigned warpSize) {
  if (atom.warps != 4 || warpSize != 32)
    fail(op, "atom '" + atom.name + "' is not a warpgroup atom of 4 warps of 32 lanes");
  if (threads % 128)
    fail(op, "runs on whole warpgroups; num_threads " + std::to_string(threads) + " is not a multiple of 128");
  bool aShared = op->stringAttr("a") == "shared";
  unsigned numA = aShared ? 0 : registersOf(atom.a), cFirst = (aShared ? 4 : 2) + numA;
  unsigned numC = registersOf(atom.c);
  if (op->numOperands() != cFirst + numC || op->numResults() != numC)
    fail(op, "atom '" + atom.name + "' takes " + std::to_string(cFirst + numC) + " operands and gives " +
                 std::to_string(numC) + " results");
  uint64_t eb = std::max(1u, bitsOf(atom.aType) / 8);
  std::vector<Words> results(numC, Words(threads));
  for (unsigned first = 0; first < threads; first += 128) {
    Words b = readTile(op, shared, "b", 0, operands, first, atom.k, atom.n, false, eb);
    Words a = aShared ? readTile(op, shared, "a", 2, operands, first, atom.m, atom.k, true, eb)
                      : gatherGroup(op, atom.a, atom.m, atom.k, "A", operands, 2, first, warpSize);
    Words c = gatherGroup(op, atom.c, atom.m, atom.n, "C", operands, cFirst, first, warpSize);
    Words d = multiply(atom, a, b, c);
    for (unsigned t = 0; t < 128; ++t)
      for (unsigned reg = 0; reg < numC; ++reg) {
        Element e = groupElement(atom.c, reg, t, warpSize);
        results[reg][first + t] = d[static_cast<size_t>(e.first * atom.n + e.second)];
      }
  }
  return results;
}

} // namespace trident::simt::test::detail
